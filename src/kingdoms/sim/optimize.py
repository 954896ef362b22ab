"""Search strategy space for a bot that beats a pool of opponents on a kingdom.

The candidates are strategy files built from templates a strategist would
recognise (:mod:`kingdoms.sim.templates`): Big Money + X, draw engines (a village
kept in step with the terminals), trashing engines (a trasher in the opening,
conditioned trash rules), gainer / alternative-VP rushes (Workshop/Gardens with
their gain rules), Potion with Potion-cost cards, attackers — varied by mutation
and crossover over thresholds, copies, card choices, play order and the
conditions of their decision rules.  The search starts from the kingdom's
templates only (never from a bundled bot's file).

Each generation is a race on common random numbers: every candidate plays the
same games (the same seeds, so the same shuffles where the decks allow) against
every pool member; after each round the worse half is dropped and the rest play
twice as many more (successive halving), so the games go to the candidates that
may be best.  Survivors breed the next generation; after :data:`STALL`
generations without a better champion the search restarts from fresh template
candidates and the champion joins the pool.  At the end, the best of every
generation race again on more games, and the winner is measured on fresh games
against each pool member and written as an ordinary strategy file.

The budget counts the CPU time of the games (divided by the worker processes), so
a machine shared with other work still searches as many games; the wall clock
stops the search at :data:`WALL_FACTOR` times the budget in any case.
"""

from __future__ import annotations

import hashlib
import os
import random
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kingdoms.sim.rank import kingdom_cards
from kingdoms.sim.runner import (
    DEFAULT_MAX_TURNS,
    check_max_turns,
    play_batch,
    score_points,
    simulate,
)
from kingdoms.sim.stats import wilson_interval
from kingdoms.sim.templates import (
    Extra,
    Genome,
    crossover,
    mutate,
    template_of,
    template_seeds,
)

__all__ = ["Extra", "Genome", "Optimized", "crossover", "mutate", "optimize", "template_seeds"]


@dataclass(slots=True)
class Optimized:
    genome: Genome
    text: str
    games: int
    score: float
    ci: tuple[float, float]
    generations: int
    history: list[float]
    per_opponent: dict[str, tuple[float, float, float, int]] = field(default_factory=dict)
    """Pool member -> the winner's score against it on fresh games, its 95 %
    interval and the number of games."""
    restarts: int = 0
    pool: list[str] = field(default_factory=list)
    seconds: float = 0.0
    """Wall-clock seconds of the whole run (search and final measurement)."""
    budget_seconds: float = 0.0
    """The budget the search spent (CPU seconds of its games per worker)."""
    searched_games: int = 0
    """Games the search played (races and the final selection)."""
    template: str = ""
    """The winner's main template (Big Money + X, draw engine, trashing engine…)."""
    max_turns: int = DEFAULT_MAX_TURNS
    """The turn cap of every game (0: none)."""
    capped_games: int = 0
    """Games of the run (search and final measurement) stopped at the turn cap."""
    capped_per_opponent: dict[str, int] = field(default_factory=dict)
    """Pool member -> of the fresh games against it, those stopped at the turn cap."""

    def to_json(self) -> dict[str, Any]:
        return {
            "score": round(self.score, 4),
            "win_rate": round(self.score, 4),
            "ci95": [round(self.ci[0], 4), round(self.ci[1], 4)],
            "games": self.games,
            "generations": self.generations,
            "restarts": self.restarts,
            "pool": list(self.pool),
            "pool_names": pool_labels(self.pool),
            "per_opponent": {
                k: {"score": round(s, 4), "ci95": [round(lo, 4), round(hi, 4)], "games": n}
                for k, (s, lo, hi, n) in self.per_opponent.items()
            },
            "seconds": round(self.seconds, 1),
            "budget_seconds": round(self.budget_seconds, 1),
            "searched_games": self.searched_games,
            "template": self.template,
            "max_turns": self.max_turns,
            "capped_games": self.capped_games,
            "capped_per_opponent": dict(self.capped_per_opponent),
            "best_per_generation": [round(x, 4) for x in self.history],
            "strategy": self.text,
        }


DEFAULT_MINUTES = 3.0
"""The search's default budget (evolution; the final measurement comes on top)."""
STALL = 4
"""Generations without a better champion before the search restarts from fresh candidates."""
WALL_FACTOR = 3.0
"""The search stops at this many times its budget of wall-clock time, however busy
the machine (the budget itself counts the games' CPU time)."""
FINAL_SHARE = 0.15
"""Share of the budget kept for the final race among the generations' best."""
HALL = 8
"""Candidates of the final race (the best of the generations, distinct)."""
WINNERS = 2
"""Earlier restarts' winners in the pool: the latest this many."""
POOL_RACE = 24
"""Games each pool candidate plays against the first opponent in the quick race that
orders the pool strongest first."""


BIG_MONEY = "big-money-ultimate"
"""The Big Money bot every pool holds (the reference opponent of the project)."""


def pool_label(spec: str) -> str:
    """A pool member's name: a strategy file's ``name``, else the spec itself."""
    from kingdoms.core.errors import KingdomsError
    from kingdoms.sim.setup import bot_label

    try:
        return bot_label("dominion", spec)
    except (KingdomsError, OSError):  # an earlier winner held in memory only
        return spec


def pool_labels(specs: Sequence[str]) -> list[str]:
    """:func:`pool_label` of every member, files named alike told apart by their file
    (:func:`kingdoms.sim.setup.distinct`)."""
    from kingdoms.sim.setup import distinct

    return distinct([pool_label(s) for s in specs], specs)


def bundled_pool(
    cards: Sequence[str],
    limit: int | None = None,
    files: Sequence[str] = (),
    against: str | None = None,
    seed: int = 0,
    race_games: int = POOL_RACE,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> list[str]:
    """Every bundled strategy bot, and every strategy file of ``files`` (imported bots),
    whose kingdom cards are all in the kingdom; of the bots that name no kingdom card
    (the Big Money family), ``big-money-ultimate`` alone — it fits every kingdom and
    beats the others, so a pool against other ``--vs`` bots still meets it.  With
    ``against``, strongest first: each plays a quick race of ``race_games`` games
    against it on the kingdom; else most cards first (Big Money Ultimate last).
    ``limit``: at most that many."""
    from kingdoms.bots.base import bot_names
    from kingdoms.core.errors import KingdomsError
    from kingdoms.sim.setup import bot_cards

    fits: list[tuple[int, str]] = []
    for name in [*bot_names("dominion"), *files]:
        try:
            named = bot_cards("dominion", name)
        except KingdomsError:
            if name in files:  # a broken file is an error, not a pool member fewer
                raise
            continue  # a bundled bot that cannot be made without parameters: left out
        if named and set(named) <= set(cards) and name != against:
            fits.append((len(set(named)), name))
    fits.sort(key=lambda x: (-x[0], x[1]))
    names = [name for _, name in fits]
    if BIG_MONEY not in names and against != BIG_MONEY:
        names.append(BIG_MONEY)
    if against is not None and len(names) > 1:
        from kingdoms.sim.runner import simulate

        strength = {
            name: simulate(
                "dominion",
                [name, against],
                race_games,
                seed,
                {"kingdom": list(cards)},
                max_turns=max_turns,
            ).score_rates()[0]
            for name in names
        }
        names.sort(key=lambda n: -strength[n])
    return names if limit is None else names[:limit]


def _points(
    specs: Sequence[str],
    indices: Sequence[int],
    seed: int,
    options: Mapping[str, Any],
    max_turns: int = DEFAULT_MAX_TURNS,
) -> tuple[list[float], int, float]:
    """The first bot's points (1 win, ½ shared, 0 loss) in games ``indices`` of the run
    of ``seed``, how many stopped at the turn cap, and the CPU seconds they took (run
    in a worker process or here)."""
    t0 = time.process_time()
    results = play_batch("dominion", specs, indices, seed, options, max_turns=max_turns)
    capped = sum(1 for r in results if r.summary.get("capped"))
    return [score_points([r], 0) for r in results], capped, time.process_time() - t0


@dataclass(frozen=True, slots=True)
class Match:
    """Games ``first`` to ``first + games - 1`` of candidate ``spec`` against ``opponent``
    in the run of ``seed`` (every candidate of a race plays the same runs)."""

    spec: str
    opponent: str
    seed: int
    first: int
    games: int


class Arena:
    """Plays matches for the search: candidates as strategy files in a folder, their
    games in worker processes kept for the whole search (local backend), else through
    :func:`simulate`; counts the games and their CPU time."""

    def __init__(
        self,
        options: Mapping[str, Any],
        folder: Path,
        workers: int = 1,
        backend: str = "local",
        address: str | None = None,
        max_turns: int = DEFAULT_MAX_TURNS,
    ) -> None:
        self.options = dict(options)
        self.max_turns = max_turns
        self.capped = 0
        """Games stopped at the turn cap."""
        self.match_capped: list[int] = []
        """Per match of the last :meth:`play`, its games stopped at the turn cap."""
        self.folder = folder
        self.workers = max(1, workers)
        self.backend = backend
        self.address = address
        self.cpu = 0.0
        self.games = 0
        self.pool: ProcessPoolExecutor | None = None
        if backend == "local" and self.workers > 1:
            self.pool = ProcessPoolExecutor(max_workers=self.workers)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None

    def file(self, g: Genome) -> str:
        """The candidate's strategy file (one per distinct genome)."""
        text = g.to_toml("candidate")
        digest = hashlib.sha1(text.encode()).hexdigest()[:16]
        path = self.folder / f"c{digest}.toml"
        if not path.exists():
            path.write_text(text, encoding="utf-8")
        return str(path)

    def play(self, matches: Sequence[Match]) -> list[list[float]]:
        """Every match's points, game by game (in index order)."""
        self.match_capped = [0] * len(matches)
        if self.backend != "local":
            out = []
            for m in matches:
                t0 = time.perf_counter()
                report = simulate(
                    "dominion", [m.spec, m.opponent], m.games, m.seed, self.options,
                    workers=self.workers, backend=self.backend, address=self.address,
                    first=m.first, max_turns=self.max_turns,
                )  # fmt: skip
                out.append([score_points([r], 0) for r in report.results])
                self.capped += report.capped
                self.match_capped[len(out) - 1] = report.capped
                self.cpu += (time.perf_counter() - t0) * self.workers
                self.games += m.games
            return out
        size = 10
        jobs: list[tuple[int, list[int]]] = []
        for k, m in enumerate(matches):
            idx = list(range(m.first, m.first + m.games))
            jobs += [(k, idx[i : i + size]) for i in range(0, len(idx), size)]
        results: list[list[float]] = [[] for _ in matches]
        if self.pool is None:
            for k, chunk in jobs:
                m = matches[k]
                pts, capped, cpu = _points(
                    [m.spec, m.opponent], chunk, m.seed, self.options, self.max_turns
                )
                results[k] += pts
                self.capped += capped
                self.match_capped[k] += capped
                self.cpu += cpu
        else:
            futures: list[tuple[int, Future[tuple[list[float], int, float]]]] = [
                (
                    k,
                    self.pool.submit(
                        _points,
                        [matches[k].spec, matches[k].opponent],
                        chunk,
                        matches[k].seed,
                        self.options,
                        self.max_turns,
                    ),
                )
                for k, chunk in jobs
            ]
            for k, fut in futures:
                pts, capped, cpu = fut.result()
                results[k] += pts
                self.capped += capped
                self.match_capped[k] += capped
                self.cpu += cpu
        self.games += sum(m.games for m in matches)
        return results


def fitness(per_opponent: Sequence[float], named: int | None = None) -> float:
    """A candidate's fitness from its scores against the pool members: the mean and
    the worst, weighted equally (a strategy that beats all beats one that crushes
    some and loses to another).  The worst is taken over the first ``named`` members
    (default: all): the opponents named and bundled, not the earlier winners, which
    count in the mean only.

    >>> fitness([0.8, 0.4])
    0.5
    >>> fitness([0.8, 0.6, 0.1], named=2)
    0.55
    """
    if not per_opponent:
        return 0.0
    worst = min(per_opponent[: named or len(per_opponent)])
    return 0.5 * sum(per_opponent) / len(per_opponent) + 0.5 * worst


def race(
    arena: Arena,
    candidates: Sequence[Genome],
    against: Sequence[str],
    seed: int,
    games: int,
    keep: int = 1,
    named: int | None = None,
) -> list[tuple[float, Genome, int]]:
    """Successive halving on common random numbers: every candidate plays ``games``
    games against each of ``against`` (the same seeds for all); the better half plays
    as many games again as it has played, and so on until ``keep`` remain.  Returns
    ``(fitness, genome, games per opponent)`` best first: the survivors by their
    fitness on all their games, then the others as they were dropped (``named``: see
    :func:`fitness`)."""
    files = [arena.file(g) for g in candidates]
    points: list[list[list[float]]] = [[[] for _ in against] for _ in candidates]
    alive = list(range(len(candidates)))
    dropped: list[tuple[float, Genome, int]] = []
    played, step = 0, games
    while True:
        matches = [
            Match(files[i], opp, seed + 7919 * k, played, step)
            for i in alive
            for k, opp in enumerate(against)
        ]
        out = arena.play(matches)
        for j, pts in enumerate(out):
            i, k = alive[j // len(against)], j % len(against)
            points[i][k] += pts
        played += step

        def fit(i: int) -> float:
            return fitness([sum(p) / len(p) for p in points[i]], named)

        alive.sort(key=lambda i: -fit(i))
        if len(alive) <= keep:
            break
        cut = max(keep, len(alive) // 2)
        dropped = [(fit(i), candidates[i], played) for i in alive[cut:]] + dropped
        alive = alive[:cut]
        step = played
    return [(fit(i), candidates[i], played) for i in alive] + dropped


def _balanced(seeds: Sequence[Genome], size: int, rng: random.Random) -> list[Genome]:
    """``size`` genomes taken from ``seeds`` template by template in turn (so that no
    template crowds out the others), shuffled within each template."""
    by_kind: dict[str, list[Genome]] = {}
    for g in seeds:
        by_kind.setdefault(template_of(g), []).append(g)
    for group in by_kind.values():
        rng.shuffle(group)
    kinds = list(by_kind)
    rng.shuffle(kinds)
    out: list[Genome] = []
    while len(out) < size and any(by_kind.values()):
        for kind in kinds:
            if by_kind[kind] and len(out) < size:
                out.append(by_kind[kind].pop())
    return out


def optimize(
    kingdom: Any,
    opponents: Sequence[str],
    *,
    seed: int = 0,
    population: int = 16,
    generations: int | None = None,
    games: int = 16,
    final_games: int = 1000,
    time_limit: float | None = None,
    minutes: float | None = None,
    pool: bool = True,
    pool_files: Sequence[str] = (),
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    options: Mapping[str, Any] | None = None,
    name: str = "optimized",
    progress: Callable[[int, float, float, float], None] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> Optimized:
    """The best strategy found against a pool of opponents — ``opponents``, plus
    (``pool``) every bundled bot of the kingdom and every strategy file of
    ``pool_files`` that fits it (imported bots), strongest first by a quick race
    against the first opponent (:func:`bundled_pool`), and the winners of earlier
    restarts.

    Each generation races ``population`` candidates (:func:`race`: ``games`` games
    per candidate and pool member in the first round, the better half playing on);
    the search runs until ``generations`` or the budget (``minutes``, else
    ``time_limit`` seconds, else :data:`DEFAULT_MINUTES` when no generation count is
    given) is spent, :data:`FINAL_SHARE` of it kept for a final race among the
    generations' best.  The winner is then measured on ``final_games`` fresh games
    against every pool member.  ``workers`` (default: every core) run the games.
    ``max_turns``: the turn cap of every game (:func:`~kingdoms.sim.runner.simulate`).
    ``progress(generation, best fitness, budget spent, budget)`` reports after every
    generation."""
    check_max_turns(max_turns)
    cards = kingdom_cards(kingdom, seed, options)
    opts = {**(options or {}), "kingdom": cards}
    rng = random.Random(f"optimize-{seed}")
    budget = (
        minutes * 60
        if minutes is not None
        else time_limit
        if time_limit is not None
        else DEFAULT_MINUTES * 60
        if generations is None
        else None
    )
    n_workers = workers if workers is not None else max(1, min(os.cpu_count() or 1, 8))
    members = list(opponents)
    if pool:
        strongest = bundled_pool(
            cards,
            files=pool_files,
            against=members[0] if members else None,
            seed=seed,
            max_turns=max_turns,
        )
        members += [b for b in strongest if b not in members]
    start = time.monotonic()

    def fresh_population() -> list[Genome]:
        pop = _balanced(template_seeds(cards, rng), population, rng)
        while len(pop) < population:
            pop.append(mutate(rng.choice(pop), cards, rng))
        return pop

    tmp = tempfile.TemporaryDirectory(prefix="kingdoms-opt-")
    folder = Path(tmp.name)
    arena = Arena(opts, folder, n_workers, backend, address, max_turns)

    def spent() -> float:
        return arena.cpu / arena.workers

    def out_of_time(share: float = 1.0) -> bool:
        if budget is None:
            return False
        wall = time.monotonic() - start
        return spent() >= budget * share or wall >= budget * WALL_FACTOR * share

    pop = fresh_population()
    history: list[float] = []
    hall: dict[Genome, float] = {}
    champion, champion_score = pop[0], -1.0  # the best of the current restart
    stalled = restarts = done = 0
    winners: list[str] = []
    try:
        while generations is None or done < generations:
            against = members + winners[-WINNERS:]
            ranked = race(
                arena, pop, against, seed * 1000 + done + 1, games, max(2, population // 4),
                len(members),
            )  # fmt: skip
            done += 1
            top_fit, top = ranked[0][0], ranked[0][1]
            hall[top] = max(hall.get(top, -1.0), top_fit)
            if top_fit > champion_score:
                champion, champion_score, stalled = top, top_fit, 0
            else:
                stalled += 1
            history.append(top_fit)
            if progress:
                progress(done, max(hall.values()), spent(), budget or 0.0)
            if out_of_time(1.0 - FINAL_SHARE):
                break
            if stalled >= STALL and pool:
                # restart: the stalled champion joins the pool, the search starts afresh
                restarts += 1
                path = folder / f"winner-{restarts}.toml"
                path.write_text(champion.to_toml(f"winner-{restarts}"), encoding="utf-8")
                winners.append(str(path))
                pop = [champion, *fresh_population()[: population - 1]]
                champion_score, stalled = -1.0, 0
                continue
            elite = [g for _, g, _ in ranked[: max(2, population // 4)]]
            nxt = list(elite)
            seen = set(nxt)
            tries = 0
            while len(nxt) < population and tries < population * 20:
                tries += 1
                a = rng.choice(elite)
                if rng.random() < 0.35:
                    child = crossover(
                        a, rng.choice([g for _, g, _ in ranked[: population // 2]]), cards, rng
                    )
                    if rng.random() < 0.5:
                        child = mutate(child, cards, rng)
                else:
                    child = mutate(a, cards, rng)
                    if rng.random() < 0.4:
                        child = mutate(child, cards, rng)
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
            pop = nxt
        # the final race: the best of the generations on more, unseen games
        finalists = sorted(hall, key=lambda g: -hall[g])[:HALL]
        if len(finalists) > 1:
            final_race = race(
                arena, finalists, members + winners[-WINNERS:], seed * 1000 + 500_009,
                2 * games, 1, len(members),
            )  # fmt: skip
            best = final_race[0][1]
        else:
            best = finalists[0]
        spent_budget = spent()
        searched = arena.games
        fresh = seed * 1000 + 999_983  # seeds the search never played
        final = [
            (opp, sum(pts), len(pts))
            for opp, pts in zip(
                members,
                arena.play(
                    [
                        Match(arena.file(best), opp, fresh + 7919 * k, 0, final_games)
                        for k, opp in enumerate(members)
                    ]
                ),
                strict=True,
            )
        ]
        final_capped = dict(zip(members, arena.match_capped, strict=True))
    finally:
        arena.close()
        tmp.cleanup()
    total = sum(p for _, p, _ in final)
    played = sum(n for _, _, n in final)
    score = total / played
    lo, hi = wilson_interval(total, played)
    per = {opp: (p / n, *wilson_interval(p, n), n) for opp, p, n in final}
    named = dict(zip(members, pool_labels(members), strict=True))

    def label(spec: str) -> str:
        return named.get(spec) or pool_label(spec)

    header = [
        f"kingdoms optimize: kingdom {', '.join(cards)}; "
        f"pool (strongest first) {', '.join(label(m) for m in members)}",
        f"template: {', '.join(best.templates())}; {done} generations, {restarts} restarts, "
        f"{searched} games searched",
        f"score (wins + half shared) {score:.1%} [95% CI {lo:.1%}-{hi:.1%}] "
        f"over {played} fresh games (seed {seed})",
        *(
            f"  vs {label(opp)}: {s:.1%} [{a:.1%}-{b:.1%}] over {n} games"
            for opp, (s, a, b, n) in per.items()
        ),
    ]
    return Optimized(
        best,
        best.to_toml(name, header),
        played,
        score,
        (lo, hi),
        done,
        history,
        per,
        restarts,
        members,
        time.monotonic() - start,
        spent_budget,
        searched,
        template_of(best),
        max_turns,
        arena.capped,
        final_capped,
    )
