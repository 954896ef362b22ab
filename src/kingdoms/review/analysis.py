"""The analysis of one decision and of a whole finished game.

For a decision of seat ``p`` at step ``i`` of a game, the state after the first ``i``
actions is turned into what ``p`` saw (``state.view(p)``) and rebuilt from that view
only (``Game.state_from_view``), exactly as the search bot ``mcts`` does: nothing the
seat could not know reaches the analysis.  Each *sample* then draws one
determinization of the hidden parts for ``p`` and plays every candidate move from it
to the end with the review's player (:mod:`kingdoms.review.player`: Dominion's
``best:strong``, its plan and whole rollouts) — the same random numbers for every
candidate (common random numbers), so the differences between the moves are measured
on the same deals and the standard error of a loss is that of the paired differences.

Candidates are the move made and the player's best-ranked moves (the game's
``rank_actions``, in Dominion with ``best``'s plan's move first; the ``width`` first);
without a ranker every legal move.  A move is
*trivial* and skipped when it was the only legal one, or the move the game names as
not worth searching (``obvious_action``: Dominion's "play all Treasures").

The winning chance before the decision is the mean reward of the best candidate (1 a
sole win, 0.5 a shared one, 0 a loss); the loss of the move made is the best mean minus
its mean, *flagged* only when it is at least :data:`MIN_LOSS` and more than
:data:`Z_FLAG` standard errors: a mistake is reported only when the search is sure of it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from kingdoms.bots.base import game_bot_hook
from kingdoms.bots.mcts import game_ranker, rewards
from kingdoms.core.errors import InvalidConfig
from kingdoms.core.registry import get_game
from kingdoms.core.state import State
from kingdoms.i18n import LANGUAGES
from kingdoms.review.player import Ranker, review_defaults, review_player

DEFAULT_ITERATIONS = 100
"""Samples per decision by default (each plays every candidate once): a count, not a
time, so a review flags the same moves on every machine and build.  With the
game's review width (Dominion: 3) it keeps ``bench/review_precision.py``'s precision
above 78 %; more samples flag smaller losses, and more of them fall on
``big-money-ultimate``'s own debatable late buys (see ``docs/review.md``)."""
DEFAULT_GAME_SECONDS = 12.0
"""CPU seconds the analyses of a whole game may take at most by default, shared evenly
by its decisions (finding the decisions and starting comes on top: a 2-player Dominion
game's review stays within 15 CPU seconds even where the sample count would take
longer; at :data:`DEFAULT_ITERATIONS` it takes about 2)."""
MIN_ITERATIONS = 16
"""A time budget never stops a decision before this many samples, and fewer never flag
a mistake (their standard error means little)."""
Z_FLAG = 4.0
"""A loss is flagged only above this many standard errors (a game's review makes some
150 comparisons: at 3, one flag in five on ``bench/review_precision.py`` fell on a
debatable move of the strong seat, at 4 one in eight)."""
MIN_LOSS = 0.04
"""…and only when it costs at least this much winning chance."""
MAX_PLAYOUT_STEPS = 100_000

FORMAT = "kingdoms-review"
VERSION = 1


@dataclass(frozen=True, slots=True)
class Budget:
    """How much search a review may spend.

    ``iterations``: samples per decision; ``seconds``: CPU seconds per decision (the
    samples stop when either runs out); ``game_seconds``: CPU seconds for the whole game,
    shared evenly by its decisions (``None``: no limit); ``width``: the best-ranked
    moves searched besides the move made (``None``: the game's default for ``mcts``,
    0: every legal move)."""

    iterations: int = DEFAULT_ITERATIONS
    seconds: float | None = None
    game_seconds: float | None = DEFAULT_GAME_SECONDS
    width: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.iterations, bool) or not isinstance(self.iterations, int):
            raise InvalidConfig(f"iterations must be an integer, not {self.iterations!r}")
        if self.iterations < 1:
            raise InvalidConfig(f"iterations must be at least 1, not {self.iterations}")
        for name in ("seconds", "game_seconds"):
            value = getattr(self, name)
            if value is not None and not (isinstance(value, int | float) and value > 0):
                raise InvalidConfig(f"{name} must be a positive number, not {value!r}")
        if self.width is not None and (not isinstance(self.width, int) or self.width < 0):
            raise InvalidConfig(f"width must be a non-negative integer, not {self.width!r}")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``"300"`` (iterations), ``"2s"`` (CPU seconds per decision), or
        ``key=value`` pairs: ``iterations=300,seconds=2,game=120,width=4``."""
        text = text.strip()
        if not text:
            raise InvalidConfig("empty budget")
        if "=" not in text:
            try:
                if text.endswith("s"):
                    return cls(seconds=float(text[:-1]), iterations=10**9)
                return cls(iterations=int(text))
            except ValueError:
                raise InvalidConfig(
                    f"bad budget {text!r}: use a number of iterations (300), CPU seconds "
                    "per decision (2s) or key=value pairs (iterations=300,game=120)"
                ) from None
        values: dict[str, Any] = {}
        names = {"iterations": "iterations", "seconds": "seconds", "game": "game_seconds",
                 "game_seconds": "game_seconds", "width": "width"}  # fmt: skip
        for part in text.split(","):
            key, _, value = part.partition("=")
            key = key.strip()
            if key not in names:
                raise InvalidConfig(
                    f"unknown budget key {key!r}; use iterations, seconds, game or width"
                )
            try:
                number: float = float(value)
            except ValueError:
                raise InvalidConfig(f"budget {key} must be a number, not {value!r}") from None
            values[names[key]] = int(number) if key in ("iterations", "width") else number
        if "iterations" not in values and ("seconds" in values or "game_seconds" in values):
            values["iterations"] = 10**9
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class Candidate:
    action: int
    text: dict[str, str]
    win: float
    """Mean reward of the seat after this move."""


@dataclass(slots=True)
class Decision:
    """The analysis of one decision."""

    step: int
    """Index of the action in the record (the position is the game after ``step`` actions)."""
    seat: int
    turn: int | None
    """The seat's turn (Dominion) or the round (Kingdomino), for people."""
    legal: int
    chosen: int
    chosen_text: dict[str, str]
    best: int
    best_text: dict[str, str]
    win: float
    """Estimated winning chance of the seat before the decision (best move's mean)."""
    win_se: float
    loss: float
    """Winning chance the move made lost against the best candidate (>= 0)."""
    loss_se: float
    iterations: int
    flagged: bool
    cpu_seconds: float
    candidates: list[Candidate] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Decision:
        fields = dict(data)
        fields["candidates"] = [Candidate(**c) for c in data.get("candidates", [])]
        return cls(**fields)


def texts(state: State, action: int) -> dict[str, str]:
    """The action's text in every language."""
    return {lang: state.action_to_str(action, lang) for lang in LANGUAGES}


def turn_of(view: Mapping[str, Any], seat: int) -> int | None:
    """The seat's turn (counted from 1: Dominion) or the game's round (Kingdomino)."""
    seats = view.get("players")
    if isinstance(seats, list) and seat < len(seats) and isinstance(seats[seat], Mapping):
        turns = seats[seat].get("turns")
        if isinstance(turns, int):
            return turns + 1  # counts the turns taken: this is the next one
    value = view.get("round")
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


def _finish(state: State, finish: Any, rng: random.Random, seat: int) -> float:
    finish(state, rng)
    out = state.outcome()
    if out is None:
        return 0.5
    return rewards(out.scores, out.winners, "win")[seat]


def _review_defaults(game: str) -> dict[str, Any]:
    """The game's settings for reviews (:func:`kingdoms.review.player.review_defaults`)."""
    return review_defaults(game)


def default_width(game: str) -> int:
    width = _review_defaults(game).get("width")
    return int(width) if isinstance(width, int) else 0


def default_playout(game: str) -> str:
    return str(_review_defaults(game).get("playout", "random"))


def candidates_for(
    base: State, legal: list[int], chosen: int, width: int, ranker: Ranker | None = None
) -> list[int] | None:
    """The moves to compare (the move made last), or None when the decision is trivial.
    ``base`` is the state rebuilt from the deciding seat's view; ``ranker``: the
    review player's ranking (default: the game's ``rank_actions``)."""
    if len(legal) <= 1:
        return None
    game = base.config.game
    obvious = game_bot_hook(game, "obvious_action")
    if callable(obvious):
        forced = obvious(base, legal)
        if forced is not None:
            if int(forced) == chosen:
                return None
            return [int(forced), chosen]
    if ranker is None:
        ranker = game_ranker(game)
    ranked = ranker(base, legal) if ranker is not None else list(legal)
    if width > 0:
        ranked = ranked[:width]
    out = [a for a in ranked if a != chosen]
    if not out:
        return None
    return [*out, chosen]


def analyse_position(
    state: State,
    chosen: int,
    budget: Budget | None = None,
    seed: int = 0,
    seconds: float | None = None,
    playout: str | None = None,
) -> Decision | None:
    """The analysis of the decision ``state.current_player`` took with ``chosen`` in
    ``state`` (None: a trivial decision).  ``seconds``: a CPU limit for this decision
    (else ``budget.seconds``)."""
    started = time.process_time()
    budget = budget or Budget()
    seat = state.current_player
    if seat < 0:
        raise InvalidConfig("the game is over: there is no decision to analyse")
    legal = state.legal_actions()
    if chosen not in legal:
        raise InvalidConfig(f"action {chosen} is not legal at step {state.step}")
    game = get_game(state.config.game)
    rng = random.Random(f"review {state.config.seed} {state.step} {seed}")
    view = state.view(seat)
    base = game.state_from_view(view, rng)  # only what the seat could see
    base.logging = False
    width = budget.width if budget.width is not None else default_width(game.name)
    player = review_player(game.name, playout)
    # the player's preparation (Dominion: the seat's plan search, once a game) is not
    # part of this decision's time limit, so the samples do not depend on the order
    # in which a game's decisions are analysed
    evaluator = player.evaluator(state, seat, seed, budget.iterations)
    cands = candidates_for(base, legal, chosen, width, evaluator.rank)
    if cands is None:
        return None
    finish = evaluator.finish
    limit = seconds if seconds is not None else budget.seconds
    deadline = time.process_time() + limit if limit is not None else None
    k = len(cands)
    results: list[list[float]] = [[] for _ in range(k)]
    done = 0
    while done < budget.iterations and (
        deadline is None or done < MIN_ITERATIONS or time.process_time() < deadline
    ):
        det = base.determinize(seat, rng)
        det.logging = False
        roll = rng.getrandbits(64)
        for j, action in enumerate(cands):
            sim = det.clone()
            sim.apply(action)
            results[j].append(_finish(sim, finish, random.Random(roll), seat))
        done += 1
    means = [sum(r) / done for r in results]
    c = k - 1  # the move made
    best = max(range(k), key=lambda j: (means[j], j == c))
    diffs = [a - b for a, b in zip(results[best], results[c], strict=True)]
    loss = means[best] - means[c]
    loss_se = _se(diffs)
    win_se = _se(results[best])
    flagged = best != c and done >= MIN_ITERATIONS and loss >= MIN_LOSS and loss > Z_FLAG * loss_se
    return Decision(
        step=state.step,
        seat=seat,
        turn=turn_of(view, seat),
        legal=len(legal),
        chosen=chosen,
        chosen_text=texts(state, chosen),
        best=cands[best],
        best_text=texts(state, cands[best]),
        win=round(means[best], 4),
        win_se=round(win_se, 4),
        loss=round(loss, 4),
        loss_se=round(loss_se, 4),
        iterations=done,
        flagged=flagged,
        cpu_seconds=round(time.process_time() - started, 3),
        candidates=[
            Candidate(a, texts(state, a), round(m, 4)) for a, m in zip(cands, means, strict=True)
        ],
    )


def _se(values: Sequence[float]) -> float:
    n = len(values)
    if n < 2:
        return 1.0
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return math.sqrt(var / n)
