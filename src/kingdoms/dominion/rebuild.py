"""A full Dominion state built from one seat's view (for search bots).

:func:`state_from_view` keeps everything the view shows — the seat's hand, every
public zone (in play, set aside, discard tops, trash, supply), the pending frames,
phase, turn, actions, buys, coins, potions and the Possession bookkeeping — and
samples every hidden card: for each seat, the cards it owns (``owned``, public)
minus the cards the view places somewhere are dealt at random to that seat's
hidden zones (deck, discard pile under its top card, and — for the other seats —
hand and the cards they are looking at), with the sizes the view gives.

A pending decision can tell something about a hidden hand (a seat asked whether
to reveal Moat holds a Moat; a Bureaucrat victim asked which card to put back
holds a Victory card; Library asks its owner about an Action card just drawn);
the sample respects that.

The engine's bookkeeping a rebuild needs and the rest of the view does not show
is public (every player saw it happen) and is in the view's ``engine`` field,
made by :func:`public_engine`: the pending frames (the card Library drew is
blanked for everyone but the seat that drew it), whether the seat to play has
bought, the Merchant/Herbalist counts, who revealed a Moat, the cards Thief
stole, the Feasts already trashed, the play counter, the first player, and the
Possession queues and the cards trashed in a possessed turn.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kingdoms.core.errors import InvalidArgument, malformed_as
from kingdoms.core.state import JSONDict
from kingdoms.dominion.cards.registry import HAND_HINTS
from kingdoms.dominion.data import CARDS, NUM_CARDS
from kingdoms.dominion.fields import card_indices as _cards
from kingdoms.dominion.fields import from_public, to_public
from kingdoms.dominion.frames import Frame
from kingdoms.dominion.zones import ALL_UNKNOWN

if TYPE_CHECKING:
    from kingdoms.dominion.state import DominionState

PHASES = ("action", "buy", "over", "cleanup")


def _secret(code: str) -> int:
    """The field of a frame ``code`` holding a card only the frame's seat has seen
    (blanked for the others), or -1: declared with its card (``HAND_HINTS``)."""
    hint = HAND_HINTS.get(code)
    return hint.secret if hint is not None else -1


def _sees_hand(st: DominionState, player: int, who: int) -> bool:
    return player == who or (st.controller == player and who == st.turn)


def public_engine(st: DominionState, player: int | None) -> JSONDict:
    """The engine's public bookkeeping, as ``player`` may see it (``None``: a spectator)."""
    frames: list[list[Any]] = []
    for fr in st.stack:
        row: list[Any] = list(fr.to_json())
        hidden = _secret(fr.code)
        if hidden >= 0 and (player is None or not _sees_hand(st, player, fr.who)):
            row[hidden] = None
        frames.append(row)
    from kingdoms.dominion.state import ENGINE_FIELDS

    out: JSONDict = {"frames": frames}
    for f in ENGINE_FIELDS:
        out[f.name] = to_public(f, getattr(st, f.name))
    return out


def state_from_view(view: Mapping[str, Any], rng: random.Random) -> DominionState:
    """A full state whose view for ``view["player"]`` is ``view``; hidden cards are
    sampled with ``rng``.  A view that is not a seat's Dominion view raises
    :class:`InvalidArgument` naming what was wrong."""
    return malformed_as("a Dominion view", lambda: _rebuild(view, rng))


def _take(pool: list[int], cards: Sequence[int], where: str, seat: int) -> None:
    for c in cards:
        try:
            pool.remove(c)
        except ValueError:
            raise InvalidArgument(
                f"view shows seat {seat} with {CARDS[c].id} in {where} beyond the cards it owns"
            ) from None


def _rebuild(view: Mapping[str, Any], rng: random.Random) -> DominionState:
    from kingdoms.dominion.cards import HELD
    from kingdoms.dominion.game import GAME
    from kingdoms.dominion.state import ENGINE_FIELDS, DominionState

    if not isinstance(view, Mapping) or view.get("game") != "dominion":
        raise InvalidArgument("not a Dominion view")
    me = view["player"]
    if type(me) is not int:
        raise InvalidArgument("a spectator's view cannot be rebuilt: it has no seat")
    seats = view["players"]
    n = len(seats)
    if not 0 <= me < n:
        raise InvalidArgument(f"view field 'player' must be a seat below {n}, not {me!r}")
    eng = view["engine"]
    rules = view["rules"]
    options = {
        "kingdom": list(view["kingdom"]),
        "base_edition": int(rules["base_edition"]),
        "alchemy_errata": bool(rules["alchemy_errata"]),
    }
    config = GAME.config(n, rng.randrange(2**31), options)
    # an empty shell through the constructor (compiled classes have no bare __new__)
    st = DominionState(config, random.Random(config.seed))
    st.logging = False
    st.edition = int(rules["base_edition"])
    st.alchemy_errata = bool(rules["alchemy_errata"])
    st.piles = []
    st.supply = [0] * NUM_CARDS
    for pile in view["supply"]:
        c = _cards([pile["card"]])[0]
        st.piles.append(c)
        st.supply[c] = int(pile["count"])
    if st.piles != sorted(st.piles):
        raise InvalidArgument("view field 'supply' is not in the engine's pile order")
    st.trash = _cards(view["trash"])
    if view["phase"] not in PHASES:
        raise InvalidArgument(f"view field 'phase' must be one of {PHASES}, not {view['phase']!r}")
    st.phase = PHASES.index(view["phase"])
    for name in ("turn", "actions", "buys", "coins", "potions"):
        setattr(st, name, int(view[name]))
    for f in ENGINE_FIELDS:
        setattr(st, f.name, from_public(f, eng[f.name]))
    rows = [list(r) for r in eng["frames"]]
    for row in rows:
        if len(row) != 5 or not isinstance(row[0], str):
            raise InvalidArgument(f"view frame {row!r} is not [code, who, card, a, b]")
    st.turns = [int(s["turns"]) for s in seats]
    st.hands = [[] for _ in range(n)]
    st.decks = [[] for _ in range(n)]
    st.discards = [[] for _ in range(n)]
    st.in_play = [_cards(s["in_play"]) for s in seats]
    st.aside = [[] for _ in range(n)]
    st.looking = [[] for _ in range(n)]
    st.deck_unknown = [ALL_UNKNOWN] * n

    possession = view.get("possession") or {}
    # the hands this seat saw drawn at the end of turns it possessed (a record of
    # what it saw: the hands are sampled as any other hidden hand)
    st.seen_hands = [(me, int(e["player"]), *_cards(e["hand"])) for e in view.get("seen_hands", [])]
    # a seat deciding about its own discard pile (Harbinger) sees which cards are in it
    decision = view.get("decision") or {}
    discard_seen: tuple[int, set[int]] | None = None
    if (
        decision.get("zone") == "discard"
        and decision.get("kind") == "choose_cards"
        and "choices" in decision
    ):
        cards = [ch["card"] for ch in decision["choices"] if ch.get("answer") == "card"]
        discard_seen = (int(decision["whose"]), set(_cards(cards)))
    for q, seat in enumerate(seats):
        held = [int(row[i]) for row in rows if row[1] == q for i in HELD.get(str(row[0]), ())]
        set_aside = _cards(seat["set_aside"])
        if len(held) > len(set_aside):
            raise InvalidArgument(f"seat {q}'s set-aside cards do not hold its frames' cards")
        st.aside[q] = set_aside[: len(set_aside) - len(held)]
        pool: list[int] = []
        for cid, count in seat["owned"].items():
            pool += _cards([cid]) * int(count)
        _take(pool, st.in_play[q], "play", q)
        _take(pool, set_aside, "set-aside cards", q)
        known_hand: list[int] | None = None
        known_looking: list[int] | None = None
        if q == me:
            known_hand, known_looking = _cards(view["hand"]), _cards(view["looking"])
        elif q == possession.get("player") and "hand" in possession:
            known_hand = _cards(possession["hand"])
            known_looking = _cards(possession["looking"])
        top: list[int] = []
        if seat["discard_top"] is not None:
            top = _cards([seat["discard_top"]])
        _take(pool, top, "the discard pile", q)
        # a discard of several cards being made by a seat whose hand this one cannot
        # see: the view's top card lies under that many hidden cards
        covering = 0 if known_hand is not None else int(st.discarding[q])
        hand_size, looking_size = int(seat["hand_size"]), int(seat["looking_count"])
        if known_hand is not None and known_looking is not None:
            if len(known_hand) != hand_size or len(known_looking) != looking_size:
                raise InvalidArgument(f"seat {q}'s hand or looked-at cards do not match sizes")
            _take(pool, known_hand, "hand", q)
            _take(pool, known_looking, "the cards looked at", q)
        deck_size, disc_size = int(seat["deck_size"]), int(seat["discard_size"])
        # the cards this seat put on its own deck itself: known, on top, in order
        known_top = _cards(view.get("known_top") or []) if q == me else []
        if len(known_top) > deck_size:
            raise InvalidArgument(f"seat {q}'s known top cards do not fit its deck")
        _take(pool, known_top, "the known top of the deck", q)
        hidden = (0 if known_hand is not None else hand_size + looking_size) + deck_size
        hidden -= len(known_top)
        if not 0 <= covering <= disc_size or (disc_size > covering) != bool(top):
            raise InvalidArgument(f"seat {q}'s discard pile does not fit its top card")
        hidden += disc_size - len(top)
        if len(pool) != hidden:
            raise InvalidArgument(
                f"seat {q} owns {len(pool)} cards the view does not place, "
                f"but its hidden zones hold {hidden}"
            )
        rng.shuffle(pool)
        if known_hand is None or known_looking is None:
            hand: list[int] = []
            for row in rows:
                if row[1] != q:
                    continue
                need = _required(str(row[0]), row)
                if need is None:
                    continue
                pick = next((c for c in pool if need(c)), None)
                if pick is None:
                    raise InvalidArgument(
                        f"seat {q} is asked {row[0]!r} but owns no hidden card that allows it"
                    )
                pool.remove(pick)
                hand.append(pick)
                secret = _secret(str(row[0]))
                if secret >= 0 and row[secret] is None:
                    row[secret] = pick
            if len(hand) > hand_size:
                raise InvalidArgument(f"seat {q}'s pending decisions need more cards than its hand")
            k = hand_size - len(hand)
            known_hand = hand + pool[:k]
            known_looking = pool[k : k + looking_size]
            pool = pool[k + looking_size :]
        st.hands[q] = known_hand
        st.looking[q] = known_looking
        if discard_seen is not None and discard_seen[0] == q:
            st.discards[q], st.decks[q] = _split_discard(
                pool, disc_size - 1, top, discard_seen[1], rng
            )
        else:
            below = deck_size - len(known_top)
            st.decks[q] = pool[:below]
            under = pool[below:]
            cut = len(under) - covering
            st.discards[q] = under[:cut] + top + under[cut:]
        if known_top:
            st.deck_unknown[q] = len(st.decks[q])
            st.decks[q] += known_top[::-1]
    for row in rows:
        if any(v is None for v in row[1:]):
            raise InvalidArgument(f"view frame {row!r} has a blank field no hand explains")
    st.stack = [Frame(str(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in rows]
    st.recount()
    st.rng = random.Random(rng.random())
    return st


def _split_discard(
    pool: list[int], size: int, top: list[int], seen: set[int], rng: random.Random
) -> tuple[list[int], list[int]]:
    """(discard pile, deck) from the shuffled ``pool``, the discard pile under ``top``
    holding ``size`` cards, every card of ``seen`` and no other kind of card."""
    under: list[int] = []
    rest = pool.copy()
    for c in sorted(seen - set(top)):
        if c not in rest:
            raise InvalidArgument(f"the discard pile shows {CARDS[c].id}, not among hidden cards")
        rest.remove(c)
        under.append(c)
    fits = [c for c in rest if c in seen]
    extra = size - len(under)
    if extra < 0 or len(fits) < extra:
        raise InvalidArgument("the discard pile's size does not fit the cards it shows")
    chosen = fits[:extra]
    for c in chosen:
        rest.remove(c)
    under += chosen
    rng.shuffle(under)
    return under + top, rest


def _required(code: str, row: Sequence[Any]) -> Callable[[int], bool] | None:
    """What a pending frame of a seat says about its hidden hand: a test a card of
    that hand must pass (one card per frame), or None (declared with the card that
    asks it: ``HAND_HINTS``)."""
    hint = HAND_HINTS.get(code)
    if hint is None:
        return None
    if hint.secret >= 0 and row[hint.secret] is None:
        return hint.blank_fits
    frame = Frame(code, int(row[1]), int(row[2]), int(row[3]), int(row[4]))
    return lambda c: hint.fits(frame, c)
