"""Run many bot-vs-bot games and aggregate the results.

Seats rotate: in game ``i`` the bot listed ``j``-th sits in seat
``(j + i) % k``, so with a forced first seat every bot starts equally often.
Every game's seed is derived from the run's seed and the game's index
(:func:`game_seed`), and games run in fixed batches of consecutive indices
(:func:`batches`), so a run gives the same results whatever runs the batches:
this process, local worker processes, or Ray tasks on a cluster
(:mod:`kingdoms.sim.backends`).  Results stream back batch by batch, so progress
bars and early stopping work; early stopping is decided on the games in index
order, so it stops at the same game however many workers there are.

>>> report = simulate("kingdomino", ["random", "random"], games=4, seed=1)
>>> report.games, len(report.wins)
(4, 2)
"""

from __future__ import annotations

import contextlib
import copy
import functools
import math
import os
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kingdoms.bots.base import bot_factory, make_bot
from kingdoms.core.errors import IllegalAction, InvalidConfig
from kingdoms.core.registry import Game, get_game
from kingdoms.core.runner import (
    DEFAULT_MAX_STEPS,
    bot_input,
    bot_reader,
    joint_loop,
    seat_rngs,
)
from kingdoms.sim.stats import mean, wilson_interval
from kingdoms.sim.trackers import METRICS, UNIT, Tracker, tracker_for

if TYPE_CHECKING:
    from kingdoms.bots.base import Bot


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game, seen from the bots' side (indices into the bot list)."""

    index: int
    winners: tuple[int, ...]
    scores: tuple[float, ...]
    first: int | None
    summary: Mapping[str, Any]
    series: Mapping[str, tuple[tuple[float, ...], ...]] = field(default_factory=dict)
    """Metric -> per bot, the value at the end of each of its turns (rounds)."""


SCORE_TEXT = "score = (wins + ½ shared wins) / games"
"""The one definition of a bot's score: the results table, the stopping rules
(``--until-clear``, ``rank``, ``optimize``) and the charts all use it."""


def score_points(results: Sequence[GameResult], bot: int = 0) -> float:
    """Wins of ``bot`` plus half its shared wins (``score × games``).

    >>> r = [GameResult(0, (0,), (3.0, 1.0), 0, {}), GameResult(1, (0, 1), (2.0, 2.0), 1, {})]
    >>> score_points(r, 0), score_points(r, 1)
    (1.5, 0.5)
    """
    return sum(1.0 if r.winners == (bot,) else 0.5 if bot in r.winners else 0.0 for r in results)


def game_seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index * 7_919 + 12_345) % (2**48)


def seating(index: int, bots: int) -> list[int]:
    """``seat -> bot index`` for game ``index`` (rotation)."""
    return [(seat - index) % bots for seat in range(bots)]


DEFAULT_MAX_TURNS = 60
"""A simulated Dominion game stops once its first player has taken more than this
many turns (as Geronimoo's simulator does), and is scored as it stands by the usual
rule (most VP, then fewer turns); 0: no cap."""


def check_max_turns(max_turns: int) -> int:
    """``max_turns`` checked: a whole number, 0 (no cap) or more."""
    if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 0:
        raise InvalidConfig(
            f"max_turns must be a whole number of turns, 0 (no cap) or more, not {max_turns!r}"
        )
    return max_turns


def new_sim_game(
    game: str, specs: Sequence[str], index: int, seed: int, options: Mapping[str, Any]
) -> Any:
    """The state of game ``index`` of a run (seat 0 starts where the game allows)."""
    return _prepared(game, specs, options).new_state(index, seed)


class _Prepared:
    """What every game of one run shares, made once per process: the game, the bot
    makers and the game's configuration function (options checked once)."""

    __slots__ = (
        "configs", "fixed_kingdom", "g", "makers", "max_turns", "name", "native", "specs",
        "starts",
    )  # fmt: skip

    def __init__(
        self, game: str, specs: Sequence[str], options: Mapping[str, Any], max_turns: int = 0
    ) -> None:
        g = get_game(game)
        opts = dict(options)
        if g.supports_first_player:
            # Seat 0 starts; with the rotation every bot starts equally often.
            opts["first_player"] = 0
        self.name = game
        self.g = g
        self.configs = g.configs(len(specs), opts)
        self.makers = _makers(game, specs)
        self.specs = tuple(specs)
        self.fixed_kingdom = game == "dominion" and _fixed_kingdom(opts.get("kingdom"))
        self.native: dict[tuple[Any, ...], Any] = {}
        """(kingdom, seating) -> the native core's run of such games, or the reason
        it cannot play them (:mod:`kingdoms.bots.dominion.native`)."""
        self.starts = _starts(self.makers) if game == "dominion" else ()
        """Per bot, its start state (a Dominion strategy's ``start``), when any has one."""
        self.max_turns = max_turns if game == "dominion" else 0
        """The turn cap (:data:`DEFAULT_MAX_TURNS`; 0: none; Dominion only)."""

    def new_state(self, index: int, seed: int) -> Any:
        config = self.configs(game_seed(seed, index))
        if self.starts:
            # each bot's start state goes to the seat it has in this game
            opts = dict(config.options)
            opts["start"] = [self.starts[b] for b in seating(index, len(self.specs))]
            config = self.g.config(config.players, config.seed, opts)
        return self.g.create(config)


def _starts(makers: Sequence[Callable[[], Bot]]) -> tuple[Any, ...]:
    """Per bot, the start state its strategy declares (None: the usual start); empty
    when no bot declares one."""
    found = [getattr(getattr(make(), "strategy", None), "start", None) for make in makers]
    return tuple(found) if any(s is not None for s in found) else ()


_PREPARED: dict[tuple[Any, ...], list[tuple[dict[str, Any], _Prepared]]] = {}


def _prepared(
    game: str, specs: Sequence[str], options: Mapping[str, Any], max_turns: int = 0
) -> _Prepared:
    """The run's :class:`_Prepared`, kept for the next games of the same run: the same
    game, bots, turn cap and options (equal, with values of the same types: ``1`` is
    not ``True`` to the options' checks)."""
    key = (game, max_turns, *specs)
    runs = _PREPARED.get(key)
    if runs is None:
        if len(_PREPARED) >= 32:
            _PREPARED.clear()
        runs = _PREPARED[key] = []
    for opts, run in runs:
        if opts == options and all(type(v) is type(options[k]) for k, v in opts.items()):
            return run
    run = _Prepared(game, specs, options, max_turns)
    del runs[:-7]  # a few option sets per bot line-up
    runs.append((copy.deepcopy(dict(options)), run))  # a caller may change its lists
    return run


def play_one(
    game: str,
    specs: Sequence[str],
    index: int,
    seed: int,
    options: Mapping[str, Any],
    *,
    curves: bool = False,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> GameResult:
    """Play game ``index`` of a run and collect its result; with ``curves`` also its
    per-turn series (:attr:`GameResult.series`, else empty)."""
    run = _prepared(game, specs, options, max_turns)
    return _play_one(run, len(specs), index, seed, curves)


def _play_one(run: _Prepared, k: int, index: int, seed: int, curves: bool) -> GameResult:
    if not curves and run.name == "dominion":
        got = _native_game(run, k, index, seed)
        if got is not None:
            return got
    series: dict[str, list[list[float]]] | None = {} if curves else None
    state, seat_bot = _play(run, k, index, seed, series=series)
    return _result(run.g, state, seat_bot, index, series)


def native_reason(
    game: str, specs: Sequence[str], options: Mapping[str, Any], index: int = 0, seed: int = 0
) -> str | None:
    """Why game ``index`` of a run does not run on the native Dominion core (None: it
    does; see :mod:`kingdoms.bots.dominion.native`)."""
    if game != "dominion":
        return f"{game} has no native core"
    run = _prepared(game, specs, options)
    got = _native_run(run, len(specs), index, seed)
    return got if isinstance(got, str) else None


def _native_run(run: _Prepared, k: int, index: int, seed: int) -> Any:
    """``(native run, options, seat -> bot, piles)`` for game ``index`` (its kingdom
    and seating), or why the native core cannot play it (a string)."""
    if run.starts:
        return "a bot's start state (the native core deals the usual start)"
    seat_bot = seating(index, k)
    fixed = run.native.get(("fixed", *seat_bot))  # a fixed kingdom: the same every game
    if fixed is not None:
        return fixed
    from kingdoms.bots.dominion import native

    if not native.available():
        return "the native core is not built (or KINGDOMS_NATIVE=0)"
    opts = run.configs(game_seed(seed, index)).options
    key = (tuple(opts["kingdom"]), bool(opts.get("alchemy_errata")), *seat_bot)
    found = run.native.get(key)
    if found is None:
        from kingdoms.dominion.state import _setup

        piles, supply = _setup(opts["kingdom"], k)
        makers = run.makers
        try:
            bots = [makers[b]() for b in seat_bot]
            found = (native.native_run(piles, supply, bots, opts), opts, seat_bot, piles)
        except native.NotNative as err:
            found = str(err)
        if len(run.native) >= 64:
            run.native.clear()
        run.native[key] = found
        if run.fixed_kingdom:
            run.native[("fixed", *seat_bot)] = found
    return found


def _native_game(run: _Prepared, k: int, index: int, seed: int) -> GameResult | None:
    """Game ``index`` played on the native core: the result the engine's game gives
    (the same game: see :mod:`kingdoms.bots.dominion.native`); None when the native
    core cannot play it."""
    got = _native_run(run, k, index, seed)
    if isinstance(got, str):
        return None
    native_run, opts, seat_bot, piles = got
    first = opts.get("first_player")
    if not isinstance(first, int):
        return None  # the engine draws who starts (and says who did)
    from kingdoms.bots.dominion.native import play_seeded

    played = play_seeded(native_run, k, game_seed(seed, index), first, DEFAULT_MAX_STEPS)
    if played is None:
        return None  # the engine plays it (and says it did not end)
    from kingdoms.dominion.game import ending
    from kingdoms.dominion.rules import winners

    vp, turns, ended_by, supply, _ = played
    if run.max_turns and turns[first] > run.max_turns:
        # it reached the cap: the engine replays it and stops there (the same game
        # up to that point; a game that never passed the cap never met it)
        return None
    win = winners(vp, turns)
    scores = [0.0] * k
    for s, v in enumerate(vp):
        scores[seat_bot[s]] = float(v)
    summary = {
        "turns": float(max(turns)),
        "three_pile_ending": ended_by == "piles",
        "ending": ending(ended_by, piles, supply),
        "kingdom": tuple(opts.get("kingdom", ())),
    }
    return GameResult(
        index,
        (seat_bot[win[0]],) if len(win) == 1 else tuple(sorted(seat_bot[s] for s in win)),
        tuple(scores),
        seat_bot[first],
        summary,
        {},
    )


def _fixed_kingdom(value: Any) -> bool:
    from kingdoms.dominion.kingdom import fixed_kingdom

    return fixed_kingdom(value)


def _makers(game: str, specs: Sequence[str]) -> list[Callable[[], Bot]]:
    """Per bot spec, the function making its bots (a fresh bot for every game)."""
    return [_maker(game, spec) for spec in specs]


@functools.lru_cache(maxsize=256)
def _maker(game: str, spec: str) -> Callable[[], Bot]:
    # looked up once per process: strategy files are still read through their
    # bot package's own cache, which sees when a file changes
    return bot_factory(game, spec, files=True)


def play_state(
    game: str,
    specs: Sequence[str],
    index: int,
    seed: int,
    options: Mapping[str, Any],
    *,
    log: bool = False,
    series: dict[str, list[list[float]]] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> tuple[Any, list[int]]:
    run = _prepared(game, specs, options, max_turns)
    return _play(run, len(specs), index, seed, log, series)


def _play(
    run: _Prepared,
    k: int,
    index: int,
    seed: int,
    log: bool = False,
    series: dict[str, list[list[float]]] | None = None,
) -> tuple[Any, list[int]]:
    seat_bot = seating(index, k)
    makers = run.makers
    bots = [makers[b]() for b in seat_bot]
    state = run.new_state(index, seed)
    state.logging = log
    rngs = seat_rngs(state.config.seed, k)
    tracker = tracker_for(run.name, state) if series is not None else None
    if series is None or tracker is None:
        _loop(state, bots, rngs, run.max_turns)
    else:
        _tracked_loop(state, bots, rngs, tracker, run.max_turns)
        series.update(tracker.series())
    return state, seat_bot


def _capped(state: Any, max_turns: int) -> bool:
    """Whether a Dominion game stops at the turn cap: its first player has taken more
    than ``max_turns`` turns (0: no cap)."""
    return max_turns > 0 and state.turns[state.first] > max_turns


def _loop(
    state: Any, bots: Sequence[Bot], rngs: Sequence[random.Random], max_turns: int = 0
) -> None:
    """One game: the engine and the bots, nothing else (the bots' own loop when they
    have one: :func:`~kingdoms.core.runner.joint_loop`), to its end or the turn cap."""
    if max_turns:
        from kingdoms.bots.dominion.bots import StrategyBot, _play_game

        seats = [b for b in bots if type(b) is StrategyBot]
        if len(seats) == len(bots):  # the strategy bots' loop, which watches the cap
            _play_game(state, seats, rngs, DEFAULT_MAX_STEPS, max_turns)
            return
    else:
        loop = joint_loop(bots)
        if loop is not None and loop(state, bots, rngs, DEFAULT_MAX_STEPS):
            return
    reads = [bot_reader(bot) for bot in bots]
    acts = [bot.act for bot in bots]
    legal = state.legal_actions
    apply = state.apply
    for _ in range(DEFAULT_MAX_STEPS):
        player = state.current_player
        if player < 0 or (max_turns and _capped(state, max_turns)):
            return
        apply(acts[player](reads[player](state, player), legal(), rngs[player]))
    raise IllegalAction(f"game did not end within {DEFAULT_MAX_STEPS} actions")


def _tracked_loop(
    state: Any,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random],
    tracker: Tracker,
    max_turns: int = 0,
) -> None:
    """:func:`_loop` with the per-turn tracker watching every action."""
    for _ in range(DEFAULT_MAX_STEPS):
        player = state.current_player
        if player < 0 or (max_turns and _capped(state, max_turns)):
            return
        bot = bots[player]
        action = bot.act(bot_input(bot, state, player), state.legal_actions(), rngs[player])
        tracker.before(state)
        state.apply(action)
        tracker.after(state)
    raise IllegalAction(f"game did not end within {DEFAULT_MAX_STEPS} actions")


def state_result(
    game: str,
    state: Any,
    seat_bot: Sequence[int],
    index: int,
    series: Mapping[str, list[list[float]]] | None,
) -> GameResult:
    return _result(get_game(game), state, seat_bot, index, series)


def _result(
    g: Game,
    state: Any,
    seat_bot: Sequence[int],
    index: int,
    series: Mapping[str, list[list[float]]] | None,
) -> GameResult:
    outcome = state.outcome()
    capped = False
    if outcome is None:
        outcome = _capped_outcome(state)
        capped = True
    k = len(seat_bot)
    scores = [0.0] * k
    for seat, score in enumerate(outcome.scores):
        scores[seat_bot[seat]] = float(score)
    by_bot: dict[str, tuple[tuple[float, ...], ...]] = {}
    if series:
        for metric, rows in series.items():
            per_bot: list[tuple[float, ...]] = [()] * k
            for seat, row in enumerate(rows):
                per_bot[seat_bot[seat]] = tuple(row)
            by_bot[metric] = tuple(per_bot)
    summary = dict(g.summarize(state))
    if capped:
        summary["ending"] = "turn limit"
        summary["capped"] = True
    if "categories" in summary:  # per seat -> per bot
        per_seat = summary["categories"]
        summary["categories"] = tuple(per_seat[seat_bot.index(b)] for b in range(k))
    first_seat = outcome.details.get("first_player")
    winners = outcome.winners
    return GameResult(
        index,
        (seat_bot[winners[0]],)
        if len(winners) == 1
        else tuple(sorted(seat_bot[s] for s in winners)),
        tuple(scores),
        seat_bot[first_seat] if isinstance(first_seat, int) else None,
        summary,
        by_bot,
    )


def _capped_outcome(state: Any) -> Any:
    """The outcome of a Dominion game stopped at the turn cap: scored as it stands,
    by the usual rule (most VP, then fewer turns; still tied: shared)."""
    from kingdoms.dominion.state import DominionState

    if not isinstance(state, DominionState):  # pragma: no cover - the loops finish others
        raise InvalidConfig("game did not finish")
    from kingdoms.core.state import Outcome
    from kingdoms.dominion.rules import winners

    vp = state.vp()
    return Outcome(
        scores=tuple(float(v) for v in vp),
        winners=winners(vp, state.turns),
        details={"turns": list(state.turns), "vp": vp, "first_player": state.first},
    )


def play_batch(
    game: str,
    specs: Sequence[str],
    indices: Sequence[int],
    seed: int,
    options: Mapping[str, Any],
    curves: bool = False,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> list[GameResult]:
    """Games ``indices`` of a run, in one process (what a worker or a Ray task runs);
    ``curves``: with their per-turn series; ``max_turns``: the turn cap (0: none)."""
    run = _prepared(game, specs, options, max_turns)
    return [_play_one(run, len(specs), i, seed, curves) for i in indices]


def batches(games: int, size: int) -> list[list[int]]:
    """Consecutive game indices in batches of ``size`` (the last may be shorter)."""
    return [list(range(i, min(games, i + size))) for i in range(0, games, size)]


@dataclass(slots=True)
class SimReport:
    game: str
    bots: list[str]
    games: int
    score_name: str
    results: list[GameResult] = field(repr=False)
    seconds: float
    requested: int = 0
    """Games asked for (more than :attr:`games` when stopped early)."""
    curves_recorded: bool = False
    """Whether the games carry their per-turn series (``simulate(curves=True)``)."""
    seed: int = 0
    specs: list[str] = field(default_factory=list)
    """The bot specs (:attr:`bots` are their labels: a strategy file's ``name``)."""
    setup: dict[str, Any] = field(default_factory=dict)
    """What the games were played on (:func:`kingdoms.sim.setup.describe_setup`)."""
    notes: list[str] = field(default_factory=list)
    """Warnings (bots naming cards the kingdoms lacked)."""
    max_turns: int = 0
    """The turn cap the games were played with (0: none; Dominion only)."""

    @property
    def capped(self) -> int:
        """Games stopped at the turn cap (scored as they stood)."""
        return sum(1 for r in self.results if r.summary.get("capped"))

    def capped_wins(self) -> list[int]:
        """Per bot, its outright wins among the games stopped at the turn cap."""
        out = [0] * len(self.bots)
        for r in self.results:
            if r.summary.get("capped") and len(r.winners) == 1:
                out[r.winners[0]] += 1
        return out

    @property
    def wins(self) -> list[int]:
        out = [0] * len(self.bots)
        for r in self.results:
            if len(r.winners) == 1:
                out[r.winners[0]] += 1
        return out

    @property
    def ties(self) -> int:
        return sum(1 for r in self.results if len(r.winners) > 1)

    @property
    def first_seat_wins(self) -> int:
        return sum(1 for r in self.results if r.first is not None and r.winners == (r.first,))

    @property
    def shared(self) -> list[int]:
        """Per bot, the games it won together with another bot."""
        out = [0] * len(self.bots)
        for r in self.results:
            if len(r.winners) > 1:
                for b in r.winners:
                    out[b] += 1
        return out

    def points(self) -> list[float]:
        """Per bot, wins + ½ shared wins (:func:`score_points`)."""
        return [score_points(self.results, b) for b in range(len(self.bots))]

    def score_rates(self) -> list[float]:
        """Per bot, its score: (wins + ½ shared wins) / games."""
        return [p / self.games if self.games else 0.0 for p in self.points()]

    def score_intervals(self, z: float = 1.959964) -> list[tuple[float, float]]:
        """Per bot, the Wilson interval of its score (95 % by default)."""
        return [wilson_interval(p, self.games, z) for p in self.points()]

    def mean_scores(self) -> list[float]:
        return [mean([r.scores[b] for r in self.results]) for b in range(len(self.bots))]

    def margins(self, b: int) -> list[float]:
        """Bot ``b``'s score minus the best other bot's, per game."""
        return [
            r.scores[b] - max(s for j, s in enumerate(r.scores) if j != b) for r in self.results
        ]

    def mean_margins(self) -> list[float]:
        return [mean(self.margins(b)) for b in range(len(self.bots))]

    def win_intervals(self) -> list[tuple[float, float]]:
        return [wilson_interval(w, self.games) for w in self.wins]

    def curves(self) -> dict[str, list[list[float]]]:
        """Metric -> per bot, the mean value at the end of its turn 1, 2, … over the
        games that reached that turn."""
        return {
            metric: [[m for m, _, _, _ in row] for row in self.curve_bands(metric, cut=0.0)]
            for metric in METRICS.get(self.game, {})
        }

    def curve_bands(
        self, metric: str, cut: float = 0.05
    ) -> list[list[tuple[float, float, float, int]]]:
        """Per bot, per turn (round): ``(mean, lo, hi, games)`` of ``metric``, with a
        95 % interval of the mean (normal approximation) over the ``games`` still
        running at that turn; cut where fewer than ``cut`` of the games remain."""
        out: list[list[tuple[float, float, float, int]]] = []
        for b in range(len(self.bots)):
            sums: list[float] = []
            squares: list[float] = []
            counts: list[int] = []
            for r in self.results:
                rows = r.series.get(metric)
                if not rows:
                    continue
                for t, v in enumerate(rows[b]):
                    if t == len(sums):
                        sums.append(0.0)
                        squares.append(0.0)
                        counts.append(0)
                    sums[t] += v
                    squares[t] += v * v
                    counts[t] += 1
            row: list[tuple[float, float, float, int]] = []
            for s, q, n in zip(sums, squares, counts, strict=True):
                if n < cut * self.games:
                    break
                m = s / n
                sd = math.sqrt(max(0.0, q / n - m * m) * n / (n - 1)) if n > 1 else 0.0
                half = 1.959964 * sd / math.sqrt(n)
                row.append((m, m - half, m + half, n))
            out.append(row)
        return out

    def ending_piles(self) -> dict[str, int]:
        """How the games ended: ending -> games ("Provinces", or the piles emptied for a
        three-pile ending, e.g. "Curse + Estate + Village"); empty when not recorded."""
        out: dict[str, int] = {}
        for r in self.results:
            ending = r.summary.get("ending")
            if ending:
                out[str(ending)] = out.get(str(ending), 0) + 1
        return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))

    def categories(self) -> dict[str, list[float]]:
        """Where the bots' points come from (Kingdomino: each terrain, bonuses, and
        the crowns held): category -> per bot, its mean per game; empty when the
        game does not record them."""
        out: dict[str, list[float]] = {}
        for r in self.results:
            for b, cats in enumerate(r.summary.get("categories", ())):
                for name, value in cats.items():
                    out.setdefault(name, [0.0] * len(self.bots))[b] += value / self.games
        return out

    def length_distribution(self) -> dict[int, int]:
        """Game length (Dominion: turns of the longest-playing seat; Kingdomino: rounds)
        -> number of games."""
        out: dict[int, int] = {}
        for r in self.results:
            length = r.summary.get("turns")
            if length is None:
                rows = next(iter(r.series.values()), ())
                length = max((len(row) for row in rows), default=0)
            out[int(length)] = out.get(int(length), 0) + 1
        return dict(sorted(out.items()))

    def pile_endings(self) -> int | None:
        if not any("three_pile_ending" in r.summary for r in self.results):
            return None
        return sum(1 for r in self.results if r.summary.get("three_pile_ending"))

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "setup": dict(self.setup),
            "bots": list(self.bots),
            "specs": list(self.specs or self.bots),
            "wins": self.wins,
            "win_rate_ci95": [[round(lo, 4), round(hi, 4)] for lo, hi in self.win_intervals()],
            "ties": self.ties,
            "shared_wins": self.shared,
            "score": [round(x, 4) for x in self.score_rates()],
            "score_ci95": [[round(lo, 4), round(hi, 4)] for lo, hi in self.score_intervals()],
            "first_seat_wins": self.first_seat_wins,
            f"mean_{self.score_name}": [round(x, 3) for x in self.mean_scores()],
            "mean_margin": [round(x, 3) for x in self.mean_margins()],
        }
        if self.requested and self.requested != self.games:
            out["requested"] = self.requested
        if self.game == "dominion":
            out["max_turns"] = self.max_turns
            out["capped_games"] = self.capped
        turns = [r.summary["turns"] for r in self.results if "turns" in r.summary]
        if turns:
            out["mean_turns"] = round(mean([float(t) for t in turns]), 3)
        piles = self.pile_endings()
        if piles is not None:
            out["three_pile_endings"] = piles
            out["pile_ending_share"] = round(piles / self.games, 4)
        out["length_unit"] = UNIT.get(self.game, "turn")
        out["length_distribution"] = {str(k): v for k, v in self.length_distribution().items()}
        if self.curves_recorded:
            out["per_turn"] = {
                metric: [[round(v, 3) for v in row] for row in rows]
                for metric, rows in self.curves().items()
            }
        if self.notes:
            out["notes"] = list(self.notes)
        out["seconds"] = round(self.seconds, 3)
        out["games_per_second"] = round(self.games_per_second, 2)
        return out


StopRule = Callable[[Sequence[GameResult]], bool]


def default_batch(games: int, workers: int) -> int:
    """Games per batch: small enough for a smooth progress bar and early stopping,
    large enough that a batch costs far more than sending it to a worker."""
    return max(1, min(25, games // max(1, workers * 4) or 1))


def simulate(
    game: str,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    *,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    stop: StopRule | None = None,
    batch: int | None = None,
    backend: str = "local",
    address: str | None = None,
    curves: bool = False,
    first: int = 0,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> SimReport:
    """Play ``games`` games of ``game`` between ``bots`` (bot specs) and report.

    The games are those of index ``first`` to ``first + games - 1`` of the run of
    ``seed`` (a run can be extended with more games: the same games as one longer run).

    ``workers`` > 1 runs batches in that many processes (``backend="local"``);
    ``backend="ray"`` runs them as Ray tasks (``address``: a cluster, else a local
    Ray instance).  ``progress(n)`` is called with the number of games finished
    since the last call; ``stop(results)``, asked after every batch with the games
    so far in index order, ends the run early when it returns True.  ``curves``
    also records every game's per-turn series (:meth:`SimReport.curves`); without
    it a game is the engine and the bots only.  ``max_turns``: a Dominion game stops
    once its first player has taken more turns than that and is scored as it stands
    (:data:`DEFAULT_MAX_TURNS`; 0: no cap; :attr:`SimReport.capped` counts them)."""
    from kingdoms.sim.backends import run_batches

    g = get_game(game)
    if games < 1:
        raise InvalidConfig("the number of games must be at least 1")
    check_max_turns(max_turns)
    g.check_players(len(bots))
    for spec in bots:  # fail fast on unknown bots or bad parameters
        make_bot(game, spec, files=True)
    opts = dict(options or {})
    g.config(len(bots), seed, opts)  # validate options once, up front
    size = batch or default_batch(games, workers)
    start = time.perf_counter()
    results: list[GameResult] = []
    chunks = [[first + i for i in chunk] for chunk in batches(games, size)]
    stream = run_batches(
        game, list(bots), chunks, seed, opts, workers, backend, address, curves, max_turns
    )
    with contextlib.closing(stream):  # stopping early cancels the batches not started
        for chunk in stream:
            if progress:
                progress(len(chunk))
            results.extend(chunk)
            if stop is not None and stop(results):
                break
    seconds = time.perf_counter() - start
    from kingdoms.sim.setup import card_notes, describe_setup, labels

    names = labels(game, bots)
    setup = describe_setup(game, opts, len(bots))
    kingdoms = [r.summary.get("kingdom", ()) for r in results]
    return SimReport(
        game=game,
        bots=names,
        seed=seed,
        specs=list(bots),
        setup=setup,
        notes=card_notes(game, bots, names, setup, kingdoms),
        games=len(results),
        score_name=g.score_name,
        results=results,
        seconds=seconds,
        requested=games,
        curves_recorded=curves,
        max_turns=max_turns if game == "dominion" else 0,
    )


def default_workers() -> int:
    return max(1, (os.cpu_count() or 1))
