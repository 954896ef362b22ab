"""The game-agnostic core: the State contract, registry, records, log and errors.

>>> from kingdoms.core import new_game
>>> s = new_game("dominion", players=3, seed=42)
>>> s.num_players, s.is_terminal()
(3, False)
"""

from kingdoms.core.errors import (
    IllegalAction,
    InvalidArgument,
    InvalidConfig,
    InvariantViolation,
    KingdomsError,
    ParseError,
    RecordError,
)
from kingdoms.core.events import Event, events_for
from kingdoms.core.record import GameRecord, load_game, load_record, save_game
from kingdoms.core.registry import Game, available_games, get_game, new_game, state_from_config
from kingdoms.core.state import TERMINAL, Action, GameConfig, Outcome, State

__all__ = [
    "TERMINAL",
    "Action",
    "Event",
    "Game",
    "GameConfig",
    "GameRecord",
    "IllegalAction",
    "InvalidArgument",
    "InvalidConfig",
    "InvariantViolation",
    "KingdomsError",
    "Outcome",
    "ParseError",
    "RecordError",
    "State",
    "available_games",
    "events_for",
    "get_game",
    "load_game",
    "load_record",
    "new_game",
    "save_game",
    "state_from_config",
]
