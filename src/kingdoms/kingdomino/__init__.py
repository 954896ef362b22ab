"""Kingdomino: the rules engine (see :mod:`kingdoms.kingdomino.state` for a module map)."""

from kingdoms.kingdomino.state import KingdominoState

__all__ = ["KingdominoState"]
