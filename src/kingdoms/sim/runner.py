"""Run many bot-vs-bot games and aggregate the results.

Seats rotate: in game ``i`` the bot listed ``j``-th sits in seat
``(j + i) % k``, so with a forced first seat every bot starts equally often.
Every game's seed is derived from the run's seed and the game's index, so a run
gives the same results whatever the number of worker processes.

>>> report = simulate("kingdomino", ["random", "random"], games=4, seed=1)
>>> report.games, len(report.wins)
(4, 2)
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from kingdoms.bots.base import make_bot
from kingdoms.core.errors import InvalidConfig
from kingdoms.core.registry import get_game, new_game
from kingdoms.core.runner import play_out
from kingdoms.sim.stats import mean, wilson_interval


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game, seen from the bots' side (indices into the bot list)."""

    index: int
    winners: tuple[int, ...]
    scores: tuple[float, ...]
    first: int | None
    summary: Mapping[str, Any]


def game_seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index * 7_919 + 12_345) % (2**48)


def seating(index: int, bots: int) -> list[int]:
    """``seat -> bot index`` for game ``index`` (rotation)."""
    return [(seat - index) % bots for seat in range(bots)]


def play_one(
    game: str, specs: Sequence[str], index: int, seed: int, options: Mapping[str, Any]
) -> GameResult:
    k = len(specs)
    seat_bot = seating(index, k)
    bots = [make_bot(game, specs[b]) for b in seat_bot]
    opts = dict(options)
    g = get_game(game)
    if g.supports_first_player:
        # Seat 0 starts; with the rotation every bot starts equally often.
        opts["first_player"] = 0
    state = new_game(game, players=k, seed=game_seed(seed, index), options=opts)
    state.logging = False
    play_out(state, bots)
    outcome = state.outcome()
    if outcome is None:  # pragma: no cover - play_out only returns finished games
        raise InvalidConfig("game did not finish")
    scores = [0.0] * k
    for seat, score in enumerate(outcome.scores):
        scores[seat_bot[seat]] = float(score)
    first_seat = outcome.details.get("first_player")
    return GameResult(
        index=index,
        winners=tuple(sorted(seat_bot[s] for s in outcome.winners)),
        scores=tuple(scores),
        first=seat_bot[first_seat] if isinstance(first_seat, int) else None,
        summary=g.summarize(state),
    )


def _play_chunk(
    game: str, specs: Sequence[str], indices: Sequence[int], seed: int, options: Mapping[str, Any]
) -> list[GameResult]:
    return [play_one(game, specs, i, seed, options) for i in indices]


@dataclass(slots=True)
class SimReport:
    game: str
    bots: list[str]
    games: int
    score_name: str
    results: list[GameResult] = field(repr=False)
    seconds: float

    @property
    def wins(self) -> list[int]:
        out = [0] * len(self.bots)
        for r in self.results:
            if len(r.winners) == 1:
                out[r.winners[0]] += 1
        return out

    @property
    def ties(self) -> int:
        return sum(1 for r in self.results if len(r.winners) > 1)

    @property
    def first_seat_wins(self) -> int:
        return sum(1 for r in self.results if r.first is not None and r.winners == (r.first,))

    def mean_scores(self) -> list[float]:
        return [mean([r.scores[b] for r in self.results]) for b in range(len(self.bots))]

    def mean_margins(self) -> list[float]:
        out = []
        for b in range(len(self.bots)):
            margins = [
                r.scores[b] - max(s for j, s in enumerate(r.scores) if j != b) for r in self.results
            ]
            out.append(mean(margins))
        return out

    def win_intervals(self) -> list[tuple[float, float]]:
        return [wilson_interval(w, self.games) for w in self.wins]

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "games": self.games,
            "bots": list(self.bots),
            "wins": self.wins,
            "win_rate_ci95": [[round(lo, 4), round(hi, 4)] for lo, hi in self.win_intervals()],
            "ties": self.ties,
            "first_seat_wins": self.first_seat_wins,
            f"mean_{self.score_name}": [round(x, 3) for x in self.mean_scores()],
            "mean_margin": [round(x, 3) for x in self.mean_margins()],
        }
        turns = [r.summary["turns"] for r in self.results if "turns" in r.summary]
        if turns:
            out["mean_turns"] = round(mean([float(t) for t in turns]), 3)
        if any("three_pile_ending" in r.summary for r in self.results):
            out["three_pile_endings"] = sum(
                1 for r in self.results if r.summary.get("three_pile_ending")
            )
        out["seconds"] = round(self.seconds, 3)
        out["games_per_second"] = round(self.games_per_second, 2)
        return out


def simulate(
    game: str,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    *,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> SimReport:
    """Play ``games`` games of ``game`` between ``bots`` (bot specs) and report.

    ``workers`` > 1 spreads games over processes; ``progress(n)`` is called
    with the number of games finished since the last call."""
    g = get_game(game)
    if games < 1:
        raise InvalidConfig("the number of games must be at least 1")
    g.check_players(len(bots))
    for spec in bots:  # fail fast on unknown bots or bad parameters
        make_bot(game, spec)
    opts = dict(options or {})
    g.config(len(bots), seed, opts)  # validate options once, up front
    start = time.perf_counter()
    results: list[GameResult] = []
    if workers <= 1:
        for i in range(games):
            results.append(play_one(game, bots, i, seed, opts))
            if progress:
                progress(1)
    else:
        size = max(1, min(50, games // (workers * 8) or 1))
        chunks = [list(range(i, min(games, i + size))) for i in range(0, games, size)]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(_play_chunk, game, bots, c, seed, opts) for c in chunks]
            for fut in as_completed(futures):
                chunk = fut.result()
                results.extend(chunk)
                if progress:
                    progress(len(chunk))
        results.sort(key=lambda r: r.index)
    seconds = time.perf_counter() - start
    return SimReport(
        game=game,
        bots=list(bots),
        games=games,
        score_name=g.score_name,
        results=results,
        seconds=seconds,
    )


def default_workers() -> int:
    return max(1, (os.cpu_count() or 1))
