"""Bot-vs-bot simulation: many games, win rates with confidence intervals, charts."""

from kingdoms.sim.runner import GameResult, SimReport, simulate
from kingdoms.sim.stats import wilson_interval

__all__ = ["GameResult", "SimReport", "simulate", "wilson_interval"]
