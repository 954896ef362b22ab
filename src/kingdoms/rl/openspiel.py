"""Both games as OpenSpiel Python games: ``python_kingdoms_dominion`` and
``python_kingdoms_kingdomino``, registered with ``pyspiel.register_game`` when this
module is imported (needs the ``openspiel`` extra: ``pip install 'kingdoms[openspiel]'``).

>>> import pyspiel
>>> import kingdoms.rl.openspiel  # registers the games
>>> game = pyspiel.load_game("python_kingdoms_kingdomino", {"players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node()  # the deal
True

The model, as OpenSpiel sees it:

* **Chance** (explicit chance nodes, ``ChanceMode.EXPLICIT_STOCHASTIC``):

  - the *deal* opens every game: a seed drawn uniformly from ``0 … 2**16 - 1``
    that sets up the game (Dominion: the first player and the opening hands;
    Kingdomino: the order of the kings and the first line);
  - every later random event is a chance node of its own, **at the moment it
    happens**: a player's action that may draw a card, shuffle a discard pile or
    draw a line of dominoes (Dominion: an Action played, a decision answered, the
    last buy or the end of the Buy phase, whose Clean-up draws the next hand;
    Kingdomino: the last king's turn of a round, or the last first pick) is not
    carried out at once — the state becomes a chance node, and the chance outcome
    first *rearranges everything no seat has seen* (the part of each Dominion deck
    that came from a shuffle and was not drawn or looked at since; the undrawn and
    the set-aside dominoes), then carries the action out with a random generator
    seeded from the outcome (so a discard pile shuffled during the action is
    shuffled by the outcome too).  Cards known to be on a deck (put there by
    Bureaucrat, Sentry, Spy, Harbinger, Apothecary…) stay where they are.
    Because nobody has seen what is rearranged, the game is the same game —
    the rearrangement is the shuffle, taken at the last moment — and a copy of a
    state (OpenSpiel's ``clone``, MCTS's simulations) carries no future draw: two
    copies that take different chance outcomes draw different cards;
  - a chance node has ``chance_outcomes`` outcomes (a game parameter, default 32),
    equally likely.  A whole shuffle has too many outcomes to list (a 40-card deck),
    so this is a *sampled* form of the shuffle, which OpenSpiel's algorithms handle
    as any explicit chance node (MCTS samples an outcome, outcome-sampling MCCFR
    samples one and weights it by its probability): outcome ``k`` shuffles each
    unseen part with a small generator started from 32 bits of the state's
    generator (which no seat observes) hashed with ``k``
    (:func:`kingdoms.rl.chance.mix`), and each shuffle made during the action is made
    so too.  Each outcome on its own is a uniformly random shuffle, and different
    outcomes give different ones.  More outcomes give a finer sample.  The end of a
    Dominion turn (the last buy, the end of the Buy phase) reads only the top five
    cards of its player's deck (the Clean-up draw): its chance node shuffles only
    those five places (each a uniform draw from that deck's unseen cards); the cards
    under them are shuffled by the next chance node that may read them.

* **Actions** are the engine's integer actions (468 for Dominion, 778 for
  Kingdomino; :mod:`kingdoms.rl.dominion`, :mod:`kingdoms.rl.kingdomino`).
* **Returns** at the end only: +1 outright win, 0 shared win, -1 loss (general sum
  with 3+ players).  A Dominion game longer than ``max_game_length`` player actions
  (10,000; a game parameter) ends there with returns 0.
* **Observation tensor**: the float32 form of the environment's observation vector
  (:mod:`kingdoms.rl.dominion_obs`, :mod:`kingdoms.rl.kingdomino_obs`): only what
  the seat may see now.
* **Information-state tensor** (perfect recall): the observation tensor, then one
  number per player action of the game so far (the rest 0s, up to
  ``max_game_length``) telling what the seat perceived of it — Kingdomino: the
  action itself plus 1 (every action is public, and the picks name every domino of
  every line drawn); Dominion: for the seat's own actions the action plus 1, for
  the others' a 24-bit token (1 … 2**24, a CRC-32) of what the seat saw of that
  action: who acted and the log events of the action as that seat may see them
  (its own draws included, other seats' hidden cards not).  With its past
  observations summed up in these tokens and its own actions, two states give a
  seat the same tensor exactly when it cannot tell them apart (up to a token
  collision, a 2**-24 chance per pair of different actions).
  Play keeps no log (it costs a quarter of a Dominion step): the first information
  state asked of a Dominion state replays its game once from its OpenSpiel history
  with the engine's log on; from then on that state and its copies keep the log.
* **Information-state string** (perfect recall): the seat, what it saw happen — for
  Kingdomino the actions so far, for Dominion the seat's log as it saw it — and its
  view now; the **observation string** is the seat's view as JSON.
* **Serialization**: OpenSpiel's own (the actions and the chance outcomes),
  replayed by ``game.deserialize_state``: the same outcomes give the same game.

Parameters: ``players``; ``chance_outcomes``; Dominion: ``kingdom`` (a recommended
set's name, or ten card ids joined by ``+``; default "First Game"),
``max_game_length``; Kingdomino: ``variants`` (joined by ``+``:
``harmony+middle-kingdom``).  (``+``, not commas: OpenSpiel writes the parameters
into the game's name, between commas.)
"""

from __future__ import annotations

import json
import random
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from kingdoms.core.events import events_for
from kingdoms.core.registry import get_game
from kingdoms.core.state import State
from kingdoms.rl.chance import (
    advance,
    apply,
    chance_shuffle,
    to_move,
)
from kingdoms.rl.chance import (
    dominion_needs_chance as dominion_needs_chance,
)
from kingdoms.rl.chance import (
    kingdomino_needs_chance as kingdomino_needs_chance,
)
from kingdoms.rl.chance import (
    rearrange_unseen as rearrange_unseen,
)
from kingdoms.rl.dominion_obs import DominionEncoder
from kingdoms.rl.kingdomino_obs import KingdominoEncoder

DEALS = 2**16
"""Chance outcomes of the deal: the seeds the engine's generator may start from."""

CHANCE_OUTCOMES = 32
"""Default number of outcomes of a chance node after the deal (``chance_outcomes``)."""

DOMINION = "python_kingdoms_dominion"
KINGDOMINO = "python_kingdoms_kingdomino"

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_DEAL_OUTCOMES = [(seed, 1.0 / DEALS) for seed in range(DEALS)]
_OUTCOMES: dict[int, list[tuple[int, float]]] = {}


def _outcomes(k: int) -> list[tuple[int, float]]:
    found = _OUTCOMES.get(k)
    if found is None:
        found = _OUTCOMES[k] = [(i, 1.0 / k) for i in range(k)]
    return found


def _game_type(
    short: str, long: str, min_players: int, max_players: int, params: dict[str, Any]
) -> Any:
    return pyspiel.GameType(
        short_name=short,
        long_name=long,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class KingdomsGame(pyspiel.Game):  # type: ignore[misc]
    """A kingdoms game as an OpenSpiel game (subclassed per game below)."""

    name = ""
    max_length = 0

    def __init__(self, game_type: Any, params: dict[str, Any]) -> None:
        self.players = int(params.get("players", 2))
        self.chance = int(params.get("chance_outcomes", CHANCE_OUTCOMES))
        if not 1 <= self.chance <= DEALS:
            raise ValueError(f"chance_outcomes must be 1–{DEALS}, not {self.chance}")
        self.engine = get_game(self.name)
        self.options = self.engine_options(params)
        # validate now: bad parameters fail at load_game
        config = self.engine.config(self.players, 0, self.options)
        self.actions = self.engine.num_distinct_actions(config)
        length = self.game_length(params)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.actions,
            max_chance_outcomes=DEALS,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            # the deal, the player actions, a chance node before each
            max_game_length=2 * length + 1,
        )
        super().__init__(game_type, info, params)

    def engine_options(self, params: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def game_length(self, params: dict[str, Any]) -> int:
        """The most player actions a game has (sets ``max_length``)."""
        raise NotImplementedError

    def encoder(self) -> Any:
        raise NotImplementedError

    def new_initial_state(self) -> KingdomsState:
        return KingdomsState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.encoder(), recall, self.max_length)


class DominionGame(KingdomsGame):
    name = "dominion"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(DOMINION_TYPE, params or {})

    def engine_options(self, params: dict[str, Any]) -> dict[str, Any]:
        kingdom = str(params.get("kingdom", "First Game"))
        return {"kingdom": kingdom.split("+") if "+" in kingdom else kingdom}

    def game_length(self, params: dict[str, Any]) -> int:
        self.max_length = int(params.get("max_game_length", 10_000))
        return self.max_length

    def encoder(self) -> Any:
        return DominionEncoder(self.players)


class KingdominoGame(KingdomsGame):
    name = "kingdomino"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(KINGDOMINO_TYPE, params or {})

    def engine_options(self, params: dict[str, Any]) -> dict[str, Any]:
        variants = str(params.get("variants", ""))
        return {"variants": [v for v in variants.split("+") if v]}

    def game_length(self, params: dict[str, Any]) -> int:
        # per domino one pick and one placement (a Dynasty: three games)
        games = 3 if "dynasty" in self.options["variants"] else 1
        self.max_length = games * 2 * 48 + 8
        return self.max_length

    def encoder(self) -> Any:
        return KingdominoEncoder(self.players)


@dataclass(frozen=True)
class Spec:
    """What a state needs of its game."""

    name: str
    players: int
    options: dict[str, Any]
    max_length: int
    chance: int

    def __deepcopy__(self, memo: dict[int, Any]) -> Spec:
        return self  # never changed


# -- what a chance node rearranges, and which actions need one ----------------------------
class _Recorder(random.Random):
    """The engine's generator while an action runs after a chance node: shuffles with
    ``inner`` (the state's own generator, left in the engine afterwards) as the chance
    outcome does (:func:`kingdoms.rl.chance.chance_shuffle`), and notes the discard
    piles shuffled, in their new order (a subclass: the engine's shuffle hands it the
    list, see :mod:`kingdoms.dominion.shuffle`).  One is made and lent to each action in turn."""

    def __init__(self) -> None:
        super().__init__(0)
        self.inner = random.Random(0)
        self.turn = 0
        self.discards: list[list[int]] = []
        self.shuffled: list[tuple[int, list[int]]] = []

    def shuffle(self, x: Any, *args: Any) -> None:
        chance_shuffle(x, self.inner, self.turn)
        for p, pile in enumerate(self.discards):
            if pile is x:
                self.shuffled.append((p, list(x)))

    def random(self) -> float:
        return self.inner.random()

    def getrandbits(self, k: int) -> int:
        return self.inner.getrandbits(k)


_RECORDER = _Recorder()


class KingdomsState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the deal, then the engine's state, with a chance node
    before each action that may reveal something nobody has seen."""

    def __init__(self, game: KingdomsGame) -> None:
        super().__init__(game)
        # the game's settings, not the game (OpenSpiel clones states with deepcopy)
        self.spec = Spec(game.name, game.players, game.options, game.max_length, game.chance)
        self.engine: State | None = None
        self.pending = -1
        """The player action waiting for its chance node (-1: none)."""
        self.truncated = False
        self.fresh: list[int] | None = None
        """Dominion: per deck, how many cards at its bottom nobody has seen."""
        self.marks: list[tuple[int, int, int]] = []
        """Dominion, once ``recording``: per player action, (seat, action, length of
        the log before it)."""
        self.recording = False
        """Dominion: whether the engine keeps its log (and ``marks`` are kept).  Off
        until an information state is asked for (play without the log is faster);
        then the game is replayed once from its history with the log on, and stays so
        (copies too)."""
        self.to_move = _CHANCE

    # -- the flow ----------------------------------------------------------------------
    def current_player(self) -> int:
        return self.to_move

    def _moved(self) -> None:
        """Note who moves now (OpenSpiel asks several times a step)."""
        self.to_move = to_move(self)

    def is_terminal(self) -> bool:
        return self.to_move == _TERMINAL

    # (read directly by Python callers, not through pyspiel's C++ state and back)
    def is_chance_node(self) -> bool:
        return self.to_move == _CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        """OpenSpiel's ``legal_actions``, as pyspiel answers it (at a chance node the
        chance outcomes, whichever player is asked; none for a player not to move),
        without the round trip through pyspiel."""
        to_move = self.to_move
        if to_move == _CHANCE:
            return list(range(len(self.chance_outcomes())))
        if to_move < 0 or (player is not None and player != to_move):
            return []
        assert self.engine is not None
        return sorted(self.engine.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.engine is None:
            return _DEAL_OUTCOMES
        assert self.pending >= 0
        return _outcomes(self.spec.chance)

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None
        return sorted(self.engine.legal_actions())

    def _apply_action(self, action: int) -> None:
        if self.engine is None:
            self._deal(action)
            self._moved()
        else:  # the step and the chance nodes, compiled (kingdoms.rl.chance)
            apply(self, action, _RECORDER)

    def _step(self, action: int) -> None:
        if self.engine is None:
            self._deal(action)
        else:
            advance(self, action, _RECORDER)

    def _deal(self, action: int) -> None:
        spec = self.spec
        game = get_game(spec.name)
        engine = self.engine = game.create(game.config(spec.players, int(action), spec.options))
        if spec.name == "dominion":
            engine.logging = self.recording  # the information state reads the log
            self.fresh = [len(d) for d in engine.decks]  # type: ignore[attr-defined]
        else:
            engine.logging = False

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"deal {action}" if self.engine is None else f"chance outcome {action}"
        if self.engine is None:
            return str(action)
        try:
            return self.engine.action_to_str(int(action))
        except Exception:  # an action of another state (OpenSpiel prints histories)
            return str(action)

    def returns(self) -> list[float]:
        if self.engine is None or self.truncated or self.pending >= 0:
            return [0.0] * self.spec.players
        return [float(r) for r in self.engine.returns()]

    def resample_from_infostate(self, player: int, sampler: Any = None) -> KingdomsState:
        """A state ``player`` cannot tell from this one (the engine's determinize)."""
        seed = random.getrandbits(48) if sampler is None else int(sampler() * 2**48)
        return self.resampled(player, random.Random(seed))

    def recorded(self) -> State | None:
        """The engine state, with its log (Dominion: the first call replays the game
        from its OpenSpiel history with the log on; see ``recording``)."""
        if self.fresh is not None and not self.recording:
            replay = KingdomsState(self.get_game())
            replay.recording = True
            for action in self.history():
                replay._step(action)
            assert replay.pending == self.pending and replay.truncated == self.truncated
            self.engine, self.fresh, self.marks = replay.engine, replay.fresh, replay.marks
            self.recording = True
        return self.engine

    def resampled(self, player: int, rng: random.Random) -> KingdomsState:
        self.recorded()  # (the copy's log is the log of the game it came from)
        new: KingdomsState = self.clone()
        engine = self.engine
        if engine is not None:
            new.engine = det = engine.determinize(player, rng)
            new._moved()
            if new.fresh is not None:
                # determinize deals the hidden cards again: nobody has seen the decks
                new.fresh = [len(d) for d in det.decks]  # type: ignore[attr-defined]
        return new

    def __str__(self) -> str:
        if self.engine is None:
            return "deal pending"
        text = json.dumps(self.engine.snapshot(), sort_keys=True)
        return text if self.pending < 0 else f"{text} pending {self.pending}"


def state_from_engine(game: KingdomsGame, engine: State) -> KingdomsState:
    """An OpenSpiel state of ``game`` around the engine state ``engine`` (a position
    reached outside OpenSpiel, e.g. a bot's determinization): its OpenSpiel history is
    empty, and every unseen card counts as unseen (Dominion: the decks' order)."""
    state = game.new_initial_state()
    state.engine = engine
    if game.name == "dominion":
        state.fresh = [len(d) for d in engine.decks]  # type: ignore[attr-defined]
        state.recording = True  # (no history to replay: the log as the engine keeps it)
    state._moved()
    return state


def dominion_tokens(state: KingdomsState, player: int) -> list[int]:
    """Per player action of the game so far, what ``player`` perceived of it (see the
    module docstring): its own action + 1, or a 24-bit token of who acted and the
    log events of that action as ``player`` may see them."""
    engine = state.recorded()
    assert engine is not None
    log = engine.log
    marks = state.marks
    out: list[int] = []
    for i, (seat, action, start) in enumerate(marks):
        if seat == player:
            out.append(action + 1)
            continue
        end = marks[i + 1][2] if i + 1 < len(marks) else len(log)
        seen = events_for(log[start:end], player)
        text = json.dumps([seat, seen], sort_keys=True, separators=(",", ":"))
        out.append((zlib.crc32(text.encode()) & 0xFFFFFF) + 1)
    return out


class Observer:
    """OpenSpiel's Python observer: ``tensor`` (the observation vector as float32,
    and with perfect recall the seat's history after it), ``dict`` and the strings
    (see the module docstring)."""

    def __init__(self, encoder: Any, perfect_recall: bool, max_length: int) -> None:
        self.encoder = encoder
        self.native: Any = getattr(encoder, "native", None)
        self.perfect_recall = perfect_recall
        self.size = encoder.size
        history = max_length if perfect_recall else 0
        self.tensor = np.zeros(encoder.size + history, np.float32)
        self.observation = self.tensor[: encoder.size]
        self.dict = {"observation": self.observation}
        if perfect_recall:
            self.dict["history"] = self.tensor[encoder.size :]

    def set_from(self, state: KingdomsState, player: int) -> None:
        engine = state.engine
        tensor = self.tensor
        if engine is None:
            tensor.fill(0)
            return
        size = self.size
        native = self.native
        if native is not None:  # written by the C encoder as floats, no array made
            native.fill(engine, player, tensor)
        else:
            self.observation[:] = self.encoder.encode(engine, player)
        if not self.perfect_recall:
            return
        tensor[size:] = 0
        if state.fresh is None:
            past = np.asarray(engine.history, np.float32) + 1
        else:
            past = np.asarray(dominion_tokens(state, player), np.float32)
        tensor[size : size + len(past)] = past

    def string_from(self, state: KingdomsState, player: int) -> str:
        engine = state.engine
        if engine is None:
            return f"p{player} deal pending"
        view = json.dumps(engine.view(player), sort_keys=True, separators=(",", ":"))
        if not self.perfect_recall:
            return view
        if state.spec.name == "kingdomino":
            # every action is public, and every domino of every line is picked: the
            # actions and the view now tell every line drawn so far
            past = " ".join(map(str, engine.history))
        else:
            engine = state.recorded()
            assert engine is not None
            past = json.dumps(engine.log_for(player), sort_keys=True, separators=(",", ":"))
        return f"p{player} {past} {view}"


def resampler(seed: int = 0) -> Callable[[KingdomsState, int], KingdomsState]:
    """A resampling callback for OpenSpiel's Python IS-MCTS
    (``ISMCTSBot.set_resampler``): the engine's determinize, from its own seeded
    generator."""
    rng = random.Random(seed)

    def resample(state: KingdomsState, player: int) -> KingdomsState:
        return state.resampled(player, rng)

    return resample


DOMINION_TYPE = _game_type(
    DOMINION,
    "Dominion (kingdoms)",
    2,
    6,
    {
        "players": 2,
        "kingdom": "First Game",
        "max_game_length": 10_000,
        "chance_outcomes": CHANCE_OUTCOMES,
    },
)
KINGDOMINO_TYPE = _game_type(
    KINGDOMINO,
    "Kingdomino (kingdoms)",
    2,
    4,
    {"players": 2, "variants": "", "chance_outcomes": CHANCE_OUTCOMES},
)

pyspiel.register_game(DOMINION_TYPE, DominionGame)
pyspiel.register_game(KINGDOMINO_TYPE, KingdominoGame)
