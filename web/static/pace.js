// Mutiny Table: the step timer and the nudges, for the phone, the table display and /sim.
//   MutinyPace.timer(node, timer)     show a payload's step timer in node, counting down
//   MutinyPace.nudges(kind, nudge)    buzz ("phone") or chime ("table") when the count goes up
//   MutinyPace.soundButton(button)    the table display's switch for its chime
// A payload's timer changes only when it starts, holds or ends (docs/table.md, "Timers"):
// `left` seconds were left at `since` on the table's clock, so a page counts down against
// that clock (GET /api/clock), whatever time the phone itself keeps. Every nudge made is
// kept in window.__mutinyNudges, so a browser test can tell that it happened.
"use strict";

window.__mutinyNudges = window.__mutinyNudges || [];

const MutinyPace = (() => {
  const BLINK_FROM = 10;        // the last seconds, as the seats' lights blink them
  let offset = null;            // table clock - this page's clock, in ms
  let syncing = null;

  // The table's clock, asked once and again when a stream comes back.
  function sync() {
    if (syncing) return syncing;
    const sent = performance.now();
    syncing = fetch("/api/clock", {cache: "no-store", credentials: "same-origin"})
      .then((answer) => answer.json())
      .then((body) => {
        const back = performance.now();
        offset = body.now - (sent + back) / 2;
      })
      .catch(() => {})
      .finally(() => { setTimeout(() => { syncing = null; }, 30000); });
    return syncing;
  }
  const tableNow = () => performance.now() + (offset || 0);

  function leftOf(timer) {
    if (!timer.running || timer.since === null || offset === null) return timer.left;
    // Never above what was left at `since`: the clocks agree only to a few milliseconds.
    return Math.min(timer.left, Math.max(0, timer.left - (tableNow() - timer.since) / 1000));
  }

  function face(seconds) {
    const whole = Math.max(0, Math.ceil(seconds - 1e-6));
    return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
  }

  // Show `timer` (a payload's, or null) in `node`; one ticker per node.
  const shown = new WeakMap();
  function timer(node, value) {
    const old = shown.get(node);
    if (old) clearInterval(old.ticker);
    if (!value) {
      node.hidden = true;
      node.replaceChildren();
      shown.delete(node);
      return;
    }
    if (value.running && offset === null) sync().then(() => paint(node, value));
    const state = {ticker: setInterval(() => paint(node, value), 250)};
    shown.set(node, state);
    paint(node, value);
  }

  function paint(node, value) {
    const left = leftOf(value);
    const up = left <= 0;
    node.hidden = false;
    node.dataset.state = up ? "up" : !value.running ? "held" : left <= BLINK_FROM ? "low" : "running";
    const words = up ? "Time is up" : !value.running ? "Timer held" : "Time left";
    node.replaceChildren(
      Object.assign(document.createElement("span"), {className: "timer-words", textContent: words}),
      Object.assign(document.createElement("span"), {className: "timer-face", textContent: face(left)}));
    node.setAttribute("aria-label", up ? "Time is up" : `${words}: ${face(left)}`);
    if (up) {
      const state = shown.get(node);
      if (state) clearInterval(state.ticker);
    }
  }

  // -- nudges ------------------------------------------------------------------------------
  const seen = {};              // kind -> the last count seen (none: the page just loaded)
  let audio = null;
  let soundWanted = true;       // this display's own switch (the host's is in the payload)

  function nudges(kind, nudge) {
    if (!nudge) return;
    const before = seen[kind];
    seen[kind] = nudge.count;
    if (before === undefined || nudge.count <= before) return;  // never on loading
    if (kind === "phone" && nudge.vibrate) buzz();
    if (kind === "table" && nudge.sound) chime();
  }

  function buzz() {
    // Browsers without vibration (iOS Safari) simply do nothing.
    const done = typeof navigator.vibrate === "function" ? navigator.vibrate([120, 60, 120]) : false;
    window.__mutinyNudges.push({kind: "vibrate", done, at: Date.now()});
  }

  function chime() {
    const played = !!(audio && soundWanted && audio.state === "running");
    window.__mutinyNudges.push({kind: "sound", done: played, at: Date.now()});
    if (!played) return;
    // Two short soft notes, made here: nothing to download, nothing from the internet.
    const start = audio.currentTime + 0.01;
    [[660, 0], [880, 0.16]].forEach(([pitch, delay]) => {
      const tone = audio.createOscillator(), level = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = pitch;
      level.gain.setValueAtTime(0.0001, start + delay);
      level.gain.exponentialRampToValueAtTime(0.25, start + delay + 0.02);
      level.gain.exponentialRampToValueAtTime(0.0001, start + delay + 0.3);
      tone.connect(level).connect(audio.destination);
      tone.start(start + delay);
      tone.stop(start + delay + 0.32);
    });
  }

  // A browser plays sound only after a tap on the page: the display's own button.
  function soundButton(button) {
    const label = () => {
      const on = soundWanted && audio && audio.state === "running";
      button.textContent = on ? "Sound on" : "Sound off";
      button.setAttribute("aria-pressed", on ? "true" : "false");
    };
    button.addEventListener("click", () => {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!audio && Context) audio = new Context();
      if (audio && audio.state !== "running") {
        soundWanted = true;
        audio.resume().then(label, label);
        return;
      }
      soundWanted = !soundWanted;
      label();
    });
    label();
  }

  return {timer, nudges, soundButton, sync, face};
})();
window.MutinyPace = MutinyPace;
