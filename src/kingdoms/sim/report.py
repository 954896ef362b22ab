"""Text of simulation reports: the results table, per-turn curves, game lengths,
round-robin matrices and a sample game's log."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.table import Table

from kingdoms.sim.runner import (
    DEFAULT_MAX_TURNS,
    SCORE_TEXT,
    SimReport,
    play_state,
    score_points,
)
from kingdoms.sim.stats import wilson_interval
from kingdoms.sim.tables import show
from kingdoms.sim.trackers import METRICS, UNIT


def print_report(
    report: SimReport, console: Console, *, turns: int = 25, fmt: str = "plain"
) -> None:
    """The results table, then (``plain`` and ``markdown``) the setup, notes and
    figures, the per-turn curves and the game lengths; ``csv``: the tables only."""
    prose = fmt != "csv"
    table = Table(
        title=f"{report.game}: {report.games} games, seats rotate",
        caption=SCORE_TEXT,
    )
    table.add_column("#", justify="right")
    table.add_column("bot")
    table.add_column("wins", justify="right")
    table.add_column("shared", justify="right")
    table.add_column("score [95% CI]", justify="right")
    table.add_column(f"mean {report.score_name}", justify="right")
    table.add_column("mean margin", justify="right")
    capped = report.capped
    if capped:
        table.add_column("capped", justify="right")
    for i, (bot, wins, shared, rate, (lo, hi), score, margin) in enumerate(
        zip(
            report.bots,
            report.wins,
            report.shared,
            report.score_rates(),
            report.score_intervals(),
            report.mean_scores(),
            report.mean_margins(),
            strict=True,
        )
    ):
        table.add_row(
            str(i + 1),
            bot,
            str(wins),
            str(shared),
            f"{rate:.1%} [{lo:.1%}–{hi:.1%}]",
            f"{score:.2f}",
            f"{margin:+.2f}",
            *([str(capped)] if capped else []),
        )
    show(console, table, fmt)
    if not prose:
        print_curves(report, console, turns=turns, fmt=fmt)
        return
    if report.setup:
        console.print(f"{report.setup.get('text', '')} · seed {report.seed}", highlight=False)
    for note in report.notes:
        console.print(f"[yellow]warning:[/] {note}", highlight=False)
    data = report.to_json()
    extra = [f"shared wins: {report.ties}", f"first-seat wins: {report.first_seat_wins}"]
    if "requested" in data:
        lo, hi = report.score_intervals(z=2.575829)[0]
        extra.append(
            f"stopped early after {report.games} of {data['requested']} games"
            f" (the first bot's 99 % score interval at the stop, {lo:.1%}–{hi:.1%}, "
            "cleared 50 %; a run stopped on its lead tends to overstate it)"
        )
    if capped:
        extra.append(
            f"stopped at the {report.max_turns}-turn cap: {capped} "
            f"({capped / report.games:.1%}; scored as they stood)"
        )
    if "mean_turns" in data:
        extra.append(f"mean turns: {data['mean_turns']}")
    if "three_pile_endings" in data:
        extra.append(
            f"pile endings: {data['three_pile_endings']} ({data['pile_ending_share']:.1%})"
        )
    extra.append(f"{report.games_per_second:.1f} games/s")
    console.print(" · ".join(extra))
    print_curves(report, console, turns=turns, fmt=fmt)
    print_lengths(report, console)


def print_curves(
    report: SimReport, console: Console, *, turns: int = 25, fmt: str = "plain"
) -> None:
    metrics = METRICS.get(report.game, {})
    if not metrics or not report.curves_recorded:
        return
    unit = UNIT.get(report.game, "turn")
    curves = report.curves()
    table = Table(title=f"mean per {unit} (over the games that reached it)")
    table.add_column(unit, justify="right")
    for metric in metrics:
        for b in range(len(report.bots)):
            table.add_column(f"{metric} {b + 1}", justify="right")
    longest = max((len(row) for rows in curves.values() for row in rows), default=0)
    for t in range(min(turns, longest)):
        cells = [str(t + 1)]
        for metric in metrics:
            for row in curves[metric]:
                cells.append(f"{row[t]:.2f}" if t < len(row) else "")
        table.add_row(*cells)
    if fmt == "csv":
        console.print()
    show(console, table, fmt)
    if fmt == "csv":
        return
    console.print(
        "; ".join(f"{m}: {text}" for m, text in metrics.items())
        + "; columns numbered as the bots above"
    )


def print_lengths(report: SimReport, console: Console) -> None:
    dist = report.length_distribution()
    if not dist:
        return
    unit = UNIT.get(report.game, "turn")
    top = max(dist.values())
    console.print(f"game length ({unit}s):")
    for length, count in dist.items():
        bar = "█" * max(1, round(30 * count / top))
        console.print(f"  {length:>3} {bar} {count}")


def sample_log(
    game: str,
    specs: Sequence[str],
    seed: int,
    options: Mapping[str, Any],
    index: int = 0,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> list[str]:
    """The readable log of game ``index`` of a run (the same game the run plays, with
    its turn cap), the seats named by their bots (numbered when two seats play the
    same bot)."""
    from kingdoms.core.logtext import with_names
    from kingdoms.sim.setup import labels

    state, seat_bot = play_state(game, specs, index, seed, options, log=True, max_turns=max_turns)
    named = labels(game, specs)  # a strategy file by its name
    names: list[str | None] = [seat_label(named, b) for b in seat_bot]
    lines = [
        f"sample game {index + 1}: "
        + ", ".join(f"seat {s + 1} = {name}" for s, name in enumerate(names))
    ]
    lines += [with_names(state.event_to_str(e, "en"), names) for e in state.log_for(None)]
    outcome = state.outcome()
    if outcome is not None:
        scores = ", ".join(f"{names[i]}: {s:g}" for i, s in enumerate(outcome.scores))
        lines.append(f"final scores — {scores}")
    elif game == "dominion":  # stopped at the turn cap
        vp = ", ".join(f"{names[i]}: {v:g}" for i, v in enumerate(state.vp()))
        lines.append(f"stopped at the {max_turns}-turn cap, scored as it stands — {vp}")
    return lines


def seat_label(names: Sequence[str], b: int) -> str:
    """Bot ``b``'s name in a log (its label, as :func:`kingdoms.sim.setup.labels` gives
    it: a name may hold a "/"), "#n" added when another bot has the same.

    >>> seat_label(["bmu", "bmu"], 1), seat_label(["bmu", "Spy/Thief"], 1)
    ('bmu #2', 'Spy/Thief')
    """
    name = names[b]
    return f"{name} #{b + 1}" if sum(1 for s in names if s == name) > 1 else name


@dataclass(slots=True)
class RoundRobin:
    bots: list[str]
    reports: dict[tuple[int, int], SimReport]

    def rate(self, i: int, j: int) -> tuple[float, float, float]:
        """Bot ``i``'s score against ``j`` (wins + half the shared wins) with its CI."""
        r = self.reports[(min(i, j), max(i, j))]
        points = score_points(r.results, 0 if i < j else 1)
        lo, hi = wilson_interval(points, r.games)
        return points / r.games, lo, hi

    def to_json(self) -> dict[str, Any]:
        n = len(self.bots)
        matrix: list[list[Any]] = []
        for i in range(n):
            row: list[Any] = []
            for j in range(n):
                if i == j:
                    row.append(None)
                else:
                    p, lo, hi = self.rate(i, j)
                    row.append({"score": round(p, 4), "ci95": [round(lo, 4), round(hi, 4)]})
            matrix.append(row)
        games = {f"{self.bots[i]}|{self.bots[j]}": r.games for (i, j), r in self.reports.items()}
        overall = self.overall()
        out: dict[str, Any] = {
            "bots": self.bots,
            "matrix": matrix,
            "games": games,
            "overall": [round(x, 4) for x in overall],
            "ranking": [self.bots[i] for i in sorted(range(n), key=lambda i: -overall[i])],
        }
        first = next(iter(self.reports.values()), None)
        if first is not None:
            out["seed"] = first.seed
            out["setup"] = dict(first.setup)
            if first.game == "dominion":
                out["max_turns"] = first.max_turns
                out["capped_games"] = {
                    f"{self.bots[i]}|{self.bots[j]}": r.capped for (i, j), r in self.reports.items()
                }
            notes = [n for r in self.reports.values() for n in r.notes]
            if notes:
                out["notes"] = list(dict.fromkeys(notes))
        return out

    def capped(self) -> list[int]:
        """Per bot, its games stopped at the turn cap (over all its matchups)."""
        out = [0] * len(self.bots)
        for (i, j), r in self.reports.items():
            out[i] += r.capped
            out[j] += r.capped
        return out

    def overall(self) -> list[float]:
        """Per bot, its mean score against the others (the overall ranking's key)."""
        n = len(self.bots)
        return [sum(self.rate(i, j)[0] for j in range(n) if j != i) / (n - 1) for i in range(n)]

    def print(self, console: Console, fmt: str = "plain") -> None:
        table = Table(title="round robin: row's score vs column (wins + ½ shared) [95% CI]")
        overall = self.overall()
        order = sorted(range(len(self.bots)), key=lambda i: -overall[i])
        table.add_column("#", justify="right")
        table.add_column("bot")  # rows: the bot; columns: its opponent
        for j in order:
            table.add_column(self.bots[j], justify="right")
        table.add_column("overall", justify="right")
        capped = self.capped()
        if any(capped):
            table.add_column("capped", justify="right")
        for rank, i in enumerate(order):
            cells = [str(rank + 1), self.bots[i]]
            for j in order:
                if i == j:
                    cells.append("—")
                else:
                    p, lo, hi = self.rate(i, j)
                    cells.append(f"{p:.1%} [{lo:.0%}–{hi:.0%}]")
            cells.append(f"{overall[i]:.1%}")
            if any(capped):
                cells.append(str(capped[i]))
            table.add_row(*cells)
        show(console, table, fmt)
        if fmt == "csv":
            return
        data = self.to_json()
        if "setup" in data:
            console.print(f"{data['setup'].get('text', '')} · seed {data['seed']}", highlight=False)
        if any(capped):
            console.print(
                f"capped: a bot's games stopped at the {data['max_turns']}-turn cap "
                f"(scored as they stood; {sum(data['capped_games'].values())} in all)",
                highlight=False,
            )
        for note in data.get("notes", ()):
            console.print(f"[yellow]warning:[/] {note}", highlight=False)
