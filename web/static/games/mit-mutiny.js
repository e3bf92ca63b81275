// MIT Mutiny on a phone: the Scout plays the map by tapping its islands. The map
// (companion/games/mit_mutiny/board.py _map: one row of twelve island spaces) is the
// board's only grid; a place's index in it is the "space" of the Scout's look or pick.
// With real island cards (no map) the menu alone chooses.
"use strict";

window.MutinyGames["mit-mutiny"] = {
  taps: window.MutinyBoard.gridTaps({
    types: ["look", "choose"], field: "space", shown: (match) => !!match.state.map,
    // A pick names the island only the Scout has seen: at rest, only its space.
    words: (index) => `Pick the island on space ${index + 1}`,
  }),
};
