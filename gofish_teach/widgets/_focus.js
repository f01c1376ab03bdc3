// The browser side of gofish_teach.widgets._focus.FocusKeeper (an anywidget front-end module).
//
// At the table the kernel disables the button you just pressed (your ask is done, the bots play) or
// takes it away (a rank no longer in your hand); the browser then drops the keyboard focus to the
// page's body, and a keyboard user must Tab through the whole notebook again. This keeps the focus
// in the table: when the control that had it is disabled or gone, it moves to the control the game
// now waits for (the ocean after "Go Fish!", an Ask button once a rank is picked, a rank on your
// turn), or else to the status line, which says what happens; from there, to that control as soon
// as the game waits for you again. A focus that left the table (a click elsewhere) is left alone.
// Your hand is one Tab stop (the rank picked, else the first), its ranks reached with the arrow keys,
// so that after picking a rank one Tab reaches the Ask buttons.

// The controls the game may wait for, in the order a turn takes them.
const NEXT = [".gf-ocean", ".gf-ask", ".gf-rank"];
// Keys that move the focus along your hand's ranks (one Tab stop for the whole hand, as in a toolbar).
const ALONG = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

function render({ el }) {
  el.style.display = "none";
  let root = null;
  let last = null;     // the control in the table that last had the focus
  let parked = false;  // the focus is on the status line because the control that had it went away

  const lost = () => last !== null && (last.disabled || !last.isConnected)
    && (document.activeElement === null || document.activeElement === document.body || document.activeElement === last);

  function waitedFor() {
    for (const selector of NEXT) {
      const found = [...root.querySelectorAll(`button${selector}:not([disabled])`)]
        .filter((b) => b.offsetParent !== null);
      // an Ask button only once a rank is picked (they are enabled then), a picked rank first
      const picked = found.find((b) => b.classList.contains("mod-primary"));
      if (found.length) return picked || found[0];
    }
    return null;
  }

  function move(to, park) {
    parked = park;
    last = to;
    to.focus({ preventScroll: true });
  }

  function look() {
    if (root === null) return;
    roving();
    if (lost()) {
      const next = waitedFor();
      const status = root.querySelector(".gf-statusbox");
      if (next) move(next, false);
      else if (status) {
        status.tabIndex = -1;  // focusable by the script, not a Tab stop
        move(status, true);
      }
    } else if (parked && document.activeElement === last) {
      const next = waitedFor();
      if (next) move(next, false);
    }
  }

  function ranks() {
    return [...root.querySelectorAll("button.gf-rank:not([disabled])")].filter((b) => b.offsetParent !== null);
  }

  // Your hand is one Tab stop: the rank picked (else the one with the focus, else the first); the
  // arrow keys move along it. So once a rank is picked, the next Tab reaches the Ask buttons.
  function roving() {
    const all = ranks();
    const stop = all.find((b) => b.classList.contains("mod-primary"))
      || all.find((b) => b === document.activeElement) || all[0];
    for (const b of all) {
      const index = b === stop ? 0 : -1;
      if (b.tabIndex !== index) b.tabIndex = index;
    }
  }

  function along(event) {
    const step = event.key === "Home" ? -Infinity : event.key === "End" ? Infinity : ALONG[event.key];
    if (step === undefined || !event.target.matches("button.gf-rank")) return;
    const all = ranks();
    const here = all.indexOf(event.target);
    if (here < 0 || all.length < 2) return;
    const to = all[Math.max(0, Math.min(all.length - 1, here + step))];
    event.preventDefault();
    to.focus();
  }

  function attach() {
    root = el.closest(".gf-table");
    if (root === null) return false;
    root.addEventListener("keydown", along);
    root.addEventListener("focusin", (event) => {
      if (event.target !== last) parked = false;
      last = event.target;
    });
    root.addEventListener("focusout", (event) => {
      // a focus taken elsewhere (not lost with its control) is the person's: forget it
      setTimeout(() => {
        if (last === event.target && !lost() && !root.contains(document.activeElement)) {
          last = null;
          parked = false;
        }
      });
    });
    // "class": a rank picked (its button turns primary) moves the hand's Tab stop to it
    new MutationObserver(() => setTimeout(look)).observe(root, {
      subtree: true, childList: true, attributes: true, attributeFilter: ["disabled", "class"],
    });
    roving();
    return true;
  }

  // The view is drawn before the table puts it on the page: attach once it is there.
  const wait = setInterval(() => {
    if (attach()) clearInterval(wait);
  }, 100);
  return () => clearInterval(wait);
}

export default { render };
