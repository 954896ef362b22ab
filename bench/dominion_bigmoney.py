"""Benchmark: Dominion strategy-bot games, kingdoms vs pyminion 0.4.0, in one run.

Every engine runs in this process (one core), alternating short slices, each for
the same CPU-time budget (``time.process_time``: steadier than wall time on a
loaded machine)::

    .venv/bin/python bench/dominion_bigmoney.py --seconds 10
    .venv/bin/python bench/dominion_bigmoney.py --all        # + BMU, Smithy, Witch, 4 players...
    KINGDOMS_PURE=1 .venv/bin/python bench/dominion_bigmoney.py --all   # the pure path

The kingdoms side is the simulator's game (``kingdoms sim``: ``play_one``, logging
off as the simulator always plays): on the native core where it can play the game
(:mod:`kingdoms.bots.dominion.native`), else on the Python engine.  Each row also
measures the same games on the Python engine (``engine``: new state, the bots' loop,
the result), so the native core's gain is a ratio in the same run too.

pyminion is measured two ways, and the output says which: **as shipped** (importing
``pyminion`` sets the root logger to INFO with a NullHandler, so every game builds
and drops its INFO records: what its users get) and **logging off** (the root
logger at WARNING after the import: both engines log nothing).  The last line
printed is ``ratio: X``: kingdoms' Big Money mirror games/s over pyminion's with
both engines' logging off.  ``--all`` adds the Big Money Ultimate, Smithy (peer:
pyminion's BigMoneySmithy), Witch and 4-player Big Money games (pyminion both ways in
the same interleaved slices), the public API's
``play_out`` (logging off: the native core too), random bots on an Alchemy kingdom,
and ``clone()``'s cost and memory per state (on a mid-game state).

``--profile`` runs the kingdoms side under cProfile and prints the top costs.
"""

from __future__ import annotations

import argparse
import cProfile
import logging
import pstats
import random
import sys
import time
from collections.abc import Callable
from typing import Any


def kingdoms_runner(seed0: int) -> Callable[[int], None]:
    from kingdoms.bots import make_bot
    from kingdoms.core import new_game
    from kingdoms.core.runner import play_out, seat_rngs

    bots = [make_bot("dominion", "big-money"), make_bot("dominion", "big-money")]

    def one(i: int) -> None:
        seed = seed0 + i
        state = new_game("dominion", players=2, seed=seed, options={"kingdom": "First Game"})
        state.logging = False
        play_out(state, bots, seat_rngs(seed, 2))
        if not state.is_terminal():  # pragma: no cover - play_out raises instead
            raise RuntimeError("game did not end")

    return one


def sim_runner(seed0: int, specs: list[str], kingdom: object) -> Callable[[int], None]:
    """Games through the simulator's loop (``kingdoms sim``): bots, trackers, results."""
    from kingdoms.sim.runner import play_one

    options = {"kingdom": kingdom}

    def one(i: int) -> None:
        play_one("dominion", specs, i, seed0, options)

    return one


ALCHEMY = [
    "possession", "golem", "scrying_pool", "apothecary", "alchemist", "herbalist",
    "university", "familiar", "transmute", "philosophers_stone",
]  # fmt: skip
WITCH = ["witch", "moat", "village", "smithy", "market", "militia", "cellar", "chapel",
         "laboratory", "festival"]  # fmt: skip


def random_runner(seed0: int) -> Callable[[int], None]:
    """Random bots (``random_playout``) on an Alchemy kingdom, 3 players."""
    from kingdoms.core import new_game

    def one(i: int) -> None:
        state = new_game("dominion", players=3, seed=seed0 + i, options={"kingdom": ALCHEMY})
        state.logging = False
        state.random_playout(random.Random(seed0 + i))

    return one


def mid_game(seed: int) -> tuple[Any, int, int]:
    """A Big Money mirror (First Game kingdom) stopped half way: (state, its step,
    the step the same game ends at)."""
    from kingdoms.bots import make_bot
    from kingdoms.core import new_game

    def game(stop: int | None) -> Any:
        state = new_game("dominion", players=2, seed=seed, options={"kingdom": "First Game"})
        state.logging = False
        bot = make_bot("dominion", "big-money")
        rng = random.Random(seed)
        while not state.is_terminal() and (stop is None or state.step < stop):
            state.apply(bot.act(state.view(state.current_player), state.legal_actions(), rng))
        return state

    length = game(None).step
    state = game(length // 2)
    if state.is_terminal():  # pragma: no cover - stopped before its end
        raise RuntimeError("the mid-game state is finished")
    return state, state.step, length


def clone_cost(seed: int, copies: int = 2000) -> tuple[float, float, str]:
    """Microseconds of CPU per ``clone()`` and bytes per cloned state, on a Big Money
    mirror half way through, and which step of the game that is."""
    import tracemalloc

    state, step, length = mid_game(seed)
    start = time.process_time()
    for _ in range(copies):
        state.clone()
    per_clone = (time.process_time() - start) / copies * 1e6
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = [state.clone() for _ in range(copies)]
    per_state = (tracemalloc.get_traced_memory()[0] - before) / len(kept)
    tracemalloc.stop()
    return per_clone, per_state, f"step {step} of {length}, turn {sum(state.turns)}"


def pyminion_smithy_runner(seed0: int) -> Callable[[int], None]:
    from pyminion.bots.examples import BigMoneySmithy
    from pyminion.expansions.base import base_set, smithy
    from pyminion.game import Game

    def one(i: int) -> None:
        random.seed(seed0 + i)
        players = [BigMoneySmithy(player_id="s1"), BigMoneySmithy(player_id="s2")]
        game = Game(
            players=players,
            expansions=[base_set],
            kingdom_cards=[smithy],
            log_stdout=False,
            log_file=False,
        )
        game.play()

    return one


def pyminion_logging(off: bool) -> str:
    """Set pyminion's logging: off (the root logger at WARNING) or as shipped (the INFO
    level and NullHandler its import installs); returns the words for the output."""
    import pyminion  # noqa: F401  (its import sets the root logger to INFO)

    root = logging.getLogger()
    root.setLevel(logging.WARNING if off else logging.INFO)
    return "logging off" if off else "as shipped: root logger INFO, records dropped"


def pyminion_runner(seed0: int, players: int = 2) -> Callable[[int], None]:
    from pyminion.bots.examples import BigMoney
    from pyminion.expansions.base import base_set
    from pyminion.game import Game

    def one(i: int) -> None:
        random.seed(seed0 + i)  # pyminion shuffles with the global generator
        bots = [BigMoney(player_id=f"bm{k}") for k in range(players)]
        game = Game(players=bots, expansions=[base_set], log_stdout=False, log_file=False)
        game.play()

    return one


def engine_runner(seed0: int, specs: list[str], kingdom: object) -> Callable[[int], None]:
    """The simulator's games on the Python engine (what ``play_one`` does without the
    native core): a new state, the strategy bots' own loop on the engine, the result."""
    from kingdoms.bots.dominion.bots import _play_game
    from kingdoms.core.runner import DEFAULT_MAX_STEPS, seat_rngs
    from kingdoms.sim.runner import _prepared, _result, seating

    options = {"kingdom": kingdom}
    run = _prepared("dominion", specs, options)
    k = len(specs)

    def one(i: int) -> None:
        seat_bot = seating(i, k)
        bots = [run.makers[b]() for b in seat_bot]
        state = run.new_state(i, seed0)
        state.logging = False
        _play_game(state, bots, seat_rngs(state.config.seed, k), DEFAULT_MAX_STEPS)
        _result(run.g, state, seat_bot, i, None)

    return one


def measure(run_one: Callable[[int], None], seconds: float) -> tuple[int, float]:
    """Games played and elapsed time: whole games until ``seconds`` have passed."""
    run_one(0)  # warm up (imports, caches)
    games = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        run_one(games + 1)
        games += 1
        now = time.process_time()
        if now >= deadline:
            return games, now - start


def measure_interleaved(
    runners: list[Callable[[int], None]], seconds: float, slice_s: float = 0.25
) -> list[tuple[int, float]]:
    """Like :func:`measure` for several engines, alternating short time slices so
    that a change in machine load affects every engine alike."""
    for run_one in runners:
        run_one(0)
    games = [0] * len(runners)
    spent = [0.0] * len(runners)
    while min(spent) < seconds:
        for i, run_one in enumerate(runners):
            if spent[i] >= seconds:
                continue
            start = time.process_time()
            end = start + min(slice_s, seconds - spent[i])
            while True:
                run_one(games[i] + 1)
                games[i] += 1
                now = time.process_time()
                if now >= end:
                    break
            spent[i] += now - start
    return list(zip(games, spent, strict=True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="time budget per engine")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="cProfile the kingdoms side")
    parser.add_argument("--all", action="store_true", help="every game kind, clone() cost")
    parser.add_argument("--top", type=int, default=25, help="rows of the profile to print")
    args = parser.parse_args(argv)

    ours = sim_runner(args.seed, ["big-money"] * 2, "First Game")
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        n, elapsed = measure(ours, args.seconds)
        prof.disable()
        print(f"kingdoms (profiled): {n} games in {elapsed:.2f}s")
        stats = pstats.Stats(prof, stream=sys.stdout)
        stats.sort_stats("tottime").print_stats(args.top)
        stats.sort_stats("cumulative").print_stats(args.top)
        return 0

    import kingdoms
    from kingdoms.sim.runner import native_reason

    try:
        theirs = pyminion_runner(args.seed)
    except ImportError as err:
        print(f"pyminion not installed ({err}); install the 'bench' extra")
        return 1
    print(f"build: {kingdoms.build_kind()}; CPU seconds per engine: {args.seconds}")
    reason = native_reason("dominion", ["big-money"] * 2, {"kingdom": "First Game"})
    print(f"kingdoms: the simulator's games, logging off; native core: {reason or 'yes'}")
    rates: dict[bool, float] = {}
    for off in (False, True):
        how = pyminion_logging(off)
        (n1, t1), (n2, t2) = measure_interleaved([ours, theirs], args.seconds)
        rates[off] = (n1 / t1) / (n2 / t2)
        print(f"big-money mirror: kingdoms {n1 / t1:.0f} games/s, pyminion BigMoney "
              f"({how}) {n2 / t2:.0f} games/s: {rates[off]:.1f}x")  # fmt: skip
    if args.all:
        _more(args.seed, args.seconds)
    print(f"ratio: {rates[True]:.1f}")
    return 0


def with_logging(run_one: Callable[[int], None], off: bool) -> Callable[[int], None]:
    """``run_one`` with pyminion's logging set first (off, or as shipped) when another
    runner of the same slices left it otherwise: both set-ups in one interleaved run."""
    root = logging.getLogger()
    level = logging.WARNING if off else logging.INFO

    def one(i: int) -> None:
        if root.level != level:
            root.setLevel(level)
        run_one(i)

    return one


def _more(seed: int, seconds: float) -> None:
    """The other game kinds, each against its peers measured in the same run: pyminion
    with its logging off and as shipped."""
    from kingdoms.sim.runner import native_reason

    pyminion_logging(True)
    rows: list[tuple[str, list[str], object, Callable[[int], None], str]] = [
        ("big-money-ultimate mirror", ["big-money-ultimate"] * 2, "First Game",
         pyminion_runner(seed), "BigMoney mirror (yardstick)"),
        ("smithy mirror", ["smithy"] * 2, "First Game",
         pyminion_smithy_runner(seed), "BigMoneySmithy mirror"),
        ("witch mirror", ["witch"] * 2, WITCH,
         pyminion_runner(seed), "BigMoney mirror (yardstick)"),
        ("big-money, 4 players", ["big-money"] * 4, "First Game",
         pyminion_runner(seed, 4), "BigMoney, 4 players"),
    ]  # fmt: skip
    for name, specs, kingdom, peer, peer_name in rows:
        ours = sim_runner(seed, specs, kingdom)
        engine = engine_runner(seed, specs, kingdom)
        runners = [with_logging(r, True) for r in (ours, engine, peer)]
        runners.append(with_logging(peer, False))
        (n1, t1), (n2, t2), (n3, t3), (n4, t4) = measure_interleaved(runners, seconds)
        r1, r2, r3, r4 = n1 / t1, n2 / t2, n3 / t3, n4 / t4
        native = native_reason("dominion", specs, {"kingdom": kingdom}) or "native"
        print(f"{name}: kingdoms {r1:.0f} games/s ({native}), engine {r2:.0f} games/s "
              f"({r1 / r2:.1f}x), pyminion {peer_name} {r3:.0f} games/s logging off "
              f"({r1 / r3:.1f}x), {r4:.0f} games/s as shipped ({r1 / r4:.1f}x)")  # fmt: skip
        pyminion_logging(True)
    api = kingdoms_runner(seed)
    (n1, t1), (n2, t2) = measure_interleaved([api, pyminion_runner(seed)], seconds)
    print(f"public API (new_game + play_out, logging off: the native core) big-money mirror: "
          f"{n1 / t1:.0f} games/s, "
          f"{(n1 / t1) / (n2 / t2):.1f}x pyminion")  # fmt: skip
    n, t = measure(random_runner(seed), seconds)
    print(f"random bots, Alchemy, 3 players: {n / t:.0f} games/s")
    per_clone, per_state, where = clone_cost(seed)
    print(f"clone() ({where}): {per_clone:.1f} us CPU; memory per state: {per_state:.0f} bytes")


if __name__ == "__main__":
    sys.exit(main())
