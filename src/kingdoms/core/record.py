"""Game records: configuration + seed + actions, saved as versioned JSON.

A record replays its game exactly.  Saving works at any point, in the middle
of a decision too; loading replays the actions and checks each one, so a
corrupt or tampered file is rejected with a clear :class:`RecordError`.

>>> from kingdoms import new_game
>>> state = new_game("kingdomino", players=2, seed=3)
>>> state.apply(state.legal_actions()[0])
>>> record = state.record()
>>> GameRecord.from_json(record.to_json()).replay().fingerprint() == state.fingerprint()
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kingdoms.core.errors import IllegalAction, KingdomsError, RecordError
from kingdoms.core.state import GameConfig, State

FORMAT = "kingdoms-record"
VERSION = 1


def _canonical(payload: Mapping[str, Any]) -> bytes:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything needed to reproduce a game."""

    config: GameConfig
    actions: tuple[int, ...]
    seats: tuple[str, ...] = ()
    meta: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_state(cls, state: State, seats: Sequence[str] = ()) -> GameRecord:
        return cls(config=state.config, actions=tuple(state.history), seats=tuple(seats))

    def replay(self, upto: int | None = None) -> State:
        """The game after its first ``upto`` actions (all by default), every action checked."""
        from kingdoms.core.registry import state_from_config

        try:
            state = state_from_config(self.config)
        except KingdomsError as err:
            raise RecordError(f"record has an invalid configuration: {err}") from err
        actions = self.actions if upto is None else self.actions[:upto]
        for i, action in enumerate(actions):
            try:
                state.apply_checked(action)
            except IllegalAction as err:
                raise RecordError(f"record action #{i} ({action!r}) is not legal: {err}") from err
        return state

    def to_json(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            **self.config.to_json(),
            "seats": list(self.seats),
            "actions": list(self.actions),
            "meta": dict(self.meta),
        }
        payload["checksum"] = hashlib.sha256(_canonical(payload)).hexdigest()
        return payload

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Validate and read a record; raise :class:`RecordError` naming the problem."""
        if not isinstance(data, dict):
            raise RecordError("a game record must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"not a kingdoms game record (format is {data.get('format')!r})")
        version = data.get("version")
        if version != VERSION:
            raise RecordError(
                f"unsupported record version {version!r} (this build reads {VERSION})"
            )
        body = {k: v for k, v in data.items() if k != "checksum"}
        checksum = data.get("checksum")
        if checksum != hashlib.sha256(_canonical(body)).hexdigest():
            raise RecordError("record checksum does not match: the file is corrupt or was edited")
        game, players, seed = data.get("game"), data.get("players"), data.get("seed")
        options, actions, seats = data.get("options"), data.get("actions"), data.get("seats", [])
        if not isinstance(game, str):
            raise RecordError("record field 'game' must be a string")
        if not isinstance(players, int) or isinstance(players, bool):
            raise RecordError("record field 'players' must be an integer")
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise RecordError("record field 'seed' must be a non-negative integer")
        if not isinstance(options, dict):
            raise RecordError("record field 'options' must be an object")
        if not isinstance(actions, list) or not all(
            isinstance(a, int) and not isinstance(a, bool) for a in actions
        ):
            raise RecordError("record field 'actions' must be a list of integers")
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise RecordError("record field 'seats' must be a list of strings")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError("record field 'meta' must be an object")
        config = GameConfig(game=game, players=players, seed=seed, options=options)
        return cls(config=config, actions=tuple(actions), seats=tuple(seats), meta=meta)

    @classmethod
    def loads(cls, text: str | bytes) -> GameRecord:
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError) as err:
            raise RecordError(f"record is not valid JSON: {err}") from err
        return cls.from_json(data)


def save_game(state: State, path: str | Path, seats: Sequence[str] = ()) -> Path:
    """Write ``state``'s record to ``path`` (JSON) and return the path."""
    target = Path(path)
    target.write_text(GameRecord.from_state(state, seats).dumps(), encoding="utf-8")
    return target


def load_record(path: str | Path) -> GameRecord:
    try:
        text = Path(path).read_bytes()
    except OSError as err:
        raise RecordError(f"cannot read {path}: {err.strerror or err}") from err
    return GameRecord.loads(text)


def load_game(path: str | Path) -> State:
    """Read a saved game and replay it to where it was saved."""
    return load_record(path).replay()
