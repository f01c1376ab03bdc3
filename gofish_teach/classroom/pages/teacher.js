// The teacher's page: open tables, watch every table, hand seats to bots, download the class's games.
// The teacher's token is the link's #fragment (never sent in a request line); names are shown as text only.
"use strict";
(() => {
  const {$, el, problem} = window.gofish;
  const token = decodeURIComponent(location.hash.slice(1));
  const tables = new Map();
  let ws = null, strategies = ["random", "memory", "most_held", "greedy"], retry = 0;

  const send = (m) => { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(m)); };

  function connect() {
    ws = new WebSocket(window.gofish.socket("/ws/teacher"));
    ws.onopen = () => { retry = 0; send({type: "hello", token: token}); };
    ws.onmessage = (m) => receive(JSON.parse(m.data));
    ws.onclose = () => { problem("The connection to the host was lost: reconnecting…"); setTimeout(connect, Math.min(8000, 400 * 2 ** retry++)); };
  }

  function receive(msg) {
    if (msg.type === "host") {
      problem("");
      $("join-url").textContent = msg.join; $("join-url").href = msg.join;
      strategies = msg.strategies;
      seatKinds();
      tables.clear();
      for (const t of msg.tables) tables.set(t.code, t);
      renderAll();
    } else if (msg.type === "table") {
      tables.set(msg.table.code, msg.table); render(msg.table);
    } else if (msg.type === "opened") {
      problem("");
    } else if (msg.type === "log") {
      const box = document.querySelector(`[data-code="${msg.code}"] .whole-log`);
      if (box) { box.hidden = false; box.replaceChildren(...msg.lines.map((line) => el("li", {}, line))); }
    } else if (msg.type === "error") {
      problem(msg.problem);
    }
  }

  function seatKinds() {
    const box = $("seat-kinds"), n = Number($("players").value);
    const old = [...box.querySelectorAll("select")].map((s) => s.value);
    box.replaceChildren(el("legend", {}, "Who sits at each seat"));
    for (let s = 0; s < n; s++) {
      const select = el("select", {id: "seat-" + s}, el("option", {value: "learner"}, "a learner"),
                        ...strategies.map((k) => el("option", {value: k}, "bot: " + k)));
      select.value = old[s] || (s < 2 ? "learner" : "memory");
      box.append(el("label", {htmlFor: "seat-" + s}, "Seat " + (s + 1)), select);
    }
  }

  function renderAll() {
    $("tables-list").replaceChildren();
    for (const t of tables.values()) render(t);
  }

  function render(t) {
    let box = document.querySelector(`[data-code="${t.code}"]`);
    const fresh = !box;
    if (fresh) {
      box = el("article", {class: "panel table-box", "data-code": t.code, "aria-label": "Table " + t.code});
      $("tables-list").append(box);
    }
    const kept = box.querySelector(".whole-log");
    const heading = el("h3", {}, "Table " + t.code + (t.label ? " · " + t.label : ""));
    const qr = el("img", {src: "/qr.svg?code=" + encodeURIComponent(t.code), alt: "QR code to join table " + t.code, width: 96, height: 96, class: "qr"});
    const facts = el("p", {class: "info"}, t.rules.name + " rules" + (t.rules.variants.length ? " (" + t.rules.variants.join(", ") + ")" : "") +
      " · game " + t.game + " · " + t.status + " · " + t.asks + " asks · ocean " + t.ocean +
      (t.deadline !== null && t.deadline !== undefined ? " · clock " + Math.round(t.deadline) + " s" : ""));
    const seats = el("ul", {class: "seats"});
    t.seats.forEach((seat, s) => {
      const who = seat.kind === "bot" ? "bot: " + seat.strategy : seat.open ? "open for a learner" : seat.connected ? "learner" : "learner, away";
      const select = el("select", {"aria-label": "Who sits at seat " + (s + 1) + " of table " + t.code},
                        el("option", {value: "learner"}, "a learner (opens the seat)"), ...strategies.map((k) => el("option", {value: k}, "bot: " + k)));
      select.value = seat.kind === "bot" ? seat.strategy : "learner";
      const set = el("button", {type: "button"}, "Set");
      set.addEventListener("click", () => send({type: "seat", code: t.code, seat: s, kind: select.value}));
      seats.append(el("li", {class: "seat" + (t.turn === s ? " turn" : "") + (t.winners.includes(s) ? " won" : "")},
        el("span", {class: "name"}, seat.name), " (" + who + ") · " + t.hand_sizes[s] + " cards · " + t.books[s] + " books ", select, " ", set));
    });
    const start = el("button", {type: "button", disabled: t.started}, "Start now");
    start.addEventListener("click", () => send({type: "start", code: t.code}));
    const deal = el("button", {type: "button", disabled: !(t.status === "over" || t.asks === 0)}, "Deal a new game");
    deal.addEventListener("click", () => send({type: "deal", code: t.code}));
    const chances = el("button", {type: "button", "aria-pressed": String(t.chances)}, t.chances ? "Chances: shown" : "Chances: hidden");
    chances.addEventListener("click", () => send({type: "settings", code: t.code, chances: !t.chances}));
    const clock = el("input", {type: "number", min: 0, max: 600, value: t.clock, "aria-label": "Turn clock in seconds, table " + t.code});
    const setClock = el("button", {type: "button"}, "Set clock");
    setClock.addEventListener("click", () => send({type: "settings", code: t.code, clock: Number(clock.value)}));
    const whole = el("button", {type: "button"}, "Whole log");
    whole.addEventListener("click", () => send({type: "log", code: t.code}));
    const recent = el("ol", {class: "log"}, ...t.recent.map((line) => el("li", {}, line)));
    box.replaceChildren(heading, qr, facts, seats, el("p", {}, start, " ", deal, " ", chances, " ", clock, " ", setClock, " ", whole),
                        recent, kept || el("ol", {class: "log whole-log", hidden: true}));
  }

  $("players").addEventListener("change", seatKinds);
  $("open").addEventListener("submit", (event) => {
    event.preventDefault();
    const n = Number($("players").value);
    const message = {type: "open", rules: $("rules").value, tables: Number($("tables").value),
                     seats: [...Array(n).keys()].map((s) => $("seat-" + s).value), chances: $("chances").checked,
                     clock: Number($("clock").value), pause: Number($("pause").value), bluff: $("bluff").checked,
                     teams: $("teams").checked};
    if ($("pairs").checked) message.book_size = 2;
    if ($("label").value) message.label = $("label").value;
    send(message);
  });
  $("download").addEventListener("click", async () => {
    const answer = await fetch("/teacher/games.jsonl", {headers: {Authorization: "Bearer " + token}});
    if (!answer.ok) { problem("Could not download the games: " + answer.status + " " + answer.statusText); return; }
    const link = el("a", {href: URL.createObjectURL(await answer.blob()), download: "class-games.jsonl"});
    document.body.append(link); link.click(); link.remove();
  });
  if (!token) problem("This page needs the teacher's link the host printed (it ends in #…).");
  seatKinds();
  connect();
})();
