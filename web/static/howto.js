// How to play, in a minute.
//   On the table display: a "How to play <game>" panel until the first move of a match
//   (the public payload's `howto`, while `before_first_action`), and a button that opens
//   it again at any time.
//   On a phone: a "How to play" button, always there, that opens the help (the seat
//   payload's `help`: "Your part" first, then the game) in a dialog over the seat's
//   screen. The seat's page is left alone, so closing the help returns to the same menu.
// The payloads only name the game (`howto.game`, `help.game`): its general texts, the
// same all match long, are fetched once a page per game (GET /api/howto/<game>), not
// sent again with every change. A seat's own part (`mine`, `secret`) is in its payload.
// It reads the payloads common.js keeps in window.__mutinyPayloads: it opens no stream
// of its own and changes nothing table.js or seat.js draw.
"use strict";

(() => {
  const {el, fill, get} = window.Mutiny;
  const root = document.getElementById("howto");
  if (!root) return;
  const onTable = root.dataset.page === "table";
  let texts = null;       // the latest how-to (public) or help (seat)
  let shownText = "";     // what the open panel or dialog was drawn from
  let asked = false;      // the table's button opened the panel by hand

  // -- hearing payloads --------------------------------------------------------------
  // common.js pushes every payload it receives onto this list: hear each push.
  function listen(handler) {
    const kept = window.__mutinyPayloads;
    const push = kept.push.bind(kept);
    kept.push = (...items) => {
      const length = push(...items);
      items.forEach(handler);
      return length;
    };
    if (kept.length) handler(kept[kept.length - 1]);
  }

  // -- the parts both pages draw -----------------------------------------------------
  function section(title, lines, listTag = "ul") {
    if (!lines || !lines.length) return null;
    return el("section", {class: "howto-section"},
              el("h3", {}, title),
              el(listTag, {}, ...lines.map((line) => el("li", {}, line))));
  }

  function general(howto) {
    return [
      el("p", {class: "howto-goal"}, el("strong", {}, "Goal: "), howto.goal || ""),
      section("A turn", howto.turn, "ol"),
      section("Your phone and buttons", howto.devices),
    ];
  }

  function parts(howto, title) {
    const entries = Object.entries(howto.parts || {});
    if (!entries.length) return null;
    return el("details", {class: "howto-parts"},
              el("summary", {}, title),
              ...entries.map(([name, lines]) => section(name, lines)));
  }

  // -- the table display -------------------------------------------------------------
  function drawTable() {
    const showing = Boolean(texts) && (texts.before_first_action || asked);
    const button = el("button", {type: "button", class: "howto-open", id: "howto-open",
                                 "aria-expanded": String(showing),
                                 onclick: () => { asked = !showing; drawTable(); }},
                      showing ? "Hide how to play" : "How to play");
    if (!texts) { fill(root, []); return; }
    const panel = showing ? el("section", {class: "howto-panel tv-card", id: "howto-panel",
                                           "aria-labelledby": "howto-title"},
                               el("h2", {id: "howto-title"}, `How to play ${texts.title}`),
                               ...general(texts),
                               parts(texts, "Every role and choice")) : null;
    fill(root, [texts.before_first_action ? null : button, panel]);
  }

  // -- a phone -----------------------------------------------------------------------
  let dialog = null;

  function holdToSee(lines) {
    if (!lines || !lines.length) return null;
    const hidden = el("ul", {class: "howto-secret-lines", hidden: ""},
                      ...lines.map((line) => el("li", {}, line)));
    const show = (on) => (event) => {
      if (event.cancelable && on) event.preventDefault();
      hidden.hidden = !on;
    };
    const pad = el("button", {type: "button", class: "howto-hold",
                              onpointerdown: show(true), onpointerup: show(false),
                              onpointerleave: show(false), onpointercancel: show(false),
                              onkeydown: (e) => { if (e.key === " ") show(true)(e); },
                              onkeyup: show(false), onblur: show(false)},
                   "Hold to see your secret");
    return el("section", {class: "howto-section howto-secret"}, pad, hidden);
  }

  function drawDialog() {
    if (!dialog || !texts) return;
    shownText = JSON.stringify(texts);
    fill(dialog, [
      el("h2", {id: "howto-dialog-title"}, `How to play ${texts.title}`),
      el("section", {class: "howto-section howto-mine", id: "howto-mine"},
         el("h3", {}, "Your part"),
         el("ul", {}, ...(texts.mine || []).map((line) => el("li", {}, line)))),
      holdToSee(texts.secret),
      ...general(texts),
      parts(texts, "Every role and choice"),
      el("button", {type: "button", class: "howto-close", id: "howto-close",
                    onclick: () => dialog.close()}, "Close"),
    ]);
  }

  function drawPhone() {
    if (!dialog) {
      dialog = el("dialog", {class: "sheet howto-sheet", id: "howto-dialog",
                             "aria-labelledby": "howto-dialog-title"});
      const open = el("button", {type: "button", class: "howto-open", id: "howto-open",
                                 "aria-haspopup": "dialog",
                                 onclick: () => { drawDialog(); dialog.showModal(); }},
                      "How to play");
      fill(root, [open, dialog]);
    }
    root.querySelector(".howto-open").hidden = !texts;
    if (dialog.open && texts && JSON.stringify(texts) !== shownText) drawDialog();
  }

  // -- the game's texts, fetched once --------------------------------------------------
  const gameTexts = new Map();  // game id -> a promise of its texts (null: failed)

  function textsOf(game) {
    if (!gameTexts.has(game)) {
      const asking = get(`/api/howto/${encodeURIComponent(game)}`).then((answer) => {
        if (!answer.ok || !answer.body) gameTexts.delete(game);  // asked again later
        return answer.ok ? answer.body : null;
      });
      gameTexts.set(game, asking);
    }
    return gameTexts.get(game);
  }

  function show(next) {
    if (JSON.stringify(next) === JSON.stringify(texts)) return;
    if (onTable && texts && next && texts.title !== next.title) asked = false;
    texts = next;
    if (onTable) drawTable(); else drawPhone();
  }

  let latest = null;  // the newest payload's `howto` (table) or `help` (phone)
  listen((payload) => {
    if (!payload || typeof payload !== "object") return;
    const part = onTable ? payload.howto || null : payload.help || null;
    latest = part;
    if (!part) { show(null); return; }
    textsOf(part.game).then((game) => {
      if (latest === part) show(game ? {...game, ...part} : null);  // (none newer came)
    });
  });
  if (!onTable) drawPhone();
})();
