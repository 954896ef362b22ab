"""What the generic search bot (``mcts``) needs to play Dominion well and fast.

* :func:`bmu_playout` — a rollout policy that plays on the (determinized) state
  directly: Actions by a fixed preference (villages and cantrips before terminal
  draw), all Treasures at once, buys as the bundled ``big-money-ultimate`` strategy
  (Province when rich, Duchy/Estate dancing late, Gold, Silver); mid-card
  decisions go to the bundled bot itself (the default policy), which reads the
  deciding seat's view.
* :func:`kingdom_playout` — the same, but playing Actions by the bundled strategy
  that fits the kingdom best (:func:`kingdom_strategy`: of the bundled strategies
  whose cards are all in the kingdom — the Big Money family, the single-card bots,
  the engines such as Chapel/Laboratory/Militia or Workshop/Gardens — the one with
  the best mean score against the others, read from a precomputed table of every
  pair, :mod:`kingdoms.bots.dominion.best_table`), and buying, for each seat, by a
  model of that seat made from the cards it owns (public): the kingdom's strategy
  naming most of its Kingdom cards, else the kingdom's best for its first turns and
  ``big-money-ultimate`` after (:func:`seat_strategy`).
* :func:`rank_actions` — the root moves best first, for ``mcts``'s ``width``:
  the kingdom's strategy's own choice, then buying or gaining the dearest cards, then
  ending the phase; playing one Treasure at a time and ending the buy phase with
  Treasures still in hand are left out when "play all Treasures" is legal (they
  are never better: no Treasure of these sets cares about the order).
* :func:`obvious_action` — a move not worth searching (the only one that ranks).
"""

from __future__ import annotations

import random
import re
from collections.abc import ItemsView, Iterator, KeysView, Mapping, ValuesView
from functools import lru_cache
from typing import Any

from kingdoms.bots.dominion import adapter
from kingdoms.bots.dominion.bots import StrategyBot
from kingdoms.bots.dominion.observation import observe
from kingdoms.bots.dominion.strategy import Situation, Strategy
from kingdoms.core.state import State
from kingdoms.dominion import actions as A
from kingdoms.dominion.data import (
    BY_ID,
    CARDS,
    COIN_COST,
    IS_ACTION,
    IS_TREASURE,
    NUM_CARDS,
    POTION_COST,
)
from kingdoms.dominion.state import DominionState
from kingdoms.dominion.turn import BUY_PHASE

_BUY0 = A.BUY * NUM_CARDS
_GAIN0 = A.GAIN * NUM_CARDS
PROVINCE, DUCHY, ESTATE = BY_ID["province"], BY_ID["duchy"], BY_ID["estate"]
GOLD, SILVER, COPPER, CURSE = BY_ID["gold"], BY_ID["silver"], BY_ID["copper"], BY_ID["curse"]
_MONEY = {COPPER: 1, SILVER: 2, GOLD: 3}
_BUY_PHASE = BUY_PHASE

_NON_TERMINAL: Mapping[str, int] = {
    "village": 9,
    "festival": 8,
    "laboratory": 8,
    "market": 8,
    "cellar": 3,
    "throne_room": 6,
    "golem": 5,
    "university": 5,
    "alchemist": 7,
    "apothecary": 7,
    "familiar": 7,
    "scrying_pool": 7,
    "herbalist": 4,
    "merchant": 7,
    "poacher": 6,
    "sentry": 6,
    "harbinger": 6,
    "vassal": 2,
    "spy": 5,
}
"""The rollout's own ranking of the Actions that give +Actions (played first)."""

PLAY_PRIORITY: tuple[int, ...] = tuple(
    (100 + _NON_TERMINAL[c.id] if c.id in _NON_TERMINAL else 50 + c.cost[0]) if c.is_action else -1
    for c in CARDS
)
"""Card index -> how early the rollout plays it (non-terminal Actions first)."""


@lru_cache(maxsize=1)
def _decider() -> StrategyBot:
    from kingdoms.bots.dominion.bots import bundled_bot

    return bundled_bot("big-money-ultimate")


_BASIC = frozenset({"copper", "silver", "gold", "estate", "duchy", "province", "curse", "potion"})


@lru_cache(maxsize=64)
def plan_cards(name: str) -> frozenset[str]:
    """The Kingdom cards the bundled strategy ``name`` buys or plays.

    >>> sorted(plan_cards("chapel-lab-militia"))
    ['chapel', 'laboratory', 'militia']
    """
    from kingdoms.bots.dominion.bots import bundled_bot

    return frozenset(c for c in bundled_bot(name).named_cards() if c not in _BASIC)


def _table_score(a: str, b: str) -> float:
    from kingdoms.bots.dominion.best_table import MATCHUPS

    if a == b:
        return 0.5
    found = MATCHUPS.get((a, b))
    if found is not None:
        return found
    other = MATCHUPS.get((b, a))
    return 1.0 - other if other is not None else 0.5


@lru_cache(maxsize=256)
def kingdom_plans(kingdom: tuple[str, ...]) -> tuple[str, ...]:
    """The bundled strategies ``kingdom`` lets play (all their cards in it), best first:
    by mean score against each other (a round robin among them, read from the
    precomputed table :mod:`kingdoms.bots.dominion.best_table`), then by name.

    >>> kingdom_plans(("cellar", "chapel", "laboratory", "militia", "moat"))[:2]
    ('chapel-lab-militia', 'militia')
    """
    from kingdoms.bots.dominion.bundled import bundled_names

    cards = set(kingdom)
    names = [n for n in bundled_names() if n != "default" and plan_cards(n) <= cards]

    def mean(a: str) -> float:
        return sum(_table_score(a, b) for b in names) / len(names)

    return tuple(sorted(names, key=lambda n: (-mean(n), n)))


@lru_cache(maxsize=256)
def kingdom_strategy(kingdom: tuple[str, ...]) -> str:
    """The strategy the rollouts play in ``kingdom`` for a seat with no plan of its
    own yet: the first of :func:`kingdom_plans` (the best bundled strategy here).

    >>> kingdom_strategy(("cellar", "moat", "smithy", "witch"))
    'witch'
    >>> kingdom_strategy(("cellar", "chapel"))
    'big-money-ultimate'
    """
    return kingdom_plans(kingdom)[0]


@lru_cache(maxsize=256)
def _strategy(name: str) -> tuple[Strategy, tuple[int, ...], StrategyBot, bool]:
    """The bundled strategy ``name``: its buy rules, the Actions it plays first, its
    bot, and whether its rules read VP leads (compare with the other seats)."""
    from kingdoms.bots.dominion.bundled import bundled_strategy, bundled_text

    if m := _BMU_PAIR.match(name):  # Big Money Ultimate + two cards (reads no VP lead)
        from kingdoms.bots.dominion.lang import parse_strategy

        text = bmu_pair(m.group(1), int(m.group(2)), m.group(3), int(m.group(4)))
        strategy = parse_strategy(text, name)
        text = ""
    elif name.startswith("bmu+"):  # Big Money Ultimate + a card (reads no VP lead)
        from kingdoms.bots.dominion import bot_named

        make = bot_named(name)
        assert make is not None
        made = make()
        assert isinstance(made, StrategyBot)
        strategy = made.strategy
        text = ""
    elif name.startswith("rush:"):  # a gainer rush (the opponent model's candidates)
        from kingdoms.bots.dominion.opponent import rush_strategy

        strategy = rush_strategy(name)
        text = ""
    elif name.startswith("trash:"):  # a trashing plan (best:trash=on)
        from kingdoms.bots.dominion.opponent import trash_strategy

        strategy = trash_strategy(name)
        text = ""
    else:
        strategy = bundled_strategy(name)
        text = bundled_text(name)
    play = tuple(BY_ID[c] for c in strategy.play_cards if c in BY_ID)
    return strategy, play, StrategyBot(strategy), "vp_lead" in text or "vp_deficit" in text


_IDS = tuple(c.id for c in CARDS)


class OwnedCounts(Mapping[str, int]):
    """Card id -> copies, over a seat's list of owned card indices, counted lazily:
    a buy rule mostly asks a few cards (``count(Gold)``), answered by counting that
    one card; the first question about all of them (total money, VP) counts them all.

    >>> owned = OwnedCounts([BY_ID["copper"], BY_ID["estate"], BY_ID["copper"]])
    >>> owned.get("copper"), owned.get("gold", 0), "estate" in owned, len(owned)
    (2, 0, True, 2)
    >>> sorted(owned.items())
    [('copper', 2), ('estate', 1)]
    """

    __slots__ = ("_all", "_cards")

    def __init__(self, cards: list[int]) -> None:
        self._cards = cards
        self._all: dict[str, int] | None = None

    def _counts(self) -> dict[str, int]:
        counts = self._all
        if counts is None:
            counts = {}
            for c in self._cards:
                cid = _IDS[c]
                counts[cid] = counts.get(cid, 0) + 1
            self._all = counts
        return counts

    def get(self, key: str, default: Any = None) -> Any:
        if self._all is not None:
            return self._all.get(key, default)
        c = BY_ID.get(key)
        n = self._cards.count(c) if c is not None else 0
        return n if n else default

    def __getitem__(self, key: str) -> int:
        n: int = self.get(key, 0)
        if not n:
            raise KeyError(key)
        return n

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and bool(self.get(key, 0))

    def __iter__(self) -> Iterator[str]:
        return iter(self._counts())

    def __len__(self) -> int:
        return len(self._counts())

    def keys(self) -> KeysView[str]:
        return self._counts().keys()

    def items(self) -> ItemsView[str, int]:
        return self._counts().items()

    def values(self) -> ValuesView[int]:
        return self._counts().values()


def situation_of(
    st: DominionState, p: int, others: bool = True, cards: list[int] | None = None
) -> Situation:
    """What a buy rule may ask, read from the state (all of it public or ``p``'s own).

    Built for every buy of every rollout, so kept cheap: owned cards counted only
    as far as the rules ask (:class:`OwnedCounts`), the supply's ids listed once per
    kingdom; ``others=False`` leaves the other seats' VP out unless a pile is down to
    its last card (a buy could end the game: the end-game guard compares VP) — for
    strategies whose rules never read VP leads; ``cards``: ``st.owned(p)`` if the
    caller has it already."""
    piles = st.piles
    supply = st.supply
    turns = st.turns
    seats: tuple[tuple[int, int], ...] = ()
    if others or 1 in supply:
        seats = tuple((st.vp_of(q), turns[q]) for q in range(st.num_players) if q != p)
    return Situation(
        coins=st.coins,
        owned=OwnedCounts(st.owned(p) if cards is None else cards),
        supply=dict(zip(_kingdom_of(st)[1], map(supply.__getitem__, piles), strict=True)),
        costs=adapter.COSTS,
        potion_costs=adapter.POTION_COSTS,
        potions=st.potions,
        treasure_values=adapter.TREASURE_VALUES,
        treasure_ids=adapter.TREASURE_IDS,
        types=adapter.TYPES,
        buys=st.buys,
        turn=turns[p] + 1,
        players=st.num_players,
        others=seats,
        seat=p,
        taken=turns[p] + 1,
    )


_KINGDOM: list[Any] = [None, ((), ())]
"""The last config seen and (its kingdom, its piles' ids): a rollout asks every move."""


def _kingdom_of(st: DominionState) -> tuple[tuple[str, ...], tuple[str, ...]]:
    config = st.config
    if _KINGDOM[0] is not config:
        kingdom = tuple(config.options["kingdom"])
        _KINGDOM[1] = (kingdom, tuple(_IDS[c] for c in st.piles))
        _KINGDOM[0] = config
    found: tuple[tuple[str, ...], tuple[str, ...]] = _KINGDOM[1]
    return found


def bmu_buy(st: DominionState, p: int) -> int | None:
    """The card ``big-money-ultimate`` buys with the coins of ``st`` (None: nothing)."""
    coins, supply = st.coins, st.supply
    provinces = supply[PROVINCE]
    if coins >= 8 and provinces:
        money = 0
        for zone in (st.hands[p], st.decks[p], st.discards[p], st.in_play[p]):
            for c in zone:
                money += _MONEY.get(c, 0)
        if money > 18:
            return PROVINCE
    if coins >= 5 and provinces <= 4 and supply[DUCHY]:
        return DUCHY
    if coins >= 2 and provinces <= 2 and supply[ESTATE]:
        return ESTATE
    if coins >= 6 and supply[GOLD]:
        return GOLD
    if coins >= 5 and provinces <= 6 and supply[DUCHY]:
        return DUCHY
    if coins >= 3 and supply[SILVER]:
        return SILVER
    return None


def _turn_choice(st: DominionState, legal: list[int]) -> int | None:
    """The rollout policy's move outside pending decisions (None: ask the bot)."""
    if st.phase == 0:
        best, best_p = A.A_END_PHASE, 0
        for a in legal:
            if a < NUM_CARDS and PLAY_PRIORITY[a] > best_p:
                best, best_p = a, PLAY_PRIORITY[a]
        return best
    if not st.bought and A.A_ALL_TREASURES in legal:
        return A.A_ALL_TREASURES
    want = bmu_buy(st, st.turn)
    if want is not None and _BUY0 + want in legal:
        return _BUY0 + want
    return A.A_END_PHASE


MONEY_AFTER = 4
"""Turns after which a seat owning none of the kingdom's strategy cards is rolled
out as ``big-money-ultimate`` (it plays money, whatever the kingdom offers)."""


def seat_strategy(kingdom: tuple[str, ...], cards: list[int], turn: int) -> str:
    """The strategy a rollout buys by for a seat owning ``cards`` (public) on its turn
    ``turn`` (1: its first) — a model of that seat: of :func:`kingdom_plans`, the
    first that names the most Kingdom cards the seat owns; owning none of them, the
    kingdom's strategy (:func:`kingdom_strategy`) for its first :data:`MONEY_AFTER`
    turns, ``big-money-ultimate`` after.

    >>> k = ("cellar", "militia", "witch")
    >>> seat_strategy(k, [BY_ID["copper"], BY_ID["militia"]], 3)
    'militia'
    >>> seat_strategy(k, [BY_ID["copper"]], 2)
    'witch'
    >>> seat_strategy(k, [BY_ID["gold"]], 6)
    'big-money-ultimate'
    """
    owned = _owned_kingdom(kingdom, cards)
    if owned:
        best, best_n = "", 0
        for name in kingdom_plans(kingdom):
            n = len(plan_cards(name) & owned)
            if n > best_n:
                best, best_n = name, n
        if best_n:
            return best
    if turn > MONEY_AFTER:
        return "big-money-ultimate"
    return kingdom_strategy(kingdom)


def _owned_kingdom(kingdom: tuple[str, ...], cards: list[int]) -> frozenset[str]:
    """The Kingdom cards (ids) among ``cards``."""
    ids = _kingdom_ids(kingdom)
    return frozenset(_IDS[c] for c in cards if c in ids)


@lru_cache(maxsize=256)
def _kingdom_ids(kingdom: tuple[str, ...]) -> frozenset[int]:
    return frozenset(BY_ID[c] for c in kingdom if c in BY_ID)


def kingdom_playout(state: State, rng: random.Random) -> int:
    """One rollout move: the kingdom's strategy (:func:`kingdom_strategy`) playing
    Actions; buys by each seat's own model (:func:`seat_strategy`)."""
    assert isinstance(state, DominionState)
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    kingdom = _kingdom_of(state)[0]
    if not state.stack:
        if state.phase == 0:
            for c in _strategy(kingdom_strategy(kingdom))[1]:
                if c in legal:
                    return c
            choice = _turn_choice(state, legal)
            if choice is not None:
                return choice
        elif not state.bought and A.A_ALL_TREASURES in legal:
            return A.A_ALL_TREASURES
        else:
            p = state.turn
            cards = state.owned(p)
            name = seat_strategy(kingdom, cards, state.turns[p] + 1)
            strategy, _, _, reads_vp = _strategy(name)
            situation = situation_of(state, p, others=reads_vp, cards=cards)
            want = strategy.choose(situation)
            if want is not None and _BUY0 + BY_ID[want] in legal:
                return _BUY0 + BY_ID[want]
            return A.A_END_PHASE
    p = state.current_player
    return _strategy(kingdom_strategy(kingdom))[2].act(observe(state, p), legal, rng)


def rollout_bots(
    state: DominionState, plans: Mapping[int, str] | None = None
) -> tuple[list[StrategyBot], tuple[str, ...]]:
    """The bots a rollout from ``state`` plays, one per seat, and their strategies'
    names: each seat's model (:func:`seat_strategy`, from the cards it owns and its
    turn when the rollout starts) plays every decision of that seat to the end;
    ``plans`` (seat -> a strategy: a bundled one or ``bmu+X:N``) overrides the
    model of the seats it names."""
    kingdom = _kingdom_of(state)[0]
    turns = state.turns
    names = tuple(
        plans[p]
        if plans is not None and p in plans
        else seat_strategy(kingdom, state.owned(p), turns[p] + 1)
        for p in range(state.num_players)
    )
    return [_strategy(name)[2] for name in names], names


def _bot_move(bot: StrategyBot, state: DominionState, legal: list[int], rng: random.Random) -> int:
    """``bot``'s move in ``state`` (as it would make it from its seat's observation),
    building the observation only where the bot reads it."""
    player = state.current_player
    if state.stack:
        return bot.act(observe(state, player), legal, rng)
    action = bot._turn_play(legal)
    if action < 0:
        obs = observe(state, player)
        if state.phase == _BUY_PHASE:
            action = bot._turn_buy(obs, legal)
        if action < 0:
            action = bot._policy(obs, legal)
    return action


def finish_rollout(
    state: State, rng: random.Random, max_steps: int, plans: Mapping[int, str] | None = None
) -> None:
    """Play ``state`` on to its end (at most ``max_steps`` moves) as the ``kingdom``
    rollout does: every seat played by its model (:func:`rollout_bots`) for the whole
    rollout.  As soon as no decision is pending, the native core plays the rest where it
    can (:func:`kingdoms.bots.dominion.native.play_rollout`: the same game, so every
    build makes the same moves); the Python engine plays the moves before and every
    game the native core cannot.  ``plans``: as :func:`rollout_bots`.

    The first time no decision is pending, the rollout draws a seed from the state's
    generator and goes on with ``random.Random(seed)`` on every build (the native core
    seeds its own from it, instead of copying the generator's 625 words in and out):
    a rollout's result is its outcome, and ``state.rng`` is left at that draw when the
    native core plays the rest."""
    assert isinstance(state, DominionState)
    bots, names = rollout_bots(state, plans)
    native = _native_rollout()
    key: tuple[Any, ...] | None = None
    seeded = False
    steps = 0
    while steps < max_steps:
        player = state.current_player
        if player < 0:
            return
        if not state.stack and state.phase <= _BUY_PHASE and (native is not None or not seeded):
            seed: int | None = None
            if not seeded:
                seeded = True
                seed = state.rng.getrandbits(32)
            if native is not None:
                if key is None:
                    key = native.rollout_key(state, names)
                got = native.play_rollout(state, bots, key, max_steps - steps, seed)
                if got == 1:
                    return
                if got < 0:
                    native = None  # not these cards and bots, or too long: Python plays on
            if seed is not None:
                state.rng.seed(seed)
        legal = state.legal_actions()
        state.apply(legal[0] if len(legal) == 1 else _bot_move(bots[player], state, legal, rng))
        steps += 1


@lru_cache(maxsize=1)
def _native_rollout() -> Any:
    """The native glue module when the native core is built (else None)."""
    from kingdoms.bots.dominion import native

    return native if native.available() else None


class KingdomRollout:
    """The ``kingdom`` rollout policy: each seat played by its model
    (:func:`rollout_bots`).  Called with a state it gives one move;
    :meth:`finish` plays a rollout to its end (what ``mcts`` and the review call)."""

    def __call__(self, state: State, rng: random.Random) -> int:
        assert isinstance(state, DominionState)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        bots = rollout_bots(state)[0]
        return _bot_move(bots[state.current_player], state, legal, rng)

    def finish(self, state: State, rng: random.Random, max_steps: int) -> None:
        finish_rollout(state, rng, max_steps)


kingdom_rollout = KingdomRollout()
"""The ``kingdom`` playout policy of ``mcts``, ``best`` and the review."""


def bmu_playout(state: State, rng: random.Random) -> int:
    """One rollout move: ``big-money-ultimate`` playing on the state itself."""
    assert isinstance(state, DominionState)
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if not state.stack:
        choice = _turn_choice(state, legal)
        if choice is not None:
            return choice
    p = state.current_player
    return _decider().act(observe(state, p), legal, rng)


def _card_value(c: int) -> float:
    """Buying/gaining order of the ranking: dearer first, kingdom cards before basic
    cards of the same cost, Curses and Coppers last."""
    if c in (CURSE, COPPER):
        return -1.0
    return COIN_COST[c] + 2.5 * POTION_COST[c] + (0.5 if IS_ACTION[c] else 0.0)


def plan_move(state: DominionState, legal: list[int], plan: str) -> int:
    """The move the strategy ``plan`` (bundled, or ``bmu+X:N``) makes in ``state``
    for the seat to move (as that strategy's bot, from the seat's observation)."""
    if len(legal) == 1:
        return legal[0]
    return _bot_move(_strategy(plan)[2], state, legal, random.Random(0))


def rank_actions(state: State, legal: list[int], plan: str | None = None) -> list[int]:
    """Root moves, best first (some dominated moves left out: see the module); the
    first is the rollout policy's own move, or ``plan``'s (:func:`plan_move`)."""
    assert isinstance(state, DominionState)
    if not legal:
        return legal
    if plan is None:
        first = kingdom_playout(state, random.Random(0))
    else:
        first = plan_move(state, legal, plan)
    rest = [a for a in legal if a != first]
    if not state.stack and state.phase == 1 and A.A_ALL_TREASURES in legal:
        return [A.A_ALL_TREASURES]
    if not state.stack and state.phase == 0:
        rest.sort(key=lambda a: -PLAY_PRIORITY[a] if a < NUM_CARDS else 0)
    else:

        def key(a: int) -> float:
            kind, c = divmod(a, NUM_CARDS)
            if kind in (A.BUY, A.GAIN):
                return -_card_value(c)
            if kind == A.PLAY and IS_TREASURE[c]:
                return 50.0
            return 0.0

        rest.sort(key=key)
    return [first, *rest]


PLAN_BASE = 4
"""How many of :func:`kingdom_plans` the plan search (:func:`plan_candidates`) takes."""


@lru_cache(maxsize=256)
def plan_candidates(kingdom: tuple[str, ...]) -> tuple[str, ...]:
    """The plans ``best`` weighs at the start of a game on ``kingdom``: the first
    :data:`PLAN_BASE` of :func:`kingdom_plans` (the first one first: the plan kept
    unless another is shown better), then Big Money Ultimate with one or two copies
    of each of the kingdom's Action and Treasure cards (``bmu+X``, ``bmu+X:2``) —
    which covers the cards no bundled strategy knows (most of Alchemy).

    >>> plan_candidates(("cellar", "moat", "smithy", "witch", "gardens"))[:6]
    ('witch', 'smithy', 'moat', 'big-money-ultimate', 'bmu+cellar', 'bmu+cellar:2')
    """
    out = list(kingdom_plans(kingdom)[:PLAN_BASE])
    for cid in kingdom:
        c = BY_ID.get(cid)
        if c is None or not (IS_ACTION[c] or IS_TREASURE[c]):
            continue
        for name in (f"bmu+{cid}", f"bmu+{cid}:2"):
            if name not in out:
                out.append(name)
    return tuple(out)


_BMU_PAIR = re.compile(r"^bmu\+([a-z_]+):(\d+)\+([a-z_]+):(\d+)$")
"""A plan of two cards: ``bmu+witch:2+university:2`` (:func:`bmu_pair`)."""


def _steps(cid: str) -> tuple[Any, ...]:
    from kingdoms.dominion.cards import DECLARED

    decl = DECLARED.get(cid)
    return tuple(decl.steps) if decl else ()


def gives_curses(cid: str) -> bool:
    """Whether ``cid`` gives the other players a Curse when played (Witch, Familiar)."""
    from kingdoms.dominion.cards.steps import EachOtherGains

    curse = BY_ID["curse"]
    return any(isinstance(s, EachOtherGains) and s.card == curse for s in _steps(cid))


def _non_terminal(cid: str) -> bool:
    """Whether the Action ``cid`` gives +1 Action or more (University, Familiar)."""
    from kingdoms.dominion.cards.steps import Plus

    return any(isinstance(s, Plus) and s.actions >= 1 for s in _steps(cid))


def bmu_pair(first: str, n_first: int, second: str, n_second: int) -> str:
    """The strategy file of Big Money Ultimate + at most ``n_first`` of ``first`` and
    ``n_second`` of ``second`` (the buy order of ``kingdoms rank``'s ``bmu+X``, the
    two cards in it at their cost's place; Actions that give +Actions played first).

    >>> print(bmu_pair("witch", 2, "university", 2))  # doctest: +NORMALIZE_WHITESPACE
    name = "bmu+witch:2+university:2"
    play = ["University", "Witch"]
    buy = [
      "Province if total_money > 18",
      "Duchy if left(Province) <= 4",
      "Estate if left(Province) <= 2",
      "Gold",
      "Duchy if left(Province) <= 6",
      "Witch if count(Witch) < 2",
      "University if count(University) < 2",
      "Potion if count(Potion) < 1",
      "Silver",
    ]
    """
    cards = [(CARDS[BY_ID[first]], n_first), (CARDS[BY_ID[second]], n_second)]
    names = [c.names["en"] for c, _ in cards]
    actions = [c for c, _ in cards if c.is_action]
    actions.sort(key=lambda c: not _non_terminal(c.id))
    play = ", ".join(f'"{c.names["en"]}"' for c in actions)
    entries = [(c, f'  "{n} if count({n}) < {k}",') for (c, k), n in zip(cards, names, strict=True)]
    lines = [
        f'name = "bmu+{first}:{n_first}+{second}:{n_second}"',
        f"play = [{play}]",
        "buy = [",
        '  "Province if total_money > 18",',
        '  "Duchy if left(Province) <= 4",',
        '  "Estate if left(Province) <= 2",',
    ]
    lines += [e for c, e in entries if c.cost[0] >= 6]
    lines += ['  "Gold",', '  "Duchy if left(Province) <= 6",']
    lines += [e for c, e in entries if c.cost[0] < 6]
    if any(c.cost[1] for c, _ in cards):
        lines.append('  "Potion if count(Potion) < 1",')
    lines += ['  "Silver",', "]", ""]
    return "\n".join(lines)


@lru_cache(maxsize=256)
def pair_plans(kingdom: tuple[str, ...]) -> tuple[str, ...]:
    """Plans of two cards the plan search may weigh on ``kingdom`` (``best:pairs=on``):
    for each card of the kingdom that gives Curses (Witch, Familiar), two of it with
    two of each other Treasure or Action giving +Actions of the kingdom
    (``bmu+witch:2+university:2``, ``bmu+familiar:2+philosophers_stone:2``) — the
    plans ``kingdoms optimize`` found on such kingdoms, which a plan of one card
    cannot play.

    >>> pair_plans(("familiar", "philosophers_stone", "smithy", "university", "witch"))
    ... # doctest: +NORMALIZE_WHITESPACE
    ('bmu+familiar:2+philosophers_stone:2', 'bmu+familiar:2+university:2',
     'bmu+witch:2+familiar:2', 'bmu+witch:2+philosophers_stone:2',
     'bmu+witch:2+university:2')
    >>> pair_plans(("cellar", "moat", "smithy", "village", "militia"))
    ()
    """
    out: list[str] = []
    for c in sorted(kingdom):
        if c not in BY_ID or not gives_curses(c):
            continue
        for y in sorted(kingdom):
            i = BY_ID.get(y)
            if y == c or i is None:
                continue
            if IS_TREASURE[i] or (IS_ACTION[i] and _non_terminal(y)):
                out.append(f"bmu+{c}:2+{y}:2")
    return tuple(out)


def obvious_action(state: State, legal: list[int]) -> int | None:
    """A move to make without searching (the only one :func:`rank_actions` keeps)."""
    ranked = rank_actions(state, legal)
    return ranked[0] if len(ranked) == 1 else None
