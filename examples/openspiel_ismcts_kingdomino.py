"""OpenSpiel's IS-MCTS on Kingdomino against the kingdoms ``mcts`` bot.

The game is loaded through OpenSpiel (``python_kingdoms_kingdomino``, registered by
:mod:`kingdoms.rl.openspiel`); OpenSpiel's Python ``ISMCTSBot`` (random roll-outs)
plays one seat, the kingdoms ``mcts`` bot (from its seat's view) the other, seats
alternating; both get the same number of simulations per move.  Prints each game
and the IS-MCTS wins with a 95 % Wilson interval.

    nice .venv/bin/python examples/openspiel_ismcts_kingdomino.py --games 10 --simulations 200

Needs the ``openspiel`` extra: ``pip install 'kingdoms[openspiel]'``.
"""

from __future__ import annotations

import argparse
import math
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from kingdoms.bots.base import make_bot
from kingdoms.rl.openspiel import KINGDOMINO, resampler


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play(game: pyspiel.Game, simulations: int, ismcts_seat: int, seed: int) -> list[float]:
    """One game: IS-MCTS in ``ismcts_seat``, ``mcts`` in the other; the returns."""
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=2.0,
        max_simulations=simulations,
        random_state=rng,
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )
    searcher.set_resampler(resampler(seed))
    ours = make_bot("kingdomino", f"mcts:iterations={simulations},seed={seed}")
    bot_rng = random.Random(seed)
    state = game.new_initial_state()
    chance = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():  # the deal, and each line of dominoes drawn
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[chance.randrange(len(outcomes))][0])
            continue
        player = state.current_player()
        if player == ismcts_seat:
            action = searcher.step(state)
        else:
            engine = state.engine
            action = ours.act(engine.view(player), engine.legal_actions(), bot_rng)
        state.apply_action(action)
    return list(state.returns())


def main(argv: list[str] | None = None) -> float:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    game = pyspiel.load_game(KINGDOMINO, {"players": 2})
    wins = 0.0
    start = time.perf_counter()
    for i in range(args.games):
        seat = i % 2
        returns = play(game, args.simulations, seat, args.seed + i)
        result = returns[seat]
        wins += 1.0 if result > 0 else 0.5 if result == 0 else 0.0
        print(f"game {i + 1}: IS-MCTS in seat {seat}: {'won' if result > 0 else 'lost'}")
    low, high = wilson(wins, args.games)
    print(
        f"OpenSpiel IS-MCTS vs kingdoms mcts ({args.simulations} simulations a move): "
        f"{wins:g}/{args.games} ({wins / args.games:.0%}, 95 % interval {low:.0%}–{high:.0%}) "
        f"in {time.perf_counter() - start:.0f} s"
    )
    return wins


if __name__ == "__main__":
    main()
