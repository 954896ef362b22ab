"""The registered Kingdomino game (``get_game("kingdomino")``).

Options (stored in the game record):

* ``variants`` — any of ``middle-kingdom``, ``harmony``, ``dynasty``,
  ``mighty-duel`` (2 players only);
* ``middle_kingdom_rule`` — ``window`` (default: every square within the
  5×5 / 7×7 window centred on the castle) or ``bbox`` (the castle is the exact
  centre of the kingdom's bounding box).

>>> from kingdoms.core import new_game
>>> state = new_game("kingdomino", players=2, seed=1, options={"variants": ["mighty-duel"]})
>>> state.view(0)["size"], state.view(0)["undrawn"]
(7, 44)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from kingdoms.core.errors import InvalidArgument, InvalidConfig, malformed_as
from kingdoms.core.registry import BotHooks, Game, SimMetrics, WebAssets
from kingdoms.core.state import GameConfig, State
from kingdoms.kingdomino.board import canonical_placement, new_board
from kingdoms.kingdomino.state import NUM_ACTIONS, PHASES, VARIANTS, KingdominoState
from kingdoms.kingdomino.tiles import TERRAIN_NAMES, TERRAINS, TILES

OPTIONS = ("variants", "middle_kingdom_rule")
MIDDLE_RULES = ("window", "bbox")


class KingdominoGame(Game):
    name = "kingdomino"
    title = "Kingdomino"
    min_players = 2
    max_players = 4
    score_name = "score"
    bots = BotHooks(
        table="kingdoms.bots.kingdomino:BOTS",
        defaults="kingdoms.bots.kingdomino:BOT_DEFAULTS",
        playout_policy="kingdoms.bots.kingdomino:playout_policy",
        rank_actions="kingdoms.bots.kingdomino:rank_actions",
    )
    web = WebAssets(board="kingdomino", css=("css/kingdomino.css",))
    terminal = "kingdoms.cli.kingdomino:kingdomino"
    sim = SimMetrics(
        tracker="kingdoms.sim.trackers:KingdominoTracker",
        metrics={"points": "points at the end of the round"},
        unit="round",
    )

    def normalize_options(
        self, options: Mapping[str, Any], players: int, seed: int
    ) -> dict[str, Any]:
        if not isinstance(options, Mapping):
            raise InvalidConfig(f"Kingdomino options must be a mapping, not {options!r}")
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise InvalidConfig(
                f"unknown Kingdomino options {unknown}; known: {', '.join(OPTIONS)}"
            )
        raw = options.get("variants", [])
        if isinstance(raw, str):
            raw = [v.strip() for v in raw.split(",") if v.strip()]
        if not isinstance(raw, list | tuple) or not all(isinstance(v, str) for v in raw):
            raise InvalidConfig(f"variants must be a list of names, not {raw!r}")
        bad = sorted(set(raw) - set(VARIANTS))
        if bad:
            raise InvalidConfig(f"unknown Kingdomino variants {bad}; known: {', '.join(VARIANTS)}")
        variants = [v for v in VARIANTS if v in raw]
        if "mighty-duel" in variants and players != 2:
            raise InvalidConfig(f"Mighty Duel is for 2 players only, not {players}")
        rule = options.get("middle_kingdom_rule", "window")
        if rule not in MIDDLE_RULES:
            raise InvalidConfig(
                f"middle_kingdom_rule must be one of {', '.join(MIDDLE_RULES)}, not {rule!r}"
            )
        return {"variants": variants, "middle_kingdom_rule": rule}

    def configs(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> Callable[[int], GameConfig]:
        """The options are normalised once: nothing in them depends on the seed."""
        return self.configs_normalised_once(players, options)

    def create(self, config: GameConfig) -> State:
        return KingdominoState(config)

    def num_distinct_actions(self, config: GameConfig) -> int:
        return NUM_ACTIONS

    def state_from_view(self, view: Mapping[str, Any], rng: random.Random) -> State:
        """A full state matching ``view``; the undrawn dominoes are sampled from
        those nobody has seen and the kings not drawn yet are put in a random order.
        A view that is not one of Kingdomino raises :class:`InvalidArgument`."""
        return malformed_as("a Kingdomino view", lambda: self._state_from_view(view, rng))

    def _state_from_view(self, view: Mapping[str, Any], rng: random.Random) -> State:
        if not isinstance(view, Mapping) or view.get("game") != self.name:
            raise InvalidArgument("not a Kingdomino view")
        n = view.get("players")
        if type(n) is not int or not self.min_players <= n <= self.max_players:
            raise InvalidArgument(f"view field 'players' must be 2–4, not {n!r}")
        options = self.normalize_options(dict(view["options"]), n, 0)
        config = GameConfig(self.name, n, rng.randrange(2**31), options)
        st = KingdominoState(config, random.Random(0))  # an empty shell, filled below
        st.logging = False
        variants = set(options["variants"])
        st.middle = "middle-kingdom" in variants
        st.harmony = "harmony" in variants
        st.dynasty = "dynasty" in variants
        st.mighty = "mighty-duel" in variants
        st.middle_rule = options["middle_kingdom_rule"]
        st.size = int(view["size"])
        st.kings = 2 if n == 2 else 1
        st.game_no = int(view["game_no"]) - 1
        st.past = [[(r[0], r[1], r[2]) for r in g] for g in view["past_games"]]
        st.first = int(view["first_player"])
        st.boards = []
        seen: set[int] = set()
        for k in view["kingdoms"]:
            b = new_board(st.size)
            for number, given in k["placed"]:
                code = canonical_placement(TILES[number], int(given))  # a double: either form
                if code not in b.legal_placements(TILES[number]):
                    raise InvalidArgument(f"domino {number} cannot lie at {code} in that kingdom")
                b.place(TILES[number], code)
                seen.add(number)
            for number in k["discarded"]:
                b.discard(number)
                seen.add(number)
            st.boards.append(b)
        st.current = [e["domino"] for e in view["current_line"]]
        st.current_kings = [-1 if e["king"] is None else e["king"] for e in view["current_line"]]
        st.next = [e["domino"] for e in view["next_line"]]
        st.next_kings = [-1 if e["king"] is None else e["king"] for e in view["next_line"]]
        seen.update(st.current)
        seen.update(st.next)
        if view["phase"] not in PHASES:
            raise InvalidArgument(
                f"view field 'phase' must be one of {PHASES}, not {view['phase']!r}"
            )
        st.phase = PHASES.index(view["phase"])
        st.slot = int(view["line_done"])
        st.round = int(view["round"]) - 1
        st.pick_order = [int(p) for p in view["pick_order"]]
        st.pick_pos = int(view["picks_made"])
        hand = [p for p in range(n) for _ in range(st.kings)]
        for p in st.pick_order:
            hand.remove(p)
        rng.shuffle(hand)  # the kings not drawn yet, in an order nobody knows
        st.pick_order += hand
        pool = [d for d in range(1, 49) if d not in seen]
        rng.shuffle(pool)
        k = int(view["undrawn"])
        st.pile = pool[:k]
        st.aside = sorted(pool[k:])
        st.rng = random.Random(rng.random())
        st._legal = None
        return st

    def lobby_options(self) -> dict[str, Any]:
        """What a lobby offers: variants (any combination) and the Middle Kingdom rule."""
        return {
            "variants": {
                "label": "Variants",
                "type": "flags",
                "choices": [
                    ["middle-kingdom", "Middle Kingdom (+10)"],
                    ["harmony", "Harmony (+5)"],
                    ["dynasty", "Dynasty (three games)"],
                    ["mighty-duel", "Mighty Duel (2 players, 7×7)"],
                ],
            },
            "middle_kingdom_rule": {
                "label": "Middle Kingdom rule",
                "choices": [
                    ["window", "Every square within the square centred on the castle"],
                    ["bbox", "Castle in the centre of the kingdom"],
                ],
            },
        }

    def client_data(self, lang: str) -> dict[str, Any]:
        """Terrain names and the 48 dominoes for boards."""
        names = TERRAIN_NAMES.get(lang, TERRAIN_NAMES["en"])
        return {
            "terrains": {TERRAIN_NAMES["en"][i]: names[i] for i in range(len(names))},
            "dominoes": {
                str(n): [[TERRAINS[d.left[0]], d.left[1]], [TERRAINS[d.right[0]], d.right[1]]]
                for n, d in TILES.items()
            },
        }

    def action_info(self, state: State, action: int) -> dict[str, Any] | None:
        assert isinstance(state, KingdominoState)
        return state.action_info(action)

    def current_scores(self, state: State) -> list[float] | None:
        assert isinstance(state, KingdominoState)
        return [float(state.score(p)) for p in range(state.num_players)]

    def summarize(self, state: State) -> dict[str, Any]:
        assert isinstance(state, KingdominoState)
        return {
            # rounds played (a dynasty: its games, each as long as the first)
            "turns": float((state.game_no + 1) * (state.round + 1)),
            "discards": sum(len(b.discarded) for b in state.boards),
            "categories": tuple(_categories(state, p) for p in range(len(state.boards))),
        }


def _categories(state: KingdominoState, player: int) -> dict[str, int]:
    """Where a kingdom's points come from: each terrain's properties (squares ×
    crowns), the variant bonuses, and the crowns it holds."""
    board = state.boards[player]
    out = dict.fromkeys(TERRAINS, 0)
    crowns = 0
    for t, squares, c in board.properties():
        out[TERRAINS[t]] += squares * c
        crowns += c
    out.update(state.bonuses(player))
    out["crowns"] = crowns
    return out


GAME = KingdominoGame()
