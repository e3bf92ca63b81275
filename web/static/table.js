// The table display: the public view, read from the couch.
// It draws the public payload (GET /api/public/stream): the game, what the table is doing,
// whose turn it is, the seats, the game's board (board.js draws its parts: docs/boards.md),
// scores with a chart of the match, the story so far, and the game's own panel when
// web/static/games/<id>.js has one. reveal.js marks the big moments; howto.js teaches the
// game beside the board. Sizes: tv.css (1rem is 1/45 of the screen's height, the least
// any text on it may be); what does not fit at that size is left out, never drawn smaller.
"use strict";

(() => {
  const {el, fill, live, gamePanel, showConnection, COLORS, scoreChart} = window.Mutiny;
  const {draw: drawBoard, marker, fitWords} = window.MutinyBoard;
  const $ = (id) => document.getElementById(id);
  // Parts that read best beside the table than on it: the story and charts.
  const SIDE_PARTS = new Set(["log", "chart"]);
  let announced = "";
  let chartOf = null;  // what the side's chart draws: {history, names, label}
  let chartSize = null;  // the size it was last fitted to (a new payload redraws it there)

  function nameOf(names, seat) {
    return (names && names[seat]) || `Seat ${seat + 1}`;
  }

  // -- drawing: every payload, fitted once a frame ------------------------------------
  // Every payload is heard (the reveal beat follows each change) and drawn as it comes;
  // fitting the screen, the costly part, waits for the next frame (before it is painted),
  // so a burst of changes costs the TV one fitting, not one each.
  function hear(payload) {
    if (window.MutinyReveal) window.MutinyReveal.hear(payload);
    rememberStarted(payload);
    draw(payload);
    tellStory(payload);
  }

  function draw(payload) {
    const match = payload.match || null;
    const summary = payload.summary || {};
    const table = payload.table || {seats: 0, names: [], claimed: []};
    const names = (match && match.names) || table.names || [];

    const title = summary.title || (match && match.title) || "Mutiny Table";
    $("game-title").textContent = title;
    document.querySelector(".tv-brand").hidden = title === "Mutiny Table";
    document.title = `${title} - table`;
    // The board's headline, when it has one, is the bar's (the summary's otherwise).
    const top = ((match && payload.board) || []).find((part) => part.part === "headline");
    $("headline").textContent = (top && top.text) || summary.headline ||
      (match ? "" : "Waiting for a game: the host or seat 1 picks one.");
    window.MutinyPace.timer($("timer"), (match && payload.timer) || null);
    window.MutinyPace.nudges("table", payload.nudge);
    $("sound").hidden = !(payload.nudge && payload.nudge.sound);
    // Seat parts that do not answer: which, what to check, play that seat by phone.
    const faults = payload.faults || [];
    fill($("faults"), faults.map((fault) => el("li", {}, fault.words)));
    $("faults").hidden = faults.length === 0;

    const board = (match && payload.board) || [];
    const has = (kind) => board.some((part) => part.part === kind);
    drawResult(match, names, has("result"));
    announce(match, names);
    const turn = (match && !match.over && summary.turn) || [];
    const turnBox = $("turn");
    // The turn is in the bar and on the seats: the felt's own line shows only a pause.
    turnBox.classList.toggle("paused", !!(match && match.paused));
    if (match && match.paused) {
      turnBox.textContent = "Paused by the host";
      turnBox.hidden = false;
    } else {
      turnBox.textContent = turn.length ? `Turn: ${turn.map((s) => nameOf(names, s)).join(", ")}` : "";
      turnBox.hidden = !turn.length;
    }
    // The board: on the felt, with the story and charts at the side.
    const ctx = {where: "table", names, level: 2, fitsLater: true};
    drawBoard($("board"), board.filter((part) => !SIDE_PARTS.has(part.part) && part.part !== "headline"), ctx);
    drawBoard($("side-board"), board.filter((part) => SIDE_PARTS.has(part.part)), ctx);
    // The story's list is drawn anew each time (a new list is no region a reader
    // follows): #story-news says its new lines instead (tellStory), so the list is quiet.
    $("side-board").querySelectorAll(".log-lines").forEach((list) => list.setAttribute("aria-live", "off"));
    gamePanel("table", match, $("game-panel"), payload).then((drawn) => {
      document.body.classList.toggle("has-panel", drawn);
      fitSoon();
    });
    drawLobby(payload);
    drawSeats(table, match, summary, names, turn);
    drawScores(summary, names, payload.history || [], match);
    drawTallies(has("tally") ? [] : summary.tallies || []);
    $("help").hidden = !!match;
    fitSoon();
  }

  // The result, when the board has no result part of its own to tell it.
  function drawResult(match, names, told) {
    const result = $("result");
    if (match && match.over && !told) {
      const winners = ((match.result && match.result.winners) || []).map((s) => nameOf(names, s));
      result.textContent = winners.length
        ? `${winners.join(" & ")} ${winners.length > 1 ? "win" : "wins"}!`
        : "The match has ended.";
      if (match.result && match.result.reason) {
        result.append(el("span", {class: "tv-reason"}, match.result.reason));
      }
      result.hidden = false;
    } else {
      result.hidden = true;
    }
  }

  // -- how to play, once a match has begun --------------------------------------------
  // howto.js shows the game's how-to beside the board until the match's first public
  // change (the payload's howto.before_first_action). A table restarted mid-match must not
  // teach it again: this display remembers each match it saw begun (kept in the browser
  // across reloads), and a match it knows has begun keeps the how-to closed.
  const STARTED_KEY = "mutiny-table-started";
  const started = new Set((() => {
    try { return JSON.parse(localStorage.getItem(STARTED_KEY) || "[]"); } catch (error) { return []; }
  })());
  function rememberStarted(payload) {
    const match = payload && payload.match;
    const howto = payload && payload.howto;
    if (!match || !howto) return;
    if (howto.before_first_action === false && !started.has(match.match)) {
      started.add(match.match);
      try {
        localStorage.setItem(STARTED_KEY, JSON.stringify([...started].slice(-20)));
      } catch (error) { /* a browser that keeps nothing: this page still remembers */ }
    }
    document.body.classList.toggle("howto-done",
      howto.before_first_action !== false && started.has(match.match));
  }

  // -- fitting the screen -------------------------------------------------------------
  // A TV cannot scroll, and nothing on it may be smaller than 1rem. The felt's parts start
  // a notch larger and come down to 1rem; if the board still holds more than the felt,
  // parts are left out from the end of the board (a game lists what matters first: the
  // result, what the table is doing now), then the last parts inside its groups, and a
  // line says what the phones still show. The side leaves out, in order, the help, the
  // story's older lines, the score list (the seats show the scores), the chart, then the
  // story. The chart takes what room the side has left, drawn at that size.
  const LARGEST = 1.2;
  // The felt's parts, once the side is settled, grow up to this into the room left:
  // a board that holds little (or whose large part was left out) reads larger.
  const FELT_LARGEST = 1.5;
  const overflows = (box) => box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1;
  const rem = () => parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;

  // The largest scale of holder's words, from `from` to `to` (`from` fits, or is the
  // least there is), at which box does not overflow: halving the gap, a few layouts.
  function scaleTo(box, holder, from, to) {
    const set = (scale) => {
      holder.style.setProperty("font-size", `${scale.toFixed(3)}em`);
      fitWords(holder);
    };
    set(to);
    if (!overflows(box)) return;
    let fits = from, over = to;
    while (over - fits > 0.03) {
      const middle = (fits + over) / 2;
      set(middle);
      if (overflows(box)) over = middle; else fits = middle;
    }
    set(fits);
  }

  function shrink(box, holder, least) {
    holder.dataset.least = String(least);
    scaleTo(box, holder, 1, LARGEST);
  }

  // Leave out nodes (in order, each added to gone) while box overflows.
  function leaveOut(box, candidates, gone = [], after = null) {
    for (const node of candidates) {
      if (!overflows(box)) break;
      node.classList.add("tv-left-out");
      gone.push(node);
      if (after) after();
    }
  }

  // Then bring back, the most important first, whatever fits in the room that leaving
  // out a large part made (a small part after it). Returns what stays out.
  function bringBack(box, gone) {
    for (const node of [...gone].reverse()) {
      node.classList.remove("tv-left-out");
      if (overflows(box)) node.classList.add("tv-left-out");
    }
    return gone.filter((node) => node.classList.contains("tv-left-out"));
  }

  // A part's own title; a group drawn without one is named by the part that holds it,
  // never by its first part's title (a row of hands is not "Anne Bonny, 38 points").
  function titleOf(node) {
    for (let part = node; part && part.id !== "board"; part = part.parentElement) {
      const heading = part.dataset && part.dataset.part ? part.querySelector(":scope > .part-title") : null;
      if (heading) return heading.textContent;
    }
    return null;
  }

  function fitFelt(least) {
    const felt = document.querySelector(".tv-table");
    const board = $("board");
    board.dataset.least = String(least);
    board.querySelectorAll(".tv-left-out").forEach((node) => node.classList.remove("tv-left-out"));
    board.classList.remove("tv-small-cards");
    const more = $("more");
    more.hidden = true;
    if (getComputedStyle(felt).overflowY === "visible") {  // a narrow page scrolls instead
      board.style.removeProperty("font-size");
      fitWords(board);
      return;
    }
    shrink(felt, board, least);
    if (overflows(felt) && board.querySelector(".part-cards .part-card")) {
      // Smaller cards, the same words, before any part is left out: a round's reveal
      // of every hand stays whole on the TV (its hands were the first thing to go).
      board.classList.add("tv-small-cards");
      shrink(felt, board, least);
    }
    if (!overflows(felt)) return;
    const kept = (node) => !["headline", "result"].includes(node.dataset.part);
    const top = [...board.children].filter(kept);
    // From the end of the board (the first part stays, unless a result tells the end):
    // a group's last parts first (each group keeps its first), the innermost groups
    // before those that hold them (a row's last hands before the whole row), then the
    // whole part; last, the inner parts of what is left.
    const inner = (node) => [...node.querySelectorAll(".group-parts")].reverse()
      .flatMap((parts) => [...parts.children].slice(1).reverse());
    const gone = [];
    const say = () => {  // the titles of what is out of sight (a part, not its insides)
      const out = gone.filter((node) => !node.parentElement.closest(".tv-left-out"));
      // Several parts of one group out (a row's hands) are named once, by the group.
      const named = out.map((node) => (node.parentElement.classList.contains("group-parts") &&
        out.some((other) => other !== node && other.parentElement === node.parentElement)
        ? node.parentElement : node));
      const titles = [...new Set(named.map(titleOf).filter(Boolean))];
      more.textContent = titles.length
        ? `Also on every phone: ${titles.join(", ")}.` : "More on every phone.";
      more.hidden = false;
    };
    const ended = !!board.querySelector(':scope > [data-part="result"]');
    for (const node of top.slice(ended ? 0 : 1).reverse()) {
      if (!overflows(felt)) break;
      leaveOut(felt, inner(node), gone, say);
      if (overflows(felt)) {
        node.classList.add("tv-left-out");
        gone.push(node);
        say();
      }
    }
    for (const node of top) leaveOut(felt, inner(node), gone, say);
    const out = bringBack(felt, gone);
    gone.splice(0, gone.length, ...out);
    if (gone.length) say(); else more.hidden = true;
  }

  // The room the felt has left under its board goes to the board's words (up to
  // FELT_LARGEST), unless the chart took it (fitSide), drawn at that room's size.
  function growFelt() {
    const felt = document.querySelector(".tv-table");
    const board = $("board");
    if (board.hidden || getComputedStyle(felt).overflowY === "visible" ||
        $("chart").parentNode === felt || overflows(felt)) return;
    const now = parseFloat(board.style.fontSize) || LARGEST;
    scaleTo(felt, board, now, Math.max(now, FELT_LARGEST));
  }

  function fitSide(least) {
    const side = document.querySelector(".tv-side");
    side.querySelectorAll(".tv-left-out").forEach((node) => node.classList.remove("tv-left-out"));
    $("side-board").dataset.least = String(least);
    const chart = $("chart");
    const narrow = getComputedStyle(side).overflowY === "visible";
    // The chart needs a line of height per name at its right end, and two for its axes.
    const lines = chartOf ? Math.max(0, ...chartOf.history.map((row) => row.length - 1)) : 0;
    chart.hidden = !chartOf;
    chart.style.setProperty("min-height", `${(lines * 1.15 + 2.6).toFixed(2)}rem`);
    fill(chart);
    if (chart.parentNode !== side) side.insertBefore(chart, $("side-board"));  // home first
    if (narrow) {
      side.style.removeProperty("font-size");
    } else {
      shrink(side, side, least);
      narrowStandings();
      const logLines = [...side.querySelectorAll(".side-board .log-lines li")];
      const gone = [];
      leaveOut(side, [
        $("help"),
        ...logLines.slice(0, -3),
        ...side.querySelectorAll(".night-matches, .night-chart"),
        $("scores-card"),
        chart,
        ...side.querySelectorAll(".side-board > *"),
        ...side.querySelectorAll(".howto-section + .howto-section"),
        // Tonight's standings keep their leaders: the last places go first, then the
        // card (join codes stay whatever else goes: a seat is joined by them).
        ...[...side.querySelectorAll(".night-standings tbody tr")].slice(1).reverse(),
        $("night"),
      ].filter(Boolean), gone);
      // (The story's lines stay in order: none comes back between two left out.)
      bringBack(side, gone.filter((node) => node !== $("help") && !logLines.includes(node)));
    }
    // No room for the chart at the side (join codes, tonight's standings): the felt's
    // room under the board, when it has that much.
    if (chartOf && !narrow && chart.classList.contains("tv-left-out")) {
      const felt = document.querySelector(".tv-table");
      chart.classList.remove("tv-left-out");
      felt.append(chart);
      if (overflows(felt)) {
        chart.classList.add("tv-left-out");
        side.insertBefore(chart, $("side-board"));
      }
    }
    chart.style.removeProperty("min-height");
    if (chartOf && !chart.classList.contains("tv-left-out")) {
      const box = chart.getBoundingClientRect();
      const pad = 0.8 * least;
      const size = {width: Math.floor(box.width - pad * 2),
                    height: Math.floor((narrow ? 14 * least : box.height) - pad), font: least};
      const picture = box.width > 0 && scoreChart(chartOf.history, chartOf.names, chartOf.label, size);
      chartSize = picture ? size : null;
      if (picture) fill(chart, picture); else chart.hidden = true;
    }
  }

  // Tonight's standings (night.js) too wide for the side: their last columns (each game's
  // score, then the matches played) are left out, the players and their wins stay. A
  // player's name broken over lines counts as too wide: the table squeezes names first.
  function narrowStandings() {
    const card = $("night");
    const standings = card && card.querySelector(".night-standings");
    if (!standings || card.hidden) return;
    const names = [...standings.tBodies[0].rows].map((row) => row.cells[0]);
    const line = parseFloat(getComputedStyle(standings).fontSize) * 1.6;
    const tooWide = () => card.scrollWidth > card.clientWidth + 1 ||
      names.some((name) => name.getBoundingClientRect().height > line);
    for (let column = standings.rows[0].cells.length - 1; column >= 2 && tooWide(); column--) {
      for (const row of standings.rows) {
        if (row.cells[column]) row.cells[column].classList.add("tv-left-out");
      }
    }
  }

  let fitting = false;
  function fitScreen() {
    fitting = true;
    try {
      const least = rem();
      document.body.classList.toggle("teaching", !!$("howto-panel") &&
                                     !document.body.classList.contains("howto-done"));
      fitFelt(least);
      fitSide(least);
      growFelt();
    } finally {
      fitting = false;
      sideWatch.takeRecords();  // our own changes to the side are not news
    }
  }
  // Fit again when the window, the felt's size or what others draw into the side
  // (howto.js, night.js) changes.
  let refit = 0;
  const fitSoon = () => {
    if (fitting) return;
    cancelAnimationFrame(refit);
    refit = requestAnimationFrame(fitScreen);
  };
  window.addEventListener("resize", fitSoon);
  new ResizeObserver(fitSoon).observe(document.querySelector(".tv-table"));
  const sideWatch = new MutationObserver(fitSoon);
  sideWatch.observe(document.querySelector(".tv-side"), {childList: true, subtree: true});

  // Say a result once to a screen reader (the headline is a polite live region already).
  function announce(match, names) {
    let text = "";
    if (match && match.over && match.result) {
      const winners = (match.result.winners || []).map((s) => nameOf(names, s));
      text = winners.length ? `${winners.join(" and ")} ${winners.length > 1 ? "win" : "wins"}.`
                            : "The match has ended.";
    }
    if (text !== announced) {
      announced = text;
      $("announce").textContent = text;
    }
  }

  function drawLobby(payload) {
    const lobby = $("lobby");
    if (payload.match) { lobby.hidden = true; return; }
    const games = (payload.lobby && payload.lobby.games) || [];
    fill($("lobby-games"), games.map((game) => el("li", {},
      el("b", {}, game.title || game.id),
      el("span", {}, game.min_seats === game.max_seats ? ` ${game.min_seats} players`
                                                        : ` ${game.min_seats}-${game.max_seats} players`))));
    lobby.hidden = false;
  }

  // The seats in a row along the top of the table, in seat order (clockwise).
  function drawSeats(table, match, summary, names, turn) {
    const count = Math.max(table.seats || 0, names.length);
    const players = match ? (match.names || []).length : count;
    const winners = (match && match.over && match.result && match.result.winners) || [];
    const scores = summary.scores || null;
    const items = [];
    for (let seat = 0; seat < count; seat++) {
      const claimed = !!(table.claimed && table.claimed[seat]);
      const bot = table.bots && table.bots[seat];  // named by its level (docs/bots.md)
      const playing = seat < players;
      const classes = ["tv-seat"];
      if (bot) classes.push("bot");
      else if (!claimed) classes.push("unclaimed");
      if (!playing) classes.push("sitting-out");
      if (turn.includes(seat)) classes.push("turn");
      if (winners.includes(seat)) classes.push("winner");
      // A seat that had a player tonight is joined again only by a code the host shows
      // or its own screen, never by one on this display (docs/security.md).
      const open = !!(table.open_code && table.open_code[seat]);
      const status = (!playing ? "not playing" : bot ? (bot.thinking ? "thinking\u2026" : "bot")
        : claimed ? "joined"
        : open ? "scan to join" : "ask the host") +
        (turn.includes(seat) ? " \u00b7 their turn" : "");
      items.push(el("li", {
        class: classes.join(" "),
        style: `--seat-color:${COLORS[seat % COLORS.length]}`,
        dataset: {seat: String(seat)},
      },
      el("span", {class: "tv-seat-no sr-only"}, `Seat ${seat + 1}`),
      el("span", {class: "tv-seat-name"}, marker(seat),
         bot ? bot.name : nameOf(playing && match ? names : table.names, seat)),
      el("span", {class: "tv-seat-status"}, winners.includes(seat) ? "winner" : status),
      scores && playing && scores[seat] !== undefined && scores[seat] !== null
        ? el("span", {class: "tv-seat-score"}, String(scores[seat])) : null));
    }
    // Real pieces on the table: a player moves the bot's for it.
    if (table.pieces) items.push(el("li", {class: "tv-pieces", role: "status"}, table.pieces));
    fill($("seats"), items);
  }

  function drawScores(summary, names, history, match) {
    const card = $("scores-card");
    const scores = summary.scores;
    if (!match || !scores || !scores.length) {
      card.hidden = true;
      chartOf = null;
      return;
    }
    card.hidden = false;
    $("score-label").textContent = summary.score_label || "Scores";
    const top = Math.max(...scores);
    fill($("scores"), scores.map((value, seat) => el("li", {
      class: value === top ? "lead" : "",
      style: `--seat-color:${COLORS[seat % COLORS.length]}`,
    },
    marker(seat),
    el("span", {class: "who"}, nameOf(names, seat)),
    el("b", {}, String(value)))));
    // Drawn by fitSide, at the size the side leaves it; once a score has moved (before,
    // a flat line tells nothing and takes the story's room).
    chartOf = history.length > 1 ? {history, names, label: summary.score_label || "Score"} : null;
    const picture = chartOf && chartSize && !$("chart").hidden &&
      scoreChart(chartOf.history, chartOf.names, chartOf.label, chartSize);
    if (picture) fill($("chart"), picture);
  }

  function drawTallies(tallies) {
    fill($("tallies"), tallies.map((tally) => {
      const rows = tally.rows || [];
      const most = Math.max(1, ...rows.map((row) => Number(row[1]) || 0));
      return el("section", {class: "tv-card tv-tally"},
        el("h2", {}, tally.title || "Votes"),
        el("ol", {}, rows.map(([label, n]) => el("li", {},
          el("span", {class: "who"}, String(label)),
          el("span", {class: "tally-bar"}, el("i", {style: `width:${(100 * (Number(n) || 0)) / most}%`})),
          el("b", {}, String(n))))));
    }));
  }

  // -- the story, said to a screen reader ----------------------------------------------
  // #story-news, a polite live region that stays on the page, holds the story's lines
  // that are new since the last payload, and nothing else: a reader hears each line of
  // what happened once, never the whole story again. The story is a window on its last
  // lines (the board's log part), so the new ones are those after the longest run of
  // lines the last story ended with. The first story a page sees is not news; a new
  // match's is, from its first line.
  let story = null;  // {match, lines}: the story as last told
  const storyOf = (payload) => ((payload.match && payload.board) || [])
    .filter((part) => part.part === "log").flatMap((part) => part.lines || []);

  function newLines(before, now) {
    for (let run = Math.min(before.length, now.length); run > 0; run--) {
      const tail = before.slice(-run);
      if (tail.every((line, i) => line === now[i])) return now.slice(run);
    }
    return now;
  }

  function tellStory(payload) {
    const match = payload.match ? payload.match.match : null;
    const lines = storyOf(payload);
    const fresh = story === null ? [] : story.match === match ? newLines(story.lines, lines) : lines;
    story = {match, lines};
    if (fresh.length) fill($("story-news"), fresh.map((line) => el("p", {}, line)));
  }

  // -- join codes that stay current -----------------------------------------------------
  // night.js draws each free seat's join code. A code asked for just as the table changed
  // (a seat taken, the table restarting) may come back 404 or not at all: the TV never
  // shows a broken picture. It hides it and asks again a few times, a little later each
  // time; a seat that was taken leaves the codes with the next payload anyway.
  const CODE_TRIES = 6;
  const codes = $("join-codes");
  codes.addEventListener("error", (event) => {
    const img = event.target;
    if (!(img instanceof HTMLImageElement)) return;
    img.classList.add("join-waiting");
    const tries = Number(img.dataset.tries || 0);
    if (tries >= CODE_TRIES) return;
    img.dataset.tries = String(tries + 1);
    setTimeout(() => {
      if (!img.isConnected) return;  // drawn again meanwhile
      const url = new URL(img.src);
      url.searchParams.set("try", String(tries + 1));
      img.src = url.href;
    }, 300 * 2 ** tries);
  }, true);  // an image's error does not bubble: heard on its way down
  codes.addEventListener("load", (event) => event.target.classList.remove("join-waiting"), true);

  // A stream that opens again may reach a restarted table, and one that started a new
  // night has new join links and a new table code though its seats look the same: the
  // codes are asked for again ("mutiny:reconnected", heard by night.js).
  let connected = false, everConnected = false;
  function followConnection(state) {
    showConnection($("conn"), state);
    if (state !== "live") { connected = false; return; }
    window.MutinyPace.sync();  // (at most every 30 s: pace.js)
    if (connected) return;
    connected = true;
    if (everConnected) window.dispatchEvent(new Event("mutiny:reconnected"));
    everConnected = true;
  }

  window.MutinyPace.soundButton($("sound"));
  live("/api/public/stream", "/api/public/view", hear, followConnection);
})();
