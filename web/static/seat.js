// The phone page of one seat: its private screen, its choices (a menu when they come in
// groups), the board to play on (a tap on a grid's card, a die, a card of the hand makes
// the choice it stands for), hold-to-reveal secrets.
// It draws the seat's payload (GET /api/seat/stream) and acts through POST /api/seat/act,
// the same engine actions as the seat's buttons. The menu of choices is seat-menu.js.
"use strict";

(() => {
  const {el, fill, post, live, gamePanel, showConnection} = window.Mutiny;
  const {draw: drawParts} = window.MutinyBoard;
  const {onTap, keyOf} = window.MutinySeatMenu;
  const $ = (id) => document.getElementById(id);
  let spoken = "";             // the last thing said to a screen reader

  let payload = null;          // the last payload received
  let revealed = false;        // the hold-to-reveal pad is held down
  let sending = false;         // an action is on its way
  let armed = null;            // {key, until}: a hidden choice tapped once, awaiting a second tap
  let picked = null;           // a card of the hand tapped, awaiting where it goes (see boardTaps)
  let messageTimer = null;

  // -- drawing ---------------------------------------------------------------------------
  function draw() {
    if (!payload) return;
    const {seat, display, match, summary} = payload;
    $("seat-number").textContent = seat ? `Seat ${seat.number}` : "Seat";
    // A seat still called "Seat 3" needs no second label.
    $("seat-name").textContent = seat && seat.name && seat.name !== `Seat ${seat.number}` ? seat.name : "";
    drawNameEdit(!!$("seat-name").textContent);
    document.title = seat ? `Seat ${seat.number} - Mutiny Table` : "Your seat - Mutiny Table";

    const title = (summary && summary.title) || (match && match.title) || "";
    $("game-line").textContent = title || "No match yet";
    drawBanner(match, seat, summary);
    // This seat's parts that do not answer: the phone plays the seat meanwhile.
    const faults = payload.faults || [];
    fill($("faults"), faults.map((fault) => el("li", {}, fault.words)));
    $("faults").hidden = faults.length === 0;

    const led = (display && display.led) || "off";
    $("screen").dataset.led = led;
    $("turn-flag").hidden = led === "off";
    $("turn-flag").textContent = led === "blink" ? "Secret vote: your choice" : "Your move";
    const screenTitle = (display && display.title) || "Mutiny Table";
    if ($("screen-title").textContent !== screenTitle || !titleFitted) {
      $("screen-title").textContent = screenTitle;
      fitTitle();
    }
    fill($("screen-lines"), ((display && display.lines) || []).map((line) => el("li", {}, line)));
    window.MutinyPace.timer($("timer"), payload.timer || null);
    window.MutinyPace.nudges("phone", payload.nudge);

    const choices = display ? display.choices || [] : [];
    const focused = focusedPlace() || lastPlace;
    drawSecrecy(match);
    drawPick(choices);
    menu.draw(choices);
    drawPrivate(display ? display.private || [] : [], payload.panel || []);
    gamePanel("phone", match, $("game-panel"), {...payload, taps: boardTaps})
      .then(() => refocus(focused));
    drawNews(summary, match, payload.board || []);
    refocus(focused);
    speak(led, display, match, seat);
    tellChanges(display);
    wake(match && !match.over);
  }

  // What changed on the seat's screen, said once in the polite live region (#changes):
  // its new title and its new lines, never the whole screen again (the screen itself is
  // not a live region). A turn starting is said by speak() instead.
  let heard = null;            // the screen's title and lines as last said (null: not yet)
  function tellChanges(display) {
    const title = (display && display.title) || "";
    const lines = (display && display.lines) || [];
    const before = heard;
    heard = {title, lines};
    if (before === null) return;  // the first screen is the page itself: read as a page
    const said = [];
    if (title && title !== before.title && !spoken.endsWith(title)) said.push(title);
    for (const line of lines) if (!before.lines.includes(line)) said.push(line);
    if (said.length) $("changes").textContent = said.join(". ");
  }

  // The screen's title is never broken inside a word (at 200% text a long word would be
  // cut in two): where its longest word is wider than the screen, its type is made
  // smaller until it fits, and no smaller than the page's own text.
  let titleFitted = false;     // the title was measured while the screen was in sight
  function fitTitle() {
    const node = $("screen-title");
    node.style.removeProperty("font-size");
    node.style.removeProperty("overflow-wrap");
    const room = node.clientWidth, need = node.scrollWidth;
    titleFitted = room > 0;
    if (!room || need <= room + 0.5) return;
    const size = parseFloat(getComputedStyle(node).fontSize);
    const least = parseFloat(getComputedStyle(document.body).fontSize);
    node.style.setProperty("font-size", `${Math.max(least, Math.floor((size * room) / need))}px`);
    // A word too long even then is broken after all: never wider than the phone.
    if (node.scrollWidth > node.clientWidth + 0.5) node.style.setProperty("overflow-wrap", "anywhere");
  }
  // Text made larger (the phone's text size, a turned phone): fitted again.
  if (window.ResizeObserver) {
    let wide = 0;
    new ResizeObserver(() => {
      const now = $("screen").clientWidth + "/" + getComputedStyle(document.body).fontSize;
      if (now !== wide) { wide = now; fitTitle(); }
    }).observe($("screen"));
  }

  // Tell a screen reader what matters once: that it is this seat's turn, and a result.
  function speak(led, display, match, seat) {
    let text = "";
    if (match && match.over && match.result) {
      text = $("banner").textContent;
    } else if (led !== "off") {
      // A title that already says so ("Your turn", "Round 2: your turn") is said alone.
      const title = (display && display.title) || "make your choice";
      text = /\byour turn\b/i.test(title) ? title : `Your turn: ${title}`;
    }
    if (text !== spoken) {
      spoken = text;
      $("announce").textContent = text;
    }
  }

  function drawBanner(match, seat, summary) {
    const banner = $("banner");
    let text = "", kind = "";
    if (seat && seat.playing === false && summary && summary.game) {
      text = "You sit out this match."; kind = "quiet";
    } else if (match && match.paused) {
      text = "Paused by the host."; kind = "paused";
    } else if (match && match.over && match.result) {
      const names = match.names || [];
      const winners = (match.result.winners || []).map((s) => names[s] || `Seat ${s + 1}`);
      const mine = seat && (match.result.winners || []).includes(seat.index);
      text = winners.length
        ? `${mine ? "You win! " : ""}Winner${winners.length > 1 ? "s" : ""}: ${winners.join(", ")}`
        : "The match has ended.";
      if (match.result.reason) text += ` - ${match.result.reason}`;
      kind = mine ? "won" : "over";
    }
    banner.textContent = text;
    banner.hidden = !text;
    banner.dataset.kind = kind;
  }


  function drawPrivate(lines, panel) {
    // Secrets are put in the page only while the pad is held, and taken out on release:
    // the private lines, and the seat's panel (its hand, its dice under the cup).
    const drawn = drawParts($("panel"), revealed ? panel : [],
                            {where: "phone", level: 2, taps: boardTaps, from: "panel"});
    // A line the panel already shows is not said twice above it.
    const inPanel = drawn ? $("panel").textContent : "";
    const own = lines.filter((line) => !inPanel.includes(line));
    fill($("private-lines"), revealed ? own.map((line) => el("li", {}, line)) : []);
    $("private-lines").hidden = drawn && !own.length;
    // With a panel, the panel comes first; the seat screen's short lines follow it, small.
    $("private").classList.toggle("with-panel", drawn);
    $("private").hidden = !revealed;
    const secrets = lines.length || panel.length;
    $("reveal-label").textContent = revealed
      ? (secrets ? "Let go to hide" : "Nothing secret right now")
      : "Hold to see secrets";
  }

  // The table as everyone sees it, under the decision: the game's board (docs/boards.md),
  // or, for a game without one, what the summary says.
  function drawNews(summary, match, board) {
    const news = $("table-news");
    if (!summary || !summary.game) { news.hidden = true; return; }
    const names = (match && match.names) || [];
    const drawn = drawBoard(board, names);
    const bits = [];
    if (!drawn) {
      if (summary.turn && summary.turn.length && !(match && match.over)) {
        bits.push("Turn: " + summary.turn.map((s) => names[s] || `Seat ${s + 1}`).join(", "));
      }
      if (summary.scores && summary.scores.length) {
        bits.push((summary.score_label || "Score") + ": " +
          summary.scores.map((v, s) => `${names[s] || `Seat ${s + 1}`} ${v}`).join(" \u00b7 "));
      }
      for (const line of summary.lines || []) bits.push(line);
    }
    const headline = board.find((part) => part.part === "headline");
    $("news-headline").textContent = headline ? "" : summary.headline || "";
    $("news-headline").hidden = !!headline || !summary.headline;
    fill($("news-lines"), bits.map((line) => el("li", {}, line)));
    news.hidden = !summary.headline && bits.length === 0 && !drawn;
  }

  // The board is drawn again only when what it shows or what a tap on it does changed:
  // not for a reveal of the menu, an open group, or an action on its way. While one is
  // on its way the board only says it is busy: its places stay as they are (switching
  // 49 places off and on again was two restylings and repaints of the whole grid a
  // tap), and a tap on one meanwhile does nothing (choose and pick wait for the answer).
  let boardDrawn = null;       // {inputs, drawn}: what the board was last drawn from
  function drawBoard(board, names) {
    $("board").setAttribute("aria-busy", String(sending));
    const inputs = [payload, picked ? picked.id : null, armed ? armed.key : null, revealed,
                    !!gameTaps()];
    if (boardDrawn && inputs.every((value, i) => value === boardDrawn.inputs[i])) {
      return boardDrawn.drawn;
    }
    const drawn = drawParts($("board"), board, {where: "phone", names, taps: boardTaps, from: "board"});
    boardDrawn = {inputs, drawn};
    return drawn;
  }

  // -- playing on the board -------------------------------------------------------------
  // The game's script (web/static/games/<id>.js, MutinyGames[id].taps) says which place of
  // the board makes which choice: at(spot, seat) -> null, {choice, words} or {pick}, and
  // onBoard(choice, match). board.js draws those places as buttons. A tap sends exactly a
  // choice of this seat's list (the server stays the only judge of it), or picks a card of
  // the hand for a choice that needs a place too (a pass: then a pirate's line).
  const asked = new Set();   // games whose script was asked for
  function gameTaps() {
    const match = payload && payload.match;
    if (!match || match.over || !match.game) return null;
    const game = window.MutinyGames[match.game];
    if (!game && !asked.has(match.game)) {
      asked.add(match.game);  // drawn again once it is here (gamePanel asks for it too)
      window.Mutiny.loadGame(match.game).then((loaded) => { if (loaded && loaded.taps) draw(); });
    }
    return game && game.taps ? game.taps : null;
  }

  const spotKey = (spot) => [spot.from, spot.kind, spot.part ? spot.part.title || spot.part.part : "",
                             spot.seat !== undefined ? spot.seat : spot.index].join("/");

  const boardTaps = {
    resolve(spot) {
      const game = gameTaps();
      const choices = (payload && payload.display && payload.display.choices) || [];
      const found = game && game.at(spot, {choices, match: payload.match, picked});
      if (!found) return null;
      const key = spotKey(spot);
      if (found.pick) {
        const on = !!picked && picked.id === found.pick.id;
        return {key, pressed: on, act: () => pick(found.pick),
                label: on ? `${capital(found.pick.says)}, picked: tap to put it back`
                          : `Pick ${found.pick.says}`};
      }
      const listed = choices.find((c) => keyOf(c) === keyOf(found.choice));
      if (!listed) return null;  // never anything but a choice the seat was offered
      const isArmed = !!armed && armed.key === keyOf(listed);
      const label = listed.secret && !revealed
        ? (found.words || "A hidden choice: hold the eye to read it") : listed.label;
      return {key, armed: isArmed, label: isArmed ? `${label}: tap again to choose` : label,
              act: () => choose(listed, {picked: !!picked})};
    },
    // (A place the board keeps across a redraw is given the new drawing's tap: board.js.)
    bind(button, tap) {
      button.mutinyTap = tap;
      onTap(button, () => button.mutinyTap.act());
    },
  };

  const capital = (words) => words.charAt(0).toUpperCase() + words.slice(1);

  // A card tapped again is put back; another card takes its place.
  function pick(card) {
    if (sending) return;
    picked = picked && picked.id === card.id ? null : {...card, uses: card.uses.map(keyOf)};
    draw();
  }

  // What is picked, above the choices: its words only while the eye is held.
  function drawPick(choices) {
    if (picked && !choices.some((c) => picked.uses.includes(keyOf(c)))) picked = null;
    $("pick-bar").hidden = !picked;
    if (!picked) return;
    $("pick-words").textContent = revealed
      ? `${capital(picked.says)} is picked. ${picked.hint}`
      : "A card of your hand is picked: hold the eye to see it and where it can go.";
    $("pick-undo").disabled = sending;
  }

  function wirePick() {
    onTap($("pick-undo"), () => { if (!sending) { picked = null; draw(); } });
  }

  // The keyboard (or a screen reader's cursor) stays where the player acted from: a
  // board redrawn keeps it on the same place, and a list of choices drawn anew after an
  // action keeps it at the same line (or the nearest), never at the top of the page.
  // A place: {spot} for a place of the board, {holder, position} for a button of a list.
  const PLACES = "#choices, #pick-bar, #game-panel, #board, #panel, #private";
  let lastPlace = null;        // where the focus last was among the places to act
  function placeOf(node) {
    if (!node || !node.closest || node === document.body) return null;
    if (node.dataset && node.dataset.spot) return {spot: node.dataset.spot};
    const holder = node.closest(PLACES);
    if (!holder || node.tagName !== "BUTTON") return null;
    return {holder: holder.id, position: [...holder.querySelectorAll("button")].indexOf(node)};
  }

  function focusedPlace() {
    return placeOf(document.activeElement);
  }

  const lost = () => {
    const node = document.activeElement;
    return !node || node === document.body || !node.isConnected;
  };

  function refocus(place) {
    if (!place) return;
    if (place.spot) {
      const now = focusedPlace();
      if (now && now.spot === place.spot) return;
      const again = [...document.querySelectorAll("button.tap")].find((b) => b.dataset.spot === place.spot);
      if (again) { again.focus({preventScroll: true}); return; }
    }
    if (!lost()) return;
    const holder = place.holder ? $(place.holder) : null;
    const near = holder && !holder.hidden ? [...holder.querySelectorAll("button")] : [];
    const target = near[Math.min(Math.max(place.position, 0), near.length - 1)] ||
                   $("choices").querySelector("button") || $("screen-title");
    target.focus({preventScroll: true});
  }

  function wireFocus() {
    document.addEventListener("focusin", (event) => {
      const place = placeOf(event.target);
      if (place) lastPlace = place;
    });
    // A tap on the page outside every button means the player left the places to act.
    document.addEventListener("pointerdown", (event) => {
      if (!(event.target instanceof Element) || !event.target.closest("button, a, input, summary")) {
        lastPlace = null;
      }
    });
  }

  // A game that keeps nothing secret (the view's "secrets" is false) has no eye pad.
  function drawSecrecy(match) {
    const secretive = !!match && match.secrets !== false;
    if (!secretive && revealed) {
      revealed = false;
      document.body.classList.remove("revealing");
    }
    document.body.classList.toggle("no-secrets", !secretive);
    document.querySelector(".reveal-dock").hidden = !secretive || !$("gone").hidden;
  }

  // -- acting ----------------------------------------------------------------------------
  // how.picked: the choice finishes a card picked while the eye was held (seen, not blind).
  async function choose(choice, how) {
    if (sending || !payload) return;
    const key = keyOf(choice);
    const seen = revealed || !!(how && how.picked);
    if (choice.secret && !seen && !(armed && armed.key === key && armed.until > Date.now())) {
      // A hidden choice needs a second tap: a blind tap alone never casts a vote.
      armed = {key, until: Date.now() + 5000};
      setTimeout(() => { if (armed && armed.key === key) { armed = null; draw(); } }, 5100);
      draw();
      return;
    }
    armed = null;
    sending = true;
    draw();
    const answer = await post("/api/seat/act", {action: choice.action, version: payload.version});
    sending = false;
    picked = null;  // sent or refused, the card goes back to the hand
    if (answer.ok) {
      menu.reset();  // the next decision starts from the top
      say("", "");
    } else if (answer.body.code === "stale") {
      say("The question changed while you chose. Look again.", "warn");
    } else if (answer.status === 401 || answer.body.code === "taken_over") {
      showGone(answer.body);
    } else if (String(choice.action.type).startsWith("lobby_") &&
               ["no_match", "match_over"].includes(answer.body.code)) {
      // The lobby's choices (pick a game, "New match") are taken from the seat's own
      // buttons; the phone API acts only inside a match.
      say("Pick with your seat's buttons, or ask the host to start a match.", "warn");
    } else {
      say(answer.body.message || "The table refused that.", "error");
    }
    draw();
  }

  function say(text, kind) {
    clearTimeout(messageTimer);
    const box = $("message");
    box.textContent = text;
    box.hidden = !text;
    box.dataset.kind = kind || "";
    if (text) messageTimer = setTimeout(() => { box.hidden = true; }, 8000);
  }

  // No longer at the seat: its link was replaced, or (taken_over) another phone took
  // the seat over, which is said plainly, at this phone's own clock's time.
  function showGone(why) {
    if (why && why.code === "taken_over") {
      const at = new Date(Date.now() - 1000 * (Number(why.seconds_ago) || 0));
      const hhmm = `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
      $("gone-title").textContent = `Seat ${why.seat} is on another phone now`;
      $("gone-text").textContent = `Another phone took over seat ${why.seat} at ${hhmm}. ` +
        "This phone can no longer act for it.";
      $("gone").dataset.why = "taken_over";
    }
    $("phone").hidden = true;
    document.querySelector(".reveal-dock").hidden = true;
    $("private").hidden = true;
    $("gone").hidden = false;
    wake(false);
  }

  // -- hold to reveal ---------------------------------------------------------------------
  let scrolledFrom = null;     // {from, to}: where the page was before a hold showed the secrets
  function setRevealed(on) {
    if (revealed === on) return;
    revealed = on;
    document.body.style.setProperty("--choices-h", `${$("choices").offsetHeight}px`);
    document.body.classList.toggle("revealing", on);
    $("reveal-pad").setAttribute("aria-pressed", on ? "true" : "false");
    draw();
    if (!payload) drawPrivate([], []);
    showHeldSecrets(on);
  }

  // A hold shows the secrets where they can be read: in sight (a player scrolled down to
  // the choices finds them at the top of the screen, and the page goes back on release),
  // and said to a screen reader, which cannot move through a page while a key is held.
  function showHeldSecrets(on) {
    const box = $("private");
    if (on) {
      const top = box.getBoundingClientRect().top;
      if (top < 0 || top > innerHeight / 3) {
        const from = scrollY;
        box.scrollIntoView({block: "start"});
        scrolledFrom = {from, to: scrollY};
      }
      const lines = (payload && payload.display && payload.display.private) || [];
      const said = lines.length ? lines.join(". ") : $("panel").innerText.trim();
      $("secret-say").textContent = `Only for you: ${said || "nothing secret right now"}`;
    } else {
      $("secret-say").textContent = "";
      if (scrolledFrom && Math.abs(scrollY - scrolledFrom.to) < 2) scrollTo(0, scrolledFrom.from);
      scrolledFrom = null;
    }
  }

  function wireReveal() {
    const pad = $("reveal-pad");
    let holder = null;
    pad.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      holder = event.pointerId;
      try { pad.setPointerCapture(event.pointerId); } catch (error) { /* not capturable */ }
      setRevealed(true);
    });
    const release = (event) => {
      if (event && holder !== null && event.pointerId !== holder) return;
      holder = null;
      setRevealed(false);
    };
    pad.addEventListener("pointerup", release);
    pad.addEventListener("pointercancel", release);
    pad.addEventListener("lostpointercapture", release);
    pad.addEventListener("contextmenu", (event) => event.preventDefault());
    pad.addEventListener("keydown", (event) => {
      if ((event.key === " " || event.key === "Enter") && !event.repeat) {
        event.preventDefault();
        setRevealed(true);
      }
    });
    pad.addEventListener("keyup", (event) => {
      if (event.key === " " || event.key === "Enter") { event.preventDefault(); setRevealed(false); }
    });
    pad.addEventListener("blur", () => { if (holder === null) setRevealed(false); });
    window.addEventListener("blur", () => setRevealed(false));
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState !== "visible") setRevealed(false);
    });
  }

  // -- keep the screen awake during a match ----------------------------------------------
  let wanted = false, lock = null, asking = false;
  async function wake(on) {
    wanted = on;
    const note = $("wake-note");
    if (!("wakeLock" in navigator)) {
      // Wake Lock needs a secure context (https or localhost); on the Pi's plain http it
      // is not offered, and the page simply resumes when the phone wakes up.
      note.textContent = on ? "Tip: your screen may sleep; this page catches up when you wake it." : "";
      return;
    }
    note.textContent = "";
    if (on && !lock && !asking && document.visibilityState === "visible") {
      asking = true;
      try {
        const got = await navigator.wakeLock.request("screen");
        got.addEventListener("release", () => { if (lock === got) lock = null; });
        lock = got;
        if (!wanted) wake(false);
      } catch (error) {
        lock = null;  // refused (battery saver, not visible): try again on the next change
      } finally {
        asking = false;
      }
    } else if (!on && lock) {
      const old = lock;
      lock = null;
      old.release().catch(() => {});
    }
  }
  document.addEventListener("visibilitychange", () => {
    // The browser drops the lock whenever the page is hidden; take it again on return.
    if (document.visibilityState === "visible" && wanted) wake(true);
  });

  // -- the player's name: given on joining, changed by tapping it -------------------------
  // POST /api/seat/name; the host may still change it. A phone that has just joined is
  // offered the field once: its join set the mutiny_ask_name cookie, dropped here.
  function nameEntry() {
    const input = el("input", {id: "name-input", maxlength: "24", autocomplete: "nickname",
                               enterkeyhint: "done"});
    const form = el("form", {class: "name-form", id: "name-form", hidden: true},
      // Two lines on the smallest phone: the label with a close button, then the field
      // and Save (a third line pushed the seat's choices under the secrets' dock).
      el("label", {for: "name-input"}, "Your name at the table"),
      el("button", {type: "button", class: "name-skip", id: "name-skip", "aria-label": "Not now",
                    title: "Not now", onclick: () => { form.hidden = true; }}, "\u00d7"),
      input, el("button", {type: "submit", class: "name-button", id: "name-save"}, "Save"));
    const open = () => {
      const seat = payload && payload.seat;
      input.value = seat && seat.name !== `Seat ${seat.number}` ? seat.name : "";
      form.hidden = false;
      input.focus();
    };
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (!input.value.trim()) { input.focus(); return; }
      const answer = await post("/api/seat/name", {name: input.value});
      if (answer.ok) form.hidden = true;
      else if (answer.status === 401 || answer.body.code === "taken_over") showGone(answer.body);
      else say(answer.body.message, "error");
    });
    $("phone").prepend(form);
    $("seat-name").after(el("button", {type: "button", class: "bar-name-edit", id: "name-edit",
                                       onclick: open}, "Your name"));
    if (document.cookie.split("; ").includes("mutiny_ask_name=1")) {
      document.cookie = "mutiny_ask_name=; Max-Age=0; path=/seat/; SameSite=Strict";
      open();
    }
  }

  // The name's edit button: "Your name" asks for one; once the seat has one, a pencil
  // beside it (the words would take the bar's second line on a phone).
  function drawNameEdit(named) {
    const edit = $("name-edit");
    if (!edit || edit.classList.contains("named") === named) return;
    edit.classList.toggle("named", named);
    edit.textContent = named ? "\u270e" : "Your name";
    if (named) edit.setAttribute("aria-label", "Change your name");
    else edit.removeAttribute("aria-label");
    edit.title = named ? "Change your name" : "";
  }

  // -- start ------------------------------------------------------------------------------
  const menu = window.MutinySeatMenu.create({
    state: () => ({payload, sending, revealed, armed}),
    disarm: () => { armed = null; },
    draw, choose, gameTaps,
  });
  nameEntry();
  wireFocus();
  wireReveal();
  wirePick();
  // The page holds the seat's payload as it was when the page was made (pages.py): the
  // first screen is drawn from it at once, before the stream opens; the stream's first
  // payload, the same one unless something changed meanwhile, is then not drawn again.
  let firstText = "";
  const first = $("first-payload");
  if (first) {
    try {
      payload = JSON.parse(first.textContent);
      firstText = JSON.stringify(payload);
      window.Mutiny.record(payload);
      draw();
    } catch (error) {
      payload = null;  // unreadable: the stream draws the first screen
    }
  }
  live("/api/seat/stream", "/api/seat/view", (next) => {
    if (firstText) {
      const same = JSON.stringify(next) === firstText;
      firstText = "";
      if (same) return;
    }
    payload = next;
    if (armed && armed.until < Date.now()) armed = null;
    draw();
  }, (state, why) => {
    showConnection($("conn"), state);
    if (state === "live") window.MutinyPace.sync();
    if (state === "denied") showGone(why);
  });
})();
