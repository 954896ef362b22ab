"""Did a step reveal anything?  The rule behind taking an action back.

A step (``before`` → ``action`` → ``after``) is *final* once it showed some seat
something the acting seat could not know when it chose: then taking it back would
let the acting seat choose again knowing more.  The rule is derived from the views
alone, the same for every game:

1. the step consumed randomness (the state's RNG moved: a shuffle, a random draw) —
   final;
2. otherwise the step revealed nothing iff what it showed every seat — how the
   seat's view changed and the new log events as that seat receives them — is the
   same whatever the parts hidden from the acting seat were: the pre-step state is
   determinized for the acting seat (everything it cannot see resampled)
   ``samples`` times, the same action is applied to each, and for every seat the
   change of its view and its new log events must come out exactly as in the real
   game.  (The change, not the whole view: another seat's own hand is hidden from
   the acting seat and differs in every determinization, steps that do not touch
   it included.)

Sampling costs a determinization, the step and every seat's view per sample, so a
game may settle rule 2 from its structure first: a step that read nothing of what
``determinize`` resamples showed nothing (:meth:`State.revealed_nothing
<kingdoms.core.state.State.revealed_nothing>`; in Kingdomino every step but those that
draw a line, a king of the first picks or a new game of a Dynasty; in Dominion every
step that moves no card out of a deck or another seat's hand, plays no Attack and
leaves the decision with the acting seat, or plays an Attack no Moat can answer).
Only the steps the game cannot settle are sampled (:func:`sampled_reveal`), and those
sample only what they read: the game tells which samples hold what the real game held
where the step read something hidden (:meth:`State.reads_alike
<kingdoms.core.state.State.reads_alike>`: the top cards a step took from a deck, the
hand a decision was read from), and the others are played out first; the step is final
iff some sample differs, so the verdict is the same, found on the first sample that
could show something instead of after every sample that held the same.  A game may
also add samples of its own, tried first (:meth:`State.telling_samples
<kingdoms.core.state.State.telling_samples>`): worlds it knows may show what the step
read however rarely random determinizations deal them (in Dominion, the hands that
hold or lack each kind of card of the seat a step hands the decision to).  The property
tests check every game's structural answer and the order against sampling.

A card turned face up from a hidden deck is caught by 2 even though no RNG is used
(the resampled decks have other cards on top), and so is a new Kingdomino line or
the next king drawn for the first picks.  What the acting seat already knew (a card
played from its own hand) is the same in every determinization, so showing it to
the others is not a reveal: they have not acted since, and only the acting seat may
take the step back.  A step whose outcome was already certain (the last dominoes of
the pile, whatever order) reveals nothing and stays undoable.

The check samples: if the revealed thing had the same value in every sample it is
missed.  The chance of that is at most ``p ** samples`` where ``p`` is the largest
probability, as the acting seat saw it, of what was shown (a deck of 19 Coppers and
one Estate: 0.95 ** 64 ≈ 4 %, a 50/50 unknown: 5e-20); the determinizations are
seeded by the game and step, so a verdict never changes between two asks.

>>> from kingdoms.core import new_game
>>> state = new_game("kingdomino", players=2, seed=3)
>>> before = state.clone()
>>> action = state.legal_actions()[0]
>>> state.apply(action)
>>> step_reveal(before, action, state)  # the next king to pick is drawn from the hand
'that action revealed new information'
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from kingdoms.core.errors import KingdomsError
from kingdoms.core.state import Action, State

REVEALED = "that action revealed new information"
CHANCE = "that action used chance (cards were shuffled or drawn)"

SAMPLES = 64
"""Determinizations tried per step (a step that reveals something stops at the first
that differs; one that reveals nothing pays all of them)."""


_GONE = "<gone>"


def _diff(old: Any, new: Any, path: tuple[Any, ...], out: dict[tuple[Any, ...], Any]) -> None:
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for k in old.keys() | new.keys():
            _diff(old.get(k, _GONE), new.get(k, _GONE), (*path, k), out)
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            _diff(a, b, (*path, i), out)
    else:
        out[path] = new


def view_change(old: Any, new: Any) -> dict[tuple[Any, ...], Any]:
    """How the JSON data ``old`` became ``new``: the new value at every path that
    differs (a list that changed length counts as one new value).

    >>> view_change({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 3], "c": None})
    {('b', 1): 3, ('c',): None}
    """
    out: dict[tuple[Any, ...], Any] = {}
    _diff(old, new, (), out)
    return dict(sorted(out.items(), key=repr))


def step_reveal(
    before: State,
    action: Action,
    after: State,
    samples: int = SAMPLES,
    after_view: Callable[[int], Any] | None = None,
) -> str | None:
    """Why the step ``before`` → ``action`` → ``after`` is final (``None``: it revealed
    nothing, see the module docstring).  ``before`` is left unchanged.  ``after_view``:
    gives each seat's view of ``after`` when the caller has them already (a server
    builds them for its messages anyway), instead of ``after.view``.

    A step the game can tell structurally showed nothing
    (:meth:`~kingdoms.core.state.State.revealed_nothing`) costs no sampling; any other
    goes to :func:`sampled_reveal`, which tries first the samples that differ from the
    real game where the step read something hidden
    (:meth:`~kingdoms.core.state.State.reads_alike`): a step that revealed something is
    found final on the first of them instead of after every sample that happened to
    hold the same there."""
    if before.rng.getstate() != after.rng.getstate():
        return CHANCE
    if before.revealed_nothing(action, after):
        return None
    return sampled_reveal(before, action, after, samples, ordered=True, after_view=after_view)


def sampled_reveal(
    before: State,
    action: Action,
    after: State,
    samples: int = SAMPLES,
    ordered: bool = False,
    after_view: Callable[[int], Any] | None = None,
) -> str | None:
    """Rule 2 of the module docstring by sampling: ``None`` if every seat's view change
    and new log events come out as in the real game on ``samples`` determinizations
    for the acting seat, else :data:`REVEALED` at the first that differs.

    ``ordered``: the samples the game says read alike
    (:meth:`~kingdoms.core.state.State.reads_alike`) are tried after the others.  The
    samples are the same (each made from its own seed) and the step is final iff one of
    them differs, so the verdict is the same in either order; only the time to find
    the sample that differs changes."""
    case = _Case(before, action, after, after_view)
    name = f"{before.config.seed}:{before.step}:{action}"
    for alt in before.telling_samples(action, after, random.Random(f"telling:{name}")):
        if not _agrees(case, alt.clone(), alt.clone):  # alt stays as it was
            return REVEALED
    rng = random.Random(f"reveal:{name}")
    alike: list[tuple[float, State]] = []  # samples tried last (ordered)
    for _ in range(samples):
        seed = rng.random()
        alt = case.determinized(seed)
        if ordered and before.reads_alike(action, after, alt):
            alike.append((seed, alt))
        elif not _agrees(case, alt, case.remake(seed)):
            return REVEALED
    for seed, alt in alike:
        if not _agrees(case, alt, case.remake(seed)):
            return REVEALED
    return None


class _Case:
    """One step under :func:`sampled_reveal`: what the real step showed each seat."""

    def __init__(
        self,
        before: State,
        action: Action,
        after: State,
        after_view: Callable[[int], Any] | None = None,
    ) -> None:
        self.before = before
        self.action = action
        self.actor = before.current_player
        self.seats = range(after.num_players)
        self.start = start = len(before.log)
        view = after.view if after_view is None else after_view
        self.real_views = [view(s) for s in self.seats]
        self.real_logs = [[e.visible_to(s) for e in after.log[start:]] for s in self.seats]
        self.real_changes: dict[int, dict[tuple[Any, ...], Any]] = {}
        self.keep_before = False  # whether views change with the sample: copy each before

    def determinized(self, seed: float) -> State:
        """The sample of ``seed``: the state before the step, determinized for the actor."""
        state = self.before.determinize(self.actor, random.Random(seed))
        state.logging = self.before.logging
        return state

    def remake(self, seed: float) -> Callable[[], State]:
        """What makes the sample of ``seed`` again (:func:`_agrees`)."""
        return lambda: self.determinized(seed)


def _agrees(case: _Case, alt: State, remake: Callable[[], State]) -> bool:
    """Whether the sample ``alt`` (not yet stepped: it is) shows every seat what the
    real step showed it; ``remake`` makes ``alt`` as it was before again."""
    # the sample before the step: a copy, or made again when needed
    alt_before = alt.clone() if case.keep_before else None
    try:
        alt.apply_checked(case.action)
    except KingdomsError:
        return False
    start = case.start
    for s in case.seats:
        if [e.visible_to(s) for e in alt.log[start:]] != case.real_logs[s]:
            return False
        view = alt.view(s)
        if view == case.real_views[s]:
            continue  # what s sees after is the same whatever the actor could not see
        if s not in case.real_changes:
            case.real_changes[s] = view_change(case.before.view(s), case.real_views[s])
        if alt_before is None:
            alt_before = remake()
            case.keep_before = True
        if view_change(alt_before.view(s), view) != case.real_changes[s]:
            return False
    return True


__all__ = ["CHANCE", "REVEALED", "SAMPLES", "sampled_reveal", "step_reveal", "view_change"]
