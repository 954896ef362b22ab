"""The random-game invariant suite, reusable for every registered game.

:func:`check_random_game` plays one random game and checks, at every step:

* ``current_player`` and ``legal_actions()`` are consistent; every legal action
  lies inside the game's action space;
* the game's own invariants (``state.check_invariants()``: e.g. no card
  created or lost, no card in two places);
* every seat's view is JSON data;

and at sampled steps (``deep_every``):

* a clone is identical and stays identical when both are played on;
* a record saved to JSON and loaded again replays to the identical state,
  also played on in step with the original;
* ``determinize(p)`` gives a state whose view for ``p`` equals ``p``'s view
  (so the view holds nothing the determinization resamples: no hidden card);
* ``apply_checked`` with illegal actions raises ``IllegalAction`` and changes nothing;

and that the game ends within ``max_steps``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kingdoms.core.errors import IllegalAction, InvariantViolation
from kingdoms.core.record import GameRecord
from kingdoms.core.registry import get_game, new_game
from kingdoms.core.state import TERMINAL, State


@dataclass(slots=True)
class GameStats:
    steps: int = 0
    deep_checks: int = 0
    ended: bool = False


def _fail(msg: str) -> InvariantViolation:
    return InvariantViolation(msg)


def check_step(state: State, action_space: int) -> list[int]:
    """Cheap checks of one state; returns its legal actions."""
    player = state.current_player
    legal = state.legal_actions()
    if player == TERMINAL:
        if legal:
            raise _fail(f"terminal state has legal actions {legal[:5]}")
        if state.outcome() is None:
            raise _fail("terminal state has no outcome")
    else:
        if not 0 <= player < state.num_players:
            raise _fail(f"current_player {player} out of range")
        if not legal:
            raise _fail(f"player {player} has no legal action in a live state")
        if len(set(legal)) != len(legal):
            raise _fail(f"legal actions repeat: {legal}")
        bad = [a for a in legal if not (isinstance(a, int) and 0 <= a < action_space)]
        if bad:
            raise _fail(f"actions {bad} outside the action space 0..{action_space - 1}")
        if state.outcome() is not None:
            raise _fail("live state already has an outcome")
    mask = state.legal_actions_mask(action_space)
    expected = bytearray(action_space)
    for a in legal:
        if isinstance(a, int) and 0 <= a < action_space:
            expected[a] = 1
    if mask != expected:
        wrong = [a for a in range(min(len(mask), action_space)) if mask[a] != expected[a]]
        raise _fail(
            f"legal_actions_mask (size {len(mask)}) disagrees with legal_actions "
            f"at actions {wrong[:10]}"
        )
    state.check_invariants()
    for p in range(state.num_players):
        try:
            json.dumps(state.view(p))
        except (TypeError, ValueError) as err:
            raise _fail(f"view({p}) is not JSON data: {err}") from err
    return legal


def check_deep(state: State, rng: random.Random, action_space: int) -> None:
    """Expensive checks: clone, save/restore, determinize, illegal actions."""
    fp = state.fingerprint()
    if state.clone().fingerprint() != fp:
        raise _fail("clone differs from the original")
    restored = GameRecord.loads(state.record().dumps()).replay()
    if restored.fingerprint() != fp:
        raise _fail(f"save/restore at step {state.step} gives a different state")
    for p in range(state.num_players):
        view = state.view(p)
        det = state.determinize(p, random.Random(rng.random()))
        det.check_invariants()
        if det.view(p) != view:
            raise _fail(f"determinize({p}) changes player {p}'s view: the view leaks hidden state")
    if state.current_player == TERMINAL:
        probes: Iterable[Any] = [0, -1]
    else:
        legal = set(state.legal_actions())
        sample = rng.sample(range(action_space), min(5, action_space))
        probes = [a for a in sample if a not in legal]
        probes = [*probes, -1, action_space, 10**9, "1", None, 1.0]
    for bad in probes:
        try:
            state.apply_checked(bad)
        except IllegalAction:
            pass
        else:
            raise _fail(f"apply_checked accepted illegal action {bad!r}")
        if state.fingerprint() != fp:
            raise _fail(f"a rejected action {bad!r} changed the state")


def check_random_game(
    game: str,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    max_steps: int = 50_000,
    deep_every: int = 50,
) -> GameStats:
    """Play one uniformly random game of ``game``, checking invariants throughout."""
    rng = random.Random(seed)
    state = new_game(game, players=players, seed=seed, options=options)
    action_space = get_game(game).num_distinct_actions(state.config)
    stats = GameStats()
    twins: list[State] = []
    fork_at = rng.randrange(1, 200)
    for _ in range(max_steps):
        legal = check_step(state, action_space)
        if rng.randrange(deep_every) == 0:
            check_deep(state, rng, action_space)
            stats.deep_checks += 1
        if state.step == fork_at:
            twins = [state.clone(), GameRecord.loads(state.record().dumps()).replay()]
        if state.current_player == TERMINAL:
            stats.ended = True
            break
        action = legal[rng.randrange(len(legal))]
        state.apply(action)
        for twin in twins:
            twin.apply(action)
        stats.steps += 1
    else:
        raise _fail(f"{game} game (seed {seed}) did not end within {max_steps} actions")
    check_deep(state, rng, action_space)
    for twin in twins:
        if twin.fingerprint() != state.fingerprint():
            raise _fail(f"a clone/restored copy made at step {fork_at} diverged")
    return stats
