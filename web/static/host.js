// The host page: a PIN, then the console - start a match with its options, name the
// seats, pause / resume / undo / end, see each seat's phone and let it go, replace a lost
// phone or kick a seat.
// It draws the host payload (GET /api/host/stream) and acts through /api/host/*.
"use strict";

(() => {
  const {el, fill, post, get, live, showConnection, COLORS} = window.Mutiny;
  const $ = (id) => document.getElementById(id);

  let payload = null;
  let stream = null;
  let gamesKey = "";            // the games list the start form was built from
  let lockTimer = null;
  let messageTimer = null;

  const ACTION_LABELS = {pause: "Pause", resume: "Resume", undo: "Undo last action",
                         end: "End the match"};
  const CONFIRM = {end: "End this match now? It stops with no winner."};

  const nameOf = (names, seat) => (names && names[seat]) || `Seat ${seat + 1}`;

  // -- messages and confirmation -------------------------------------------------------
  function say(text, kind) {
    clearTimeout(messageTimer);
    const box = $("message");
    box.textContent = text;
    box.dataset.kind = kind || "";
    box.hidden = !text;
    if (text) messageTimer = setTimeout(() => { box.hidden = true; }, 10000);
  }

  function confirmFirst(text, okLabel) {
    const dialog = $("confirm-dialog");
    $("confirm-text").textContent = text;
    $("confirm-ok").textContent = okLabel || "Yes";
    dialog.returnValue = "";
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), {once: true});
      dialog.showModal();
    });
  }

  function refused(answer, what) {
    if (answer.status === 401) { showLogin("Log in again: the host session has ended."); return; }
    if (answer.body.code === "stale") {
      say("The match moved on while you chose. Look again.", "warn");
      return;
    }
    say(`${what}: ${answer.body.message || "refused"}`, "error");
  }

  // -- logging in ------------------------------------------------------------------------
  function showLogin(note) {
    if (stream) stream.stop();
    $("console").hidden = true;
    $("logout").hidden = true;
    $("login").hidden = false;
    loginSay(note || "", "");
    $("pin").focus();
  }

  function loginSay(text, kind) {
    const box = $("login-message");
    box.textContent = text;
    box.dataset.kind = kind || "";
    box.hidden = !text;
  }

  function lockedFor(seconds) {
    clearInterval(lockTimer);
    let left = Math.max(1, Math.ceil(Number(seconds) || 30));
    const button = $("login-button");
    const tick = () => {
      if (left <= 0) {
        clearInterval(lockTimer);
        button.disabled = false;
        loginSay("You can try again now.", "");
        return;
      }
      button.disabled = true;
      loginSay(`Locked after too many wrong PINs: try again in ${left} s`, "error");
      left -= 1;
    };
    tick();
    lockTimer = setInterval(tick, 1000);
  }

  $("login-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const pin = $("pin").value.trim();
    if (!/^[0-9]{6}$/.test(pin)) { loginSay("The PIN has 6 digits.", "error"); return; }
    $("login-button").disabled = true;
    const answer = await post("/api/host/login", {pin});
    $("login-button").disabled = false;
    $("pin").value = "";
    if (answer.ok) {
      loginSay("", "");
      start();
    } else if (answer.status === 429) {
      lockedFor(answer.body.retry_after);
    } else if (answer.body.code === "bad_pin") {
      loginSay("Wrong PIN.", "error");
    } else {
      loginSay(answer.body.message || "Could not log in.", "error");
    }
  });

  $("logout").addEventListener("click", async () => {
    await post("/api/host/logout", {});
    showLogin("Logged out.");
  });
  $("handover").addEventListener("click", () => showHandover());

  // -- drawing ---------------------------------------------------------------------------
  function draw() {
    if (!payload) return;
    $("login").hidden = true;
    $("console").hidden = false;
    $("logout").hidden = false;
    drawMatch();
    drawStartForm();
    drawSeats();
    drawPods();
    drawFaults();
    drawDamage();
    drawNudges();
    drawTimer();
    loadPhones();
  }

  // -- the step timer: more time, less, or none ---------------------------------------------
  function drawTimer() {
    const timer = (payload.match && !payload.match.over && payload.timer) || null;
    $("timer-controls").hidden = !timer;
    window.MutinyPace.timer($("timer"), timer);
  }
  const TIMER_BUTTONS = {"timer-more": {add: 30}, "timer-less": {add: -30}, "timer-end": {end: true}};
  for (const [id, body] of Object.entries(TIMER_BUTTONS)) {
    $(id).addEventListener("click", async () => {
      const answer = await post("/api/host/timer", body);
      if (!answer.ok) refused(answer, "Change the timer");
    });
  }

  // -- nudges: the phones' buzz and the table display's chime ------------------------------
  function drawNudges() {
    const switches = (payload.host && payload.host.nudges) || {};
    for (const name of ["vibrate", "sound"]) {
      const box = $(`nudge-${name}`);
      if (name in switches && document.activeElement !== box) box.checked = switches[name];
    }
  }
  for (const name of ["vibrate", "sound"]) {
    $(`nudge-${name}`).addEventListener("change", async (event) => {
      const answer = await post("/api/host/nudges", {[name]: event.target.checked});
      if (!answer.ok) refused(answer, "Change the nudges");
    });
  }

  // -- damaged files an earlier start moved aside (companion/damage.py) -----------------------
  function drawDamage() {
    const kept = (payload.host && payload.host.damage) || [];
    $("damage-card").hidden = kept.length === 0;
    $("damage-rows").replaceChildren(...kept.map((item) => {
      const row = document.createElement("li");
      row.textContent = `${item.file}: kept in ${item.folder}. ${item.why}`;
      return row;
    }));
  }

  // -- seat parts that do not answer (docs/seats.md, "When a part fails") -----------------
  function drawFaults() {
    const faults = payload.faults || [];
    $("faults-card").hidden = faults.length === 0;
    $("fault-rows").replaceChildren(...faults.map((fault) => {
      const row = document.createElement("li");
      row.textContent = fault.words;
      return row;
    }));
  }

  // -- seat pods: shown only on a table that has them -----------------------------------
  function drawPods() {
    const pods = payload.pods || [];
    $("pods-card").hidden = pods.length === 0;
    const holder = $("pod-rows");
    holder.replaceChildren(...pods.map((pod) => {
      const row = document.createElement("li");
      const where = pod.seat ? `Seat ${pod.seat}` : "no seat";
      const state = pod.connected ? "connected" : "not connected";
      const extra = [pod.port, pod.firmware && `firmware ${pod.firmware}`,
                     pod.dropped ? `${pod.dropped} frames dropped` : ""].filter(Boolean);
      row.textContent = `${where}: pod ${pod.id}, ${state}` + (extra.length ? ` (${extra.join(", ")})` : "");
      row.className = pod.connected ? "pod-ok" : "pod-missing";
      return row;
    }));
  }

  function drawMatch() {
    const {match, summary = {}, host} = payload;
    $("match-title").textContent = match ? (summary.title || match.title || match.game) : "No match";
    $("match-headline").textContent = match
      ? (match.paused ? "Paused. " : "") + (summary.headline || "")
      : "Pick a game below, or let seat 1 pick one with its buttons.";
    const names = (match && match.names) || [];
    const result = $("match-result");
    if (match && match.over) {
      const winners = ((match.result && match.result.winners) || []).map((s) => nameOf(names, s));
      result.textContent = (winners.length ? `Winner${winners.length > 1 ? "s" : ""}: ${winners.join(", ")}`
                                           : "Ended with no winner") +
        (match.result && match.result.reason ? ` - ${match.result.reason}` : "");
      result.hidden = false;
    } else {
      result.hidden = true;
    }
    const lines = [];
    if (match && !match.over && summary.turn && summary.turn.length) {
      lines.push("Turn: " + summary.turn.map((s) => nameOf(names, s)).join(", "));
    }
    for (const line of summary.lines || []) lines.push(line);
    fill($("match-lines"), lines.map((line) => el("li", {}, line)));

    const buttons = [];
    const legal = (host && host.legal) || [];
    for (const action of legal) {
      const label = ACTION_LABELS[action.type] || action.type.replace(/_/g, " ");
      buttons.push(el("button", {
        type: "button",
        class: action.type === "end" ? "danger" : "",
        dataset: {action: action.type},
        onclick: () => hostAct(action),
      }, label));
    }
    if (match && match.over) {
      buttons.push(el("button", {type: "button", class: "primary", dataset: {action: "lobby"},
                                 onclick: backToLobby}, "Back to the lobby"));
    }
    fill($("match-actions"), buttons);

    const scores = summary.scores;
    const mini = $("mini-scores");
    if (match && scores && scores.length) {
      fill(mini, scores.map((value, seat) => el("li", {style: `--seat-color:${COLORS[seat % COLORS.length]}`},
        el("i", {class: "swatch", "aria-hidden": "true"}),
        el("span", {}, nameOf(names, seat)), el("b", {}, String(value)))));
      mini.hidden = false;
      fill($("mini-chart"), window.Mutiny.scoreChart(payload.history || [], names,
                                                     summary.score_label || "Score"));
    } else {
      mini.hidden = true;
      fill($("mini-chart"));
    }
  }

  async function hostAct(action) {
    if (CONFIRM[action.type] && !(await confirmFirst(CONFIRM[action.type], ACTION_LABELS[action.type]))) {
      return;
    }
    const answer = await post("/api/host/act", {action, version: payload.version});
    if (answer.ok) say("", ""); else refused(answer, ACTION_LABELS[action.type] || action.type);
  }

  async function backToLobby() {
    const answer = await post("/api/host/lobby", {});
    if (answer.ok) say("", ""); else refused(answer, "Back to the lobby");
  }

  // -- the start form: built once per games list, so a payload never wipes what you chose
  function games() { return (payload.lobby && payload.lobby.games) || []; }

  function seatCount() {
    return (payload.table && payload.table.seats) || (payload.seats || []).length || 8;
  }

  function drawStartForm() {
    const show = !payload.match;
    $("new-match").hidden = !show;
    const list = games();
    const key = JSON.stringify(list) + seatCount();
    if (key === gamesKey) return;
    gamesKey = key;
    const select = $("game");
    const before = select.value;
    fill(select, list.map((game) => el("option", {
      value: game.id,
      disabled: game.min_seats > seatCount(),
    }, game.min_seats > seatCount() ? `${game.title} (needs ${game.min_seats} seats)` : game.title)));
    const playable = list.filter((game) => game.min_seats <= seatCount());
    if (before && playable.some((game) => game.id === before)) select.value = before;
    else if (playable.length) select.value = playable[0].id;
    drawGame();
  }

  function chosenGame() { return games().find((game) => game.id === $("game").value) || null; }

  function drawGame() {
    const game = chosenGame();
    const options = $("options");
    const legend = el("legend", {}, "Options");
    if (!game) { fill(options, legend); $("start").disabled = true; return; }
    $("start").disabled = false;
    $("game-summary").textContent = game.summary || "";
    const players = $("players");
    const top = Math.min(game.max_seats, seatCount());
    players.min = String(game.min_seats);
    players.max = String(top);
    const current = Number(players.value);
    if (!current || current < game.min_seats || current > top) players.value = String(top);
    $("players-help").textContent = game.min_seats === top
      ? `${top} players` : `${game.min_seats} to ${top} players at this table`;
    fill(options, legend, (game.options || []).map(optionField));
  }

  function pretty(name) {
    const text = name.replace(/_/g, " ");
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  // The help in a host's words (GET /api/games gives them: no rulings' ids, values as
  // the list shows them).
  function helpOf(option) {
    const words = option.words || option.help;
    return words ? el("p", {class: "help"}, words) : null;
  }

  function optionField(option) {
    const id = `opt-${option.name}`;
    let control;
    if (typeof option.default === "boolean") {
      control = el("input", {type: "checkbox", id, name: option.name, checked: option.default,
                             dataset: {kind: "bool"}});
      return el("div", {class: "field check"},
        el("label", {for: id}, control, el("span", {}, pretty(option.name))), helpOf(option));
    }
    if (option.choices && option.choices.length) {
      control = el("select", {id, name: option.name,
                              dataset: {kind: typeof option.default === "number" ? "int" : "choice"}},
        option.choices.map((choice, n) => el("option", {value: String(choice),
                                                        selected: choice === option.default},
          (option.choice_words || [])[n] || String(choice))));
    } else if (typeof option.default === "number") {
      control = el("input", {type: "number", id, name: option.name, step: "1",
                             value: String(option.default), dataset: {kind: "int"},
                             min: option.minimum ?? null, max: option.maximum ?? null});
    } else {
      control = el("input", {type: "text", id, name: option.name, value: String(option.default ?? ""),
                             dataset: {kind: "text"}});
    }
    return el("div", {class: "field"},
      el("label", {for: id}, pretty(option.name)), control, helpOf(option));
  }

  function readOptions() {
    const out = {};
    for (const control of $("options").querySelectorAll("[name]")) {
      const kind = control.dataset.kind;
      if (kind === "bool") out[control.name] = control.checked;
      else if (kind === "int") out[control.name] = Number.parseInt(control.value, 10);
      else out[control.name] = control.value;
    }
    return out;
  }

  $("game").addEventListener("change", drawGame);

  $("start-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const game = chosenGame();
    if (!game) return;
    const players = Number.parseInt($("players").value, 10);
    const names = [];
    for (let seat = 0; seat < players; seat++) {
      const input = document.querySelector(`#seat-rows input[data-seat="${seat}"]`);
      const seats = payload.seats || [];
      names.push((input && input.value.trim()) || (seats[seat] && seats[seat].name) || `Seat ${seat + 1}`);
    }
    $("start").disabled = true;
    const answer = await post("/api/host/start", {game: game.id, players, options: readOptions(), names});
    $("start").disabled = false;
    if (answer.ok) say(`${game.title} started.`, "ok"); else refused(answer, "Start");
  });

  // -- seats: rows are kept, so typing a name is never interrupted by a payload ----------
  function drawSeats() {
    const seats = payload.seats || [];
    const holder = $("seat-rows");
    while (holder.children.length > seats.length) holder.lastElementChild.remove();
    seats.forEach((seat, index) => {
      let row = holder.children[index];
      if (!row) { row = seatRow(index); holder.append(row); }
      const input = row.querySelector("input");
      if (document.activeElement !== input && !input.dataset.dirty) input.value = seat.name || "";
      row.querySelector(".seat-no").textContent = `Seat ${seat.number || index + 1}`;
      const state = row.querySelector(".seat-state");
      const bot = seat.bot;  // a bot in the seat (docs/bots.md): named by its level
      state.textContent = bot ? `${bot.name}${bot.thinking ? " \u00b7 thinking" : ""}`
        : seat.claimed ? "joined" : "not joined";
      row.classList.toggle("claimed", !!seat.claimed);
      row.classList.toggle("bot", !!bot);
      input.disabled = !!bot;
      const between = !payload.match || !!(payload.host && payload.host.over);
      row.querySelector(".seat-bot").hidden = !!bot || !!seat.claimed || !between;
      row.querySelector('[data-do="stand"]').hidden = !bot;
      row.classList.toggle("sitting-out", payload.match ? seat.playing === false : false);
      row.querySelector(".seat-playing").textContent =
        payload.match ? (seat.playing === false ? "not playing" : "playing") : "";
    });
  }

  function seatRow(index) {
    const number = index + 1;
    const input = el("input", {type: "text", maxlength: "20", dataset: {seat: String(index)},
                               "aria-label": `Seat ${number} name`, autocomplete: "off"});
    input.addEventListener("input", () => { input.dataset.dirty = "1"; });
    const save = async () => {
      const name = input.value.trim();
      if (!name) return;
      const answer = await post(`/api/host/seats/${number}/name`, {name});
      delete input.dataset.dirty;
      if (!answer.ok) refused(answer, `Rename seat ${number}`);
    };
    const form = el("form", {class: "seat-name", onsubmit: (event) => { event.preventDefault(); save(); }},
      input, el("button", {type: "submit"}, "Save"));
    return el("li", {class: "seat-row", dataset: {seat: String(index)}},
      el("div", {class: "seat-head"},
        el("span", {class: "seat-no"}, `Seat ${number}`),
        el("span", {class: "seat-state"}, ""),
        el("span", {class: "seat-playing"}, "")),
      el("div", {class: "seat-phones", "aria-live": "polite"}, "No phone"),
      form,
      el("div", {class: "seat-bot", hidden: true},
        el("select", {"aria-label": `Seat ${number}'s bot level`, dataset: {bot: String(index)}},
           ...["easy", "normal", "hard"].map((level) => el("option", {value: level}, level))),
        el("button", {type: "button", dataset: {do: "bot"}, onclick: () => seatBot(number)},
           "Seat a bot")),
      el("div", {class: "seat-buttons"},
        el("button", {type: "button", dataset: {do: "code"}, onclick: () => showCode(number)},
           "Show code"),
        el("button", {type: "button", dataset: {do: "replace"}, onclick: () => replace(number)},
           "Replace phone"),
        el("button", {type: "button", class: "danger", dataset: {do: "kick"}, onclick: () => kick(number)},
           "Kick"),
        el("button", {type: "button", dataset: {do: "stand"}, hidden: true,
                      onclick: () => standBot(number)}, "Stand the bot up")));
  }

  // -- bots in empty seats (docs/bots.md, "At the table") --------------------------------
  async function seatBot(number) {
    const level = document.querySelector(`select[data-bot="${number - 1}"]`).value;
    const answer = await post(`/api/host/seats/${number}/bot`, {level});
    if (answer.ok) say(`A ${level} bot sits in seat ${number}.`, "ok");
    else refused(answer, `Seat a bot in seat ${number}`);
  }

  async function standBot(number) {
    const answer = await post(`/api/host/seats/${number}/bot/stand`, {});
    if (answer.ok) say(`Seat ${number}'s bot stood up: the seat is empty.`, "ok");
    else refused(answer, `Stand seat ${number}'s bot up`);
  }

  // -- each seat's phone (one at a time: docs/security.md), asked for after every payload
  // and every few seconds (a phone joining changes no host payload of its own) ---------
  let phonesLoading = false, phonesAgain = false;
  async function loadPhones() {
    if (phonesLoading) { phonesAgain = true; return; }
    phonesLoading = true;
    const answer = await get("/api/host/phones");
    phonesLoading = false;
    if (answer.ok && answer.body && Array.isArray(answer.body.seats)) drawPhones(answer.body.seats);
    if (phonesAgain) { phonesAgain = false; loadPhones(); }
  }
  setInterval(() => {
    if (payload && !$("console").hidden && document.visibilityState === "visible") loadPhones();
  }, 5000);

  const clock = (seconds) => new Date(seconds * 1000).toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"});

  function drawPhones(seats) {
    const rows = $("seat-rows").children;
    for (const {seat, phones} of seats) {
      const row = rows[seat - 1];
      if (!row) continue;
      const box = row.querySelector(".seat-phones");
      const key = JSON.stringify(phones);
      if (box.dataset.key === key) continue;  // a Revoke button is not redrawn under a finger
      box.dataset.key = key;
      box.dataset.count = String(phones.length);
      row.classList.toggle("has-phone", phones.length > 0);
      if (!phones.length) { fill(box, "No phone"); continue; }
      fill(box, phones.map((phone) => el("div", {class: "seat-phone", dataset: {phone: phone.id}},
        el("span", {class: "phone-what"},
           `Phone: ${phone.device || "a browser"}, joined ${clock(phone.joined)} (id ${phone.id})`),
        el("button", {type: "button", class: "danger", dataset: {do: "revoke"},
                      onclick: () => revoke(seat, phone)}, "Revoke"))));
    }
  }

  async function revoke(number, phone) {
    if (!(await confirmFirst(`Let seat ${number}'s phone (${phone.device || "a browser"}) go? ` +
                             "It stops acting for the seat at once; the seat is told.", "Revoke"))) return;
    const answer = await post(`/api/host/seats/${number}/phones/${encodeURIComponent(phone.id)}/revoke`, {});
    if (answer.ok) say(`Seat ${number}'s phone was let go.`, "ok");
    else refused(answer, `Revoke seat ${number}'s phone`);
    loadPhones();
  }

  // A code is only ever a picture to scan: no live link is put in the page's text.
  function showQr(title, src, note, alt) {
    $("qr-title").textContent = title;
    $("qr-image").src = `${src}?t=${Date.now()}`;
    $("qr-image").alt = alt;
    $("qr-note").textContent = note;
    $("qr-dialog").showModal();
  }

  function showCode(number) {
    const seat = (payload.seats || [])[number - 1];
    showQr(`Seat ${number}${seat && seat.name ? ` - ${seat.name}` : ""}`,
           `/api/host/seats/${number}/qr.svg`,
           "Scan this code with the player's phone. It works once; the seat is told.",
           `Join code of seat ${number}`);
  }

  function showHandover() {
    showQr("Host on another phone", "/api/host/handover/qr.svg",
           "Scan this code with the phone that should also be the host. It works once," +
           " for two minutes; this page stays the host too.", "Host handover code");
  }

  async function replace(number) {
    if (!(await confirmFirst(`Replace seat ${number}'s phone? Its old link stops working at once.`,
                             "Replace"))) return;
    const answer = await post(`/api/host/seats/${number}/replace`, {});
    if (!answer.ok) { refused(answer, `Replace seat ${number}`); return; }
    showCode(number);
  }

  async function kick(number) {
    const seat = (payload.seats || [])[number - 1];
    const who = seat && seat.name ? `${seat.name} (seat ${number})` : `seat ${number}`;
    if (!(await confirmFirst(`Kick ${who}? The phone is logged out and the seat shows a new code.`,
                             "Kick"))) return;
    const answer = await post(`/api/host/seats/${number}/kick`, {});
    if (answer.ok) say(`Seat ${number} is free: its screen shows a new code.`, "ok");
    else refused(answer, `Kick seat ${number}`);
  }

  // -- start -----------------------------------------------------------------------------
  function start() {
    if (stream) { stream.restart(); return; }
    stream = live("/api/host/stream", "/api/host/view", (next) => {
      payload = next;
      draw();
    }, (state) => {
      showConnection($("conn"), state);
      if (state === "denied") { $("conn").textContent = "PIN needed"; showLogin(""); }
    });
  }

  start();
})();
