"""The review of a finished game: every decision (of every seat or of some) analysed
with :func:`kingdoms.review.analysis.analyse_position`, on a pool of processes.

>>> from kingdoms.core.runner import run_game
>>> from kingdoms.bots.base import make_bot
>>> state = run_game("kingdomino", [make_bot("kingdomino", "greedy")] * 2, seed=4)
>>> review = review_game(state.record(), seats=[0], budget=Budget(iterations=4, width=2))
>>> all(d.seat == 0 for d in review.decisions) and review.complete
True
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from kingdoms.core.errors import InvalidConfig, RecordError
from kingdoms.core.record import GameRecord
from kingdoms.core.registry import get_game
from kingdoms.review.analysis import (
    FORMAT,
    VERSION,
    Budget,
    Decision,
    analyse_position,
    candidates_for,
    default_width,
)

Progress = Callable[[int, int], None]
"""``progress(done, total)``: positions analysed so far, of all to analyse."""


@dataclass(slots=True)
class Review:
    """The analysis of a game's decisions (trivial ones left out)."""

    game: str
    players: int
    seed: int
    names: list[str]
    seats: list[int]
    """The seats reviewed."""
    budget: Budget
    steps: int
    """Actions in the game."""
    positions: int
    """Decisions to analyse (trivial ones left out)."""
    decisions: list[Decision] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    complete: bool = True

    def mistakes(self, seat: int, count: int = 3) -> list[Decision]:
        """The seat's flagged decisions, biggest loss first (at most ``count``)."""
        flagged = [d for d in self.decisions if d.seat == seat and d.flagged]
        flagged.sort(key=lambda d: (-d.loss, d.step))
        return flagged[:count]

    def curve(self, seat: int) -> list[Decision]:
        """The seat's analysed decisions in game order (its winning chance over the game)."""
        return [d for d in self.decisions if d.seat == seat]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "names": list(self.names),
            "seats": list(self.seats),
            "budget": self.budget.to_json(),
            "steps": self.steps,
            "positions": self.positions,
            "outcome": self.outcome,
            "cpu_seconds": round(self.cpu_seconds, 2),
            "wall_seconds": round(self.wall_seconds, 2),
            "complete": self.complete,
            "decisions": [d.to_json() for d in self.decisions],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Review:
        if data.get("format") != FORMAT or data.get("version") != VERSION:
            raise InvalidConfig("not a kingdoms review (or one of another version)")
        return cls(
            game=str(data["game"]),
            players=int(data["players"]),
            seed=int(data["seed"]),
            names=list(data.get("names", [])),
            seats=list(data["seats"]),
            budget=Budget(**data["budget"]),
            steps=int(data["steps"]),
            positions=int(data["positions"]),
            decisions=[Decision.from_json(d) for d in data["decisions"]],
            outcome=data.get("outcome"),
            cpu_seconds=float(data.get("cpu_seconds", 0.0)),
            wall_seconds=float(data.get("wall_seconds", 0.0)),
            complete=bool(data.get("complete", True)),
        )


def positions(
    record: GameRecord, seats: Sequence[int] | None = None, width: int | None = None
) -> list[int]:
    """Steps of the record where a reviewed seat took a decision that is not trivial
    (more than one legal move, and not the move the game calls obvious)."""
    state = record.replay(0)
    game = get_game(record.config.game)
    if width is None:
        width = default_width(game.name)
    rng = random.Random(f"positions {record.config.seed}")
    out = []
    for step, action in enumerate(record.actions):
        legal = state.legal_actions()
        seat = state.current_player
        if len(legal) > 1 and (seats is None or seat in seats):
            base = game.state_from_view(state.view(seat), rng)
            if candidates_for(base, legal, action, width) is not None:
                out.append(step)
        try:
            state.apply_checked(action)
        except Exception as err:
            raise RecordError(f"record action #{step} ({action!r}) is not legal: {err}") from err
    return out


def analyse_steps(
    record: GameRecord,
    steps: Sequence[int],
    budget: Budget,
    seconds: float | None = None,
    seed: int = 0,
) -> list[tuple[int, Decision | None]]:
    """The analyses of the decisions at ``steps`` (increasing) of ``record``, in one
    process: what a pool worker runs."""
    state = record.replay(0)
    done = 0
    out: list[tuple[int, Decision | None]] = []
    for step in steps:
        for action in record.actions[done:step]:
            state.apply(action)
        done = step
        out.append(
            (step, analyse_position(state, record.actions[step], budget, seed, seconds=seconds))
        )
    return out


def _check_seats(record: GameRecord, seats: Sequence[int] | None) -> list[int]:
    players = record.config.players
    if seats is None:
        return list(range(players))
    for s in seats:
        if not isinstance(s, int) or not 0 <= s < players:
            raise InvalidConfig(f"seat {s!r} is not a seat of this game (0..{players - 1})")
    return sorted(set(seats))


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def review_game(
    record: GameRecord,
    seats: Sequence[int] | None = None,
    budget: Budget | None = None,
    workers: int = 1,
    progress: Progress | None = None,
    known: Mapping[int, Decision | None] | None = None,
    on_result: Callable[[int, Decision | None], None] | None = None,
    seed: int = 0,
    stop: Callable[[], bool] | None = None,
) -> Review:
    """Analyse the decisions of ``seats`` (all by default) of a finished game.

    ``workers``: processes (1: this one; :func:`default_workers` uses every core);
    ``known``: step -> analysis already made (None: trivial), kept and not redone (a
    review resumed after a restart); ``on_result(step, decision)`` is called for each new
    analysis as it arrives; ``stop()`` true ends the review early (``complete`` False)."""
    budget = budget or Budget()
    reviewed = _check_seats(record, seats)
    final = record.replay()
    outcome = final.outcome()
    if outcome is None:
        raise InvalidConfig("the game is not finished: only finished games are reviewed")
    todo_all = positions(record, reviewed, budget.width)
    known = dict(known or {})
    todo = [s for s in todo_all if s not in known]
    per_decision = None
    if budget.game_seconds is not None and todo_all:
        per_decision = budget.game_seconds / len(todo_all)
        if budget.seconds is not None:
            per_decision = min(per_decision, budget.seconds)
    started_wall, started_cpu = time.perf_counter(), time.process_time()
    results: dict[int, Decision | None] = dict(known)
    total = len(todo_all)
    if progress is not None:
        progress(len(results), total)
    complete = True
    for step, decision in _run(record, todo, budget, per_decision, workers, seed, stop):
        if step < 0:
            complete = False
            break
        results[step] = decision
        if on_result is not None:
            on_result(step, decision)
        if progress is not None:
            progress(len(results), total)
    cpu = time.process_time() - started_cpu
    if workers > 1:  # the workers' time: what their analyses measured
        fresh = set(todo)
        cpu += sum(d.cpu_seconds for s, d in results.items() if d is not None and s in fresh)
    decisions = [results[s] for s in sorted(results) if results[s] is not None]
    return Review(
        game=record.config.game,
        players=record.config.players,
        seed=record.config.seed,
        names=list(record.seats),
        seats=reviewed,
        budget=budget,
        steps=len(record.actions),
        positions=total,
        decisions=[d for d in decisions if d is not None],
        outcome=outcome.to_json(),
        cpu_seconds=cpu,
        wall_seconds=time.perf_counter() - started_wall,
        complete=complete and len(results) == total,
    )


def _run(
    record: GameRecord,
    todo: list[int],
    budget: Budget,
    seconds: float | None,
    workers: int,
    seed: int,
    stop: Callable[[], bool] | None,
) -> Iterator[tuple[int, Decision | None]]:
    """(step, analysis) as they are made; (-1, None) when ``stop`` ended the run."""
    if workers <= 1 or len(todo) <= 1:
        for step in todo:
            if stop is not None and stop():
                yield -1, None
                return
            yield from analyse_steps(record, [step], budget, seconds, seed)
        return
    pool = ProcessPoolExecutor(max_workers=workers)
    try:
        # the positions dealt out in turn: early ones (longer playouts) spread over workers
        chunks = [todo[i :: workers * 4] for i in range(workers * 4)]
        futures: set[Future[list[tuple[int, Decision | None]]]] = {
            pool.submit(analyse_steps, record, chunk, budget, seconds, seed)
            for chunk in chunks
            if chunk
        }
        while futures:
            finished, futures = wait(futures, timeout=0.5, return_when=FIRST_COMPLETED)
            for fut in finished:
                yield from fut.result()
            if stop is not None and stop() and futures:
                yield -1, None
                return
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
