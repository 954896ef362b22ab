"""The State contract every game implements and every front end uses.

Modelled on OpenSpiel: one object holds a whole game, including its seeded
random number generator, its decision stack and its log.  Actions are small
integers (fast to generate, hash and store; a fixed action space for
reinforcement learning); :meth:`State.action_to_str` and
:meth:`State.parse_action` give their text form.
"""

from __future__ import annotations

import abc
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from kingdoms.core.errors import IllegalAction, ParseError
from kingdoms.core.events import Event, events_for
from kingdoms.core.lazy import LazyDetails as LazyDetails

if TYPE_CHECKING:
    from kingdoms.core.record import GameRecord

Action = int
"""An action is a non-negative integer; its meaning depends on the game."""

TERMINAL: Final = -1
"""``current_player`` of a finished game."""

JSONDict = dict[str, Any]


def copy_rng(rng: random.Random) -> random.Random:
    """An independent generator in the same state as ``rng`` (without seeding one
    first, which costs more than the copy)."""
    new = random.Random.__new__(random.Random)
    new.setstate(rng.getstate())
    return new


@mypyc_attr(native_class=False)  # a plain class: it pickles for worker processes
@dataclass(frozen=True, slots=True)
class GameConfig:
    """Everything that, with the list of actions, determines a game."""

    game: str
    players: int
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSONDict:
        return {
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
        }


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game.

    ``scores`` has one number per seat; ``winners`` the seats that won after
    the game's tie-breaks (several seats: a shared win); ``details`` holds
    game-specific facts (score breakdowns, turns taken, how the game ended).
    """

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def shared(self) -> bool:
        return len(self.winners) > 1

    def returns(self) -> list[float]:
        """Per-seat reward for learning: +1 outright win, 0 shared win, -1 loss."""
        if len(self.winners) == 1:
            return [1.0 if p in self.winners else -1.0 for p in range(len(self.scores))]
        return [0.0 if p in self.winners else -1.0 for p in range(len(self.scores))]

    def to_json(self) -> JSONDict:
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "details": dict(self.details),
        }


@mypyc_attr(allow_interpreted_subclasses=True)
class State(abc.ABC):
    """One game in progress.

    Subclasses implement the abstract methods; :meth:`apply` records the
    action in :attr:`history` so that :meth:`record` can replay the game.

    The contract:

    * ``current_player`` is the seat that must decide now, or ``TERMINAL``.
    * ``legal_actions()`` is the only source of legality, in a canonical order.
    * ``apply(a)`` is fast and trusts ``a``; ``apply_checked(a)`` raises
      :class:`IllegalAction` and leaves the state unchanged.
    * ``clone()`` is an independent copy; ``view(p)`` is what seat ``p`` may
      see, as plain JSON data; ``determinize(p, rng)`` is a full state that
      ``p`` cannot tell apart from this one.
    """

    __slots__ = ("config", "history", "log", "logging", "rng")

    game_name: ClassVar[str] = ""

    config: GameConfig
    history: list[Action]
    log: list[Event]
    logging: bool
    rng: random.Random

    def _init_core(self, config: GameConfig, rng: random.Random | None = None) -> bool:
        """Set the core fields; True when ``rng`` is given (a copy's): then the
        constructor makes only an empty shell that ``clone`` fills (copies go
        through the constructor: compiled classes have no bare ``__new__``)."""
        self.config = config
        self.history = []
        self.log = []
        self.logging = True
        self.rng = random.Random(config.seed) if rng is None else rng
        return rng is not None

    def _snapshot_core(self) -> JSONDict:
        """The start of a snapshot: the config and the random generator's state."""
        st = self.rng.getstate()
        return {"config": self.config.to_json(), "rng": [st[0], list(st[1]), st[2]]}

    def _copy_core(self, other: State) -> None:
        """Copy the core fields of ``other`` into this (new) state."""
        self.config = other.config
        self.history = other.history.copy()
        self.log = other.log.copy()
        self.logging = other.logging
        self.rng = copy_rng(other.rng)

    # -- the contract ---------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.config.players

    @property
    @abc.abstractmethod
    def current_player(self) -> int:
        """The seat to act, or ``TERMINAL``."""

    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    @property
    def step(self) -> int:
        """Number of actions applied so far (a fresh state is step 0)."""
        return len(self.history)

    @abc.abstractmethod
    def legal_actions(self) -> list[Action]:
        """Legal actions of ``current_player`` in canonical order ([] when terminal)."""

    def legal_actions_mask(self, size: int) -> bytearray:
        """The legal actions as a mask (OpenSpiel's ``legal_actions_mask``): a new
        ``bytearray`` of ``size`` bytes, ``size`` being the game's number of distinct
        actions, holding 1 at each legal action and 0 elsewhere (all 0 when terminal).
        Games may build it faster, without the list of :meth:`legal_actions`."""
        mask = bytearray(size)
        for action in self.legal_actions():
            mask[action] = 1
        return mask

    @abc.abstractmethod
    def _apply(self, action: Action) -> None:
        """Carry out a legal action (no checks)."""

    def apply(self, action: Action) -> None:
        """Carry out ``action``, trusting that it is legal (fast path for search)."""
        self._apply(action)
        self.history.append(action)

    def apply_checked(self, action: object) -> None:
        """Carry out ``action`` or raise :class:`IllegalAction` and change nothing."""
        if self.is_terminal():
            raise IllegalAction(f"the game is over; action {action!r} is not possible")
        if type(action) is not int or action not in self.legal_actions():
            raise IllegalAction(
                f"action {action!r} is not legal for player {self.current_player} now; "
                f"legal: {', '.join(self.describe_legal())}"
            )
        self.apply(action)

    def random_playout(self, rng: random.Random, max_steps: int = 100_000) -> None:
        """Play to the end (at most ``max_steps`` actions), each action drawn uniformly
        from the legal ones as ``legal[int(rng.random() * len(legal))]`` (games may do it
        faster, with the same result)."""
        for _ in range(max_steps):
            if self.current_player == TERMINAL:
                break
            legal = self.legal_actions()
            self.apply(legal[int(rng.random() * len(legal))])

    @abc.abstractmethod
    def clone(self) -> State:
        """An independent copy (cheap: no deepcopy)."""

    @abc.abstractmethod
    def view(self, player: int) -> JSONDict:
        """What ``player`` may see, as JSON-serialisable data."""

    @abc.abstractmethod
    def determinize(self, player: int, rng: random.Random) -> State:
        """A full state consistent with ``view(player)``, hidden parts resampled."""

    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """Scores and winners once terminal, else ``None``."""

    @abc.abstractmethod
    def action_to_str(self, action: Action, lang: str = "en") -> str:
        """Text of an action in this state (in ``lang``)."""

    @abc.abstractmethod
    def snapshot(self) -> JSONDict:
        """The complete state as JSON data (hidden parts included); equal
        snapshots mean equal games.  For tests, debugging and fingerprints."""

    def event_to_str(self, event: Mapping[str, Any], lang: str = "en") -> str:
        """One line of text for a log event (as returned by :meth:`log_for`)."""
        rest = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("type", "player"))
        who = f"player {event['player'] + 1} " if "player" in event else ""
        return f"{who}{event['type']}" + (f": {rest}" if rest else "")

    def revealed_nothing(self, action: Action, after: State) -> bool:
        """Whether the step ``self`` → ``action`` → ``after`` certainly showed no seat
        anything hidden from the acting seat, known from the game's structure: the step
        read nothing that :meth:`determinize` resamples.  ``False`` means "not known
        here" and :func:`kingdoms.core.reveal.step_reveal` samples; a game must never
        answer ``True`` for a step that showed something."""
        return False

    def reads_alike(self, action: Action, after: State, sample: State) -> bool:
        """Whether ``sample``, a determinization of ``self`` for the acting seat, holds
        what ``self`` holds everywhere the step ``self`` → ``action`` → ``after`` may
        have read something hidden (``True``: not known here).  Only an order:
        :func:`kingdoms.core.reveal.step_reveal` tries the samples that differ there
        first, since a step that revealed something shows it on those; the verdict is
        the same on every order (the step is final iff some sample differs)."""
        return True

    def telling_samples(self, action: Action, after: State, rng: random.Random) -> Iterable[State]:
        """Determinizations of ``self`` for the acting seat, beside the random ones,
        that :func:`kingdoms.core.reveal.sampled_reveal` tries first: worlds the game
        knows may show something the step read, however unlikely a random
        determinization is to deal them (``[]``: none known here).  They join the
        samples, so a step is final iff one of them or of the random ones differs."""
        return []

    def check_invariants(self) -> None:  # noqa: B027 - optional hook
        """Raise :class:`InvariantViolation` if the state is inconsistent."""

    # -- conveniences built on the contract ----------------------------------------
    def parse_action(self, text: str, lang: str = "en") -> Action:
        """The legal action named by ``text``: its full text, a unique prefix of
        it (case-insensitive), or its integer code."""
        wanted = " ".join(text.split()).casefold()
        legal = self.legal_actions()
        if not wanted:
            raise ParseError("empty input: name one of the legal actions")
        names = [(a, self.action_to_str(a, lang).casefold()) for a in legal]
        exact = [a for a, n in names if n == wanted]
        if len(exact) == 1:
            return exact[0]
        if wanted.lstrip("-").isdigit() and int(wanted) in legal:
            return int(wanted)
        prefix = [a for a, n in names if n.startswith(wanted)]
        if len(prefix) == 1:
            return prefix[0]
        options = ", ".join(self.action_to_str(a, lang) for a in legal)
        if prefix:
            raise ParseError(f"{text!r} is ambiguous: it could be " + options)
        raise ParseError(f"{text!r} is not a legal action now; legal: {options}")

    def describe_legal(self, lang: str = "en") -> list[str]:
        return [self.action_to_str(a, lang) for a in self.legal_actions()]

    def fingerprint(self) -> str:
        """A canonical string of :meth:`snapshot`; equal games have equal fingerprints."""
        return json.dumps(self.snapshot(), sort_keys=True, separators=(",", ":"))

    def log_for(self, player: int | None) -> list[JSONDict]:
        """The log as ``player`` may see it (``None``: all of it)."""
        return events_for(self.log, player)

    def emit(self, event: Event) -> None:
        if self.logging:
            self.log.append(event)

    def record(self, seats: Sequence[str] = ()) -> GameRecord:
        from kingdoms.core.record import GameRecord

        return GameRecord.from_state(self, seats=seats)

    def returns(self) -> list[float]:
        out = self.outcome()
        if out is None:
            return [0.0] * self.num_players
        return out.returns()

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.config.game} players={self.config.players} "
            f"seed={self.config.seed} step={self.step} to_move={self.current_player}>"
        )
