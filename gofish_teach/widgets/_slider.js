// The browser side of gofish_teach.widgets._slider.Slider (an anywidget front-end module).
//
// A native <input type="range"> with a <label for> tied to it: the browser gives the slider its
// accessible name (the description) and its keyboard (arrows, Page Up/Down, Home/End); the value
// goes to the kernel on "change" (released, or a key pressed), and on "input" too with
// continuous_update. The readout beside it is an <output> for the same input.

// The keys that move a range input.
const KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End"]);

function render({ model, el }) {
  // A random id, not a counter: each widget may load its own copy of this module.
  const id = `gf-slider-${Math.random().toString(36).slice(2)}`;
  const label = Object.assign(document.createElement("label"), { htmlFor: id });
  const input = Object.assign(document.createElement("input"), { type: "range", id });
  const readout = document.createElement("output");
  label.className = "jupyter-widget-label widget-label";
  readout.className = "jupyter-widget-readout widget-readout";
  readout.setAttribute("for", id);
  el.classList.add("jupyter-widget-inline-hbox", "widget-inline-hbox", "gf-slider");
  el.append(label, input, readout);

  function draw() {
    label.textContent = label.title = model.get("description");
    label.style.width = label.style.minWidth = model.get("description_width");
    // min and max first: the browser clamps a value to the range it has when the value is set
    Object.assign(input, { min: model.get("min"), max: model.get("max"), step: model.get("step") });
    input.value = model.get("value");
    input.disabled = model.get("disabled");
    readout.textContent = input.value;
  }
  function send() {
    model.set("value", Number(input.value));
    model.save_changes();
  }
  input.addEventListener("input", () => {
    readout.textContent = input.value;
    if (model.get("continuous_update")) send();
  });
  input.addEventListener("change", send);
  // JupyterLab's notebook takes the arrow keys for its own shortcuts (and prevents their default):
  // while the slider has the focus they are the slider's, as ipywidgets' own inputs keep theirs.
  input.addEventListener("keydown", (event) => {
    if (KEYS.has(event.key)) event.stopPropagation();
  });
  const traits = ["value", "min", "max", "step", "description", "description_width", "disabled"];
  for (const trait of traits) model.on(`change:${trait}`, draw);
  draw();
  return () => traits.forEach((trait) => model.off(`change:${trait}`, draw));
}

export default { render };
