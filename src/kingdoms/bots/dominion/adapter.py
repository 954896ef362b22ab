"""From the engine's view and action ints to the bots' options and situations.

The only module of the bots that knows the engine's encoding
(:mod:`kingdoms.dominion.actions`) and view shape (:mod:`kingdoms.dominion.view`).
Tables are built once at import (immutable) so that decoding an action is a
tuple lookup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from kingdoms.bots.dominion.observation import Observation
from kingdoms.bots.dominion.policy import (
    BUY,
    DISCARD,
    DONE,
    GAIN,
    KEEP,
    NO,
    PLAY,
    PLAY_TREASURES,
    REVEAL,
    SET_ASIDE,
    TOPDECK,
    TRASH,
    YES,
    Option,
)
from kingdoms.bots.dominion.roles import with_roles
from kingdoms.bots.dominion.strategy import Situation
from kingdoms.dominion import actions as A
from kingdoms.dominion.cards import COINS
from kingdoms.dominion.data import CARDS

CARD_IDS: tuple[str, ...] = tuple(c.id for c in CARDS)
COSTS: Final[Mapping[str, int]] = {c.id: c.cost[0] for c in CARDS}
POTION_COSTS: Final[Mapping[str, int]] = {c.id: c.cost[1] for c in CARDS if c.cost[1]}
TYPES: Final[Mapping[str, frozenset[str]]] = with_roles(
    {c.id: frozenset(t.lower() for t in c.types) for c in CARDS}
)
"""Card id -> lower-case types and roles (:mod:`kingdoms.bots.dominion.roles`)."""
TREASURE_IDS: Final[frozenset[str]] = frozenset(c.id for c in CARDS if c.is_treasure)
TREASURE_VALUES: Final[Mapping[str, int]] = {c.id: COINS[c.index] for c in CARDS if c.is_treasure}

_KIND_VERB: Mapping[int, str] = {
    A.PLAY: PLAY,
    A.BUY: BUY,
    A.CHOOSE: "choose",
    A.GAIN: GAIN,
    A.DONE: DONE,
    A.YES: YES,
    A.NO: NO,
    A.PLAY_ALL_TREASURES: PLAY_TREASURES,
    A.END_PHASE: DONE,
}
_NO_CARD = frozenset({A.DONE, A.YES, A.NO, A.PLAY_ALL_TREASURES, A.END_PHASE})


def _decode_table() -> tuple[tuple[str, str | None], ...]:
    out: list[tuple[str, str | None]] = []
    for action in range(A.NUM_ACTIONS):
        kind, card = A.decode(action)
        out.append((_KIND_VERB[kind], None if kind in _NO_CARD else CARD_IDS[card]))
    return tuple(out)


DECODED: tuple[tuple[str, str | None], ...] = _decode_table()

# What a card pick means for each decision verb (the part after the dot of the
# purpose: ``militia.discard`` -> discard); yes/no questions by purpose.
_PICK_VERB: Mapping[str, str] = {
    "discard": DISCARD,
    "trash": TRASH,
    "topdeck": TOPDECK,
    "play": PLAY,
    "gain": GAIN,
}
_ORDER_VERB: Mapping[str, str] = {
    "golem.order": PLAY,
    "apothecary.order": KEEP,
    "sentry.order": TOPDECK,
    "cleanup.order": "cleanup",
}
_YES_NO: Mapping[str, tuple[str, str]] = {
    "moat.reveal": (REVEAL, NO),
    "library.set_aside": (SET_ASIDE, KEEP),
    "spy.discard": (DISCARD, KEEP),
    "scrying_pool.discard": (DISCARD, KEEP),
}


def _seat(view: Mapping[str, Any]) -> int:
    p = view.get("player", 0)
    return p if isinstance(p, int) else 0


def me(view: Mapping[str, Any]) -> Mapping[str, Any]:
    """The deciding seat's own player entry."""
    players = view.get("players")
    seat = _seat(view)
    if isinstance(players, list) and 0 <= seat < len(players):
        entry = players[seat]
        if isinstance(entry, Mapping):
            return entry
    return {}


def owned(view: Mapping[str, Any]) -> Mapping[str, int]:
    """Card id -> copies the seat owns (the view's own-player ``owned`` counts)."""
    got = me(view).get("owned")
    return got if isinstance(got, Mapping) else {}


def supply(view: Mapping[str, Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for pile in view.get("supply") or ():
        out[pile["card"]] = pile["count"]
    return out


def situation(view: Mapping[str, Any]) -> Situation:
    """The buy situation of the deciding seat (hot path: plain indexing)."""
    try:
        own = view["players"][view["player"]]["owned"]
        sup = {pile["card"]: pile["count"] for pile in view["supply"]}
    except (KeyError, IndexError, TypeError):
        own, sup = owned(view), supply(view)
    return Situation(
        coins=int(view.get("coins", 0)),
        owned=own,
        supply=sup,
        costs=COSTS,
        potion_costs=POTION_COSTS,
        potions=int(view.get("potions", 0)),
        treasure_values=TREASURE_VALUES,
        treasure_ids=TREASURE_IDS,
    )


def _frame(view: Mapping[str, Any]) -> Mapping[str, Any]:
    d = view.get("decision")
    return d if isinstance(d, Mapping) else {}


def decode(view: Mapping[str, Any], legal: Sequence[int]) -> list[Option]:
    """The legal actions as options with verbs the policy understands (a pending
    decision's options come from its structured ``choices``, read by purpose)."""
    frame = _frame(view)
    purpose = str(frame.get("purpose", ""))
    answers: dict[int, tuple[Any, str | None]] = {}
    for choice in frame.get("choices") or ():
        if isinstance(choice, Mapping) and isinstance(choice.get("action"), int):
            got = choice.get("card")
            answers[choice["action"]] = (
                choice.get("answer"),
                got if isinstance(got, str) else None,
            )
    return _options(purpose, answers, legal)


def _options(
    purpose: str, answers: Mapping[int, tuple[Any, str | None]], legal: Sequence[int]
) -> list[Option]:
    """The legal actions as options: the pending decision's answers (``action ->
    (answer, card)``) named by the verbs its purpose calls for."""
    pick_verb = _ORDER_VERB.get(purpose) or _PICK_VERB.get(purpose.partition(".")[2], "choose")
    yes_no = _YES_NO.get(purpose, (YES, NO))
    out = []
    n = len(DECODED)
    for a in legal:
        verb, card = DECODED[a] if 0 <= a < n else ("?", None)
        choice = answers.get(a)
        if choice is not None:
            answer, card = choice
            if answer == "card":
                verb = pick_verb
            elif answer == "yes":
                verb = yes_no[0]
            elif answer == "no":
                verb = yes_no[1]
        out.append(Option(a, verb, card))
    return out


# -- the same from a typed observation (the bots' hot path) ---------------------------


def decode_observed(obs: Observation, legal: Sequence[int]) -> list[Option]:
    """:func:`decode` from an :class:`Observation` (no view dict built)."""
    answers: dict[int, tuple[Any, str | None]] = {a: (ans, c) for a, ans, c in obs.choices}
    return _options(obs.purpose or "", answers, legal)


def situation_observed(obs: Observation) -> Situation:
    """Everything a buy rule may ask, from the deciding seat's observation: the
    supply and owned counts are read from it only when a rule asks (most buys need
    one pile or two), the other seats' VP likewise."""
    me = obs.seat
    taken = obs.turns[me] + 1
    # positional: one call per buy decision, keywords cost more on the pure path
    return Situation(
        obs.coins,
        None,  # owned: read when a rule asks
        None,  # supply: read pile by pile
        COSTS,
        POTION_COSTS,
        obs.potions,
        TREASURE_VALUES,
        TREASURE_IDS,
        TYPES,
        obs.buys,
        taken,
        len(obs.turns),
        None,  # others: worked out from the observation when a rule needs it
        (),
        me,
        taken,
        obs,
        obs.actions,
    )
