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

from collections.abc import Mapping
from typing import Any

import numpy as np

from kingdoms.core.state import State
from kingdoms.dominion.data import BY_ID, CARDS, IS_ACTION, NUM_CARDS
from kingdoms.dominion.decisions import SPECS
from kingdoms.dominion.rules import GARDENS, VINEYARD, VP, score
from kingdoms.dominion.state import DECISIONS, DominionState
from kingdoms.rl.encoding import OBS_DTYPE, lay_out, writer

DECISION_KINDS: tuple[str, ...] = tuple(sorted(DECISIONS))
"""Decision kinds in the order of the ``decision`` one-hot."""
_DECISION_INDEX = {k: i for i, k in enumerate(DECISION_KINDS)}
_VP_LIST = list(VP)
_ACTIONS = [c for c in range(NUM_CARDS) if IS_ACTION[c]]


class DominionEncoder:
    """The observation vector described in this module's docstring."""

    def __init__(self, players: int) -> None:
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
            # numbers, written in one go
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
        # card-count segments (see encode): where each one's block starts, without
        # and with the possessed seat's hand and looking
        lay = self.layout
        mine: list[int] = [lay["hand"].start, lay["looking"].start, lay["trash"].start]
        seats: list[int] = []
        for r in range(n):
            seats += [lay["in_play"].start + r * k, lay["set_aside"].start + r * k]
        possessed: list[int] = [lay["possessed_hand"].start, lay["possessed_looking"].start]
        self._starts = (mine + seats, mine + possessed + seats)
        # per card, how many of it the block being written holds (all 0 between uses)
        self._tally = [0] * k
        self._decision: int = lay["decision"].start
        self._decision_who: int = lay["decision_who"].start
        self._decision_card: int = lay["decision_card"].start
        self._decision_about: int = lay["decision_about"].start
        self._decision_subject: int = lay["decision_subject"].start
        self._owned_cache: tuple[object, int, tuple[int, ...], list[int]] | None
        self._owned_cache = None
        self._owned_by_seat: list[tuple[list[Any], list[int]]] = []
        self._numbers = lay["counters"].start
        self._owned = lay["owned"]
        self._cache: tuple[object, list[int], bool, bool] | None = None
        self._orders = [[(seat + r) % n for r in range(n)] for seat in range(n)]
        self._rels = [[(q - seat) % n for q in range(n)] for seat in range(n)]
        self._turn = lay["turn"].start
        self._to_move = lay["to_move"].start
        self._possessed_by = lay["possessed_by"].start
        self._top = lay["discard_top"].start
        assert lay["in_supply"].start == lay["supply"].stop
        self._supply_slice = slice(lay["supply"].start, lay["in_supply"].stop)
        # the supply block (see encode): for which piles, the counts it holds, its
        # memoryview, the number of empty piles
        self._supply_piles: object = None
        self._supply_held: list[int] = []
        self._supply_view: Any = None
        self._empties = 0

    def _game_constants(self, st: DominionState) -> tuple[list[int], bool, bool]:
        """(the piles of this game, Gardens in the game, Vineyard in the game)."""
        cache = self._cache
        if cache is None or cache[0] is not st.piles:
            piles = st.piles
            cache = (piles, list(piles), GARDENS in piles, VINEYARD in piles)
            self._cache = cache
        return cache[1], cache[2], cache[3]

    def encode(self, state: State, seat: int) -> np.ndarray:
        st = state
        assert isinstance(st, DominionState)
        n = self.players
        k = NUM_CARDS
        order = self._orders[seat]
        rel = self._rels[seat]
        turn = st.turn
        stack = st.stack
        to_move = st.current_player
        in_supply, gardens, vineyards = self._game_constants(st)
        obs = np.zeros(self.size, dtype=OBS_DTYPE)
        # a few dozen elements are set one by one through a memoryview (far cheaper
        # than as many numpy calls); the big blocks are copied from cached vectors
        out = writer(obs)
        # -- one-hots
        out[0] = 1
        out[1 + st.phase] = 1
        out[self._turn + rel[turn]] = 1
        if to_move >= 0:
            out[self._to_move + rel[to_move]] = 1
        controller = st.controller
        if controller >= 0:
            out[self._possessed_by + rel[controller]] = 1
        possessor = controller == seat and turn != seat
        if stack:
            fr = stack[-1]
            code = fr.code
            out[self._decision + _DECISION_INDEX.get(code, len(DECISION_KINDS))] = 1
            out[self._decision_who + rel[fr.who]] = 1
            if fr.card:
                out[self._decision_card + fr.card] = 1
            # what the view says the decision is about (a card about to enter a hand,
            # as Library's: only for the seat deciding)
            spec = SPECS[code]
            if (spec.subject >= 0 or spec.whose >= 0) and (spec.zone != "hand" or to_move == seat):
                whose = fr.field(spec.whose) if spec.whose >= 0 else fr.who
                out[self._decision_about + rel[whose]] = 1
                if spec.subject >= 0:
                    out[self._decision_subject + fr.field(spec.subject)] = 1
        top = self._top
        hands, decks, discards = st.hands, st.decks, st.discards
        in_play, aside, looking = st.in_play, st.aside, st.looking
        for r, q in enumerate(order):
            disc = discards[q]
            if disc:
                out[top + r * k + disc[-1]] = 1
        # -- card counts: every zone the seat may count, block by block; the cards of
        # a block are tallied in a list first, then each distinct card is written
        # once (a list item costs a fraction of a memoryview item)
        empty: list[int] = []
        blocks: list[list[list[int]]] = [[hands[seat]], [looking[seat]], [st.trash]]
        if possessor:
            blocks += ([hands[turn]], [looking[turn]])
        helds = [st.held_by_frames(q) for q in range(n)] if stack else [empty] * n
        for q in order:
            blocks += ([in_play[q]], [aside[q], helds[q]])
        tally = self._tally
        for start, zones in zip(self._starts[possessor], blocks, strict=True):
            for cards in zones:
                for c in cards:
                    tally[c] += 1
            for cards in zones:
                for c in cards:
                    m = tally[c]
                    if m:
                        out[start + c] = m
                        tally[c] = 0
        # -- owned counts and victory points: recounted only when cards may have
        # changed owner (see _owned_counts)
        owned, vp = self._owned_counts(st, helds, gardens, vineyards)[seat]
        i = self._owned.start
        for row in owned:
            out[i : i + k] = row
            i += k
        # -- numbers
        supply = st.supply
        # the supply changes on few steps: its vector (pile counts, then the
        # in_supply flags) is kept, and the piles that changed written into it
        if self._supply_piles is not in_supply:
            vector = np.zeros(2 * k, dtype=OBS_DTYPE)
            self._supply_view = writer(vector)
            for c in in_supply:
                self._supply_view[k + c] = 1
            self._supply_piles = in_supply
            self._supply_held = [0] * k
        held = self._supply_held
        if held != supply:
            view = self._supply_view
            for c in range(k):
                m = supply[c]
                if held[c] != m:
                    view[c] = m
                    held[c] = m
            self._empties = [supply[p] for p in in_supply].count(0)
        out[self._supply_slice.start : self._supply_slice.stop] = self._supply_view
        i = self._numbers
        out[i] = st.actions
        out[i + 1] = st.buys
        out[i + 2] = st.coins
        out[i + 3] = st.potions
        out[i + 4] = st.bought
        out[i + 5] = self._empties
        i += 6
        turns = st.turns
        for q, points in zip(order, vp, strict=True):
            out[i] = len(hands[q])
            out[i + 1] = len(decks[q])
            out[i + 2] = len(discards[q])
            out[i + 3] = turns[q]
            out[i + 4] = len(looking[q])
            out[i + 5] = points
            i += 6
        return obs

    def _owned_counts(
        self, st: DominionState, helds: list[list[int]], gardens: bool, vineyards: bool
    ) -> list[tuple[list[Any], list[int]]]:
        """For each observing seat: every seat's ``owned`` row (a memoryview of
        ``NUM_CARDS`` counts) and victory points, in that seat's relative order.

        Cards change owner only by moving between a seat's zones, the supply, the
        trash and the Possession set-aside trash, which changes a seat's card total,
        the trash, or the supply counts: while all of those are equal to the last
        count's, on the same game and at most one action later, the counts hold.
        (Two opposite moves between seats in one action would escape this: no card
        of these sets makes them; the view-encoding test checks every state.)"""
        n = self.players
        hands, decks, discards = st.hands, st.decks, st.discards
        in_play, aside, looking = st.in_play, st.aside, st.looking
        totals = tuple(
            len(hands[q])
            + len(decks[q])
            + len(discards[q])
            + len(in_play[q])
            + len(aside[q])
            + len(looking[q])
            + len(helds[q])
            for q in range(n)
        )
        key = (*totals, len(st.trash), len(st.possessed_trash))
        cache = self._owned_cache
        if (
            cache is not None
            and cache[0] is st.supply
            and 0 <= st.step - cache[1] <= 1
            and cache[2] == key
            and cache[3] == st.supply
        ):
            self._owned_cache = (st.supply, st.step, key, cache[3])
            return self._owned_by_seat
        # a few dozen cards per seat: tallied one by one in a list, then written
        # into the seat's row once per distinct card
        k = NUM_CARDS
        tally = self._tally
        rows: list[Any] = []
        points: list[int] = []
        for q in range(n):
            vp = 0
            for zone in (hands[q], decks[q], discards[q], in_play[q], aside[q], looking[q]):
                for c in zone:
                    tally[c] += 1
                    vp += _VP_LIST[c]
            for c in helds[q]:
                tally[c] += 1
                vp += _VP_LIST[c]
            if gardens:
                vp += tally[GARDENS] * (totals[q] // 10)
            if vineyards:
                vp += tally[VINEYARD] * (sum(tally[c] for c in _ACTIONS) // 3)
            row = np.zeros(k, dtype=OBS_DTYPE)
            count = writer(row)
            for c in range(k):
                m = tally[c]
                if m:
                    count[c] = m
                    tally[c] = 0
            rows.append(count)
            points.append(vp)
        self._owned_by_seat = [
            ([rows[q] for q in order], [points[q] for q in order]) for order in self._orders
        ]
        self._owned_cache = (st.supply, st.step, key, st.supply.copy())
        return self._owned_by_seat

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
