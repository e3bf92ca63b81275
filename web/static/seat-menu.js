// The phone's menu of choices (seat.js draws the rest of the seat's page): each level of
// the seat's grouped choices as a list of buttons, a group opening in place under a
// Back control, hidden choices masked until the eye is held, and a choice the board
// makes filed one level down, under "Or choose from a list".
//   MutinySeatMenu.onTap(button, act)   a tap (or a click, or a key) on button acts once
//   MutinySeatMenu.keyOf(choice)        a choice's identity (its action as JSON)
//   MutinySeatMenu.create(page) -> {draw(choices), reset()}, where page gives
//     state() -> {payload, sending, revealed, armed}, disarm(), draw(), choose(choice),
//     gameTaps() (the game's taps, or null).
"use strict";

window.MutinySeatMenu = (() => {
  const {el, fill} = window.Mutiny;
  const $ = (id) => document.getElementById(id);
  let lastPointerTap = 0;      // when a finger last tapped a line (its click is the same tap)

  // A tap acts. Pointer-up counts as a tap too: a second finger (while the first holds
  // the reveal pad) gets no click event on some phones. The click that follows a tap is
  // ignored on every line, not just this one: a tap that opens a group puts new lines
  // under the finger, and the click must not land on one of them.
  function onTap(button, act) {
    let down = null;
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
      act();
    });
    button.addEventListener("pointercancel", () => { down = null; });
    button.addEventListener("click", () => {
      if (Date.now() - lastPointerTap < 800) return;  // the same tap, already handled
      act();
    });
  }

  const keyOf = (choice) => JSON.stringify(choice.action);

  function create(page) {
    // A choice may sit in a group (choice.group: the path of group names), as on the seat's
    // own screen; the phone shows each level as a list: a group opens in place, with a
    // Back control, and only a choice sends anything. Labels are always the full words.
    let menuPath = [];           // the open level: group names from the top
    // Choices the board makes (a tap on it) are kept in the menu one level down, under
    // this line: the board comes first, the list is still there for every choice.
    const LIST = "Or choose from a list";

    const within = (group, path) => path.every((name, depth) => group[depth] === name);

    // The lines of the level at path, in the choices' order: a choice ({choice, index,
    // secret}) or a group ({group, count, secret}). A group below the top level is secret
    // when every choice in it is (the top level names kinds of move, which are public).
    function menuLevel(choices, path) {
      const lines = [], groups = new Map(), depth = path.length;
      choices.forEach((choice, index) => {
        const group = choice.group || [];
        if (group.length < depth || !within(group, path)) return;
        if (group.length === depth) {
          lines.push({choice, index, secret: !!choice.secret});
          return;
        }
        // (Under the list line, its first level names kinds of move too.)
        const secret = !!choice.secret && depth > (path[0] === LIST ? 1 : 0);
        const name = group[depth];
        if (groups.has(name)) {
          const line = groups.get(name);
          line.count += 1;
          line.secret = line.secret && secret;
        } else {
          const line = {group: name, count: 1, secret};
          groups.set(name, line);
          lines.push(line);
        }
      });
      // The list of what the board makes comes last: the board is the way to choose them.
      const list = lines.findIndex((line) => line.group === LIST);
      if (list >= 0) lines.push(...lines.splice(list, 1));
      return lines;
    }

    // Whether each name of path is a secret (hidden unless the eye is held).
    function pathSecrets(choices, path) {
      return path.map((name, depth) => {
        const line = menuLevel(choices, path.slice(0, depth)).find((l) => l.group === name);
        return !!(line && line.secret);
      });
    }

    function openGroup(name) {
      if (page.state().sending) return;
      menuPath = [...menuPath, name];
      redrawMenu();
    }

    function goBack() {
      if (page.state().sending) return;
      menuPath = menuPath.slice(0, -1);
      redrawMenu();
    }

    function redrawMenu() {
      page.disarm();
      page.draw();
      const first = $("choices").querySelector("button");
      if (first) first.focus({preventScroll: true});
    }

    // Buttons are kept while the level's lines stay the same (a reveal, a new payload with
    // the same question), so a finger already on a button is never pulled out from under it.
    let shownKeys = "";
    let lineButtons = [];
    // The menu's choices: those the board makes filed under LIST (same order, same index).
    function menuChoices(choices) {
      const game = page.gameTaps();
      if (!game) return choices;
      const match = page.state().payload.match;
      return choices.map((choice) => (game.onBoard(choice, match)
        ? {...choice, group: [LIST, ...(choice.group || [])]} : choice));
    }

    function drawChoices(listed) {
      const choices = menuChoices(listed);
      let {armed} = page.state();
      const {sending, revealed} = page.state();
      if (armed && (armed.until < Date.now() || !choices.some((c) => keyOf(c) === armed.key))) {
        page.disarm();
        armed = null;
      }
      if (menuPath.length && !choices.some((c) => within(c.group || [], menuPath))) {
        menuPath = [];  // that group is no longer offered: back to the top
      }
      const holder = $("choices");
      const lines = menuLevel(choices, menuPath);
      const keys = JSON.stringify([menuPath, lines.map((line) =>
        line.choice ? [line.choice.action, line.secret] : [line.group, line.secret])]);
      if (keys !== shownKeys || (lineButtons.length && !holder.contains(lineButtons[0]))) {
        shownKeys = keys;
        lineButtons = lines.map((line) => lineButton(line));
        const head = menuPath.length ? menuHead() : null;
        fill(holder, head, lineButtons);
      }
      if (menuPath.length) drawMenuHead(choices);
      let hiddenChoices = 0, hiddenGroups = 0;
      lines.forEach((line, index) => {
        const button = lineButtons[index];
        const masked = line.secret && !revealed;
        button.disabled = sending;
        const label = button.querySelector(".choice-label");
        const hintNode = button.querySelector(".choice-hint");
        let hint = "", named = "";
        if (line.group !== undefined) {
          if (line.secret) hiddenGroups += 1;
          button.className = "choice choice-group" + (line.secret ? " secret" : "") +
                             (masked ? " masked" : "");
          label.textContent = masked ? `Hidden group ${hiddenGroups}` : line.group;
          const inside = menuLevel(choices, [...menuPath, line.group]).length;
          button.querySelector(".choice-count").textContent = masked ? "" : String(inside);
          hint = masked ? "hold the eye button to read it" : "";
          // Said as words, not as the marks drawn around it ("Row A, 7 choices inside"),
          // and holding the words shown, in their order (a name that does not is a second
          // name for a voice-control user to guess).
          named = masked ? `Hidden group ${hiddenGroups}: ${hint}`
            : `${line.group}, ${inside} ${inside === 1 ? "choice" : "choices"} inside`;
        } else {
          if (line.secret) hiddenChoices += 1;
          const isArmed = !!armed && armed.key === keyOf(line.choice);
          button.className = "choice" + (line.secret ? " secret" : "") + (masked ? " masked" : "") +
                             (isArmed ? " armed" : "");
          label.textContent = masked ? `Hidden choice ${hiddenChoices}` : line.choice.label;
          hint = isArmed ? "Tap again to choose" : masked ? "hold the eye button to read it" : "";
          named = (masked ? `Hidden choice ${hiddenChoices}` : line.choice.label) + (hint ? `: ${hint}` : "");
        }
        button.setAttribute("aria-label", named);
        button.dataset.secret = line.secret ? "1" : "0";
        hintNode.textContent = hint;
        hintNode.hidden = !hint;
      });
      holder.hidden = choices.length === 0;
    }

    function lineButton(line) {
      const isGroup = line.group !== undefined;
      const button = el("button", {type: "button", class: "choice",
                                   dataset: isGroup ? {group: line.group} : {index: String(line.index)}},
        // (Spaces between the words: read together they are "Row A 7", never "Row A7".)
        el("span", {class: "choice-label"}), " ", el("span", {class: "choice-hint"}), " ",
        isGroup ? el("span", {class: "choice-count", "aria-hidden": "true"}) : null);
      onTap(button, isGroup ? () => openGroup(line.group) : () => page.choose(line.choice));
      return button;
    }

    // Above an open group: Back, and where the player is (secret names masked).
    function menuHead() {
      const back = el("button", {type: "button", class: "choice-back"}, "\u2039 Back");
      onTap(back, goBack);
      return el("div", {class: "choice-path"}, back, el("span", {class: "choice-where"}));
    }

    function drawMenuHead(choices) {
      const secrets = pathSecrets(choices, menuPath);
      const {revealed, sending} = page.state();
      const where = menuPath.map((name, depth) => (secrets[depth] && !revealed ? "\u2022\u2022\u2022" : name));
      const head = $("choices").querySelector(".choice-path");
      head.querySelector(".choice-where").textContent = where.join(" \u203a ");
      head.querySelector(".choice-back").disabled = sending;
    }

    return {draw: drawChoices, reset() { menuPath = []; }};
  }

  return {create, onTap, keyOf};
})();
