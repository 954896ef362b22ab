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
from kingdoms.dominion.actions import CHOOSE as _D_CHOOSE
from kingdoms.dominion.actions import END_PHASE as _D_END_PHASE
from kingdoms.dominion.actions import GAIN as _D_GAIN
from kingdoms.dominion.actions import PLAY as _D_PLAY
from kingdoms.dominion.actions import PLAY_ALL_TREASURES as _D_PLAY_ALL
from kingdoms.dominion.cards import DECLARED
from kingdoms.dominion.cards.steps import (
    Ask,
    DiscardAnyThenDraw,
    EachOtherDiscardsDownTo,
    GainUpTo,
    Plus,
    TrashOfTypeFromHand,
    TrashOneFromHand,
    TrashUpTo,
)
from kingdoms.dominion.data import NUM_CARDS as _D_CARDS
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


_CELLAR_PICK: Final = "discard_draw"
"""Cellar's decision: a card picked is discarded and the same question asked again
(:mod:`kingdoms.dominion.cards.steps`); ``done`` draws as many."""
_CHAPEL_PICK: Final = "trash_up_to"
"""Chapel's decision (``a`` trashed so far of at most ``b``): asked again while
picks and cards are left."""
_MILITIA_PICK: Final = "discard_down_to"
"""Militia's decision (``a`` the hand size to keep): asked again while the hand is
bigger."""
_GAIN: Final = "gain"
"""A gain's decision (Workshop, Feast, Remodel, Mine, Artisan…)."""
_M32: Final = 0xFFFFFFFF
CLEANUP_DRAW: Final = 5
"""The cards a Clean-up draws: all a Buy phase's end reads of a deck nobody saw."""


def chance_seed(rng: random.Random, outcome: int) -> int:
    """The nonzero 32-bit start of :func:`mix` for chance outcome ``outcome``: 32
    bits of ``rng`` (the state's generator, which no seat observes) hashed with the
    outcome, so each outcome gives its own arrangement."""
    x = (rng.getrandbits(32) + outcome * 0x9E3779B9) & _M32
    x = ((x ^ (x >> 16)) * 0x45D9F3B) & _M32
    x = ((x ^ (x >> 16)) * 0x45D9F3B) & _M32
    x ^= x >> 16
    return x or 0x6D2B79F5


def mix(cards: list[int], lo: int, hi: int, top: int, x: int) -> int:
    """Shuffle ``cards[lo:hi]`` from its end (the top of a deck), the first ``top``
    places only: a Fisher-Yates walk down from ``hi - 1``, each place given a card
    drawn uniformly from those at or under it, by a xorshift generator started at
    ``x`` (nonzero, 32 bits); returns the generator's state.  With ``top`` at least
    ``hi - lo`` the whole part is shuffled; otherwise its top ``top`` cards are a
    uniform draw from the part and those under them are left in any order (the next
    chance node before they are read shuffles them again)."""
    i = hi - 1
    stop = max(hi - top, lo + 1)
    while i >= stop:
        x ^= (x << 13) & _M32
        x ^= x >> 17
        x ^= (x << 5) & _M32
        j = lo + ((x * (i - lo + 1)) >> 32)
        c = cards[i]
        cards[i] = cards[j]
        cards[j] = c
        i -= 1
    return x


def chance_shuffle(cards: list[int], rng: random.Random, outcome: int) -> None:
    """Shuffle ``cards`` in place as chance outcome ``outcome`` does (:func:`mix`
    started by :func:`chance_seed`): one uniform shuffle per outcome."""
    mix(cards, 0, len(cards), len(cards), chance_seed(rng, outcome))


def _reads_nothing_when_played(decl: Any) -> bool:
    """Whether a declared card's play reads no card nobody has seen: its effect is
    steps, each one that only changes counts (+Actions, +Buys, +$) or asks a
    decision (a gain, a trash, Cellar's discard, a card's own question, each other
    player discarding down)."""
    steps = decl.steps
    if not steps:
        return False
    for step in steps:
        kind = type(step)
        if kind is Plus:
            if step.cards:
                return False
        elif kind not in _ASKING_STEPS:
            return False
    return True


_ASKING_STEPS: Final = (
    Ask,
    DiscardAnyThenDraw,
    EachOtherDiscardsDownTo,
    GainUpTo,
    TrashOfTypeFromHand,
    TrashOneFromHand,
    TrashUpTo,
)
QUIET_PLAYS: Final = frozenset(d.index for d in DECLARED.values() if _reads_nothing_when_played(d))
"""The cards whose play in an Action phase needs no chance node (Workshop, Militia,
Remodel, Mine, Chapel, Cellar, Festival…)."""


def _quiet_answer(engine: Any, stack: list[Any], kind: int) -> bool:
    """Whether answering the top decision of ``stack`` with an action of ``kind``
    reads nothing nobody has seen: a card picked that asks the same question again
    at once (Cellar's discard; Chapel's trash with picks and cards left; Militia's
    discard down to a hand still too big), or a card gained with nothing under the
    gain in an Action phase with a buy left (what follows is the Action phase, or
    the Buy phase it skips to: the engine's ``_settle``; no card of these sets reads
    a deck when a card is gained)."""
    top = stack[-1]
    code = top.code
    if kind == _D_CHOOSE:
        if code == _CELLAR_PICK:
            return True
        if code == _CHAPEL_PICK:
            return bool(top.a + 1 < top.b and len(engine.hands[top.who]) > 1)
        if code == _MILITIA_PICK:
            return bool(len(engine.hands[top.who]) - 1 > top.a)
        return False
    return bool(
        kind == _D_GAIN
        and code == _GAIN
        and len(stack) == 1
        and engine.phase == _D_ACTION_PHASE
        and engine.buys > 0
    )


def dominion_needs_chance(engine: Any, action: int) -> bool:
    """Whether carrying out ``action`` in ``engine`` (a Dominion state) may draw, look
    at or shuffle cards nobody has seen: everything but a Treasure played, all
    Treasures played, a buy that is not the last one, the end of an Action phase
    that leads to a Buy phase, and the answers :func:`_quiet_answer` tells (the
    tests check, on random games, that these read nothing hidden)."""
    kind = action // _D_CARDS
    stack = engine.stack
    if stack:
        return not _quiet_answer(engine, stack, kind)
    if kind == _D_PLAY_ALL:
        return False
    if kind == _D_PLAY:
        return bool(engine.phase != _D_BUY_PHASE and action % _D_CARDS not in QUIET_PLAYS)
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
    engine: Any,
    fresh: list[int] | None,
    rng: random.Random,
    outcome: int = 0,
    seat: int = -1,
    top: int = 0,
) -> None:
    """Rearrange what no seat has seen — the bottom ``fresh[p]`` cards of each
    Dominion deck ``p`` (those that came from a shuffle and were not drawn or looked at
    since), or every undrawn and set-aside domino of Kingdomino — as chance outcome
    ``outcome`` does (:func:`mix`, started by :func:`chance_seed`).  With ``seat``
    (Dominion, an action that reads no more than the top ``top`` cards of that seat's
    deck): only those cards are drawn at random from the seat's unseen part."""
    if fresh is not None:
        decks: list[list[int]] = engine.decks
        x = chance_seed(rng, outcome)
        if seat >= 0:
            u = fresh[seat]
            if u > 1:
                mix(decks[seat], 0, u, top, x)
            return
        for p in range(len(decks)):
            u = fresh[p]
            if u > 1:
                x = mix(decks[p], 0, u, u, x)
        return
    pile: list[int] = engine.pile
    pool = pile + engine.aside
    chance_shuffle(pool, rng, outcome)
    k = len(pile)
    engine.pile = pool[:k]
    engine.aside = sorted(pool[k:])


def ends_the_turn(engine: Any, action: int) -> bool:
    """Whether ``action``, which waits for a chance node, ends a Dominion Buy phase
    with no decision pending (the last buy, or the end of a phase with no buy left):
    all it reads of the decks is the top :data:`CLEANUP_DRAW` cards of the deck of
    the player whose turn ends (the Clean-up draw; Alchemist and Herbalist ask first,
    and the answer has a chance node of its own)."""
    if engine.stack:
        return False
    kind = action // _D_CARDS
    return kind in (_D_BUY, _D_END_PHASE)


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
    carries out the pending action with its own shuffles made by the outcome too
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
    if fresh is not None and ends_the_turn(engine, pending):
        rearrange_unseen(engine, fresh, rng, action, engine.turn, CLEANUP_DRAW)
    else:
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
