"""A review as text, as a chart (PNG or interactive HTML, with the simulator's charts
module) and as the series the browser draws."""

from __future__ import annotations

import html
from pathlib import Path

from kingdoms.review.analysis import Decision
from kingdoms.review.game import Review
from kingdoms.sim.chart import Series, line_chart, line_chart_html


def seat_label(review: Review, seat: int) -> str:
    name = review.names[seat] if seat < len(review.names) and review.names[seat] else ""
    return f"{seat + 1}. {name}" if name else f"seat {seat + 1}"


def hover(d: Decision, lang: str = "en") -> str:
    turn = f"turn {d.turn} · " if d.turn is not None else ""
    return f"{turn}step {d.step}: {d.chosen_text.get(lang, d.chosen_text['en'])}"


def series(review: Review, lang: str = "en") -> list[Series]:
    """Each reviewed seat's winning chance before each of its decisions (x: the step)."""
    out: list[Series] = []
    for seat in review.seats:
        curve = review.curve(seat)
        out.append(
            (
                seat_label(review, seat),
                [float(d.step) for d in curve],
                [d.win for d in curve],
                [hover(d, lang) for d in curve],
            )
        )
    return out


def mistake_line(d: Decision, lang: str = "en") -> str:
    turn = f"turn {d.turn}, " if d.turn is not None else ""
    return (
        f"{turn}step {d.step}: {d.chosen_text.get(lang, d.chosen_text['en'])} — better "
        f"{d.best_text.get(lang, d.best_text['en'])}; lost {d.loss:.0%} ± {d.loss_se:.0%} "
        f"winning chance ({d.win:.0%} before, {d.iterations} samples)"
    )


def text_report(review: Review, count: int = 3, lang: str = "en") -> str:
    """The mistakes of every reviewed seat, biggest first, and the cost of the review."""
    lines = [
        f"{review.game} · {review.players} players · seed {review.seed} · {review.steps} actions"
        f" · {len(review.decisions)} decisions analysed of {review.positions}"
        f" ({review.cpu_seconds:.1f} CPU s, {review.wall_seconds:.1f} s)"
    ]
    if not review.complete:
        lines.append("(incomplete: the review was stopped)")
    for seat in review.seats:
        mistakes = review.mistakes(seat, count)
        curve = review.curve(seat)
        start = f"{curve[0].win:.0%}" if curve else "?"
        lines.append(f"{seat_label(review, seat)}: winning chance {start} at its first decision")
        if not mistakes:
            lines.append("  no clear mistake found")
        for d in mistakes:
            lines.append("  " + mistake_line(d, lang))
    return "\n".join(lines)


def _title(review: Review) -> str:
    return f"{review.game}: winning chance before each decision"


def write_png(review: Review, path: str | Path) -> Path:
    return line_chart(series(review), path, _title(review), "step", "winning chance")


def write_html(review: Review, path: str | Path, count: int = 3) -> Path:
    notes = ["<div style='font-family:sans-serif;margin:1em 3em'><h3>Biggest mistakes</h3>"]
    for seat in review.seats:
        notes.append(f"<h4>{html.escape(seat_label(review, seat))}</h4><ol>")
        mistakes = review.mistakes(seat, count)
        for d in mistakes:
            notes.append(f"<li>{html.escape(mistake_line(d))}</li>")
        if not mistakes:
            notes.append("<li>no clear mistake found</li>")
        notes.append("</ol>")
    notes.append("</div>")
    return line_chart_html(
        series(review), path, _title(review), "step", "winning chance", "".join(notes)
    )
