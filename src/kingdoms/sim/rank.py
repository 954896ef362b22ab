"""Which kingdom card is strongest here: "Big Money Ultimate + X" for every card X,
each played against ``big-money-ultimate``, ranked by win rate.

X is bought before Silver (before Gold when it costs $6 or more), at most N copies;
N is chosen by a small screen (a few games per candidate N, the same seeds for
each); then the matchup runs until its confidence interval clears 50 % (a
sequential test: a 99 % interval checked after every batch, so the repeated looks
keep the error rate low) or the game budget is spent.

>>> print(bmu_plus("smithy", 2).splitlines()[3])
  "Province if total_money > 18",
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kingdoms.core.registry import get_game
from kingdoms.dominion.data import BY_ID, CARDS
from kingdoms.sim.runner import GameResult, score_points, simulate
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


def bmu_plus(card: str, copies: int) -> str:
    """The strategy file of Big Money Ultimate + ``copies`` of ``card``."""
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
    if c.cost[0] >= 6:
        lines.append(entry)
    lines.append('  "Gold",')
    lines.append('  "Duchy if left(Province) <= 6",')
    if c.cost[0] < 6:
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


@dataclass(slots=True)
class Ranked:
    card: str
    copies: int
    games: int
    score: float
    ci: tuple[float, float]
    screen: dict[int, float]

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "copies": self.copies,
            "games": self.games,
            "win_rate": round(self.score, 4),
            "ci95": [round(self.ci[0], 4), round(self.ci[1], 4)],
            "screen": {str(k): round(v, 4) for k, v in self.screen.items()},
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
) -> list[Ranked]:
    """Every kingdom card's Big Money Ultimate + X against Big Money Ultimate, best first."""
    opts = {**(options or {}), "kingdom": kingdom_cards(kingdom, seed, options)}
    cards = opts["kingdom"]
    out = []

    def run(
        spec: str, games: int, run_seed: int, stop: Callable[[Sequence[GameResult]], bool] | None
    ) -> Any:
        return simulate(
            "dominion",
            [spec, OPPONENT],
            games,
            run_seed,
            opts,
            workers=workers,
            backend=backend,
            address=address,
            stop=stop,
        )

    for card in cards:
        screen: dict[int, float] = {}
        for n in copies:
            r = run(f"bmu+{card}:{n}", screen_games, seed, None)  # a bot name: see bmu_plus
            screen[n] = score_of(r.results) / r.games
        best = max(copies, key=lambda n: (screen[n], -n))
        # fresh seeds: not the games the screen chose on
        report = run(f"bmu+{card}:{best}", max_games, seed + 1, clear_of_half(min_games))
        s = score_of(report.results)
        ranked = Ranked(
            card, best, report.games, s / report.games, wilson_interval(s, report.games), screen
        )
        out.append(ranked)
        if progress:
            progress(card)
    return sorted(out, key=lambda r: -r.score)
