"""The strategy bots' own game loop: the same games as the generic loop, faster."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from kingdoms.bots import make_bot
from kingdoms.bots.base import Bot
from kingdoms.bots.dominion.bots import StrategyBot
from kingdoms.bots.dominion.observation import Observation
from kingdoms.core import new_game
from kingdoms.core.errors import IllegalAction
from kingdoms.core.runner import bot_reader, joint_loop, seat_rngs
from kingdoms.sim.runner import play_state

ATTACKS = ["militia", "moat", "spy", "thief", "bureaucrat", "library", "chapel", "cellar",
           "throne_room", "witch"]  # fmt: skip
ALCHEMY = ["possession", "golem", "scrying_pool", "apothecary", "alchemist", "herbalist",
           "university", "familiar", "transmute", "philosophers_stone"]  # fmt: skip
CASES = [
    ("First Game", ["big-money", "big-money"]),
    ("First Game", ["big-money-ultimate", "smithy", "council-room"]),
    (ATTACKS, ["witch", "militia", "bureaucrat", "moat"]),
    (ATTACKS, ["chancellor", "witch"]),
    (ALCHEMY, ["familiar", "herbalist", "big-money"]),
    ("random", ["laboratory", "festival"]),
]


def _generic(state: object, bots: Sequence[Bot], rngs: Sequence[random.Random]) -> None:
    """The generic loop: every decision read through the bot's reader, then ``act``."""
    reads = [bot_reader(bot) for bot in bots]
    while state.current_player >= 0:  # type: ignore[attr-defined]
        p = state.current_player  # type: ignore[attr-defined]
        legal = state.legal_actions()  # type: ignore[attr-defined]
        state.apply(bots[p].act(reads[p](state, p), legal, rngs[p]))  # type: ignore[attr-defined]


@pytest.mark.parametrize(("kingdom", "specs"), CASES)
def test_the_joint_loop_plays_the_games_of_the_generic_loop(
    kingdom: object, specs: list[str]
) -> None:
    for seed in range(3):
        histories = []
        for joint in (True, False):
            st = new_game("dominion", players=len(specs), seed=seed, options={"kingdom": kingdom})
            st.logging = False
            bots = [make_bot("dominion", s) for s in specs]
            rngs = seat_rngs(seed, len(specs))
            if joint:
                loop = joint_loop(bots)
                assert loop is not None
                assert loop(st, bots, rngs, 100_000) is True
            else:
                _generic(st, bots, rngs)
            assert st.is_terminal()
            histories.append(st.history)
        assert histories[0] == histories[1], (kingdom, specs, seed)


def test_the_simulator_plays_strategy_bots_through_their_loop() -> None:
    """``kingdoms sim`` games equal the generic loop's, seat rotation included."""
    specs = ["witch", "militia"]
    for index in range(4):
        st, seat_bot = play_state("dominion", specs, index, 5, {"kingdom": ATTACKS})
        again = new_game("dominion", players=2, seed=st.config.seed, options=st.config.options)
        again.logging = False
        _generic(
            again, [make_bot("dominion", specs[b]) for b in seat_bot], seat_rngs(st.config.seed, 2)
        )
        assert again.history == st.history


class _Keeper:
    """A bot of another class offering the strategy bots' loop: it keeps every
    observation it is handed (a class the loop does not know may decide otherwise)."""

    play_game = staticmethod(StrategyBot.play_game)

    def __init__(self) -> None:
        self.bot = make_bot("dominion", "big-money")
        self.name = self.bot.name
        self.seen: list[object] = []

    def observe(self, state: object, player: int) -> object:
        return self.bot.observe(state, player)  # type: ignore[attr-defined]

    def act(self, view: object, legal: Sequence[int], rng: random.Random) -> int:
        self.seen.append(view)
        return self.bot.act(view, legal, rng)


def test_the_joint_loop_takes_only_strategy_bots_in_every_seat() -> None:
    bm = make_bot("dominion", "big-money")
    assert joint_loop([bm, make_bot("dominion", "smithy")]) == StrategyBot.play_game
    assert joint_loop([bm, make_bot("dominion", "random")]) is None
    assert joint_loop([]) is None
    keeper = _Keeper()
    # a subclass has the method but may decide (or keep what it reads) otherwise
    loop = joint_loop([keeper, _Keeper()])
    assert loop is not None
    st = new_game("dominion", players=2, seed=2, options={"kingdom": "First Game"})
    assert loop(st, [keeper, _Keeper()], seat_rngs(2, 2), 1000) is False
    assert st.step == 0
    kd = new_game("kingdomino", players=2, seed=2)
    assert StrategyBot.play_game(kd, [bm, bm], seat_rngs(2, 2), 1000) is False
    assert kd.step == 0
    # the generic loop then hands the subclass every decision's observation
    from kingdoms.core.runner import play_out

    play_out(st, [keeper, _Keeper()], seat_rngs(2, 2))
    assert keeper.seen and all(isinstance(v, Observation) for v in keeper.seen)


def test_a_game_too_long_for_the_joint_loop_raises() -> None:
    st = new_game("dominion", players=2, seed=3, options={"kingdom": "First Game"})
    bots = [make_bot("dominion", "big-money") for _ in range(2)]
    with pytest.raises(IllegalAction, match="did not end within 10 actions"):
        StrategyBot.play_game(st, bots, seat_rngs(3, 2), 10)
