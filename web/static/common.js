// Mutiny Table: what every page shares. Served by the Pi; nothing from the internet.
//   Mutiny.el(tag, attrs, ...children)    build DOM; text always goes in as text
//   Mutiny.post(url, body)                JSON POST -> {ok, status, body}
//   Mutiny.live(url, onPayload, onState)  a Server-Sent Events stream that keeps trying
//   Mutiny.gamePanel(kind, match, el, p)  draw a game's own panel, if it has one
//   Mutiny.COLORS / MARKERS               each seat's colour and marker
// Every payload a page receives is kept in window.__mutinyPayloads (the last 500), so a
// browser test can check exactly what each page was sent.
"use strict";

window.__mutinyPayloads = window.__mutinyPayloads || [];
// Game renderers register here: MutinyGames[id] = {table(match, el, payload), phone(...)}.
window.MutinyGames = window.MutinyGames || {};

const Mutiny = (() => {
  const KEEP = 500;
  const SVG = "http://www.w3.org/2000/svg";

  function record(payload) {
    const kept = window.__mutinyPayloads;
    kept.push(payload);
    if (kept.length > KEEP) kept.splice(0, kept.length - KEEP);
  }

  // el("p", {class: "x", onclick: f}, "text", child): strings become text nodes, never HTML.
  function build(make, tag, attrs, children) {
    const node = make(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") {
        node.addEventListener(key.slice(2), value);
      } else if (key === "dataset") {
        Object.assign(node.dataset, value);
      } else if (key === "style") {
        node.style.cssText = String(value);  // CSSOM: allowed where style attributes are not (CSP)
      } else if (key === "style") {
        // Through the CSS object model: the page's Content-Security-Policy refuses style
        // attributes, but not properties set from a script it allows.
        for (const rule of String(value).split(";")) {
          const at = rule.indexOf(":");
          if (at > 0) node.style.setProperty(rule.slice(0, at).trim(), rule.slice(at + 1).trim());
        }
      } else {
        node.setAttribute(key, value === true ? "" : String(value));
      }
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  const el = (tag, attrs, ...children) =>
    build((t) => document.createElement(t), tag, attrs, children);
  const svg = (tag, attrs, ...children) =>
    build((t) => document.createElementNS(SVG, t), tag, attrs, children);

  // Replace an element's children (keeps the element, its id and its listeners).
  function fill(node, ...children) {
    node.replaceChildren();
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  async function post(url, body) {
    let response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify(body || {}),
        credentials: "same-origin",
      });
    } catch (error) {
      return {ok: false, status: 0, body: {code: "offline", message: "No connection to the table."}};
    }
    let data = {};
    try { data = await response.json(); } catch (error) { data = {}; }
    if (!response.ok && !data.message) {
      data.message = `The table refused (${response.status}).`;
    }
    return {ok: response.ok, status: response.status, body: data};
  }

  async function get(url) {
    try {
      const response = await fetch(url, {credentials: "same-origin", cache: "no-store"});
      let data = null;
      try { data = await response.json(); } catch (error) { data = null; }
      return {ok: response.ok, status: response.status, body: data};
    } catch (error) {
      return {ok: false, status: 0, body: null};
    }
  }

  // A live stream of one viewer's payloads. EventSource reconnects by itself after a
  // network error; when it gives up (an HTTP error, or a server restart) we ask the
  // matching /view route why, and either stop (401: not allowed) or start again.
  // onState(state) gets "connecting", "live", "reconnecting" or "denied".
  function live(streamUrl, viewUrl, onPayload, onState) {
    let source = null, retry = null, delay = 1000, stopped = false;

    function deliver(payload) {
      record(payload);
      onPayload(payload);
    }

    function open() {
      clearTimeout(retry);
      retry = null;
      if (stopped) return;
      if (source) source.close();
      source = new EventSource(streamUrl);
      source.addEventListener("open", () => { delay = 1000; onState("live"); });
      source.addEventListener("payload", (event) => {
        let payload;
        try { payload = JSON.parse(event.data); } catch (error) { return; }
        onState("live");
        deliver(payload);
      });
      source.addEventListener("error", () => {
        if (stopped) return;
        onState("reconnecting");
        if (source.readyState === EventSource.CLOSED) giveUpOrRetry();
      });
    }

    async function giveUpOrRetry() {
      if (retry || stopped) return;
      const answer = await get(viewUrl);
      if (answer.status === 401 || answer.status === 403) {
        onState("denied", answer.body);
        return;
      }
      if (answer.ok && answer.body) deliver(answer.body);
      retry = setTimeout(open, delay);
      delay = Math.min(delay * 2, 10000);
    }

    // A phone that wakes up or gets its Wi-Fi back should not wait for the next retry.
    function nudge() {
      if (stopped || document.visibilityState !== "visible") return;
      if (!source || source.readyState !== EventSource.OPEN) { delay = 1000; open(); }
    }
    document.addEventListener("visibilitychange", nudge);
    window.addEventListener("online", nudge);
    window.addEventListener("pageshow", nudge);

    onState("connecting");
    open();
    return {
      restart() { stopped = false; delay = 1000; open(); },
      stop() { stopped = true; clearTimeout(retry); if (source) source.close(); },
      get open() { return !!source && source.readyState === EventSource.OPEN; },
    };
  }

  // Game panels: web/static/games/<id>.js registers MutinyGames[id]; loaded on demand,
  // and only for the games that have one (every other game is drawn from its board
  // parts by board.js): no page asks for a script that is not there.
  const GAME_SCRIPTS = new Set(["booty-dice", "captains-orders", "card-mutiny", "mit-mutiny"]);
  const hasGameScript = (id) => GAME_SCRIPTS.has(id);
  const loading = {};
  function loadGame(id) {
    if (!hasGameScript(id)) return Promise.resolve(null);
    if (window.MutinyGames[id]) return Promise.resolve(window.MutinyGames[id]);
    if (!loading[id]) {
      loading[id] = new Promise((resolve) => {
        const script = document.createElement("script");
        script.src = `/static/games/${id}.js`;
        script.async = true;
        script.onload = () => resolve(window.MutinyGames[id] || null);
        script.onerror = () => resolve(null);  // this game has no panel of its own
        document.head.append(script);
      });
    }
    return loading[id];
  }

  // Draw kind ("table" or "phone") of the match's game into holder; hide it if none.
  // The latest call wins, so an old payload never draws over a newer one. Resolves to
  // whether a panel was drawn.
  const drawing = new WeakMap();
  function gamePanel(kind, match, holder, payload) {
    const token = {};
    drawing.set(holder, token);
    const none = () => { holder.hidden = true; holder.replaceChildren(); return false; };
    if (!match || !match.game) return Promise.resolve(none());
    return loadGame(match.game).then((renderer) => {
      if (drawing.get(holder) !== token) return !holder.hidden;
      if (!renderer || typeof renderer[kind] !== "function") return none();
      holder.hidden = false;
      try {
        renderer[kind](match, holder, payload);
        return true;
      } catch (error) {
        console.error("game panel", match.game, error);
        return none();
      }
    });
  }

  // Seat colours for charts, markers and score chips, chosen (by a search, not by hand) so
  // that every two seats differ by at least 20 CIEDE2000 for normal vision and as
  // protanopia, deuteranopia and tritanopia see them (Machado et al. 2009, severity 1),
  // and every colour is 3:1 or more on the darkest and lightest tiles it is drawn on
  // (tests/web/test_palette.py computes both). Seats are told apart by their marker and
  // their place at the table too: nothing rests on colour alone.
  const COLORS = ["#F9B9A9", "#CDFF0E", "#B6B1FF", "#329695", "#FBF1FF", "#9FA202",
                  "#E70F73", "#8156FF"];
  const MARKERS = ["\u25CF", "\u25A0", "\u25B2", "\u25C6", "\u25BC", "\u2605", "\u271A", "\u2B1F"];

  const CONNECTION_TEXT = {
    connecting: "Connecting...", live: "Live", reconnecting: "Reconnecting...",
    denied: "Not allowed",
  };

  // Show a stream's state in a status element (class conn-<state>).
  // Written only when the state changes: the element is a status region, and a screen
  // reader would say "Live" again at every payload.
  function showConnection(node, state) {
    const text = CONNECTION_TEXT[state] || state;
    if (node.textContent === text && document.body.dataset.connection === state) return;
    node.textContent = text;
    node.className = node.className.replace(/\bconn-\S+/g, "").trim() + ` conn-${state}`;
    document.body.dataset.connection = state;
  }

  // The score of every seat over the match as an inline SVG step chart.
  // history: [[point, score of seat 1, score of seat 2, ...], ...] (docs/api.md)
  // size: {width, height, font} in CSS pixels, to draw it at exactly the size of its box
  // with words of that size (the table display); without it, a 530x210 picture that
  // scales with its box. Null when there is nothing to draw, or no room for the names.
  function scoreChart(history, names, label, size) {
    const rows = (history || []).filter((row) => Array.isArray(row) && row.length > 1);
    if (!rows.length) return null;
    const font = size ? size.font : 12;
    const longest = Math.max(4, ...rows[0].slice(1).map((_, seat) =>
      ((names && names[seat]) || `Seat ${seat + 1}`).length + 2));
    const NAMES_W = size ? Math.ceil(longest * font * 0.62) + font : 110;
    const W = size ? size.width - NAMES_W : 420, H = size ? size.height : 210;
    const L = size ? font * 2.2 : 40, R = size ? font : 12, T = size ? font * 0.6 : 12;
    const B = size ? font * 1.5 : 28;
    const DASHES = ["", "8 4", "2 4", "12 4 2 4", "4 4", "10 3 3 3 3 3", "1 3", "14 6"];
    const seats = Math.max(...rows.map((row) => row.length - 1));
    const xs = rows.map((row) => Number(row[0]) || 0);
    const values = rows.flatMap((row) => row.slice(1).map((v) => Number(v) || 0));
    const x0 = Math.min(...xs);
    const x1 = Math.max(...xs) > x0 ? Math.max(...xs) : x0 + 1;
    const y0 = Math.min(0, ...values);
    const y1 = Math.max(1, ...values) > y0 ? Math.max(1, ...values) : y0 + 1;
    const px = (x) => L + ((x - x0) / (x1 - x0)) * (W - L - R);
    const py = (y) => H - B - ((y - y0) / (y1 - y0)) * (H - T - B);
    const parts = [svg("title", {}, `${label || "Score"} over the match`)];
    const ends = [];
    const ticks = [...new Set([y0, Math.round((y0 + y1) / 2), y1])];
    for (const tick of ticks) {
      parts.push(svg("line", {x1: L, x2: W - R, y1: py(tick), y2: py(tick), class: "grid"}));
      parts.push(svg("text", {x: L - 6, y: py(tick) + font / 3, "text-anchor": "end", class: "tick"},
        String(tick)));
    }
    // The x axis counts score changes (not actions: those would tell of hidden moves).
    parts.push(svg("text", {x: W - R, y: H - font / 2, "text-anchor": "end", class: "tick"}, "now"));
    parts.push(svg("text", {x: L, y: H - font / 2, class: "tick"}, "start"));
    for (let seat = 0; seat < seats; seat++) {
      let d = "", last = null;
      for (const row of rows) {
        const value = Number(row[seat + 1]) || 0;
        const x = px(Number(row[0]) || 0), y = py(value);
        d += last === null ? `M${x.toFixed(1)},${y.toFixed(1)}`
                           : `H${x.toFixed(1)}V${y.toFixed(1)}`;
        last = y;
      }
      d += `H${(W - R).toFixed(1)}`;
      const color = COLORS[seat % COLORS.length];
      const name = (names && names[seat]) || `Seat ${seat + 1}`;
      // Each line has its own dash and ends in the seat's marker: told apart without colour.
      parts.push(svg("path", {d, class: "line", stroke: color, dataset: {seat: String(seat)},
                              "stroke-dasharray": DASHES[seat % DASHES.length]},
        svg("title", {}, name)));
      parts.push(svg("text", {x: W - R, y: last + font * 0.4, "text-anchor": "middle", class: "mark",
                              fill: color}, MARKERS[seat % MARKERS.length]));
      ends.push({seat, y: last, name, color});
    }
    // The names at the right end of the lines, pushed apart so that none overlap, then
    // up from the bottom edge so that none falls off it (lines that all end at 0 would
    // otherwise stack their names below the chart).
    ends.sort((a, b) => a.y - b.y);
    const GAP = size ? font * 1.15 : 13;
    if (size && (ends.length * GAP > H - 4 || W - L - R < font * 4)) return null;
    let floor = -Infinity;
    for (const end of ends) floor = end.at = Math.max(end.y + font / 3, floor + GAP);
    let ceiling = H - 3 + GAP;
    for (const end of [...ends].reverse()) ceiling = end.at = Math.min(end.at, ceiling - GAP);
    for (const end of ends) {
      parts.push(svg("text", {x: W - R + font * 0.8, y: end.at, class: "end-name", fill: end.color},
        `${MARKERS[end.seat % MARKERS.length]} ${end.name}`));
    }
    const legend = ends.map((e) => `${e.name}: ${MARKERS[e.seat % MARKERS.length]}`).join(", ");
    return svg("svg", {viewBox: `0 0 ${W + NAMES_W} ${H}`, class: "chart", role: "img",
                       style: size ? `font-size:${font}px` : null,
                       "aria-label": `${label || "Score"} over the match (${legend})`}, parts);
  }

  return {el, svg, fill, post, get, live, gamePanel, loadGame, hasGameScript, COLORS, MARKERS,
          showConnection, record, scoreChart};
})();
window.Mutiny = Mutiny;
