"""Kingdomino as a PettingZoo AEC environment.

Actions are the engine's integer actions (:mod:`kingdoms.kingdomino.state`,
``NUM_ACTIONS`` = 778 in all):

* ``d * CELLS + a`` (``0 … 4*CELLS-1``, ``CELLS`` = 13 × 14 = 182) — place the
  acting king's domino with its left square on cell ``a`` (``y * 14 + x`` on the
  13×13 grid centred on the castle, column 13 being padding) and its right square
  in direction ``d`` (0 right, 1 down, 2 left, 3 up);
* ``DISCARD`` (728) — discard it (legal only when no placement is);
* ``PICK + number`` (729 + 1 … 48) — choose domino ``number`` of the line being
  drafted from.

So domino choice and placement (cell × orientation, or discard) are separate,
consecutive decisions of the same seat.

The observation vector is described in :mod:`kingdoms.rl.kingdomino_obs`.
"""

from __future__ import annotations

from typing import Unpack

from pettingzoo import AECEnv

from kingdoms.core.state import State
from kingdoms.kingdomino.board import SIDE, W
from kingdoms.kingdomino.state import KingdominoState
from kingdoms.kingdomino.tiles import TERRAINS, TILES
from kingdoms.rl.env import EnvSettings, KingdomsAECEnv, wrap
from kingdoms.rl.kingdomino_obs import KingdominoEncoder

__all__ = ["KingdominoEncoder", "kingdomino_env", "kingdomino_raw_env", "render_kingdomino"]


def render_kingdomino(state: State) -> str:
    """Every kingdom as a grid of letters (upper case: with crowns), then the lines."""
    assert isinstance(state, KingdominoState)
    lines = []
    letters = "wflgsm"
    for q, b in enumerate(state.boards):
        lines.append(f"player_{q} kingdom (score {state.score(q)}):")
        rows = []
        for y in range(SIDE):
            row = ""
            for x in range(SIDE):
                sq = b.square(y * W + x)
                if sq is None:
                    row += "."
                elif sq[0] == 6:
                    row += "#"
                else:
                    ch = letters[sq[0]]
                    row += ch.upper() if sq[1] else ch
            rows.append(row)
        lines += [r for r in rows if r.strip(".")]
    for name, numbers, kings in (
        ("current line", state.current, state.current_kings),
        ("next line", state.next, state.next_kings),
    ):
        parts = [
            TILES[d].describe() + (f" (player_{k})" if k >= 0 else "")
            for d, k in zip(numbers, kings, strict=True)
        ]
        lines.append(f"{name}: " + (", ".join(parts) or "-"))
    lines.append("terrains: " + ", ".join(f"{letters[i]}={t}" for i, t in enumerate(TERRAINS)))
    return "\n".join(lines)


class KingdominoSettings(EnvSettings, total=False):
    """The settings of :func:`kingdomino_env` and :func:`kingdomino_raw_env` (all
    optional)."""

    variants: list[str] | tuple[str, ...]


def kingdomino_raw_env(**settings: Unpack[KingdominoSettings]) -> KingdomsAECEnv:
    """The unwrapped Kingdomino environment (settings: see :func:`kingdomino_env`)."""
    players = settings.get("players", 2)
    opts = dict(settings.get("options") or {})
    opts["variants"] = list(settings.get("variants", ()))
    return KingdomsAECEnv(
        "kingdomino",
        players,
        opts,
        KingdominoEncoder(players),
        render_mode=settings.get("render_mode"),
        max_steps=settings.get("max_steps"),
        renderer=render_kingdomino,
    )


def kingdomino_env(illegal: str = "raise", **settings: Unpack[KingdominoSettings]) -> AECEnv:
    """Kingdomino as a wrapped PettingZoo AEC environment.

    Settings: ``players`` (2–4, default 2); ``variants``: any of
    ``middle-kingdom``, ``harmony``, ``dynasty``, ``mighty-duel``; ``options``:
    other game options (``middle_kingdom_rule``); ``render_mode`` (None or
    ``"ansi"``); ``max_steps`` (default None: every game ends).  ``illegal``:
    ``"raise"`` or ``"terminate"`` (see :func:`kingdoms.rl.env.wrap`).

    >>> env = kingdomino_env(players=3, variants=["harmony"])
    >>> env.reset(seed=0)
    >>> int(env.last()[0]["action_mask"].sum())  # the first king picks one of 3 dominoes
    3
    """
    return wrap(kingdomino_raw_env(**settings), illegal=illegal)
