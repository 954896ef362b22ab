"""Which kingdom card is strongest here: "Big Money Ultimate + X" for every card X,
each played against ``big-money-ultimate``, ranked by win rate.

X is bought before Silver (before Gold when it costs $6 or more), at most N copies;
N is chosen by a screen on paired games (every N plays the same seeds) that adds
games until the best N is separated from the next best, or says it is not. Then
every card's bot plays the same fresh games (paired seeds again), batch by batch,
until each rank is separated from its neighbours (a 99 % interval of the paired
per-game difference in score, checked after every batch so that the repeated looks
keep the error rate low) or the game budget is spent; ranks left unseparated are
reported as such.  Score is the reports' one score: (wins + ½ shared) / games.

Beside "Big Money Ultimate + X", every card also gets its best **two-card
combination** (:func:`best_combo`): a short search over the strategy templates of
:mod:`kingdoms.sim.templates` that use X and at most one other kingdom card (X
with a village or a draw card in an engine, X in a trashing engine, X as a rush's
gainer or alternative Victory card, X with its Potion, Big Money with X and a
partner), played against the same opponent, so that cards like Chapel and
Gardens are not judged only as Big Money helpers.

>>> print(bmu_plus("smithy", 2).splitlines()[3])
  "Province if total_money > 18",
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kingdoms.core.registry import get_game
from kingdoms.dominion.data import BY_ID, CARDS
from kingdoms.sim.runner import (
    DEFAULT_MAX_TURNS,
    GameResult,
    check_max_turns,
    score_points,
    simulate,
)
from kingdoms.sim.stats import wilson_interval

OPPONENT = "big-money-ultimate"
Z99 = 2.575829


score_of = score_points
"""Wins plus half the shared wins of a bot (the one definition, :func:`score_points`)."""


def clear_of_half(min_games: int, z: float = Z99) -> Callable[[Sequence[GameResult]], bool]:
    """Stop rule: the bot's score interval no longer contains 50 %."""

    def stop(results: Sequence[GameResult]) -> bool:
        n = len(results)
        if n < min_games:
            return False
        lo, hi = wilson_interval(score_of(results), n, z)
        return lo > 0.5 or hi < 0.5

    return stop


def bmu_plus(card: str, copies: int, early: bool = False) -> str:
    """The strategy file of Big Money Ultimate + ``copies`` of ``card``: bought before
    Gold when it costs 6 or more, else after the mid-game Duchy; before Gold with
    ``early`` (the attacker first, as the Witch and Bandit players of ``kingdoms
    optimize`` buy it)."""
    c = CARDS[BY_ID[card]]
    name = c.names["en"]
    entry = f'  "{name} if count({name}) < {copies}",'
    potion = '  "Potion if count(Potion) < 1",' if c.cost[1] else None
    lines = [
        f'name = "bmu+{card}"',
        f'play = ["{name}"]' if c.is_action else "play = []",
        "buy = [",
        '  "Province if total_money > 18",',
        '  "Duchy if left(Province) <= 4",',
        '  "Estate if left(Province) <= 2",',
    ]
    first = early or c.cost[0] >= 6
    if first:
        lines.append(entry)
    lines.append('  "Gold",')
    lines.append('  "Duchy if left(Province) <= 6",')
    if not first:
        lines.append(entry)
    if potion:
        lines.append(potion)
    lines += ['  "Silver",', "]", ""]
    return "\n".join(lines)


def kingdom_cards(kingdom: Any, seed: int, options: Mapping[str, Any] | None = None) -> list[str]:
    """The 10 kingdom cards, as a game with these options and seed would deal them
    (cards not named are drawn as the game draws them)."""
    opts = {**(options or {}), "kingdom": kingdom}
    cards = get_game("dominion").config(2, seed, opts).options["kingdom"]
    return list(cards)


def paired_gap(a: Sequence[float], b: Sequence[float], z: float = Z99) -> tuple[float, float]:
    """Mean of the per-game differences ``a[i] - b[i]`` of two bots' points on the same
    games (paired seeds) and the half-width of its interval (``z``: 99 % by default).

    >>> paired_gap([1, 1, 0.5, 1], [0, 1, 0.5, 0])
    (0.5, 0.743...)
    """
    n = min(len(a), len(b))
    if n < 2:
        return (0.0, math.inf)
    d = [a[i] - b[i] for i in range(n)]
    m = sum(d) / n
    var = sum((x - m) ** 2 for x in d) / (n - 1)
    return (m, z * math.sqrt(var / n))


def separated(a: Sequence[float], b: Sequence[float], z: float = Z99) -> bool:
    """Whether two bots' scores on the same games differ (the paired interval of the
    difference excludes 0; identical results never separate)."""
    m, half = paired_gap(a, b, z)
    return abs(m) > half and half < math.inf and m != 0


@dataclass(slots=True)
class _Arm:
    """A bot spec against the opponent, its points game by game (index order)."""

    spec: str
    points: list[float] = field(default_factory=list)
    capped: int = 0
    """Of those games, the ones stopped at the turn cap."""

    @property
    def score(self) -> float:
        return sum(self.points) / len(self.points) if self.points else 0.0


@dataclass(slots=True)
class Combo:
    """A card's best two-card combination found by :func:`best_combo`, measured on
    fresh games against the ranking's opponent."""

    partner: str
    """The other kingdom card ("" when the card does best alone in a template)."""
    template: str
    score: float
    ci: tuple[float, float]
    games: int
    strategy: str
    """The combination's strategy file."""
    gain: float | None = None
    """Its mean score minus the card alone's on the same games (paired seeds)."""
    gain_half: float | None = None
    """The half-width of the 99 % interval of :attr:`gain`."""

    @property
    def better(self) -> bool:
        """Whether it beats the card alone, separated on the same games."""
        return self.gain is not None and self.gain_half is not None and self.gain > self.gain_half

    def to_json(self) -> dict[str, Any]:
        return {
            "partner": self.partner or None,
            "gain_vs_alone": None if self.gain is None else round(self.gain, 4),
            "gain_ci99_half": None if self.gain_half is None else round(self.gain_half, 4),
            "better_than_alone": self.better,
            "template": self.template,
            "score": round(self.score, 4),
            "ci95": [round(self.ci[0], 4), round(self.ci[1], 4)],
            "games": self.games,
            "strategy": self.strategy,
        }


COMBO_GAMES = 200
"""Fresh games measuring each card's best combination."""
COMBO_SCREEN = 8
"""Games per candidate in the first round of the combination search's races."""


def best_combo(
    card: str,
    cards: Sequence[str],
    options: Mapping[str, Any],
    *,
    seed: int = 0,
    games: int = COMBO_GAMES,
    screen: int | None = None,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    final_seed: int | None = None,
    alone: Sequence[float] = (),
    max_turns: int = DEFAULT_MAX_TURNS,
) -> Combo:
    """``card``'s best combination with at most one other card of ``cards``: the
    templates using it (:func:`kingdoms.sim.templates.combos`) race against
    :data:`OPPONENT` on common random numbers (successive halving, ``screen`` games a
    candidate in the first round; default :data:`COMBO_SCREEN`, fewer for a small
    ``games``), the best four and eight of their variations (still ``card`` and one
    partner at most) race again, and the winner plays ``games`` fresh games."""
    import random
    import tempfile
    from pathlib import Path

    from kingdoms.sim.optimize import Arena, Match, race
    from kingdoms.sim.templates import combos, mutate, template_of

    rng = random.Random(f"combo-{card}-{seed}")
    if screen is None:
        screen = max(2, min(COMBO_SCREEN, games // 25))
    with tempfile.TemporaryDirectory(prefix="kingdoms-combo-") as tmp:
        arena = Arena(options, Path(tmp), workers, backend, address, max_turns)
        try:
            first = race(arena, combos(card, cards, rng), [OPPONENT], seed + 101, screen, 2)
            elite = [g for _, g, _ in first[:4]]
            kids = list(elite)
            for _ in range(200):
                if len(kids) >= len(elite) + 8:
                    break
                child = mutate(rng.choice(elite), cards, rng)
                if card in child.cards() and len(child.cards()) <= 2 and child not in kids:
                    kids.append(child)
            best = race(arena, kids, [OPPONENT], seed + 202, 2 * screen)[0][1]
            final = seed + 303 if final_seed is None else final_seed
            (points,) = arena.play([Match(arena.file(best), OPPONENT, final, 0, games)])
        finally:
            arena.close()
    partner = next((c for c in best.cards() if c != card), "")
    n, total = len(points), sum(points)
    gain = half = None
    if len(alone) >= n:
        gain, half = paired_gap(points, alone[:n])
    return Combo(
        partner,
        template_of(best),
        total / n,
        wilson_interval(total, n),
        n,
        best.to_toml(f"{card}-combo"),
        gain,
        half,
    )


@dataclass(slots=True)
class Ranked:
    card: str
    copies: int
    games: int
    score: float
    ci: tuple[float, float]
    screen: dict[int, float]
    copies_separated: bool = True
    """Whether the chosen number of copies beat the next best on the screen's games."""
    separated_from_next: bool | None = None
    """Whether this rank is separated from the next one (None for the last)."""
    combo: Combo | None = None
    """The card's best two-card combination (None: not searched)."""
    capped: int = 0
    """Of its :attr:`games`, those stopped at the turn cap."""

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "copies": self.copies,
            "copies_separated": self.copies_separated,
            "games": self.games,
            "score": round(self.score, 4),
            "win_rate": round(self.score, 4),
            "ci95": [round(self.ci[0], 4), round(self.ci[1], 4)],
            "screen": {str(k): round(v, 4) for k, v in self.screen.items()},
            "separated_from_next": self.separated_from_next,
            "combo": None if self.combo is None else self.combo.to_json(),
            "capped_games": self.capped,
        }


def rank_kingdom(
    kingdom: Any,
    *,
    seed: int = 0,
    copies: Sequence[int] = (1, 2, 3, 4),
    screen_games: int = 40,
    max_games: int = 1000,
    min_games: int = 100,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    options: Mapping[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
    combo_games: int = COMBO_GAMES,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> list[Ranked]:
    """Every kingdom card's Big Money Ultimate + X against Big Money Ultimate, best
    first.  All candidates play the same games (paired seeds: the same shuffles where
    their decks allow).  The copies screen adds games until the best count is
    separated from the next best, up to 4 × ``screen_games``; the ranking adds
    ``min_games`` at a time to the cards whose rank is not yet separated from a
    neighbour's, until every neighbouring pair is separated or those cards reach
    ``max_games``.  With ``combo_games`` (0: not), every card's best two-card
    combination (:func:`best_combo`) is measured on that many fresh games.
    ``max_turns``: the turn cap of every game (:func:`~kingdoms.sim.runner.simulate`)."""
    check_max_turns(max_turns)
    opts = {**(options or {}), "kingdom": kingdom_cards(kingdom, seed, options)}
    cards = opts["kingdom"]

    def extend(arm: _Arm, games: int, run_seed: int) -> None:
        games = min(games, max_games - len(arm.points))
        if games <= 0:
            return
        report = simulate(
            "dominion",
            [arm.spec, OPPONENT],
            games,
            run_seed,
            opts,
            workers=workers,
            backend=backend,
            address=address,
            first=len(arm.points),
            max_turns=max_turns,
        )
        arm.points += [score_points([r], 0) for r in report.results]
        arm.capped += report.capped

    picks: dict[str, tuple[int, dict[int, float], bool]] = {}
    found: dict[str, Combo] = {}
    for card in cards:
        arms = {n: _Arm(f"bmu+{card}:{n}") for n in copies}  # a bot name: see bmu_plus
        for arm in arms.values():
            extend(arm, screen_games, seed)
        while True:
            counts = sorted(copies, key=lambda n: (-arms[n].score, n))
            best = counts[0]
            clear = len(counts) < 2 or separated(arms[best].points, arms[counts[1]].points)
            if clear or len(arms[best].points) >= 4 * screen_games:
                break
            for arm in arms.values():
                extend(arm, screen_games, seed)
        picks[card] = (best, {n: arms[n].score for n in copies}, clear)
        if progress:
            progress(card)
    # fresh seeds: not the games the screen chose on
    main = {card: _Arm(f"bmu+{card}:{picks[card][0]}") for card in cards}
    for arm in main.values():
        extend(arm, min_games, seed + 1)
    while True:
        order = sorted(cards, key=lambda c: -main[c].score)
        pending = set()
        for a, b in itertools.pairwise(order):
            if not separated(main[a].points, main[b].points):
                pending |= {c for c in (a, b) if len(main[c].points) < max_games}
        if not pending:
            break
        for card in pending:
            extend(main[card], min_games, seed + 1)
    if combo_games:  # on the card alone's games (paired seeds), for the gain over it
        for card in cards:
            extend(main[card], combo_games - len(main[card].points), seed + 1)
            found[card] = best_combo(
                card, cards, opts, seed=seed, games=combo_games, workers=workers,
                backend=backend, address=address, final_seed=seed + 1,
                alone=main[card].points, max_turns=max_turns,
            )  # fmt: skip
    out = []
    for k, card in enumerate(order):
        arm = main[card]
        n, s = len(arm.points), sum(arm.points)
        nxt = order[k + 1] if k + 1 < len(order) else None
        out.append(
            Ranked(
                card,
                picks[card][0],
                n,
                s / n,
                wilson_interval(s, n),
                picks[card][1],
                picks[card][2],
                None if nxt is None else separated(arm.points, main[nxt].points),
                found.get(card),
                arm.capped,
            )
        )
    return out
