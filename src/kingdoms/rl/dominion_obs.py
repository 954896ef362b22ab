"""Dominion observations: one seat's view as a vector.

The observation vector (int16, :data:`kingdoms.rl.encoding.OBS_DTYPE`; ``K =
NUM_CARDS`` card-indexed blocks, card ``c`` at offset ``c`` of a block; ``n``
players; seat blocks are *relative*: block 0 is the observing seat, block 1 the next
seat in turn order, …) holds only what
:meth:`kingdoms.dominion.state.DominionState.view` shows that seat:

==================  ======  ==========================================================
field               length  meaning
==================  ======  ==========================================================
bias                1       always 1
phase               4       one-hot: action, buy, over, clean-up
counters            4       actions, buys, coins, potions of the turn being played
bought              1       1 once something was bought this turn
turn                n       one-hot relative seat whose turn it is
to_move             n       one-hot relative seat that must decide now (0s: game over)
possessed_by        n       one-hot relative seat controlling a Possession turn
decision            D+1     one-hot kind of the pending mid-card decision
                            (:data:`DECISION_KINDS`, last slot: another kind)
decision_who        n       one-hot relative seat deciding it
decision_about      n       one-hot relative seat the decision is about (Spy, Thief…)
seat_counts         6n      per relative seat: hand size, deck size, discard size,
                            turns taken, cards being looked at, victory points
empty_piles         1       number of empty supply piles
in_supply           K       1 for each card with a pile in this game
supply              K       cards left in each pile
hand                K       the observing seat's hand (counts)
looking             K       cards the observing seat is looking at (counts)
trash               K       the trash (counts)
decision_card       K       one-hot card that asked for the pending decision
decision_subject    K       one-hot card the decision is about (Library: only for its
                            owner, as in the view)
possessed_hand      K       the possessed seat's hand, for its possessor (else 0s)
possessed_looking   K       what the possessed seat looks at, for its possessor
in_play             nK      per relative seat: cards in play
set_aside           nK      per relative seat: cards set aside
owned               nK      per relative seat: every card it owns (the view's counts)
discard_top         nK      per relative seat: one-hot top card of its discard pile
==================  ======  ==========================================================

Nothing else: no deck order, no other seat's hand, no discard pile beyond its top.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from kingdoms.core.state import State
from kingdoms.dominion.cards import HELD
from kingdoms.dominion.data import BY_ID, CARDS, NUM_CARDS
from kingdoms.dominion.decisions import SPECS
from kingdoms.dominion.rules import score
from kingdoms.dominion.state import DECISIONS, DominionState
from kingdoms.rl.encoding import OBS_DTYPE, lay_out, native_module, writer

_FORMER_CODES: dict[str, str] = {
    "discard_deck": "chancellor",
    "victim_topdeck": "bureaucrat",
    "may_set_aside": "library",
    "may_trash_for": "moneylender",
    "hand_to_deck": "artisan",
    "victim_trash_revealed": "bandit",
    "discard_to_deck": "harbinger",
    "trash_of_type": "mine",
    "discard_per_empty": "poacher",
    "play_twice": "throne",
    "trash_revealed": "thief_trash",
    "gain_trashed": "thief_gain",
    "look_trash": "sentry_trash",
    "look_discard": "sentry_discard",
    "look_order": "sentry_order",
}
"""Decisions that became declared steps -> the card's own code they had: the one-hot
keeps their place, so a network trained before (the shipped ``learned`` bot) reads
the same vector."""
DECISION_KINDS: tuple[str, ...] = tuple(sorted(DECISIONS, key=lambda k: _FORMER_CODES.get(k, k)))
"""Decision kinds in the order of the ``decision`` one-hot (by their former codes)."""
_DECISION_INDEX = {k: i for i, k in enumerate(DECISION_KINDS)}


_native: Any = native_module("kingdoms.rl._cdominion_obs")

NATIVE_ENCODER: bool = _native is not None
"""Whether :class:`DominionEncoder` can write its vectors in C (the Cython extension
:mod:`kingdoms.rl._cdominion_obs`, in the compiled build)."""


def native_fields(st: DominionState) -> tuple[Any, ...]:
    """The state's fields the C encoder reads, in its order, in one tuple: one call
    from C (compiled, reading the fields directly) instead of a Python attribute
    lookup each."""
    return (
        st.turn,
        st.stack,
        st.current_player,
        st.controller,
        st.hands,
        st.decks,
        st.discards,
        st.in_play,
        st.aside,
        st.looking,
        st.phase,
        st.discarding,
        st.trash,
        st.supply,
        st.piles,
        st.owned_counts,
        st.owned_kinds,
        st.actions,
        st.buys,
        st.coins,
        st.potions,
        st.bought,
        st.turns,
    )


class DominionEncoder:
    """The observation vector described in this module's docstring, encoded
    incrementally.

    Each observing seat has a buffer holding the vector it was last given, and
    beside it what that buffer was written from: the positions of its 1s (every
    one-hot), its numbers (counters, seat counts…), a copy of each card zone it
    counts, the supply and the ``owned`` rows.  :meth:`encode` computes the
    one-hots and the numbers as two small lists, compares each zone with its kept
    copy (one list comparison when it did not change), and writes only the
    differences; it hands out a copy of the buffer.  The buffers start again when
    the encoder meets another state object.  The result depends only on the state
    given, never on the order of the calls (the tests compare it with
    :meth:`encode_view` after every step of random games).

    In the compiled build, :meth:`encode` hands the work to :attr:`native`, the
    same vector written in C (rewritten from the state into a preallocated buffer
    per seat at each call); ``native=False`` keeps the incremental encoding above,
    which the pure-Python path always runs and the tests compare the C one with."""

    def __init__(self, players: int, native: bool = True) -> None:
        n = self.players = players
        k = NUM_CARDS
        fields: list[tuple[str, int]] = [
            # one-hots (positions set to 1)
            ("bias", 1),
            ("phase", 4),
            ("turn", n),
            ("to_move", n),
            ("possessed_by", n),
            ("decision", len(DECISION_KINDS) + 1),
            ("decision_who", n),
            ("decision_about", n),
            # numbers, compared as one list
            ("counters", 4),
            ("bought", 1),
            ("empty_piles", 1),
            ("seat_counts", 6 * n),
            ("supply", k),
            ("in_supply", k),
            # card-count blocks
            ("hand", k),
            ("looking", k),
            ("trash", k),
            ("possessed_hand", k),
            ("possessed_looking", k),
            ("in_play", n * k),
            ("set_aside", n * k),
            ("owned", n * k),
            # one-hots
            ("decision_card", k),
            ("decision_subject", k),
            ("discard_top", n * k),
        ]
        self.layout, self.size = lay_out(fields)
        lay = self.layout
        # card-count blocks (see encode), in this order: hand, looking, trash,
        # possessed hand, possessed looking, then per relative seat in play, set aside
        starts: list[int] = [lay[name].start for name in ("hand", "looking", "trash")]
        starts += [lay["possessed_hand"].start, lay["possessed_looking"].start]
        for r in range(n):
            starts += [lay["in_play"].start + r * k, lay["set_aside"].start + r * k]
        self._starts = starts
        # per card, how many of it the block being written holds (all 0 between uses)
        self._tally = [0] * k
        self._decision: int = lay["decision"].start
        self._decision_who: int = lay["decision_who"].start
        self._decision_card: int = lay["decision_card"].start
        self._decision_about: int = lay["decision_about"].start
        self._decision_subject: int = lay["decision_subject"].start
        self._numbers: int = lay["counters"].start
        self._owned_start: int = lay["owned"].start
        self._orders = [[(seat + r) % n for r in range(n)] for seat in range(n)]
        self._rels = [[(q - seat) % n for q in range(n)] for seat in range(n)]
        # (typed: a slice's start is ``Any``, and an untyped attribute would make
        # every offset sum below a generic, boxed addition in the compiled build)
        self._turn: int = lay["turn"].start
        self._to_move: int = lay["to_move"].start
        self._possessed_by: int = lay["possessed_by"].start
        self._top: int = lay["discard_top"].start
        self._supply_start: int = lay["supply"].start
        self._in_supply_start: int = lay["in_supply"].start
        # the state the buffers were written from, the piles of its game, Gardens
        # and Vineyard in it, the supply as last counted and its empty piles
        self._state: object = None
        self._piles: list[int] = []
        self._supply_now: list[int] = []
        self._empties = 0
        self._owned_now: list[list[int]] = []
        self._points: list[int] = []
        # module constants, read as attributes (a compiled attribute read is cheaper
        # than a module global's lookup)
        self._k: int = NUM_CARDS
        self._kind_index = dict(_DECISION_INDEX)
        self._other_kind = len(DECISION_KINDS)
        self._specs = SPECS
        self._held: dict[str, tuple[int, ...]] = HELD
        # per observing seat: its buffer and what the buffer was written from
        self._buffers: list[np.ndarray] = []
        self._views: list[Any] = []
        self._held_ones: list[list[int]] = []
        self._flags: list[list[int]] = []
        self._copies: list[Callable[[], np.ndarray]] = []
        self._held_counts: list[list[list[int]]] = []
        self._held_numbers: list[list[int]] = []
        self._held_zones: list[list[list[int]]] = []
        self._held_supply: list[list[int]] = []
        self._held_owned: list[list[list[int]]] = []
        self.native: Any = None
        """The C encoder :meth:`encode` hands the work to, or None."""
        if native and _native is not None:
            decisions = {
                code: (
                    self._kind_index.get(code, self._other_kind),
                    spec.subject,
                    spec.whose,
                    spec.zone == "hand",
                )
                for code, spec in SPECS.items()
            }
            offsets = {name: int(sl.start) for name, sl in lay.items()}
            self.native = _native.NativeDominionEncoder(
                n, self.size, k, offsets, decisions, dict(HELD), native_fields
            )

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling and deep copies: a new encoder for as many players (the buffers
        are caches, written again from the next state encoded)."""
        return (DominionEncoder, (self.players, self.native is not None))

    def _start(self, st: DominionState) -> None:
        """Fresh buffers for another state: zeros, with the game's constant
        ``in_supply`` flags written."""
        n = self.players
        k = self._k
        self._state = st
        piles = list(st.piles)
        self._piles = piles
        self._supply_now = [0] * len(st.supply)
        self._empties = 0
        zeros = [0] * len(st.supply)
        self._owned_now = [zeros] * n  # (rows replaced, never changed in place)
        self._points = [0] * n
        self._buffers = [np.zeros(self.size, dtype=OBS_DTYPE) for _ in range(n)]
        self._views = [writer(b) for b in self._buffers]
        self._copies = [b.copy for b in self._buffers]
        for out in self._views:
            for c in piles:
                out[self._in_supply_start + c] = 1
        self._held_ones = [[] for _ in range(n)]
        self._flags = [[0] * self.size for _ in range(n)]
        self._held_numbers = [[0] * (6 + 6 * n) for _ in range(n)]
        self._held_zones = [[[] for _ in self._starts] for _ in range(n)]
        self._held_counts = [[[0] * k for _ in self._starts] for _ in range(n)]
        self._held_supply = [self._supply_now for _ in range(n)]
        self._held_owned = [[zeros] * n for _ in range(n)]

    def encode(self, state: State, seat: int) -> np.ndarray:
        st = state
        assert isinstance(st, DominionState)
        if self.native is not None:
            out: np.ndarray = self.native.encode(st, seat)
            return out
        if st is not self._state:
            self._start(st)
        k = self._k
        n = self.players
        order = self._orders[seat]
        rel = self._rels[seat]
        turn = st.turn
        stack = st.stack
        to_move = st.current_player
        out = self._views[seat]
        hands, decks, discards = st.hands, st.decks, st.discards
        in_play, aside, looking = st.in_play, st.aside, st.looking
        # -- the 1s of every one-hot
        ones: list[int] = [0, 1 + st.phase, self._turn + rel[turn]]
        if to_move >= 0:
            ones.append(self._to_move + rel[to_move])
        controller = st.controller
        if controller >= 0:
            ones.append(self._possessed_by + rel[controller])
        possessor = controller == seat and turn != seat
        if stack:
            fr = stack[-1]
            code = fr.code
            ones.append(self._decision + self._kind_index.get(code, self._other_kind))
            ones.append(self._decision_who + rel[fr.who])
            if fr.card:
                ones.append(self._decision_card + fr.card)
            # what the view says the decision is about (a card about to enter a hand,
            # as Library's: only for the seat deciding)
            spec = self._specs[code]
            if (spec.subject >= 0 or spec.whose >= 0) and (spec.zone != "hand" or to_move == seat):
                whose = fr.field(spec.whose) if spec.whose >= 0 else fr.who
                ones.append(self._decision_about + rel[whose])
                if spec.subject >= 0:
                    ones.append(self._decision_subject + fr.field(spec.subject))
        top = self._top
        discarding = st.discarding
        for r, q in enumerate(order):
            disc = discards[q]
            if disc:
                if discarding[q]:  # a discard of several cards being made: as the view
                    shown = st.shown_discard_top(q, seat)
                    if shown >= 0:
                        ones.append(top + r * k + shown)
                else:
                    ones.append(top + r * k + disc[-1])
        old = self._held_ones[seat]
        if ones != old:
            # flags: 1 where the buffer holds a 1 of ``old``; +2 for the new 1s, so
            # 1 = to clear, 2 = to set, 3 = already set
            flags = self._flags[seat]
            for p in ones:
                flags[p] += 2
            for p in old:
                if flags[p] == 1:
                    out[p] = 0
                    flags[p] = 0
            for p in ones:
                if flags[p] == 2:
                    out[p] = 1
                flags[p] = 1
            self._held_ones[seat] = ones
        # -- card counts: every zone the seat may count, compared with the copy its
        # buffer was written from (one list comparison when it did not change); for
        # a zone that changed, the cards that left and came are tallied (-1, +1) and
        # only the counts that changed are written
        empty: list[int] = []
        if possessor:
            zones = [hands[seat], looking[seat], st.trash, hands[turn], looking[turn]]
        else:
            zones = [hands[seat], looking[seat], st.trash, empty, empty]
        # cards held by pending frames (Golem's finds) count as set aside: the stack
        # walked once for every seat, as ``held_by_frames`` would per seat
        held_rows: list[list[int]] | None = None
        if stack:
            held = self._held
            for fr in stack:
                fields = held.get(fr.code)
                if fields is not None:
                    if held_rows is None:
                        held_rows = [[] for _ in range(n)]
                    row = held_rows[fr.who]
                    for f in fields:
                        row.append(fr.field(f))
        for q in order:
            zones.append(in_play[q])
            if held_rows is not None and held_rows[q]:
                zones.append(aside[q] + held_rows[q])
            else:
                zones.append(aside[q])
        held_zones = self._held_zones[seat]
        for i, zone in enumerate(zones):
            if zone != held_zones[i]:
                self._write_zone(
                    out, self._starts[i], held_zones[i], zone, self._held_counts[seat][i]
                )
                held_zones[i] = zone.copy()
        # -- the supply: its empty piles counted again only when it changed
        supply = st.supply
        now = self._supply_now
        if supply != now:
            now = self._supply_now = supply.copy()
            empties = 0
            for p in self._piles:
                if now[p] == 0:
                    empties += 1
            self._empties = empties
        before = self._held_supply[seat]
        if before is not now:
            i = self._supply_start
            for c in self._piles:  # (the other cards' counts are always 0)
                m = now[c]
                if before[c] != m:
                    out[i + c] = m
            self._held_supply[seat] = now
        # -- owned counts (kept by the engine as cards change hands) and victory
        # points: copied when they changed; a copy is never changed, so a row the
        # buffer holds already is one identity test
        # (only the rows that changed are copied and scored again: the others stay
        # the same objects, which the buffers' identity tests below skip)
        owned = self._owned_now
        counts = st.owned_counts
        if counts != owned:
            points = self._points
            for q in range(n):
                row = counts[q]
                if row != owned[q]:
                    owned[q] = row.copy()
                    points[q] = st.vp_of(q)
        held_owned = self._held_owned[seat]
        i = self._owned_start
        # (only the cards a seat can own in this game, as the engine keeps them:
        # every other count is 0 in every row)
        kinds = st.owned_kinds
        for r, q in enumerate(order):
            row = owned[q]
            before = held_owned[r]
            if row is not before:
                for c in kinds:
                    m = row[c]
                    if before[c] != m:
                        out[i + c] = m
                held_owned[r] = row
            i += k
        # -- numbers
        points = self._points
        turns = st.turns
        numbers: list[int] = [st.actions, st.buys, st.coins, st.potions, int(st.bought)]
        numbers.append(self._empties)
        for q in order:
            numbers.append(len(hands[q]))
            numbers.append(len(decks[q]))
            numbers.append(len(discards[q]))
            numbers.append(turns[q])
            numbers.append(len(looking[q]))
            numbers.append(points[q])
        held_numbers = self._held_numbers[seat]
        if numbers != held_numbers:
            i = self._numbers
            for j, x in enumerate(numbers):
                if held_numbers[j] != x:
                    out[i + j] = x
            self._held_numbers[seat] = numbers
        return self._copies[seat]()

    def _write_zone(
        self, out: Any, start: int, before: list[int], zone: list[int], counts: list[int]
    ) -> None:
        """Write into ``out`` the counts of a block that held ``before`` and now holds
        ``zone`` (``counts``: the block's counts as written, updated)."""
        tally = self._tally
        for c in before:
            tally[c] -= 1
        for c in zone:
            tally[c] += 1
        # two loops, not one over both lists: on this hot path a loop over a tuple
        # of the two lists costs about 700 instructions more per env step (callgrind)
        for c in before:
            d = tally[c]
            if d:
                m = counts[c] + d
                counts[c] = m
                out[start + c] = m
                tally[c] = 0
        for c in zone:
            d = tally[c]
            if d:
                m = counts[c] + d
                counts[c] = m
                out[start + c] = m
                tally[c] = 0

    def encode_view(self, view: Mapping[str, Any], bought: bool) -> np.ndarray:
        """The same vector built from the seat's JSON view alone (plus ``bought``, the
        public "something was bought this turn" flag the view leaves out): the
        definition :meth:`encode` must match, slow but obviously free of hidden
        information (the tests compare the two on many random states)."""
        n = self.players
        k = NUM_CARDS
        lay = self.layout
        obs = np.zeros(self.size, dtype=OBS_DTYPE)
        seat: int = view["player"]

        def rel(q: int) -> int:
            return (q - seat) % n

        def put(name: str, value: float, offset: int = 0) -> None:
            obs[lay[name].start + offset] = value

        def count(name: str, cards: list[str], block: int = 0) -> None:
            for c in cards:
                obs[lay[name].start + block * k + BY_ID[c]] += 1

        put("bias", 1)
        put("phase", 1, ("action", "buy", "over", "cleanup").index(view["phase"]))
        put("turn", 1, rel(view["turn"]))
        if view["to_move"] >= 0:
            put("to_move", 1, rel(view["to_move"]))
        possession = view["possession"]
        if possession is not None:
            put("possessed_by", 1, rel(possession["by"]))
            count("possessed_hand", possession.get("hand", []))
            count("possessed_looking", possession.get("looking", []))
        decision = view["decision"]
        if decision is not None:
            put("decision", 1, _DECISION_INDEX.get(decision["code"], len(DECISION_KINDS)))
            put("decision_who", 1, rel(decision["who"]))
            if decision["card"] is not None:
                put("decision_card", 1, BY_ID[decision["card"]])
            about = decision.get("about")
            if about is not None:
                put("decision_about", 1, rel(about["player"]))
                if "card" in about:
                    put("decision_subject", 1, BY_ID[about["card"]])
        for i, name in enumerate(("actions", "buys", "coins", "potions")):
            put("counters", view[name], i)
        put("bought", float(bought))
        put("empty_piles", sum(1 for s in view["supply"] if s["count"] == 0))
        for s in view["supply"]:
            put("supply", s["count"], BY_ID[s["card"]])
            put("in_supply", 1, BY_ID[s["card"]])
        count("hand", view["hand"])
        count("looking", view["looking"])
        count("trash", view["trash"])
        for q, p in enumerate(view["players"]):
            r = rel(q)
            owned = [BY_ID[c] for c, m in p["owned"].items() for _ in range(m)]
            numbers = [p["hand_size"], p["deck_size"], p["discard_size"], p["turns"]]
            numbers += [p["looking_count"], score(owned)]
            for i, x in enumerate(numbers):
                put("seat_counts", x, 6 * r + i)
            count("in_play", p["in_play"], r)
            count("set_aside", p["set_aside"], r)
            count("owned", [CARDS[c].id for c in owned], r)
            if p["discard_top"] is not None:
                put("discard_top", 1, r * k + BY_ID[p["discard_top"]])
        return obs

    def describe(self, obs: np.ndarray) -> dict[str, Any]:
        """The non-zero entries of each field, by card id where the field is per card
        (for reading observations in tests and notebooks)."""
        out: dict[str, Any] = {}
        k = NUM_CARDS
        for name, sl in self.layout.items():
            part = obs[sl]
            if sl.stop - sl.start in (k, self.players * k) and name not in ("seat_counts",):
                rows = part.reshape(-1, k)
                out[name] = [
                    {CARDS[c].id: float(v) for c, v in enumerate(row) if v} for row in rows
                ]
                if len(rows) == 1:
                    out[name] = out[name][0]
            else:
                out[name] = [float(v) for v in part]
        return out
