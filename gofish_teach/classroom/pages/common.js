// What both pages share: building elements (every string a text node, never markup), the problem line,
// and the websocket's address on this host.
"use strict";
window.gofish = {
  $: (id) => document.getElementById(id),
  el(tag, props = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (k === "class") e.className = v;
      else if (k.startsWith("aria-") || k.startsWith("data-")) e.setAttribute(k, v);
      else e[k] = v;
    }
    e.append(...children);  // strings become text nodes
    return e;
  },
  problem(text) {
    const line = document.getElementById("problem");
    line.textContent = text || "";
    line.hidden = !text;
  },
  socket: (path) => (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path,
};
