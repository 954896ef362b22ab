"""Kingdomino bots: greedy, full-greedy, MCTS with greedy playouts."""

from __future__ import annotations

import random

import pytest

from kingdoms.bots.base import make_bot
from kingdoms.bots.kingdomino import playout_policy
from kingdoms.bots.kingdomino.bots import (
    FullGreedyBot,
    GreedyBot,
    PlanningGreedyBot,
    greedy_playout,
)
from kingdoms.bots.mcts import MCTSBot
from kingdoms.core import InvalidConfig, get_game
from kingdoms.kingdomino.state import PICK, PLACE, KingdominoState
from kingdoms.kingdomino.tiles import TILES
from kingdoms.sim import simulate
from tests.kingdomino.helpers import game


def _to_place(seed: int = 2, players: int = 2) -> KingdominoState:
    st = game(players, seed=seed)
    rng = random.Random(seed)
    while st.phase != PLACE or len(st.boards[st.current_player].placed) < 2:
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    return st


def test_bots_are_listed_for_kingdomino() -> None:
    names = set(get_game("kingdomino").bot_names())
    assert {"greedy", "full-greedy", "planning-greedy"} <= names
    assert isinstance(make_bot("kingdomino", "full-greedy"), FullGreedyBot)
    assert isinstance(make_bot("kingdomino", "planning-greedy:width=4"), PlanningGreedyBot)
    assert isinstance(make_bot("kingdomino", "mcts:iterations=5,playout=greedy"), MCTSBot)
    with pytest.raises(InvalidConfig, match="width"):
        make_bot("kingdomino", "planning-greedy:depth=3")
    with pytest.raises(InvalidConfig, match="no parameters"):
        make_bot("kingdomino", "full-greedy:width=4")


def test_greedy_places_for_the_largest_immediate_gain() -> None:
    """greedy: best immediate score for the current placement."""
    for seed in range(6):
        st = _to_place(seed)
        p = st.current_player
        legal = st.legal_actions()
        choice = GreedyBot().act(st.view(p), legal, random.Random(0))
        dom = TILES[st.acting_domino()]
        gains = {a: st.boards[p].gain(dom, a) for a in legal}
        assert gains[choice] == max(gains.values())
        after = st.boards[p].copy()
        after.place(dom, choice)
        assert after.property_score() - st.boards[p].property_score() == gains[choice]


def test_greedy_drafts_the_most_valuable_domino() -> None:
    """greedy: drafts by domino value (the highest number)."""
    st = game(3, seed=1)
    legal = st.legal_actions()
    assert GreedyBot().act(st.view(st.current_player), legal, random.Random(0)) == max(legal)
    assert max(legal) - PICK == max(st.current)


def test_planning_greedy_avoids_single_cell_holes_and_breaking_the_middle() -> None:
    """planning-greedy: never leaves a hole or breaks Middle Kingdom when it need not."""
    for seed in range(4):
        st = game(2, seed=seed, variants=["middle-kingdom"])
        bot = PlanningGreedyBot()
        rng = random.Random(seed)
        while not st.is_terminal():
            p = st.current_player
            legal = st.legal_actions()
            a = bot.act(st.view(p), legal, rng)
            if st.phase == PLACE and a < PICK and len(legal) > 1:
                board = st.boards[p]
                dom = TILES[st.acting_domino()]
                options = []
                for c in legal:
                    after = board.copy()
                    after.place(dom, c)
                    options.append((after.is_middle(), -after.holes()))
                chosen = board.copy()
                chosen.place(dom, a)
                assert (chosen.is_middle(), -chosen.holes()) == max(options)
            st.apply(a)


def test_strength_order_random_greedy_full_greedy() -> None:
    """full-greedy beats greedy and random (the study: 97.7 % against random)."""
    opts = {"variants": ["middle-kingdom", "harmony"]}
    rep = simulate("kingdomino", ["full-greedy", "random", "random", "random"], 8, 1, opts)
    assert rep.to_json()["wins"][0] >= 7
    rep = simulate("kingdomino", ["full-greedy", "greedy", "greedy", "greedy"], 8, 2, opts)
    js = rep.to_json()
    assert js["mean_score"][0] > max(js["mean_score"][1:])


def test_greedy_playout_policy_is_legal_and_registered() -> None:
    assert playout_policy("greedy") is greedy_playout
    assert playout_policy("random") is None
    st = game(4, seed=3)
    rng = random.Random(0)
    while not st.is_terminal():
        a = greedy_playout(st, rng)
        assert a in st.legal_actions()
        st.apply(a)


def test_mcts_takes_a_free_crown_and_never_sees_hidden_order() -> None:
    """mcts: searches determinizations of its own view; the real pile is untouched."""
    st = _to_place(5, players=4)
    p = st.current_player
    pile = list(st.pile)
    bot = MCTSBot(iterations=60, playout="greedy", seed=1)
    a = bot.act(st.view(p), st.legal_actions(), random.Random(0))
    assert a in st.legal_actions()
    assert bot.last_iterations == 60
    assert st.pile == pile


def test_mcts_beats_random_players() -> None:
    """mcts (small budget) wins most games against random players."""
    rep = simulate(
        "kingdomino",
        ["mcts:iterations=40,playout=greedy", "random", "random", "random"],
        3,
        4,
        {"variants": ["middle-kingdom", "harmony"]},
    )
    assert rep.to_json()["wins"][0] >= 2


def test_mcts_width_searches_only_the_best_ranked_root_actions() -> None:
    """mcts width=k: only the k best actions by the full-greedy ranking are searched."""
    from kingdoms.bots.kingdomino import rank_actions

    st = _to_place(4, players=4)
    legal = st.legal_actions()
    assert len(legal) > 3
    ranked = rank_actions(st, legal)
    assert sorted(ranked) == sorted(legal)
    bot = MCTSBot(iterations=30, playout="greedy", width=3, seed=2)
    a = bot.act(st.view(st.current_player), legal, random.Random(0))
    assert set(bot.last_stats) == set(ranked[:3]) and a in ranked[:3]
    with pytest.raises(InvalidConfig, match="width"):
        MCTSBot(width=-1)
    assert MCTSBot(width=0).width is None  # 0: every move is searched


def test_move_evaluation_without_placing_matches_placing() -> None:
    """holes_after / keeps_middle / gain predict exactly what a placement does."""
    for seed in range(3):
        st = game(2, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            if st.phase == PLACE and legal[0] < PICK and len(legal) > 1:
                board = st.boards[st.current_player]
                dom = TILES[st.acting_domino()]
                for code in legal:
                    after = board.copy()
                    after.place(dom, code)
                    assert board.holes_after(code) == after.holes()
                    if board.is_middle():
                        assert board.keeps_middle(code) == after.is_middle()
                    assert board.gain(dom, code) == after.property_score() - board.property_score()
            st.apply(legal[rng.randrange(len(legal))])


def test_careful_playouts_score_more_than_greedy_ones() -> None:
    """The careful playout policy keeps the bonuses greedy playouts throw away."""
    from kingdoms.bots.kingdomino.bots import careful_playout

    assert playout_policy("careful") is careful_playout
    totals = {}
    for policy in (greedy_playout, careful_playout):
        total = 0.0
        for seed in range(6):
            st = game(4, seed=seed, variants=["middle-kingdom", "harmony"])
            rng = random.Random(seed)
            while not st.is_terminal():
                st.apply(policy(st, rng))
            outcome = st.outcome()
            assert outcome is not None
            total += sum(outcome.scores)
        totals[policy.__name__] = total
    assert totals["careful_playout"] > totals["greedy_playout"]


def test_drafting_pick_takes_the_domino_worth_most_to_its_own_kingdom() -> None:
    """drafting playouts draft the domino that adds most points now (checked by
    placing every domino at every spot); ties go to the higher number."""
    from kingdoms.bots.kingdomino.bots import drafting_pick, drafting_playout

    assert playout_policy("drafting") is drafting_playout
    checked = 0
    for seed in range(4):
        st = game(4, seed=seed, variants=["middle-kingdom", "harmony"])
        rng = random.Random(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            if legal[0] >= PICK and len(legal) > 1:
                board = st.boards[st.current_player]
                worth = {}
                for a in legal:
                    dom = TILES[a - PICK]
                    gains = []
                    for code in board.legal_placements(dom):
                        after = board.copy()
                        after.place(dom, code)
                        gains.append(after.property_score() - board.property_score())
                    worth[a] = max(gains, default=-5)
                best = max(worth.values())
                assert drafting_pick(st, legal) == max(a for a in legal if worth[a] == best)
                checked += 1
            action = drafting_playout(st, rng)
            assert action in legal
            st.apply(action)
    assert checked > 40


def test_mcts_in_kingdomino_defaults_to_drafting_playouts_and_width_6() -> None:
    """``mcts`` alone is the strong configuration; the spec still overrides it."""
    bot = make_bot("kingdomino", "mcts:time=0.2")
    assert isinstance(bot, MCTSBot)
    assert (bot.playout, bot.width, bot.time) == ("drafting", 6, 0.2)
    bot = make_bot("kingdomino", "mcts:playout=greedy,width=0")
    assert isinstance(bot, MCTSBot)
    assert (bot.playout, bot.width) == ("greedy", None)
    assert MCTSBot().playout == "random"  # the game-agnostic class keeps its own defaults
