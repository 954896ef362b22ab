"""Charts of simulation reports (matplotlib, written to a file)."""

from __future__ import annotations

from pathlib import Path

from kingdoms.sim.runner import SimReport


def win_rate_chart(report: SimReport, path: str | Path) -> Path:
    """Bar chart of each bot's win rate with its 95 % confidence interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [f"{i + 1}. {name}" for i, name in enumerate(report.bots)]
    rates = [w / report.games for w in report.wins]
    cis = report.win_intervals()
    lower = [r - lo for r, (lo, _) in zip(rates, cis, strict=True)]
    upper = [hi - r for r, (_, hi) in zip(rates, cis, strict=True)]
    fig, ax = plt.subplots(figsize=(max(4.0, 1.6 * len(labels)), 3.6))
    ax.bar(labels, rates, yerr=[lower, upper], capsize=6, color="#4a7fb5")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95 % CI)")
    ax.set_title(f"{report.game}: {report.games} games, {report.ties} shared wins")
    for i, r in enumerate(rates):
        ax.text(i, min(0.95, r + 0.03), f"{r:.1%}", ha="center")
    fig.tight_layout()
    target = Path(path)
    fig.savefig(target, dpi=110)
    plt.close(fig)
    return target
