"""The chance nodes of the OpenSpiel games (:mod:`kingdoms.rl.openspiel`): which
actions need one, what one rearranges, and a step of a game through them.

No OpenSpiel here (the module is compiled with mypyc in the compiled build, listed
in :mod:`kingdoms._build`; the pure-Python path runs the same source): the state
stepped is :class:`kingdoms.rl.openspiel.KingdomsState`, handled through its
attributes — ``engine``, ``spec``, ``pending``, ``fresh``, ``truncated``,
``recording``, ``marks`` and ``to_move``.
"""

from __future__ import annotations

import random
from typing import Any, Final

from kingdoms.core.state import TERMINAL
from kingdoms.dominion.actions import BUY as _D_BUY
from kingdoms.dominion.actions import END_PHASE as _D_END_PHASE
from kingdoms.dominion.actions import PLAY as _D_PLAY
from kingdoms.dominion.actions import PLAY_ALL_TREASURES as _D_PLAY_ALL
from kingdoms.dominion.data import NUM_CARDS as _D_CARDS
from kingdoms.dominion.shuffle import shuffle as _shuffle
from kingdoms.dominion.state import _common_start as common_start
from kingdoms.dominion.turn import ACTION_PHASE as _D_ACTION_PHASE
from kingdoms.dominion.turn import BUY_PHASE as _D_BUY_PHASE
from kingdoms.kingdomino.state import CHOOSE as _K_CHOOSE
from kingdoms.kingdomino.state import FIRST_PICKS as _K_FIRST_PICKS
from kingdoms.kingdomino.state import PLACE as _K_PLACE

CHANCE: Final = -1
"""OpenSpiel's player id of chance (``pyspiel.PlayerId.CHANCE``)."""
TERMINAL_ID: Final = -4
"""OpenSpiel's player id of a terminal state (``pyspiel.PlayerId.TERMINAL``)."""


def turned(cards: list[int], rng: random.Random, k: int) -> None:
    """Shuffle ``cards`` in place with ``rng``, then turn them by ``k`` places: the
    ``k``-th of the arrangements a chance node offers (each a uniform shuffle)."""
    _shuffle(cards, rng)
    n = len(cards)
    k %= n if n else 1
    if k:
        cards[:] = cards[n - k :] + cards[: n - k]


def dominion_needs_chance(engine: Any, action: int) -> bool:
    """Whether carrying out ``action`` in ``engine`` (a Dominion state) may draw, look
    at or shuffle cards nobody has seen: everything but a Treasure played, all
    Treasures played, a buy that is not the last one, and the end of an Action phase
    that leads to a Buy phase (the tests check, on random games, that these read
    nothing hidden)."""
    if engine.stack:
        return True
    kind = action // _D_CARDS
    if kind == _D_PLAY_ALL:
        return False
    if kind == _D_PLAY:
        return bool(engine.phase != _D_BUY_PHASE)
    if kind == _D_BUY:
        return bool(engine.buys <= 1)
    if kind == _D_END_PHASE:
        return bool(engine.phase != _D_ACTION_PHASE or engine.buys <= 0)
    return True


def kingdomino_needs_chance(engine: Any, action: int) -> bool:
    """Whether ``action`` ends a round of Kingdomino (the next line is drawn; in a
    Dynasty, the end of a game deals the next one) or is the last first pick."""
    phase = engine.phase
    if phase == _K_FIRST_PICKS:
        return bool(engine.pick_pos == len(engine.pick_order) - 1)
    if engine.slot != len(engine.current) - 1:
        return False
    return bool(phase == _K_CHOOSE or (phase == _K_PLACE and not engine.next))


def rearrange_unseen(
    engine: Any, fresh: list[int] | None, rng: random.Random, outcome: int = 0
) -> None:
    """Rearrange what no seat has seen — the bottom ``fresh[p]`` cards of each
    Dominion deck ``p`` (those that came from a shuffle and were not drawn or looked at
    since), or every undrawn and set-aside domino of Kingdomino — as chance outcome
    ``outcome`` does: shuffled with ``rng``, then turned by ``outcome`` places."""
    if fresh is not None:
        decks: list[list[int]] = engine.decks
        for p in range(len(decks)):
            u = fresh[p]
            if u > 1:
                deck = decks[p]
                bottom = deck[:u]
                _shuffle(bottom, rng)
                k = outcome % u
                deck[:u] = bottom[u - k :] + bottom[: u - k] if k else bottom
        return
    pile: list[int] = engine.pile
    pool = pile + engine.aside
    turned(pool, rng, outcome)
    k = len(pile)
    engine.pile = pool[:k]
    engine.aside = sorted(pool[k:])


def carry_out(state: Any, engine: Any, action: int) -> None:
    """Apply the player action ``action`` to ``engine``, the engine of ``state``: its
    mark noted (while ``recording``), what nobody has seen trimmed to the decks,
    truncation at the game's ``max_length``."""
    if state.recording:
        state.marks.append((engine.current_player, action, len(engine.log)))
    engine.apply(action)
    fresh: list[int] | None = state.fresh
    if fresh is not None:
        decks: list[list[int]] = engine.decks
        for p in range(len(fresh)):
            n = len(decks[p])
            if n < fresh[p]:
                fresh[p] = n
    if engine.step >= state.spec.max_length and not engine.is_terminal():
        state.truncated = True


def advance(state: Any, action: int, recorder: Any) -> None:
    """One OpenSpiel action of ``state`` once dealt: a player action that may read
    something nobody has seen waits for the chance node that follows (``pending``);
    another is carried out; a chance outcome rearranges what nobody has seen, then
    carries out the pending action with its own shuffles turned by the outcome too
    (``recorder``, lent to the engine as its generator meanwhile: see
    :class:`kingdoms.rl.openspiel._Recorder`)."""
    engine: Any = state.engine
    fresh: list[int] | None = state.fresh
    pending: int = state.pending
    if pending < 0:
        needs = (
            dominion_needs_chance(engine, action)
            if fresh is not None
            else kingdomino_needs_chance(engine, action)
        )
        if needs:
            state.pending = action  # carried out by the chance node that follows
            return
        carry_out(state, engine, action)
        return
    state.pending = -1
    rng = engine.rng
    rearrange_unseen(engine, fresh, rng, action)
    recorder.inner = rng
    recorder.turn = action
    recorder.shuffled = []
    if fresh is None:
        engine.rng = recorder
        try:
            carry_out(state, engine, pending)
        finally:
            engine.rng = rng
        return
    decks: list[list[int]] = engine.decks
    before = [decks[p][: fresh[p]] for p in range(len(fresh))]  # the unseen bottoms
    recorder.discards = engine.discards
    engine.rng = recorder
    try:
        carry_out(state, engine, pending)
    finally:
        engine.rng = rng
        recorder.discards = []
    decks = engine.decks
    for p in range(len(fresh)):
        # the cards under the lowest one taken are where they were
        u = fresh[p]
        if decks[p][:u] != before[p]:
            fresh[p] = common_start(before[p], decks[p])
    shuffled: list[tuple[int, list[int]]] = recorder.shuffled
    for p, pile in shuffled:
        # the shuffled pile went to the bottom of the deck (the last shuffle counts)
        fresh[p] = common_start(pile, decks[p])


def to_move(state: Any) -> int:
    """Who moves in ``state`` now, as OpenSpiel numbers players."""
    engine: Any = state.engine
    if engine is None or state.pending >= 0:
        return CHANCE
    if state.truncated:
        return TERMINAL_ID
    player: int = engine.current_player
    return TERMINAL_ID if player == TERMINAL else player


def apply(state: Any, action: int, recorder: Any) -> None:
    """:func:`advance`, then who moves noted (``to_move``): OpenSpiel's
    ``apply_action`` once the game is dealt."""
    advance(state, action, recorder)
    state.to_move = to_move(state)
