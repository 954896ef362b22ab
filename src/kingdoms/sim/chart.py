"""Charts of simulation reports: a PNG (matplotlib) and a self-contained interactive
HTML page (plotly, the ``report`` extra).

Both show the win rates with their 95 % confidence intervals, the per-turn curves
(Dominion: VP, coins in deck, coins generated; Kingdomino: points per round) of
every bot, the distribution of game length and of margins.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kingdoms.core.errors import InvalidConfig
from kingdoms.sim.runner import SimReport
from kingdoms.sim.trackers import METRICS, UNIT

COLORS = ("#4a7fb5", "#d9763d", "#5aa55a", "#b5475a", "#8a6bb8", "#8c6d4f")


def _panels(report: SimReport) -> list[str]:
    return list(METRICS.get(report.game, {}))


def win_rate_chart(report: SimReport, path: str | Path) -> Path:
    """A PNG: win rates (95 % CI), the per-turn curves, game lengths and margins."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    metrics = _panels(report)
    panels = 1 + len(metrics) + 2
    cols = 2
    rows = (panels + 1) // 2
    fig, axes = plt.subplots(rows, cols, figsize=(11, 3.4 * rows), squeeze=False)
    flat = list(axes.flat)
    labels = [f"{i + 1}. {name}" for i, name in enumerate(report.bots)]
    rates = [w / report.games for w in report.wins]
    cis = report.win_intervals()
    lower = [r - lo for r, (lo, _) in zip(rates, cis, strict=True)]
    upper = [hi - r for r, (_, hi) in zip(rates, cis, strict=True)]
    ax = flat[0]
    ax.bar(labels, rates, yerr=[lower, upper], capsize=6, color=COLORS[: len(labels)])
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95 % CI)")
    ax.set_title(f"{report.game}: {report.games} games, {report.ties} shared wins")
    for i, r in enumerate(rates):
        ax.text(i, min(0.95, r + 0.03), f"{r:.1%}", ha="center")
    unit = UNIT.get(report.game, "turn")
    curves = report.curves()
    for k, metric in enumerate(metrics):
        ax = flat[1 + k]
        for b, row in enumerate(curves[metric]):
            ax.plot(range(1, len(row) + 1), row, label=labels[b], color=COLORS[b % len(COLORS)])
        ax.set_title(f"mean {METRICS[report.game][metric]}")
        ax.set_xlabel(unit)
        ax.legend(fontsize=8)
    ax = flat[1 + len(metrics)]
    dist = report.length_distribution()
    ax.bar([str(k) for k in dist], list(dist.values()), color="#777777")
    piles = report.pile_endings()
    title = f"game length ({unit}s)"
    if piles is not None:
        title += f"; {piles / report.games:.0%} ended on piles"
    ax.set_title(title)
    ax = flat[2 + len(metrics)]
    ax.hist(report.margins(0), bins=20, color=COLORS[0])
    ax.set_title(f"margin of {labels[0]} over the best other bot")
    for extra in flat[panels:]:
        extra.set_visible(False)
    fig.tight_layout()
    target = Path(path)
    fig.savefig(target, dpi=100)
    plt.close(fig)
    return target


def html_report(report: SimReport, path: str | Path) -> Path:
    """A self-contained interactive HTML page (plotly.js embedded: works offline)."""
    try:
        import plotly.graph_objects as go
        from plotly.subplots import make_subplots
    except ImportError as err:
        raise InvalidConfig("the HTML report needs plotly: pip install 'kingdoms[report]'") from err
    metrics = _panels(report)
    unit = UNIT.get(report.game, "turn")
    titles = ["win rate (95 % CI)"]
    titles += [f"mean {METRICS[report.game][m]} per {unit}" for m in metrics]
    titles += [f"game length ({unit}s)", f"margin of {report.bots[0]} over the best other"]
    rows = (len(titles) + 1) // 2
    fig: Any = make_subplots(rows=rows, cols=2, subplot_titles=titles)

    def cell(i: int) -> dict[str, int]:
        return {"row": i // 2 + 1, "col": i % 2 + 1}

    labels = [f"{i + 1}. {name}" for i, name in enumerate(report.bots)]
    rates = [w / report.games for w in report.wins]
    cis = report.win_intervals()
    fig.add_trace(
        go.Bar(
            x=labels,
            y=rates,
            marker_color=list(COLORS[: len(labels)]),
            error_y={
                "type": "data",
                "symmetric": False,
                "array": [hi - r for r, (_, hi) in zip(rates, cis, strict=True)],
                "arrayminus": [r - lo for r, (lo, _) in zip(rates, cis, strict=True)],
            },
            showlegend=False,
            hovertemplate="%{x}: %{y:.1%}<extra></extra>",
        ),
        **cell(0),
    )
    curves = report.curves()
    for k, metric in enumerate(metrics):
        for b, row in enumerate(curves[metric]):
            fig.add_trace(
                go.Scatter(
                    x=list(range(1, len(row) + 1)),
                    y=row,
                    mode="lines+markers",
                    name=labels[b],
                    legendgroup=labels[b],
                    showlegend=k == 0,
                    line={"color": COLORS[b % len(COLORS)]},
                ),
                **cell(1 + k),
            )
    dist = report.length_distribution()
    fig.add_trace(
        go.Bar(x=list(dist), y=list(dist.values()), marker_color="#777777", showlegend=False),
        **cell(1 + len(metrics)),
    )
    fig.add_trace(
        go.Histogram(x=report.margins(0), marker_color=COLORS[0], showlegend=False),
        **cell(2 + len(metrics)),
    )
    piles = report.pile_endings()
    sub = f"{report.games} games"
    if piles is not None:
        sub += f" · {piles / report.games:.0%} ended on piles"
    fig.update_layout(
        title=f"{report.game}: {' vs '.join(report.bots)} — {sub}",
        height=360 * rows,
        template="plotly_white",
    )
    target = Path(path)
    fig.write_html(str(target), include_plotlyjs=True, full_html=True)
    return target


Series = tuple[str, list[float], list[float], list[str]]
"""One line of :func:`line_chart` / :func:`line_chart_html`: label, x, y, hover texts."""


def line_chart(
    series: list[Series], path: str | Path, title: str, xlabel: str, ylabel: str
) -> Path:
    """A PNG of lines (y from 0 to 1: chances), e.g. a review's winning chances."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 4))
    for i, (label, xs, ys, _) in enumerate(series):
        ax.plot(xs, ys, marker=".", label=label, color=COLORS[i % len(COLORS)])
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8)
    fig.tight_layout()
    target = Path(path)
    fig.savefig(target, dpi=100)
    plt.close(fig)
    return target


def line_chart_html(
    series: list[Series], path: str | Path, title: str, xlabel: str, ylabel: str, notes: str = ""
) -> Path:
    """The same lines as a self-contained interactive HTML page (hover: the texts);
    ``notes``: HTML put under the chart."""
    try:
        import plotly.graph_objects as go
    except ImportError as err:
        raise InvalidConfig("the HTML chart needs plotly: pip install 'kingdoms[report]'") from err
    fig: Any = go.Figure()
    for i, (label, xs, ys, hover) in enumerate(series):
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                mode="lines+markers",
                name=label,
                text=hover,
                line={"color": COLORS[i % len(COLORS)]},
                hovertemplate="%{text}<br>%{y:.0%}<extra>" + label + "</extra>",
            )
        )
    fig.update_layout(
        title=title,
        xaxis_title=xlabel,
        yaxis={"title": ylabel, "range": [0, 1], "tickformat": ".0%"},
        template="plotly_white",
        height=420,
    )
    target = Path(path)
    html = fig.to_html(include_plotlyjs=True, full_html=True)
    if notes:
        html = html.replace("</body>", notes + "</body>", 1)
    target.write_text(html, encoding="utf-8")
    return target
