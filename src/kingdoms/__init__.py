"""kingdoms — play, simulate and study Dominion and Kingdomino.

The public entry points live in :mod:`kingdoms.core`::

    >>> import kingdoms
    >>> state = kingdoms.new_game("dominion", players=2, seed=7)
    >>> state.current_player in (0, 1)
    True
"""

from kingdoms import _build

if _build.pure_requested():  # KINGDOMS_PURE=1: the pure-Python path, whatever is built
    _build.install_pure_path()

from kingdoms._build import build_kind
from kingdoms._version import __version__
from kingdoms.core import (
    TERMINAL,
    GameRecord,
    IllegalAction,
    KingdomsError,
    State,
    available_games,
    get_game,
    load_game,
    new_game,
    save_game,
)

__all__ = [
    "TERMINAL",
    "GameRecord",
    "IllegalAction",
    "KingdomsError",
    "State",
    "__version__",
    "available_games",
    "build_kind",
    "get_game",
    "load_game",
    "new_game",
    "save_game",
]
