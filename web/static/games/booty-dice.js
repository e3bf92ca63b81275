// Booty Dice's own panels: the six dice and every pirate's Lives, Shields and Doubloons.
// Everything in Booty Dice is public, so the table and the phones draw the same things
// (companion/games/booty_dice/rules.py view(): dice, held, lives, shields, doubloons, roller,
// rolls, treasure, war_chest, locker, alive, step). On the roller's phone a die is held
// (or freed) by tapping it: the die in place i is the "die" i + 1 of a hold.
"use strict";

(() => {
  const {el, svg, fill} = window.Mutiny;
  const NAMES = {doubloon: "Doubloon", x: "X Marks", jolly: "Jolly Roger", cutlass: "Cutlass",
                 plank: "Plank", shield: "Shield"};
  const MAX_ROLLS = 3;

  // A small picture of each face, drawn on a 40x40 grid.
  function faceArt(face) {
    const stroke = {fill: "none", stroke: "currentColor", "stroke-width": 3.2,
                    "stroke-linecap": "round", "stroke-linejoin": "round"};
    switch (face) {
      case "doubloon":
        return [svg("circle", {cx: 20, cy: 20, r: 13, fill: "#e0b046", stroke: "#8a6216", "stroke-width": 2.5}),
                svg("circle", {cx: 20, cy: 20, r: 8, fill: "none", stroke: "#8a6216", "stroke-width": 1.8})];
      case "x":
        return [svg("path", {d: "M10 10L30 30M30 10L10 30", ...stroke, stroke: "#d6453a", "stroke-width": 5})];
      case "jolly":
        return [svg("path", {d: "M11 18a9 9 0 0 1 18 0v5l-3 2v4h-12v-4l-3-2z", fill: "currentColor"}),
                svg("circle", {cx: 16.5, cy: 19, r: 2.6, fill: "#111"}),
                svg("circle", {cx: 23.5, cy: 19, r: 2.6, fill: "#111"}),
                svg("path", {d: "M7 33L33 37M33 33L7 37", ...stroke, "stroke-width": 2.4})];
      case "cutlass":
        return [svg("path", {d: "M9 31C19 27 27 18 31 7", ...stroke, "stroke-width": 3.6}),
                svg("path", {d: "M7 26l7 7M6 34l3-3", ...stroke, stroke: "#d4a24c"})];
      case "plank":
        return [svg("rect", {x: 5, y: 16, width: 30, height: 7, rx: 1.5, fill: "#a0703c"}),
                svg("path", {d: "M12 23v9M28 23v9", ...stroke, stroke: "#a0703c"}),
                svg("path", {d: "M30 9c-3 0-3 5 0 5", ...stroke, "stroke-width": 2.4})];
      case "shield":
        return [svg("path", {d: "M20 6l12 4v9c0 8-6 13-12 15-6-2-12-7-12-15v-9z",
                             fill: "#5f8fc9", stroke: "#2d4f7c", "stroke-width": 2.5}),
                svg("path", {d: "M20 10v22M10 18h20", ...stroke, stroke: "#dfe8f5", "stroke-width": 2})];
      default:
        return [svg("text", {x: 20, y: 28, "text-anchor": "middle", "font-size": 22,
                             fill: "currentColor"}, "?")];
    }
  }

  function die(face, held, index) {
    return el("figure", {
      class: "bd-die" + (held ? " held" : "") + (face ? "" : " rolling"),
      dataset: {face: face || "", die: String(index + 1)},
      title: face ? `Die ${index + 1}: ${NAMES[face]}${held ? " (held)" : ""}` : `Die ${index + 1}: rolling`,
    },
    svg("svg", {viewBox: "0 0 40 40", "aria-hidden": "true"}, faceArt(face)),
    el("figcaption", {}, held ? "held" : face ? NAMES[face] : "rolling"));
  }

  // taps: a phone's places to tap (board.js tappable), none on the table display.
  function diceRow(state, taps) {
    const dice = state.dice || [];
    const ctx = {taps, from: "game"};
    return el("div", {class: "bd-dice", role: "list", "aria-label": "The dice"},
      dice.map((face, i) => el("div", {role: "listitem"},
        window.MutinyBoard.tappable(die(face, (state.held || [])[i], i), {kind: "die", index: i}, ctx))));
  }

  function supplies(state) {
    const bits = [`Roll ${Math.min(state.rolls || 0, MAX_ROLLS)}/${MAX_ROLLS}`];
    if (state.treasure !== null && state.treasure !== undefined) bits.push(`Treasure ${state.treasure}`);
    if (state.war_chest !== null && state.war_chest !== undefined) bits.push(`War Chest ${state.war_chest}`);
    bits.push(`Locker ${state.locker || 0}`);
    return el("p", {class: "bd-supplies"}, bits.join("  \u00b7  "));
  }

  // One row per pirate: name, Lives, Shields, Doubloons (the roller marked).
  function pirates(state, names, me) {
    const head = el("li", {class: "bd-pirate bd-head", "aria-hidden": "true"},
      el("span", {class: "bd-name"}, "Pirate"), el("span", {}, "Lives"),
      el("span", {}, "Shields"), el("span", {}, "Doubloons"));
    const rows = [head];
    for (let seat = 0; seat < (state.seats || 0); seat++) {
      const alive = state.alive ? state.alive[seat] : (state.lives || [])[seat] > 0;
      const classes = ["bd-pirate"];
      if (seat === state.roller && state.step !== "over") classes.push("rolling");
      if (!alive) classes.push("out");
      if (seat === me) classes.push("me");
      if (state.winner === seat) classes.push("winner");
      const name = (names && names[seat]) || `Seat ${seat + 1}`;
      rows.push(el("li", {class: classes.join(" "), dataset: {seat: String(seat)}},
        el("span", {class: "bd-name"}, name),
        alive
          ? [el("span", {class: "bd-stat bd-lives", title: "Lives"}, String(state.lives[seat])),
             el("span", {class: "bd-stat bd-shields", title: "Shields"}, String(state.shields[seat])),
             el("span", {class: "bd-stat bd-gold", title: "Doubloons"}, String(state.doubloons[seat]))]
          : el("span", {class: "bd-stat bd-dead"}, "out")));
    }
    return el("ol", {class: "bd-pirates", "aria-label": "Lives, Shields and Doubloons"}, rows);
  }

  function panel(match, element, me, taps) {
    const state = match.state || {};
    fill(element,
      diceRow(state, taps),
      supplies(state),
      pirates(state, match.names || [], me));
    element.classList.add("booty-dice");
  }

  window.MutinyGames["booty-dice"] = {
    table(match, element) { panel(match, element, null); },
    phone(match, element, payload) {
      panel(match, element, payload && typeof payload.viewer === "number" ? payload.viewer : null,
            payload && payload.taps);
    },
    taps: {
      onBoard: (choice) => choice.action.type === "hold",
      at(spot, seat) {
        if (spot.from !== "game" || spot.kind !== "die") return null;
        const choice = seat.choices.find((c) => c.action.type === "hold" && c.action.die === spot.index + 1);
        return choice ? {choice} : null;
      },
    },
  };
})();
