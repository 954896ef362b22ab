"""The Dominion bots: a buy strategy plus the default decision policy.

A :class:`StrategyBot` plays the Actions of its play priorities first (then any
other Action the default policy likes), then all Treasures, buys by its strategy
(:mod:`kingdoms.bots.dominion.strategy`), answers the decisions its strategy
overrides by purpose, and leaves every other decision to the default policy.

>>> from kingdoms.bots.dominion.bots import bundled_bot
>>> bundled_bot("big-money").name
'big-money'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from kingdoms.bots.base import View
from kingdoms.bots.dominion import adapter
from kingdoms.bots.dominion.bundled import bundled_strategy, cached_file_strategy
from kingdoms.bots.dominion.lang import PURPOSES as PURPOSE_KINDS
from kingdoms.bots.dominion.observation import Observation, observe
from kingdoms.bots.dominion.policy import choose
from kingdoms.bots.dominion.strategy import Condition, Situation, Strategy, always, decision_purpose
from kingdoms.core.errors import IllegalAction, InvalidConfig
from kingdoms.dominion import actions as A
from kingdoms.dominion.data import BY_ID, CARDS, IS_ACTION, NUM_CARDS
from kingdoms.dominion.decisions import ORDER, YES_NO
from kingdoms.dominion.state import BUY_PHASE, DominionState

__all__ = ["StrategyBot", "bundled_bot", "decision_purpose", "file_bot", "situation"]

_PLAY0: Final = A.PLAY * NUM_CARDS
_ALL_TREASURES: Final = A.A_ALL_TREASURES
_END_PHASE: Final = A.A_END_PHASE
_BUY_PHASE: Final = BUY_PHASE
_BUY_ACTION: Final[dict[str, int]] = {c.id: A.encode(A.BUY, c.index) for c in CARDS}
"""Card id -> the action buying it (cards of the card list; added cards: encoded)."""


def situation(view: View) -> Situation:
    """Everything a buy rule may ask, from the deciding seat's view only."""
    me = view["player"]
    players = view["players"]
    own = players[me]["owned"]
    return Situation(
        coins=int(view.get("coins", 0)),
        owned=own,
        supply={pile["card"]: pile["count"] for pile in view["supply"]},
        costs=adapter.COSTS,
        potion_costs=adapter.POTION_COSTS,
        potions=int(view.get("potions", 0)),
        treasure_values=adapter.TREASURE_VALUES,
        treasure_ids=adapter.TREASURE_IDS,
        types=adapter.TYPES,
        buys=int(view.get("buys", 1)),
        turn=int(players[me]["turns"]) + 1,
        players=len(players),
        others=None,  # worked out from the seats when a rule needs it
        seats=players,
        seat=me,
        taken=int(players[me]["turns"]) + 1,
    )


__all__ = ["StrategyBot", "bundled_bot", "decision_purpose", "file_bot", "situation"]


def _matches(card: str | None, key: str) -> bool:
    return card is not None and (card == key or key in adapter.TYPES.get(card, ()))


class StrategyBot:
    """Plays by a :class:`Strategy`; the default policy decides everything else."""

    def __init__(self, strategy: Strategy, **params: Any) -> None:
        if params:
            raise InvalidConfig(f"bot {strategy.name!r} takes no parameters, got {sorted(params)}")
        self.strategy = strategy
        self.name = strategy.name
        self._play = tuple(BY_ID[c] for c in self.strategy.play if c in BY_ID)
        self._rules_of: Strategy | None = None
        self._rules: tuple[tuple[str, int, int, Condition], ...] = ()

    def _buy_rules(self) -> tuple[tuple[str, int, int, Condition], ...]:
        """The strategy's buy rules with the action buying each card and its coin
        cost: action -1 for a card whose affordability only the situation knows (not
        of the card list)."""
        strategy = self.strategy
        if self._rules_of is not strategy:
            costs = adapter.COSTS
            self._rules = tuple(
                (card, _BUY_ACTION[card], costs[card], cond)
                if card in _BUY_ACTION and card in costs
                else (card, -1, 0, cond)
                for card, cond in strategy.rules
            )
            self._rules_of = strategy
        return self._rules

    def _buy(self, obs: Observation, legal_actions: Sequence[int]) -> int | None:
        """:meth:`Strategy.choose`'s card as its buy action, or None.  The engine's
        legal buys are exactly the affordable cards with a non-empty pile (the
        situation's costs are the cards' printed ones, as the engine's), so a rule
        is tried against them (a card costing more coins than there are is not
        among them: not looked for); the :class:`Situation` is built only when a
        condition or the end-of-game guard asks."""
        s: Situation | None = None
        guard = self.strategy.guard
        coins = obs.coins
        rules = self._rules if self._rules_of is self.strategy else self._buy_rules()
        for card, action, cost, cond in rules:
            if action >= 0:
                if cost > coins or action not in legal_actions:
                    continue
            else:
                if s is None:
                    s = adapter.situation_observed(obs)
                if not s.affordable(card):
                    continue
            if cond is not always:
                if s is None:
                    s = adapter.situation_observed(obs)
                if not cond(s):
                    continue
            if guard and obs.left(card) == 1:
                if s is None:
                    s = adapter.situation_observed(obs)
                if s.loses_by_ending(card):
                    continue
            if action >= 0:
                return action  # found among the legal actions above
            action = A.encode(A.BUY, BY_ID[card])
            return action if action in legal_actions else None
        return None

    def observe(self, state: object, player: int) -> Observation:
        """What this bot reads of ``state``: ``player``'s typed observation (only what
        that seat's view shows), instead of the view dict."""
        if type(state) is not DominionState and not isinstance(state, DominionState):
            raise InvalidConfig(f"bot {self.name!r} plays Dominion, not {type(state).__name__}")
        return observe(state, player)

    def _override(self, obs: Observation, legal: Sequence[int]) -> int | None:
        """The strategy's answer to the pending decision, read from the observation's
        structured decision (its purpose, kind and choices); ``None``: the default
        policy decides."""
        purpose = obs.purpose
        rule = self.strategy.decisions.get(purpose) if purpose else None
        if rule is None or purpose is None:
            return None
        allowed = set(legal)
        choices = [(a, answer, card) for a, answer, card in obs.choices if a in allowed]
        kind = PURPOSE_KINDS.get(purpose)
        if kind == YES_NO:
            if isinstance(rule, tuple):
                return None
            yes = rule if isinstance(rule, bool) else bool(rule(adapter.situation_observed(obs)))
            want = "yes" if yes else "no"
            return next((a for a, answer, _ in choices if answer == want), None)
        if not isinstance(rule, tuple):
            return None
        for key in rule:
            for action, answer, card in choices:
                if answer in ("card", "pile") and _matches(card, key):
                    return action
        if kind == ORDER:
            return None
        return next((a for a, answer, _ in choices if answer == "done"), None)

    def act(
        self, view: View | Observation, legal_actions: Sequence[int], rng: random.Random
    ) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        obs = view if isinstance(view, Observation) else Observation.from_view(view)
        if obs.purpose is None:
            # Turn decisions (no card asking): the fast path.
            action = self._turn_play(legal_actions)
            if action < 0 and obs.phase == "buy":
                action = self._turn_buy(obs, legal_actions)
            if action >= 0:
                return action
        else:
            chosen = self._override(obs, legal_actions)
            if chosen is not None:
                return chosen
        return self._policy(obs, legal_actions)

    def _turn_play(self, legal_actions: Sequence[int]) -> int:
        """A turn decision the legal actions alone decide: all Treasures when no
        Action can be played, else the first Action of the play priorities; -1:
        none of these."""
        # module globals are dict look-ups: read them once
        n_cards, is_action = NUM_CARDS, IS_ACTION
        playable = False
        for a in legal_actions:
            if a >= n_cards:
                break  # plays of the card list come first in the canonical order
            if is_action[a]:
                playable = True
                break
        if not playable and _ALL_TREASURES in legal_actions:
            return _ALL_TREASURES
        for c in self._play:
            if _PLAY0 + c in legal_actions:
                return _PLAY0 + c
        return -1

    def _turn_buy(self, obs: Observation, legal_actions: Sequence[int]) -> int:
        """A Buy-phase decision after :meth:`_turn_play`: the strategy's buy, else
        ending the phase; -1: the default policy decides."""
        action = self._buy(obs, legal_actions)
        if action is not None:
            return action
        if _END_PHASE in legal_actions:
            return _END_PHASE
        return -1

    def _policy(self, obs: Observation, legal_actions: Sequence[int]) -> int:
        options = adapter.decode_observed(obs, legal_actions)
        decision = adapter.decision_observed(obs, self.strategy.play)
        return choose(decision, options)

    @staticmethod
    def play_game(
        state: object, bots: Sequence[object], rngs: Sequence[random.Random], max_steps: int
    ) -> bool:
        """Play a Dominion game with a :class:`StrategyBot` in every seat to its end:
        the actions the generic loop gives (each seat's bot acting on its own
        observation), without building an observation where the bot does not read
        it (one legal action; all Treasures or a play priority, which the legal
        actions alone decide).  False, and nothing done: not a Dominion game or not
        every seat such a bot."""
        if not isinstance(state, DominionState):
            return False
        seats: list[StrategyBot] = []
        for bot in bots:
            if type(bot) is not StrategyBot:
                return False
            seats.append(bot)
        return _play_game(state, seats, rngs, max_steps)


def _play_game(
    st: DominionState, bots: list[StrategyBot], rngs: Sequence[random.Random], max_steps: int
) -> bool:
    buy_phase, see = _BUY_PHASE, observe
    for _ in range(max_steps):
        player = st.current_player
        if player < 0:
            return True
        legal = st.legal_actions()
        if len(legal) == 1:
            st.apply(legal[0])
            continue
        bot = bots[player]
        if st.stack:
            action = bot.act(see(st, player), legal, rngs[player])
        else:
            action = bot._turn_play(legal)
            if action < 0:
                obs = see(st, player)
                if st.phase == buy_phase:
                    action = bot._turn_buy(obs, legal)
                if action < 0:
                    action = bot._policy(obs, legal)
        st.apply(action)
    raise IllegalAction(f"game did not end within {max_steps} actions")


def bundled_bot(name: str, **params: Any) -> StrategyBot:
    """The bundled strategy file ``name`` as a bot."""
    return StrategyBot(bundled_strategy(name), **params)


def file_bot(path: str, **params: Any) -> StrategyBot:
    """A bot playing the strategy file at ``path``."""
    return StrategyBot(cached_file_strategy(path), **params)
