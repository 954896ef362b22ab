"""Does the review find real mistakes?  Games between ``big-money-ultimate`` and a
weakened copy of it that, at each buy, with probability ``noise`` buys a random
affordable card (or nothing) instead; the review's flagged mistakes should fall on
those random buys far more than on the other moves.

*Precision*: of the flagged decisions (both seats), the share that are random buys
differing from what ``big-money-ultimate`` would have bought.  *Recall*: of those
random buys, the share flagged (many random buys are no mistake at all: Silver
instead of a Village, say).  ``bench/review_precision.py`` runs it on many games; the
tests run a short version.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from kingdoms.bots.base import View, make_bot
from kingdoms.core.errors import InvalidConfig
from kingdoms.core.record import GameRecord
from kingdoms.core.registry import new_game
from kingdoms.core.runner import seat_rngs
from kingdoms.review.analysis import Budget
from kingdoms.review.game import review_game

STRONG = "big-money-ultimate"

MONEY_KINGDOM = [
    "cellar", "chapel", "feast", "gardens", "harbinger",
    "spy", "thief", "throne_room", "village", "woodcutter",
]  # fmt: skip
"""No card of a bundled strategy (so ``big-money-ultimate`` is the best plan the
reviewer knows here: a Workshop, once in this kingdom where Harbinger is, makes
the bundled ``workshop-gardens`` with Gardens, which beats it), and none that makes Big Money much
stronger (the rollouts play a Mine or a Moneylender they own, and rate them highly)."""


class NoisyBuyer:
    """``inner``, except that each buy is, with probability ``noise``, a random
    choice among the legal buys and ending the phase (drawn with its own generator)."""

    def __init__(self, inner: Any, noise: float, seed: int) -> None:
        self.inner = inner
        self.noise = noise
        self.rng = random.Random(f"noisy {seed}")
        self.deviated = False
        """Whether the last move was a random buy other than ``inner``'s choice."""

    def act(self, view: View, legal_actions: Sequence[int], rng: random.Random) -> int:
        from kingdoms.dominion import actions as A
        from kingdoms.dominion.data import NUM_CARDS

        choice = int(self.inner.act(view, legal_actions, rng))
        self.deviated = False
        buys = [a for a in legal_actions if a // NUM_CARDS == A.BUY]
        buying = choice == A.A_END_PHASE or choice // NUM_CARDS == A.BUY  # treasures played
        if view.get("phase") == "buy" and buying and buys and self.rng.random() < self.noise:
            options = [*buys, A.A_END_PHASE] if A.A_END_PHASE in legal_actions else buys
            pick = options[self.rng.randrange(len(options))]
            self.deviated = pick != choice
            return pick
        return choice


@dataclass(slots=True)
class GameCount:
    """One reviewed game: its random buys and the review's flags."""

    seed: int
    noisy_seat: int
    random_buys: list[int] = field(default_factory=list)
    flagged: list[tuple[int, int]] = field(default_factory=list)
    """(step, seat) of each flagged decision."""
    decisions: int = 0
    cpu_seconds: float = 0.0


def play(seed: int, noise: float, options: dict[str, Any] | None = None) -> tuple[
    GameRecord, int, list[int]
]:  # fmt: skip
    """A game of ``big-money-ultimate`` against its noisy copy (seat alternating with the
    seed): the record, the noisy seat and the steps of its deviating random buys."""
    noisy_seat = seed % 2
    noisy = NoisyBuyer(make_bot("dominion", STRONG), noise, seed)
    bots: list[Any] = [make_bot("dominion", STRONG), make_bot("dominion", STRONG)]
    bots[noisy_seat] = noisy
    state = new_game("dominion", players=2, seed=seed, options=options)
    state.logging = False
    rngs = seat_rngs(seed, 2)
    deviations = []
    while not state.is_terminal():
        p = state.current_player
        action = bots[p].act(state.view(p), state.legal_actions(), rngs[p])
        if p == noisy_seat and noisy.deviated:
            deviations.append(state.step)
        state.apply_checked(action)
    return state.record(), noisy_seat, deviations


def one_game(seed: int, noise: float, budget: Budget, options: dict[str, Any] | None) -> GameCount:
    record, noisy_seat, deviations = play(seed, noise, options)
    review = review_game(record, budget=budget)
    return GameCount(
        seed=seed,
        noisy_seat=noisy_seat,
        random_buys=deviations,
        flagged=[(d.step, d.seat) for d in review.decisions if d.flagged],
        decisions=len(review.decisions),
        cpu_seconds=review.cpu_seconds,
    )


def run(
    seeds: Sequence[int],
    noise: float,
    budget: Budget,
    workers: int = 1,
    options: dict[str, Any] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> Iterator[GameCount]:
    """Each game's counts, in seed order (``workers`` processes, one game each; the
    ``ray`` backend: Ray tasks, on a cluster at ``address`` or a local Ray instance)."""
    if backend == "ray":
        yield from _ray(seeds, noise, budget, workers, options, address)
        return
    if backend != "local":
        raise InvalidConfig(f"unknown backend {backend!r}; use local or ray")
    if workers <= 1:
        for seed in seeds:
            yield one_game(seed, noise, budget, options)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(one_game, s, noise, budget, options) for s in seeds]
        for fut in futures:
            yield fut.result()


def _ray(
    seeds: Sequence[int],
    noise: float,
    budget: Budget,
    workers: int,
    options: dict[str, Any] | None,
    address: str | None,
) -> Iterator[GameCount]:
    try:
        import ray
    except ImportError as err:
        raise InvalidConfig("the ray backend needs Ray: pip install 'kingdoms[ray]'") from err
    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    task = ray.remote(one_game)
    refs = [task.remote(seed, noise, budget, options) for seed in seeds]
    try:
        for ref in refs:
            game: GameCount = ray.get(ref)
            yield game
    finally:
        if started:
            ray.shutdown()


@dataclass(slots=True)
class Totals:
    games: int = 0
    flagged: int = 0
    flagged_random: int = 0
    random_buys: int = 0
    flagged_strong: int = 0
    decisions: int = 0
    cpu_seconds: float = 0.0

    def add(self, game: GameCount) -> None:
        randoms = set(game.random_buys)
        self.games += 1
        self.flagged += len(game.flagged)
        self.flagged_random += sum(1 for step, _ in game.flagged if step in randoms)
        self.flagged_strong += sum(1 for _, seat in game.flagged if seat != game.noisy_seat)
        self.random_buys += len(randoms)
        self.decisions += game.decisions
        self.cpu_seconds += game.cpu_seconds

    @property
    def precision(self) -> float:
        return self.flagged_random / self.flagged if self.flagged else 0.0

    @property
    def recall(self) -> float:
        return self.flagged_random / self.random_buys if self.random_buys else 0.0

    def line(self) -> str:
        return (
            f"{self.games} games, {self.decisions} decisions analysed, {self.random_buys} "
            f"random buys; flagged {self.flagged} ({self.flagged_random} random buys, "
            f"{self.flagged_strong} moves of {STRONG}); precision {self.precision:.1%}, "
            f"recall {self.recall:.1%}; {self.cpu_seconds / max(self.games, 1):.1f} CPU s/game"
        )


def measure(
    seeds: Sequence[int],
    noise: float,
    budget: Budget,
    workers: int = 1,
    options: dict[str, Any] | None = None,
    each: Callable[[Totals, GameCount], None] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> Totals:
    totals = Totals()
    for game in run(seeds, noise, budget, workers, options, backend, address):
        totals.add(game)
        if each is not None:
            each(totals, game)
    return totals
