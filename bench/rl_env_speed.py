"""Steps per second of the PettingZoo environments against the raw engine.

What is compared (one "step" is one action of one seat, in random 2-player games):

* ``engine`` — the peer, a bare engine step: ``state.legal_actions()``, a random
  choice, ``state.apply(action)`` (event log off, as in the environment).  The
  legal actions belong to the engine step: any player, bot or learner needs them.
* ``env`` — a wrapped AEC environment step as a random learner takes it:
  ``last()`` (the acting agent's observation vector and action mask, its reward,
  flags and info), the learner reading the legal actions — from the info's
  ``legal_actions`` where the environment gives them there (ours do), else from
  the mask (``mask.nonzero()[0]``: ``np.flatnonzero`` costs twice as much; what
  PettingZoo's classic games need), the same code for every environment — a random
  choice, ``step(action)`` (checked against the legal actions, then applied).  So:
  engine step + observation + mask + the learner's read + the AEC bookkeeping.
* ``env-mask`` — ``env`` with the legal actions always read from the mask (on an
  int8 mask numpy's ``nonzero`` takes its slow path: about 1–1.5 µs for
  Kingdomino's 778 actions).
* ``env-noread`` — the same without the learner's read of the mask (the action is
  drawn from ``env.unwrapped.legal_actions()``, the same list the mask was made
  from): the environment's own cost.
* ``raw-env`` — ``env`` on the unwrapped environment (no PettingZoo wrappers).
* ``floor`` — the engine loop plus what the environment's contract makes any
  implementation do however its encoder is written: one copy of an observation-sized
  int16 vector (the copy handed to the learner), a fresh int8 mask (the engine's
  ``legal_actions_mask`` bytearray as an array), and the learner's ``mask.nonzero()``.
* ``engine+view`` — the engine loop that also builds the acting seat's JSON view
  (``state.view(seat)``, what a bot reads).
* ``openspiel`` — the OpenSpiel game (:mod:`kingdoms.rl.openspiel`) played as a learner
  plays it: at a decision, the acting seat's observation through OpenSpiel's
  ``make_observation(game)`` (``set_from(state, player)`` fills its numpy
  ``tensor``, which the learner reads), ``state.legal_actions()``, a random choice,
  ``state.apply_action``; at a chance node (the deal, and before each action that may
  draw), an outcome drawn from ``state.chance_outcomes()`` and applied (its cost
  counts; a step is still one player action).  ``openspiel-list``: the observation
  as ``state.observation_tensor(player)`` instead (pyspiel hands it over as a list of
  floats); ``openspiel-bare``: no observation.
* the peers from PettingZoo's classic games, run as their users run them — the
  ``env`` loop on ``connect_four_v3.env()`` (``pz-connect-four``) and
  ``tictactoe_v3.env()`` (``pz-tictactoe``), wrappers included.

Rates are per CPU second of this process (``time.process_time``), measured in
alternating time slices of one run, so that machine load hits every loop alike.

    .venv/bin/python bench/rl_env_speed.py [--seconds 6] [--games dominion,kingdomino]

Prints steps per second of each loop and the cost ratios (time per step of a loop
over time per step of the engine loop), measured in alternating time slices of
the same run (machine noise hits all alike).

Instruction counts (stable on a loaded machine): ``--callgrind`` runs the engine,
floor, env and env-noread loops under valgrind's callgrind for a fixed number of
steps, twice (``--steps`` and three times as many), and divides the difference by
the extra steps, which leaves out start-up and warm-up (the steps are counted: a
loop stops after whole batches of 100 iterations); it prints instructions per step
and the ratios::

    .venv/bin/python bench/rl_env_speed.py --callgrind [--steps 1000]

(one such run is ``valgrind --tool=callgrind --callgrind-out-file=/dev/null
.venv/bin/python bench/rl_env_speed.py --games dominion --only env --steps 1000``).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from kingdoms.core.registry import new_game
from kingdoms.rl import dominion_env, dominion_raw_env, kingdomino_env, kingdomino_raw_env

OPTIONS: dict[str, dict[str, Any]] = {
    "dominion": {"kingdom": "First Game"},
    "kingdomino": {},
}


def engine_loop(
    game: str, seed: int, view: bool = False, floor: Any = None
) -> Callable[[float, int], int]:
    """The engine's own loop; with ``view``, the acting seat's view built too; with
    ``floor`` (an environment, for its sizes), the environment's unavoidable work
    done too (see the module's docstring)."""
    rng = random.Random(seed)
    template = None if floor is None else np.zeros(floor.encoder.size, dtype=np.int16)
    actions = 0 if floor is None else floor.num_actions
    box = {"state": None, "seed": seed}

    def fresh() -> Any:
        st = new_game(game, players=2, seed=box["seed"], options=OPTIONS[game])
        st.logging = False
        box["seed"] += 1
        return st

    box["state"] = fresh()

    def run(seconds: float, limit: int = 0) -> int:
        st = box["state"]
        steps = 0
        end = time.process_time() + seconds
        while steps < limit if limit else time.process_time() < end:
            for _ in range(100):
                if st.is_terminal():
                    st = fresh()
                if template is not None:
                    # the legal actions come as the engine's mask (for Dominion built
                    # from its list), not as a list too
                    template.copy()
                    mask = np.frombuffer(st.legal_actions_mask(actions), np.int8)
                    found = mask.nonzero()[0]
                    st.apply(int(found[rng.randrange(len(found))]))
                    steps += 1
                    continue
                legal = st.legal_actions()
                if view:
                    st.view(st.current_player)
                st.apply(legal[rng.randrange(len(legal))])
                steps += 1
        box["state"] = st
        return steps

    return run


def env_loop(make: Callable[[], Any], seed: int, read: str = "info") -> Callable[[float, int], int]:
    """A random learner's loop on an AEC environment (see the module's docstring);
    ``read``: ``info`` (the legal actions from ``last()``'s info where the
    environment gives them there, else from the mask), ``mask`` (always from the
    mask) or ``none`` (from ``env.unwrapped.legal_actions()``)."""
    env = make()
    env.reset(seed=seed)
    rng = random.Random(seed)
    raw = env.unwrapped
    mode = ("info", "mask", "none").index(read)

    def run(seconds: float, limit: int = 0) -> int:
        steps = 0
        end = time.process_time() + seconds
        while steps < limit if limit else time.process_time() < end:
            for _ in range(100):
                obs, _reward, terminated, truncated, info = env.last()
                if terminated or truncated:
                    env.step(None)
                    if not env.agents:
                        env.reset()
                    continue
                if mode == 0:
                    # the same code for every environment: PettingZoo's classic
                    # games give no legal actions in their info, so read the mask
                    legal = info.get("legal_actions")
                    if legal is None:
                        legal = obs["action_mask"].nonzero()[0]
                    env.step(int(legal[rng.randrange(len(legal))]))
                elif mode == 1:
                    legal = obs["action_mask"].nonzero()[0]
                    env.step(int(legal[rng.randrange(len(legal))]))
                else:
                    actions = raw.legal_actions()
                    env.step(actions[rng.randrange(len(actions))])
                steps += 1
        return steps

    return run


def openspiel_loop(game: str, seed: int, observe: str = "observer") -> Callable[[float, int], int]:
    """A learner's loop on the OpenSpiel game (see the module's docstring); ``observe``:
    ``observer`` (OpenSpiel's ``make_observation``: ``set_from`` fills a numpy tensor),
    ``list`` (``state.observation_tensor(player)``, a list of floats) or ``none``."""
    import pyspiel
    from open_spiel.python.observation import make_observation

    from kingdoms.rl import openspiel as ks

    name = ks.DOMINION if game == "dominion" else ks.KINGDOMINO
    spiel_game = pyspiel.load_game(name, {"players": 2})
    observation = make_observation(spiel_game)
    rng = random.Random(seed)
    box = {"state": spiel_game.new_initial_state()}

    def run(seconds: float, limit: int = 0) -> int:
        st = box["state"]
        steps = 0
        end = time.process_time() + seconds
        while steps < limit if limit else time.process_time() < end:
            for _ in range(100):
                if st.is_terminal():
                    st = spiel_game.new_initial_state()
                if st.is_chance_node():
                    outcomes = st.chance_outcomes()
                    st.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                    continue
                if observe == "observer":
                    observation.set_from(st, st.current_player())
                elif observe == "list":
                    st.observation_tensor(st.current_player())
                legal = st.legal_actions()
                st.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
        box["state"] = st
        return steps

    return run


def pettingzoo_peers() -> dict[str, Callable[[], Any]]:
    """PettingZoo's classic games (needs pygame, which they import)."""
    from pettingzoo.classic import connect_four_v3, tictactoe_v3

    return {"pz-connect-four": connect_four_v3.env, "pz-tictactoe": tictactoe_v3.env}


def instructions(game: str, loop: str, steps: int) -> tuple[int, int]:
    """(instructions, steps played) callgrind counts for one process running ``loop``
    for at least ``steps`` steps (whole batches of 100 iterations)."""
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            __file__,
            "--games",
            game,
            "--only",
            loop,
            "--steps",
            str(steps),
        ],
        capture_output=True,
        text=True,
        check=True,
        # the same string hashes in every run: set orders, and so the work, repeat
        # (and numpy's BLAS threads, which the loops never use, kept from spinning
        # inside the count)
        env={**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"},
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    played = re.search(r": (\d+) steps", done.stdout)
    if found is None or played is None:
        raise RuntimeError(f"no counts in the run's output:\n{done.stdout}\n{done.stderr}")
    return int(found.group(1)), int(played.group(1))


def count(games: list[str], steps: int) -> None:
    """Instructions per step of the engine, floor, env and env-noread loops, under
    callgrind."""
    for game in games:
        per_step = {}
        for loop in ("engine", "floor", "env", "env-noread"):
            few, few_steps = instructions(game, loop, steps)
            many, many_steps = instructions(game, loop, 3 * steps)
            per_step[loop] = (many - few) / (many_steps - few_steps)
            print(f"{game} {loop:8s} {per_step[loop]:10,.0f} instructions/step", flush=True)
        for loop in ("floor", "env", "env-noread"):
            ratio = per_step[loop] / per_step["engine"]
            print(f"{game} {loop}/engine instruction ratio: {ratio:.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="time per loop and game")
    parser.add_argument("--games", default="dominion,kingdomino")
    parser.add_argument(
        "--only",
        choices=[
            "engine",
            "floor",
            "env",
            "env-mask",
            "env-noread",
            "raw-env",
            "engine+view",
            "openspiel",
            "openspiel-list",
            "openspiel-bare",
            "pz-connect-four",
        ],
        help="run just this loop for --steps steps of the first game, then stop "
        "(for instruction counts under callgrind)",
    )
    parser.add_argument("--steps", type=int, default=20_000, help="steps of --only")
    parser.add_argument("--no-openspiel", action="store_true", help="leave out the OpenSpiel loops")
    parser.add_argument(
        "--no-peers", action="store_true", help="leave out PettingZoo's classic games"
    )
    parser.add_argument(
        "--callgrind",
        action="store_true",
        help="count instructions per step under callgrind (--steps and 3 × --steps)",
    )
    args = parser.parse_args()
    if args.callgrind:
        count(args.games.split(","), 1000 if args.steps == 20_000 else args.steps)
        return
    makers = {
        "dominion": (
            lambda: dominion_env(kingdom="First Game"),
            lambda: dominion_raw_env(kingdom="First Game"),
        ),
        "kingdomino": (lambda: kingdomino_env(players=2), lambda: kingdomino_raw_env(players=2)),
    }
    peers = {} if args.no_peers else pettingzoo_peers()
    for game in args.games.split(","):
        wrapped, raw = makers[game]
        loops = {
            "engine": engine_loop(game, 1),
            "floor": engine_loop(game, 1, floor=raw()),
            "env": env_loop(wrapped, 1),
            "env-mask": env_loop(wrapped, 1, read="mask"),
            "env-noread": env_loop(wrapped, 1, read="none"),
            "raw-env": env_loop(raw, 1),
            "engine+view": engine_loop(game, 1, view=True),
        }
        if not args.no_openspiel:
            loops["openspiel"] = openspiel_loop(game, 1)
            loops["openspiel-list"] = openspiel_loop(game, 1, observe="list")
            loops["openspiel-bare"] = openspiel_loop(game, 1, observe="none")
        for name, make in peers.items():
            loops[name] = env_loop(make, 1)
        if args.only:
            loops[args.only](0.0, 100)  # warm up: first game started, caches filled
            # the objects of the imports and of the set-up (every loop's) out of the
            # collector's way: otherwise whether a full collection, which walks all
            # of them, falls inside the counted steps moves the count by thousands of
            # instructions per step from run to run
            gc.collect()
            gc.freeze()
            steps_done = loops[args.only](0.0, args.steps)
            print(f"{game} {args.only}: {steps_done} steps")
            return
        steps = dict.fromkeys(loops, 0)
        spent = dict.fromkeys(loops, 0.0)
        slices = max(1, round(args.seconds / 0.25))
        for _ in range(slices):
            for name, run in loops.items():
                t = time.process_time()
                steps[name] += run(0.25)
                spent[name] += time.process_time() - t
        rate = {name: steps[name] / spent[name] for name in loops}
        print(f"{game} (random 2-player games; steps per CPU second):")
        for name in loops:
            print(f"  {name:15s} {rate[name]:10.0f} steps/s  ({1e6 / rate[name]:.1f} µs/step)")
        for name in ("floor", "env", "env-mask", "env-noread", "raw-env"):
            print(f"  {name}/engine cost ratio: {rate['engine'] / rate[name]:.2f}")
        print(f"  env/(engine+view) cost ratio: {rate['engine+view'] / rate['env']:.2f}")
        if "openspiel" in rate:
            print(
                f"  openspiel speed / env speed: {rate['openspiel'] / rate['env']:.2f} "
                f"(observation_tensor lists: {rate['openspiel-list'] / rate['env']:.2f}; "
                f"no observation: {rate['openspiel-bare'] / rate['env']:.2f})"
            )
        for name in peers:
            print(
                f"  env speed / {name}: {rate['env'] / rate[name]:.2f} "
                f"(reading the mask: {rate['env-mask'] / rate[name]:.2f})"
            )


if __name__ == "__main__":
    main()
