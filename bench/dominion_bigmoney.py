"""Benchmark: 2-player Big Money mirror, kingdoms vs pyminion 0.4.0, in one run.

Both engines run in this process (one core), alternating short slices, each for
the same CPU-time budget (``time.process_time``: steadier than wall time on a
loaded machine)::

    .venv/bin/python bench/dominion_bigmoney.py --seconds 10
    .venv/bin/python bench/dominion_bigmoney.py --all        # + sim, Smithy, Witch, Alchemy
    KINGDOMS_PURE=1 .venv/bin/python bench/dominion_bigmoney.py --all   # the pure path

Each engine runs two ways, all four interleaved:

* **logging off, both**: kingdoms with ``state.logging = False`` (how ``kingdoms
  sim`` plays); pyminion with the root logger raised to WARNING after ``import
  pyminion``, so its ``logger.info`` calls return at once;
* **logging as shipped**: pyminion as its users run it — ``import pyminion`` sets the
  root logger to INFO with a NullHandler, so every game builds and drops its INFO
  records (``log_stdout=False, log_file=False``); kingdoms with ``new_game``'s
  default (the game log kept, ``state.logging = True``).

The kingdoms side goes through the public API only: ``new_game`` + the
``big-money`` bot + ``play_out``.  It prints a ratio for each way (and the mixed
one: kingdoms as ``kingdoms sim`` runs, logging off, against pyminion as shipped);
the last line printed is ``ratio: X`` (kingdoms games/s divided by pyminion games/s,
both logging off).  ``--all`` adds the Big Money mirror through the simulator
(``kingdoms sim``'s game loop: bots, trackers, results), a Smithy mirror (peer:
pyminion's BigMoneySmithy, logging off), a Witch mirror and random bots on an
Alchemy kingdom (their ratios: against pyminion's Big Money mirror, logging off,
as a yardstick), and ``clone()``'s cost and memory per state on a mid-game state.

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


def kingdoms_runner(seed0: int, logging_on: bool = False) -> Callable[[int], None]:
    """The Big Money mirror through ``new_game`` and ``play_out``; ``logging_on``:
    the game log kept, as ``new_game`` ships (else off, as ``kingdoms sim`` plays)."""
    from kingdoms.bots import make_bot
    from kingdoms.core import new_game
    from kingdoms.core.runner import play_out, seat_rngs

    bots = [make_bot("dominion", "big-money"), make_bot("dominion", "big-money")]

    def one(i: int) -> None:
        seed = seed0 + i
        state = new_game("dominion", players=2, seed=seed, options={"kingdom": "First Game"})
        state.logging = logging_on
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


SHIPPED_LEVEL = logging.INFO
"""The root logger's level once ``import pyminion`` has run (it sets it, and adds a
NullHandler): what pyminion's users get."""


def _pyminion_logging(shipped: bool) -> None:
    """The root logger as pyminion ships it (INFO), or quiet (WARNING: its
    ``logger.info`` calls return before building a record).  Called before each game
    (the two ways run interleaved), after ``import pyminion`` has set the logger up."""
    logging.getLogger().setLevel(SHIPPED_LEVEL if shipped else logging.WARNING)


def pyminion_smithy_runner(seed0: int, shipped: bool = False) -> Callable[[int], None]:
    import pyminion  # noqa: F401  (its import sets the root logger up)
    from pyminion.bots.examples import BigMoneySmithy
    from pyminion.expansions.base import base_set, smithy
    from pyminion.game import Game

    def one(i: int) -> None:
        _pyminion_logging(shipped)
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


def pyminion_runner(seed0: int, shipped: bool = False) -> Callable[[int], None]:
    """pyminion's Big Money mirror; ``shipped``: its logging as it ships (root logger
    at INFO), else off.  Set before each game, since the two ways run interleaved."""
    from pyminion.bots.examples import BigMoney
    from pyminion.expansions.base import base_set
    from pyminion.game import Game

    def one(i: int) -> None:
        _pyminion_logging(shipped)
        random.seed(seed0 + i)  # pyminion shuffles with the global generator
        players = [BigMoney(player_id="bm1"), BigMoney(player_id="bm2")]
        game = Game(players=players, expansions=[base_set], log_stdout=False, log_file=False)
        game.play()

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

    ours = kingdoms_runner(args.seed)
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

    try:
        import pyminion  # noqa: F401
    except ImportError as err:
        print(f"pyminion not installed ({err}); install the 'bench' extra")
        return 1
    print("kingdoms: new_game + big-money bots + play_out; logging off = state.logging False "
          "(as kingdoms sim plays), on = new_game's default (the game log kept)")  # fmt: skip
    print("pyminion 0.4.0: Game(log_stdout=False, log_file=False); as shipped = root logger "
          "at INFO as `import pyminion` sets it (INFO records built, dropped by its "
          "NullHandler); logging off = root logger at WARNING")  # fmt: skip
    runs = [
        ("kingdoms big-money mirror, logging off", ours),
        ("kingdoms big-money mirror, logging on", kingdoms_runner(args.seed, True)),
        ("pyminion BigMoney mirror, logging off", pyminion_runner(args.seed)),
        ("pyminion BigMoney mirror, logging as shipped", pyminion_runner(args.seed, True)),
    ]
    measured = measure_interleaved([run for _, run in runs], args.seconds)
    rates = []
    for (name, _), (n, t) in zip(runs, measured, strict=True):
        rates.append(n / t)
        print(f"{name}: {n} games in {t:.2f}s CPU = {n / t:.1f} games/s")
    quiet_ours, logged_ours, quiet_theirs, shipped_theirs = rates
    print(f"ratio, kingdoms logging off / pyminion as shipped: {quiet_ours / shipped_theirs:.1f}")
    print(f"ratio, both logging: {logged_ours / shipped_theirs:.1f}")
    if args.all:
        _more(args.seed, args.seconds, quiet_theirs)
    print(f"ratio, both logging off: {quiet_ours / quiet_theirs:.1f}")
    print(f"ratio: {quiet_ours / quiet_theirs:.1f}")
    return 0


def _more(seed: int, seconds: float, big_money_peer: float) -> None:
    """The other game kinds, each against its peer measured in the same run."""
    import kingdoms

    print(f"build: {kingdoms.build_kind()}")
    runs: list[tuple[str, Callable[[int], None], Callable[[int], None] | None]] = [
        ("sim big-money mirror", sim_runner(seed, ["big-money"] * 2, "First Game"), None),
        (
            "sim big-money-ultimate mirror",
            sim_runner(seed, ["big-money-ultimate"] * 2, "First Game"),
            None,
        ),
        ("sim smithy mirror", sim_runner(seed, ["smithy"] * 2, "First Game"), None),
        ("sim witch mirror", sim_runner(seed, ["witch"] * 2, WITCH), None),
        ("random bots, Alchemy, 3 players", random_runner(seed), None),
    ]
    for name, ours, _peer in runs:
        n, t = measure(ours, seconds)
        rate = n / t
        print(f"kingdoms {name}: {n} games in {t:.2f}s CPU = {rate:.1f} games/s "
              f"({rate / big_money_peer:.1f}x pyminion Big Money, logging off)")  # fmt: skip
    smithy = sim_runner(seed, ["smithy"] * 2, "First Game")
    (n1, t1), (n2, t2) = measure_interleaved([smithy, pyminion_smithy_runner(seed)], seconds)
    print(f"smithy mirror, both logging off: kingdoms {n1 / t1:.1f} games/s, pyminion "
          f"BigMoneySmithy {n2 / t2:.1f} games/s, ratio {(n1 / t1) / (n2 / t2):.1f}")  # fmt: skip
    per_clone, per_state, where = clone_cost(seed)
    print(f"clone() of a mid-game state ({where}): {per_clone:.1f} us CPU; "
          f"memory per state: {per_state:.0f} bytes")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
