"""Random 4-player Kingdomino playouts per second, on one core.

Measures complete uniformly random 4-player games from the initial state
through the public State API, two ways: step by step (``determinize``,
``legal_actions``, ``apply``, ``outcome``) and with ``random_playout`` (the path
MCTS's random playouts take) — side by side in the same run with a peer: a
straightforward Python implementation of the same rules (kingdoms as
``dict[(x, y)] -> square``, every cell and orientation tried, flood-fill
scoring), included below and run in the same interpreter and process, with no
logging (it has none), as a script like it is run.  Time slices of the sides
alternate so that machine noise hits them alike; every rate is playouts per CPU
second of this process (``time.process_time``), not wall time.

    .venv/bin/python bench/kingdomino_playouts.py [--seconds 10]

Run it on both builds: as installed (compiled when built) and with
``KINGDOMS_PURE=1`` (the pure-Python path).  The last lines are
``playouts_per_second: N`` (step by step) and ``random_playout_per_second: N``.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from kingdoms import build_kind
from kingdoms.core import new_game
from kingdoms.kingdomino.tiles import TILES

STEPS = ((1, 0), (0, 1), (-1, 0), (0, -1))


# -- the peer: a plain dict-based implementation of the same game ------------------------
def _naive_legal(kingdom: dict[tuple[int, int], tuple[int, int]], number: int) -> list[tuple]:
    dom = TILES[number]
    xs = [x for x, _ in kingdom]
    ys = [y for _, y in kingdom]
    out = []
    for x in range(max(xs) - 4, min(xs) + 5):
        for y in range(max(ys) - 4, min(ys) + 5):
            for dx, dy in STEPS:
                a, b = (x, y), (x + dx, y + dy)
                if a in kingdom or b in kingdom:
                    continue
                nx = [*xs, a[0], b[0]]
                ny = [*ys, a[1], b[1]]
                if max(nx) - min(nx) > 4 or max(ny) - min(ny) > 4:
                    continue
                ok = False
                for cell, (t, _c) in ((a, dom.left), (b, dom.right)):
                    for sx, sy in STEPS:
                        sq = kingdom.get((cell[0] + sx, cell[1] + sy))
                        if sq is not None and (sq[0] == 6 or sq[0] == t):
                            ok = True
                if ok:
                    out.append((a, b))
    return out


def _naive_score(kingdom: dict[tuple[int, int], tuple[int, int]]) -> int:
    seen: set[tuple[int, int]] = set()
    total = 0
    for cell, (t, _c) in kingdom.items():
        if cell in seen or t == 6:
            continue
        seen.add(cell)
        stack, size, crowns = [cell], 0, 0
        while stack:
            x, y = stack.pop()
            size += 1
            crowns += kingdom[(x, y)][1]
            for dx, dy in STEPS:
                nb = (x + dx, y + dy)
                if nb not in seen and nb in kingdom and kingdom[nb][0] == t:
                    seen.add(nb)
                    stack.append(nb)
        total += size * crowns
    return total


def naive_playout(rng: random.Random) -> list[int]:
    numbers = list(range(1, 49))
    rng.shuffle(numbers)
    kingdoms: list[dict[tuple[int, int], tuple[int, int]]] = [{(0, 0): (6, 0)} for _ in range(4)]
    order = [0, 1, 2, 3]
    rng.shuffle(order)
    line = sorted(numbers[:4])
    pile = numbers[4:]
    owners = [-1] * 4
    for p in order:
        free = [i for i in range(4) if owners[i] < 0]
        owners[free[rng.randrange(len(free))]] = p
    while True:
        nxt = sorted(pile[:4])
        pile = pile[4:]
        nxt_owners = [-1] * len(nxt)
        for i, number in enumerate(line):
            p = owners[i]
            moves = _naive_legal(kingdoms[p], number)
            if moves:
                a, b = moves[rng.randrange(len(moves))]
                kingdoms[p][a] = TILES[number].left
                kingdoms[p][b] = TILES[number].right
            if nxt:
                free = [j for j in range(len(nxt)) if nxt_owners[j] < 0]
                nxt_owners[free[rng.randrange(len(free))]] = p
        if not nxt:
            break
        line, owners = nxt, nxt_owners
    return [_naive_score(k) for k in kingdoms]


# -- ours -------------------------------------------------------------------------------
CLOCK = time.process_time
"""Every figure is CPU time of this process (the machine may be loaded)."""


def engine_playouts(seconds: float, rng: random.Random) -> tuple[int, float]:
    """(playouts, CPU seconds) step by step through the public API for ``seconds``."""
    start = new_game("kingdomino", players=4, seed=rng.randrange(2**31))
    start.logging = False
    done = 0
    t0 = CLOCK()
    deadline = t0 + seconds
    while CLOCK() < deadline:
        state = start.determinize(0, rng)  # a fresh shuffle each game, as MCTS does
        while state.current_player >= 0:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        assert state.outcome() is not None
        done += 1
    return done, CLOCK() - t0


def engine_random_playouts(seconds: float, rng: random.Random) -> tuple[int, float]:
    """(playouts, CPU seconds) with ``State.random_playout`` for ``seconds``."""
    start = new_game("kingdomino", players=4, seed=rng.randrange(2**31))
    start.logging = False
    done = 0
    t0 = CLOCK()
    deadline = t0 + seconds
    while CLOCK() < deadline:
        state = start.determinize(0, rng)
        state.random_playout(rng)
        assert state.outcome() is not None
        done += 1
    return done, CLOCK() - t0


def naive_playouts(seconds: float, rng: random.Random) -> tuple[int, float]:
    """(playouts, CPU seconds) of the naive peer for ``seconds``."""
    done = 0
    t0 = CLOCK()
    deadline = t0 + seconds
    while CLOCK() < deadline:
        naive_playout(rng)
        done += 1
    return done, CLOCK() - t0


PEER_SETUP = (
    "naive dict-based peer (bench/kingdomino_playouts.py), pure Python in this same "
    "process and interpreter (CPython {v}), no logging; all rates per CPU second"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="time for each side")
    parser.add_argument("--slices", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(1)
    ours = fast = peer = 0
    t_ours = t_fast = t_peer = 0.0
    part = args.seconds / args.slices
    for _ in range(args.slices):
        n, t = engine_playouts(part, rng)
        ours, t_ours = ours + n, t_ours + t
        n, t = engine_random_playouts(part, rng)
        fast, t_fast = fast + n, t_fast + t
        n, t = naive_playouts(part, rng)
        peer, t_peer = peer + n, t_peer + t
    ours_rate = ours / t_ours
    fast_rate = fast / t_fast
    peer_rate = peer / t_peer
    print(f"build: {build_kind()}")
    print(PEER_SETUP.format(v=platform.python_version()))
    print(f"naive dict-based peer:           {peer_rate:,.0f} playouts/s")
    print(
        f"kingdoms, step by step:          {ours_rate:,.0f} playouts/s "
        f"({ours_rate / peer_rate:.1f}x the peer)"
    )
    print(
        f"kingdoms, State.random_playout:  {fast_rate:,.0f} playouts/s "
        f"({fast_rate / peer_rate:.1f}x the peer; {fast_rate / 5100:.2f}x the CIG 2018 "
        "Java figure of 5,100/s, published, not run here)"
    )
    print(f"playouts_per_second: {ours_rate:.0f}")
    print(f"random_playout_per_second: {fast_rate:.0f}")


if __name__ == "__main__":
    main()
