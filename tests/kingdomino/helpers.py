"""Building Kingdomino positions for scenario tests."""

from __future__ import annotations

from kingdoms.core import new_game
from kingdoms.kingdomino.board import CELLS as CELLS
from kingdoms.kingdomino.board import Board, cell_at
from kingdoms.kingdomino.state import KingdominoState
from kingdoms.kingdomino.tiles import TILES

RIGHT, DOWN, LEFT, UP = range(4)


def code(x: int, y: int, d: int) -> int:
    """Placement code: left square on castle-relative (x, y), right square towards ``d``."""
    return d * CELLS + cell_at(x, y)


def build(*moves: tuple[int, int, int, int], size: int = 5) -> Board:
    """A kingdom made by legal placements ``(domino, x, y, direction)``."""
    b = Board(size)
    for number, x, y, d in moves:
        c = code(x, y, d)
        dom = TILES[number]
        assert c in b.legal_placements(dom), (number, x, y, d)
        b.place(dom, c)
    return b


def game(players: int = 2, seed: int = 0, **options: object) -> KingdominoState:
    st = new_game("kingdomino", players=players, seed=seed, options=options)
    assert isinstance(st, KingdominoState)
    return st
