"""The registered Dominion game (``get_game("dominion")``)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kingdoms.core.errors import InvalidConfig
from kingdoms.core.registry import BotHooks, Game, SimMetrics, WebAssets
from kingdoms.core.state import GameConfig, State
from kingdoms.dominion import actions as A
from kingdoms.dominion.data import CARDS
from kingdoms.dominion.kingdom import (
    check_alchemy_cards,
    check_sets,
    fixed_kingdom,
    resolve_kingdom,
    set_kingdom,
)
from kingdoms.dominion.state import DominionState

OPTIONS = (
    "kingdom",
    "sets",
    "base_edition",
    "alchemy_errata",
    "alchemy_cards",
    "first_player",
    "start",
)


class DominionGame(Game):
    name = "dominion"
    title = "Dominion"
    min_players = 2
    max_players = 6
    score_name = "vp"
    supports_first_player = True
    bots = BotHooks(
        table="kingdoms.bots.dominion:BOTS",
        defaults="kingdoms.bots.dominion:BOT_DEFAULTS",
        playout_policy="kingdoms.bots.dominion:playout_policy",
        rank_actions="kingdoms.bots.dominion:rank_actions",
        obvious_action="kingdoms.bots.dominion:obvious_action",
        from_file="kingdoms.bots.dominion:bot_from_file",
        named="kingdoms.bots.dominion:bot_named",
        seat_options="kingdoms.bots.dominion:seat_options",
    )
    web = WebAssets(board="dominion", css=("css/cards.css",))
    terminal = "kingdoms.cli.dominion:dominion"
    cli_options = "kingdoms.cli.dominion_options:CLI_OPTIONS"
    sim = SimMetrics(
        tracker="kingdoms.sim.trackers:DominionTracker",
        metrics={
            "vp": "victory points",
            "money": "coins in deck (Treasures + fixed +$ of Actions)",
            "coins": "coins generated in the turn",
        },
        unit="turn",
    )

    def normalize_options(
        self, options: Mapping[str, Any], players: int, seed: int
    ) -> dict[str, Any]:
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise InvalidConfig(f"unknown Dominion options {unknown}; known: {', '.join(OPTIONS)}")
        edition = options.get("base_edition", 1)
        if edition not in (1, 2) or isinstance(edition, bool):
            raise InvalidConfig(f"base_edition must be 1 or 2, not {edition!r}")
        sets = check_sets(options.get("sets"), edition)
        errata = options.get("alchemy_errata", False)
        if not isinstance(errata, bool):
            raise InvalidConfig(f"alchemy_errata must be true or false, not {errata!r}")
        alchemy = check_alchemy_cards(options.get("alchemy_cards"))
        first = options.get("first_player")
        if first is not None and (
            not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players
        ):
            raise InvalidConfig(
                f"first_player must be a seat from 0 to {players - 1}, not {first!r}"
            )
        kingdom = set_kingdom(options.get("kingdom"))  # a set name: no generator to seed
        if kingdom is None:
            rng = random.Random(f"kingdom-{seed}")
            kingdom = resolve_kingdom(options.get("kingdom"), sets, rng, alchemy)
        out: dict[str, Any] = {
            "kingdom": kingdom,
            "sets": sets,
            "base_edition": edition,
            "alchemy_errata": errata,
        }
        if alchemy is not None:
            out["alchemy_cards"] = list(alchemy)
        if first is not None:
            out["first_player"] = first
        if options.get("start") is not None:
            from kingdoms.dominion.start import check_start
            from kingdoms.dominion.state import _setup

            start = check_start(options["start"], players, kingdom, _setup(kingdom, players)[1])
            if start is not None:
                out["start"] = start
        return out

    def configs(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> Callable[[int], GameConfig]:
        """With a fixed kingdom (a set or 10 cards) the options are normalised once:
        nothing else in them depends on the seed."""
        if not isinstance(options, Mapping) or not fixed_kingdom(options.get("kingdom")):
            return super().configs(players, options)
        return self.configs_normalised_once(players, options)

    def create(self, config: GameConfig) -> State:
        return DominionState(config)

    def num_distinct_actions(self, config: GameConfig) -> int:
        return A.NUM_ACTIONS

    def lobby_options(self) -> dict[str, Any]:
        from kingdoms.dominion.info import lobby_options

        return lobby_options()

    def client_data(self, lang: str) -> dict[str, Any]:
        from kingdoms.dominion.info import card_catalog

        return card_catalog(lang)

    def state_from_view(self, view: Mapping[str, Any], rng: random.Random) -> State:
        """A full state matching one seat's view, hidden cards sampled
        (:func:`kingdoms.dominion.rebuild.state_from_view`)."""
        from kingdoms.dominion.rebuild import state_from_view

        return state_from_view(view, rng)

    def action_info(self, state: State, action: int) -> dict[str, Any] | None:
        assert isinstance(state, DominionState)
        return state.action_info(action)

    def public_view(self, state: State) -> dict[str, Any] | None:
        assert isinstance(state, DominionState)
        return state.public_view()

    def current_scores(self, state: State) -> list[float] | None:
        assert isinstance(state, DominionState)
        return [float(x) for x in state.vp()]

    def summarize(self, state: State) -> dict[str, Any]:
        assert isinstance(state, DominionState)
        return {
            "turns": float(max(state.turns)),  # rounds: turns of the longest-playing seat
            "three_pile_ending": state.ended_by == "piles",
            "ending": _ending(state),
            "kingdom": tuple(state.config.options.get("kingdom", ())),
        }


def _ending(state: DominionState) -> str:
    """What ended the game in words: "Provinces", "Colonies" or the emptied piles."""
    return ending(state.ended_by, state.piles, state.supply)


def ending(ended_by: str, piles: Sequence[int], supply: Sequence[int]) -> str:
    """:func:`_ending` of a game that ended by ``ended_by``, with these piles left."""
    if ended_by != "piles":
        return {"provinces": "Provinces", "colonies": "Colonies"}.get(ended_by, ended_by)
    empty = sorted(CARDS[c].names["en"] for c in piles if supply[c] <= 0)
    return " + ".join(empty) or "piles"


GAME = DominionGame()
