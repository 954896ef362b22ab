"""Cheap replays of finished games: snapshots every ``every`` steps, kept in an LRU.

The first request for a finished game replays it once, keeping a copy of the
state every ``every`` steps; any later step costs at most ``every - 1`` actions
on a copy of the nearest snapshot.  Callers run :meth:`Replays.state_at` in a
worker thread (it is CPU work); the cache itself is guarded by a lock.

>>> from kingdoms.core.registry import state_from_config
>>> from kingdoms.core.state import GameConfig
>>> from kingdoms.core.record import GameRecord
>>> config = GameConfig("kingdomino", 2, 3, {})
>>> state = state_from_config(config)
>>> for _ in range(10):
...     state.apply_checked(state.legal_actions()[0])
>>> replays = Replays(every=4)
>>> rec = GameRecord(config=config, actions=tuple(state.history))
>>> replays.state_at("g", rec, 7).step == rec.replay(7).step
True
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from kingdoms.core.record import GameRecord
from kingdoms.core.state import State


class Replays:
    """Snapshots of up to ``max_games`` finished games (least recently used dropped)."""

    def __init__(self, every: int = 25, max_games: int = 64) -> None:
        self.every = every
        self.max_games = max_games
        self._games: OrderedDict[str, list[State]] = OrderedDict()
        self._lock = threading.Lock()

    def _snapshots(self, game_id: str, record: GameRecord) -> list[State]:
        with self._lock:
            snaps = self._games.get(game_id)
            if snaps is not None:
                self._games.move_to_end(game_id)
                return snaps
        state = record.replay(0)
        snaps = [state.clone()]
        for i, action in enumerate(record.actions, start=1):
            state.apply_checked(action)
            if i % self.every == 0:
                snaps.append(state.clone())
        with self._lock:
            self._games[game_id] = snaps
            while len(self._games) > self.max_games:
                self._games.popitem(last=False)
        return snaps

    def state_at(self, game_id: str, record: GameRecord, step: int) -> State:
        """The finished game ``game_id`` (whose record is ``record``) after ``step`` actions."""
        snaps = self._snapshots(game_id, record)
        index = min(step // self.every, len(snaps) - 1)
        state = snaps[index].clone()
        for action in record.actions[index * self.every : step]:
            state.apply_checked(action)
        return state

    def __contains__(self, game_id: object) -> bool:
        with self._lock:
            return game_id in self._games
