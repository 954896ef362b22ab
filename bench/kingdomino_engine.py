"""Kingdomino engine costs on one core: ``clone()``, memory per state, MCTS speed.

Each figure comes with a peer measured in the same run:

* ``clone()`` of a mid-game 4-player state against ``copy.deepcopy`` of it;
* memory per state: bytes allocated by 2,000 clones (tracemalloc), against a
  deep copy's;
* MCTS iterations per second (flat, random playouts, from the same mid-game
  position) against the naive peer's random playouts per second
  (``bench/kingdomino_playouts.py``).

    .venv/bin/python bench/kingdomino_engine.py [--seconds 3] [--slices 5]

Time slices of each pair alternate so that machine noise hits both alike; every
time is CPU time of this process (``time.process_time``), the MCTS budget the
searching thread's CPU seconds (its default ``clock=cpu``).
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

from kingdoms import build_kind
from kingdoms.bots.mcts import MCTSBot
from kingdoms.core import new_game
from kingdoms.core.state import State

sys.path.insert(0, str(Path(__file__).parent))
from kingdomino_playouts import naive_playouts


def mid_game(seed: int = 7, steps: int = 40) -> State:
    state = new_game("kingdomino", players=4, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def calls(fn: Any, seconds: float) -> tuple[int, float]:
    """(calls of ``fn()`` made, time taken) in about ``seconds``."""
    n = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        for _ in range(20):
            fn()
        n += 20
    return n, time.process_time() - start


def bytes_per(make: Any, count: int = 2000) -> float:
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    kept = [make() for _ in range(count)]
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    del kept
    return used / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time for each side")
    parser.add_argument("--slices", type=int, default=5)
    args = parser.parse_args()
    print(f"build: {build_kind()}")
    print(
        "peers: copy.deepcopy (stdlib) of the same state; the naive dict-based peer of "
        "bench/kingdomino_playouts.py, same process; all times CPU time"
    )
    state = mid_game()
    part = args.seconds / args.slices
    n_clone = n_deep = 0
    s_clone = s_deep = 0.0
    for _ in range(args.slices):
        n, t = calls(state.clone, part)
        n_clone, s_clone = n_clone + n, s_clone + t
        n, t = calls(lambda: copy.deepcopy(state), part)
        n_deep, s_deep = n_deep + n, s_deep + t
    t_clone, t_deep = s_clone / n_clone, s_deep / n_deep
    print(
        f"clone(): {t_clone * 1e6:.1f} µs; deepcopy: {t_deep * 1e6:.1f} µs "
        f"(clone is {t_deep / t_clone:.1f}x faster)"
    )
    m_clone = bytes_per(state.clone)
    m_deep = bytes_per(lambda: copy.deepcopy(state), 500)
    print(f"memory per state: clone {m_clone:,.0f} B; deepcopy {m_deep:,.0f} B")
    view = state.view(state.current_player)
    legal = state.legal_actions()
    iterations = playouts = 0
    s_mcts = s_peer = 0.0
    for k in range(args.slices):
        bot = MCTSBot(time=part, algorithm="flat", playout="random", seed=k)
        t0 = time.process_time()
        bot.act(view, legal, random.Random(k))
        s_mcts += time.process_time() - t0
        iterations += bot.last_iterations
        n, t = naive_playouts(part, random.Random(k))
        playouts, s_peer = playouts + n, s_peer + t
    ips = iterations / s_mcts
    peer = playouts / s_peer
    print(
        f"MCTS (flat, random playouts): {ips:,.0f} iterations/s; naive peer {peer:,.0f} "
        f"playouts/s; ratio {ips / peer:.1f}x"
    )
    print(f"clone_us: {t_clone * 1e6:.2f}")
    print(f"state_bytes: {m_clone:.0f}")
    print(f"mcts_iterations_per_second: {ips:.0f}")


if __name__ == "__main__":
    main()
