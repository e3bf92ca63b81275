// Mutiny Table: the game night, on the table display and the host page.
//   Table display (#night): tonight's standings (wins, each game's own score), a chart of
//   wins per player, the latest matches; and (#join-codes) each unclaimed seat's join
//   code, for a laptop table with no seat screens to show it.
//   Host page (#night-card): Rematch / Another game once a match is over, a new night,
//   and the night's exports (CSV, JSON).
// It draws from the payloads the page already receives (no second stream): common.js
// keeps each one in window.__mutinyPayloads, and this file hears each push there.
"use strict";

(() => {
  const {el, svg, fill, post, COLORS, MARKERS} = window.Mutiny;
  const LATEST = 5;  // matches listed under the standings (the exports hold them all)

  // Hear every payload the page's own stream delivers (see the header).
  function onPayloads(draw) {
    const kept = window.__mutinyPayloads;
    const push = kept.push.bind(kept);
    kept.push = (...payloads) => {
      const length = push(...payloads);
      try { draw(payloads[payloads.length - 1]); } catch (error) { console.error("night", error); }
      return length;
    };
    if (kept.length) draw(kept[kept.length - 1]);
  }

  // -- the standings --------------------------------------------------------------------
  function gameColumns(standings) {
    const games = new Map();
    for (const row of standings) {
      for (const [id, game] of Object.entries(row.games || {})) {
        if (game.score_label && !games.has(id)) games.set(id, game);
      }
    }
    return [...games.entries()];
  }

  function standingsTable(night) {
    const columns = gameColumns(night.standings);
    const head = el("tr", {},
      el("th", {scope: "col"}, "Player"), el("th", {scope: "col"}, "Wins"),
      el("th", {scope: "col"}, "Played"),
      columns.map(([, game]) => el("th", {scope: "col"}, `${game.title} (${game.score_label})`)));
    const rows = night.standings.map((row, place) => el("tr", {dataset: {name: row.name}},
      el("th", {scope: "row"}, `${row.rank || place + 1}. ${row.name}`),  // ties share a rank
      el("td", {class: "night-wins"}, String(row.wins)),
      el("td", {}, String(row.played)),
      columns.map(([id]) => {
        const game = (row.games || {})[id];
        return el("td", {}, game && game.score !== null ? String(game.score) : "-");
      })));
    return el("table", {class: "night-standings"}, el("thead", {}, head), el("tbody", {}, rows));
  }

  // The seat a player sat at in their newest match: their colour and marker, as on every
  // board (a player's place in the standings changes; their seat is who they are).
  function seatOf(night, name, place) {
    for (const match of night.matches || []) {
      const seat = match.players.indexOf(name);
      if (seat >= 0) return seat;
    }
    return place;
  }

  // Wins per player as horizontal bars, each with the player's marker: told apart
  // without colour.
  function winsChart(standings, night) {
    if (!standings.length) return null;
    const most = Math.max(1, ...standings.map((row) => row.wins));
    const W = 360, ROW = 22, NAME_W = 120, H = standings.length * ROW + 6;
    const parts = [svg("title", {}, "Wins tonight")];
    standings.forEach((row, index) => {
      const y = index * ROW + 4;
      const width = ((W - NAME_W - 30) * row.wins) / most;
      const seat = seatOf(night, row.name, index);
      const color = COLORS[seat % COLORS.length];
      parts.push(svg("text", {x: 0, y: y + 14, class: "night-chart-name"},
        `${MARKERS[seat % MARKERS.length]} ${row.name}`));
      parts.push(svg("rect", {x: NAME_W, y, width: Math.max(width, 1), height: ROW - 6,
                              fill: color}));
      parts.push(svg("text", {x: NAME_W + width + 6, y: y + 14, class: "night-chart-count"},
        String(row.wins)));
    });
    const words = standings.map((row) => `${row.name} ${row.wins}`).join(", ");
    return svg("svg", {viewBox: `0 0 ${W} ${H}`, class: "night-chart", role: "img",
                       "aria-label": `Wins tonight: ${words}`}, parts);
  }

  function matchList(night) {
    return el("ol", {class: "night-matches", reversed: true},
      night.matches.slice(0, LATEST).map((match) => el("li", {value: String(match.number)},
        `${match.title}: `,
        match.winners.length ? `${match.winners.join(" and ")} won` : "no winner")));
  }

  // compact: the standings alone (the table display, while a match or join codes need
  // the room).
  function drawNight(holder, night, heading = "h2", compact = false) {
    if (!holder) return;
    if (!night || !night.count) {
      holder.hidden = true;
      holder.replaceChildren();
      return;
    }
    holder.hidden = false;
    const count = night.count === 1 ? "1 match" : `${night.count} matches`;
    holder.classList.toggle("night-compact", compact);
    fill(holder, el(heading, {}, `Tonight: ${count}`), standingsTable(night),
         compact ? null : winsChart(night.standings, night), compact ? null : matchList(night));
  }

  // -- the table display: join codes of seats nobody has had tonight ----------------------
  // The sizing rule (docs/table.md, "Joining"): from 2 to 3 m a 55-inch TV fills about a
  // third of a phone camera's frame (some 427 pixels of a 1280-pixel preview), and a
  // decoder wants about 3 camera pixels a module. So a module is 9/1280 of the display's
  // width (9 px on a 1280-px display, 13.5 on a 1920-px one) and a code is its modules
  // and quiet zone (from GET /api/public/join) times that. As many codes as fit the room
  // at that size are drawn, lowest seats first, at least one; the table code, shown
  // with the address, reaches every free seat.
  const MODULE_SHARE = 9 / 1280;
  const QR_GAP = 16;  // px between two codes
  let codesKey = null, codesDrawn = 0, asked = 0;
  let codesHome = null;  // where the codes live in the side (a match needs the felt)

  function codeSize(join) {
    const module = Math.ceil(window.innerWidth * MODULE_SHARE);
    return (join.modules + 2 * join.border) * module;
  }

  // In the lobby the codes take the felt, where there is room for them at full size;
  // during a match (a seat joining late) they go back to the side.
  function placeCodes(holder, inLobby) {
    if (!codesHome) codesHome = {parent: holder.parentNode, next: holder.nextSibling};
    const lobby = document.getElementById("lobby");
    if (inLobby && lobby && holder.parentNode !== lobby) {
      lobby.insertBefore(holder, lobby.querySelector(".tv-games"));
    } else if (!inLobby && holder.parentNode !== codesHome.parent) {
      codesHome.parent.insertBefore(holder, codesHome.next);
    }
  }

  async function drawJoinCodes(holder, payload) {
    if (!holder || !payload.table) return;
    const playing = payload.match ? payload.match.names.length : payload.table.seats;
    const open = [];
    for (let seat = 0; seat < playing; seat++) {
      if (payload.table.open_code && payload.table.open_code[seat]) open.push(seat);
    }
    const claimed = payload.table.claimed || [];
    // A new match gives every seat a new link (and the table a new code): draw again.
    const key = JSON.stringify([payload.match && payload.match.match, open, claimed,
                                window.innerWidth]);
    if (key === codesKey) return;
    codesKey = key;
    const mine = ++asked;
    const reply = await window.Mutiny.get("/api/public/join");
    if (mine !== asked || !reply.ok) return;  // a newer draw is on its way
    const join = reply.body;
    sayCall(join, !payload.match);
    codesDrawn += 1;
    if (!open.length || !join.code) {
      holder.hidden = true;
      holder.replaceChildren();
      return;
    }
    placeCodes(holder, !payload.match);
    holder.hidden = false;
    const size = codeSize(join);
    const room = holder.parentNode.clientWidth || size;
    // A narrow or standing page scrolls (mutiny.css): every code fits, one under another.
    const scrolls = window.matchMedia("(max-width: 980px), (orientation: portrait)").matches;
    const fit = Math.max(1, Math.floor((room + QR_GAP) / (size + QR_GAP)));
    const shown = scrolls ? open : open.slice(0, fit);
    holder.style.setProperty("--qr-size", `${Math.min(size, room)}px`);
    holder.classList.toggle("join-in-lobby", !payload.match);
    fill(holder, el("h2", {}, "Join with your phone"),
      el("ul", {class: "join-codes"}, shown.map((seat) => el("li", {},
        el("img", {src: `/api/public/seats/${seat + 1}/qr.svg?v=${codesDrawn}`,
                   alt: `Join code of seat ${seat + 1}`}),
        el("span", {}, seatName(payload, seat))))),
      el("p", {class: "join-typed"}, shown.length < open.length ? "More free seats: open " : "Or open ",
        el("b", {class: "join-address"}, join.address), " and type ",
        el("b", {class: "join-letters"}, join.code)));
  }

  // The lobby's call says how this table is joined, and stops asking anyone to scan
  // once every seat has a player; the help card beside it leaves joining to the call.
  function sayCall(join, inLobby) {
    const call = document.querySelector(".tv-lobby-call");
    if (call && inLobby) call.textContent = join.call;
    const help = document.querySelector("#help p");
    if (help) help.textContent = "Your phone is your private screen; everything on this display is public.";
  }

  function seatName(payload, seat) {
    const names = (payload.match && payload.match.names) || payload.table.names || [];
    return names[seat] || `Seat ${seat + 1}`;
  }

  // -- the host page ------------------------------------------------------------------------
  function hostCard(card, payload) {
    if (!card || payload.viewer !== "host") return;
    card.hidden = false;
    const over = !!(payload.host && payload.host.over && payload.match);
    const again = document.getElementById("night-again");
    again.hidden = !over;
    drawNight(document.getElementById("night-standings"), payload.night, "h3");
    const empty = !payload.night || !payload.night.count;
    for (const link of card.querySelectorAll("a[download]")) link.hidden = empty;
  }

  function say(text) {
    const message = document.getElementById("night-message");
    if (!message) return;
    message.textContent = text || "";
    message.hidden = !text;
  }

  function hostButtons() {
    const act = (url, body) => async () => {
      const reply = await post(url, body);
      say(reply.ok ? "" : reply.body.message);
    };
    const wire = (id, handler) => {
      const button = document.getElementById(id);
      if (button) button.addEventListener("click", handler);
    };
    wire("night-rematch", act("/api/host/rematch"));
    wire("night-another", act("/api/host/lobby"));
    wire("night-new", async () => {
      if (!window.confirm("Start a new night? Tonight's standings start again.")) return;
      await act("/api/host/night/new")();
    });
  }

  let lastPayload = null;
  function start() {
    const card = document.getElementById("night-card");
    // The codes' size follows the display's width (the key of drawJoinCodes holds it).
    window.addEventListener("resize", () => {
      if (lastPayload) drawJoinCodes(document.getElementById("join-codes"), lastPayload);
    });
    // The stream opened again (table.js): a restarted table may have new links.
    window.addEventListener("mutiny:reconnected", () => {
      codesKey = null;
      if (lastPayload) drawJoinCodes(document.getElementById("join-codes"), lastPayload);
    });
    if (card) hostButtons();
    onPayloads((payload) => {
      if (!payload) return;
      if (card) {
        hostCard(card, payload);
      } else {
        const codes = document.getElementById("join-codes");
        lastPayload = payload;
        drawJoinCodes(codes, payload);
        // While a match is played the board and its scores need the room: the night
        // shows between matches (in full in the lobby, its standings alone at the end).
        const playing = !!payload.match && !payload.match.over;
        drawNight(document.getElementById("night"), playing ? null : payload.night, "h2",
                  !!payload.match || (!!codes && !codes.hidden));
      }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
