// Card Mutiny on a phone: the grid is played by tapping its places. A place of the grid
// (companion/games/card_mutiny/board.py grid_part: 7x7 places, row A first) is the cell
// its flip or peek names: its place in the grid's cells is the action's "cell". In
// cards mode (real cards, no grid) the menu alone chooses.
"use strict";

window.MutinyGames["card-mutiny"] = {
  taps: window.MutinyBoard.gridTaps({
    types: ["flip", "peek"], field: "cell", shown: (match) => !!match.state.grid,
  }),
};
