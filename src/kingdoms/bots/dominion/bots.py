"""The Dominion bots: a strategy's rules, falling through to the default policy.

A :class:`StrategyBot` plays the Actions its ``play`` entries pick (then, unless
the file says ``play_others = false``, those the default strategy's ``play`` entries
pick), then all Treasures, buys by its ``buy`` entries
(:mod:`kingdoms.bots.dominion.strategy`), and answers every decision by its entries
for that purpose, then its ``*.verb`` entries, then the default strategy's (the
bundled ``default.toml``, read by the same code).  The lists are put together once
per bot and purpose.

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
from kingdoms.bots.dominion.lang import PLAY_PURPOSES
from kingdoms.bots.dominion.lang import PURPOSES as PURPOSE_KINDS
from kingdoms.bots.dominion.observation import Observation, observe
from kingdoms.bots.dominion.strategy import (
    CARD,
    Condition,
    Rule,
    Situation,
    Strategy,
    always,
    decision_purpose,
    pick_card,
    yes_no,
)
from kingdoms.core.errors import IllegalAction, InvalidConfig
from kingdoms.dominion import actions as A
from kingdoms.dominion.data import BY_ID, CARDS, IS_ACTION, NUM_CARDS
from kingdoms.dominion.decisions import YES_NO
from kingdoms.dominion.state import BUY_PHASE, DominionState

__all__ = ["StrategyBot", "bundled_bot", "decision_purpose", "file_bot", "situation"]

_PLAY0: Final = A.PLAY * NUM_CARDS
_STYLED_DECISIONS: Final = frozenset({"remodel.trash", "mine.trash", "mine.gain"})
"""Decisions a play style may answer (:mod:`kingdoms.bots.dominion.styles`)."""
_ALL_TREASURES: Final = A.A_ALL_TREASURES
_END_PHASE: Final = A.A_END_PHASE
_BUY_PHASE: Final = BUY_PHASE
_IDS: Final[tuple[str, ...]] = tuple(c.id for c in CARDS)
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
        observation=Observation.from_view(view),
        actions=int(view.get("actions", 0)),
    )


__all__ = ["StrategyBot", "bundled_bot", "decision_purpose", "file_bot", "situation"]


class _Plan:
    """What the bots of one strategy share, put together once: the play list's
    leading plain cards (tried on the legal actions alone), the rest of the play
    list, and each decision's rules (filled as decisions come)."""

    __slots__ = ("chains", "default", "play", "play_rest", "strategy")

    def __init__(self, strategy: Strategy, default: Strategy) -> None:
        self.strategy = strategy
        self.default = default
        plays = strategy.play + (default.play if strategy.play_others else ())
        prefix: list[int] = []
        for r in plays:
            if r.target != CARD or r.cond is not None or r.key not in BY_ID:
                break
            prefix.append(BY_ID[r.key])
        self.play = tuple(prefix)
        self.play_rest = plays[len(prefix) :]
        self.chains: dict[str, tuple[Rule, ...]] = {}


_PLANS: dict[int, _Plan] = {}
"""id of a strategy -> its plan (checked against the strategy itself: ids are reused)."""


def default_strategy() -> Strategy:
    """The default policy: the bundled strategy ``default``."""
    return bundled_strategy("default")


class StrategyBot:
    """Plays by a :class:`Strategy`; the default policy decides everything else."""

    def __init__(self, strategy: Strategy, **params: Any) -> None:
        if params:
            raise InvalidConfig(f"bot {strategy.name!r} takes no parameters, got {sorted(params)}")
        self.strategy = strategy
        self.name = strategy.name
        self.default = default_strategy()
        plan = _PLANS.get(id(strategy))
        if plan is None or plan.strategy is not strategy or plan.default is not self.default:
            plan = _Plan(strategy, self.default)
            if len(_PLANS) >= 256:  # many strategies (an optimizer's): keep a few
                _PLANS.clear()
            _PLANS[id(strategy)] = plan
        self._play = plan.play
        self._play_rest = plan.play_rest
        self._chains = plan.chains
        self._rules_of: Strategy | None = None
        self._rules: tuple[tuple[str, int, int, Condition, Rule], ...] = ()

    def _buy_rules(self) -> tuple[tuple[str, int, int, Condition, Rule], ...]:
        """The strategy's buy rules with the action buying each card and its coin
        cost: action -1 for a card whose affordability only the situation knows (not
        of the card list), -2 for an entry naming a type or any card."""
        strategy = self.strategy
        if self._rules_of is not strategy:
            costs = adapter.COSTS
            out = []
            for r in strategy.buy:
                card, cond = r.key, r.cond or always
                if r.target != CARD:
                    out.append(("", -2, 0, cond, r))
                elif card in _BUY_ACTION and card in costs:
                    out.append((card, _BUY_ACTION[card], costs[card], cond, r))
                else:
                    out.append((card, -1, 0, cond, r))
            self._rules = tuple(out)
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
        for card, action, cost, cond, rule in rules:
            if action >= 0:
                if cost > coins or action not in legal_actions:
                    continue
            elif action == -2:
                if s is None:
                    s = adapter.situation_observed(obs)
                chosen = Strategy("", (rule,), guard=guard).choose(s)
                if chosen is None:
                    continue
                action = A.encode(A.BUY, BY_ID[chosen])
                if action in legal_actions:
                    return action
                continue
            else:
                if s is None:
                    s = adapter.situation_observed(obs)
                if not s.affordable(card):
                    continue
            if cond is not always:
                if s is None:
                    s = adapter.situation_observed(obs)
                s.card = card
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

    def named_cards(self) -> list[str]:
        """The cards the strategy's ``buy`` and ``play`` entries name, in order."""
        out: list[str] = []
        for r in self.strategy.buy + self.strategy.play:
            if r.target == CARD and r.key not in out:
                out.append(r.key)
        return out

    def _chain(self, purpose: str) -> tuple[Rule, ...]:
        """The rules deciding ``purpose``, in the order they are tried: the
        strategy's for the purpose, its ``*.verb`` ones, (for a card to play) its
        ``play`` entries; then the default strategy's the same way."""
        got = self._chains.get(purpose)
        if got is None:
            wildcard = "*." + purpose.partition(".")[2]
            plays = purpose in PLAY_PURPOSES
            out: list[Rule] = []
            for st in (self.strategy, self.default):
                out += st.decisions.get(purpose, ())
                out += st.decisions.get(wildcard, ())
                if plays:
                    out += st.play
            got = tuple(out)
            self._chains[purpose] = got
        return got

    def _decide(self, obs: Observation, legal: Sequence[int]) -> int:
        """The answer to the pending decision: the first rule of its chain that
        applies; none: stop when the choice may stop, else the first choice."""
        purpose = obs.purpose or ""
        chain = self._chain(purpose)
        allowed = set(legal)
        s = adapter.situation_observed(obs)
        s.about_me = obs.about is None or obs.about == obs.seat
        if purpose in _STYLED_DECISIONS and self.strategy.styles:
            styled = self._styled_decision(purpose, obs, s, allowed)
            if styled >= 0:
                return styled
        if PURPOSE_KINDS.get(purpose) == YES_NO:
            for _, _, card in obs.choices:  # the card asked about, if any
                if card is not None:
                    s.card = card
                    break
            want = "no" if yes_no(chain, s) == 0 else "yes"
            for a, answer, _ in obs.choices:
                if answer == want and a in allowed:
                    return a
            return legal[0]
        actions: list[int] = []
        cards: list[str] = []
        done = -1
        for a, answer, card in obs.choices:
            if a not in allowed:
                continue
            if (answer == "card" or answer == "pile") and card is not None:
                actions.append(a)
                cards.append(card)
            elif answer == "done":
                done = a
        i = pick_card(chain, s, cards, done >= 0)
        if i >= 0:
            return actions[i]
        if done >= 0:
            return done
        return actions[0] if actions else legal[0]

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
            if action < 0:
                action = self._policy(obs, legal_actions)
            if self.strategy.styles and _PLAY0 <= action < _PLAY0 + NUM_CARDS:
                card = CARDS[action - _PLAY0].id
                if card in self.strategy.styles:
                    from kingdoms.bots.dominion.styles import declines

                    if declines(self.strategy, obs, adapter.situation_observed(obs), card):
                        # its style says not now: the turn goes on without that play
                        rest = [a for a in legal_actions if a != action]
                        return self.act(obs, rest, rng)
            return action
        return self._policy(obs, legal_actions)

    def _styled_decision(
        self, purpose: str, obs: Observation, s: Situation, allowed: set[int]
    ) -> int:
        """The answer a card's play style gives (``remodel.trash`` by
        ``remodel = "upgrade"``, ``mine.trash``/``mine.gain`` by ``mine =
        "upgrade"``), or -1: the rules decide."""
        target: str | None = None
        if purpose == "remodel.trash" and self.strategy.styles.get("remodel") == "upgrade":
            from kingdoms.bots.dominion.styles import remodel_target

            target = remodel_target(self.strategy, obs, s)
        elif purpose.startswith("mine.") and self.strategy.styles.get("mine") == "upgrade":
            from kingdoms.bots.dominion.styles import mine_target, treasure_pick

            if purpose == "mine.trash":
                picked = mine_target(self.strategy, obs, s)
                target = None if picked is None else picked[0]
            else:  # the first Treasure the buy rules name among those offered
                offered = {c for a, answer, c in obs.choices if c is not None and a in allowed}
                target = treasure_pick(self.strategy, s, 1 << 20, 1 << 20, offered)
        if target is not None:
            for a, answer, card in obs.choices:
                if card == target and answer == "card" and a in allowed:
                    return a
        return -1

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
        if not playable:
            return _ALL_TREASURES if _ALL_TREASURES in legal_actions else -1
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
        """What the fast paths leave: a pending decision, or a turn's play beyond the
        plain cards leading the play list (then all Treasures, or the next phase)."""
        if obs.purpose is not None:
            return self._decide(obs, legal_actions)
        rest = self._play_rest
        if rest:
            n_cards, is_action = NUM_CARDS, IS_ACTION
            actions: list[int] = []
            cards: list[str] = []
            ids = _IDS
            for a in legal_actions:
                if a >= n_cards:
                    break
                if is_action[a]:
                    actions.append(a)
                    cards.append(ids[a])
            if cards:
                s = adapter.situation_observed(obs)
                i = pick_card(rest, s, cards, False)
                if i >= 0:
                    return actions[i]
        if _ALL_TREASURES in legal_actions:
            return _ALL_TREASURES
        if _END_PHASE in legal_actions:
            return _END_PHASE
        return legal_actions[0]

    @staticmethod
    def play_game(
        state: object, bots: Sequence[object], rngs: Sequence[random.Random], max_steps: int
    ) -> bool:
        """Play a Dominion game with a :class:`StrategyBot` in every seat to its end:
        the actions the generic loop gives (each seat's bot acting on its own
        observation), without building an observation where the bot does not read
        it (one legal action; all Treasures or a play priority, which the legal
        actions alone decide).  With logging off, the native core plays the game where
        it can (the same game: :mod:`kingdoms.bots.dominion.native`).  False, and
        nothing done: not a Dominion game or not every seat such a bot."""
        if not isinstance(state, DominionState):
            return False
        seats: list[StrategyBot] = []
        for bot in bots:
            if type(bot) is not StrategyBot:
                return False
            seats.append(bot)
        if not state.logging:
            from kingdoms.bots.dominion.native import play_state

            if play_state(state, seats, max_steps):
                return True
        return _play_game(state, seats, rngs, max_steps)


def _play_game(
    st: DominionState,
    bots: list[StrategyBot],
    rngs: Sequence[random.Random],
    max_steps: int,
    max_turns: int = 0,
) -> bool:
    """Play the game to its end, or (``max_turns`` > 0) until its first player has
    taken more than ``max_turns`` turns (the game then stands unfinished)."""
    buy_phase, see = _BUY_PHASE, observe
    first = st.first
    for _ in range(max_steps):
        player = st.current_player
        if player < 0 or (max_turns > 0 and st.turns[first] > max_turns):
            return True
        legal = st.legal_actions()
        if len(legal) == 1:
            st.apply(legal[0])
            continue
        bot = bots[player]
        if st.stack or bot.strategy.styles:
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


def _card_rules(strategy: Strategy) -> list[tuple[str, Condition]]:
    return [(r.key, r.cond or always) for r in strategy.buy if r.target == CARD]


def bundled_bot(name: str, **params: Any) -> StrategyBot:
    """The bundled strategy file ``name`` as a bot (``start=``: its start state,
    :func:`kingdoms.bots.dominion.starts.spec_start`)."""
    return StrategyBot(_started(bundled_strategy(name), params), **params)


def file_bot(path: str, **params: Any) -> StrategyBot:
    """A bot playing the strategy file at ``path`` (``start=`` as :func:`bundled_bot`)."""
    return StrategyBot(_started(cached_file_strategy(path), params), **params)


def _started(strategy: Strategy, params: dict[str, Any]) -> Strategy:
    """``strategy`` with the spec's ``start`` parameter (taken out of ``params``)."""
    if "start" not in params:
        return strategy
    from kingdoms.bots.dominion.starts import strategy_with_start

    return strategy_with_start(strategy, params.pop("start"))
