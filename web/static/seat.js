// The phone page of one seat: its private screen, its choices, hold-to-reveal secrets.
// It draws the seat's payload (GET /api/seat/stream) and acts through POST /api/seat/act,
// the same engine actions as the seat's buttons.
"use strict";

(() => {
  const {el, fill, post, live, gamePanel, showConnection} = window.Mutiny;
  const $ = (id) => document.getElementById(id);

  let payload = null;          // the last payload received
  let revealed = false;        // the hold-to-reveal pad is held down
  let sending = false;         // an action is on its way
  let armed = null;            // {key, until}: a hidden choice tapped once, awaiting a second tap
  let messageTimer = null;

  // -- drawing ---------------------------------------------------------------------------
  function draw() {
    if (!payload) return;
    const {seat, display, match, summary} = payload;
    $("seat-number").textContent = seat ? `Seat ${seat.number}` : "Seat";
    // A seat still called "Seat 3" needs no second label.
    $("seat-name").textContent = seat && seat.name && seat.name !== `Seat ${seat.number}` ? seat.name : "";
    document.title = seat ? `Seat ${seat.number} - Mutiny Table` : "Your seat - Mutiny Table";

    const title = (summary && summary.title) || (match && match.title) || "";
    $("game-line").textContent = title || "No match yet";
    drawBanner(match, seat, summary);

    const led = (display && display.led) || "off";
    $("screen").dataset.led = led;
    $("turn-flag").hidden = led === "off";
    $("turn-flag").textContent = led === "blink" ? "Secret vote: your choice" : "Your move";
    $("screen-title").textContent = (display && display.title) || "Mutiny Table";
    fill($("screen-lines"), ((display && display.lines) || []).map((line) => el("li", {}, line)));

    drawChoices(display ? display.choices || [] : []);
    drawPrivate(display ? display.private || [] : []);
    gamePanel("phone", match, $("game-panel"), payload);
    drawNews(summary, match);
    wake(match && !match.over);
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

  const keyOf = (choice) => JSON.stringify(choice.action);

  // Buttons are kept while the choices stay the same (a reveal, a new payload with the
  // same question), so a finger already on a button is never pulled out from under it.
  let shownKeys = "";
  function drawChoices(choices) {
    if (armed && (armed.until < Date.now() || !choices.some((c) => keyOf(c) === armed.key))) {
      armed = null;
    }
    const holder = $("choices");
    const keys = JSON.stringify(choices.map((c) => [c.action, !!c.secret]));
    if (keys !== shownKeys || holder.children.length !== choices.length) {
      shownKeys = keys;
      fill(holder, choices.map((choice, index) => {
        const button = el("button", {type: "button", class: "choice", dataset: {index: String(index)}},
          el("span", {class: "choice-label"}), el("span", {class: "choice-hint"}));
        wireChoice(button, choice);
        return button;
      }));
    }
    let hidden = 0;
    choices.forEach((choice, index) => {
      const button = holder.children[index];
      const secret = !!choice.secret;
      if (secret) hidden += 1;
      const masked = secret && !revealed;
      const isArmed = !!armed && armed.key === keyOf(choice);
      button.className = "choice" + (secret ? " secret" : "") + (masked ? " masked" : "") +
                         (isArmed ? " armed" : "");
      button.dataset.secret = secret ? "1" : "0";
      button.disabled = sending;
      button.querySelector(".choice-label").textContent = masked ? `Hidden choice ${hidden}` : choice.label;
      const hint = isArmed ? "Tap again to choose" : masked ? "hold the eye to read" : "";
      const hintNode = button.querySelector(".choice-hint");
      hintNode.textContent = hint;
      hintNode.hidden = !hint;
    });
    holder.hidden = choices.length === 0;
  }

  // A tap chooses. Pointer-up counts as a tap too: a second finger (while the first holds
  // the reveal pad) gets no click event on some phones.
  function wireChoice(button, choice) {
    let down = null, lastPointerTap = 0;
    button.addEventListener("pointerdown", (event) => {
      if (event.pointerType !== "mouse") down = event.pointerId;
    });
    button.addEventListener("pointerup", (event) => {
      if (down !== event.pointerId) return;
      down = null;
      const box = button.getBoundingClientRect();
      if (event.clientX < box.left || event.clientX > box.right ||
          event.clientY < box.top || event.clientY > box.bottom) return;
      lastPointerTap = Date.now();
      choose(choice);
    });
    button.addEventListener("pointercancel", () => { down = null; });
    button.addEventListener("click", () => {
      if (Date.now() - lastPointerTap < 800) return;  // the same tap, already handled
      choose(choice);
    });
  }

  function drawPrivate(lines) {
    // Secrets are put in the page only while the pad is held, and taken out on release.
    fill($("private-lines"), revealed ? lines.map((line) => el("li", {}, line)) : []);
    $("private").hidden = !revealed;
    $("reveal-label").textContent = revealed
      ? (lines.length ? "Let go to hide" : "Nothing secret right now")
      : "Hold here to see your secrets";
  }

  function drawNews(summary, match) {
    const news = $("table-news");
    if (!summary || !summary.game) { news.hidden = true; return; }
    const names = (match && match.names) || [];
    const bits = [];
    if (summary.turn && summary.turn.length && !(match && match.over)) {
      bits.push("Turn: " + summary.turn.map((s) => names[s] || `Seat ${s + 1}`).join(", "));
    }
    if (summary.scores && summary.scores.length) {
      bits.push((summary.score_label || "Score") + ": " +
        summary.scores.map((v, s) => `${names[s] || `Seat ${s + 1}`} ${v}`).join(" \u00b7 "));
    }
    for (const line of summary.lines || []) bits.push(line);
    $("news-headline").textContent = summary.headline || "";
    fill($("news-lines"), bits.map((line) => el("li", {}, line)));
    news.hidden = !summary.headline && bits.length === 0;
  }

  // -- acting ----------------------------------------------------------------------------
  async function choose(choice) {
    if (sending || !payload) return;
    const key = keyOf(choice);
    if (choice.secret && !revealed && !(armed && armed.key === key && armed.until > Date.now())) {
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
    if (answer.ok) {
      say("", "");
    } else if (answer.body.code === "stale") {
      say("The question changed while you chose. Look again.", "warn");
    } else if (answer.status === 401) {
      showGone();
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

  function showGone() {
    $("phone").hidden = true;
    document.querySelector(".reveal-dock").hidden = true;
    $("private").hidden = true;
    $("gone").hidden = false;
    wake(false);
  }

  // -- hold to reveal ---------------------------------------------------------------------
  function setRevealed(on) {
    if (revealed === on) return;
    revealed = on;
    document.body.style.setProperty("--choices-h", `${$("choices").offsetHeight}px`);
    document.body.classList.toggle("revealing", on);
    $("reveal-pad").setAttribute("aria-pressed", on ? "true" : "false");
    draw();
    if (!payload) drawPrivate([]);
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

  // -- start ------------------------------------------------------------------------------
  wireReveal();
  live("/api/seat/stream", "/api/seat/view", (next) => {
    payload = next;
    if (armed && armed.until < Date.now()) armed = null;
    draw();
  }, (state) => {
    showConnection($("conn"), state);
    if (state === "denied") showGone();
  });
})();
