"""One player's kingdom as bitmasks: placement rules, move generation and scoring.

The kingdom lives on a 13×13 grid with the castle in the middle cell (6, 6), which
holds any kingdom of up to 7×7 wherever the castle ends up in it.  Cell
``(x, y)`` is bit ``y * W + x`` of Python ints, with ``W = 14``: one always-empty
padding column keeps left/right shifts from wrapping round a row.  With that
layout the placement test for *every* cell at once is a handful of integer
operations:

* ``adj[t]`` — cells next to a square of terrain ``t`` or to the castle (where a
  square of terrain ``t`` connects);
* the cells allowed by the bounding-box limit are a rectangle, the intersection
  of a column band and a row band (precomputed masks);
* a domino placed with its left square on ``a`` and its right square on
  ``a + OFF[d]`` is legal when both cells are empty and allowed, and the left
  square connects at ``a`` or the right square connects at ``a + OFF[d]``.

Placements are coded ``d * CELLS + a``: direction ``d`` (0 right, 1 down,
2 left, 3 up) of the right square as seen from the left square on cell ``a``.
Properties are found by flood fills on the terrain masks.
"""

from __future__ import annotations

import importlib
from typing import Any, Final

from kingdoms.kingdomino.tiles import CASTLE, Domino

SIDE: Final = 13
W: Final = SIDE + 1
CELLS: Final = SIDE * W
CENTRE: Final = 6
CASTLE_CELL: Final = CENTRE * W + CENTRE
OFF: Final = (1, W, -1, -W)
DIRECTIONS: Final = ("right", "down", "left", "up")

FULL: Final = sum(1 << (y * W + x) for y in range(SIDE) for x in range(SIDE))


def _band_masks(columns: bool) -> list[list[int]]:
    out = [[0] * SIDE for _ in range(SIDE)]
    for lo in range(SIDE):
        for hi in range(lo, SIDE):
            m = 0
            for k in range(lo, hi + 1):
                for j in range(SIDE):
                    x, y = (k, j) if columns else (j, k)
                    m |= 1 << (y * W + x)
            out[lo][hi] = m
    return out


XBAND: Final = _band_masks(True)
YBAND: Final = _band_masks(False)


def _neighbours(cell: int) -> int:
    x, y = cell % W, cell // W
    m = 0
    for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
        if 0 <= nx < SIDE and 0 <= ny < SIDE:
            m |= 1 << (ny * W + nx)
    return m


NBR: Final = [_neighbours(c) if c % W < SIDE else 0 for c in range(CELLS)]


def xy(cell: int) -> tuple[int, int]:
    """Castle-relative coordinates of a cell (the castle is (0, 0); y grows downwards)."""
    return cell % W - CENTRE, cell // W - CENTRE


def cell_at(x: int, y: int) -> int:
    """The cell at castle-relative ``(x, y)``; ``ValueError`` outside the grid."""
    if not (-CENTRE <= x <= CENTRE and -CENTRE <= y <= CENTRE):
        raise ValueError(f"({x}, {y}) is outside every possible kingdom")
    return (y + CENTRE) * W + x + CENTRE


def placement_cells(code: int) -> tuple[int, int]:
    """The (left, right) cells of a placement code."""
    d, a = divmod(code, CELLS)
    return a, a + OFF[d]


def canonical_placement(domino: Domino, code: int) -> int:
    """The code :meth:`Board.legal_placements` names the placement ``code`` of
    ``domino`` by: a double (two identical squares) lies the same pointing left or up
    from one square as pointing right or down from the other, and only the right and
    down forms are listed; any other code is returned as it is.

    >>> from kingdoms.kingdomino.tiles import TILES
    >>> double = next(d for d in TILES.values() if d.is_double)
    >>> left = 2 * CELLS + cell_at(0, 1)  # left square on (0, 1), the other on (-1, 1)
    >>> canonical_placement(double, left) == cell_at(-1, 1)  # pointing right from (-1, 1)
    True
    """
    if not domino.is_double:
        return code
    d, a = divmod(code, CELLS)
    if d < 2 or d > 3 or not 0 <= a + OFF[d] < CELLS:
        return code
    return (d - 2) * CELLS + a + OFF[d]


def _bits(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def _regions(m: int, crown: list[int]) -> list[tuple[int, int]]:
    """The properties of the terrain mask ``m`` (flood fills) as ``(squares, crowns)``,
    with ``crown`` the masks of the squares with 1, 2 and 3 crowns."""
    c1, c2, c3 = crown
    out = []
    while m:
        region = m & -m
        while True:
            grow = (region | region << 1 | region >> 1 | region << W | region >> W) & m
            if grow == region:
                break
            region = grow
        m ^= region
        crowns = (
            (region & c1).bit_count()
            + 2 * (region & c2).bit_count()
            + 3 * (region & c3).bit_count()
        )
        out.append((region.bit_count(), crowns))
    return out


def _terrain_score(m: int, crown: list[int]) -> int:
    total = 0
    for squares, crowns in _regions(m, crown):
        total += squares * crowns
    return total


def _allowed(occ: int, box: tuple[int, int, int, int], size: int) -> int:
    """Empty cells (not in ``occ``) a square may go on when the squares cover the
    bounding box ``box`` = (minx, maxx, miny, maxy) and the kingdom is size×size."""
    minx, maxx, miny, maxy = box
    n1 = size - 1
    xlo, xhi = max(0, maxx - n1), min(SIDE - 1, minx + n1)
    ylo, yhi = max(0, maxy - n1), min(SIDE - 1, miny + n1)
    return FULL & ~occ & XBAND[xlo][xhi] & YBAND[ylo][yhi]


def _unreachable(allowed: int) -> int:
    """How many of the ``allowed`` cells have no allowed neighbour (no domino fits)."""
    reach = allowed << 1 | allowed >> 1 | allowed << W | allowed >> W
    return (allowed & ~reach).bit_count()


class Board:
    """A kingdom: castle, placed squares, discards; ``size`` is 5 or 7."""

    __slots__ = (
        "_score",
        "_tscore",
        "adj",
        "crown",
        "discarded",
        "maxx",
        "maxy",
        "minx",
        "miny",
        "occ",
        "placed",
        "size",
        "terrain",
    )

    def __init__(self, size: int = 5) -> None:
        self.size = size
        self.occ = 1 << CASTLE_CELL
        self.terrain = [0] * 6
        self.crown = [0, 0, 0]
        self.adj = [NBR[CASTLE_CELL]] * 6
        self.minx = self.maxx = self.miny = self.maxy = CENTRE
        self.discarded: list[int] = []
        self.placed: list[tuple[int, int]] = []
        """(domino number, placement code) in the order placed."""
        self._score: tuple[int, int, int] | None = None
        self._tscore: list[int] = [-1] * 6
        """Points per terrain, -1 when not yet known (bots' move evaluation)."""

    def copy(self) -> Board:
        b = Board.__new__(Board)
        b.size = self.size
        b.occ = self.occ
        b.terrain = self.terrain.copy()
        b.crown = self.crown.copy()
        b.adj = self.adj.copy()
        b.minx, b.maxx, b.miny, b.maxy = self.minx, self.maxx, self.miny, self.maxy
        b.discarded = self.discarded.copy()
        b.placed = self.placed.copy()
        b._score = self._score
        b._tscore = self._tscore.copy()
        return b

    # -- placement ------------------------------------------------------------------
    def allowed(self) -> int:
        """Empty cells a square may go on without breaking the size limit."""
        return _allowed(self.occ, (self.minx, self.maxx, self.miny, self.maxy), self.size)

    def _box_with(self, a: int, b: int) -> tuple[int, int, int, int]:
        """The bounding box (minx, maxx, miny, maxy) once cells ``a`` and ``b`` are
        covered too."""
        ax, bx, ay, by = a % W, b % W, a // W, b // W
        return (
            min(self.minx, ax, bx),
            max(self.maxx, ax, bx),
            min(self.miny, ay, by),
            max(self.maxy, ay, by),
        )

    def _connections(self, domino: Domino) -> list[tuple[int, int]]:
        """Per direction of ``domino``'s right square (a double's turned copies once):
        the first code of that direction and the bitmask of the cells where its left
        square may go."""
        allowed = self.allowed()
        a1 = self.adj[domino.left[0]]
        a2 = self.adj[domino.right[0]]
        out: list[tuple[int, int]] = []
        for d in (0, 1) if domino.is_double else (0, 1, 2, 3):
            off = OFF[d]
            if off > 0:
                conn = allowed & (allowed >> off) & (a1 | (a2 >> off))
            else:
                conn = allowed & (allowed << -off) & (a1 | (a2 << -off))
            out.append((d * CELLS, conn))
        return out

    def legal_placements(self, domino: Domino) -> list[int]:
        """Every legal placement code of ``domino`` (a double's turned copies once)."""
        out: list[int] = []
        for base, conn in self._connections(domino):
            while conn:
                low = conn & -conn
                out.append(base + low.bit_length() - 1)
                conn ^= low
        return out

    def mark_placements(self, domino: Domino, mask: bytearray) -> int:
        """Set ``mask[code]`` to 1 for every legal placement code of ``domino`` (the
        codes of :meth:`legal_placements`, without building their list); returns how
        many.  ``mask`` must hold at least ``4 * CELLS`` bytes."""
        if len(mask) < 4 * CELLS:
            raise ValueError(f"a placement mask needs {4 * CELLS} bytes, not {len(mask)}")
        n = 0
        for base, conn in self._connections(domino):
            while conn:
                low = conn & -conn
                mask[base + low.bit_length() - 1] = 1
                conn ^= low
                n += 1
        return n

    def mark_legal(self, domino: Domino, mask: bytearray) -> tuple[int, ...]:
        """``mask`` rewritten whole for ``domino``'s turn: zeros, then 1 at every legal
        placement code; returns those codes as a tuple, in increasing order (the
        codes of :meth:`legal_placements`; empty when none fits).  ``mask`` must hold
        at least ``4 * CELLS`` bytes."""
        if len(mask) < 4 * CELLS:
            raise ValueError(f"a placement mask needs {4 * CELLS} bytes, not {len(mask)}")
        mask[:] = bytes(len(mask))
        codes = self.legal_placements(domino)
        for code in codes:
            mask[code] = 1
        return tuple(codes)

    def can_place(self, domino: Domino) -> bool:
        allowed = self.allowed()
        a1 = self.adj[domino.left[0]]
        a2 = self.adj[domino.right[0]]
        for off in OFF:
            if off > 0:
                if allowed & (allowed >> off) & (a1 | (a2 >> off)):
                    return True
            elif allowed & (allowed << -off) & (a1 | (a2 << -off)):
                return True
        return False

    def place(self, domino: Domino, code: int) -> None:
        """Write a legal placement into the kingdom (no checks)."""
        a, b = placement_cells(code)
        for cell, (t, c) in ((a, domino.left), (b, domino.right)):
            bit = 1 << cell
            self.occ |= bit
            self.terrain[t] |= bit
            if c:
                self.crown[c - 1] |= bit
            self.adj[t] |= NBR[cell]
        self.minx, self.maxx, self.miny, self.maxy = self._box_with(a, b)
        self.placed.append((domino.number, code))
        self._score = None
        ts = self._tscore
        ts[domino.left[0]] = ts[domino.right[0]] = -1

    def discard(self, number: int) -> None:
        self.discarded.append(number)

    # -- reading it -------------------------------------------------------------------
    def square(self, cell: int) -> tuple[int, int] | None:
        """(terrain, crowns) of a cell, ``(CASTLE, 0)`` for the castle, None if empty."""
        bit = 1 << cell
        if not self.occ & bit:
            return None
        if cell == CASTLE_CELL:
            return (CASTLE, 0)
        t = next(i for i in range(6) if self.terrain[i] & bit)
        c = next((i + 1 for i in range(3) if self.crown[i] & bit), 0)
        return (t, c)

    def cells(self) -> list[tuple[int, int, int, int]]:
        """Every occupied cell as castle-relative ``(x, y, terrain, crowns)``."""
        out = []
        for cell in _bits(self.occ):
            sq = self.square(cell)
            assert sq is not None
            x, y = xy(cell)
            out.append((x, y, sq[0], sq[1]))
        return out

    def properties(self) -> list[tuple[int, int, int]]:
        """Every property as ``(terrain, squares, crowns)``."""
        return [
            (t, squares, crowns)
            for t in range(6)
            for squares, crowns in _regions(self.terrain[t], self.crown)
        ]

    def _scores(self) -> tuple[int, int, int]:
        s = self._score
        if s is None:
            total = largest = 0
            for _t, size, crowns in self.properties():
                total += size * crowns
                if size > largest:
                    largest = size
            c1, c2, c3 = self.crown
            s = self._score = (
                total,
                largest,
                c1.bit_count() + 2 * c2.bit_count() + 3 * c3.bit_count(),
            )
        return s

    def property_score(self) -> int:
        """Sum over properties of squares × crowns (no variant bonus)."""
        return self._scores()[0]

    def largest_property(self) -> int:
        return self._scores()[1]

    def total_crowns(self) -> int:
        return self._scores()[2]

    # -- evaluating a placement without making it (bots) ---------------------------------
    def terrain_score(self, t: int) -> int:
        """Points of the properties of terrain ``t``."""
        v = self._tscore[t]
        if v < 0:
            v = self._tscore[t] = _terrain_score(self.terrain[t], self.crown)
        return v

    def gain(self, domino: Domino, code: int) -> int:
        """How many property points placing ``domino`` by ``code`` would add."""
        a, b = placement_cells(code)
        (t1, k1), (t2, k2) = domino.left, domino.right
        crown = self.crown.copy()
        if k1:
            crown[k1 - 1] |= 1 << a
        if k2:
            crown[k2 - 1] |= 1 << b
        terrain = self.terrain
        if t1 == t2:
            return _terrain_score(terrain[t1] | 1 << a | 1 << b, crown) - self.terrain_score(t1)
        return (
            _terrain_score(terrain[t1] | 1 << a, crown)
            - self.terrain_score(t1)
            + _terrain_score(terrain[t2] | 1 << b, crown)
            - self.terrain_score(t2)
        )

    def holes_after(self, code: int) -> int:
        """:meth:`holes` as it would be after the placement ``code`` (not made)."""
        a, b = placement_cells(code)
        occ = self.occ | 1 << a | 1 << b
        return _unreachable(_allowed(occ, self._box_with(a, b), self.size))

    def keeps_middle(self, code: int) -> bool:
        """Whether the placement ``code`` keeps every square in the window centred on
        the castle (the Middle Kingdom's default rule)."""
        h = (self.size - 1) // 2
        for cell in placement_cells(code):
            if abs(cell % W - CENTRE) > h or abs(cell // W - CENTRE) > h:
                return False
        return True

    def holes(self) -> int:
        """Empty cells that can still be part of the kingdom but that no domino
        can ever cover (no neighbour that can be covered either)."""
        return _unreachable(self.allowed())

    def is_middle(self, rule: str = "window") -> bool:
        """Middle Kingdom: ``window`` — every square within the size×size window
        centred on the castle; ``bbox`` — the castle is the exact centre of the
        kingdom's bounding box."""
        if rule == "bbox":
            return self.minx + self.maxx == 2 * CENTRE and self.miny + self.maxy == 2 * CENTRE
        h = (self.size - 1) // 2
        return (
            self.minx >= CENTRE - h
            and self.maxx <= CENTRE + h
            and self.miny >= CENTRE - h
            and self.maxy <= CENTRE + h
        )

    def is_complete(self) -> bool:
        """Harmony: a filled size×size square and no domino discarded."""
        return not self.discarded and self.occ.bit_count() == self.size * self.size

    def snapshot(self) -> dict[str, object]:
        return {
            "size": self.size,
            "placed": [list(p) for p in self.placed],
            "discarded": list(self.discarded),
        }


# -- the board the engine uses ---------------------------------------------------------
def _native_module() -> Any:
    try:
        return importlib.import_module("kingdoms.kingdomino._cboard")
    except ImportError:  # not built, or the pure-Python path was asked for
        return None


_native: Final[Any] = _native_module()
_NativeBoard: Final[Any] = None if _native is None else _native.CBoard

NATIVE_PLAYOUT: Final[Any] = None if _native is None else _native.random_playout
"""The compiled loop of ``KingdominoState.random_playout`` (same games, in C), or
None on the pure-Python path."""


def _mark_actions(mask: bytearray, actions: list[int]) -> tuple[int, ...]:
    """``mask`` rewritten whole — zeros, then 1 at each of ``actions`` — and
    ``actions`` returned as a tuple in increasing order; an action outside the mask
    is refused (:class:`ValueError`, the mask unchanged)."""
    size = len(mask)
    for a in actions:
        if not 0 <= a < size:
            raise ValueError(f"action {a} outside a mask of {size} bytes")
    mask[:] = bytes(size)
    for a in actions:
        mask[a] = 1
    return tuple(sorted(actions))


MARK_ACTIONS: Final[Any] = _mark_actions if _native is None else _native.mark_actions
""":func:`_mark_actions`, in C when built (the mask and the tuple of the Kingdomino
picks, for ``KingdominoState.mark_legal``)."""

NATIVE_BOARD: Final = _NativeBoard is not None
"""Whether :func:`new_board` gives the compiled C-array board (same interface and
results as :class:`Board`, which stays the reference and the fallback)."""


def new_board(size: int = 5) -> Board:
    """An empty kingdom: the compiled board when built, else :class:`Board`."""
    if _NativeBoard is not None:
        return _NativeBoard(size)  # type: ignore[no-any-return]
    return Board(size)
