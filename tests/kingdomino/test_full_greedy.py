"""The study's full-greedy (Gedda, Lagerkvist & Butler, CIG 2018), checked against a
brute force written from the study's definition and against its published figures."""

from __future__ import annotations

import random

from kingdoms.bots.kingdomino.bots import FullGreedyBot
from kingdoms.kingdomino.board import Board
from kingdoms.kingdomino.state import CHOOSE, DISCARD, FIRST_PICKS, PICK, PLACE, KingdominoState
from kingdoms.kingdomino.tiles import TILES
from kingdoms.sim import simulate
from tests.kingdomino.helpers import game


def _squares(board: Board) -> set[tuple[int, int]]:
    return {(x, y) for x, y, _t, _c in board.cells()}


def _holes(board: Board) -> int:
    """Empty squares within two of the castle whose four neighbours are all taken or
    further than two from the castle (the study's single-square holes)."""
    taken = _squares(board)
    n = 0
    for x in range(-2, 3):
        for y in range(-2, 3):
            if (x, y) in taken:
                continue
            around = [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
            if all(p in taken or max(abs(p[0]), abs(p[1])) > 2 for p in around):
                n += 1
    return n


def _key(st: KingdominoState, board: Board) -> tuple[bool, bool, int]:
    inside = all(max(abs(x), abs(y)) <= 2 for x, y in _squares(board))
    score = board.property_score()
    if st.middle and inside:
        score += 10
    if st.harmony and len(_squares(board)) == 25 and not board.discarded:
        score += 5
    return (inside, _holes(board) == 0, score)


def _best_moves(st: KingdominoState) -> set[tuple[int, int]]:
    """Brute force: every (placement, pick) whose kingdom after also placing the picked
    domino is best by (Middle Kingdom kept, no hole, score)."""
    me = st.current_player
    dom = TILES[st.acting_domino()]
    free = [d for d, k in zip(st.next, st.next_kings, strict=True) if k < 0]
    judged: dict[tuple[int, int], tuple[bool, bool, int]] = {}
    for p in st.legal_actions():
        after = st.boards[me].copy()
        if p != DISCARD:
            after.place(dom, p)
        for d in free:
            for q in after.legal_placements(TILES[d]):
                full = after.copy()
                full.place(TILES[d], q)
                k = _key(st, full)
                judged[(p, d)] = max(judged.get((p, d), k), k)
    if not judged:
        return {(p, d) for p in st.legal_actions() for d in free}
    best = max(judged.values())
    return {m for m, k in judged.items() if k == best}


def test_full_greedy_plays_a_best_move_of_the_study_definition() -> None:
    checked = 0
    for seed in range(6):
        st = game(4, seed=seed, variants=["middle-kingdom", "harmony"])
        bot = FullGreedyBot()
        rng = random.Random(seed)
        while not st.is_terminal():
            me = st.current_player
            legal = st.legal_actions()
            board = st.boards[me]
            if st.phase == PLACE and board.placed and st.next and len(legal) > 1:
                best = _best_moves(st)
                a = bot.act(st.view(me), legal, rng)
                assert a in {p for p, _d in best}
                st.apply(a)
                if st.phase == CHOOSE:
                    pick = bot.act(st.view(me), st.legal_actions(), rng)
                    assert (a, pick - PICK) in best
                    st.apply(pick)
                checked += 1
                continue
            a = bot.act(st.view(me), legal, rng)
            if st.phase == FIRST_PICKS and len(legal) > 1:
                most = max(max(TILES[x - PICK].left[1], TILES[x - PICK].right[1]) for x in legal)
                assert max(TILES[a - PICK].left[1], TILES[a - PICK].right[1]) == most
            st.apply(a)
    assert checked > 100


def test_full_greedy_plays_two_kings_games_to_the_end() -> None:
    """With two kings each (2 players) every choice is legal in every phase."""
    for seed in range(20):
        st = game(2, seed=100 + seed, variants=["middle-kingdom"])
        rng = random.Random(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            a = FullGreedyBot().act(st.view(st.current_player), legal, rng)
            assert a in legal
            st.apply(a)


def test_full_greedy_matches_the_study_against_random_players() -> None:
    """The study: full-greedy against three random players wins 97.7 %, mean 55.7."""
    opts = {"variants": ["middle-kingdom", "harmony"]}
    js = simulate("kingdomino", ["full-greedy", "random", "random", "random"], 120, 7, opts)
    out = js.to_json()
    assert out["wins"][0] >= 108
    assert 52.0 <= out["mean_score"][0] <= 60.0
