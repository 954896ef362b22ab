"""Dominion as a PettingZoo AEC environment.

Actions are the engine's integer actions (:mod:`kingdoms.dominion.actions`):
``kind * NUM_CARDS + card`` — play, buy, choose, gain, done, yes, no, play all
treasures, end phase — so one id means the same thing in every state.  The space
has ``NUM_KINDS * NUM_CARDS`` actions (sized from that module: kinds appended
there later widen it).

The observation vector is described in :mod:`kingdoms.rl.dominion_obs`.
"""

from __future__ import annotations

from typing import Unpack

from pettingzoo import AECEnv

from kingdoms.core.state import State
from kingdoms.dominion.actions import NUM_ACTIONS
from kingdoms.dominion.state import DominionState
from kingdoms.rl.dominion_obs import DECISION_KINDS, DominionEncoder
from kingdoms.rl.env import EnvSettings, KingdomsAECEnv, wrap

__all__ = [
    "DECISION_KINDS",
    "DominionEncoder",
    "dominion_env",
    "dominion_raw_env",
    "render_dominion",
]


def render_dominion(state: State) -> str:
    """The acting seat's picture of the game, in plain text."""
    assert isinstance(state, DominionState)
    seat = state.current_player
    view = state.view(seat)
    supply = ", ".join(f"{s['card']} {s['count']}" for s in view["supply"])
    lines = [
        f"turn of player_{view['turn']}, phase {view['phase']}; actions {view['actions']}, "
        f"buys {view['buys']}, coins {view['coins']}, potions {view['potions']}",
        f"supply: {supply}",
    ]
    for q, p in enumerate(view["players"]):
        in_play = ", ".join(p["in_play"]) or "-"
        lines.append(
            f"player_{q}: hand {p['hand_size']}, deck {p['deck_size']}, "
            f"discard {p['discard_size']}, in play: {in_play}"
        )
    lines.append(f"hand of player_{seat}: " + (", ".join(view["hand"]) or "-"))
    if view["decision"]:
        lines.append(f"decision: {view['decision']['kind']}")
    return "\n".join(lines)


class DominionSettings(EnvSettings, total=False):
    """The settings of :func:`dominion_env` and :func:`dominion_raw_env` (all optional)."""

    kingdom: str | list[str] | None


def dominion_raw_env(**settings: Unpack[DominionSettings]) -> KingdomsAECEnv:
    """The unwrapped Dominion environment (settings: see :func:`dominion_env`)."""
    players = settings.get("players", 2)
    opts = dict(settings.get("options") or {})
    kingdom = settings.get("kingdom")
    if kingdom is not None:
        opts["kingdom"] = kingdom
    env = KingdomsAECEnv(
        "dominion",
        players,
        opts,
        DominionEncoder(players),
        render_mode=settings.get("render_mode"),
        max_steps=settings.get("max_steps", 10_000),
        renderer=render_dominion,
        # legal lists repeat (the buy phase's per coins, the same hands): a kept
        # mask per list costs less than building one per state
        mask_by_legal_list=True,
    )
    assert env.num_actions == NUM_ACTIONS
    return env


def dominion_env(illegal: str = "raise", **settings: Unpack[DominionSettings]) -> AECEnv:
    """Dominion as a wrapped PettingZoo AEC environment.

    Settings: ``players`` (2–6, default 2); ``kingdom``: a recommended set's name or
    a list of ten card ids (default: a random kingdom drawn from each game's seed);
    ``options``: the other Dominion options (``base_edition``, ``sets``,
    ``alchemy_errata``, …); ``render_mode`` (None or ``"ansi"``); ``max_steps``:
    truncate a game after that many actions (default 10,000; None: never).
    ``illegal``: ``"raise"`` or ``"terminate"`` (see :func:`kingdoms.rl.env.wrap`).

    >>> env = dominion_env(kingdom="First Game")
    >>> env.reset(seed=1)
    >>> obs, reward, terminated, truncated, info = env.last()
    >>> obs["action_mask"].shape, obs["observation"].dtype
    ((468,), dtype('int16'))
    """
    return wrap(dominion_raw_env(**settings), illegal=illegal)
