# cython: language_level=3, wraparound=False, cdivision=True, initializedcheck=False
"""The Kingdomino observation vector written in C: the same vector as
:meth:`kingdoms.rl.kingdomino_obs.KingdominoEncoder.encode` (which stays the
reference and the fallback), written into one preallocated buffer per observing
seat, of which a copy is handed out.

Everything before the grid planes is rewritten from the state on every call (a
memset, then the few entries that are not 0), but the unseen dominoes' block: it is
worked out again only when the state's undrawn pile (the same list, of the same
length) or set-aside list changed, and copied into a seat's buffer when that seat's
block is older.  Kingdoms only grow, so the grid
planes are updated with the new placements only, in every seat's buffer (a board's
planes are rebuilt when the encoder meets another board object); a seat's stats are
asked of the state only when its placed or discarded count changed.  The layout's
offsets and the domino tables come from the encoder that builds it
(:class:`kingdoms.rl.kingdomino_obs.KingdominoEncoder`).
"""

from cpython.list cimport PyList_GET_ITEM
from libc.string cimport memcpy, memset

import numpy as np

from kingdoms.kingdomino._cboard cimport CBoard
from kingdoms.rl._cfresh import fill_floats, fresh_copy

cdef enum:
    MAXP = 4
    MAXL = 4
    FEATURES = 16
    PLANES = 8
    GRID = 169
    PLACEMENTS = 728  # 4 directions x 13 x 14 cells


cdef inline long _item(list xs, Py_ssize_t j) except? -1:
    return <object>PyList_GET_ITEM(xs, j)


cdef inline int _rel(long q, int seat, int n) except -1:
    """Seat ``q`` relative to ``seat`` (checked: ``0 <= q < n``)."""
    if not 0 <= q < n:
        raise IndexError(f"seat {q} out of range")
    return (q - seat + n) % n


cdef class NativeKingdominoEncoder:
    """See the module's docstring.  ``offsets``: the start of each field of the
    layout; ``dominoes``: the 49 x 16 domino features; ``squares``: per domino
    number, terrain and crowns of its two squares; ``placements``: per placement
    code, the plane indices of its two squares; ``castle``: the castle's index."""

    cdef readonly int players
    cdef readonly int size
    cdef int line, slot, castle, first_picks, place, choose
    cdef int o_phase, o_round, o_game, o_variants, o_to_move, o_pick_order
    cdef int o_picks_made, o_acting, o_current, o_next, o_unseen, o_stats, o_grids
    cdef object data
    cdef list rows
    cdef object fields
    cdef short[:, ::1] view
    cdef short dominoes[49][FEATURES]
    cdef int squares[49][4]
    cdef int placements[PLACEMENTS][2]
    cdef list boards
    cdef int done[MAXP]
    cdef long keys[MAXP]
    cdef long stats[MAXP][4]
    # the unseen dominoes' 48 flags, kept while the state's pile (the same list, of
    # the same length) and set-aside list stay (as the pure encoder's cache), and
    # the generation of them each seat's buffer holds
    cdef object pile_kept
    cdef object aside_kept
    cdef Py_ssize_t pile_len
    cdef long unseen_gen
    cdef long seat_gen[MAXP]
    cdef short unseen[48]

    def __init__(
        self, int players, int size, int line, dict offsets, object dominoes,
        list squares, list placements, int castle, tuple phases, object fields,
    ):
        cdef int i, j
        if not 1 <= players <= MAXP or not 1 <= line <= MAXL:
            raise ValueError(f"players must be 1..{MAXP} and lines 1..{MAXL} long")
        if len(placements) > PLACEMENTS or len(squares) != 49:
            raise ValueError("placement or domino table of the wrong size")
        self.players = players
        self.size = size
        self.line = line
        self.slot = FEATURES + players + 2
        self.castle = castle
        self.first_picks, self.place, self.choose = phases
        # the state's fields _write reads, in one tuple (one call instead of an
        # attribute lookup each; see kingdoms.rl.kingdomino_obs.native_fields)
        self.fields = fields
        self.o_phase = offsets["phase"]
        self.o_round = offsets["round"]
        self.o_game = offsets["game"]
        self.o_variants = offsets["variants"]
        self.o_to_move = offsets["to_move"]
        self.o_pick_order = offsets["pick_order"]
        self.o_picks_made = offsets["picks_made"]
        self.o_acting = offsets["acting"]
        self.o_current = offsets["current_line"]
        self.o_next = offsets["next_line"]
        self.o_unseen = offsets["unseen"]
        self.o_stats = offsets["seat_stats"]
        self.o_grids = offsets["grids"]
        if self.o_grids + players * PLANES * GRID != size:
            raise ValueError("the grid planes must end the vector")
        for i in range(49):
            for j in range(FEATURES):
                self.dominoes[i][j] = dominoes[i][j]
            for j in range(4):
                self.squares[i][j] = squares[i][j]
        memset(self.placements, 0, sizeof(self.placements))
        for i in range(len(placements)):
            self.placements[i][0] = placements[i][0]
            self.placements[i][1] = placements[i][1]
        self.data = np.zeros((players, size), dtype=np.int16)
        self.view = self.data
        # each seat's row (the observation handed out is a copy of it)
        self.rows = [self.data[i] for i in range(players)]
        self.boards = [None] * players
        for i in range(players):
            self.done[i] = 0
            self.keys[i] = -1
            self.seat_gen[i] = -1
        self.pile_kept = None
        self.aside_kept = None
        self.pile_len = -1
        self.unseen_gen = 0

    cdef void _clear(self, int q):
        """Seat ``q``'s grid planes back to a lone castle, in every seat's buffer."""
        cdef int seat, start
        for seat in range(self.players):
            start = self.o_grids + ((q - seat + self.players) % self.players) * PLANES * GRID
            memset(&self.view[seat, start], 0, PLANES * GRID * sizeof(short))
            self.view[seat, start + 6 * GRID + self.castle] = 1

    cdef int _sync(self, object st, list boards) except -1:
        cdef int n = self.players
        cdef int q, seat, i, base, number, code, t1, c1, t2, c2, g1, g2, placed_n
        cdef long key, past, crowns
        cdef Py_ssize_t discarded
        cdef list placed
        cdef tuple item
        cdef CBoard cb
        if len(boards) != n:
            raise ValueError(f"{len(boards)} boards for {n} players")
        for q in range(n):
            b = <object>PyList_GET_ITEM(boards, q)
            # the C board's fields read in C; another board through its attributes
            cb = <CBoard>b if type(b) is CBoard else None
            placed = b.placed if cb is None else cb.placed
            placed_n = len(placed)
            if b is not self.boards[q] or placed_n < self.done[q]:
                self._clear(q)
                self.boards[q] = b
                self.done[q] = 0
                self.keys[q] = -1
            for i in range(self.done[q], placed_n):
                item = <tuple>PyList_GET_ITEM(placed, i)
                number = item[0]
                code = item[1]
                if not 1 <= number <= 48 or not 0 <= code < PLACEMENTS:
                    raise IndexError(f"placement ({number}, {code}) out of range")
                t1 = self.squares[number][0]
                c1 = self.squares[number][1]
                t2 = self.squares[number][2]
                c2 = self.squares[number][3]
                g1 = self.placements[code][0]
                g2 = self.placements[code][1]
                for seat in range(n):
                    base = self.o_grids + _rel(q, seat, n) * PLANES * GRID
                    self.view[seat, base + t1 * GRID + g1] = 1
                    self.view[seat, base + t2 * GRID + g2] = 1
                    if c1:
                        self.view[seat, base + 7 * GRID + g1] = c1
                    if c2:
                        self.view[seat, base + 7 * GRID + g2] = c2
            self.done[q] = placed_n
            discarded = len(b.discarded if cb is None else cb.discarded)
            key = 64 * placed_n + discarded
            if self.keys[q] != key:
                score = st.score(q)
                past = 0
                for g in st.past:
                    past += g[q][0]
                crowns = b.total_crowns() if cb is None else cb.total_crowns()
                self.stats[q][0] = score
                self.stats[q][1] = crowns
                self.stats[q][2] = discarded
                self.stats[q][3] = past + score
                self.keys[q] = key
        return 0

    cdef inline void _domino(self, short* out, long d):
        cdef int j
        if 0 <= d <= 48:
            for j in range(FEATURES):
                out[j] = self.dominoes[d][j]

    cdef int _unseen_flags(self, list pile, list aside) except -1:
        """The unseen dominoes' flags from the undrawn pile and the set-aside list
        (checked before anything is kept)."""
        cdef short flags[48]
        cdef list part
        cdef Py_ssize_t j
        cdef long d
        memset(flags, 0, sizeof(flags))
        for part in (pile, aside):
            for j in range(len(part)):
                d = _item(part, j)
                if not 1 <= d <= 48:
                    raise IndexError(f"domino {d} out of range")
                flags[d - 1] = 1
        memcpy(self.unseen, flags, sizeof(flags))
        self.pile_kept = pile
        self.aside_kept = aside
        self.pile_len = len(pile)
        self.unseen_gen += 1
        return 0

    cdef int _write(self, object st, int seat) except -1:
        cdef int n = self.players
        cdef int L = self.line
        cdef int i, r, q, k, m, drawn, done, base
        cdef long d
        if not 0 <= seat < n:
            raise IndexError(f"seat {seat} out of range")
        cdef tuple fs = self.fields(st)
        if len(fs) != 18:
            raise ValueError(f"{len(fs)} fields, 18 expected")
        self._sync(st, fs[17])
        cdef short* out = &self.view[seat, 0]
        # everything before the grids is cleared but the unseen block (kept, below)
        memset(out, 0, self.o_unseen * sizeof(short))
        memset(&out[self.o_unseen + 48], 0, (self.o_grids - self.o_unseen - 48) * sizeof(short))
        out[0] = 1
        cdef int phase = fs[0]
        cdef bint acting = phase == self.place or phase == self.choose
        out[self.o_phase + phase] = 1
        out[self.o_round] = <int>fs[1] + 1
        out[self.o_game] = <int>fs[2] + 1
        out[self.o_variants] = 1 if fs[3] else 0
        out[self.o_variants + 1] = 1 if fs[4] else 0
        out[self.o_variants + 2] = 1 if fs[5] else 0
        out[self.o_variants + 3] = 1 if fs[6] else 0
        cdef int to_move = fs[7]
        if to_move >= 0:
            out[self.o_to_move + _rel(to_move, seat, n)] = 1
        cdef int pick_pos = fs[8]
        cdef list order = fs[9]
        drawn = pick_pos + 1 if phase == self.first_picks else len(order)
        m = min(drawn, L, len(order))
        for i in range(m):
            q = _item(order, i)
            out[self.o_pick_order + i * n + _rel(q, seat, n)] = 1
        out[self.o_picks_made] = pick_pos
        cdef list current = fs[10]
        cdef list kings = fs[11]
        cdef int slot = fs[12]
        if acting:
            if not 0 <= slot < min(L, len(current)):
                raise IndexError(f"slot {slot} out of range")
            self._domino(&out[self.o_acting], _item(current, slot))
        for i in range(min(L, len(current))):
            self._domino(&out[self.o_current + i * self.slot], _item(current, i))
        for i in range(min(L, len(kings))):
            k = _item(kings, i)
            if k >= 0:
                out[self.o_current + i * self.slot + FEATURES + _rel(k, seat, n)] = 1
        if acting:
            done = min(slot + (1 if phase == self.choose else 0), L)
            for i in range(done):
                out[self.o_current + i * self.slot + FEATURES + n] = 1
            out[self.o_current + slot * self.slot + FEATURES + n + 1] = 1
        cdef list following = fs[13]
        kings = fs[14]
        for i in range(min(L, len(following))):
            self._domino(&out[self.o_next + i * self.slot], _item(following, i))
        for i in range(min(L, len(kings))):
            k = _item(kings, i)
            if k >= 0:
                out[self.o_next + i * self.slot + FEATURES + _rel(k, seat, n)] = 1
        cdef list pile = fs[15]
        cdef list aside = fs[16]
        if (
            pile is not self.pile_kept
            or len(pile) != self.pile_len
            or aside is not self.aside_kept
        ):
            self._unseen_flags(pile, aside)
        if self.seat_gen[seat] != self.unseen_gen:
            memcpy(&out[self.o_unseen], self.unseen, 48 * sizeof(short))
            self.seat_gen[seat] = self.unseen_gen
        for r in range(n):
            q = (seat + r) % n
            base = self.o_stats + 4 * r
            for i in range(4):
                out[base + i] = <short>self.stats[q][i]
        return 0

    def encode(self, st, int seat):
        """The seat's vector (a copy: the learner's to keep)."""
        self._write(st, seat)
        return fresh_copy(self.rows[seat])

    def buffer(self, st, int seat):
        """The seat's vector in its own buffer (not a copy: rewritten next call)."""
        self._write(st, seat)
        return self.data[seat]

    def fill(self, st, int seat, target):
        """The seat's vector written into the start of ``target``, a writable
        contiguous float32 array (OpenSpiel's observer tensor), through the seat's
        buffer: no array made.  A wrong or short target is refused, unchanged."""
        self._write(st, seat)
        fill_floats(self.rows[seat], target)
