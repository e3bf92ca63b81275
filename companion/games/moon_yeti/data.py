"""Moon Yeti's fixed pieces, and what the rules, the screens and the re-deal all ask of
a state: who holds which role, who may be voted for, who the Mutineer is.

Rulings: see docs/games/moon-yeti.md.
"""
from __future__ import annotations

from typing import Any

from companion.engine import GameSpec, Option, State, timer_option

ROLES = ("Boatswain", "Chaplain", "Helmsman", "Navigator")
BOATSWAIN, CHAPLAIN, HELMSMAN, NAVIGATOR = ROLES
JUROR = "Juror"
MINUTES = 60
#: Numbers on each role card (Y1): the 60 minutes split four ways.
CARD_SIZE = MINUTES // len(ROLES)
#: The aces variant: one ace per role holder; spades marks the Mutineer.
SUITS = ("spades", "hearts", "diamonds", "clubs")
MUTINEER_SUIT = "spades"
#: A ballot of the Boatswain that waits for the reveal (Bosun Knows Best).
WAIT = "wait"

#: The steps of a match, by the name kept in ``state["step"]``.
DEAL = "deal"              # chance deals roles and cards (or aces)
DECLARE = "declare"        # a seat declares the time (presses, or types the minute)
CLOCK = "clock"            # chance reads the clock's minute
DISCUSS1 = "discuss1"      # round 1: discussion, Cabin Search, Confession
VOTE1 = "vote1"            # the innocence vote (Helmsman: Trust)
RECKON = "reckon"          # Navigator: Dead Reckoning moves a vote, or passes
DISCUSS2 = "discuss2"      # round 2: discussion, Helmsman's Condemn
VOTE2 = "vote2"            # the guilt vote
BOSUN = "bosun"            # Boatswain: Bosun Knows Best - votes after the reveal
FORGIVE = "forgive"        # Chaplain: Forgiveness takes a vote, or passes
COURSE = "course"          # Navigator: Change Course picks a player, or passes
RECAST = "recast"          # ... who recasts a vote
OVER = "over"
DISCUSSIONS = (DISCUSS1, DISCUSS2)
#: The vote open in each voting step, by its key in the state.
VOTE_KEYS = {VOTE1: "vote1", VOTE2: "vote2"}

# -- spec and options --------------------------------------------------------------------

SPEC = GameSpec(
    "moon-yeti", "Moon Yeti", 4, 8,
    (
        Option("mode", "clock",
               "Y1: 'clock' - the minute of the declared time on the role cards picks the "
               "Mutineer; 'aces' - a random ace of spades does",
               choices=("clock", "aces")),
        Option("time_source", "clock",
               "clock mode: 'clock' - the companion reads its clock when a seat presses "
               "Declare time; 'typed' - a seat enters the minute read off any clock",
               choices=("clock", "typed")),
        Option("role_seats", "random",
               "5+ players: 'random' - the four role holders are drawn; 'first_four' - "
               "seats 1-4 hold the roles (the table chooses by where people sit)",
               choices=("random", "first_four")),
        Option("confession", "truthful",
               "Y2: 'truthful' - the companion tells the Chaplain the answer; 'at_table' - "
               "the target answers with a silent sign, eyes closed",
               choices=("truthful", "at_table")),
        Option("change_course", "player_recasts",
               "Y3: Change Course - 'player_recasts': the chosen player picks the new "
               "target; 'navigator_moves': the Navigator picks it",
               choices=("player_recasts", "navigator_moves")),
        Option("course_as_cast", True,
               "Y5: Change Course judges who voted for the Navigator on the guilt ballots "
               "as first cast, before Forgiveness moved one (off: after it)"),
        Option("jury", True,
               "Y4: with 5+ players the players without a role vote once in each vote "
               "(off: they only join the discussion)"),
        Option("ready_warns", True,
               "a Boatswain or Chaplain who has not searched or confessed gets 'Ready, and "
               "give up my search' (or confession) in place of 'Ready to vote' (off: "
               "plain 'Ready to vote', which forfeits it all the same)"),
        timer_option("discussion_seconds", "each discussion (when it runs out the "
                     "discussion ends and the vote opens; nobody's ballot is cast)"),
    ),
    summary="One of four officers is the Mutineer: discuss, use your role, and vote one "
            "sailor innocent, then one guilty.",
    rules=2,
)


# -- what every part asks of a state -------------------------------------------------------


def holders(state: State) -> list[int]:
    """The seats holding a role, in seat order."""
    return [s for s, r in enumerate(state["roles"]) if r in ROLES]


def seat_of(state: State, role: str) -> int:
    return state["roles"].index(role)


def role_index(state: State, seat: int) -> int:
    return ROLES.index(state["roles"][seat])


def is_real(ballot: Any) -> bool:
    """A ballot that counts: a seat, not "No second vote" (None) nor WAIT."""
    return type(ballot) is int


def votes_here(state: State, seat: int) -> bool:
    """Whether ``seat`` casts ballots: every role holder, jurors if the jury votes (Y4)."""
    role = state["roles"][seat]
    return role in ROLES or (role == JUROR and state["options"]["jury"])


def innocence_targets(state: State, seat: int) -> list[int]:
    """Legal round-1 targets: any role holder but oneself (jurors never, Y4)."""
    return [t for t in holders(state) if t != seat]


def guilt_targets(state: State, seat: int) -> list[int]:
    """Legal round-2 targets: as round 1, and never the round-1 innocent."""
    return [t for t in innocence_targets(state, seat) if t != state["innocent"]]


def card_mutineer(state: State) -> int:
    """The holder of the card that shows the declared minute (clock mode)."""
    for k, card in enumerate(state["cards"]):
        if state["minute"] in card:
            return seat_of(state, ROLES[k])
    raise ValueError(f"no card holds the minute {state['minute']!r}")


def ace_mutineer(state: State) -> int:
    return seat_of(state, ROLES[state["aces"].index(MUTINEER_SUIT)])


def chaplain_allied(state: State) -> bool:
    """The Chaplain took the Mutineer's confession, so shares the Mutineer's fate."""
    return state["confession"] is not None and state["confession"] == state["mutineer"]


def card_or_ace(state: State, seat: int) -> dict[str, Any]:
    """A role holder's card (clock mode) or ace (aces mode)."""
    k = role_index(state, seat)
    if state["cards"] is not None:
        return {"card": list(state["cards"][k])}
    return {"ace": state["aces"][k]}
