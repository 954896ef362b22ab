"""``learned``: a Dominion bot whose every decision comes from a trained network.

The network reads its seat's observation vector (:mod:`kingdoms.rl.dominion_obs`:
only what ``state.view(seat)`` shows that seat) and scores the whole action space
(:mod:`kingdoms.dominion.actions`: plays, buys, every card's choice, gains, yes/no,
ending a phase); the bot takes the legal action with the highest score.  No
scripted policy decides anything for it.

The weights ship with the package (``data/learned.npz``, float16, with the model
card's facts in its ``meta`` entry); :mod:`examples.train_dominion_learned` trains
them (see ``docs/rl.md``: the data, the budget, the seeds and the figures).  The
forward pass is plain NumPy: playing needs no torch.

The network was trained on two-player games.  With more players the bot sees
itself and the next seat in turn order (the vector's first two seat blocks), which
is a weaker player than in a duel.

>>> from kingdoms.bots.base import make_bot
>>> make_bot("dominion", "learned").name
'learned'
"""

from __future__ import annotations

import functools
import io
import json
import random
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

import numpy as np

from kingdoms.core.errors import InvalidConfig
from kingdoms.core.state import State

WEIGHTS = "learned.npz"
"""The shipped checkpoint, in ``kingdoms/bots/dominion/data/``."""

TRAINED_PLAYERS = 2


class Network:
    """The policy network in NumPy: ``x * inv_scale`` through ReLU layers to one
    score per action.  ``arrays`` holds ``w0, b0, w1, b1, …`` and ``inv_scale``."""

    def __init__(self, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any]) -> None:
        self.meta = dict(meta)
        self.inv_scale = np.asarray(arrays["inv_scale"], np.float32)
        self.layers: list[tuple[np.ndarray, np.ndarray]] = []
        i = 0
        while f"w{i}" in arrays:
            w = np.asarray(arrays[f"w{i}"], np.float32)
            b = np.asarray(arrays[f"b{i}"], np.float32)
            self.layers.append((w, b))
            i += 1
        if not self.layers:
            raise InvalidConfig("a learned network needs at least one layer (w0, b0)")
        self.size = self.layers[0][0].shape[0]
        self.num_actions = self.layers[-1][0].shape[1]

    def scores(self, observation: np.ndarray) -> np.ndarray:
        """One score per action for a single observation vector (or a batch)."""
        h = np.asarray(observation, np.float32) * self.inv_scale
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        return h

    def best(self, observation: np.ndarray, legal: Sequence[int]) -> int:
        """The legal action with the highest score."""
        s = self.scores(observation)
        idx = np.fromiter(legal, np.int64, len(legal))
        return int(idx[int(np.argmax(s[idx]))])


def load_network(data: bytes | None = None) -> Network:
    """The network saved in ``data`` (the bytes of an ``.npz``), by default the
    shipped checkpoint."""
    if data is None:
        return shipped_network()
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files if k != "meta"}
        meta = json.loads(str(z["meta"])) if "meta" in z.files else {}
    return Network(arrays, meta)


@functools.cache
def shipped_network() -> Network:
    """The checkpoint shipped with the package (read once per process)."""
    path = resources.files("kingdoms.bots.dominion") / "data" / WEIGHTS
    return load_network(path.read_bytes())


def save_network(
    path: str, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any], dtype: Any = np.float16
) -> None:
    """Save ``arrays`` (weights as ``dtype``, float16 by default) and ``meta`` (JSON)."""
    out = {k: np.asarray(v, dtype if k != "inv_scale" else np.float32) for k, v in arrays.items()}
    out["meta"] = np.array(json.dumps(meta, sort_keys=True))
    np.savez_compressed(path, **out)  # type: ignore[arg-type]  # numpy's stub: keywords as bool


@functools.cache
def _encoder(players: int) -> Any:
    from kingdoms.rl.dominion_obs import DominionEncoder

    return DominionEncoder(players)


@functools.cache
def _gather(players: int) -> np.ndarray:
    """Indices of an ``players``-player vector that make the two-player vector the
    network reads: every field, with the per-seat fields cut to the first two seat
    blocks (the observing seat and the next one)."""
    two = _encoder(TRAINED_PLAYERS).layout
    many = _encoder(players).layout
    idx: list[int] = []
    for name, sl2 in two.items():
        sl = many[name]
        n2 = sl2.stop - sl2.start
        idx.extend(range(sl.start, sl.start + n2))  # per-seat blocks come first-seat first
    return np.array(idx, np.int64)


class LearnedBot:
    """Plays every Dominion decision with the shipped network (or ``network``).

    As an :class:`kingdoms.core.runner.ObservingBot` it reads its seat's observation
    vector straight from the state (the fast encoder, equal to the view's by
    test); given a seat's JSON view instead (front ends that hand views), it builds
    the same vector from the view.
    """

    name = "learned"

    def __init__(self, network: Network | None = None, **params: Any) -> None:
        if params:
            raise InvalidConfig(f"bot 'learned' takes no parameters, got {sorted(params)}")
        self.network = network if network is not None else shipped_network()
        self._encoders: dict[int, Any] = {}

    def observe(self, state: State, player: int) -> np.ndarray:
        """The seat's observation vector (only what its view shows)."""
        players = state.num_players
        enc = self._encoders.get(players)
        if enc is None:
            from kingdoms.rl.dominion_obs import DominionEncoder

            enc = self._encoders[players] = DominionEncoder(players)
        vector: np.ndarray = enc.encode(state, player)
        return self._two(vector, players)

    def encode_view(self, view: Mapping[str, Any]) -> np.ndarray:
        """The same vector from the seat's JSON view (the "bought this turn" flag,
        which the view leaves out, is not read by the network)."""
        players = len(view["players"])
        vector: np.ndarray = _encoder(players).encode_view(view, False)
        return self._two(vector, players)

    def _two(self, vector: np.ndarray, players: int) -> np.ndarray:
        if players == TRAINED_PLAYERS:
            return vector
        cut: np.ndarray = vector[_gather(players)]
        return cut

    def act(self, view: Any, legal_actions: Sequence[int], rng: random.Random) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        obs = view if isinstance(view, np.ndarray) else self.encode_view(view)
        return self.network.best(obs, legal_actions)
