"""Cost of the undo rule per step: :func:`kingdoms.core.reveal.step_reveal` (the game's
structural answer first, sampling for the rest) against :func:`sampled_reveal`
(sampling every step), the peer, on the same steps of the same random games.

The server asks it once per action (whether the acting seat may take it back), so
this is what each move of a human player pays.

    .venv/bin/python bench/undo_reveal.py [--games 3] [--steps 300]

Each step is timed with both rules one after the other, in CPU time of this process
(a loaded machine does not inflate it); steps that used chance are left out (both
answer from the RNG alone).  Dominion is played with random kingdoms of every set
(first and second edition, with and without Alchemy); the mean and the worst step
are given for both rules, after one untimed step (the first view of a process imports
the view and text modules).  ``--game dominion`` runs Dominion alone.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from kingdoms import build_kind
from kingdoms.core import new_game
from kingdoms.core.reveal import sampled_reveal, step_reveal

DOMINION_SETS: list[dict[str, Any]] = [
    {"sets": ["base", "base-1e"]},
    {"sets": ["base", "base-2e"], "base_edition": 2},
    {"sets": ["alchemy", "base", "base-1e"]},
    {"sets": ["alchemy", "base-2e"], "base_edition": 2},
]


def warm_up(game: str, players: int) -> None:
    """One step checked both ways, untimed: the first view of a process imports the
    view and text modules (~20 ms once), which a running server has done long before."""
    state = new_game(game, players=players, seed=10**6)
    before = state.clone()
    action = state.legal_actions()[0]
    state.apply(action)
    step_reveal(before, action, state)
    sampled_reveal(before, action, state)


def measure(
    game: str, players: int, games: int, max_steps: int
) -> tuple[float, float, float, float, int]:
    """Seconds of ``step_reveal`` and of ``sampled_reveal`` over the steps timed (total
    and worst step of each), and how many steps were timed."""
    fast = slow = worst_fast = worst_slow = 0.0
    timed = 0
    warm_up(game, players)
    for seed in range(games):
        options = DOMINION_SETS[seed % len(DOMINION_SETS)] if game == "dominion" else {}
        state = new_game(game, players=players, seed=seed, options=options)
        rng = random.Random(seed)
        for _ in range(max_steps):
            if state.is_terminal():
                break
            before = state.clone()
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            state.apply(action)
            if before.rng.getstate() != state.rng.getstate():
                continue
            t0 = time.process_time()
            verdict = step_reveal(before, action, state)
            t1 = time.process_time()
            peer = sampled_reveal(before, action, state)
            t2 = time.process_time()
            if verdict != peer:
                raise AssertionError(f"{game} seed {seed} step {before.step}: {verdict} != {peer}")
            fast += t1 - t0
            slow += t2 - t1
            worst_fast = max(worst_fast, t1 - t0)
            worst_slow = max(worst_slow, t2 - t1)
            timed += 1
    return fast, slow, worst_fast, worst_slow, timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--game", choices=("kingdomino", "dominion"), default=None)
    args = parser.parse_args()
    import kingdoms.dominion.state as dominion_state

    native = not str(dominion_state.__file__).endswith(".py")
    print(f"build: {build_kind()} (Dominion engine {'compiled' if native else 'pure'})")
    runs = [("kingdomino", 2), ("kingdomino", 4), ("dominion", 2), ("dominion", 3), ("dominion", 4)]
    for game, players in runs:
        if args.game is not None and game != args.game:
            continue
        fast, slow, worst_fast, worst_slow, n = measure(game, players, args.games, args.steps)
        print(
            f"{game} {players}p, {n} steps: step_reveal mean {1000 * fast / n:.3f} ms, "
            f"worst {1000 * worst_fast:.1f} ms; sampling alone mean {1000 * slow / n:.3f} ms, "
            f"worst {1000 * worst_slow:.1f} ms; {slow / fast:.1f}x faster"
        )


if __name__ == "__main__":
    main()
