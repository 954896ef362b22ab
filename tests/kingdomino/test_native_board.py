"""The compiled C-array board against the pure-Python board (the reference)."""

from __future__ import annotations

import importlib
import pickle
import random
from typing import Any

import pytest

from kingdoms.kingdomino.board import CELLS, Board
from kingdoms.kingdomino.tiles import TILES


def _native() -> Any:
    try:
        return importlib.import_module("kingdoms.kingdomino._cboard").CBoard
    except ImportError:
        pytest.skip("the compiled board is not in use (pure-Python path or not built)")


def _same(native: Any, pure: Board, rng: random.Random) -> None:
    assert native.occ == pure.occ
    assert native.allowed() == pure.allowed()
    assert native.cells() == pure.cells()
    assert native.properties() == pure.properties()
    assert native.property_score() == pure.property_score()
    assert native.largest_property() == pure.largest_property()
    assert native.total_crowns() == pure.total_crowns()
    assert [native.terrain_score(t) for t in range(6)] == [pure.terrain_score(t) for t in range(6)]
    assert native.holes() == pure.holes()
    for rule in ("window", "bbox"):
        assert native.is_middle(rule) == pure.is_middle(rule)
    assert native.is_complete() == pure.is_complete()
    assert native.snapshot() == pure.snapshot()
    assert (native.minx, native.maxx, native.miny, native.maxy) == (
        pure.minx,
        pure.maxx,
        pure.miny,
        pure.maxy,
    )
    for cell in rng.sample(range(CELLS), 20):
        assert native.square(cell) == pure.square(cell)
    for number in rng.sample(range(1, 49), 6):
        domino = TILES[number]
        codes = pure.legal_placements(domino)
        assert native.legal_placements(domino) == codes
        assert native.can_place(domino) == pure.can_place(domino)
        for code in codes:
            assert native.gain(domino, code) == pure.gain(domino, code)
            assert native.holes_after(code) == pure.holes_after(code)
            assert native.keeps_middle(code) == pure.keeps_middle(code)


@pytest.mark.parametrize("size", [5, 7])
def test_native_board_matches_the_pure_board_move_by_move(size: int) -> None:
    native_board = _native()
    rng = random.Random(size)
    for _game in range(12):
        native, pure = native_board(size), Board(size)
        numbers = list(range(1, 49))
        rng.shuffle(numbers)
        for number in numbers:
            _same(native, pure, rng)
            codes = pure.legal_placements(TILES[number])
            if not codes:
                native.discard(number)
                pure.discard(number)
                continue
            code = codes[rng.randrange(len(codes))]
            before = native.copy()
            native.place(TILES[number], code)
            pure.place(TILES[number], code)
            assert before.occ != native.occ  # copies are independent
        _same(native, pure, rng)
        again = pickle.loads(pickle.dumps(native))
        _same(again, pure, rng)
