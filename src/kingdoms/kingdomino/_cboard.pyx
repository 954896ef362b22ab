# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""A kingdom as C arrays: the compiled twin of :class:`kingdoms.kingdomino.board.Board`.

Same cells, placement codes, methods and results as the pure-Python board (which
stays the reference: the tests play the two side by side).  Cell ``(x, y)`` of the
13×13 grid is ``y * 14 + x``; the arrays carry one empty row above and below and
the empty padding column, so neighbours need no bounds checks.
"""

from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_GET_SIZE
from cpython.list cimport PyList_GET_ITEM, PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_New, PyTuple_SET_ITEM
from libc.string cimport memset

cdef extern from *:
    int __builtin_ctz(unsigned int) nogil

from kingdoms.kingdomino.tiles import TILES

DEF SIDE = 13
DEF W = 14
DEF CELLS = 182
DEF PAD = 14
DEF SIZE = 210
DEF CENTRE = 6
DEF CASTLE_CELL = 90
DEF EMPTY = 255
DEF CASTLE = 6

# The state's action codes and phases (kingdoms.kingdomino.state; a test checks them).
DEF DISCARD = 728  # 4 * CELLS
DEF PICK = 729
DEF FIRST_PICKS = 0
DEF PLACE = 1
DEF CHOOSE = 2
DEF OVER = 3
DEF MAXACTIONS = 64  # mark_actions' actions (the picks: at most 4)
DEF MAXLINE = 8  # kings in a line: at most 4 (2 players with 2 kings each, or 4 players)

CODES = {
    "DISCARD": DISCARD,
    "PICK": PICK,
    "FIRST_PICKS": FIRST_PICKS,
    "PLACE": PLACE,
    "CHOOSE": CHOOSE,
    "OVER": OVER,
}
"""The state's codes as compiled in here (a test holds them to the state's)."""

cdef tuple CODE_INTS = tuple(range(4 * CELLS))


def mark_actions(bytearray mask not None, list actions not None):
    """``mask`` rewritten whole — zeros, then 1 at each of ``actions`` — and
    ``actions`` returned as a tuple in increasing order; an action outside the mask
    is refused (ValueError, the mask unchanged).  For a few actions (the picks)."""
    cdef Py_ssize_t size = PyByteArray_GET_SIZE(mask), n = len(actions), i, j
    cdef long codes[MAXACTIONS]
    cdef long a
    cdef char* buf
    cdef tuple out
    cdef object item
    if n > MAXACTIONS:
        raise ValueError(f"{n} actions, at most {MAXACTIONS}")
    for i in range(n):
        a = <object>PyList_GET_ITEM(actions, i)
        if not 0 <= a < size:
            raise ValueError(f"action {a} outside a mask of {size} bytes")
        j = i
        while j > 0 and codes[j - 1] > a:  # insertion sort: a handful of actions
            codes[j] = codes[j - 1]
            j -= 1
        codes[j] = a
    buf = PyByteArray_AS_STRING(mask)
    memset(buf, 0, size)
    out = PyTuple_New(n)
    for i in range(n):
        buf[codes[i]] = 1
        item = codes[i]
        Py_INCREF(item)
        PyTuple_SET_ITEM(out, i, item)
    return out
cdef object ONE = 1  # a Python int: bitmasks of 182 cells overflow C integers
cdef int OFF[4]
OFF[:] = [1, W, -1, -W]
cdef int DX[4]
DX[:] = [1, 0, -1, 0]
cdef int DY[4]
DY[:] = [0, 1, 0, -1]

# Scratch space of the flood fills, shared by every board (the fills hold the GIL and
# call nothing that could start another one), so boards stay small.
cdef unsigned char SEEN[SIZE]
cdef int STACK[SIZE]

cdef unsigned char LT[49]
cdef unsigned char LC[49]
cdef unsigned char RT[49]
cdef unsigned char RC[49]
for _n, _d in TILES.items():
    LT[_n] = _d.left[0]
    LC[_n] = _d.left[1]
    RT[_n] = _d.right[0]
    RC[_n] = _d.right[1]


cdef class CBoard:
    """A kingdom: castle, placed squares, discards; ``size`` is 5 or 7."""

    # (its fields and C methods are declared in _cboard.pxd)

    def __init__(self, int size=5):
        cdef int i, t
        self.size = size
        for i in range(SIZE):
            self.ter[i] = EMPTY
            self.crw[i] = 0
        for i in range(SIDE + 2):
            self.occr[i] = 0
            for t in range(6):
                self.adjr[t][i] = 0
        self.ter[CASTLE_CELL + PAD] = CASTLE
        self.occr[CENTRE + 1] = 1u << CENTRE
        for t in range(6):
            self._touch(t, CENTRE, CENTRE)
        self.minx = self.maxx = self.miny = self.maxy = CENTRE
        self.placed = []
        self.discarded = []
        self._score_ok = False
        for i in range(6):
            self._tscore[i] = -1

    def __reduce__(self):
        return (_rebuild, (self.size, self.placed, self.discarded))

    cpdef CBoard copy(self):
        cdef CBoard b = CBoard.__new__(CBoard)
        b.ter = self.ter
        b.crw = self.crw
        b.occr = self.occr
        b.adjr = self.adjr
        b.size = self.size
        b.minx = self.minx
        b.maxx = self.maxx
        b.miny = self.miny
        b.maxy = self.maxy
        b.placed = list(self.placed)
        b.discarded = list(self.discarded)
        b._total = self._total
        b._largest = self._largest
        b._crowns = self._crowns
        b._score_ok = self._score_ok
        b._tscore = self._tscore
        return b

    # -- placement ------------------------------------------------------------------
    cdef void _touch(self, int t, int x, int y) noexcept:
        """Mark the grid neighbours of ``(x, y)`` as next to terrain ``t``."""
        cdef unsigned short* rows = self.adjr[t]
        cdef unsigned int side = 1u << x
        if x > 0:
            side |= 1u << (x - 1)
        if x < SIDE - 1:
            side |= 1u << (x + 1)
        side &= ~(1u << x)
        rows[y + 1] |= side
        if y > 0:
            rows[y] |= 1u << x
        if y < SIDE - 1:
            rows[y + 2] |= 1u << x

    cdef void _window(self, int* box) noexcept:
        cdef int n1 = self.size - 1
        box[0] = self.maxx - n1 if self.maxx - n1 > 0 else 0
        box[1] = self.minx + n1 if self.minx + n1 < SIDE - 1 else SIDE - 1
        box[2] = self.maxy - n1 if self.maxy - n1 > 0 else 0
        box[3] = self.miny + n1 if self.miny + n1 < SIDE - 1 else SIDE - 1

    cdef int _placements(self, int number, int* out, bint first_only) noexcept:
        """The legal placement codes of domino ``number`` into ``out`` (direction, then
        cell: the order of the pure board's list); returns how many.  Per row, bit ``x``
        of ``allowed`` is an empty cell inside the size limit, and a domino whose right
        square lies towards ``d`` fits on the left square ``x`` when both cells are
        allowed and one square touches its terrain (or the castle)."""
        cdef int box[4]
        cdef unsigned int allowed[SIDE + 2]
        cdef unsigned int conn, low, xmask
        cdef unsigned short* a1 = self.adjr[LT[number]]
        cdef unsigned short* a2 = self.adjr[RT[number]]
        cdef int d, y, n = 0, dirs, base
        self._window(box)
        xmask = ((1u << (box[1] + 1)) - 1) & ~((1u << box[0]) - 1)
        for y in range(SIDE + 2):
            allowed[y] = 0
        for y in range(box[2] + 1, box[3] + 2):
            allowed[y] = ~self.occr[y] & xmask
        dirs = 2 if (LT[number] == RT[number] and LC[number] == RC[number]) else 4
        for d in range(dirs):
            for y in range(box[2] + 1, box[3] + 2):
                if d == 0:
                    conn = allowed[y] & (allowed[y] >> 1) & (a1[y] | (a2[y] >> 1))
                elif d == 1:
                    conn = allowed[y] & allowed[y + 1] & (a1[y] | a2[y + 1])
                elif d == 2:
                    conn = allowed[y] & (allowed[y] << 1) & (a1[y] | (a2[y] << 1))
                else:
                    conn = allowed[y] & allowed[y - 1] & (a1[y] | a2[y - 1])
                base = d * CELLS + (y - 1) * W
                while conn:
                    low = conn & (~conn + 1)
                    out[n] = base + __builtin_ctz(low)
                    n += 1
                    if first_only:
                        return n
                    conn ^= low
        return n

    def allowed(self):
        """Empty cells a square may go on without breaking the size limit (a bitmask)."""
        cdef int box[4]
        cdef int x, y
        self._window(box)
        m = 0
        for y in range(box[2], box[3] + 1):
            for x in range(box[0], box[1] + 1):
                if self.ter[y * W + x + PAD] == EMPTY:
                    m |= ONE << (y * W + x)
        return m

    cpdef list legal_placements(self, domino):
        """Every legal placement code of ``domino`` (a double's turned copies once)."""
        cdef int out[4 * SIDE * SIDE]
        cdef int n = self._placements(domino.number, out, False), i
        cdef list legal = PyList_New(n)
        cdef object code
        for i in range(n):  # the codes' int objects are made once (most are above 256)
            code = <object>PyTuple_GET_ITEM(CODE_INTS, out[i])
            Py_INCREF(code)
            PyList_SET_ITEM(legal, i, code)
        return legal

    def mark_placements(self, domino, bytearray mask not None):
        """Set ``mask[code]`` to 1 for every legal placement code of ``domino``, written
        in C into the bytearray's buffer; returns how many (see the pure board)."""
        cdef int out[4 * SIDE * SIDE]
        cdef int i, n
        cdef char* buf
        if PyByteArray_GET_SIZE(mask) < 4 * CELLS:
            raise ValueError(f"a placement mask needs {4 * CELLS} bytes, not {len(mask)}")
        n = self._placements(domino.number, out, False)
        buf = PyByteArray_AS_STRING(mask)
        for i in range(n):
            buf[out[i]] = 1
        return n

    def mark_legal(self, domino, bytearray mask not None):
        """The mask rewritten whole for ``domino``'s turn: zeros, then 1 at every legal
        placement code; returns those codes as a tuple, in increasing order (as
        :meth:`legal_placements` lists them; empty when none fits).  One C pass for
        both the mask and the codes (see the pure board)."""
        cdef int out[4 * SIDE * SIDE]
        cdef int i, n, code
        cdef char* buf
        cdef Py_ssize_t size = PyByteArray_GET_SIZE(mask)
        cdef tuple legal
        cdef object item
        if size < 4 * CELLS:
            raise ValueError(f"a placement mask needs {4 * CELLS} bytes, not {size}")
        n = self._placements(domino.number, out, False)
        buf = PyByteArray_AS_STRING(mask)
        memset(buf, 0, size)
        legal = PyTuple_New(n)
        for i in range(n):  # the codes' int objects are made once (most are above 256)
            code = out[i]
            buf[code] = 1
            item = <object>PyTuple_GET_ITEM(CODE_INTS, code)
            Py_INCREF(item)
            PyTuple_SET_ITEM(legal, i, item)
        return legal

    def can_place(self, domino):
        cdef int out[4 * SIDE * SIDE]
        return self._placements(domino.number, out, True) > 0

    cdef void _put(self, int cell, int t, int c) noexcept:
        cdef int x = cell % W, y = cell // W
        self.ter[cell + PAD] = t
        self.crw[cell + PAD] = c
        self.occr[y + 1] |= 1u << x
        self._touch(t, x, y)
        if x < self.minx:
            self.minx = x
        elif x > self.maxx:
            self.maxx = x
        if y < self.miny:
            self.miny = y
        elif y > self.maxy:
            self.maxy = y

    cpdef place(self, domino, int code):
        """Write a legal placement into the kingdom (no checks)."""
        self._place(domino.number, code)

    cdef void _place(self, int number, int code) except *:
        cdef int d = code // CELLS, a = code % CELLS
        self._put(a, LT[number], LC[number])
        self._put(a + OFF[d], RT[number], RC[number])
        self.placed.append((number, code))
        self._score_ok = False
        self._tscore[LT[number]] = -1
        self._tscore[RT[number]] = -1

    def discard(self, int number):
        self.discarded.append(number)

    # -- reading it -------------------------------------------------------------------
    @property
    def occ(self):
        """Occupied cells as a bitmask (as the pure board keeps them)."""
        m = 0
        cdef int cell
        for cell in range(CELLS):
            if self.ter[cell + PAD] != EMPTY:
                m |= ONE << cell
        return m

    def square(self, int cell):
        """(terrain, crowns) of a cell, ``(CASTLE, 0)`` for the castle, None if empty."""
        if cell < 0 or cell >= CELLS or self.ter[cell + PAD] == EMPTY:
            return None
        return (self.ter[cell + PAD], self.crw[cell + PAD])

    def cells(self):
        """Every occupied cell as castle-relative ``(x, y, terrain, crowns)``."""
        cdef int cell
        out = []
        for cell in range(CELLS):
            if self.ter[cell + PAD] != EMPTY:
                out.append(
                    (cell % W - CENTRE, cell // W - CENTRE, self.ter[cell + PAD], self.crw[cell + PAD])
                )
        return out

    cdef void _fill(self, int start, int t, int* size, int* crowns) noexcept:
        """Flood-fill the property of terrain ``t`` holding ``start`` (marks ``SEEN``)."""
        cdef int top = 0, cell, nb, k, s = 0, c = 0
        STACK[0] = start
        SEEN[start + PAD] = 1
        top = 1
        while top:
            top -= 1
            cell = STACK[top]
            s += 1
            c += self.crw[cell + PAD]
            for k in range(4):
                nb = cell + OFF[k]
                if self.ter[nb + PAD] == t and not SEEN[nb + PAD]:
                    SEEN[nb + PAD] = 1
                    STACK[top] = nb
                    top += 1
        size[0] = s
        crowns[0] = c

    cdef int _terrain_points(self, int t) noexcept:
        cdef int cell, s, c, total = 0
        for cell in range(SIZE):
            SEEN[cell] = 0
        for cell in range(CELLS):
            if self.ter[cell + PAD] == t and not SEEN[cell + PAD]:
                self._fill(cell, t, &s, &c)
                total += s * c
        return total

    def properties(self):
        """Every property as ``(terrain, squares, crowns)``."""
        cdef int t, cell, s, c
        out = []
        for cell in range(SIZE):
            SEEN[cell] = 0
        for t in range(6):
            for cell in range(CELLS):
                if self.ter[cell + PAD] == t and not SEEN[cell + PAD]:
                    self._fill(cell, t, &s, &c)
                    out.append((t, s, c))
        return out

    cdef void _scores(self) noexcept:
        cdef int t, cell, s, c, total = 0, largest = 0, crowns = 0
        if self._score_ok:
            return
        for cell in range(SIZE):
            SEEN[cell] = 0
        for cell in range(CELLS):
            t = self.ter[cell + PAD]
            if t < 6 and not SEEN[cell + PAD]:
                self._fill(cell, t, &s, &c)
                total += s * c
                crowns += c
                if s > largest:
                    largest = s
        self._total = total
        self._largest = largest
        self._crowns = crowns
        self._score_ok = True

    @property
    def _score(self):
        """(points, largest property, crowns) when known, as the pure board caches them."""
        return (self._total, self._largest, self._crowns) if self._score_ok else None

    @_score.setter
    def _score(self, value):
        if value is None:
            self._score_ok = False
        else:
            self._total, self._largest, self._crowns = value
            self._score_ok = True

    cpdef int property_score(self):
        """Sum over properties of squares × crowns (no variant bonus)."""
        self._scores()
        return self._total

    cpdef int largest_property(self):
        self._scores()
        return self._largest

    cpdef int total_crowns(self):
        self._scores()
        return self._crowns

    # -- evaluating a placement without making it (bots) ---------------------------------
    cpdef int terrain_score(self, int t):
        """Points of the properties of terrain ``t``."""
        if self._tscore[t] < 0:
            self._tscore[t] = self._terrain_points(t)
        return self._tscore[t]

    cpdef int gain(self, domino, int code):
        """How many property points placing ``domino`` by ``code`` would add."""
        cdef int number = domino.number
        cdef int a = code % CELLS
        cdef int b = a + OFF[code // CELLS]
        cdef int t1 = LT[number], t2 = RT[number], before, after
        before = self.terrain_score(t1)
        if t2 != t1:
            before += self.terrain_score(t2)
        self.ter[a + PAD] = t1
        self.crw[a + PAD] = LC[number]
        self.ter[b + PAD] = t2
        self.crw[b + PAD] = RC[number]
        after = self._terrain_points(t1)
        if t2 != t1:
            after += self._terrain_points(t2)
        self.ter[a + PAD] = EMPTY
        self.crw[a + PAD] = 0
        self.ter[b + PAD] = EMPTY
        self.crw[b + PAD] = 0
        return after - before

    cdef int _holes(self, int* box, int a, int b) noexcept:
        """Allowed cells (in ``box``, empty, not ``a`` or ``b``) with no allowed neighbour."""
        cdef int x, y, k, cell, nb, nx, ny, holes = 0
        cdef bint free
        for y in range(box[2], box[3] + 1):
            for x in range(box[0], box[1] + 1):
                cell = y * W + x
                if self.ter[cell + PAD] != EMPTY or cell == a or cell == b:
                    continue
                free = False
                for k in range(4):
                    nx = x + DX[k]
                    ny = y + DY[k]
                    if nx < box[0] or nx > box[1] or ny < box[2] or ny > box[3]:
                        continue
                    nb = cell + OFF[k]
                    if self.ter[nb + PAD] == EMPTY and nb != a and nb != b:
                        free = True
                        break
                if not free:
                    holes += 1
        return holes

    def holes_after(self, int code):
        """:meth:`holes` as it would be after the placement ``code`` (not made)."""
        cdef int a = code % CELLS
        cdef int b = a + OFF[code // CELLS]
        cdef int ax = a % W, bx = b % W, ay = a // W, by = b // W
        cdef int minx = min(self.minx, ax, bx), maxx = max(self.maxx, ax, bx)
        cdef int miny = min(self.miny, ay, by), maxy = max(self.maxy, ay, by)
        cdef int n1 = self.size - 1
        cdef int box[4]
        box[0] = max(0, maxx - n1)
        box[1] = min(SIDE - 1, minx + n1)
        box[2] = max(0, maxy - n1)
        box[3] = min(SIDE - 1, miny + n1)
        return self._holes(box, a, b)

    def keeps_middle(self, int code):
        """Whether the placement ``code`` keeps every square in the window centred on
        the castle (the Middle Kingdom's default rule)."""
        cdef int h = (self.size - 1) // 2
        cdef int a = code % CELLS
        cdef int b = a + OFF[code // CELLS]
        for cell in (a, b):
            if abs(cell % W - CENTRE) > h or abs(cell // W - CENTRE) > h:
                return False
        return True

    def holes(self):
        """Empty cells that can still be part of the kingdom but that no domino
        can ever cover (no neighbour that can be covered either)."""
        cdef int box[4]
        self._window(box)
        return self._holes(box, -1, -1)

    def is_middle(self, rule="window"):
        """Middle Kingdom: ``window`` or ``bbox`` (see the pure board)."""
        cdef int h = (self.size - 1) // 2
        if rule == "bbox":
            return self.minx + self.maxx == 2 * CENTRE and self.miny + self.maxy == 2 * CENTRE
        return (
            self.minx >= CENTRE - h
            and self.maxx <= CENTRE + h
            and self.miny >= CENTRE - h
            and self.maxy <= CENTRE + h
        )

    def is_complete(self):
        """Harmony: a filled size×size square and no domino discarded."""
        return not self.discarded and 1 + 2 * len(self.placed) == self.size * self.size

    def snapshot(self):
        return {
            "size": self.size,
            "placed": [list(p) for p in self.placed],
            "discarded": list(self.discarded),
        }


cdef int _load(list values, int* out, int limit) except -1:
    """Copy a list of ints into ``out`` (at most ``limit``); returns how many."""
    cdef Py_ssize_t n = len(values), i
    if n > limit:
        raise ValueError(f"{n} values where at most {limit} fit")
    for i in range(n):
        out[i] = values[i]
    return <int>n


cdef list _store(int* values, int n):
    return [values[i] for i in range(n)]


cdef int _draw(int* pile, int* npile, int k, int* line) noexcept:
    """The next line: the last ``k`` dominoes of the pile, sorted (none when fewer are
    left), as ``KingdominoState._draw``; returns its length."""
    cdef int i, j, v
    if npile[0] < k:
        return 0
    npile[0] -= k
    for i in range(k):
        v = pile[npile[0] + i]
        j = i
        while j > 0 and line[j - 1] > v:
            line[j] = line[j - 1]
            j -= 1
        line[j] = v
    return k


def random_playout(state, rng):
    """Play a Kingdomino state to the end with uniformly random actions, in C: the
    same games as ``KingdominoState.random_playout`` (the reference), which plays
    ``legal[int(rng.random() * len(legal))]`` from ``rng`` at every step, with the
    legal actions in the order of ``legal_actions()``; the actions go onto the
    state's history.  For states whose logging is off and whose boards are
    :class:`CBoard`; the end of a game goes through ``state._finish_game()`` (a
    Dynasty deals its next game there)."""
    cdef int phase, slot, pick_pos, rnd_no, k, ncur, nnxt, npile, i, n, action
    cdef int owner, number
    cdef bint finished
    cdef double r
    cdef int cur[MAXLINE]
    cdef int curk[MAXLINE]
    cdef int nxt[MAXLINE]
    cdef int nxtk[MAXLINE]
    cdef int order[MAXLINE]
    cdef int pile[48]
    cdef int out[4 * SIDE * SIDE]
    cdef CBoard board
    cdef list boards, history, discarded
    rnd = rng.random
    history = state.history
    while state.phase != OVER:
        boards = state.boards
        for board in boards:  # a typed loop variable: raises unless every board is a CBoard
            pass
        phase = state.phase
        slot = state.slot
        pick_pos = state.pick_pos
        rnd_no = state.round
        k = _load(state.pick_order, order, MAXLINE)
        ncur = _load(state.current, cur, MAXLINE)
        if _load(state.current_kings, curk, MAXLINE) != ncur:
            raise ValueError("a line and its kings differ in length")
        nnxt = _load(state.next, nxt, MAXLINE)
        if _load(state.next_kings, nxtk, MAXLINE) != nnxt:
            raise ValueError("a line and its kings differ in length")
        npile = _load(state.pile, pile, 48)
        finished = False
        while True:
            if phase == PLACE:
                owner = curk[slot]
                number = cur[slot]
                board = <CBoard>boards[owner]
                n = board._placements(number, out, False)
                r = rnd()
                if n:
                    action = out[<int>(r * n)]
                    board._place(number, action)
                else:
                    action = DISCARD
                    board.discarded.append(number)
                history.append(action)
                if nnxt:
                    phase = CHOOSE
                    continue
            elif phase == CHOOSE:
                n = 0
                for i in range(nnxt):
                    if nxtk[i] < 0:
                        out[n] = i
                        n += 1
                if n == 0:
                    raise ValueError("no free domino to pick")
                r = rnd()
                i = out[<int>(r * n)]
                history.append(PICK + nxt[i])
                nxtk[i] = curk[slot]
            elif phase == FIRST_PICKS:
                n = 0
                for i in range(ncur):
                    if curk[i] < 0:
                        out[n] = i
                        n += 1
                if n == 0 or pick_pos >= k:
                    raise ValueError("no free domino to pick")
                r = rnd()
                i = out[<int>(r * n)]
                history.append(PICK + cur[i])
                curk[i] = order[pick_pos]
                pick_pos += 1
                if pick_pos == k:
                    nnxt = _draw(pile, &npile, k, nxt)
                    for i in range(nnxt):
                        nxtk[i] = -1
                    phase = PLACE
                    slot = 0
                continue
            else:
                raise ValueError(f"no phase {phase}")
            # the acting king is done (KingdominoState._after_turn)
            slot += 1
            if slot < ncur:
                phase = PLACE
                continue
            if nnxt == 0:
                finished = True
                break
            for i in range(nnxt):
                cur[i] = nxt[i]
                curk[i] = nxtk[i]
            ncur = nnxt
            nnxt = _draw(pile, &npile, k, nxt)
            for i in range(nnxt):
                nxtk[i] = -1
            slot = 0
            rnd_no += 1
            phase = PLACE
        state.phase = phase
        state.slot = slot
        state.pick_pos = pick_pos
        state.round = rnd_no
        state.current = _store(cur, ncur)
        state.current_kings = _store(curk, ncur)
        state.next = _store(nxt, nnxt)
        state.next_kings = _store(nxtk, nnxt)
        state.pile = _store(pile, npile)
        state._legal = None
        if finished:
            state._finish_game()


def _rebuild(size, placed, discarded):
    b = CBoard(size)
    for number, code in placed:
        b.place(TILES[number], code)
    b.discarded = list(discarded)
    return b
