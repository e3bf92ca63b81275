// The table display's big moments: before a battle's result, a verdict, a round's hands
// or the end of a match, a short beat on the TV (the board dimmed, a large "The
// battle..." for under two seconds), then the result large for a few seconds, with a
// short sound made here (WebAudio: no sound file, nothing from the internet).
//   MutinyReveal.hear(payload)   table.js hands it every public payload, in order
//   MutinyReveal.moments(board)  the moments a board shows (for the tests too)
// A moment is found in the public board's parts alone (a result, a revealed tally, a
// titled group that lays dice or every hand face up), so neither the beat nor its sound
// or timing can tell a secret. Nothing plays for the first board a page sees, nor for a
// moment still on the board from before. The host's sound switch (the payload's
// nudge.sound) and the display's own Sound button both silence it; prefers-reduced-motion
// shows the result without the beat. Every beat is kept in window.__mutinyReveals for
// the browser tests: {kind, title, waited, sound}.
"use strict";

window.__mutinyReveals = window.__mutinyReveals || [];

window.MutinyReveal = (() => {
  const WAIT_MS = 1700;   // "The battle...": the room looks up
  const SHOW_MS = 4200;   // the result, large
  const WAIT_WORDS = {end: "And the winner is...", verdict: "The verdict...",
                      battle: "The battle...", hands: "Every hand..."};
  const RANK = {end: 4, verdict: 3, battle: 2, hands: 1};

  // -- finding moments in a board --------------------------------------------------------
  const children = (part) => (part && part.part === "group" ? part.parts || [] : []);
  const every = (part) => [part, ...children(part).flatMap(every)];
  const facesShown = (part) => part.part === "dice" &&
    (part.faces || []).some((face) => face !== null && face !== undefined);
  const isHand = (part) => part.part === "cards" &&
    (part.items || []).some((card) => typeof card.seat === "number" && !card.down);

  function linesOf(part) {
    // What to say large: the group's first facts or words, a tally's counts.
    if (part.part === "facts") return (part.items || []).map(([label, value]) => `${label}: ${value}`);
    if (part.part === "text") return part.lines || [];
    if (part.part === "tally") {
      return (part.rows || []).map(([label, n]) => `${label}: ${n}`).concat(part.note ? [part.note] : []);
    }
    if (part.part === "result") return part.lines || [];
    const first = children(part).find((child) => ["facts", "text"].includes(child.part));
    return first ? linesOf(first) : [];
  }

  function moment(part) {
    const title = part.title || "";
    if (part.part === "result") return {kind: "end", title: title || "The match is over"};
    if (part.part === "tally") return {kind: "verdict", title: title || "The votes"};
    if (part.part !== "group" || !title) return null;
    const inside = every(part).slice(1);
    if (inside.some(facesShown)) return {kind: "battle", title};
    if (inside.filter(isHand).length >= 2) return {kind: "hands", title};
    return null;
  }

  function moments(board) {
    const found = new Map();
    for (const part of (board || []).flatMap(every)) {
      const one = moment(part);
      if (!one) continue;
      const key = `${one.kind}:${one.title}`;
      if (!found.has(key)) found.set(key, {...one, key, lines: linesOf(part).slice(0, 6)});
    }
    return [...found.values()];
  }

  // -- hearing payloads ----------------------------------------------------------------
  let seen = null;       // the moments' keys on the last board heard (null: none heard)
  let matchId = null;

  function hear(payload) {
    const match = payload && payload.match;
    if (!match) { seen = null; matchId = null; return; }
    const now = moments(payload.board);
    const keys = new Set(now.map((m) => m.key));
    const first = seen === null || match.match !== matchId;
    const fresh = first ? [] : now.filter((m) => !seen.has(m.key));
    seen = keys;
    matchId = match.match;
    if (!fresh.length) return;
    fresh.sort((a, b) => RANK[b.kind] - RANK[a.kind]);
    play(fresh[0], !!(payload.nudge && payload.nudge.sound));
  }

  // -- the beat ------------------------------------------------------------------------
  const box = () => document.getElementById("reveal");
  let timers = [];
  const later = (ms, job) => timers.push(setTimeout(job, ms));

  function play(found, hostSound) {
    timers.forEach(clearTimeout);
    timers = [];
    const holder = box();
    if (!holder) return;
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    const record = {kind: found.kind, title: found.title, waited: !still, sound: false,
                    at: Date.now()};
    window.__mutinyReveals.push(record);
    const loud = hostSound && soundOn();
    document.body.classList.add("revealing");
    const show = () => {
      holder.dataset.phase = "show";
      holder.replaceChildren(card(
        el("p", "reveal-title", found.title),
        found.lines.length ? el("ul", "reveal-lines", ...found.lines.map((l) => el("li", "", l))) : null));
      if (loud) record.sound = land() || record.sound;
      later(SHOW_MS, () => {
        holder.hidden = true;
        holder.replaceChildren();
        document.body.classList.remove("revealing");
      });
    };
    holder.hidden = false;
    if (still) { show(); return; }
    holder.dataset.phase = "wait";
    holder.replaceChildren(card(el("p", "reveal-wait", WAIT_WORDS[found.kind])));
    if (loud) record.sound = roll();
    later(WAIT_MS, show);
  }

  function el(tag, className, ...kids) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    for (const kid of kids) if (kid) node.append(typeof kid === "string" ? document.createTextNode(kid) : kid);
    return node;
  }
  const card = (...kids) => el("div", "reveal-card", ...kids);

  // -- the sound -----------------------------------------------------------------------
  // A browser plays sound only after a tap on the page: the display's Sound button (the
  // chime's, pace.js) wakes this page's audio too, and its state says whether it is on.
  let audio = null;
  function wake() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) audio = new Context();
    if (audio && audio.state !== "running") audio.resume().catch(() => {});
  }
  function soundOn() {
    const button = document.getElementById("sound");
    return !!(audio && audio.state === "running" && button &&
              button.getAttribute("aria-pressed") === "true");
  }
  document.addEventListener("click", (event) => {
    if (event.target && event.target.closest && event.target.closest("#sound")) wake();
  });

  function tone(type, pitch, at, length, level) {
    const source = audio.createOscillator(), gain = audio.createGain();
    source.type = type;
    source.frequency.value = pitch;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(level, at + 0.03);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
    source.connect(gain).connect(audio.destination);
    source.start(at);
    source.stop(at + length + 0.02);
  }

  // A low drum roll that swells for the wait: short soft strokes, closer and louder.
  function roll() {
    const start = audio.currentTime + 0.02;
    for (let i = 0, at = 0; at < WAIT_MS / 1000 - 0.2; i++) {
      tone("triangle", 98 + (i % 2) * 6, start + at, 0.09, 0.05 + 0.2 * at);
      at += Math.max(0.05, 0.14 - i * 0.006);
    }
    return true;
  }

  // The result lands: three notes of a chord, together.
  function land() {
    const start = audio.currentTime + 0.02;
    [523.25, 659.25, 783.99].forEach((pitch, i) => tone("sine", pitch, start + i * 0.04, 0.9, 0.16));
    return true;
  }

  return {hear, moments};
})();
