"""The per-step core of the environments: the mask, the observation, the legality
check and the move, in one object that :class:`kingdoms.rl.env.KingdomsAECEnv`
delegates to.

Numpy only (no PettingZoo, no Gymnasium), so that the compiled build compiles it
with mypyc (listed in :mod:`kingdoms._build`): a step is then two compiled calls
under the PettingZoo class — :meth:`StepCore.observe` (through ``last``) and
:meth:`StepCore.apply` (through ``step``).  The pure-Python path runs the same
source.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from kingdoms.core.state import TERMINAL, State
from kingdoms.rl.encoding import native_module

_FRESH: Any = native_module("kingdoms.rl._cfresh")
"""The C copies of :mod:`kingdoms.rl._cfresh` where built (else numpy's ``copy``)."""

NOT_INT: Final = -100
""":meth:`StepCore.apply`: the action is not a Python ``int`` (nothing done)."""
ILLEGAL: Final = -101
""":meth:`StepCore.apply`: the action is not legal now (nothing done)."""
ENDED: Final = TERMINAL
""":meth:`StepCore.apply`: the action was applied and ended the game."""
TRUNCATED: Final = -102
""":meth:`StepCore.apply`: the action was applied and reached ``max_steps``."""

_KEPT_MASKS: Final = 4096
"""At most this many masks kept by list of legal actions (then forgotten)."""


class StepCore:
    """One game being played by an environment: its state, the observation
    encoder, and the state's legal actions as a mask, asked once per state.

    The mask is written by the state into one kept buffer where the state can
    (``mark_legal``, as Kingdomino's: the mask and the sorted legal actions in one
    pass, no Python int made per legal action on the compiled board), else the
    engine's ``legal_actions_mask`` copied into that buffer, or, with
    ``by_legal_list``, a mask kept per tuple of legal actions (games whose legal
    lists repeat, as Dominion's buy phase per coins).  It serves both the
    observation (an int8 copy) and the legality check (one byte read)."""

    def __init__(
        self, encoder: Any, num_actions: int, agents: list[str], by_legal_list: bool
    ) -> None:
        self.encoder = encoder
        # the C encoder's own method where the encoder has one (no call in between)
        native = getattr(encoder, "native", None)
        self.encode: Any = encoder.encode if native is None else native.encode
        # the copy of a mask into a new int8 array made in C, where built
        self.copy_mask: Any = None if _FRESH is None else _FRESH.fresh_mask
        self.num_actions = num_actions
        self.seats: dict[str, int] = {a: i for i, a in enumerate(agents)}
        self.by_legal_list = by_legal_list
        self.max_steps = -1
        self.state: State | None = None
        self.mask_step = -1
        self.mask = bytearray(num_actions)
        self.mask_array: np.ndarray = np.zeros(num_actions, np.int8)
        # games that build their mask per state: it is copied into this buffer, one
        # array view over it made once (a view per state costs more than the copy)
        self.own = bytearray(num_actions)
        self.own_array: np.ndarray = np.frombuffer(self.own, np.int8)
        # whether states of the last type met write their mask themselves (a
        # ``mark_legal(mask)`` method, as Kingdomino's: mask and sorted tuple at once)
        self.state_type: type = type(None)
        self.marks = False
        self.legal_step = -1
        self.legal: list[int] = []
        self.masks: dict[tuple[int, ...], tuple[bytearray, np.ndarray, tuple[int, ...]]] = {}
        self.legal_tuple: tuple[int, ...] = ()
        self.tuple_step = -1

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling and deep copies: the settings and the state (the kept masks are
        caches, built again)."""
        agents = sorted(self.seats, key=self.seats.__getitem__)
        return (
            _restore_core,
            (
                self.encoder,
                self.num_actions,
                agents,
                self.by_legal_list,
                self.state,
                self.max_steps,
            ),
        )

    def start(self, state: State, max_steps: int) -> None:
        """Play ``state`` from now on (``max_steps``: -1 for no limit)."""
        self.state = state
        self.max_steps = max_steps
        self.mask_step = -1
        self.legal_step = -1
        self.tuple_step = -1

    def legal_actions(self, state: State) -> list[int]:
        """The engine's legal actions as a list, asked at most once per state."""
        step = state.step
        if self.legal_step != step:
            self.legal = state.legal_actions()
            self.legal_step = step
        return self.legal

    def refresh_mask(self, state: State) -> None:
        """The legal actions of ``state`` as a mask (see the class docstring)."""
        if self.by_legal_list:
            legal = self.legal_actions(state)
            key = tuple(legal)
            found = self.masks.get(key)
            if found is None:
                mask = bytearray(self.num_actions)
                for a in legal:
                    mask[a] = 1
                if len(self.masks) >= _KEPT_MASKS:
                    self.masks.clear()
                found = (mask, np.frombuffer(mask, np.int8), tuple(sorted(key)))
                self.masks[key] = found
            self.mask = found[0]
            self.mask_array = found[1]
            self.legal_tuple = found[2]
            self.tuple_step = state.step
        else:
            kind = type(state)
            if kind is not self.state_type:
                self.state_type = kind
                self.marks = hasattr(kind, "mark_legal")
            if self.marks:
                # the state writes its mask into the kept buffer and hands back its
                # sorted legal actions (info's tuple) in the same pass
                marker: Any = state
                self.legal_tuple = marker.mark_legal(self.own)
                self.tuple_step = state.step
            else:
                self.own[:] = state.legal_actions_mask(self.num_actions)
            self.mask = self.own
            self.mask_array = self.own_array
        self.mask_step = state.step

    def observe(self, state: State, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation: its vector and a fresh mask (a copy of the state's
        if it is to act, zeros otherwise)."""
        seat = self.seats[agent]
        return {
            "observation": self.encode(state, seat),
            "action_mask": self.fresh_mask(state, seat),
        }

    def observe_info(self, state: State, agent: str, info: dict[str, Any]) -> dict[str, np.ndarray]:
        """:meth:`observe`, and :meth:`note_legal` into ``info``: what ``last()``
        hands over."""
        seat = self.seats[agent]
        self.note_legal(state, seat, info)
        return {
            "observation": self.encode(state, seat),
            "action_mask": self.fresh_mask(state, seat),
        }

    def fresh_mask(self, state: State, seat: int) -> np.ndarray:
        """``seat``'s mask, the learner's to keep: a copy of the state's if it is to
        act, zeros otherwise."""
        if state.current_player != seat:
            return np.zeros(self.num_actions, np.int8)
        if self.mask_step != state.step:
            self.refresh_mask(state)
        copy_mask = self.copy_mask
        if copy_mask is not None:
            out: np.ndarray = copy_mask(self.mask)
            return out
        return self.mask_array.copy()

    def note_legal(self, state: State, seat: int, info: dict[str, Any]) -> None:
        """``info["legal_actions"]``: the legal actions of ``seat``, the positions of
        its mask's 1s in increasing order, as a tuple (empty when it is not to act).
        A learner that wants the legal actions as numbers reads them there rather
        than searching the mask (for Dominion's buy phase the tuple is kept with
        its mask)."""
        if state.current_player != seat:
            info["legal_actions"] = ()
            return
        step = state.step
        if self.tuple_step != step:
            if self.mask_step != step:
                self.refresh_mask(state)
            if self.tuple_step != step:  # a state without ``mark_legal``
                self.legal_tuple = tuple(sorted(self.legal_actions(state)))
                self.tuple_step = step
        info["legal_actions"] = self.legal_tuple

    def apply(self, state: State, action: object) -> int:
        """Apply ``action`` if it is a legal ``int``: the next player to act, or
        :data:`ENDED` / :data:`TRUNCATED`; :data:`NOT_INT` or :data:`ILLEGAL` (and
        nothing changed) otherwise."""
        if type(action) is not int:
            return NOT_INT
        a: int = action
        if self.mask_step != state.step:
            self.refresh_mask(state)
        if a < 0 or a >= self.num_actions or not self.mask[a]:
            return ILLEGAL
        state.apply(a)
        player = state.current_player
        if player == TERMINAL:
            return ENDED
        if self.max_steps >= 0 and state.step >= self.max_steps:
            return TRUNCATED
        return player


def _restore_core(
    encoder: Any,
    num_actions: int,
    agents: list[str],
    by_legal_list: bool,
    state: State | None,
    max_steps: int,
) -> StepCore:
    """The core :meth:`StepCore.__reduce__` pickled."""
    core = StepCore(encoder, num_actions, agents, by_legal_list)
    core.max_steps = max_steps
    core.state = state
    return core
