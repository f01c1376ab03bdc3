// The learner's page: join a table with its code and a name, then play from what the host sends this seat.
// Everything a learner or the host supplies is put in the page as text (textContent), never as markup.
"use strict";
(() => {
  const {$, el, problem} = window.gofish;
  const SUIT_RED = /[♦♥]/;
  let ws = null, state = null, log = [], rank = null, code = null, retry = 0, chancesOn = false, chances = null;
  let resuming = false, deadline = null;

  const plural = (r) => ({A: "Aces", J: "Jacks", Q: "Queens", K: "Kings"}[r] || r + "s");
  const tokenKey = (c) => "gofish-seat:" + c;

  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }

  function connect(first) {
    ws = new WebSocket(window.gofish.socket("/ws/play"));
    ws.onopen = () => { retry = 0; send(first()); };
    ws.onmessage = (m) => receive(JSON.parse(m.data));
    ws.onclose = () => {
      if (!code) return;
      $("status").textContent = "The connection to the host was lost: reconnecting…";
      setTimeout(() => connect(resume), Math.min(8000, 400 * 2 ** retry++));
    };
  }

  function resume() {
    resuming = true;
    return {type: "resume", code: code, token: localStorage.getItem(tokenKey(code)) || ""};
  }

  function receive(msg) {
    if (msg.type === "seated") {
      code = msg.code; resuming = false;
      if (msg.token) localStorage.setItem(tokenKey(code), msg.token);
      history.replaceState(null, "", "/?code=" + encodeURIComponent(code));
      problem(""); $("join").hidden = true; $("table").hidden = false;
    } else if (msg.type === "update") {
      if (msg.from === 0) log = [];
      log.push(...msg.events);
      if (!state || state.game !== msg.game || state.n !== msg.n) chances = null;
      state = msg;
      render();
    } else if (msg.type === "chances") {
      if (state && msg.n === state.n && msg.game === state.game) { chances = msg; renderChances(); }
    } else if (msg.type === "unseated") {
      leave("Your seat was given to someone else: " + msg.reason + ".");
    } else if (msg.type === "error") {
      if (resuming && !state) { leave(msg.problem); return; }
      problem(msg.problem);
    }
  }

  function leave(why) {
    if (code) localStorage.removeItem(tokenKey(code));
    const was = code;
    code = null; state = null; resuming = false;
    if (ws) ws.close();
    $("table").hidden = true; $("join").hidden = false; $("code").value = was || "";
    problem(why);
  }

  function render() {
    const s = state, me = s.seat, names = s.names;
    const myTurn = s.legal.length > 0;
    const ranks = new Set(s.legal.map((a) => a[1]));
    if (!ranks.has(rank)) rank = ranks.size === 1 ? [...ranks][0] : null;
    const variants = s.rules.variants.length ? " (" + s.rules.variants.join(", ") + ")" : "";
    $("where").textContent = "· table " + s.code + " · " + s.rules.name + " rules" + variants + " · you are " + names[me];

    let status;
    if (s.over) status = log.length ? log[log.length - 1].text : "The game is over.";
    else if (!s.started) status = "Waiting for the others to join (or for your teacher to start the game).";
    else if (myTurn) status = "Your turn: pick a rank from your hand, then the player to ask.";
    else status = names[s.turn] + "'s turn.";
    $("status").textContent = status;
    deadline = s.clock !== null && s.clock !== undefined && !s.over ? Date.now() + 1000 * s.clock : null;
    $("clock").textContent = clockText();

    const seats = $("seats");
    seats.replaceChildren();
    s.seats.forEach((seat, q) => {
      if (q === me) return;
      const who = seat.kind === "bot" ? "bot: " + seat.strategy : seat.open ? "empty seat" : seat.connected ? "learner" : "learner, away";
      const books = s.books[q].length ? s.books[q].map(plural).join(", ") : "none";
      seats.append(el("li", {class: "seat" + (q === s.turn && !s.over ? " turn" : "") + (s.winners.includes(q) ? " won" : ""),
                             "data-seat": String(q)},
        el("span", {class: "name"}, names[q]), " ", el("span", {class: "kind"}, "(" + who + (q === s.partner ? ", your partner" : "") + ")"),
        el("br"), s.hand_sizes[q] + " cards · books: " + books));
    });

    $("hand-info").textContent = "· " + s.hand.length + " cards · your books: " + (s.books[me].length ? s.books[me].map(plural).join(", ") : "none");
    const byRank = new Map();
    for (const card of s.hand) {
      const r = card.slice(0, -1);
      if (!byRank.has(r)) byRank.set(r, []);
      byRank.get(r).push(card);
    }
    for (const r of ranks) if (!byRank.has(r)) byRank.set(r, []);  // bluffing: ranks you do not hold
    const hand = $("hand");
    hand.replaceChildren();
    for (const [r, cards] of byRank) {
      const button = el("button", {type: "button", class: "rank", disabled: !ranks.has(r), "aria-pressed": String(r === rank),
                                   "data-rank": r, "aria-label": plural(r) + (cards.length ? ": " + cards.join(" ") : " (a bluff)")},
        ...(cards.length ? cards.map((c) => el("span", {class: "card " + (SUIT_RED.test(c) ? "red" : "black")}, c)) : [el("span", {class: "card bluff"}, r + "?")]));
      button.addEventListener("click", () => { rank = r; render(); });
      hand.append(button);
    }

    const suits = [...new Set(s.legal.filter((a) => a[1] === rank && a.length > 2).map((a) => a[2]))];
    $("suit-box").hidden = !suits.length;
    if (suits.length && [...$("suit").options].map((o) => o.value).join() !== suits.join()) {
      $("suit").replaceChildren(...suits.map((x) => el("option", {value: x}, x)));
    }
    const asks = $("asks");
    asks.replaceChildren();
    s.seats.forEach((seat, q) => {
      if (q === me || q === s.partner) return;
      const ok = myTurn && rank !== null && s.legal.some((a) => a[0] === q && a[1] === rank);
      const button = el("button", {type: "button", class: "ask", disabled: !ok, "data-target": String(q)},
                        rank ? "Ask " + names[q] + " for " + plural(rank) : "Ask " + names[q]);
      button.addEventListener("click", () => {
        const message = {type: "ask", target: q, rank: rank, at: s.asks};
        if (suits.length) message.suit = $("suit").value;
        problem(""); send(message);
      });
      asks.append(button);
    });
    $("ocean").textContent = "Ocean: " + (s.ocean ? s.ocean + " cards" : "empty");

    $("chances-box").hidden = !s.chances;
    const list = $("log");
    list.replaceChildren(...log.map((e) => el("li", {class: involves(e, me) ? "mine" : ""}, e.text)));
    list.scrollTop = list.scrollHeight;  // the newest line in view
    renderChances();
  }

  function clockText() {  // the turn clock, counted down here between the host's frames
    if (deadline === null || !state) return "";
    const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
    return state.names[state.turn] + " has " + left + " s to ask.";
  }
  setInterval(() => { $("clock").textContent = clockText(); }, 1000);

  function involves(e, me) {
    return e.player === me || e.target === me || e.to === me || e.asker === me;
  }

  function renderChances() {
    const box = $("chances");
    $("chances-toggle").setAttribute("aria-pressed", String(chancesOn));
    $("chances-toggle").textContent = chancesOn ? "Hide my chances" : "Show my chances";
    box.replaceChildren();
    if (!chancesOn || !state || !state.chances) return;
    if (!chances) { box.append(el("p", {}, "Counting…")); return; }
    const table = el("table", {class: "chances"});
    table.append(el("caption", {}, "From what you have seen: the chance that each player holds at least one card of each rank" +
                                   (chances.exact ? " (exact)" : " (estimated)")));
    table.append(el("tr", {}, el("th", {}, ""), ...chances.ranks.map((r) => el("th", {scope: "col"}, r))));
    const rows = Object.entries(chances.holds).map(([q, row]) => [state.names[Number(q)], row]);
    if (Object.keys(chances.top).length) rows.push(["ocean's top card", chances.top]);
    for (const [label, row] of rows) {
      table.append(el("tr", {}, el("th", {scope: "row"}, label),
        ...chances.ranks.map((r) => el("td", {title: row[r][1] || ""}, (100 * row[r][0]).toFixed(1) + "%"))));
    }
    box.append(table);
  }

  $("chances-toggle").addEventListener("click", () => {
    chancesOn = !chancesOn;
    send({type: "chances", on: chancesOn});
    renderChances();
  });

  $("join").addEventListener("submit", (event) => {
    event.preventDefault();
    const typed = $("code").value, name = $("name").value;
    problem("");
    if (ws) { ws.onclose = null; ws.close(); }
    connect(() => ({type: "join", code: typed, name: name}));
  });

  const given = new URLSearchParams(location.search).get("code");
  if (given) {
    $("code").value = given;
    const upper = given.toUpperCase();
    if (localStorage.getItem(tokenKey(upper))) { code = upper; connect(resume); }
  }
})();
