"""The Dominion bots' typed observation: exactly what the seat's view shows."""

from __future__ import annotations

import random

import pytest

from kingdoms.bots import make_bot
from kingdoms.bots.dominion.adapter import (
    COSTS,
    POTION_COSTS,
    TREASURE_IDS,
    TREASURE_VALUES,
    TYPES,
    situation_observed,
)
from kingdoms.bots.dominion.observation import Observation, observe
from kingdoms.bots.dominion.strategy import Situation
from kingdoms.core import new_game
from kingdoms.core.errors import InvalidArgument, InvalidConfig
from kingdoms.core.runner import bot_input, play_out, seat_rngs
from kingdoms.dominion.data import CARDS
from kingdoms.dominion.state import DominionState

KINGDOMS = [
    "First Game",
    "random",
    ["militia", "moat", "spy", "thief", "bureaucrat", "library", "chapel", "cellar",
     "throne_room", "witch"],
    ["possession", "golem", "scrying_pool", "apothecary", "alchemist", "herbalist",
     "university", "familiar", "transmute", "philosophers_stone"],
]  # fmt: skip


def _states(seed: int, kingdom: object, players: int) -> list[DominionState]:
    """Every state of a random game (random moves, so that decisions of every kind come up)."""
    st = new_game("dominion", players=players, seed=seed, options={"kingdom": kingdom})
    assert isinstance(st, DominionState)
    st.logging = False
    rng = random.Random(seed)
    out = []
    for _ in range(1500):
        if st.is_terminal():
            break
        out.append(st.clone())
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    return out


@pytest.mark.parametrize("kingdom", KINGDOMS, ids=["first-game", "random", "attacks", "alchemy"])
def test_observation_equals_what_the_view_shows_for_every_seat(kingdom: object) -> None:
    decisions = 0
    for seed in range(3):
        players = 2 + seed % 3
        for st in _states(seed, kingdom, players):
            decisions += bool(st.stack)
            for seat in range(players):
                got = observe(st, seat)
                assert got == Observation.from_view(st.view(seat)), (seed, st.step, seat)
    assert decisions > 0


def test_observation_holds_no_hidden_card() -> None:
    """Another seat's hand or any deck order changes nothing in a seat's observation."""
    for st in _states(7, "First Game", 2)[::25]:
        before = observe(st, st.current_player)
        mixed = st.determinize(st.current_player, random.Random(1))
        assert observe(mixed, st.current_player) == before


class _ViewOnly:
    """The same bot handed the view dict (as the web and the terminal do)."""

    def __init__(self, spec: str) -> None:
        self.bot = make_bot("dominion", spec)
        self.name = self.bot.name

    def act(self, view: object, legal: list[int], rng: random.Random) -> int:
        assert isinstance(view, dict)
        return int(self.bot.act(view, legal, rng))


@pytest.mark.parametrize(
    ("kingdom", "specs"),
    [
        ("First Game", ["big-money-ultimate", "smithy"]),
        (KINGDOMS[2], ["witch", "militia"]),
        (KINGDOMS[3], ["big-money", "smithy"]),
    ],
)
def test_bots_decide_alike_from_the_observation_and_from_the_view(
    kingdom: object, specs: list[str]
) -> None:
    for seed in range(2):
        games = []
        for bots in ([make_bot("dominion", s) for s in specs], [_ViewOnly(s) for s in specs]):
            st = new_game("dominion", players=2, seed=seed, options={"kingdom": kingdom})
            st.logging = False
            play_out(st, bots, seat_rngs(seed, 2))  # type: ignore[arg-type]
            games.append(st.history)
        assert games[0] == games[1]


def test_the_runner_hands_strategy_bots_the_observation() -> None:
    st = new_game("dominion", players=2, seed=1, options={"kingdom": "First Game"})
    bot = make_bot("dominion", "big-money")
    assert isinstance(bot_input(bot, st, 0), Observation)
    assert isinstance(bot_input(make_bot("dominion", "random"), st, 0), dict)


def test_a_dominion_bot_refuses_to_observe_another_game() -> None:
    bot = make_bot("dominion", "big-money")
    with pytest.raises(InvalidConfig, match="plays Dominion"):
        bot.observe(new_game("kingdomino", players=2, seed=1), 0)  # type: ignore[attr-defined]


def test_owned_counts_are_read_during_the_decision_only() -> None:
    st = new_game("dominion", players=2, seed=4, options={"kingdom": "First Game"})
    st.logging = False
    early = observe(st, 0)  # type: ignore[arg-type]
    late = observe(st, 0)  # type: ignore[arg-type]
    assert early.owned_by(1) == {"copper": 7, "estate": 3}  # read in time: kept
    st.apply(st.legal_actions()[0])
    assert early.owned_by(1) == {"copper": 7, "estate": 3}
    with pytest.raises(InvalidArgument, match="read at step 1"):
        late.owned_by(0)  # the game moved on: no reading of a later state
    with pytest.raises(InvalidArgument, match="during the decision"):
        _ = late.supply


def test_owned_counts_list_cards_in_card_order_wherever_they_lie() -> None:
    """The order of the owned counts says nothing of which cards are in hand."""
    from kingdoms.dominion.data import BY_ID

    for st in _states(11, KINGDOMS[2], 2)[::40]:
        for seat in range(2):
            for q in range(2):
                cards = list(observe(st, seat).owned_by(q))
                assert cards == sorted(cards, key=BY_ID.__getitem__)


@pytest.mark.parametrize("kingdom", KINGDOMS[2:], ids=["attacks", "alchemy"])
def test_one_pile_read_equals_the_whole_supply(kingdom: object) -> None:
    """``left(card)`` reads one pile of the state: the same as the counted supply,
    for every card id (piles of the game or not) and for an unknown id."""
    ids = [c.id for c in CARDS] + ["no_such_card"]
    for st in _states(5, kingdom, 3)[::7]:
        obs = observe(st, st.current_player)
        counted = observe(st, st.current_player).supply
        assert [obs.left(c) for c in ids] == [counted.get(c, 0) for c in ids], st.step
        assert obs.supply == counted  # reading piles first leaves the whole supply alike


def test_a_buy_situation_reads_the_observation_only_when_asked() -> None:
    """The situation of a buy made from an observation equals one made with every
    count up front, rule by rule, and is read from the seat's observation only."""
    checked = 0
    for st in _states(3, KINGDOMS[2], 2)[::5]:
        seat = st.current_player
        lazy = situation_observed(observe(st, seat))
        viewed = situation_observed(Observation.from_view(st.view(seat)))
        full = observe(st, seat)
        eager = Situation(
            coins=full.coins,
            owned=full.owned_by(seat),
            supply=full.supply,
            costs=COSTS,
            potion_costs=POTION_COSTS,
            potions=full.potions,
            treasure_values=TREASURE_VALUES,
            treasure_ids=TREASURE_IDS,
            types=TYPES,
            buys=full.buys,
            turn=full.turns[seat] + 1,
            players=2,
            others=None,
            seat=seat,
            taken=full.turns[seat] + 1,
            observation=full,
        )
        for card in ("province", "gold", "witch", "curse", "potion", "no_such_card"):
            assert lazy.left(card) == eager.left(card) == viewed.left(card)
            assert lazy.affordable(card) == eager.affordable(card)
            assert lazy.ends_game(card) == eager.ends_game(card)
            assert lazy.loses_by_ending(card) == eager.loses_by_ending(card)
        assert (lazy.total_money(), lazy.vp(), lazy.vp_lead()) == (
            eager.total_money(),
            eager.vp(),
            eager.vp_lead(),
        )
        assert (lazy.empty_piles(), lazy.deck_size()) == (eager.empty_piles(), eager.deck_size())
        assert dict(lazy.owned) == full.owned_by(seat) and dict(lazy.supply) == full.supply
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("kingdom", KINGDOMS[1:], ids=["random", "attacks", "alchemy"])
def test_counts_read_from_the_engine_equal_the_owned_cards(kingdom: object) -> None:
    """A buy rule's ``count(X)``, ``count(Type)`` and ``total_money`` read straight
    from the engine's kept counts (no owned dict built) give what the owned cards
    give, for every card id, every type and every seat."""
    ids = [c.id for c in CARDS] + ["no_such_card"]
    kinds = [*sorted({t for c in CARDS for t in TYPES[c.id]}), "no_such_type"]
    checked = 0
    for st in _states(8, kingdom, 3)[::6]:
        seat = st.current_player
        lazy = situation_observed(observe(st, seat))
        owned = observe(st, seat).owned_by(seat)
        eager = situation_observed(observe(st, seat))
        eager._owned = owned
        assert [lazy.count(c) for c in ids] == [owned.get(c, 0) for c in ids]
        assert [lazy.count_type(k) for k in kinds] == [eager.count_type(k) for k in kinds]
        assert lazy.total_money() == eager.total_money()
        assert lazy._owned is None  # the dict was never built
        obs = observe(st, seat)
        for q in range(3):
            counted = observe(st, seat).owned_by(q)
            assert [obs.count_of(q, c) for c in ids] == [counted.get(c, 0) for c in ids]
        checked += 1
    assert checked > 10
