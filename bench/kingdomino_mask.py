"""Kingdomino's legal-action mask and observation encoder, each against a peer measured
in the same run (one core).

* ``mask`` — ``state.legal_actions_mask(NUM_ACTIONS)`` (the board marks its placements
  straight into a bytearray), on placement states of random 2- and 4-player games,
  against the peers: the list (``legal_actions()``, cache cleared, as on a fresh
  state) turned into a numpy int8 mask through an ``array('q')`` index array (the
  environment's conversion before the mask existed), ``default`` (the core
  ``State.legal_actions_mask``: the list written into a bytearray by a Python
  loop), and the list alone;
  ``mask+numpy`` adds the zero-copy int8 view a learner would read
  (``np.frombuffer``).
* ``encode`` — :class:`kingdoms.rl.kingdomino_obs.KingdominoEncoder` encoding the
  acting seat's observation after each step of random 2-player games, against the
  engine step itself (``legal_actions()`` and ``apply``), both timed in the same loop.

    .venv/bin/python bench/kingdomino_mask.py [--seconds 3] [--slices 6]

Slices of the loops alternate, so machine noise hits them alike; every time is CPU
time of this process (``time.process_time``).
"""

from __future__ import annotations

import argparse
import random
import time
from array import array
from collections.abc import Callable

import numpy as np

from kingdoms import build_kind
from kingdoms.core import new_game
from kingdoms.core.state import State
from kingdoms.kingdomino.state import NUM_ACTIONS, PLACE, KingdominoState
from kingdoms.rl.kingdomino_obs import KingdominoEncoder


def placement_states(games: int = 40) -> list[KingdominoState]:
    """Clones of every placement state (legal placements to choose from) of random games."""
    out: list[KingdominoState] = []
    for seed in range(games):
        st = new_game("kingdomino", players=2 if seed % 2 else 4, seed=seed)
        assert isinstance(st, KingdominoState)
        st.logging = False
        rng = random.Random(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            if st.phase == PLACE and len(legal) > 1:
                out.append(st.clone())
            st.apply(legal[rng.randrange(len(legal))])
    return out


def mask_loops(states: list[KingdominoState]) -> dict[str, Callable[[], None]]:
    def mask() -> None:
        for st in states:
            st.legal_actions_mask(NUM_ACTIONS)

    def mask_numpy() -> None:
        for st in states:
            np.frombuffer(st.legal_actions_mask(NUM_ACTIONS), np.int8)

    def list_numpy() -> None:
        for st in states:
            st._legal = None
            legal = st.legal_actions()
            out = np.zeros(NUM_ACTIONS, np.int8)
            out.put(np.frombuffer(array("q", legal), np.int64), 1)

    def default() -> None:
        for st in states:
            st._legal = None
            State.legal_actions_mask(st, NUM_ACTIONS)

    def list_only() -> None:
        for st in states:
            st._legal = None
            st.legal_actions()

    return {
        "mask": mask,
        "mask+numpy": mask_numpy,
        "list+numpy": list_numpy,
        "default": default,
        "list": list_only,
    }


def encode_run(seed: int, seconds: float) -> tuple[int, float, float]:
    """(steps, engine seconds, encoder seconds) of random 2-player games for ``seconds``."""
    engine = encode = 0.0
    steps = 0
    clock = time.process_time
    end = clock() + seconds
    while clock() < end:
        st = new_game("kingdomino", players=2, seed=seed)
        st.logging = False
        enc = KingdominoEncoder(2)
        rng = random.Random(seed)
        seed += 1
        while not st.is_terminal():
            t0 = clock()
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
            t1 = clock()
            if not st.is_terminal():
                enc.encode(st, st.current_player)
            t2 = clock()
            engine += t1 - t0
            encode += t2 - t1
            steps += 1
    return steps, engine, encode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time for each loop")
    parser.add_argument("--slices", type=int, default=6)
    args = parser.parse_args()
    print(f"build: {build_kind()}")
    states = placement_states()
    sizes = [len(st.legal_actions()) for st in states]
    print(f"{len(states)} placement states, {sum(sizes) / len(sizes):.0f} legal placements each")
    loops = mask_loops(states)
    spent = dict.fromkeys(loops, 0.0)
    calls = dict.fromkeys(loops, 0)
    part = args.seconds / args.slices
    for _ in range(args.slices):
        for name, loop in loops.items():
            start = time.process_time()
            while time.process_time() - start < part:
                loop()
                calls[name] += len(states)
            spent[name] += time.process_time() - start
    ns = {name: 1e9 * spent[name] / calls[name] for name in loops}
    for name in loops:
        print(f"  {name:11s} {ns[name]:8.0f} ns per state")
    print(f"  list+numpy / mask: {ns['list+numpy'] / ns['mask']:.2f}x")
    print(f"  list+numpy / mask+numpy: {ns['list+numpy'] / ns['mask+numpy']:.2f}x")
    print(f"  default / mask: {ns['default'] / ns['mask']:.2f}x")
    steps, engine, encode = encode_run(1, args.seconds)
    print(
        f"encoder: {1e6 * encode / steps:.2f} µs per observation, engine step "
        f"{1e6 * engine / steps:.2f} µs (encoder/engine {encode / engine:.2f}), {steps} steps"
    )


if __name__ == "__main__":
    main()
