"""Kingdomino observations: one seat's view as a vector.

The observation vector (int16, :data:`kingdoms.rl.encoding.OBS_DTYPE`; ``n``
players; ``L`` dominoes per line, i.e. the number of kings; seat blocks *relative*:
0 is the observing seat, 1 the next seat, …) holds what
:meth:`kingdoms.kingdomino.state.KingdominoState.view` shows:

=============  ===========  ===============================================================
field          length       meaning
=============  ===========  ===============================================================
bias           1            always 1
phase          4            one-hot: first picks, place, pick, over
round          1            round number (1 = first line placed)
game           1            game number (Dynasty: 1–3)
variants       4            middle-kingdom, harmony, dynasty, mighty-duel flags
to_move        n            one-hot relative seat that must act (0s: game over)
pick_order     L·n          first-pick order: per slot, one-hot relative seat (0s: that
                            king is not drawn yet)
picks_made     1            first picks made so far
acting         16           the domino to place now (domino features, below)
current_line   L·(18+n)     per slot of the line being placed: domino features, one-hot
                            relative seat of its king, already-placed flag, acting flag
next_line      L·(18+n)     same for the line being drafted (flags 0)
unseen         48           1 for each domino nobody has seen this game (undrawn or set
                            aside: which of the two, and the draw order, stay hidden)
seat_stats     4n           per relative seat: score (bonuses included), crowns,
                            dominoes discarded, total score over the match (Dynasty)
grids          n·8·169      per relative seat, 8 planes over the 13×13 grid (row-major,
                            castle at (6, 6)): 6 terrains, castle, crowns (0–3)
=============  ===========  ===============================================================

Domino features (16): present, number (1–48), then for the left and the right
square: one-hot terrain (6) and crowns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from kingdoms.core.state import State
from kingdoms.kingdomino.board import CASTLE_CELL, SIDE, Board, W, placement_cells
from kingdoms.kingdomino.state import (
    CHOOSE,
    FIRST_PICKS,
    PLACE,
    TERRAIN_NAMES_EN,
    KingdominoState,
)
from kingdoms.kingdomino.state import PHASES as VIEW_PHASES
from kingdoms.kingdomino.tiles import TILES
from kingdoms.rl.encoding import OBS_DTYPE, lay_out, writer

PLANES = 8
GRID = SIDE * SIDE
DOMINO_FEATURES = 16


def _domino_table() -> np.ndarray:
    table = np.zeros((49, DOMINO_FEATURES), dtype=OBS_DTYPE)
    for n, d in TILES.items():
        table[n, 0] = 1
        table[n, 1] = n
        for side, (t, c) in enumerate((d.left, d.right)):
            base = 2 + 7 * side
            table[n, base + t] = 1
            table[n, base + 6] = c
    return table


_DOMINO = _domino_table()
_DOMINO_VIEWS: list[Any] = [writer(row) for row in _DOMINO]


_WRITES: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}


def _placement_writes(placement: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """What a placement ``(domino number, code)`` sets in its board's 8 planes:
    (offset in the block, value) pairs (terrain flags, non-zero crowns), memoized."""
    writes = _WRITES.get(placement)
    if writes is None:
        number, code = placement
        dom = TILES[number]
        out: list[tuple[int, int]] = []
        for cell, (t, c) in zip(placement_cells(code), (dom.left, dom.right), strict=True):
            g = _grid_index(cell)
            out.append((t * GRID + g, 1))
            if c:
                out.append((7 * GRID + g, c))
        writes = _WRITES[placement] = tuple(out)
    return writes


def _grid_index(cell: int) -> int:
    """Engine cell (``y * 14 + x``) -> index in a 13×13 plane."""
    return (cell // W) * SIDE + cell % W


class KingdominoEncoder:
    """The observation vector described in this module's docstring, encoded
    incrementally.

    Each observing seat has a buffer holding the vector it was last given.
    Kingdoms only grow, so the grid planes are updated with the new placements only
    (in every seat's buffer; rebuilt when the encoder meets another board object);
    the other fields are compared with what the seat's buffer holds and only the
    differences are written (a step moves a few one-hots, a flag or two, a domino
    slot).  :meth:`encode` hands out a copy of the buffer.  The result depends only
    on the state given, never on the order of the calls (the tests compare it with
    :meth:`encode_view` after every step of random games)."""

    def __init__(self, players: int) -> None:
        n = self.players = players
        line = self.line = 4 if players in (2, 4) else 3
        slot = DOMINO_FEATURES + n + 2
        self.slot = slot
        fields = [
            ("bias", 1),
            ("phase", 4),
            ("round", 1),
            ("game", 1),
            ("variants", 4),
            ("to_move", n),
            ("pick_order", line * n),
            ("picks_made", 1),
            ("acting", DOMINO_FEATURES),
            ("current_line", line * slot),
            ("next_line", line * slot),
            ("unseen", 48),
            ("seat_stats", 4 * n),
            ("grids", n * PLANES * GRID),
        ]
        self.layout, self.size = lay_out(fields)
        # per observing seat: the vector it was last given (see the class docstring)
        self._buffers = [np.zeros(self.size, dtype=OBS_DTYPE) for _ in range(n)]
        self._views: list[Any] = [writer(t) for t in self._buffers]
        for view in self._views:
            view[0] = 1  # bias
        self._boards: list[Board | None] = [None] * n
        self._done = [0] * n
        # per seat: (dominoes placed, discarded) when its stats were computed, and
        # the stats (score, crowns, discarded, match total)
        self._keys: list[tuple[int, int] | None] = [None] * n
        self._stats: list[tuple[int, ...]] = [()] * n
        self._unseen: tuple[object, int, object, list[int]] | None = None
        lay = self.layout
        self._rels = [[(q - seat) % n for q in range(n)] for seat in range(n)]
        self._orders = [[(seat + r) % n for r in range(n)] for seat in range(n)]
        # round, game, then the four variant flags
        self._numbers = lay["round"].start
        assert lay["game"].start == self._numbers + 1 == lay["variants"].start - 1
        self._picks_made = lay["picks_made"].start
        self._to_move = lay["to_move"].start
        self._pick_order = lay["pick_order"].start
        # where each domino's 16 features go: acting, then the slots of both lines
        slots = [lay["acting"].start]
        slots += [lay["current_line"].start + i * slot for i in range(line)]
        slots += [lay["next_line"].start + i * slot for i in range(line)]
        self._slots = slots
        # where each slot's king one-hot starts (its flags follow it)
        self._king_pos = [p + DOMINO_FEATURES for p in slots[1:]]
        self._unseen_slice = self.layout["unseen"]
        self._unseen_start: int = self._unseen_slice.start
        stats_start: int = self.layout["seat_stats"].start
        # where each entry of encode's numbers goes
        self._number_pos: list[int] = [self._numbers + i for i in range(6)]
        self._number_pos += [self._picks_made] + [stats_start + i for i in range(4 * n)]
        # per seat: what its buffer holds (see encode)
        self._ones: list[list[int]] = [[] for _ in range(n)]
        self._flags: list[list[int]] = [[0] * lay["grids"].start for _ in range(n)]
        self._numbers_held = [[0] * len(self._number_pos) for _ in range(n)]
        self._dominoes_held = [[0] * len(slots) for _ in range(n)]
        self._unseen_held = [[0] * 48 for _ in range(n)]
        self._grids = self.layout["grids"]
        # per board: (template of each observing seat, where that board's block starts)
        self._targets = [
            [
                (self._views[seat], self._grids.start + (q - seat) % n * PLANES * GRID)
                for seat in range(n)
            ]
            for q in range(n)
        ]

    def _clear_board(self, q: int) -> None:
        """Seat ``q``'s grid planes back to a lone castle, in every seat's template."""
        n = self.players
        for seat in range(n):
            r = (q - seat) % n
            start = self._grids.start + r * PLANES * GRID
            template = self._buffers[seat]
            template[start : start + PLANES * GRID] = 0
            template[start + 6 * GRID + _grid_index(CASTLE_CELL)] = 1

    def _sync(self, st: KingdominoState) -> None:
        """Bring the grid planes (in every seat's template) and the scores up to date
        with the boards: new placements only, unless a board was replaced."""
        for q, b in enumerate(st.boards):
            placed = b.placed
            done = self._done[q]
            if b is not self._boards[q] or len(placed) < done:
                self._clear_board(q)
                self._boards[q] = b
                done = self._done[q] = 0
                self._keys[q] = None
            if done < len(placed):
                targets = self._targets[q]
                for i in range(done, len(placed)):
                    writes = _placement_writes(placed[i])
                    for view, base in targets:
                        for offset, value in writes:
                            view[base + offset] = value
                self._done[q] = len(placed)
            key = (len(placed), len(b.discarded))
            if self._keys[q] != key:
                # the board caches its points per terrain: only the terrains of the
                # new domino are scored again
                score = st.score(q)
                past = sum(g[q][0] for g in st.past)
                self._keys[q] = key
                self._stats[q] = (score, b.total_crowns(), key[1], past + score)

    def _unseen_flags(self, st: KingdominoState) -> list[int]:
        """Dominoes nobody has seen (undrawn or set aside), as 48 flags (a new list
        whenever they change)."""
        cache = self._unseen
        pile = st.pile
        if (
            cache is None
            or cache[0] is not pile
            or cache[1] != len(pile)
            or cache[2] is not st.aside
        ):
            flags = [0] * 48
            for d in pile:
                flags[d - 1] = 1
            for d in st.aside:
                flags[d - 1] = 1
            cache = self._unseen = (pile, len(pile), st.aside, flags)
        return cache[3]

    def encode(self, state: State, seat: int) -> np.ndarray:
        st = state
        assert isinstance(st, KingdominoState)
        self._sync(st)
        n = self.players
        line = self.line
        rel = self._rels[seat]
        phase = st.phase
        acting = phase in (PLACE, CHOOSE)
        # the vector besides the grids and the bias, as three lists: where the 1s of
        # the one-hots and flags are, the numbers (round, game, variant flags, first
        # picks made, then the seat stats), the domino in each feature slot (0: none)
        ones: list[int] = [1 + phase]
        to_move = st.current_player
        if to_move >= 0:
            ones.append(self._to_move + rel[to_move])
        # kings drawn so far for the first picks (the rest of the draw is hidden)
        drawn = st.pick_order if phase != FIRST_PICKS else st.pick_order[: st.pick_pos + 1]
        pick = self._pick_order
        for i, q in enumerate(drawn):
            ones.append(pick + i * n + rel[q])
        slot = st.slot
        done = slot + (1 if phase == CHOOSE else 0) if acting else 0
        kings = self._king_pos
        for i, king in enumerate(st.current_kings):
            if king >= 0:
                ones.append(kings[i] + rel[king])
            if i < done:
                ones.append(kings[i] + n)
        if acting:
            ones.append(kings[slot] + n + 1)
        for i, king in enumerate(st.next_kings):
            if king >= 0:
                ones.append(kings[line + i] + rel[king])
        numbers: list[int] = [
            st.round + 1,
            st.game_no + 1,
            int(st.middle),
            int(st.harmony),
            int(st.dynasty),
            int(st.mighty),
            st.pick_pos,
        ]
        stats = self._stats
        for q in self._orders[seat]:
            numbers.extend(stats[q])
        current, following = st.current, st.next
        dominoes: list[int] = [current[slot] if acting else 0]
        for i in range(line):
            dominoes.append(current[i] if i < len(current) else 0)
        for i in range(line):
            dominoes.append(following[i] if i < len(following) else 0)
        unseen = self._unseen_flags(st)
        # the seat's buffer, from what it holds to this: only the differences
        out = self._views[seat]
        # (flags: 1 where the buffer holds a 1 of ``old``; marked +2 for the new 1s,
        # so 1 = to clear, 2 = to set, 3 = already set: int list items, no
        # comparisons of Python ints)
        old = self._ones[seat]
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
        self._ones[seat] = ones
        held = self._numbers_held[seat]
        where = self._number_pos
        for i, x in enumerate(numbers):
            if held[i] != x:
                out[where[i]] = x
                held[i] = x
        held = self._dominoes_held[seat]
        slots = self._slots
        for i, d in enumerate(dominoes):
            if held[i] != d:
                p = slots[i]
                out[p : p + DOMINO_FEATURES] = _DOMINO_VIEWS[d]
                held[i] = d
        held = self._unseen_held[seat]
        if held is not unseen:
            p = self._unseen_start
            for i, x in enumerate(unseen):
                if held[i] != x:
                    out[p + i] = x
            self._unseen_held[seat] = unseen
        return self._buffers[seat].copy()

    def encode_view(self, view: Mapping[str, Any]) -> np.ndarray:
        """The same vector built from the seat's JSON view alone: the definition
        :meth:`encode` must match, slow but obviously free of hidden information
        (the tests compare the two on many random states)."""
        n = self.players
        lay = self.layout
        obs = np.zeros(self.size, dtype=OBS_DTYPE)
        seat: int = view["seat"]

        def at(name: str, offset: int = 0) -> int:
            return int(lay[name].start) + offset

        def rel(q: int) -> int:
            return (q - seat) % n

        phase = VIEW_PHASES.index(view["phase"])
        obs[at("bias")] = 1
        obs[at("phase", phase)] = 1
        obs[at("round")] = view["round"]
        obs[at("game")] = view["game_no"]
        variants = view["options"].get("variants", [])
        for i, v in enumerate(("middle-kingdom", "harmony", "dynasty", "mighty-duel")):
            obs[at("variants", i)] = v in variants
        if view["to_move"] >= 0:
            obs[at("to_move", rel(view["to_move"]))] = 1
        for i, q in enumerate(view["pick_order"]):
            obs[at("pick_order", i * n + rel(q))] = 1
        obs[at("picks_made")] = view["picks_made"]
        obs[lay["acting"]] = _DOMINO[view["acting"] or 0]
        acting = phase in (PLACE, CHOOSE)
        done = view["line_done"] + (phase == CHOOSE)
        seen: set[int] = set()
        for name in ("current_line", "next_line"):
            for i, slot in enumerate(view[name]):
                base = at(name, i * self.slot)
                obs[base : base + DOMINO_FEATURES] = _DOMINO[slot["domino"]]
                seen.add(slot["domino"])
                if slot["king"] is not None:
                    obs[base + DOMINO_FEATURES + rel(slot["king"])] = 1
                if name == "current_line":
                    obs[base + DOMINO_FEATURES + n] = acting and i < done
                    obs[base + DOMINO_FEATURES + n + 1] = acting and i == view["line_done"]
        for q, kingdom in enumerate(view["kingdoms"]):
            r = rel(q)
            stats = (kingdom["score"], kingdom["crowns"], len(kingdom["discarded"]))
            for i, x in enumerate((*stats, view["totals"][q])):
                obs[at("seat_stats", 4 * r + i)] = x
            seen.update(number for number, _code in kingdom["placed"])
            seen.update(kingdom["discarded"])
            plane = at("grids", r * PLANES * GRID)
            for x, y, terrain, crowns in kingdom["cells"]:
                g = (y + SIDE // 2) * SIDE + x + SIDE // 2
                obs[plane + TERRAIN_NAMES_EN.index(terrain) * GRID + g] = 1
                obs[plane + 7 * GRID + g] = crowns
        for number in range(1, 49):
            obs[at("unseen", number - 1)] = number not in seen
        return obs
