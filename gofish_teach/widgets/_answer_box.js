// The browser side of gofish_teach.widgets._answer_box.AnswerBox (an anywidget front-end module).
//
// A text box with a <label for> and a Check button, drawn with ipywidgets' own classes so that they
// look like its Text and Button. Everything goes through one model, whose messages reach the kernel
// in order: leaving the box sends its text ("change"); a press of Check sends one more press and the
// text it was for together, so the kernel never hears of a press without the text it was for.

function render({ model, el }) {
  // A random id, not a counter: each widget may load its own copy of this module.
  const id = `gf-answer-${Math.random().toString(36).slice(2)}`;
  const field = document.createElement("div");
  const label = Object.assign(document.createElement("label"), { htmlFor: id });
  const input = Object.assign(document.createElement("input"), { type: "text", id });
  const button = Object.assign(document.createElement("button"), { type: "button" });
  field.className = "jupyter-widgets widget-inline-hbox widget-text";
  label.className = "widget-label";
  input.className = "widget-input";
  button.className = "jupyter-widgets jupyter-button widget-button";
  el.classList.add("widget-inline-hbox", "gf-answer");
  field.append(label, input);
  el.append(field, button);

  function draw() {
    label.textContent = label.title = model.get("description");
    input.placeholder = model.get("placeholder");
    button.textContent = model.get("button");
    button.title = model.get("tooltip");
    input.disabled = button.disabled = model.get("disabled");
  }
  function drawValue() {
    if (input.value !== model.get("value")) input.value = model.get("value");
  }
  function send() {
    if (input.value !== model.get("value")) {
      model.set("value", input.value);
      model.save_changes();
    }
  }
  function check() {
    // One save: the press and the text it is for leave together. If the model's last message is
    // still unanswered they wait, merged with later changes: "checked" keeps the pressed text.
    model.set("value", input.value);
    model.set("checked", input.value);
    model.set("checks", model.get("checks") + 1);
    model.save_changes();
  }
  input.addEventListener("change", send);
  input.addEventListener("keydown", (event) => {
    // The box's keys are its own, not the notebook's shortcuts (as in ipywidgets' Text).
    event.stopPropagation();
    if (event.key === "Enter" && !event.isComposing) check();
  });
  button.addEventListener("click", check);
  const traits = ["description", "placeholder", "button", "tooltip", "disabled"];
  for (const trait of traits) model.on(`change:${trait}`, draw);
  model.on("change:value", drawValue);
  draw();
  drawValue();
  return () => {
    traits.forEach((trait) => model.off(`change:${trait}`, draw));
    model.off("change:value", drawValue);
  };
}

export default { render };
