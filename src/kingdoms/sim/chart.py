"""Charts of simulation reports: a PNG (matplotlib) and an interactive HTML page
(plotly, the ``report`` extra), and the heat map of a round robin.

Every chart says what was played: the game, the kingdom (or how kingdoms were
drawn), the seed, the bots and the number of games.  Scores are the one score of
the reports, (wins + ½ shared wins) / games, with 95 % intervals; per-turn curves
carry a 95 % band of their mean and the number of games still running at each turn,
and stop where fewer than 5 % of the games remain (their tails would be noise).
Panels that say nothing are left out: game length when every game lasts as long
(Kingdomino), pile endings when the game has none.
"""

from __future__ import annotations

import html
import json
import math
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kingdoms.core.errors import InvalidConfig
from kingdoms.sim.runner import SCORE_TEXT, SimReport
from kingdoms.sim.trackers import METRICS, UNIT

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from kingdoms.sim.report import RoundRobin

COLORS = ("#4a7fb5", "#d9763d", "#5aa55a", "#b5475a", "#8a6bb8", "#8c6d4f")
CUT = 0.05
"""Per-turn curves stop where fewer than this share of the games is still running."""


def title_of(report: SimReport, width: int = 0) -> str:
    """The lines every chart of ``report`` carries: game, bots, games, kingdom, seed
    (wrapped at ``width`` characters when given)."""
    setup = str(report.setup.get("text", "")).strip()
    head = f"{report.game}: {' vs '.join(report.bots)} — {report.games} games"
    tail = " · ".join(x for x in (setup, f"seed {report.seed}") if x)
    return _wrap(f"{head}\n{tail}", width)


def _wrap(text: str, width: int) -> str:
    if width <= 0:
        return text
    return "\n".join(textwrap.fill(line, width) for line in text.split("\n"))


def _short(name: str, width: int = 18) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def _labels(report: SimReport) -> list[str]:
    return [f"{i + 1}. {_short(name)}" for i, name in enumerate(report.bots)]


def _lengths_matter(report: SimReport) -> bool:
    return len(report.length_distribution()) > 1


def _integral(values: list[float]) -> bool:
    return all(float(v).is_integer() for v in values)


def figure(report: SimReport) -> Figure:
    """The PNG's figure: scores, per-turn curves (bands, games running), game
    lengths, margins, endings.  Returned unsaved, for tests to inspect."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    metrics = list(METRICS.get(report.game, {})) if report.curves_recorded else []
    unit = UNIT.get(report.game, "turn")
    kinds = ["score", *(f"curve:{m}" for m in metrics)]
    if metrics and _lengths_matter(report):
        kinds.append("alive")
    if _lengths_matter(report):
        kinds.append("length")
    kinds.append("margin")
    if report.ending_piles():
        kinds.append("ending")
    if report.categories():
        kinds.append("categories")
    cols = 2
    rows = (len(kinds) + 1) // 2
    fig, axes = plt.subplots(
        rows, cols, figsize=(12, 3.9 * rows + 0.9), squeeze=False, layout="constrained"
    )
    flat = list(axes.flat)
    labels = _labels(report)
    for ax, kind in zip(flat, kinds, strict=False):
        if kind == "score":
            rates = report.score_rates()
            cis = report.score_intervals()
            xs = list(range(len(labels)))
            ax.bar(
                xs,
                rates,
                yerr=[
                    [r - lo for r, (lo, _) in zip(rates, cis, strict=True)],
                    [hi - r for r, (_, hi) in zip(rates, cis, strict=True)],
                ],
                capsize=6,
                color=[COLORS[i % len(COLORS)] for i in xs],
            )
            for i, (r, (lo, hi)) in enumerate(zip(rates, cis, strict=True)):
                # above the interval's upper cap, or inside the bar below its lower cap
                if hi < 0.86:
                    ax.text(i, hi + 0.02, f"{r:.1%}", ha="center", va="bottom", fontsize=8)
                else:
                    ax.text(i, lo - 0.02, f"{r:.1%}", ha="center", va="top", fontsize=8,
                            color="white", fontweight="bold")  # fmt: skip
            ax.set_xticks(xs, labels, fontsize=8)
            ax.set_ylim(0, 1)
            ax.set_ylabel("score (95 % CI)")
            ax.set_title("score = (wins + ½ shared) / games", fontsize=10)
        elif kind.startswith("curve:"):
            metric = kind.split(":", 1)[1]
            for b, row in enumerate(report.curve_bands(metric, CUT)):
                ts = list(range(1, len(row) + 1))
                color = COLORS[b % len(COLORS)]
                ax.plot(ts, [m for m, _, _, _ in row], label=labels[b], color=color)
                ax.fill_between(
                    ts, [lo for _, lo, _, _ in row], [hi for _, _, hi, _ in row],
                    color=color, alpha=0.25, linewidth=0,
                )  # fmt: skip
            ax.set_title(f"mean {METRICS[report.game][metric]} (95 % band)", fontsize=10)
            ax.set_xlabel(unit)
            ax.set_ylabel(metric)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=12))
            ax.legend(fontsize=7, loc="upper left")
        elif kind == "alive":
            bands = report.curve_bands(metrics[0], 0.0)
            alive = [n for _, _, _, n in max(bands, key=len)] if bands else []
            ts = list(range(1, len(alive) + 1))
            ax.step(ts, [100 * n / report.games for n in alive], where="mid", color="#555555")
            ax.axhline(100 * CUT, color="#b5475a", linestyle="--", linewidth=1)
            ax.set_title(f"games still running (curves cut below {CUT:.0%})", fontsize=10)
            ax.set_xlabel(unit)
            ax.set_ylabel("% of games")
            ax.set_ylim(0, 105)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=12))
        elif kind == "length":
            dist = report.length_distribution()
            ax.bar(list(dist), list(dist.values()), color="#777777", width=0.9)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=12))
            ax.set_title(f"game length ({unit}s)", fontsize=10)
            ax.set_xlabel(f"{unit}s")
            ax.set_ylabel("games")
        elif kind == "margin":
            margins = report.margins(0)
            if margins and _integral(margins):
                lo, hi = int(min(margins)), int(max(margins))
                step = max(1, math.ceil((hi - lo + 1) / 40))
                bins = [lo - 0.5 + k * step for k in range((hi - lo) // step + 2)]
                ax.hist(margins, bins=bins, color=COLORS[0])
            else:
                ax.hist(margins, bins=20, color=COLORS[0])
            ax.axvline(0, color="#333333", linewidth=1)
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_title(f"margin of {labels[0]} over the best other bot", fontsize=10)
            ax.set_xlabel(f"{report.score_name} difference")
            ax.set_ylabel("games")
        elif kind == "ending":
            endings = list(report.ending_piles().items())
            top = endings[:7]
            if len(endings) > 7:
                top.append(("other", sum(n for _, n in endings[7:])))
            names = [_short(k, 34) for k, _ in top][::-1]
            counts = [n for _, n in top][::-1]
            ax.barh(names, counts, color="#8c6d4f")
            ax.tick_params(axis="y", labelsize=7)
            ax.set_title("how the games ended", fontsize=10)
            ax.set_xlabel("games")
        elif kind == "categories":
            cats = report.categories()
            crowns = cats.pop("crowns", None)
            names = list(cats)
            width = 0.8 / len(labels)
            for b, label in enumerate(labels):
                spots = [k + (b - (len(labels) - 1) / 2) * width for k in range(len(names))]
                ax.bar(spots, [cats[n][b] for n in names], width=width, label=label,
                       color=COLORS[b % len(COLORS)])  # fmt: skip
            ax.set_xticks(range(len(names)), [n.replace("_", " ") for n in names], fontsize=8)
            title = "mean points by category"
            if crowns is not None:
                title += "; crowns: " + ", ".join(f"{c:.1f}" for c in crowns)
            ax.set_title(title, fontsize=10)
            ax.set_ylabel("points per game")
            ax.legend(fontsize=7, loc="best")
    for extra in flat[len(kinds) :]:
        extra.set_visible(False)
    notes = "\n".join(f"warning: {n}" for n in report.notes)
    fig.suptitle(_wrap(title_of(report) + ("\n" + notes if notes else ""), 150), fontsize=10)
    return fig


def win_rate_chart(report: SimReport, path: str | Path) -> Path:
    """A PNG of :func:`figure`."""
    import matplotlib.pyplot as plt

    fig = figure(report)
    target = Path(path)
    fig.savefig(target, dpi=100)
    plt.close(fig)
    return target


def _setup_line(report: SimReport) -> str:
    """The setup and seed (and warnings) every chart states."""
    text = f"{report.setup.get('text', '')} · seed {report.seed}".lstrip(" ·")
    return "\n".join([text, *(f"warning: {n}" for n in report.notes)])


def _plotly() -> Any:
    """plotly's ``graph_objects``, or a clear error when plotly is not installed."""
    try:
        import plotly.graph_objects as go
    except ImportError as err:
        raise InvalidConfig("the HTML report needs plotly: pip install 'kingdoms[report]'") from err
    return go


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<script src="plotly.min.js"></script>
<style>
body {{ font-family: sans-serif; margin: 1em auto; max-width: 1100px; padding: 0 1em; }}
table {{ border-collapse: collapse; font-size: 0.9em; margin: 0.5em 0 1em; }}
th, td {{ border-bottom: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }}
th:nth-child(2), td:nth-child(2) {{ text-align: left; }}
.chart {{ width: 100%; margin-bottom: 1em; }}
.wrap {{ overflow-x: auto; }}
</style></head><body>
<h1>{heading}</h1>
<p>{setup}</p>
{body}
<script>
for (const d of document.querySelectorAll("[data-figure]")) {{
  const f = JSON.parse(d.dataset.figure);
  Plotly.newPlot(d, f.data, f.layout, {{responsive: true, displaylogo: false}});
}}
</script>
</body></html>
"""


def _figure_div(fig: Any) -> str:
    """A ``div`` carrying ``fig`` as compact JSON (drawn by the page's one script)."""
    spec = fig.to_plotly_json()
    spec["layout"].pop("template", None)
    height = int(spec["layout"].pop("height", 360))
    data = json.dumps(
        {"data": spec["data"], "layout": spec["layout"]}, separators=(",", ":"), default=_plain
    )
    return f'<div class="chart" style="height:{height}px" data-figure="{html.escape(data)}"></div>'


def _plain(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(type(value).__name__)


def _layout(title: str, x: str, y: str, **more: Any) -> dict[str, Any]:
    return {
        "title": {"text": title, "font": {"size": 15}},
        "xaxis": {"title": {"text": x}, "automargin": True},
        "yaxis": {"title": {"text": y}, "automargin": True},
        "margin": {"l": 60, "r": 20, "t": 50, "b": 50},
        "height": 360,
        "legend": {"orientation": "h", "y": -0.25},
        "paper_bgcolor": "white",
        "plot_bgcolor": "#fafafa",
        **more,
    }


def _table(report: SimReport) -> str:
    head = ["#", "bot", "wins", "shared", "score", "95 % CI", f"mean {report.score_name}", "margin"]
    rows = []
    for i, bot in enumerate(report.bots):
        lo, hi = report.score_intervals()[i]
        cells = [
            str(i + 1),
            html.escape(bot),
            str(report.wins[i]),
            str(report.shared[i]),
            f"{report.score_rates()[i]:.1%}",
            f"{lo:.1%}–{hi:.1%}",
            f"{report.mean_scores()[i]:.2f}",
            f"{report.mean_margins()[i]:+.2f}",
        ]
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return (
        '<div class="wrap"><table><caption>'
        + html.escape(SCORE_TEXT)
        + "</caption><tr>"
        + "".join(f"<th>{h}</th>" for h in head)
        + "</tr>"
        + "".join(rows)
        + "</table></div>"
    )


def _write_page(path: str | Path, title: str, setup: str, body: str) -> Path:
    """The page and, beside it, ``plotly.min.js`` (written once, shared by the pages of
    that folder; the page works offline)."""
    _plotly()  # a clear error when plotly is missing
    from plotly.offline import get_plotlyjs

    target = Path(path)
    script = target.parent / "plotly.min.js"
    if not script.exists():
        script.write_text(get_plotlyjs(), encoding="utf-8")
    target.write_text(
        PAGE.format(title=html.escape(title), heading=html.escape(title), setup=setup, body=body),
        encoding="utf-8",
    )
    return target


def html_report(report: SimReport, path: str | Path) -> Path:
    """An interactive HTML page: the table of numbers, then one chart per panel (each
    titled; hovers give the 95 % intervals and games still running)."""
    go = _plotly()
    unit = UNIT.get(report.game, "turn")
    labels = _labels(report)
    divs: list[str] = []
    rates, cis = report.score_rates(), report.score_intervals()
    score = go.Figure(
        go.Bar(
            x=labels,
            y=[round(r, 4) for r in rates],
            marker_color=[COLORS[i % len(COLORS)] for i in range(len(labels))],
            error_y={
                "type": "data",
                "symmetric": False,
                "array": [round(hi - r, 4) for r, (_, hi) in zip(rates, cis, strict=True)],
                "arrayminus": [round(r - lo, 4) for r, (lo, _) in zip(rates, cis, strict=True)],
            },
            customdata=[[round(lo, 4), round(hi, 4)] for lo, hi in cis],
            hovertemplate="%{x}: %{y:.1%} [%{customdata[0]:.1%}–%{customdata[1]:.1%}]"
            "<extra></extra>",
        ),
        layout=_layout(
            "score = (wins + ½ shared) / games, 95 % CI",
            "bot",
            "score",
            yaxis={"title": {"text": "score"}, "range": [0, 1], "tickformat": ".0%"},
        ),
    )
    divs.append(_figure_div(score))
    if report.curves_recorded:
        for metric, text in METRICS.get(report.game, {}).items():
            fig = go.Figure(layout=_layout(f"mean {text} (95 % band)", unit, metric))
            for b, row in enumerate(report.curve_bands(metric, CUT)):
                ts = list(range(1, len(row) + 1))
                color = COLORS[b % len(COLORS)]
                fig.add_trace(
                    go.Scatter(
                        x=ts + ts[::-1],
                        y=[round(hi, 3) for _, _, hi, _ in row]
                        + [round(lo, 3) for _, lo, _, _ in row][::-1],
                        fill="toself",
                        fillcolor=color,
                        opacity=0.25,
                        line={"width": 0},
                        hoverinfo="skip",
                        showlegend=False,
                    )
                )
                fig.add_trace(
                    go.Scatter(
                        x=ts,
                        y=[round(m, 3) for m, _, _, _ in row],
                        customdata=[[round(lo, 2), round(hi, 2), n] for _, lo, hi, n in row],
                        mode="lines",
                        name=labels[b],
                        line={"color": color},
                        hovertemplate=f"{html.escape(labels[b])}, {unit} %{{x}}: %{{y:.2f}} "
                        "[%{customdata[0]}–%{customdata[1]}], %{customdata[2]} games"
                        "<extra></extra>",
                    )
                )
            divs.append(_figure_div(fig))
    dist = report.length_distribution()
    if len(dist) > 1:
        divs.append(
            _figure_div(
                go.Figure(
                    go.Bar(
                        x=list(dist),
                        y=list(dist.values()),
                        marker_color="#777777",
                        hovertemplate="%{x} " + unit + "s: %{y} games<extra></extra>",
                    ),
                    layout=_layout(f"game length ({unit}s)", f"{unit}s", "games"),
                )
            )
        )
    margins = report.margins(0)
    divs.append(
        _figure_div(
            go.Figure(
                go.Histogram(x=margins, xbins={"size": 1} if _integral(margins) else None),
                layout=_layout(
                    f"margin of {labels[0]} over the best other bot",
                    f"{report.score_name} difference",
                    "games",
                ),
            )
        )
    )
    endings = report.ending_piles()
    if endings:
        divs.append(
            _figure_div(
                go.Figure(
                    go.Bar(
                        y=list(endings)[::-1],
                        x=list(endings.values())[::-1],
                        orientation="h",
                        marker_color="#8c6d4f",
                        hovertemplate="%{y}: %{x} games<extra></extra>",
                    ),
                    layout=_layout("how the games ended", "games", ""),
                )
            )
        )
    cats = report.categories()
    if cats:
        crowns = cats.pop("crowns", None)
        fig = go.Figure(
            layout=_layout(
                "mean points by category"
                + ("; crowns: " + ", ".join(f"{c:.1f}" for c in crowns) if crowns else ""),
                "category",
                "points per game",
                barmode="group",
            )
        )
        for b, label in enumerate(labels):
            fig.add_trace(
                go.Bar(
                    x=[n.replace("_", " ") for n in cats],
                    y=[round(cats[n][b], 2) for n in cats],
                    name=label,
                    marker_color=COLORS[b % len(COLORS)],
                    hovertemplate=f"{html.escape(label)}, %{{x}}: %{{y}} points<extra></extra>",
                )
            )
        divs.append(_figure_div(fig))
    head = title_of(report).split("\n")[0]
    setup = html.escape(_setup_line(report)).replace("\n", "<br>")
    return _write_page(path, head, setup, _table(report) + "\n".join(divs))


def round_robin_matrix(rr: RoundRobin) -> tuple[list[str], list[list[float | None]], list[float]]:
    """Bots in overall order (mean score against the others, best first), the matrix
    of row-vs-column scores in that order, and the overall scores."""
    n = len(rr.bots)
    overall = [sum(rr.rate(i, j)[0] for j in range(n) if j != i) / (n - 1) for i in range(n)]
    order = sorted(range(n), key=lambda i: -overall[i])
    matrix: list[list[float | None]] = [
        [None if i == j else rr.rate(i, j)[0] for j in order] for i in order
    ]
    return [rr.bots[i] for i in order], matrix, [overall[i] for i in order]


def _rr_title(rr: RoundRobin, setup: str, seed: int) -> str:
    games = sum(r.games for r in rr.reports.values())
    head = f"round robin of {len(rr.bots)} bots — {games} games"
    return f"{head}\n{' · '.join(x for x in (setup, f'seed {seed}') if x)}"


def round_robin_figure(rr: RoundRobin) -> Figure:
    """A heat map of the round robin (row's score vs column) with the overall column."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bots, matrix, overall = round_robin_matrix(rr)
    n = len(bots)
    width = max(7.0, 2.2 + 1.3 * (n + 1))
    fig, ax = plt.subplots(figsize=(width, 1.8 + 0.8 * n), layout="constrained")
    grid = [
        [math.nan if v is None else v for v in row] + [overall[i]] for i, row in enumerate(matrix)
    ]
    image = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1, aspect="auto")
    index = {b: k for k, b in enumerate(rr.bots)}
    for i in range(n):
        for j in range(n + 1):
            value = grid[i][j]
            if not math.isnan(value):
                label = f"{value:.0%}"
                if j < n:  # a matchup: its 95 % interval under the score
                    _, lo, hi = rr.rate(index[bots[i]], index[bots[j]])
                    label += f"\n[{lo:.0%}–{hi:.0%}]"
                ax.text(j, i, label, ha="center", va="center", fontsize=8,
                        color="white" if abs(value - 0.5) > 0.3 else "black")  # fmt: skip
    ax.axvline(n - 0.5, color="black", linewidth=2)
    ax.set_xticks(range(n + 1), [*(_short(b, 14) for b in bots), "overall"], rotation=30,
                  ha="right", fontsize=8)  # fmt: skip
    ax.set_yticks(range(n), [f"{k + 1}. {_short(b)}" for k, b in enumerate(bots)], fontsize=8)
    ax.set_xlabel("opponent")
    ax.set_ylabel("bot (ranked by overall score)")
    fig.colorbar(image, ax=ax, label="score of row vs column")
    first = next(iter(rr.reports.values()))
    title = _rr_title(rr, str(first.setup.get("text", "")), first.seed)
    fig.suptitle(_wrap(title, int(width * 12)), fontsize=9)
    return fig


def round_robin_chart(rr: RoundRobin, path: str | Path) -> Path:
    import matplotlib.pyplot as plt

    fig = round_robin_figure(rr)
    target = Path(path)
    fig.savefig(target, dpi=100)
    plt.close(fig)
    return target


def round_robin_html(rr: RoundRobin, path: str | Path) -> Path:
    go = _plotly()
    bots, matrix, overall = round_robin_matrix(rr)
    index = {b: i for i, b in enumerate(rr.bots)}
    text: list[list[str]] = []
    for b in bots:
        row = []
        for c in bots:
            if b == c:
                row.append("")
            else:
                p, lo, hi = rr.rate(index[b], index[c])
                row.append(f"{p:.1%} [{lo:.0%}–{hi:.0%}]")
        text.append(row)
    fig = go.Figure(
        go.Heatmap(
            z=[[None if v is None else round(v, 4) for v in row] for row in matrix],
            x=bots,
            y=bots,
            text=text,
            texttemplate="%{text}",
            hovertemplate="%{y} vs %{x}: %{text}<extra></extra>",
            colorscale="RdBu",
            zmin=0,
            zmax=1,
        ),
        layout=_layout(
            "score of row vs column (wins + ½ shared), 95 % CI",
            "opponent",
            "bot",
            yaxis={"autorange": "reversed", "automargin": True},
            height=260 + 40 * len(bots),
        ),
    )
    rows = "".join(
        f"<tr><td>{k + 1}</td><td>{html.escape(b)}</td><td>{s:.1%}</td></tr>"
        for k, (b, s) in enumerate(zip(bots, overall, strict=True))
    )
    table = (
        '<div class="wrap"><table><caption>overall: mean score against the others</caption>'
        f"<tr><th>#</th><th>bot</th><th>overall</th></tr>{rows}</table></div>"
    )
    first = next(iter(rr.reports.values()))
    head, setup = _rr_title(rr, str(first.setup.get("text", "")), first.seed).split("\n", 1)
    return _write_page(path, head, html.escape(setup), table + _figure_div(fig))


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
