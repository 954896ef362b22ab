"""Both games as OpenSpiel Python games: ``python_kingdoms_dominion`` and
``python_kingdoms_kingdomino``, registered with ``pyspiel.register_game`` when this
module is imported (needs the ``openspiel`` extra: ``pip install 'kingdoms[openspiel]'``).

>>> import pyspiel
>>> import kingdoms.rl.openspiel  # registers the games
>>> game = pyspiel.load_game("python_kingdoms_kingdomino", {"players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node()  # the deal: which seed the engine's generator starts from
True

The model, as OpenSpiel sees it:

* **Chance**: one explicit chance node starts every game — the *deal*, a seed drawn
  uniformly from ``0 … 2**16 - 1`` (``max_chance_outcomes``).  The engine's random
  generator starts from it, so every later shuffle, draw and domino line follows
  from it and from the actions: those draws are *sampled inside the engine*, not
  exposed as chance nodes of their own (the engine draws them in the middle of a
  card's effect, where OpenSpiel has no node).  No player observes the seed, so the
  game stays one of imperfect information; ``resample_from_infostate`` (or
  :func:`resampler` for OpenSpiel's Python IS-MCTS) gives a state that the player
  cannot tell from this one (the engine's ``determinize``: hidden cards reshuffled,
  the generator replaced).
* **Actions** are the engine's integer actions (468 for Dominion, 778 for
  Kingdomino; :mod:`kingdoms.rl.dominion`, :mod:`kingdoms.rl.kingdomino`).
* **Returns** at the end only: +1 outright win, 0 shared win, -1 loss (general sum
  with 3+ players).  A Dominion game longer than ``max_game_length`` actions (10,000;
  a game parameter) ends there with returns 0.
* **Observation tensor**: the float32 form of the environment's observation vector
  (:mod:`kingdoms.rl.dominion_obs`, :mod:`kingdoms.rl.kingdomino_obs`): only what
  the seat may see.  The **information-state tensor** is the same vector (it is not
  a perfect-recall encoding: the seat's past observations are summarised, not
  listed); the **information-state string** is perfect recall: the
  seat, what it saw happen — for Kingdomino the actions so far (all public; with the
  view they name every line drawn), for Dominion the seat's log as that seat saw it
  (its own draws included, others' hidden cards not) — and its view now.
* **Observation string**: the seat's view (``state.view(seat)``) as JSON.
* **Serialization**: OpenSpiel's own (the actions, the deal first), replayed by
  ``game.deserialize_state``.

Parameters: ``players``; Dominion: ``kingdom`` (a recommended set's name, or ten
card ids joined by ``+``; default "First Game"), ``max_game_length``;
Kingdomino: ``variants`` (joined by ``+``: ``harmony+middle-kingdom``).  (``+``, not
commas: OpenSpiel writes the parameters into the game's name, between commas.)
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from kingdoms.core.registry import get_game
from kingdoms.core.state import TERMINAL, State
from kingdoms.rl.dominion_obs import DominionEncoder
from kingdoms.rl.kingdomino_obs import KingdominoEncoder

DEALS = 2**16
"""Chance outcomes of the deal: the seeds the engine's generator may start from."""

DOMINION = "python_kingdoms_dominion"
KINGDOMINO = "python_kingdoms_kingdomino"


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
        self.engine = get_game(self.name)
        self.options = self.engine_options(params)
        # validate now: bad parameters fail at load_game
        config = self.engine.config(self.players, 0, self.options)
        self.actions = self.engine.num_distinct_actions(config)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.actions,
            max_chance_outcomes=DEALS,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=self.game_length(params),
        )
        super().__init__(game_type, info, params)

    def engine_options(self, params: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def game_length(self, params: dict[str, Any]) -> int:
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
        return Observer(self.encoder(), perfect_recall=recall)


class DominionGame(KingdomsGame):
    name = "dominion"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(DOMINION_TYPE, params or {})

    def engine_options(self, params: dict[str, Any]) -> dict[str, Any]:
        kingdom = str(params.get("kingdom", "First Game"))
        return {"kingdom": kingdom.split("+") if "+" in kingdom else kingdom}

    def game_length(self, params: dict[str, Any]) -> int:
        self.max_length = int(params.get("max_game_length", 10_000))
        return self.max_length + 1  # the deal

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
        # per domino one pick and one placement (a Dynasty: three games), and the deal
        games = 3 if "dynasty" in self.options["variants"] else 1
        self.max_length = games * 2 * 48 + 8
        return self.max_length + 1

    def encoder(self) -> Any:
        return KingdominoEncoder(self.players)


@dataclass(frozen=True)
class Spec:
    """What a state needs of its game."""

    name: str
    players: int
    options: dict[str, Any]
    max_length: int

    def __deepcopy__(self, memo: dict[int, Any]) -> Spec:
        return self  # never changed


class KingdomsState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the deal (a chance node), then the engine's state."""

    def __init__(self, game: KingdomsGame) -> None:
        super().__init__(game)
        # the game's settings, not the game (OpenSpiel clones states with deepcopy)
        self.spec = Spec(game.name, game.players, game.options, game.max_length)
        self.engine: State | None = None
        self.truncated = False

    # -- the flow ----------------------------------------------------------------------
    def current_player(self) -> int:
        if self.engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.truncated:
            return int(pyspiel.PlayerId.TERMINAL)
        player = self.engine.current_player
        return int(pyspiel.PlayerId.TERMINAL) if player == TERMINAL else player

    def is_terminal(self) -> bool:
        return self.current_player() == int(pyspiel.PlayerId.TERMINAL)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.engine is None
        p = 1.0 / DEALS
        return [(seed, p) for seed in range(DEALS)]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None
        return sorted(self.engine.legal_actions())

    def _apply_action(self, action: int) -> None:
        spec = self.spec
        if self.engine is None:
            engine = get_game(spec.name)
            self.engine = engine.create(engine.config(spec.players, int(action), spec.options))
            self.engine.logging = spec.name == "dominion"  # the info-state string reads the log
            return
        self.engine.apply(int(action))
        if self.engine.step >= spec.max_length and not self.engine.is_terminal():
            self.truncated = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return f"deal {action}"
        if self.engine is None:
            return str(action)
        try:
            return self.engine.action_to_str(int(action))
        except Exception:  # an action of another state (OpenSpiel prints histories)
            return str(action)

    def returns(self) -> list[float]:
        if self.engine is None or self.truncated:
            return [0.0] * self.spec.players
        return [float(r) for r in self.engine.returns()]

    def resample_from_infostate(self, player: int, sampler: Any = None) -> KingdomsState:
        """A state ``player`` cannot tell from this one (the engine's determinize)."""
        seed = random.getrandbits(48) if sampler is None else int(sampler() * 2**48)
        return self.resampled(player, random.Random(seed))

    def resampled(self, player: int, rng: random.Random) -> KingdomsState:
        new: KingdomsState = self.clone()
        if self.engine is not None:
            new.engine = self.engine.determinize(player, rng)
        return new

    def __str__(self) -> str:
        if self.engine is None:
            return "deal pending"
        return json.dumps(self.engine.snapshot(), sort_keys=True)


class Observer:
    """OpenSpiel's Python observer: ``tensor`` (the observation vector as float32),
    ``dict`` and the strings (see the module docstring)."""

    def __init__(self, encoder: Any, perfect_recall: bool) -> None:
        self.encoder = encoder
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: KingdomsState, player: int) -> None:
        if state.engine is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = self.encoder.encode(state.engine, player)

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
    {"players": 2, "kingdom": "First Game", "max_game_length": 10_000},
)
KINGDOMINO_TYPE = _game_type(
    KINGDOMINO, "Kingdomino (kingdoms)", 2, 4, {"players": 2, "variants": ""}
)

pyspiel.register_game(DOMINION_TYPE, DominionGame)
pyspiel.register_game(KINGDOMINO_TYPE, KingdominoGame)
