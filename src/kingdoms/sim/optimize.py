"""Search strategy space for a bot that beats given opponents on a kingdom.

An evolutionary search over strategy files of one shape: the Big Money Ultimate
skeleton with tunable thresholds (Province once total money exceeds *a*, Duchy
when at most *b* Provinces are left, Estate at *c*, a second Duchy rule at *d*)
plus any number of kingdom cards, each with a copy limit and a place (before Gold
or before Silver); the kingdom Actions are played in list order.  Every
generation, all candidates play the same fresh games (common random numbers) and
the best survive and mutate.  The winner is measured again on games none of the
search saw, and written as an ordinary strategy file.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from kingdoms.dominion.data import BY_ID, CARDS
from kingdoms.sim.rank import kingdom_cards, score_of
from kingdoms.sim.runner import simulate
from kingdoms.sim.stats import wilson_interval


@dataclass(frozen=True, slots=True)
class Extra:
    card: str
    copies: int
    early: bool
    """Bought before Gold (else before Silver)."""


@dataclass(frozen=True, slots=True)
class Genome:
    province_money: int = 18
    duchy_late: int = 4
    estate_late: int = 2
    duchy_mid: int = 6
    extras: tuple[Extra, ...] = field(default=())

    def to_toml(self, name: str, header: Sequence[str] = ()) -> str:
        def nm(card: str) -> str:
            return CARDS[BY_ID[card]].names["en"]

        entries = []
        province = "Province"
        if self.province_money > 0:
            province += f" if total_money > {self.province_money}"
        entries.append(province)
        entries.append(f"Duchy if left(Province) <= {self.duchy_late}")
        entries.append(f"Estate if left(Province) <= {self.estate_late}")
        early = [e for e in self.extras if e.early]
        late = [e for e in self.extras if not e.early]
        for e in early:
            entries.append(f"{nm(e.card)} if count({nm(e.card)}) < {e.copies}")
        entries.append("Gold")
        entries.append(f"Duchy if left(Province) <= {self.duchy_mid}")
        for e in late:
            entries.append(f"{nm(e.card)} if count({nm(e.card)}) < {e.copies}")
        if any(CARDS[BY_ID[e.card]].cost[1] for e in self.extras):
            entries.append("Potion if count(Potion) < 1")
        entries.append("Silver")
        actions = [nm(e.card) for e in self.extras if CARDS[BY_ID[e.card]].is_action]
        lines = [f"# {h}" for h in header]
        lines.append(f'name = "{name}"')
        lines.append("play = [" + ", ".join(f'"{a}"' for a in actions) + "]")
        lines.append("buy = [")
        lines += [f'  "{e}",' for e in entries]
        lines.append("]")
        return "\n".join(lines) + "\n"


def _clamp(x: int, lo: int, hi: int) -> int:
    return max(lo, min(hi, x))


def mutate(g: Genome, cards: Sequence[str], rng: random.Random) -> Genome:
    """One random change (threshold, a card added or removed, copies, place, order)."""
    op = rng.randrange(8)
    extras = list(g.extras)
    if op == 0:
        return replace(g, province_money=_clamp(g.province_money + rng.randint(-3, 3), 0, 26))
    if op == 1:
        return replace(g, duchy_late=_clamp(g.duchy_late + rng.choice((-1, 1)), 0, 8))
    if op == 2:
        return replace(g, estate_late=_clamp(g.estate_late + rng.choice((-1, 1)), 0, 8))
    if op == 3:
        return replace(g, duchy_mid=_clamp(g.duchy_mid + rng.choice((-1, 1)), 0, 8))
    if op == 4 or not extras:
        free = [c for c in cards if c not in {e.card for e in extras}]
        if free:
            card = rng.choice(free)
            extras.insert(
                rng.randint(0, len(extras)),
                Extra(
                    card, rng.randint(1, 3), CARDS[BY_ID[card]].cost[0] >= 6 or rng.random() < 0.3
                ),
            )
        return replace(g, extras=tuple(extras))
    i = rng.randrange(len(extras))
    if op == 5:
        del extras[i]
    elif op == 6:
        e = extras[i]
        extras[i] = replace(e, copies=_clamp(e.copies + rng.choice((-1, 1, 2)), 1, 8))
    else:
        if rng.random() < 0.5:
            extras[i] = replace(extras[i], early=not extras[i].early)
        else:
            j = rng.randrange(len(extras))
            extras[i], extras[j] = extras[j], extras[i]
    return replace(g, extras=tuple(extras))


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

    def to_json(self) -> dict[str, Any]:
        return {
            "score": round(self.score, 4),
            "win_rate": round(self.score, 4),
            "ci95": [round(self.ci[0], 4), round(self.ci[1], 4)],
            "games": self.games,
            "generations": self.generations,
            "restarts": self.restarts,
            "pool": list(self.pool),
            "per_opponent": {
                k: {"score": round(s, 4), "ci95": [round(lo, 4), round(hi, 4)], "games": n}
                for k, (s, lo, hi, n) in self.per_opponent.items()
            },
            "seconds": round(self.seconds, 1),
            "best_per_generation": [round(x, 4) for x in self.history],
            "strategy": self.text,
        }


DEFAULT_MINUTES = 3.0
"""The search's default budget (evolution; the final measurement comes on top)."""
STALL = 3
"""Generations without a better best before the search restarts from fresh candidates."""
POOL_BUNDLED = 3
"""At most this many bundled bots of the kingdom join the opponents' pool."""


def bundled_pool(cards: Sequence[str], limit: int = POOL_BUNDLED) -> list[str]:
    """Bundled strategy bots whose cards are all in the kingdom (most cards first)."""
    from kingdoms.bots.base import bot_names
    from kingdoms.core.errors import KingdomsError
    from kingdoms.sim.setup import bot_cards

    fits: list[tuple[int, str]] = []
    for name in bot_names("dominion"):
        try:
            named = bot_cards("dominion", name)
        except KingdomsError:  # a bot that cannot be made without parameters: left out
            continue
        if named and set(named) <= set(cards):
            fits.append((len(set(named)), name))
    fits.sort(key=lambda x: (-x[0], x[1]))
    return [name for _, name in fits[:limit]]


def optimize(
    kingdom: Any,
    opponents: Sequence[str],
    *,
    seed: int = 0,
    population: int = 12,
    generations: int | None = None,
    games: int = 60,
    final_games: int = 1000,
    time_limit: float | None = None,
    minutes: float | None = None,
    pool: bool = True,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    options: Mapping[str, Any] | None = None,
    name: str = "optimized",
    progress: Callable[[int, float, float, float], None] | None = None,
) -> Optimized:
    """The best strategy found against a pool of opponents — ``opponents``, plus
    (``pool``) the bundled bots of the kingdom and the winners of earlier restarts —
    each played 1-on-1, ``games`` games per candidate and pool member every
    generation; evolution runs until ``generations`` or the time budget
    (``minutes``, else ``time_limit`` seconds, else :data:`DEFAULT_MINUTES` when no
    generation count is given) is spent, restarting from fresh candidates after
    :data:`STALL` generations without progress.  The winner is then measured on
    fresh games against every pool member.  ``progress(generation, best, elapsed,
    budget)`` reports after every generation."""
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
    members = list(opponents)
    if pool:
        members += [b for b in bundled_pool(cards) if b not in members]

    def fresh_population() -> list[Genome]:
        pop: list[Genome] = [Genome()]
        for c in cards:
            pop.append(
                Genome(extras=(Extra(c, 1 + (c in ("smithy",)), CARDS[BY_ID[c]].cost[0] >= 6),))
            )
        rng.shuffle(pop)
        pop = pop[:population]
        while len(pop) < population:
            pop.append(mutate(mutate(rng.choice(pop), cards, rng), cards, rng))
        return pop

    pop = fresh_population()
    start = time.monotonic()
    history: list[float] = []
    tmp = tempfile.TemporaryDirectory(prefix="kingdoms-opt-")
    folder = Path(tmp.name)

    def evaluate(
        g: Genome, run_seed: int, n: int, against: Sequence[str]
    ) -> list[tuple[str, float, int]]:
        path = folder / f"{name}.toml"
        path.write_text(g.to_toml(name), encoding="utf-8")
        out = []
        for k, opp in enumerate(against):
            report = simulate(
                "dominion",
                [str(path), opp],
                n,
                run_seed + 7919 * k,
                opts,
                workers=workers,
                backend=backend,
                address=address,
            )
            out.append((opp, score_of(report.results), report.games))
        return out

    def rate(results: list[tuple[str, float, int]]) -> float:
        return sum(p for _, p, _ in results) / max(1, sum(n for _, _, n in results))

    best, best_score = pop[0], -1.0
    champion, champion_score = pop[0], -1.0  # the best of the current restart
    stalled = restarts = done = 0
    winners: list[str] = []
    try:
        while generations is None or done < generations:
            gen_seed = seed * 1000 + done + 1
            against = members + winners
            scored = sorted(
                ((rate(evaluate(g, gen_seed, games, against)), g) for g in pop),
                key=lambda x: -x[0],
            )
            done += 1
            if scored[0][0] > champion_score:
                champion, champion_score, stalled = scored[0][1], scored[0][0], 0
            else:
                stalled += 1
            if champion_score >= best_score:
                best, best_score = champion, champion_score
            history.append(scored[0][0])
            elapsed = time.monotonic() - start
            if progress:
                progress(done, best_score, elapsed, budget or 0.0)
            if budget is not None and elapsed > budget:
                break
            if stalled >= STALL and pool:
                # restart: the stalled champion joins the pool, the search starts afresh
                restarts += 1
                path = folder / f"winner-{restarts}.toml"
                path.write_text(champion.to_toml(f"winner-{restarts}"), encoding="utf-8")
                winners.append(str(path))
                pop = [best, *fresh_population()[: population - 1]]
                champion_score, stalled = -1.0, 0
                continue
            elite = [g for _, g in scored[: max(2, population // 4)]]
            pop = list(elite)
            while len(pop) < population:
                child = mutate(rng.choice(elite), cards, rng)
                if rng.random() < 0.5:
                    child = mutate(child, cards, rng)
                pop.append(child)
        fresh = seed * 1000 + 999_983  # seeds the search never played
        final = evaluate(best, fresh, final_games, members)
    finally:
        tmp.cleanup()
    total = sum(p for _, p, _ in final)
    played = sum(n for _, _, n in final)
    score = total / played
    lo, hi = wilson_interval(total, played)
    per = {opp: (p / n, *wilson_interval(p, n), n) for opp, p, n in final}
    header = [
        f"kingdoms optimize: kingdom {', '.join(cards)}; pool {', '.join(members)}",
        f"score (wins + half shared) {score:.1%} [95% CI {lo:.1%}-{hi:.1%}] "
        f"over {played} fresh games (seed {seed})",
        *(
            f"  vs {opp}: {s:.1%} [{a:.1%}-{b:.1%}] over {n} games"
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
    )
