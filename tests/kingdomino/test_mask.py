"""The legal-action mask written by the boards equals the mask of the legal-action list."""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest

from kingdoms.core import new_game
from kingdoms.core.errors import InvalidArgument
from kingdoms.core.registry import get_game
from kingdoms.kingdomino.board import CELLS, NATIVE_BOARD, Board
from kingdoms.kingdomino.state import DISCARD, NUM_ACTIONS, PLACE, KingdominoState
from kingdoms.kingdomino.tiles import TILES

SETTINGS = [
    (2, []),
    (3, []),
    (4, []),
    (2, ["middle-kingdom"]),
    (3, ["harmony"]),
    (4, ["middle-kingdom", "harmony"]),
    (2, ["dynasty"]),
    (2, ["mighty-duel"]),
    (2, ["mighty-duel", "middle-kingdom", "harmony"]),
]


def _boards() -> list[Any]:
    """Both board classes when the compiled one is built, else the pure one."""
    out: list[Any] = [Board]
    if NATIVE_BOARD:
        out.append(importlib.import_module("kingdoms.kingdomino._cboard").CBoard)
    return out


def _list_mask(actions: list[int], size: int) -> bytearray:
    mask = bytearray(size)
    for a in actions:
        mask[a] = 1
    return mask


def _pure_copy(board: Any) -> Board:
    """The pure board with the same placements as ``board`` (of either class)."""
    pure = Board(board.size)
    for number, code in board.placed:
        pure.place(TILES[number], code)
    pure.discarded = list(board.discarded)
    return pure


@pytest.mark.parametrize(("players", "variants"), SETTINGS)
def test_mask_equals_the_list_mask_in_random_games(players: int, variants: list[str]) -> None:
    """After every action of random games, on the build in use: the state's mask is
    the mask of its list, and the pure board (the oracle) marks the same placements."""
    space = get_game("kingdomino").num_distinct_actions(
        new_game("kingdomino", players=players, options={"variants": variants}).config
    )
    assert space == NUM_ACTIONS
    places = discards = 0
    for seed in range(3):
        st = new_game("kingdomino", players=players, seed=seed, options={"variants": variants})
        assert isinstance(st, KingdominoState)
        rng = random.Random(seed)
        while True:
            legal = st.legal_actions()
            mask = st.legal_actions_mask(space)
            assert type(mask) is bytearray
            assert mask == _list_mask(legal, space)
            assert st.legal_actions_mask(space) is not mask  # a new one each time
            if st.phase == PLACE:
                places += 1
                discards += legal == [DISCARD]
                board = st.boards[st.current_player]
                pure = bytearray(space)
                dom = TILES[st.acting_domino()]
                count = _pure_copy(board).mark_placements(dom, pure)
                assert count == (0 if legal == [DISCARD] else len(legal))
                if count:
                    assert pure == mask
            if st.is_terminal():
                break
            st.apply(legal[rng.randrange(len(legal))])
        assert mask == bytearray(space)  # over: nothing is legal
    assert places > 0
    if "mighty-duel" not in variants and players == 2:
        assert discards > 0  # the discard branch ran too


def test_a_wider_mask_is_allowed_and_a_narrower_one_is_refused() -> None:
    st = new_game("kingdomino", players=2, seed=3)
    wide = st.legal_actions_mask(NUM_ACTIONS + 10)
    assert len(wide) == NUM_ACTIONS + 10 and wide[:NUM_ACTIONS] == st.legal_actions_mask(
        NUM_ACTIONS
    )
    for bad in (NUM_ACTIONS - 1, 0, -5, "778", 778.0):
        with pytest.raises(InvalidArgument, match="mask"):
            st.legal_actions_mask(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("board_class", _boards(), ids=lambda c: c.__name__)
@pytest.mark.parametrize("size", [5, 7])
def test_each_board_marks_exactly_its_legal_placements(board_class: Any, size: int) -> None:
    """Both boards, move by move through random kingdoms: the marked codes are the
    listed codes, the count is their number, nothing else in the mask changes."""
    rng = random.Random(size)
    for _game in range(8):
        board = board_class(size)
        numbers = list(range(1, 49))
        rng.shuffle(numbers)
        for number in numbers:
            for probe in rng.sample(range(1, 49), 4):
                dom = TILES[probe]
                codes = board.legal_placements(dom)
                mask = bytearray(4 * CELLS + 5)
                assert board.mark_placements(dom, mask) == len(codes)
                assert [a for a, v in enumerate(mask) if v] == sorted(codes)
            dom = TILES[number]
            codes = board.legal_placements(dom)
            if codes:
                board.place(dom, codes[rng.randrange(len(codes))])
            else:
                board.discard(number)


@pytest.mark.parametrize("board_class", _boards(), ids=lambda c: c.__name__)
def test_a_short_mask_is_refused_and_left_unchanged(board_class: Any) -> None:
    board = board_class(5)
    short = bytearray(4 * CELLS - 1)
    with pytest.raises(ValueError, match="placement mask"):
        board.mark_placements(TILES[1], short)
    assert short == bytearray(4 * CELLS - 1)


@pytest.mark.parametrize(("players", "variants"), SETTINGS)
def test_mark_legal_writes_the_mask_into_a_kept_buffer_and_returns_the_sorted_actions(
    players: int, variants: list[str]
) -> None:
    """``mark_legal`` on one buffer kept through random games: after every action the
    buffer is the state's mask (every entry of the last state's mask cleared, the
    bytes past the actions too) and the tuple is the sorted legal actions."""
    kept = bytearray(b"\x07" * (NUM_ACTIONS + 3))  # junk: all of it is rewritten
    for seed in range(2):
        st = new_game("kingdomino", players=players, seed=seed, options={"variants": variants})
        assert isinstance(st, KingdominoState)
        rng = random.Random(seed)
        while True:
            legal = st.legal_actions()
            marked = st.mark_legal(kept)
            assert type(marked) is tuple
            assert marked == tuple(sorted(legal))
            assert kept == _list_mask(legal, NUM_ACTIONS + 3)
            if st.is_terminal():
                break
            st.apply(legal[rng.randrange(len(legal))])
        assert marked == () and kept == bytearray(NUM_ACTIONS + 3)


def test_mark_legal_refuses_a_short_mask_and_leaves_it_unchanged() -> None:
    st = new_game("kingdomino", players=2, seed=4)
    assert isinstance(st, KingdominoState)
    for placing in (False, True):
        short = bytearray(b"\x01" * (NUM_ACTIONS - 1))
        with pytest.raises(InvalidArgument, match="mask"):
            st.mark_legal(short)
        assert short == bytearray(b"\x01" * (NUM_ACTIONS - 1))
        while st.phase != PLACE:
            st.apply(st.legal_actions()[0])
        assert placing or st.phase == PLACE


@pytest.mark.parametrize("board_class", _boards(), ids=lambda c: c.__name__)
def test_each_board_mark_legal_rewrites_the_mask_whole(board_class: Any) -> None:
    """Both boards, through random kingdoms: ``mark_legal`` zeroes the whole mask, marks
    the listed codes and returns them as a sorted tuple; a short mask is refused."""
    rng = random.Random(11)
    for _game in range(6):
        board = board_class(5)
        numbers = list(range(1, 49))
        rng.shuffle(numbers)
        for number in numbers:
            dom = TILES[number]
            codes = board.legal_placements(dom)
            mask = bytearray(b"\x05" * (4 * CELLS + 60))
            assert board.mark_legal(dom, mask) == tuple(sorted(codes))
            assert mask == _list_mask(codes, 4 * CELLS + 60)
            if codes:
                board.place(dom, codes[rng.randrange(len(codes))])
            else:
                board.discard(number)
    short = bytearray(b"\x02" * (4 * CELLS - 1))
    with pytest.raises(ValueError, match="placement mask"):
        board_class(5).mark_legal(TILES[1], short)
    assert short == bytearray(b"\x02" * (4 * CELLS - 1))


def _mark_actions() -> list[Any]:
    """Both ``mark_actions`` (pure, and C when built)."""
    from kingdoms.kingdomino import board

    out: list[Any] = [board._mark_actions]
    if NATIVE_BOARD:
        out.append(importlib.import_module("kingdoms.kingdomino._cboard").mark_actions)
    return out


@pytest.mark.parametrize("mark", _mark_actions(), ids=["pure", "native"][: len(_mark_actions())])
def test_mark_actions_rewrites_the_mask_and_sorts_the_actions(mark: Any) -> None:
    mask = bytearray(b"\x03" * 20)
    assert mark(mask, [17, 2, 9, 0]) == (0, 2, 9, 17)
    assert mask == _list_mask([0, 2, 9, 17], 20)
    assert mark(mask, []) == () and mask == bytearray(20)
    for bad in ([3, 20], [-1]):
        kept = bytearray(b"\x01" * 20)
        with pytest.raises(ValueError, match="outside a mask"):
            mark(kept, bad)
        assert kept == bytearray(b"\x01" * 20)
