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

    def to_json(self) -> dict[str, Any]:
        return {
            "win_rate": round(self.score, 4),
            "ci95": [round(self.ci[0], 4), round(self.ci[1], 4)],
            "games": self.games,
            "generations": self.generations,
            "best_per_generation": [round(x, 4) for x in self.history],
            "strategy": self.text,
        }


def optimize(
    kingdom: Any,
    opponents: Sequence[str],
    *,
    seed: int = 0,
    population: int = 12,
    generations: int = 8,
    games: int = 60,
    final_games: int = 1000,
    time_limit: float | None = None,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    options: Mapping[str, Any] | None = None,
    name: str = "optimized",
    progress: Callable[[int, float], None] | None = None,
) -> Optimized:
    """The best strategy found against ``opponents`` (each played 1-on-1, ``games``
    games per candidate and opponent every generation), measured on fresh games."""
    cards = kingdom_cards(kingdom, seed, options)
    opts = {**(options or {}), "kingdom": cards}
    rng = random.Random(f"optimize-{seed}")
    pop: list[Genome] = [Genome()]
    for c in cards:
        pop.append(Genome(extras=(Extra(c, 1 + (c in ("smithy",)), CARDS[BY_ID[c]].cost[0] >= 6),)))
    rng.shuffle(pop)
    pop = pop[:population]
    while len(pop) < population:
        pop.append(mutate(rng.choice(pop), cards, rng))
    start = time.monotonic()
    history: list[float] = []
    tmp = tempfile.TemporaryDirectory(prefix="kingdoms-opt-")
    folder = Path(tmp.name)

    def evaluate(g: Genome, run_seed: int, n: int) -> tuple[float, int]:
        path = folder / f"{name}.toml"
        path.write_text(g.to_toml(name), encoding="utf-8")
        total, played = 0.0, 0
        for k, opp in enumerate(opponents):
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
            total += score_of(report.results)
            played += report.games
        return total, played

    best = pop[0]
    done = 0
    try:
        for gen in range(generations):
            gen_seed = seed * 1000 + gen + 1
            scored = []
            for g in pop:
                total, played = evaluate(g, gen_seed, games)
                scored.append((total / played, g))
            scored.sort(key=lambda x: -x[0])
            best = scored[0][1]
            history.append(scored[0][0])
            done = gen + 1
            if progress:
                progress(done, scored[0][0])
            if time_limit is not None and time.monotonic() - start > time_limit:
                break
            elite = [g for _, g in scored[: max(2, population // 4)]]
            pop = list(elite)
            while len(pop) < population:
                child = mutate(rng.choice(elite), cards, rng)
                if rng.random() < 0.5:
                    child = mutate(child, cards, rng)
                pop.append(child)
        fresh = seed * 1000 + 999_983  # seeds the search never played
        total, played = evaluate(best, fresh, final_games)
    finally:
        tmp.cleanup()
    score = total / played
    lo, hi = wilson_interval(total, played)
    header = [
        f"kingdoms optimize: kingdom {', '.join(cards)}; vs {', '.join(opponents)}",
        f"score (wins + half shared) {score:.1%} [95% CI {lo:.1%}-{hi:.1%}] "
        f"over {played} fresh games (seed {seed})",
    ]
    return Optimized(best, best.to_toml(name, header), played, score, (lo, hi), done, history)
