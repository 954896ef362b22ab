"""From the engine's view and action ints to the bots' options and situations.

The only module of the bots that knows the engine's encoding
(:mod:`kingdoms.dominion.actions`) and view shape (:mod:`kingdoms.dominion.view`).
Tables are built once at import (immutable) so that decoding an action is a
tuple lookup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

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
    Decision,
    Option,
)
from kingdoms.bots.dominion.strategy import Situation
from kingdoms.dominion import actions as A
from kingdoms.dominion.data import CARDS, NUM_CARDS

CARD_IDS: tuple[str, ...] = tuple(c.id for c in CARDS)
COSTS: Mapping[str, int] = {c.id: c.cost[0] for c in CARDS}
POTION_COSTS: Mapping[str, int] = {c.id: c.cost[1] for c in CARDS if c.cost[1]}
TYPES: Mapping[str, frozenset[str]] = {c.id: frozenset(t.lower() for t in c.types) for c in CARDS}
TREASURE_IDS: frozenset[str] = frozenset(c.id for c in CARDS if c.is_treasure)
_COINS = {"copper": 1, "silver": 2, "gold": 3}
TREASURE_VALUES: Mapping[str, int] = {cid: _COINS.get(cid, 0) for cid in TREASURE_IDS}

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
        kind, card = divmod(action, NUM_CARDS)
        out.append((_KIND_VERB[kind], None if kind in _NO_CARD else CARD_IDS[card]))
    return tuple(out)


DECODED: tuple[tuple[str, str | None], ...] = _decode_table()

# The engine's decision kinds: what CHOOSE means, and which card asked.
_CHOOSE_VERB: Mapping[str, str] = {
    "cellar": DISCARD,
    "militia": DISCARD,
    "chapel": TRASH,
    "remodel": TRASH,
    "mine": TRASH,
    "thief_trash": TRASH,
    "thief_gain": GAIN,
    "throne": PLAY,
    "bureaucrat": TOPDECK,
    "artisan": TOPDECK,
    "harbinger": TOPDECK,
    "herbalist": TOPDECK,
    "bandit": TRASH,
    "poacher": DISCARD,
    "sentry_trash": TRASH,
    "sentry_discard": DISCARD,
    "sentry_order": TOPDECK,
    "transmute": TRASH,
    "apprentice": TRASH,
    "apothecary": KEEP,
    "golem": PLAY,
    "cleanup": "cleanup",
}
_SOURCE: Mapping[str, str] = {
    "throne": "throne_room",
    "thief_trash": "thief",
    "thief_gain": "thief",
    "sentry_trash": "sentry",
    "sentry_discard": "sentry",
    "sentry_order": "sentry",
}
_NAME_TO_ID: Mapping[str, str] = {c.names["en"].casefold(): c.id for c in CARDS}


def _text_card(text: str) -> str | None:
    """The card id named at the end of an English option text ("discard Gold")."""
    low = text.casefold()
    best: str | None = None
    best_len = 0
    for name, cid in _NAME_TO_ID.items():
        if low.endswith(name) and len(name) > best_len:
            best, best_len = cid, len(name)
    return best


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
    """The legal actions as options with verbs the policy understands."""
    frame = _frame(view)
    kind = str(frame.get("kind", ""))
    choose_verb = _CHOOSE_VERB.get(kind, "choose")
    texts: dict[int, str] = {}
    about = frame.get("about")
    about_card = about.get("card") if isinstance(about, Mapping) else None
    if kind in ("library", "spy"):
        acts, opts = frame.get("actions") or [], frame.get("options") or []
        texts = {a: t for a, t in zip(acts, opts, strict=False) if isinstance(t, str)}
    out = []
    for a in legal:
        verb, card = DECODED[a] if 0 <= a < len(DECODED) else ("?", None)
        if verb == "choose":
            verb = choose_verb
        elif verb in (YES, NO) and kind:
            if kind == "moat" and verb == YES:
                verb = REVEAL
            elif kind == "library":
                card = _text_card(texts.get(a, ""))
                verb = SET_ASIDE if verb == YES else KEEP
            elif kind == "spy":
                card = _text_card(texts.get(a, ""))
                verb = DISCARD if verb == YES else KEEP
            elif kind == "scrying_pool":
                card = about_card if isinstance(about_card, str) else None
                verb = DISCARD if verb == YES else KEEP
        out.append(Option(a, verb, card))
    return out


def _spy_victim(view: Mapping[str, Any], card: str | None) -> int | None:
    players = view.get("players") or []
    seat = _seat(view)
    found = [
        q
        for q, entry in enumerate(players)
        if isinstance(entry, Mapping) and card in (entry.get("set_aside") or ())
    ]
    others = [q for q in found if q != seat]
    if others:
        return others[0]
    return found[0] if found else None


def decision(
    view: Mapping[str, Any],
    prefer_play: Sequence[str] = (),
    options: Sequence[Option] = (),
) -> Decision:
    frame = _frame(view)
    kind = str(frame.get("kind", ""))
    source = _SOURCE.get(kind) or frame.get("card") or (kind if kind in COSTS else None)
    own = owned(view)
    about = None
    if kind == "spy":
        card = next((o.card for o in options if o.card is not None), None)
        about = _spy_victim(view, card)
    elif kind == "scrying_pool":
        subject = frame.get("about")
        if isinstance(subject, Mapping) and isinstance(subject.get("player"), int):
            about = int(subject["player"])
    provinces = 8
    for pile in view.get("supply") or ():
        if pile["card"] == "province":
            provinces = pile["count"]
            break
    return Decision(
        kind=kind,
        source=source if isinstance(source, str) else None,
        about=about,
        me=_seat(view),
        actions=int(view.get("actions", 0)),
        provinces_left=provinces,
        total_money=sum(TREASURE_VALUES.get(c, 0) * n for c, n in own.items()),
        costs=COSTS,
        types=TYPES,
        prefer_play=tuple(prefer_play),
    )
