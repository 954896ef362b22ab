"""Dominion bots: buy rules, the default policy, and whole games with the engine."""

from __future__ import annotations

import pytest

from kingdoms.bots.dominion import BOTS
from kingdoms.bots.dominion.bots import bundled_bot
from kingdoms.bots.dominion.bundled import bundled_strategy
from kingdoms.bots.dominion.strategy import Situation, pick_card, yes_no

BIG_MONEY = bundled_strategy("big-money")
BIG_MONEY_ULTIMATE = bundled_strategy("big-money-ultimate")
SMITHY_BM = bundled_strategy("smithy")
WITCH_BM = bundled_strategy("witch")


def _engine() -> None:
    pytest.importorskip("kingdoms.dominion.game", reason="Dominion engine not present")


START = {"copper": 7, "estate": 3}
FULL2 = {
    "copper": 46,
    "silver": 40,
    "gold": 30,
    "estate": 8,
    "duchy": 8,
    "province": 8,
    "curse": 10,
    "smithy": 10,
    "witch": 10,
}


def sit(coins: int, owned: dict[str, int] | None = None, **supply: int) -> Situation:
    return Situation(coins=coins, owned=owned or dict(START), supply={**FULL2, **supply})


# -- buy rules ----------------------------------------------------------------------


def test_big_money_buys_only_money_and_provinces() -> None:
    assert BIG_MONEY.choose(sit(8)) == "province"
    assert BIG_MONEY.choose(sit(7)) == "gold"
    assert BIG_MONEY.choose(sit(5)) == "silver"
    assert BIG_MONEY.choose(sit(2)) is None
    assert BIG_MONEY.choose(sit(8, province=1, duchy=0)) == "province"
    assert BIG_MONEY.choose(sit(5, province=1)) == "silver"
    assert BIG_MONEY.wanted() == {"province", "gold", "silver"}


def test_big_money_skips_empty_piles() -> None:
    assert BIG_MONEY.choose(sit(9, province=0)) == "gold"
    assert BIG_MONEY.choose(sit(9, province=0, gold=0)) == "silver"


def test_big_money_ultimate_rules() -> None:
    rich = {"copper": 7, "silver": 4, "gold": 2, "estate": 3}  # 7 + 8 + 6 = 21 > 18
    poor = {"copper": 7, "silver": 3, "gold": 1, "estate": 3}  # 7 + 6 + 3 = 16
    assert BIG_MONEY_ULTIMATE.choose(sit(8, rich)) == "province"
    assert BIG_MONEY_ULTIMATE.choose(sit(8, poor)) == "gold"
    assert BIG_MONEY_ULTIMATE.choose(sit(8, poor, province=4)) == "duchy"
    assert BIG_MONEY_ULTIMATE.choose(sit(5, poor, province=4)) == "duchy"
    assert BIG_MONEY_ULTIMATE.choose(sit(2, poor, province=2)) == "estate"
    assert BIG_MONEY_ULTIMATE.choose(sit(2, poor, province=3)) is None
    assert BIG_MONEY_ULTIMATE.choose(sit(6, poor, province=6)) == "gold"
    assert BIG_MONEY_ULTIMATE.choose(sit(5, poor, province=6)) == "duchy"
    assert BIG_MONEY_ULTIMATE.choose(sit(5, poor, province=7)) == "silver"
    assert BIG_MONEY_ULTIMATE.choose(sit(4, poor, province=2)) == "estate"


def test_smithy_rules() -> None:
    owned = {"copper": 7, "estate": 3}  # 7 treasures: 7/11 > 0 smithies -> buy one
    assert SMITHY_BM.choose(sit(4, owned)) == "smithy"
    owned1 = {"copper": 7, "estate": 3, "smithy": 1}
    assert SMITHY_BM.choose(sit(4, owned1)) == "silver"
    many = {"copper": 7, "silver": 8, "gold": 8, "smithy": 2}  # 23 treasures: 23/11 > 2
    assert SMITHY_BM.choose(sit(4, many)) == "smithy"
    assert SMITHY_BM.choose(sit(8, many)) == "province"  # 7 + 16 + 24 > 15
    assert SMITHY_BM.choose(sit(8, owned1)) == "gold"  # 7 <= 15
    assert SMITHY_BM.choose(sit(5, owned1, province=6)) == "duchy"
    assert SMITHY_BM.choose(sit(3, owned1, province=2)) == "estate"
    assert SMITHY_BM.play_cards == ("smithy",)


def test_witch_rules() -> None:
    assert WITCH_BM.choose(sit(5)) == "witch"
    one = {**START, "witch": 1}
    assert WITCH_BM.choose(sit(5, one)) == "witch"
    two = {**START, "witch": 2}
    assert WITCH_BM.choose(sit(5, two)) == "silver"
    assert WITCH_BM.choose(sit(6, one)) == "gold"
    assert WITCH_BM.choose(sit(8, two)) == "gold"  # no Gold owned yet
    assert WITCH_BM.choose(sit(8, {**two, "gold": 1})) == "province"
    assert WITCH_BM.choose(sit(5, two, province=5)) == "duchy"
    assert WITCH_BM.choose(sit(2, two, province=2)) == "estate"
    assert WITCH_BM.choose(sit(5, two, witch=0)) == "silver"


# -- default policy -----------------------------------------------------------------


DEFAULT = bundled_bot("default")


def _pick(purpose: str, cards: list[str], optional: bool = False, **kw: object) -> str | None:
    """What the default strategy picks among ``cards`` for ``purpose``."""
    s = Situation(coins=0, owned=kw.pop("owned", dict(START)), supply=FULL2, **kw)  # type: ignore[arg-type]
    i = pick_card(DEFAULT._chain(purpose), s, cards, optional)
    return cards[i] if i >= 0 else "done" if i == -2 else None


def _yes(purpose: str, card: str, about_me: bool = True) -> bool:
    s = Situation(coins=0, owned=dict(START), supply=FULL2)
    s.card, s.about_me = card, about_me
    return yes_no(DEFAULT._chain(purpose), s) == 1


def test_policy_militia_discards_victory_then_cheapest() -> None:
    assert _pick("militia.discard", ["gold", "copper", "silver"]) == "copper"
    assert _pick("militia.discard", ["gold", "copper", "silver", "province"]) == "province"
    assert _pick("militia.discard", ["gold", "silver", "smithy"]) == "silver"


def test_policy_moat_reveals_and_cellar_discards_victory_only() -> None:
    assert _yes("moat.reveal", "moat")
    assert _pick("cellar.discard", ["copper", "estate"], optional=True) == "estate"
    assert _pick("cellar.discard", ["copper"], optional=True) == "done"


def test_policy_chapel_and_gains() -> None:
    rich = {"copper": 3, "silver": 1, "estate": 3}
    assert _pick("chapel.trash", ["silver", "estate"], optional=True, owned=rich) == "estate"
    assert _pick("chapel.trash", ["silver"], optional=True, owned=rich) == "done"
    # Copper only while total money is above 6
    assert _pick("chapel.trash", ["copper"], optional=True, owned=rich) == "done"
    assert _pick("chapel.trash", ["copper"], optional=True, owned={"copper": 7}) == "copper"
    assert _pick("workshop.gain", ["silver", "curse", "estate"]) == "silver"
    assert _pick("mine.trash", ["copper", "silver"]) == "silver"


def test_policy_spy_discards_own_junk_and_others_good_cards() -> None:
    assert not _yes("spy.discard", "gold", about_me=True)
    assert _yes("spy.discard", "estate", about_me=True)
    assert _yes("spy.discard", "gold", about_me=False)
    assert not _yes("spy.discard", "estate", about_me=False)


def test_registry_names() -> None:
    _engine()
    assert set(BOTS) >= {"big-money", "big-money-ultimate", "smithy", "witch"}
    import importlib

    for name, target in BOTS.items():
        module, _, attr = target.partition(":")
        factory = getattr(importlib.import_module(module), attr)
        assert factory().name == name


# -- with the engine ----------------------------------------------------------------


# -- with the engine ----------------------------------------------------------------

BOT_NAMES = ("big-money", "big-money-ultimate", "smithy", "witch")


def _money(owned: dict[str, int]) -> int:
    return owned.get("copper", 0) + 2 * owned.get("silver", 0) + 3 * owned.get("gold", 0)


def _expected_buy(name: str, view: dict[str, object]) -> str | None:
    """The buy rules written out again, straight over the view (a reference)."""
    coins = int(view["coins"])  # type: ignore[call-overload]
    supply = {p["card"]: p["count"] for p in view["supply"]}  # type: ignore[attr-defined]
    costs = {p["card"]: p["cost"][0] for p in view["supply"]}  # type: ignore[attr-defined]
    owned = view["players"][view["player"]]["owned"]  # type: ignore[index]
    prov = supply["province"]
    treasures = sum(n for c, n in owned.items() if c in ("copper", "silver", "gold", "potion"))
    rules: list[tuple[str, bool]]
    if name == "big-money":
        rules = [("province", True), ("gold", True), ("silver", True)]
    elif name == "big-money-ultimate":
        rules = [
            ("province", _money(owned) > 18),
            ("duchy", prov <= 4),
            ("estate", prov <= 2),
            ("gold", True),
            ("duchy", prov <= 6),
            ("silver", True),
        ]
    elif name == "smithy":
        rules = [
            ("province", _money(owned) > 15),
            ("duchy", prov <= 4),
            ("estate", prov <= 2),
            ("gold", True),
            ("duchy", prov <= 6),
            ("smithy", owned.get("smithy", 0) < treasures / 11),
            ("silver", True),
        ]
    else:
        rules = [
            ("province", owned.get("gold", 0) > 0),
            ("duchy", prov <= 5),
            ("estate", prov <= 2),
            ("witch", owned.get("witch", 0) < 1),
            ("gold", True),
            ("witch", owned.get("witch", 0) < 2),
            ("silver", True),
        ]
    for card, ok in rules:
        if ok and supply.get(card, 0) > 0 and costs[card] <= coins:
            if _ends_game_behind(card, view, supply):
                continue  # every bot skips a buy that ends the game while behind
            return card
    return None


def _ends_game_behind(card: str, view: dict[str, object], supply: dict[str, int]) -> bool:
    vp = {"estate": 1, "duchy": 3, "province": 6, "curse": -1}
    if supply[card] != 1:
        return False
    empty = sum(1 for n in supply.values() if n == 0)
    if card != "province" and empty + 1 < 3:
        return False
    players = view["players"]  # type: ignore[index]
    me = view["player"]
    mine = sum(vp.get(c, 0) * n for c, n in players[me]["owned"].items()) + vp.get(card, 0)  # type: ignore[index]
    turns = players[me]["turns"] + 1  # type: ignore[index]
    for q, entry in enumerate(players):  # type: ignore[arg-type]
        if q == me:
            continue
        theirs = sum(vp.get(c, 0) * n for c, n in entry["owned"].items())
        if theirs > mine or (theirs == mine and turns > entry["turns"]):
            return True
    return False


@pytest.mark.parametrize("name", BOT_NAMES)
def test_buys_follow_the_rules_in_seeded_games(name: str) -> None:
    _engine()
    from kingdoms.bots import make_bot
    from kingdoms.core import new_game
    from kingdoms.core.runner import seat_rngs
    from kingdoms.dominion import actions as A
    from kingdoms.dominion.data import CARDS

    bot = make_bot("dominion", name)
    checked = 0
    for seed in range(6):
        state = new_game("dominion", 2, seed, {"kingdom": "First Game"})
        if name == "witch":
            state = new_game("dominion", 2, seed, {"kingdom": "Size Distortion"})
        rngs = seat_rngs(seed, 2)
        while not state.is_terminal():
            p = state.current_player
            legal = state.legal_actions()
            view = state.view(p)
            action = bot.act(view, legal, rngs[p])
            assert action in legal
            if view["decision"] is None and view["phase"] == "buy":
                kind, card = A.decode(action)
                if kind == A.BUY:
                    assert CARDS[card].id == _expected_buy(name, view), (seed, view["coins"])
                    checked += 1
                elif A.A_ALL_TREASURES not in legal:
                    assert action == A.A_END_PHASE
                    assert _expected_buy(name, view) is None
            if view["decision"] is None and view["phase"] == "action":
                kind, card = A.decode(action)
                assert kind == A.PLAY, "bots play an Action whenever they can"
            state.apply_checked(action)
    assert checked > 50


@pytest.mark.parametrize("name", BOT_NAMES)
def test_every_bot_finishes_random_kingdoms(name: str) -> None:
    _engine()
    from kingdoms.bots import make_bot
    from kingdoms.core import new_game
    from kingdoms.core.runner import play_out
    from kingdoms.dominion.kingdom import SETS

    bots = [make_bot("dominion", name) for _ in range(6)]
    for seed in range(200):
        players = 2 + seed % 5
        options = {"sets": list(SETS), "base_edition": 1 + seed // 100}
        state = new_game("dominion", players, 1000 + seed, options)
        state.logging = False
        play_out(state, bots[:players], checked=True)
        assert state.is_terminal()


def test_mixed_bots_in_every_recommended_kingdom() -> None:
    _engine()
    from kingdoms.bots import make_bot
    from kingdoms.core import new_game
    from kingdoms.core.runner import play_out
    from kingdoms.dominion.kingdom import RECOMMENDED

    bots = [make_bot("dominion", n) for n in BOT_NAMES]
    for seed, names in enumerate(RECOMMENDED):
        for players in (2, 4):
            state = new_game("dominion", players, seed, {"kingdom": names[0]})
            play_out(state, bots[:players], checked=True)
            assert state.outcome() is not None


def _wins(a: str, b: str, games: int, kingdom: str) -> tuple[int, int]:
    from kingdoms.bots import make_bot
    from kingdoms.core import new_game
    from kingdoms.core.runner import play_out

    bot_a, bot_b = make_bot("dominion", a), make_bot("dominion", b)
    wins = [0, 0]
    for seed in range(games):
        swap = seed % 2 == 1
        state = new_game("dominion", 2, 50_000 + seed, {"kingdom": kingdom})
        state.logging = False
        play_out(state, [bot_b, bot_a] if swap else [bot_a, bot_b])
        out = state.outcome()
        assert out is not None
        if len(out.winners) == 1:
            seat = out.winners[0]
            wins[(seat == 0) == swap] += 1
    return wins[0], wins[1]


def test_big_money_ultimate_beats_big_money() -> None:
    _engine()
    ultimate, plain = _wins("big-money-ultimate", "big-money", 300, "First Game")
    assert ultimate > plain, (ultimate, plain)


def test_witch_beats_big_money_ultimate() -> None:
    _engine()
    witch, ultimate = _wins("witch", "big-money-ultimate", 300, "Size Distortion")
    assert witch > ultimate, (witch, ultimate)


# -- the default policy inside real positions ------------------------------------------

KINGDOM = [
    "militia", "moat", "spy", "thief", "library",
    "chapel", "throne_room", "remodel", "mine", "workshop",
]  # fmt: skip


def _answers(state: object, seat: int, bot_name: str = "big-money") -> str:
    import random

    from kingdoms.bots import make_bot

    bot = make_bot("dominion", bot_name)
    legal = state.legal_actions()  # type: ignore[attr-defined]
    assert state.current_player == seat  # type: ignore[attr-defined]
    action = bot.act(state.view(seat), legal, random.Random(0))  # type: ignore[attr-defined]
    assert action in legal
    return str(state.action_to_str(action))  # type: ignore[attr-defined]


def _scenario(**kw: object) -> object:
    from kingdoms.dominion.state import DominionState

    return DominionState.scenario(2, KINGDOM, turn=0, **kw)  # type: ignore[arg-type]


def _do(state: object, text: str) -> None:
    state.apply_checked(state.parse_action(text))  # type: ignore[attr-defined]


def test_policy_militia_victim_discards_victory_then_copper() -> None:
    _engine()
    st = _scenario(
        hands={0: ["militia", *["copper"] * 4], 1: ["gold", "silver", "copper", "estate", "gold"]}
    )
    _do(st, "play Militia")
    assert _answers(st, 1) == "discard Estate"
    _do(st, "discard Estate")
    assert _answers(st, 1) == "discard Copper"


def test_policy_moat_is_revealed() -> None:
    _engine()
    st = _scenario(hands={0: ["militia", *["copper"] * 4], 1: ["moat", *["copper"] * 4]})
    _do(st, "play Militia")
    assert _answers(st, 1) == "reveal Moat"


def test_policy_chapel_trashes_curses_and_estates() -> None:
    _engine()
    st = _scenario(hands={0: ["chapel", "estate", "curse", "gold", "silver"]})
    _do(st, "play Chapel")
    first = _answers(st, 0)
    assert first in ("trash Curse", "trash Estate")
    _do(st, first)
    second = _answers(st, 0)
    assert second in ("trash Curse", "trash Estate") and second != first
    _do(st, second)
    assert _answers(st, 0) == "done"


def test_policy_throne_room_and_gains() -> None:
    _engine()
    st = _scenario(hands={0: ["throne_room", "workshop", "copper", "copper", "copper"]})
    _do(st, "play Throne Room")
    assert _answers(st, 0) == "play Workshop twice"
    _do(st, "play Workshop twice")
    gain = _answers(st, 0)  # the best card costing up to 4: one of the 4-cost cards
    assert gain in {f"gain {c}" for c in ("Militia", "Spy", "Thief", "Throne Room", "Remodel")}


def test_policy_mine_upgrades_silver_to_gold() -> None:
    _engine()
    st = _scenario(hands={0: ["mine", "copper", "silver", "estate", "estate"]})
    _do(st, "play Mine")
    assert _answers(st, 0) == "trash Silver"
    _do(st, "trash Silver")
    assert _answers(st, 0) == "gain Gold"


@pytest.mark.parametrize(
    ("hands", "decks", "card", "expected"),
    [
        # own top card (Estate after Spy's draw of Gold) is discarded, the opponent's Gold too
        (
            {0: ["spy", "thief", "copper", "copper", "copper"]},
            {0: ["gold", "estate", "copper"], 1: ["gold", "silver", "copper"]},
            "Spy",
            {"discard Estate", "discard Gold"},
        ),
        (
            {0: ["thief", "copper", "copper", "copper", "copper"]},
            {1: ["gold", "copper", "estate"]},
            "Thief",
            {"trash Gold", "gain Gold"},
        ),
    ],
    ids=["spy", "thief"],
)
def test_policy_answers_the_attackers_decisions(
    hands: dict[int, list[str]], decks: dict[int, list[str]], card: str, expected: set[str]
) -> None:
    _engine()
    st = _scenario(hands=hands, decks=decks)
    _do(st, f"play {card}")
    texts = []
    while st.current_player == 0 and st.view(0)["decision"] is not None:  # type: ignore[attr-defined]
        t = _answers(st, 0)
        texts.append(t)
        _do(st, t)
    assert expected <= set(texts), texts


def test_game_lists_the_bots() -> None:
    _engine()
    from kingdoms.bots import bot_names
    from kingdoms.dominion.game import GAME

    assert dict(GAME.bot_names()) == dict(BOTS)
    assert set(BOTS) <= set(bot_names("dominion"))
