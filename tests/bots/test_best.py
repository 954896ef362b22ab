"""``best``: offered by every front end, legal complete games, reproducible under a
seed and an iteration budget, blind to hidden information, within its CPU budget."""

from __future__ import annotations

import gzip
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kingdoms.bots.base import bot_names, make_bot, parse_bot_spec
from kingdoms.bots.dominion.best import DEFAULT_SECONDS, BestBot
from kingdoms.cli import main
from kingdoms.core.errors import InvalidConfig
from kingdoms.core.registry import new_game
from kingdoms.core.runner import seat_rngs
from kingdoms.dominion.data import BY_ID
from kingdoms.dominion.state import DominionState

ROOT = Path(__file__).resolve().parents[2]

SETS = ["base", "base-1e", "base-2e", "alchemy"]


def test_the_spec_resolves_with_its_levels_and_bad_levels_are_named() -> None:
    assert "best" in bot_names("dominion")
    assert "best" not in bot_names("kingdomino")
    assert make_bot("dominion", "best").name == "best"
    strong = make_bot("dominion", "best:strong")
    assert strong.name == "best:strong" and isinstance(strong, BestBot)
    assert strong.search.time == 1.0 and strong.search.clock == "cpu"
    assert make_bot("dominion", "best:level=strong,iterations=7").search.time is None
    assert parse_bot_spec("best:strong,seed=3") == ("best", {"level": "strong", "seed": 3})
    with pytest.raises(InvalidConfig, match="level must be one of default, strong"):
        make_bot("dominion", "best:level=grandmaster")
    with pytest.raises(InvalidConfig, match="a level: default, strong"):
        make_bot("dominion", "best:grandmaster")
    assert make_bot("dominion", "best").method == "paired"
    assert make_bot("dominion", "best:method=flat").method == "flat"
    with pytest.raises(InvalidConfig, match="method must be one of paired, flat"):
        make_bot("dominion", "best:method=tree")


def _play(
    specs: list[str], seed: int, options: dict[str, Any], check_cpu: float | None = None
) -> tuple[DominionState, list[float]]:
    bots = [make_bot("dominion", s) for s in specs]
    state = new_game("dominion", len(specs), seed, options)
    assert isinstance(state, DominionState)
    rngs = seat_rngs(seed, len(specs))
    cpu: list[float] = []
    while state.current_player >= 0:
        p = state.current_player
        legal = state.legal_actions()
        # the searching thread's CPU, as the budget counts it: other threads of a test
        # worker (servers, bot threads of earlier tests) would count in process_time
        t0 = time.thread_time()
        action = bots[p].act(state.view(p), legal, rngs[p])
        if isinstance(bots[p], BestBot):
            cpu.append(time.thread_time() - t0)
        assert action in legal
        state.apply_checked(action)
    return state, cpu


@pytest.mark.parametrize("players", [2, 3, 4])
def test_complete_legal_games_on_random_kingdoms_with_alchemy(players: int) -> None:
    options = {"sets": SETS, "alchemy_cards": "3-5"}
    specs = ["best:iterations=3", *["big-money-ultimate", "witch", "smithy"][: players - 1]]
    state, _ = _play(specs, 40 + players, options)
    assert state.outcome() is not None
    kingdom = state.config.options["kingdom"]
    from kingdoms.dominion.data import BY_ID, CARDS

    assert any(CARDS[BY_ID[c]].set == "alchemy" for c in kingdom)


def _moves(spec: str, seed: int, decisions: int) -> list[int]:
    """The moves of ``spec`` (seat 0) at the first ``decisions`` decisions it searched."""
    bot = make_bot("dominion", spec)
    other = make_bot("dominion", "witch")
    state = new_game("dominion", 2, seed, {"sets": SETS})
    rngs = seat_rngs(seed, 2)
    out: list[int] = []
    while state.current_player >= 0 and len(out) < decisions:
        p = state.current_player
        legal = state.legal_actions()
        if p == 0:
            action = bot.act(state.view(0), legal, random.Random(len(out)))
            if bot.last_iterations:
                out.append(action)
        else:
            action = other.act(state.view(1), legal, rngs[1])
        state.apply(action)
    return out


def test_same_seed_and_iteration_budget_give_the_same_moves() -> None:
    first = _moves("best:iterations=12,seed=5", 9, 12)
    assert len(first) == 12
    assert _moves("best:iterations=12,seed=5", 9, 12) == first


def test_choices_do_not_change_when_only_hidden_information_changes() -> None:
    """Two deals that differ only in what seat 0 cannot see (the other seat's hand,
    every deck's order) give seat 0 the same view and the bot the same move."""
    bot_moves: list[tuple[int, int]] = []
    for seed in range(3):
        state = new_game("dominion", 2, seed, {"kingdom": "First Game"})
        assert isinstance(state, DominionState)
        other = make_bot("dominion", "big-money-ultimate")
        rngs = seat_rngs(seed, 2)
        searched = 0
        while state.current_player >= 0 and searched < 6:
            p = state.current_player
            legal = state.legal_actions()
            if p == 0 and len(legal) > 1 and state.turns[0] >= 3:
                twin = state.clone()
                mix = random.Random(seed)
                # the other seat's hand and deck exchanged and shuffled; own deck reordered
                pool = twin.hands[1] + twin.decks[1]
                mix.shuffle(pool)
                twin.hands[1][:] = pool[: len(twin.hands[1])]
                twin.decks[1][:] = pool[len(twin.hands[1]) :]
                mix.shuffle(twin.decks[0])
                assert (twin.hands[1], twin.decks) != (state.hands[1], state.decks)
                assert twin.view(0) == state.view(0)
                a = make_bot("dominion", "best:iterations=30,seed=1")
                b = make_bot("dominion", "best:iterations=30,seed=1")
                move = a.act(state.view(0), legal, random.Random(2))
                assert b.act(twin.view(0), twin.legal_actions(), random.Random(2)) == move
                bot_moves.append((state.step, move))
                searched += 1
                state.apply(move)
                continue
            state.apply(other.act(state.view(p), legal, rngs[p]))
    assert len(bot_moves) >= 12


def test_cpu_per_decision_stays_within_the_budget() -> None:
    """The default level's search stops at its CPU budget (the bound is generous: the
    view's rebuild and the ranking come on top, and a loaded machine's timer is coarse)."""
    _, cpu = _play(["best", "witch"], 3, {"kingdom": "First Game"})
    assert cpu and max(cpu) < DEFAULT_SECONDS * 3


def test_the_simulator_and_the_terminal_offer_it() -> None:
    res = CliRunner().invoke(
        main,
        ["sim", "dominion", "--bots", "best:iterations=2,big-money", "-n", "2", "--workers", "1"],
    )
    assert res.exit_code == 0, res.output
    assert "best" in res.output
    from kingdoms.cli.dominion import dominion

    res = CliRunner().invoke(
        dominion, ["play", "--bots", "best", "--seed", "3"], input="1\n" * 30 + "q\n"
    )
    assert res.exit_code == 0, res.output
    assert "Goodbye." in res.output


def test_the_server_lists_it_and_makes_games_with_it() -> None:
    from starlette.testclient import TestClient

    from kingdoms.server.app import create_app

    with TestClient(create_app("sqlite://", bot_delay=0, allow_seeds=True)) as client:
        games = {g["name"]: g for g in client.get("/api/catalog").json()["games"]}
        assert "best" in games["dominion"]["bots"]
        for spec in ("best", "best:strong"):
            seats = [{"kind": "human"}, {"kind": "bot", "bot": spec}]
            res = client.post("/api/games", json={"game": "dominion", "seats": seats})
            assert res.status_code == 201, res.text
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "best:grandmaster"}]
        res = client.post("/api/games", json={"game": "dominion", "seats": seats})
        assert res.status_code == 400 and "level" in res.json()["message"]


def test_the_review_rolls_out_as_best_does() -> None:
    from kingdoms.bots.dominion import BOT_DEFAULTS
    from kingdoms.bots.dominion.best import review_settings
    from kingdoms.review.analysis import default_playout, default_width

    assert BOT_DEFAULTS["review"]["playout"] == review_settings()["playout"]
    assert default_width("dominion") == BOT_DEFAULTS["review"]["width"] == 3
    assert default_playout("dominion") == review_settings()["playout"]


def test_the_precision_kingdom_leaves_big_money_the_best_plan() -> None:
    """``bench/review_precision.py`` counts flags on a weakened ``big-money-ultimate``:
    its kingdom must offer no bundled plan that beats it (Workshop and Gardens did)."""
    from kingdoms.bots.dominion.search import kingdom_plans
    from kingdoms.review.precision import MONEY_KINGDOM

    assert kingdom_plans(tuple(MONEY_KINGDOM))[0] == "big-money-ultimate"
    assert kingdom_plans(("workshop", "gardens", *MONEY_KINGDOM[:8]))[0] == "workshop-gardens"


def test_the_paired_search_plays_every_candidate_from_the_same_deals() -> None:
    """Each round deals the hidden cards once (the same seed gives the same deal and the
    same later shuffles) and plays every candidate from it; the plan's move is
    overruled only by a candidate that gained more on those same deals."""
    from kingdoms.bots.dominion.search import rank_actions
    from kingdoms.core.registry import get_game

    state = new_game("dominion", 2, 5, {"kingdom": "First Game"})
    assert isinstance(state, DominionState)
    twin_a = state.determinize(0, random.Random(77))
    twin_b = state.determinize(0, random.Random(77))
    assert (twin_a.hands, twin_a.decks, twin_a.rng.random()) == (
        twin_b.hands,
        twin_b.decks,
        twin_b.rng.random(),
    )
    bot = make_bot("dominion", "best:iterations=100,seed=2,bank=off")
    other = make_bot("dominion", "witch")
    rngs = seat_rngs(4, 2)
    searched = overruled = 0
    while state.current_player >= 0:
        p = state.current_player
        legal = state.legal_actions()
        if p == 1:
            state.apply(other.act(state.view(1), legal, rngs[1]))
            continue
        move = bot.act(state.view(0), legal, rngs[0])
        if bot.last_iterations and bot.last_kind == "move":
            searched += 1
            stats = bot.last_stats
            base = get_game("dominion").state_from_view(state.view(0), random.Random(0))
            assert bot.plans is not None
            chosen = bot.plans.choice(2.0)
            plan = rank_actions(base, list(legal), None if chosen == "witch" else chosen)[0]
            rounds = {n for n, _ in stats.values()}
            assert len(rounds) == 1 and bot.last_iterations == rounds.pop() * len(stats)
            assert plan in stats and move in stats
            if move != plan:
                overruled += 1
                assert stats[move][1] > stats[plan][1]
        state.apply(move)
    assert searched >= 20 and overruled >= 1


def test_rollouts_are_whole_by_default_and_step_on_request() -> None:
    """``rollout=whole`` (the default) plays each rollout as ``finish_rollout`` does
    (each seat's model fixed at its start, the native core where it can);
    ``rollout=step`` asks ``kingdom_playout`` every move, as before."""
    from kingdoms.bots.dominion.search import finish_rollout, kingdom_playout, kingdom_rollout
    from kingdoms.bots.mcts import rewards

    assert make_bot("dominion", "best").rollout == "whole"
    assert make_bot("dominion", "best:rollout=step").rollout == "step"
    with pytest.raises(InvalidConfig, match="rollout must be one of whole, step"):
        make_bot("dominion", "best:rollout=tree")
    start = new_game("dominion", 2, 3, {"kingdom": "First Game"})
    assert isinstance(start, DominionState)
    for seed in range(3):
        twins = [start.determinize(0, random.Random(seed)) for _ in range(4)]
        for t in twins:
            t.logging = False
        whole = BestBot(reward="share")._finish(twins[0], kingdom_rollout, random.Random(seed))
        finish_rollout(twins[1], random.Random(seed), 100_000)
        step = BestBot(rollout="step", reward="share")._finish(
            twins[2], kingdom_playout, random.Random(seed)
        )
        rng = random.Random(seed)
        while twins[3].current_player >= 0:
            twins[3].apply(kingdom_playout(twins[3], rng))
        for played, by_hand in ((whole, twins[1]), (step, twins[3])):
            out = by_hand.outcome()
            assert out is not None
            assert played == rewards(out.scores, out.winners, "relative")
        assert twins[0].outcome() == twins[1].outcome()
        assert twins[2].outcome() == twins[3].outcome()


def _start(kingdom: list[str], seed: int = 5) -> DominionState:
    state = new_game("dominion", 2, seed, {"kingdom": kingdom})
    assert isinstance(state, DominionState)
    state.logging = False
    return state


WITCH_KINGDOM = ["witch", "cellar", "moat", "chapel", "harbinger", "vassal", "smithy",
                 "village", "woodcutter", "gardens"]  # fmt: skip


def test_the_plan_search_picks_witch_over_big_money_on_a_witch_kingdom() -> None:
    """Weighing Big Money Ultimate (given first: the plan kept unless beaten) against
    Witch and Big Money with two Witches, the search leaves Big Money for a Witch
    plan; and among every candidate on that kingdom the Witch plans lead."""
    from kingdoms.bots.dominion.best import PlanSearch

    state = _start(WITCH_KINGDOM)
    plans = PlanSearch(tuple(WITCH_KINGDOM), 0)
    plans.names = ("big-money-ultimate", "witch", "bmu+witch:2")
    plans.alive = [0, 1, 2]
    rng = random.Random(1)
    for _ in range(3):  # three decisions of the opening
        plans.run(state, 0, rng, None, 60)
    assert plans.rounds == 60
    assert plans.choice(2.0) in ("witch", "bmu+witch:2")
    for i in (1, 2):
        mean, se = plans.gain(i, 0)
        assert mean > 3 * se
    full = PlanSearch(tuple(WITCH_KINGDOM), 0)
    assert full.names[0] == "witch" and "bmu+witch:2" in full.names
    assert "bmu+gardens" not in full.names  # Victory cards are no plan of their own
    rng = random.Random(2)
    for _ in range(3):
        full.run(state, 0, rng, None, 30 * len(full.names))
    assert "witch" in full.names[full.leader()]
    assert len(full.alive) < len(full.names)  # the far-behind plans were dropped
    assert 0 in full.alive and full.choice(2.0) in ("witch", "bmu+witch", "bmu+witch:2")


GARDENS_KINGDOM = ["workshop", "gardens", "cellar", "chancellor", "feast", "festival",
                   "market", "militia", "moneylender", "throne_room"]  # fmt: skip


def test_the_plan_search_weighs_a_gardens_rush_with_throne_rooms() -> None:
    """On a Workshop/Gardens kingdom with Throne Room the plan search also weighs the
    rush with Throne Rooms (``rush=on``, the default; not with ``rush=off``), and from
    a position where it beats ``workshop-gardens`` (seed 5: paired, against the
    bundled rush) it takes it; from one where the Workshop race goes the other way
    (seed 11) it keeps ``workshop-gardens``."""
    from kingdoms.bots.dominion.best import PlanSearch, plan_names
    from kingdoms.bots.dominion.opponent import rush_strategy

    k = tuple(GARDENS_KINGDOM)
    rushes = [n for n in plan_names(k) if n.startswith("rush:")]
    assert rushes == ["rush:workshop+gardens+throne_room", "rush:feast+gardens+throne_room"]
    assert not [n for n in plan_names(k, rush=False) if n.startswith("rush:")]
    assert PlanSearch(k, 0).names == plan_names(k)
    assert PlanSearch(k, 0, rush=False).names == plan_names(k, rush=False)
    assert rush_strategy("rush:workshop+gardens+throne_room").play_cards == (
        "throne_room",
        "workshop",
    )
    with pytest.raises(ValueError, match="not a rush strategy name"):
        rush_strategy("rush:workshop+gardens+smithy")
    picked = {}
    for seed in (5, 11):
        plans = PlanSearch(k, 0)
        plans.names = ("workshop-gardens", "rush:workshop+gardens+throne_room")
        plans.alive = [0, 1]
        rng = random.Random(1)
        for _ in range(2):
            plans.run(
                _start(GARDENS_KINGDOM, seed), 0, rng, None, 100, others={1: "workshop-gardens"}
            )
        picked[seed] = plans.choice(2.0)
    assert picked == {5: "rush:workshop+gardens+throne_room", 11: "workshop-gardens"}
    bot = make_bot("dominion", "best:rush=off")
    assert isinstance(bot, BestBot) and not bot.rush
    with pytest.raises(InvalidConfig, match="rush must be one of on, off"):
        make_bot("dominion", "best:rush=maybe")


def test_the_plan_search_is_reproducible_from_its_seed() -> None:
    from kingdoms.bots.dominion.best import PlanSearch

    state = _start(WITCH_KINGDOM)
    runs = []
    for seed in (3, 3, 4):
        plans = PlanSearch(tuple(WITCH_KINGDOM), 0)
        plans.run(state, 0, random.Random(seed), None, 5 * len(plans.names))
        plans.run(state, 0, random.Random(seed + 10), None, 5 * len(plans.names))
        runs.append((plans.results, plans.alive))
    assert runs[0] == runs[1] and runs[0] != runs[2]


def _searched_kinds(
    bot: Any, seed: int, until_turn: int | None = None
) -> tuple[Any, list[tuple[int, str]]]:
    """``bot`` in seat 0 against ``big-money-ultimate`` on the Witch kingdom (to the
    end, or until seat 0's turn ``until_turn``): the state, and per searched decision
    seat 0's turn and what it searched (``plan`` or ``move``)."""
    state = _start(WITCH_KINGDOM, seed)
    other = make_bot("dominion", "big-money-ultimate")
    rngs = seat_rngs(seed, 2)
    kinds: list[tuple[int, str]] = []
    while state.current_player >= 0 and (until_turn is None or state.turns[0] < until_turn):
        legal = state.legal_actions()
        if state.current_player == 1:
            state.apply(other.act(state.view(1), legal, rngs[1]))
            continue
        turn = state.turns[0]
        state.apply(bot.act(state.view(0), legal, rngs[0]))
        if bot.last_kind:
            kinds.append((turn, bot.last_kind))
            assert bot.last_iterations > 0
    return state, kinds


def test_best_weighs_its_plan_in_the_opening_then_keeps_it() -> None:
    """During its first ``PLAN_TURNS`` turns ``best`` runs the plan search with each
    decision's budget and plays the leading plan's moves; then it searches moves,
    its own seat rolled out as the chosen plan.  A new game starts a new search;
    ``plan=table`` never searches plans."""
    from kingdoms.bots.dominion.best import PLAN_TURNS

    bot = make_bot("dominion", "best:iterations=40,seed=4")
    for seed in (6, 7):
        state, kinds = _searched_kinds(bot, seed)
        assert {k for t, k in kinds if t < PLAN_TURNS} == {"plan"}
        assert {k for t, k in kinds if t >= PLAN_TURNS} == {"move"}
        assert bot.plans is not None and bot.plans.rounds >= 2 * PLAN_TURNS
        assert "witch" in bot.plans.choice(2.0)
        assert state.owned(0).count(BY_ID["witch"]) >= 1
    table = make_bot("dominion", "best:iterations=40,seed=4,plan=table")
    state = _start(WITCH_KINGDOM)
    while state.current_player == 0:
        state.apply(table.act(state.view(0), state.legal_actions(), random.Random(0)))
        assert table.last_kind != "plan" and table.plans is None
    with pytest.raises(InvalidConfig, match="plan must be one of search, table"):
        make_bot("dominion", "best:plan=guess")


@pytest.mark.parametrize("turns", [0, 3])
def test_plan_turns_sets_how_long_the_plan_is_weighed(turns: int) -> None:
    """``plan_turns``: the plan search runs in the seat's first ``plan_turns`` turns
    (none with 0), the move search after; a value that is not a whole number of 0 or
    more is named."""
    bot = make_bot("dominion", f"best:iterations=40,seed=4,plan_turns={turns}")
    _state, kinds = _searched_kinds(bot, 6, turns + 3)
    assert {k for t, k in kinds if t < turns} == ({"plan"} if turns else set())
    assert {k for t, k in kinds if t >= turns} == {"move"}
    rounds = 0 if bot.plans is None else bot.plans.rounds
    assert (rounds > 0) == (turns > 0)
    for bad in ("-1", "1.5", "on"):
        with pytest.raises(InvalidConfig, match="plan_turns must be a whole number"):
            make_bot("dominion", f"best:plan_turns={bad}")


def _matchup_bench() -> Any:
    """``bench/best_matchups.py`` loaded as a module (bench/ is not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("best_matchups", ROOT / "bench/best_matchups.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def test_the_matchup_bench_adds_the_cached_optimize_winners(tmp_path: Any) -> None:
    """``bench/best_matchups.py`` plays the ``kingdoms optimize`` winner of a kingdom
    as a third opponent; with ``--optimize-cached-only`` only those already cached."""
    import argparse
    import hashlib

    from kingdoms.bots.dominion.bundled import bundled_text

    bench = _matchup_bench()
    args = argparse.Namespace(
        random=2, seed=1, spec="best:iterations=2", geronimoo=None, optimize_minutes=1.0,
        optimize_final=50, cache=str(tmp_path), optimize_cached_only=True, only=[],
        pinned=str(tmp_path / "pinned"),
    )  # fmt: skip
    ks = bench.kingdoms(args)
    assert len(ks) == 8 and all(len(k["cards"]) == 10 for k in ks)
    assert [m["kind"] for m in bench.matchups(args)] == ["bundled"] * 8
    assert bench.optimized(ks[0]["cards"], args) is None
    # the cache's file for the first kingdom (same cards, seed and budget)
    key = hashlib.sha256(f"{','.join(ks[0]['cards'])} 1 1.0 50".encode()).hexdigest()[:12]
    (tmp_path / f"optimized-{key}.toml").write_text(bundled_text("big-money-ultimate"))
    ms = bench.matchups(args)
    assert [m["kind"] for m in ms][:2] == ["bundled", "optimized"] and len(ms) == 9
    row = bench.play(ms[1], 0, args)
    assert row["kind"] == "optimized" and row["spec"] == "best:iterations=2"
    assert row["win"] in (0.0, 0.5, 1.0)
    args.only = [f"{ks[0]['name']}:optimized"]  # --only: the chosen matchups alone
    assert [(m["kingdom"], m["kind"]) for m in bench.matchups(args)] == [
        (ks[0]["name"], "optimized")
    ]
    assert "| Workshop/Gardens | optimized: `optimized-" in bench.table([row], markdown=True)
    # a winner pinned for the same cards, seed and budget comes before the cache's
    (tmp_path / "pinned").mkdir()
    pinned = tmp_path / "pinned" / f"optimized-{key}.toml"
    pinned.write_text(bundled_text("smithy"))
    assert bench.optimized(ks[0]["cards"], args) == str(pinned)
    args.pinned = ""
    assert bench.optimized(ks[0]["cards"], args) == str(tmp_path / f"optimized-{key}.toml")


_BENCH_PLAY: list[Any] = []
"""The matchup bench's own ``play`` while a test plays through :func:`_play_noting_pid`."""


def _play_noting_pid(m: Any, game: int, args: Any) -> dict[str, Any]:
    """The bench's ``play``, its row marked with the process that played it."""
    import os

    return {**_BENCH_PLAY[0](m, game, args), "pid": os.getpid()}


def test_the_matchup_bench_plays_the_same_games_on_several_processes(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--jobs 2`` plays the games one process plays, in the table's order, on two
    other processes, into one ``--out`` that a later run resumes from (each game once);
    ``--jobs 0`` is refused.  A fixed strategy as the measured bot, so the games
    themselves must be equal."""
    import os
    import sys

    bench = _matchup_bench()
    monkeypatch.setitem(sys.modules, bench.__name__, bench)  # the workers find ``play``
    monkeypatch.setattr(sys.modules[__name__], "_BENCH_PLAY", [bench.play])
    monkeypatch.setattr(bench, "play", _play_noting_pid)
    common = ["--random", "1", "--optimize-minutes", "0", "--spec", "big-money"]
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert bench.main([*common, "--games", "2", "--out", str(one)]) == 0
    assert bench.main([*common, "--games", "1", "--jobs", "2", "--out", str(two)]) == 0
    assert len(bench.read_rows(two)) == 7  # game 0 of the 7 bundled matchups
    assert bench.main([*common, "--games", "2", "--jobs", "2", "--out", str(two)]) == 0

    def games(path: Any) -> list[tuple[Any, ...]]:
        rows = bench.read_rows(path)
        return sorted(
            (r["kingdom"], r["kind"], r["game"], r["seat"], r["seed"], tuple(r["scores"]), r["win"])
            for r in rows
        )

    assert len(games(one)) == 14 and games(two) == games(one)
    rows = bench.read_rows(two)
    assert [r["game"] for r in rows] == [0] * 7 + [1] * 7  # every matchup advances evenly
    assert {r["pid"] for r in bench.read_rows(one)} == {os.getpid()}
    runs = [{r["pid"] for r in rows[:7]}, {r["pid"] for r in rows[7:]}]
    assert all(os.getpid() not in run and len(run) <= 2 for run in runs), runs
    assert max(len(run) for run in runs) == 2, runs  # both processes played
    with pytest.raises(SystemExit):
        bench.main([*common, "--jobs", "0"])


RANDOM_7 = ["alchemist", "apothecary", "bandit", "bureaucrat", "chapel", "feast",
            "poacher", "vineyard", "witch", "woodcutter"]  # fmt: skip
REWARD_SPEC = "best:plan=table,opponent=bundled,iterations=100,seed=1"


def _late_position(seed: int, step: int) -> DominionState:
    """The game of ``best:reward=share`` (a fresh bot each decision) against ``witch``
    on random 7's cards, at ``step``."""
    state = new_game("dominion", 2, seed, {"kingdom": RANDOM_7})
    assert isinstance(state, DominionState)
    state.logging = False
    other = make_bot("dominion", "witch")
    rngs = seat_rngs(seed, 2)
    while state.step < step:
        p = state.current_player
        legal = state.legal_actions()
        if p == 0 and len(legal) > 1:
            bot = make_bot("dominion", REWARD_SPEC + ",reward=share")
            state.apply(bot.act(state.view(0), legal, random.Random(0)))
        else:
            state.apply(other.act(state.view(p), legal, rngs[p]))
    assert state.current_player == 0
    return state


def _buys(state: DominionState, rewards: tuple[str, ...]) -> dict[str, str]:
    from kingdoms.dominion.data import CARDS, NUM_CARDS

    legal = state.legal_actions()
    out = {}
    for reward in rewards:
        bot = make_bot("dominion", f"{REWARD_SPEC},reward={reward}")
        out[reward] = CARDS[bot.act(state.view(0), legal, random.Random(0)) % NUM_CARDS].id
    return out


def test_the_move_search_scores_the_win_with_the_share_of_points() -> None:
    """``reward=mix`` scores a rollout by the mean of the win and the seat's share of
    the points; ``reward=share`` (the default) by the share alone; ``reward=end`` as
    ``mix`` near the end of the game (:func:`best._endgame`) and as ``share`` before.
    Late in a Witch game, with Duchies and Curses gone (two piles empty), the share
    alone takes an Estate that brings the third pile closer; the mix and ``end`` take
    a Silver, from the same view, seed and rollouts.  Earlier (turn 14), where the
    mix takes an Estate, ``end`` takes the share's Silver."""
    from kingdoms.bots.dominion.best import _endgame
    from kingdoms.dominion.data import CARDS

    assert BestBot(reward="mix").rewards([30, 20], [0]) == [0.8, 0.2]
    assert BestBot().rewards([30, 20], [0]) == [0.6, 0.4]
    assert BestBot(reward="mix").rewards([25, 25], [0, 1]) == [0.5, 0.5]
    assert make_bot("dominion", "best").reward == "auto"
    assert make_bot("dominion", "best:reward=mix").reward == "mix"
    wrong = "reward must be one of auto, share, mix, end, not 'win'"
    with pytest.raises(InvalidConfig, match=wrong):
        make_bot("dominion", "best:reward=win")
    late = _late_position(3, 98)
    assert late.turns == [21, 21]
    assert {"duchy", "curse"} <= {CARDS[i].id for i in late.piles if late.supply[i] == 0}
    assert _endgame(late)
    assert _buys(late, ("share", "mix", "end", "auto")) == {
        "share": "estate",
        "mix": "silver",
        "end": "silver",
        "auto": "silver",  # a Witch kingdom: auto plays end
    }
    earlier = _late_position(0, 64)
    assert earlier.turns == [13, 14]
    assert not _endgame(earlier) and not _endgame(_start(RANDOM_7))
    assert _buys(earlier, ("share", "mix", "end")) == {
        "share": "silver",
        "mix": "estate",
        "end": "silver",
    }


def test_the_default_reward_counts_the_win_near_the_end_on_cursing_kingdoms_only() -> None:
    """``reward=auto`` (the default) is ``end`` on a kingdom with a card that gives
    Curses (Witch, Familiar) and ``share`` elsewhere: the same move as that reward
    from the same view, seed and rollouts, and the choice is made per kingdom."""
    from kingdoms.bots.dominion.best import _cursing

    assert _cursing(tuple(RANDOM_7)) and _cursing(("familiar", "smithy"))
    assert not _cursing(tuple(c for c in RANDOM_7 if c != "witch"))
    bot = BestBot(reward="auto", iterations=20, seed=1)
    witch = _late_position(3, 98)
    bot.act(witch.view(0), witch.legal_actions(), random.Random(0))
    assert bot._reward == "end" and bot._mix  # late in a Witch game: the win counts
    no_witch = _start([c if c != "witch" else "smithy" for c in RANDOM_7])
    bot.act(no_witch.view(0), no_witch.legal_actions(), random.Random(0))
    assert bot._reward == "share" and not bot._mix


def test_the_matchup_bench_summary_reports_each_part_of_the_goal(
    tmp_path: Any, capsys: Any
) -> None:
    """``--summary`` merges the ``--out`` files of a split run, cuts every matchup to
    its first ``--first`` games (each game once), and reports per matchup whether the
    score is ≥ 55 % and, apart, whether the interval's lower bound is above 50 %, then
    the pooled scores with their intervals."""
    import json

    bench = _matchup_bench()

    def row(kingdom: str, kind: str, game: int, win: float) -> str:
        return json.dumps({"kingdom": kingdom, "kind": kind, "opponent": "witch", "game": game,
                           "seat": game % 2, "spec": "best", "win": win, "cpu": 2.0})  # fmt: skip

    # "A": 20 wins of 20 then a loss (cut away by --first 20); "B": 12 of 20 (60 %,
    # lower bound under 50 %); "C": 10 of 20 (50 %).  "B" is split over two files,
    # and one of its games repeats.
    a = [row("A", "bundled", g, 1.0) for g in range(20)] + [row("A", "bundled", 20, 0.0)]
    b = [row("B", "bundled", g, 1.0 if g < 12 else 0.0) for g in range(20)]
    c = [row("C", "optimized", g, 1.0 if g % 2 else 0.0) for g in range(20)]
    (tmp_path / "one.jsonl").write_text("\n".join(a + b[:10] + c) + "\n")
    (tmp_path / "two.jsonl").write_text("\n".join(b[9:]) + "\n")
    files = [str(tmp_path / "one.jsonl"), str(tmp_path / "two.jsonl")]
    assert bench.main(["--summary", *files, "--first", "20", "--markdown"]) == 0
    out = capsys.readouterr().out
    assert "| A | bundled: `witch` | 20 | 100.0% | 83.9%–100.0% | yes | yes |" in out
    assert "| B | bundled: `witch` | 20 | 60.0% | 38.7%–78.1% | yes | **no** |" in out
    assert "| C | optimized: `witch` | 20 | 50.0% | 29.9%–70.1% | **no** | **no** |" in out
    assert "all kingdoms against bundled: 40 games, 80.0% [65.2%-89.5%]" in out
    assert "all matchups: 60 games, 70.0% [57.5%-80.1%]; 20 games a matchup;" in out
    assert "2.00 CPU s a game" in out
    assert "2 of 3 matchups miss the goal" in out
    assert "1 under 55 %, 2 with the lower bound at or below 50 %" in out
    # the table lists the kingdoms in the bench's order, whatever the files' order
    late = [row("random 2", "bundled", 0, 1.0), row("random 10", "optimized", 0, 1.0),
            row("random 10", "bundled", 0, 1.0), row("Spy/Thief", "geronimoo", 0, 1.0)]  # fmt: skip
    (tmp_path / "late.jsonl").write_text("\n".join(late) + "\n")
    assert bench.main(["--summary", str(tmp_path / "late.jsonl"), "--markdown"]) == 0
    lines = capsys.readouterr().out.splitlines()[2:6]
    kingdoms = [line.split(" | ")[0].removeprefix("| ") for line in lines]
    assert kingdoms == ["Spy/Thief", "random 2", "random 10", "random 10"]
    assert [line.split(" | ")[1].split(":")[0] for line in lines] == [
        "geronimoo", "bundled", "bundled", "optimized"]  # fmt: skip
    # without --first every game counts once: "A" has 21
    assert bench.main(["--summary", *files]) == 0
    out = capsys.readouterr().out
    assert "20-21 games a matchup" in out
    # a gzipped --out file (as the committed games are kept) reads the same
    with gzip.open(tmp_path / "one.jsonl.gz", "wt", encoding="utf-8") as f:
        f.write((tmp_path / "one.jsonl").read_text())
    zipped = [str(tmp_path / "one.jsonl.gz"), files[1]]
    assert bench.main(["--summary", *zipped, "--first", "20", "--markdown"]) == 0
    assert "2 of 3 matchups miss the goal" in capsys.readouterr().out


def _banked_game(spec: str) -> list[tuple[int, int, bool, float]]:
    """``spec`` against ``witch`` on First Game: each searched move's paired rounds,
    candidates, whether it stopped early, and the budget banked after it."""
    state = new_game("dominion", 2, 5, {"kingdom": "First Game"})
    bot = make_bot("dominion", spec)
    other = make_bot("dominion", "witch")
    rngs = seat_rngs(4, 2)
    out = []
    while state.current_player >= 0:
        p = state.current_player
        legal = state.legal_actions()
        if p == 1:
            state.apply(other.act(state.view(1), legal, rngs[1]))
            continue
        move = bot.act(state.view(0), legal, rngs[0])
        if bot.last_kind == "move":
            k = len(bot.last_stats)
            out.append((bot.last_iterations // k, k, bot.stopped_early, bot.banked))
        state.apply(move)
    return out


def test_the_bank_stops_clear_decisions_at_its_looks_and_spends_the_saving_on_close_ones() -> None:
    """``bank=on``: the search looks whether to stop only after the rounds of
    ``STOP_LOOKS``, and stops there when one candidate leads every other by
    ``stop_bound`` SEs (Student t, Bonferroni over the looks and the candidates); the
    rollouts it saved are banked and a later close decision spends them (at most
    ``BANK_LIMIT`` times its own budget), so the searched decisions never spend more
    than their budgets together.  The default level banks, the strong one does not;
    ``bank=off`` spends every budget."""
    from kingdoms.bots.dominion.best import BANK_LIMIT, STOP_LOOKS, _clear, stop_bound

    assert make_bot("dominion", "best").bank is True
    assert make_bot("dominion", "best:strong").bank is False
    assert make_bot("dominion", "best:bank=off").bank is False
    assert make_bot("dominion", "best:strong,bank=on").bank is True
    with pytest.raises(InvalidConfig, match="bank must be one of off, on, not 'maybe'"):
        make_bot("dominion", "best:bank=maybe")
    off = _banked_game("best:iterations=200,seed=2,bank=off")
    assert all(n == 200 // k and not s for n, k, s, _ in off)
    on = _banked_game("best:iterations=200,seed=2")
    early = [(n, k) for n, k, s, _ in on if s]
    assert early and all(n in STOP_LOOKS and n * k < 200 for n, k in early)
    assert {n for n, _ in early} != {STOP_LOOKS[0]}  # later looks stop too
    spent = [n * k for n, k, s, _ in on if not s and n * k > 200]
    assert spent and max(spent) <= 200 * BANK_LIMIT  # close ones spent the saving
    assert sum(n * k for n, k, _, _ in on) <= 200 * len(on)  # never more than the budgets
    assert all(b >= 0 for _, _, _, b in on)
    # the bound: wider with fewer rounds (the SE is a guess) and more candidates
    assert stop_bound(16, 4) > stop_bound(512, 4) > stop_bound(512, 1) > 2.3
    assert stop_bound(16, 4) == pytest.approx(3.375, abs=0.01)  # t(15) at 0.05/24
    zero = [[0.0] * 3 for _ in range(3)]
    assert _clear(zero, zero, 16, 3)  # every candidate scored the same every round
    # candidate 0 leads 1 and 2 by a mean 0.5, SD 0.5: 3.9 SEs after 16 rounds
    ahead = [[0.0, 8.0, 8.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    ahead2 = [[0.0, 8.0, 8.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    assert _clear(ahead, ahead2, 16, 3)
    # 3.1 SEs ahead of four others is not enough after 16 rounds (bound 3.37)
    lead = 3.1 * 0.5 / 15**0.5  # mean lead of 3.1 SEs with SD 0.5
    five = [[0.0] * 5 for _ in range(5)]
    five2 = [[0.0] * 5 for _ in range(5)]
    for j in range(1, 5):
        five[0][j] = 16 * lead
        five2[0][j] = 16 * (0.25 + lead * lead)
    assert not _clear(five, five2, 16, 5)
    assert _clear([r[:2] for r in five[:2]], [r[:2] for r in five2[:2]], 16, 2)


def test_the_banks_stop_rarely_picks_a_worse_candidate() -> None:
    """Two candidates with noise SD 0.2 each, the first better: by 0.01, over 200
    simulated decisions the search stops with the worse one ahead at most
    ``STOP_ALPHA`` of the time; by 0.1, it stops with the better one ahead in most of
    them (by its fourth look)."""
    from kingdoms.bots.dominion.best import STOP_ALPHA, STOP_LOOKS, _clear

    def stops(margin: float, trials: int = 200) -> tuple[int, int]:
        rng = random.Random(7)
        looks = set(STOP_LOOKS[:4])
        right = wrong = 0
        for _ in range(trials):
            pair = [[0.0, 0.0], [0.0, 0.0]]
            pair2 = [[0.0, 0.0], [0.0, 0.0]]
            for n in range(1, max(looks) + 1):
                d = rng.gauss(0.5 + margin, 0.2) - rng.gauss(0.5, 0.2)
                pair[0][1] += d
                pair2[0][1] += d * d
                if n in looks and _clear(pair, pair2, n, 2):
                    right += pair[0][1] > 0
                    wrong += pair[0][1] < 0
                    break
        return right, wrong

    assert stops(0.01)[1] <= 200 * STOP_ALPHA
    right, wrong = stops(0.1)
    assert right >= 150 and wrong == 0


RANDOM_1 = ["adventurer", "alchemist", "bureaucrat", "gardens", "golem", "library",
            "mine", "moat", "poacher", "spy"]  # fmt: skip


def test_plan_keep_sets_how_far_a_plan_must_lead_the_tables() -> None:
    """``plan_keep``: the standard errors by which the opening's plan search must
    find another plan ahead of the table's (``keep`` unless given).  From the same
    rounds (same seed and rollouts), the default keeps the table's plan on random 1,
    ``plan_keep=0`` plays the plan that leads."""
    with pytest.raises(InvalidConfig, match="plan_keep must be a number of 0 or more"):
        make_bot("dominion", "best:plan_keep=-1")
    with pytest.raises(InvalidConfig, match="plan_keep must be a number of 0 or more"):
        make_bot("dominion", "best:plan_keep=lots")
    state = _start(RANDOM_1)
    chosen = {}
    for spec in ("", ",plan_keep=0"):
        bot = make_bot("dominion", f"best:iterations=400,seed=1,opponent=bundled{spec}")
        assert isinstance(bot, BestBot)
        bot.act(state.view(0), state.legal_actions(), random.Random(0))
        assert bot.plans is not None and bot.plans.rounds >= 8
        chosen[spec] = (bot.plans.choice(bot._plan_keep()), bot.plans.names[bot.plans.leader()])
    assert chosen[""][0] == "moat"  # the table's plan
    assert chosen[",plan_keep=0"][0] == chosen[""][1] != "moat"  # the leader


RANDOM_9 = ["adventurer", "familiar", "gardens", "herbalist", "philosophers_stone",
            "poacher", "scrying_pool", "throne_room", "university", "witch"]  # fmt: skip


def test_pairs_adds_plans_of_two_cards_to_the_plan_search() -> None:
    """``pairs=on``: on a kingdom with a card that gives Curses, the plan search also
    weighs plans of two cards (two Witches and two Universities: the plan
    ``kingdoms optimize`` found on random 9), and a pair plays both its cards."""
    from kingdoms.bots.dominion.search import _strategy, pair_plans

    with pytest.raises(InvalidConfig, match="pairs must be one of on, off, not 'both'"):
        make_bot("dominion", "best:pairs=both")
    state = _start(RANDOM_9)
    names = {}
    for spec in ("", ",pairs=on"):
        bot = make_bot("dominion", f"best:iterations=30,seed=1,opponent=bundled{spec}")
        assert isinstance(bot, BestBot)
        bot.act(state.view(0), state.legal_actions(), random.Random(0))
        assert bot.plans is not None and bot.plans.rounds >= 1
        names[spec] = bot.plans.names
    pairs = set(names[",pairs=on"]) - set(names[""])
    assert "bmu+witch:2+university:2" in pairs
    assert "bmu+familiar:2+philosophers_stone:2" in pairs
    # without pairs=on none of them (the many plans, of two cards too, are another family)
    kingdom = tuple(state.config.options["kingdom"])
    assert pairs == set(pair_plans(kingdom)) and not pairs & set(names[""])
    assert set(names[""]) <= set(names[",pairs=on"])
    # a game of the pair plan: it buys both cards (Universities gain more Witches)
    bot = _strategy("bmu+witch:2+university:2")[2]
    game = _start(RANDOM_9, seed=3)
    rng = random.Random(3)
    other = make_bot("dominion", "big-money-ultimate")
    while game.current_player >= 0:
        p = game.current_player
        mover = bot if p == 0 else other
        game.apply_checked(mover.act(game.view(p), game.legal_actions(), rng))
    owned = game.owned(0)
    assert owned.count(BY_ID["witch"]) >= 2
    assert owned.count(BY_ID["university"]) >= 1
    assert owned.count(BY_ID["potion"]) == 1


def test_the_published_matchup_table_is_the_summary_of_the_committed_games(
    capsys: Any,
) -> None:
    """docs/best.md's matchup table is what ``--summary`` prints for the games committed
    in ``bench/data/best-matchups/games.jsonl.gz``, every ``kingdoms optimize`` winner
    they were played against is pinned beside them, and every matchup of the bench
    (six Geronimoo kingdoms with three opponents, twelve random ones with two) is there
    with the same number of games, seats alternated."""
    bench = _matchup_bench()
    games = bench.PINNED / "games.jsonl.gz"
    rows = bench.read_rows(games)
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["kingdom"], r["kind"]), []).append(r)
    assert len(groups) == 42
    counts = {len(rs) for rs in groups.values()}
    assert len(counts) == 1, counts
    for rs in groups.values():
        assert sorted(r["game"] for r in rs) == list(range(len(rs)))
        assert all(r["seat"] == r["game"] % 2 for r in rs)
        if rs[0]["kind"] == "optimized":
            assert (bench.PINNED / Path(rs[0]["opponent"]).name).exists(), rs[0]["opponent"]
    assert bench.main(["--summary", str(games), "--markdown"]) == 0
    doc = (ROOT / "docs/best.md").read_text(encoding="utf-8")
    printed = [line.rstrip() for line in capsys.readouterr().out.splitlines() if line.strip()]
    missing = [line for line in printed if line not in doc]
    assert not missing, missing


def test_the_plans_bench_plays_every_plan_alone_on_the_tables_deals() -> None:
    """``--plans N`` plays every plan ``best`` weighs (and those of ``pairs=on``,
    marked) as a fixed strategy against the matchup's opponent, in ``best``'s seat on
    the deals of the table's games: on a Witch kingdom against the bundled ``witch``,
    Big Money with a Cellar loses far more often than Witch itself, and the table
    names the plan ``best`` starts from and the strongest one alone."""
    from kingdoms.bots.base import make_bot
    from kingdoms.bots.dominion.best import plan_bot, plan_names
    from kingdoms.core.registry import new_game
    from kingdoms.core.runner import play_out, seat_rngs

    bench = _matchup_bench()
    cards = tuple(WITCH_KINGDOM)
    m = {"kingdom": "witch test", "kind": "bundled", "opponent": "witch", "cards": list(cards)}
    rows = bench.plan_rows(m, 40)
    # the plans the default level weighs
    on = _default_switches()
    assert [r["plan"] for r in rows] == list(plan_names(cards, True, True, **on))
    assert {r["plan"] for r in rows if not r["pairs_only"]} == set(plan_names(cards, **on))
    assert all(r["games"] == 40 and 0 <= r["win"] <= 40 for r in rows)
    score = {r["plan"]: r["win"] / 40 for r in rows}
    assert score["bmu+cellar"] < 0.3 < score["witch"], score
    # a plan's first game: the plan's own strategy in seat 0 on game 0's deal
    seed = bench.game_seed(m, 0)
    state = new_game("dominion", 2, seed, {"kingdom": list(cards)})
    play_out(state, [plan_bot("bmu+cellar"), make_bot("dominion", "witch")], seat_rngs(seed, 2))
    outcome = state.outcome()
    assert outcome is not None
    once = next(r for r in bench.plan_rows(m, 1) if r["plan"] == "bmu+cellar")
    assert once["win"] == (0.0 if 0 not in outcome.winners else 1.0 / len(outcome.winners))
    text = bench.plans_table(rows, markdown=True)
    top = max(rows, key=lambda r: r["win"])
    assert f"| `witch` {score['witch']:.1%} | `{top['plan']}`" in text, text


def test_the_plans_option_prints_one_line_per_matchup(capsys: Any) -> None:
    """``best_matchups.py --plans N`` prints, per matchup it plays, the plan ``best``
    starts from and the strongest plan alone, instead of playing ``best``."""
    bench = _matchup_bench()
    argv = ["--plans", "2", "--random", "2", "--optimize-minutes", "0"]
    argv += ["--only", "random 2:bundled"]
    assert bench.main(argv) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("random 2"), lines
    assert "plans x 2 games: table's " in lines[0] and "strongest" in lines[0], lines
    with pytest.raises(SystemExit):
        bench.main(["--plans", "0", "--optimize-minutes", "0"])
    assert "--plans must be 1 or more games a plan, not 0" in capsys.readouterr().err


def test_the_plans_bench_counts_a_game_that_never_ends_as_shared(monkeypatch: Any) -> None:
    """Two fixed strategies can leave every pile standing forever; ``--plans`` gives
    such a game up after ``STALL_STEPS`` steps, counts it shared and says so."""
    bench = _matchup_bench()
    monkeypatch.setattr(bench, "STALL_STEPS", 50)  # no game ends within 50 steps
    cards = tuple(WITCH_KINGDOM)
    m = {"kingdom": "witch test", "kind": "bundled", "opponent": "witch", "cards": list(cards)}
    rows = bench.plan_rows(m, 3)
    assert all(r["stalled"] == 3 and r["win"] == 1.5 for r in rows)
    assert f"({3 * len(rows)} stalled games, counted shared)" in bench.plans_table(rows, False)


def test_replan_weighs_the_plans_again_when_the_opponent_model_changes() -> None:
    """``replan=on``: rounds played with one model of the other seat are dropped,
    and every plan brought back, when the model changes; rounds with the same model
    add up.  ``off`` (the default) adds them up whatever the model.  In a game, a
    bot with ``replan`` restarts its plan search when its fitted model of the other
    seat moves off the default."""
    from kingdoms.bots.dominion.best import PlanSearch

    state = _start(WITCH_KINGDOM)
    plans = PlanSearch(tuple(WITCH_KINGDOM), 0)
    plans.replan = True
    k = len(plans.names)
    assert plans.run(state, 0, random.Random(1), None, 3 * k) == 3 * k
    plans.alive = plans.alive[:3]  # as if pruned
    plans.run(state, 0, random.Random(2), None, 3 * 3)
    assert plans.rounds == 6 and plans.restarts == 0
    plans.run(state, 0, random.Random(3), None, 2 * k, others={1: "bmu+witch:2"})
    assert plans.rounds == 2 and plans.restarts == 1 and len(plans.alive) == k
    assert plans.model == {1: "bmu+witch:2"}
    plans.run(state, 0, random.Random(4), None, 2 * k, others={1: "bmu+witch:2"})
    assert plans.rounds == 4 and plans.restarts == 1
    kept = PlanSearch(tuple(WITCH_KINGDOM), 0)
    kept.run(state, 0, random.Random(1), None, 3 * k)
    kept.run(state, 0, random.Random(3), None, 2 * k, others={1: "bmu+witch:2"})
    assert kept.rounds == 5 and kept.restarts == 0

    for replan, restarted in (("on", True), ("off", False)):
        spec = f"best:iterations=40,seed=4,plan_turns=5,replan={replan}"
        bot = make_bot("dominion", spec)
        other = make_bot("dominion", "bmu+smithy:2")
        game = _start(WITCH_KINGDOM, 7)
        rngs = seat_rngs(7, 2)
        while game.current_player >= 0 and game.turns[0] < 5:
            legal = game.legal_actions()
            seat = game.current_player
            game.apply((bot if seat == 0 else other).act(game.view(seat), legal, rngs[seat]))
        assert bot.plans is not None and bot.plans.replan == restarted
        assert bot.plans.model == bot.opponents.models() != {}
        assert (bot.plans.restarts > 0) == restarted
    with pytest.raises(InvalidConfig, match="replan must be one of on, off"):
        make_bot("dominion", "best:replan=maybe")


def _play_plan(
    plan: str, cards: list[str], seed: int, until: Callable[[Any], bool] | None = None
) -> Any:
    """A game on ``cards`` with seat 0 playing ``plan`` alone against Big Money
    Ultimate, played to its end or until ``until(game)`` holds after a move."""
    from kingdoms.bots.dominion.best import plan_bot

    game = _start(cards, seed=seed)
    bots = [plan_bot(plan), make_bot("dominion", "big-money-ultimate")]
    rngs = seat_rngs(seed, 2)
    while game.current_player >= 0:
        p = game.current_player
        game.apply_checked(bots[p].act(game.view(p), game.legal_actions(), rngs[p]))
        if until is not None and until(game):
            break
    return game


def _first_gold_witches(plan: str, seed: int) -> int:
    """Witches seat 0 owned when it gained its first Gold, playing ``plan`` alone."""
    game = _play_plan(plan, WITCH_KINGDOM, seed, lambda g: BY_ID["gold"] in g.owned(0))
    owned = game.owned(0)
    if BY_ID["gold"] not in owned:
        raise AssertionError(f"{plan} bought no Gold")
    return int(owned.count(BY_ID["witch"]))


def _default_switches(**given: bool) -> dict[str, bool]:
    """The default level's ``early``, ``many`` and ``trash`` as ``plan_names``'s
    keywords, with ``given`` in place of the level's own."""
    from kingdoms.bots.dominion.best import LEVELS

    on = {k: LEVELS["default"][k] == "on" for k in ("early", "many", "trash")}
    return {**on, **given}


def _plans_weighed(
    cards: list[str], option: str
) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...]]:
    """The plans ``best``'s plan search weighs at its first decision on ``cards`` with
    ``option`` off and on (keyed ``,OPTION=off`` and ``,OPTION=on``), and the kingdom
    as the game dealt it."""
    names = {}
    for spec in (f",{option}=off", f",{option}=on"):
        bot = make_bot("dominion", f"best:iterations=30,seed=1,opponent=bundled{spec}")
        assert isinstance(bot, BestBot)
        state = _start(cards)
        bot.act(state.view(0), state.legal_actions(), random.Random(0))
        assert bot.plans is not None
        names[spec] = bot.plans.names
    return names, tuple(state.config.options["kingdom"])


def _check_level_option(option: str, bad: str) -> None:
    """``best:OPTION=on|off`` parses (``bad`` is refused by name), and each level takes
    its own setting unless given one."""
    from kingdoms.bots.dominion.best import LEVELS

    with pytest.raises(InvalidConfig, match=f"{option} must be one of on, off, not '{bad}'"):
        make_bot("dominion", f"best:{option}={bad}")
    for spec in ("best", "best:strong", f"best:{option}=off", f"best:{option}=on",
                 f"best:strong,{option}=on", f"best:strong,{option}=off"):  # fmt: skip
        bot = make_bot("dominion", spec)
        assert isinstance(bot, BestBot)
        given = f"{option}=" in spec
        want = f"{option}=on" in spec if given else LEVELS[bot.level][option] == "on"
        assert getattr(bot, option) is want, spec


def test_early_weighs_big_money_with_a_terminal_bought_before_gold() -> None:
    """``early=on``: the plan search also weighs Big Money Ultimate with one or two of
    each terminal Action costing 4 or 5 bought before Gold (the Witch and Bandit
    plans ``kingdoms optimize`` finds); such a plan buys its Witches before any Gold,
    where ``bmu+witch:2`` takes Gold at 6 coins first."""
    from kingdoms.bots.dominion.best import early_plans, plan_names

    _check_level_option("early", "soon")
    early = early_plans(tuple(WITCH_KINGDOM))
    # Witch (5) and Smithy (4): terminal; Moat and Chapel cost 2; Village, Cellar give +Actions
    assert early == ("bmu+witch:1:early", "bmu+witch:2:early",
                     "bmu+smithy:1:early", "bmu+smithy:2:early")  # fmt: skip
    # Familiar costs a Potion, Laboratory and Market give +1 Action, Adventurer costs 6
    assert early_plans(("familiar", "laboratory", "market", "adventurer")) == ()
    names, kingdom = _plans_weighed(WITCH_KINGDOM, "early")
    assert names[",early=on"] == plan_names(kingdom, **_default_switches(early=True))
    off = names[",early=off"]
    assert set(names[",early=on"]) - set(off) == set(early)
    # the others keep their order, the table's plan first
    assert [n for n in names[",early=on"] if n not in early] == list(off)
    assert [_first_gold_witches("bmu+witch:2:early", s) for s in (1, 2, 3)] == [2, 2, 2]
    assert min(_first_gold_witches("bmu+witch:2", s) for s in (1, 2, 3)) < 2


SPY_THIEF = ["spy", "thief", "adventurer", "bureaucrat", "festival", "laboratory", "market",
             "militia", "remodel", "woodcutter"]  # fmt: skip


def _owned_at_end(plan: str, seed: int) -> list[int]:
    """The cards seat 0 owns at the end of a game on Spy/Thief playing ``plan`` alone
    against Big Money Ultimate."""
    return list(_play_plan(plan, SPY_THIEF, seed).owned(0))


def test_many_weighs_big_money_with_many_strong_cantrips_and_a_terminal() -> None:
    """``many=on``: the plan search also weighs Big Money Ultimate with up to six of a
    strong cantrip and one or two of a terminal that attacks or gives +Buy (the
    Laboratory and Militia plan ``kingdoms optimize`` finds on Spy/Thief), after every
    other plan; such a plan ends its games with one or two Militias and at most six
    Laboratories (bought after Gold and the mid-game Duchy, so not always all six)."""
    from kingdoms.bots.dominion.best import many_plans, plan_names

    _check_level_option("many", "lots")
    many = many_plans(tuple(SPY_THIEF))
    # Laboratory (+2 Cards) and Market (+1 Card, +$1) give more than they take; Spy
    # only replaces itself and Festival draws nothing; Bureaucrat, Militia and Thief
    # attack, Woodcutter gives +Buy; Remodel does neither, Adventurer costs 6
    assert many == tuple(
        f"bmu+{x}:6+{t}:{n}"
        for x in ("laboratory", "market")
        for t in ("bureaucrat", "militia", "thief", "woodcutter")
        for n in (1, 2)
    )
    # Village gives +2 Actions, Familiar costs a Potion, Smithy neither attacks nor buys
    assert many_plans(("village", "familiar", "witch", "smithy")) == ()
    # Poacher: +1 Card and +$1; Merchant's $1 depends on a Silver; Moat costs 2
    assert many_plans(("merchant", "moat", "poacher", "woodcutter")) == (
        "bmu+poacher:6+woodcutter:1",
        "bmu+poacher:6+woodcutter:2",
    )
    # Council Room gives +Buy; Harbinger and Sentry replace themselves
    assert many_plans(("council_room", "harbinger", "sentry", "market")) == (
        "bmu+market:6+council_room:1",
        "bmu+market:6+council_room:2",
    )
    names, kingdom = _plans_weighed(SPY_THIEF, "many")
    assert names[",many=on"] == plan_names(kingdom, **_default_switches(many=True))
    off = names[",many=off"]
    # after every other plan but the trashing ones (none here): the table's plan stays first
    assert names[",many=on"] == off + many_plans(kingdom)
    assert set(many_plans(kingdom)) == set(many)
    lab, militia = BY_ID["laboratory"], BY_ID["militia"]
    ends = [_owned_at_end("bmu+laboratory:6+militia:2", seed) for seed in (1, 2, 3, 4, 5, 6)]
    labs = [owned.count(lab) for owned in ends]
    assert max(labs) == 6 and min(labs) < 6, labs  # up to six, bought after Gold
    assert {owned.count(militia) for owned in ends} <= {1, 2}, ends
    assert 2 in [owned.count(militia) for owned in ends]


RANDOM_7 = ["alchemist", "apothecary", "bandit", "bureaucrat", "chapel", "feast", "poacher",
            "vineyard", "witch", "woodcutter"]  # fmt: skip


def test_trash_weighs_trashing_plans_with_a_curse_giver() -> None:
    """``trash=on``: on a kingdom with a trasher the plan search also weighs the
    trashing plans (the Chapel, Witch and Poacher plan ``kingdoms optimize`` finds on
    random kingdom 7), after every other plan; such a plan buys its Chapel in the first
    two turns and trashes its Estates and Coppers with it, and buys Witches and
    Poachers up to three."""
    from kingdoms.bots.dominion.best import plan_names, trash_plans
    from kingdoms.bots.dominion.opponent import trash_strategy

    _check_level_option("trash", "some")
    # Witch gives Curses (Bandit and Bureaucrat are then second cards); Poacher,
    # Alchemist and Apothecary draw with +1 Action
    assert trash_plans(tuple(RANDOM_7)) == tuple(
        f"trash:chapel+witch:3{y}"
        for y in ("", "+alchemist:3", "+apothecary:3", "+bandit:3", "+bureaucrat:3", "+poacher:3")
    )
    assert trash_plans(("witch", "poacher", "militia")) == ()  # no trasher
    # no Curse giver: each terminal Attack without a Potion cost, with each cantrip
    assert trash_plans(("sentry", "militia", "laboratory", "scrying_pool", "smithy")) == (
        "trash:sentry+militia:3",
        "trash:sentry+militia:3+laboratory:3",
    )
    for bad in ("trash:smithy+witch:3", "trash:chapel", "trash:chapel+witch", "trash:chapel+gold:2",
                "trash:chapel+witch:3+poacher:3+bandit:3", "chapel+witch:3"):  # fmt: skip
        with pytest.raises(ValueError, match="not a trashing strategy name"):
            trash_strategy(bad)
    names, kingdom = _plans_weighed(RANDOM_7, "trash")
    assert names[",trash=on"] == plan_names(kingdom, **_default_switches(trash=True))
    off = names[",trash=off"]
    assert names[",trash=on"] == off + trash_plans(kingdom)  # the table's plan stays first
    chapel, estate, copper = BY_ID["chapel"], BY_ID["estate"], BY_ID["copper"]
    witch, poacher = BY_ID["witch"], BY_ID["poacher"]
    for seed in (1, 2, 3):
        opening = _play_plan(
            "trash:chapel+witch:3+poacher:3", RANDOM_7, seed, lambda g: g.turns[0] >= 2
        )
        assert opening.owned(0).count(chapel) == 1, seed  # bought in the first two turns
        end = _play_plan("trash:chapel+witch:3+poacher:3", RANDOM_7, seed).owned(0)
        assert end.count(chapel) == 1 and end.count(estate) + end.count(copper) < 10, seed
        assert 1 <= end.count(witch) <= 3 and end.count(poacher) <= 3, seed
