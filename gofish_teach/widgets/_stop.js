// The browser side of gofish_teach.widgets._stop.StopMark (an anywidget front-end module).
//
// When Run All stops at a question the learner has not answered, the kernel counts a stop
// ("asked"). Then the page goes to the question: it is scrolled to the middle of the view and its
// first answer control takes the keyboard focus (which also makes its cell JupyterLab's active
// cell, where Run > Run Selected Cell and All Below starts). Once per stop: "seen" is set to the
// stops handled, so a view drawn again later (a cell scrolled back into view) does not jump.

function render({ model, el }) {
  el.style.display = "none";
  let timers = [];

  function question() {
    return el.closest(".gf-question") || el.parentElement;
  }

  function inView(node) {
    const box = node.getBoundingClientRect();
    return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
  }

  function go() {
    const target = question();
    if (!target || model.get("seen") >= model.get("asked")) return;
    model.set("seen", model.get("asked"));
    model.save_changes();
    const control = target.querySelector("button:not([disabled]), input:not([disabled])");
    const place = () => {
      target.scrollIntoView({ block: "center", inline: "nearest" });
      if (control && document.activeElement !== control) control.focus({ preventScroll: true });
    };
    place();
    // Cells drawn as they come into view (JupyterLab's windowing) change the page's height
    // under the scroll: look again a few times, and place the question again if it moved away.
    timers.forEach(clearTimeout);
    timers = [250, 750, 1500, 3000].map((ms) => setTimeout(() => {
      if (!inView(target)) place();
    }, ms));
  }

  model.on("change:asked", go);
  // Drawn after the stop was counted (the stop's message can come before the view is drawn).
  const wait = setTimeout(go, 0);
  return () => {
    clearTimeout(wait);
    timers.forEach(clearTimeout);
    model.off("change:asked", go);
  };
}

export default { render };
