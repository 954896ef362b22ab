"""``best``: the strongest Dominion player of the package, at two settings.

``best`` decides every decision of its seat — Action plays, every card's question
(Militia discards, Moat reveals, gains, trashing), buys — by a determinized search
from its own seat's view: the candidates are the rollout policy's own choice (the
kingdom's plan: :mod:`kingdoms.bots.dominion.search`, each seat modelled by the
bundled strategy of the cards it owns) and the next best-ranked moves (``width``).
Each iteration rebuilds a full state from the view with the hidden parts (the other
seats' hands, every deck's order) sampled anew, and plays *every* candidate from
that same deal with the same random numbers to the end of the game (common random
numbers, ``method=paired``): the candidates are compared on the same luck, so the
difference of two moves is measured far more precisely than by independent
rollouts.  The search overrules the plan only when another move's mean paired
difference is above ``keep`` standard errors of that difference.  A move with one
sensible answer (one legal move, playing all Treasures) is made without search.
``method=flat`` is the earlier search (independent rollouts, flat UCB).

The plan (the strategy that gives the first candidate and plays ``best``'s seat in the
rollouts) is searched during its first :data:`PLAN_TURNS` turns (:class:`PlanSearch`,
``plan=search``); ``plan=table`` takes the table's (``kingdom_plans``).

Budgets are in CPU time of the searching thread, never wall time, or in iterations:
the same seed and ``iterations`` give the same move on any machine and build.

* ``best`` (``level=default``): :data:`DEFAULT_SECONDS` CPU seconds of search per
  decision on average; a clear decision stops early and a close one may spend what
  those saved, up to :data:`BANK_LIMIT` times as much (``bank=on``; under 0.1 s of CPU
  a decision: a person never waits);
* ``best:strong`` (``level=strong``): :data:`STRONG_SECONDS` CPU seconds, a wider
  root — for analysis; the game review (:mod:`kingdoms.review`) plays its rollouts
  and ranks its candidates the same way.

Parameters (``best:level=strong,iterations=400,seed=3``): ``level``, ``time`` (CPU
seconds per decision), ``iterations`` (a cap on rollouts; alone: no time limit),
``seed`` (the search's own random numbers: reproducible moves), ``width``, ``keep``,
``method`` (``paired`` or ``flat``), ``rollout`` (``whole`` or ``step``), ``plan``
(``search`` or ``table``), ``opponent`` (``fit`` or ``bundled``), ``rush`` (``on`` or
``off``), ``reward`` (``auto``, ``share``, ``mix`` or ``end``), ``bank`` (``on`` or
``off``: stop a clear decision early and spend the saved budget on close ones),
``plan_keep`` (the standard errors by which the opening's plan search must find
another plan ahead of the table's to play it; ``keep`` unless given), ``plan_turns``
(the turns of the opening, in which the plan search runs: :data:`PLAN_TURNS`),
``pairs`` (``on`` or ``off``: also weigh plans of two cards, :data:`PAIRS`),
``replan`` (``on`` or ``off``: the plan search starts over when the model of the
other seats changes, :data:`REPLANS`), ``early`` (``on`` or ``off``: also weigh Big
Money with a terminal card bought before Gold, :data:`EARLIES`; each level's own
setting unless given: on at the default level, off at the strong one), ``many``
(``on`` or ``off``: also weigh Big Money with six of a strong cantrip and one or
two of a terminal that attacks or gives +Buy, :data:`MANYS`; each level's own
setting unless given: on at the default level, off at the strong one), ``trash``
(``on`` or ``off``: also weigh trashing plans with Curse givers and Attacks,
:data:`TRASHES`; each level's own setting unless given: on at the default level, off
at the strong one).

The other seats are rolled out by a model fitted to their visible gains
(:class:`~kingdoms.bots.dominion.opponent.OpponentModel`, ``opponent=fit``): the
candidate strategy whose buy rules best explain what each seat has gained, once it
beats the prior of the default model (the bundled strategy naming the seat's
cards, ``opponent=bundled``).

>>> BestBot().name, BestBot(level="strong").name
('best', 'best:strong')
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from statistics import NormalDist
from types import MappingProxyType
from typing import Any

from kingdoms.bots.base import View
from kingdoms.bots.dominion.bots import StrategyBot
from kingdoms.bots.dominion.opponent import (
    ALT_VP,
    GAINERS,
    RUSH_HELPERS,
    TRASHERS,
    OpponentModel,
    rush_name,
)
from kingdoms.bots.dominion.search import (
    _non_terminal,
    _steps,
    _strategy,
    finish_rollout,
    gives_curses,
    pair_plans,
    plan_candidates,
    plan_move,
)
from kingdoms.bots.mcts import CLOCKS, MAX_PLAYOUT_STEPS, MCTSBot, play_to_end, rewards
from kingdoms.core.errors import InvalidConfig
from kingdoms.core.registry import get_game
from kingdoms.core.state import State
from kingdoms.dominion.data import BY_ID, CARDS, IS_ACTION
from kingdoms.dominion.state import DominionState

DEFAULT_SECONDS = 0.075
"""CPU seconds of search per decision at the default level (the view's rebuild and
the ranking come on top: a decision stays under 0.1 s of CPU)."""
STRONG_SECONDS = 1.0
"""CPU seconds of search per decision at the strong level."""

PLAYOUT = "kingdom"
"""The rollout policy (``kingdoms.bots.dominion.search.kingdom_playout``)."""

LEVELS: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {
        "default": MappingProxyType(
            {
                "time": DEFAULT_SECONDS,
                "width": 5,
                "keep": 2.0,
                "bank": "on",
                "early": "on",
                "many": "on",
                "trash": "on",
            }
        ),
        "strong": MappingProxyType(
            {
                "time": STRONG_SECONDS,
                "width": 6,
                "keep": 1.5,
                "bank": "off",
                "early": "off",
                "many": "off",
                "trash": "off",
            }
        ),
    }
)
"""Each level's search settings (CPU seconds per decision, root width, keep, whether
it stops clear decisions early: :data:`BANKS`, and whether its plan search weighs the
plans buying a terminal before Gold: :data:`EARLIES`, and the plans of many
strong cantrips and an attack or a +Buy: :data:`MANYS`, and the trashing plans: :data:`TRASHES`)."""

ROLLOUTS = ("whole", "step")
"""``whole``: a rollout fixes each seat's model when it starts and plays it to the end
(:func:`kingdoms.bots.dominion.search.finish_rollout`, on the native core where it
can: several times as many rollouts a second); ``step``: the earlier rollout, each
move asked of :func:`~kingdoms.bots.dominion.search.kingdom_playout` (each seat's model
read again every move, Actions played by the kingdom's strategy), in Python."""

PLANS = ("search", "table")
"""``search``: the plan is searched during the opening (:class:`PlanSearch`);
``table``: the plan is the first of ``kingdom_plans`` (the precomputed table)."""

PLAN_TURNS = 2
"""``best`` weighs its plan during its first ``PLAN_TURNS`` turns (the opening), and
plays the leading plan's moves meanwhile; from then on the plan is fixed."""

PLAN_PRUNE = 2.5
"""A plan more than this many standard errors behind the leader (paired) is dropped."""

PLAN_SCORING = "relative"
"""What a plan's rollout scores (:func:`~kingdoms.bots.mcts.rewards`): ``relative``,
the seat's share of the points, as the move search."""

MIN_PLAN_ROUNDS = 8
"""Rounds of the plan search before a plan is dropped or the first plan overruled."""

OPPONENTS = ("fit", "bundled")
"""``fit``: each other seat rolled out by the strategy that best explains its visible
gains (:class:`~kingdoms.bots.dominion.opponent.OpponentModel`); ``bundled``: by the
bundled strategy naming the Kingdom cards it owns (the default model)."""

REPLANS = ("on", "off")
"""``on``: the opening's plan search drops its rounds and weighs every plan again when
the model of the other seats changes (:class:`PlanSearch`'s ``model``): the rounds
played so far weighed the plans against a strategy the other seat is now believed
not to play.  With ``plan_turns`` past the first turns, the plans are then weighed
against the strategy fitted to the other seat's first buys.  ``off`` (the default):
the rounds add up over the opening whatever the model played."""

PAIRS = ("on", "off")
"""``on``: the plan search also weighs plans of two cards on a kingdom with a card
that gives Curses (:func:`~kingdoms.bots.dominion.search.pair_plans`: two Witches and
two Universities, two Familiars and two Philosopher's Stones); ``off`` (the default):
plans of one card only."""

EARLIES = ("on", "off")
"""``on``: the plan search also weighs Big Money Ultimate with one or two of a
terminal Action costing 4 or 5 bought *before* Gold (:func:`early_plans`:
``bmu+witch:2:early``), the shape of the Witch, Bandit and Council Room strategies
``kingdoms optimize`` finds (the default level's setting: a paired A/B on the 42
matchups of docs/best.md, +1.1 points, SE 0.5); ``off`` (the strong level's, so the
review's): such a card only after Gold and the mid-game Duchy (``bmu+witch:2``)."""

MANYS = ("on", "off")
"""``on``: the plan search also weighs Big Money Ultimate with up to six of a strong
cantrip (exactly +1 Action, +1 Card or more, and +2 Cards or +1 Card and +$1 or more,
costing 3 to 5, no Potion: Laboratory, Market, Poacher) and one or two of a terminal
costing 3 to 5 that attacks or gives +Buy (Militia, Witch, Bandit, Woodcutter, Council
Room), all bought after Gold (:func:`many_plans`: ``bmu+laboratory:6+militia:2``), the
shape of the strategies ``kingdoms optimize`` finds on Spy/Thief (Laboratories and
Militias) and on a Poacher and Woodcutter kingdom (the default level's setting: a
paired A/B in two stages on the 27 matchups of docs/best.md whose kingdoms have such
plans, +1.6 points, SE 0.6); ``off`` (the strong level's, so the review's): plans of
at most two copies of a cantrip.  (The first ``many=on`` weighed up to four of any
drawing cantrip with one terminal Attack costing 4 or 5.)"""

TRASHES = ("on", "off")
"""``on``: on a kingdom with a trasher (Chapel, Sentry) and a card giving Curses or a
terminal Attack, the plan search also weighs trashing plans (:func:`trash_plans`:
``trash:chapel+witch:3+poacher:3``), the shape of the winners ``kingdoms optimize``
finds on such kingdoms (the default level's setting: a paired A/B on the 10 matchups of
docs/best.md whose kingdoms have such plans, +3.6 points, SE 1.1); ``off`` (the strong
level's, so the review's): a trasher only as one or two copies on Big Money."""

RUSHES = ("on", "off")
"""``on``: on a kingdom with a cheap gainer (Workshop, Woodcutter, ...), an
alternative Victory card (Gardens) and a helper (Throne Room), the plan search also
weighs that rush (:func:`plan_names`); ``off``: it weighs the plans of
:func:`~kingdoms.bots.dominion.search.plan_candidates` only."""

REWARDS = ("auto", "share", "mix", "end")
"""What a rollout of the move search scores for the seat: ``share``, the seat's share
of the points; ``mix``, the mean of the win (1, ½ shared, 0) and that share
(:data:`WIN_WEIGHT` on the win); ``end``, ``mix`` near the end of the game
(:func:`_endgame`) and ``share`` before; ``auto`` (the default), ``end`` on a kingdom
with a card that gives the other players Curses (:func:`_cursing`: Witch, Familiar)
and ``share`` on any other.  The share alone still pays for points in a game the seat
loses (behind, it takes Estates that bring the last pile closer), which is how
``best`` lost Witch mirrors; a paired A/B found ``end`` ahead on Witch kingdoms and no
gain elsewhere (one kingdom behind), ``mix`` no gain (docs/best.md)."""

WIN_WEIGHT = 0.5
"""The win's weight in the ``mix`` reward (the share of the points: the rest)."""

BANKS = ("off", "on")
"""``on``: the move search may stop a decision early, but only at the rounds of
:data:`STOP_LOOKS`: it stops there once one candidate is ahead of every other by
:func:`stop_bound` standard errors of their paired difference (a bound corrected for
the looks and the comparisons, so a stop on a lucky lead is rare), or once every
candidate has scored the same in every round.  The budget it did not spend is banked
and a later decision still close when its own budget runs out may spend it, up to
:data:`BANK_LIMIT` times its own budget.  The bank never goes below zero, so the mean
CPU per decision stays within the budget.  ``off``: every searched decision spends
its whole budget.  The default level banks, the strong level does not (unless
given: :data:`LEVELS`)."""

STOP_LOOKS = (16, 32, 64, 128, 256, 512)
"""The paired rounds after which the search looks whether it may stop (``bank=on``);
it never looks in between, so a lead that is luck has only these few chances."""

STOP_ALPHA = 0.05
"""At most the chance, over all of a decision's looks, that the search stops with a
leader worse than the best candidate (``bank=on``; :func:`stop_bound`)."""

BANK_LIMIT = 1.25
"""A decision spends at most this many times its budget (its own and banked):
0.094 CPU s of search at the default level, under 0.1 s with the rest."""

METHODS = ("paired", "flat")
"""``paired``: every candidate played from the same deals (common random numbers);
``flat``: :class:`~kingdoms.bots.mcts.MCTSBot`'s flat UCB over independent rollouts."""

MIN_ROUNDS = 4
"""Paired rounds before the plan's move may be overruled (fewer: too little evidence)."""


def _on_off(name: str, value: str | bool | None, allowed: tuple[str, ...]) -> str | None:
    """The on/off parameter ``name`` as ``on`` or ``off`` (the spec parser reads on/off
    as booleans); None (the level's own setting) stays None; any other value is
    refused with its name."""
    if isinstance(value, bool):
        value = "on" if value else "off"
    if value is not None and value not in allowed:
        raise InvalidConfig(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
    return value


class BestBot:
    """The ``best`` bot: determinized flat Monte Carlo search over the rollout
    policy's best-ranked moves, from the seat's view only (see the module)."""

    def __init__(
        self,
        level: str = "default",
        time: float | None = None,
        iterations: int | None = None,
        seed: int | None = None,
        width: int | None = None,
        keep: float | None = None,
        method: str = "paired",
        rollout: str = "whole",
        plan: str = "search",
        opponent: str = "fit",
        rush: str | bool = "on",
        reward: str = "auto",
        bank: str | bool | None = None,
        plan_keep: float | None = None,
        plan_turns: int = PLAN_TURNS,
        pairs: str | bool = "off",
        replan: str | bool = "off",
        early: str | bool | None = None,
        many: str | bool | None = None,
        trash: str | bool | None = None,
    ) -> None:
        if isinstance(plan_turns, bool) or not isinstance(plan_turns, int) or plan_turns < 0:
            raise InvalidConfig(
                f"plan_turns must be a whole number of 0 or more, not {plan_turns!r}"
            )
        pairs_set = _on_off("pairs", pairs, PAIRS)
        early_set = _on_off("early", early, EARLIES)
        many_set = _on_off("many", many, MANYS)
        trash_set = _on_off("trash", trash, TRASHES)
        replan_set = _on_off("replan", replan, REPLANS)
        if plan_keep is not None and (
            isinstance(plan_keep, bool)
            or not isinstance(plan_keep, int | float)
            or not plan_keep >= 0
        ):
            raise InvalidConfig(f"plan_keep must be a number of 0 or more, not {plan_keep!r}")
        bank_set = _on_off("bank", bank, BANKS)
        if reward not in REWARDS:
            raise InvalidConfig(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        rush_set = _on_off("rush", rush, RUSHES)
        if opponent not in OPPONENTS:
            raise InvalidConfig(f"opponent must be one of {', '.join(OPPONENTS)}, not {opponent!r}")
        if plan not in PLANS:
            raise InvalidConfig(f"plan must be one of {', '.join(PLANS)}, not {plan!r}")
        if rollout not in ROLLOUTS:
            raise InvalidConfig(f"rollout must be one of {', '.join(ROLLOUTS)}, not {rollout!r}")
        if method not in METHODS:
            raise InvalidConfig(f"method must be one of {', '.join(METHODS)}, not {method!r}")
        if level not in LEVELS:
            raise InvalidConfig(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
        settings = dict(LEVELS[level])
        if time is not None:
            settings["time"] = time
        elif iterations is not None:
            settings["time"] = None  # iterations alone: reproducible on any machine
        if width is not None:
            settings["width"] = width
        if keep is not None:
            settings["keep"] = keep
        if bank_set is not None:
            settings["bank"] = bank_set
        if early_set is not None:
            settings["early"] = early_set
        if many_set is not None:
            settings["many"] = many_set
        if trash_set is not None:
            settings["trash"] = trash_set
        self.level = level
        self.method = method
        self.rollout = rollout
        self.plan_mode = plan
        self.rush = rush_set == "on"
        self.pairs = pairs_set == "on"
        self.replan = replan_set == "on"
        self.early = settings["early"] == "on"
        self.many = settings["many"] == "on"
        self.trash = settings["trash"] == "on"
        self.reward = reward
        self.bank = settings["bank"] == "on"
        self.plan_keep = None if plan_keep is None else float(plan_keep)
        """Standard errors a plan must lead the table's by (None: ``keep``)."""
        self.plan_turns = plan_turns
        """The turns of the opening, in which the plan is weighed (its moves played)."""
        self.banked = 0.0
        """Budget saved by earlier decisions of this game (CPU s, or rollouts when
        the budget is ``iterations`` alone)."""
        self._bank_turn = 0
        self.stopped_early = False
        """Whether the last decision's search stopped early (``bank=on``)."""
        self.plans: PlanSearch | None = None
        self.opponent_mode = opponent
        self.opponents: OpponentModel | None = None
        """The model of the other seats in the game being played (None: none yet)."""
        self._opponents_turn = 0
        """The plan search of the game being played (None: none yet)."""
        self.last_kind = ""
        """What the last decision searched: ``move``, ``plan`` or nothing (``""``)."""
        self.last_stats: dict[int, tuple[int, float]] = {}
        self._paired_iterations = 0
        self._mix = reward == "mix"
        self._reward = "share" if reward == "auto" else reward
        """The reward in use: ``reward``, or what ``auto`` chose for this kingdom."""
        self.name = "best" if level == "default" else f"best:{level}"
        self.search = MCTSBot(
            time=settings["time"],
            iterations=iterations,
            algorithm="flat",
            playout=PLAYOUT,
            scoring="relative",
            seed=seed,
            width=settings["width"],
            keep=settings["keep"],
            clock="cpu",
        )

    def check_game(self, game: str) -> None:
        if game != "dominion":
            raise InvalidConfig(f"bot 'best' plays Dominion, not {game}")
        self.search.check_game(game)

    @property
    def last_iterations(self) -> int:
        """Rollouts of the last decision (0: made without searching)."""
        if self.method == "flat":
            return int(self.search.last_iterations)
        return self._paired_iterations

    def act(self, view: View, legal_actions: Sequence[int], rng: random.Random) -> int:
        if self.method == "flat":
            return int(self.search.act(view, legal_actions, rng))
        return self._paired(view, list(legal_actions), rng)

    def _paired(self, view: View, legal: list[int], rng: random.Random) -> int:
        """The paired search (see the module): every candidate from the same deal."""
        from kingdoms.bots.dominion.search import obvious_action, rank_actions

        self._paired_iterations = 0
        self.last_stats = {}
        self.last_kind = ""
        self.stopped_early = False
        if len(legal) == 1:
            return legal[0]
        search = self.search
        rng = search._rng if search._rng is not None else rng
        game = get_game(str(view["game"]))
        policy = search._policy(game.name)
        base = game.state_from_view(view, rng)
        base.logging = False
        me = base.current_player
        turn = int(getattr(base, "turns", [0] * (me + 1))[me])
        if turn < self._bank_turn:  # a new game: nothing banked
            self.banked = 0.0
        self._bank_turn = turn
        self._reward = self.reward
        if self.reward == "auto":
            self._reward = "end" if _cursing(tuple(base.config.options["kingdom"])) else "share"
        self._mix = self._reward == "mix" or (self._reward == "end" and _endgame(base))
        others = self._model_others(view, base, me)
        plan: str | None = None
        if self.plan_mode == "search" and self.rollout == "whole":
            assert isinstance(base, DominionState)
            plans = self._plan_search(base, me)
            if base.turns[me] < self.plan_turns:  # the opening: weigh the plans, play the leader's
                self.last_kind = "plan"
                self._paired_iterations = plans.run(
                    base, me, rng, search.time, search.iterations, CLOCKS[search.clock], others
                )
                return plan_move(base, legal, plans.choice(self._plan_keep()))
            chosen = plans.choice(self._plan_keep())
            plan = None if chosen == plans.names[0] else chosen
        forced = obvious_action(base, legal)
        if forced is not None:
            return int(forced)
        cands = rank_actions(base, legal, plan)[: search.width or len(legal)]
        if len(cands) == 1:
            return cands[0]
        self.last_kind = "move"
        k = len(cands)
        seat_plans: dict[int, str] | None = dict(others)
        if plan is not None:
            seat_plans = {**others, me: plan}
        if not seat_plans:
            seat_plans = None
        total = [0.0] * k
        diff = [0.0] * k  # sum of (reward - the plan's reward) over rounds
        diff2 = [0.0] * k
        # bank=on: per pair i < j, the sums of (reward i - reward j) and its square
        pair = [[0.0] * k for _ in range(k)]
        pair2 = [[0.0] * k for _ in range(k)]
        limit = search.iterations
        seconds = search.time
        bank = self.bank
        if bank:  # this decision may spend what earlier ones saved, up to BANK_LIMIT
            if seconds is not None:
                seconds = min(seconds + self.banked, seconds * BANK_LIMIT)
            elif limit is not None:
                limit = int(min(limit + self.banked, limit * BANK_LIMIT))
        now = CLOCKS[search.clock]
        start = now()
        deadline = start + seconds if seconds is not None else None
        rounds = 0
        while True:
            if limit is not None and rounds * k + k > limit and rounds:
                break
            # stop before a round that would end past the deadline (rounds are whole)
            if deadline is not None and rounds and now() + (now() - start) / rounds > deadline:
                break
            if bank and rounds in STOP_LOOKS and _clear(pair, pair2, rounds, k):
                self.stopped_early = True
                break
            seed = rng.getrandbits(64)
            got = [0.0] * k
            for i in range(k):
                r = random.Random(seed)
                state = base.determinize(me, r)
                state.logging = False
                state.apply(cands[i])
                got[i] = self._finish(state, policy, r, seat_plans)[me]
            rounds += 1
            for i in range(k):
                total[i] += got[i]
                d = got[i] - got[0]
                diff[i] += d
                diff2[i] += d * d
            if bank:
                for i in range(k):
                    row, row2, gi = pair[i], pair2[i], got[i]
                    for j in range(i + 1, k):
                        d = gi - got[j]
                        row[j] += d
                        row2[j] += d * d
        self._paired_iterations = rounds * k
        if bank:  # bank what this decision saved, or draw what it spent beyond its own
            if search.time is not None:
                self.banked = max(0.0, self.banked + search.time - (now() - start))
            elif search.iterations is not None:
                self.banked = max(0.0, self.banked + search.iterations - rounds * k)
        self.last_stats = {cands[i]: (rounds, total[i]) for i in range(k)}
        best = max(range(k), key=lambda i: (diff[i], -i))
        if best == 0 or rounds < MIN_ROUNDS:
            return cands[0]
        mean = diff[best] / rounds
        var = max(diff2[best] / rounds - mean * mean, 1e-12)
        if mean > float(search.keep or 0.0) * math.sqrt(var / (rounds - 1)):
            return cands[best]
        return cands[0]

    def _plan_keep(self) -> float:
        """Standard errors by which a plan must lead the table's to be played."""
        if self.plan_keep is not None:
            return self.plan_keep
        return float(self.search.keep or 0.0)

    def _model_others(self, view: View, base: State, me: int) -> dict[int, str]:
        """Seat -> the strategy its rollouts play (the seats not played by the default
        model), after taking in ``view`` (public parts only: see
        :class:`~kingdoms.bots.dominion.opponent.OpponentModel`)."""
        if self.opponent_mode != "fit" or not isinstance(base, DominionState):
            return {}
        kingdom = tuple(base.config.options["kingdom"])
        model = self.opponents
        turn = base.turns[me]
        if (
            model is None
            or model.kingdom != kingdom
            or model.me != me
            or turn < self._opponents_turn
        ):
            model = self.opponents = OpponentModel(kingdom, me)
        self._opponents_turn = turn
        model.observe(view)
        return model.models()

    def _plan_search(self, base: DominionState, me: int) -> PlanSearch:
        """This game's plan search (a new one for a new game, kingdom or seat)."""
        kingdom = tuple(base.config.options["kingdom"])
        plans = self.plans
        if (
            plans is None
            or plans.kingdom != kingdom
            or plans.seat != me
            or base.turns[me] < plans.turn
        ):
            plans = self.plans = PlanSearch(
                kingdom,
                me,
                rush=self.rush,
                pairs=self.pairs,
                early=self.early,
                many=self.many,
                trash=self.trash,
            )
            plans.replan = self.replan
        plans.turn = base.turns[me]
        return plans

    def _finish(
        self,
        state: State,
        policy: Any,
        rng: random.Random,
        plans: Mapping[int, str] | None = None,
    ) -> list[float]:
        if self.rollout == "whole":
            if plans is None:
                play_to_end(state, policy, rng)
            else:
                finish_rollout(state, rng, MAX_PLAYOUT_STEPS, plans)
        else:
            apply = state.apply
            for _ in range(100_000):
                if state.current_player < 0:
                    break
                apply(policy(state, rng))
        out = state.outcome()
        if out is None:
            return [0.5] * state.num_players
        return self.rewards(out.scores, out.winners)

    def rewards(self, scores: Sequence[float], winners: Sequence[int]) -> list[float]:
        """Each seat's reward for a finished rollout of the move search (``reward``).

        >>> BestBot().rewards([30, 20], [0]), BestBot(reward="mix").rewards([30, 20], [0])
        ([0.6, 0.4], [0.8, 0.2])
        """
        share = rewards(scores, winners, self.search.scoring)
        if self._reward == "share" or (self._reward == "end" and not self._mix):
            return share
        win = rewards(scores, winners, "win")
        return [WIN_WEIGHT * w + (1.0 - WIN_WEIGHT) * s for w, s in zip(win, share, strict=True)]


def stop_bound(n: int, others: int) -> float:
    """Standard errors by which a candidate must lead each of ``others`` candidates
    after ``n`` paired rounds to stop the search (``bank=on``): the one-sided Student
    *t* quantile of ``n - 1`` degrees of freedom at :data:`STOP_ALPHA` shared
    (Bonferroni) between the looks of :data:`STOP_LOOKS` and the ``others``
    candidates that could wrongly lead the best one (a wrong stop needs one of them
    ahead of the best by the bound at one of the looks).  The *t* quantile (the
    Cornish–Fisher expansion of the normal one) pays for the SE itself being
    estimated from few rounds.

    >>> round(stop_bound(16, 4), 2), round(stop_bound(512, 4), 2), round(stop_bound(16, 1), 2)
    (3.37, 2.88, 2.69)
    """
    z = NormalDist().inv_cdf(1.0 - STOP_ALPHA / (len(STOP_LOOKS) * max(others, 1)))
    v = float(n - 1)
    z3, z5 = z**3, z**5
    return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v)


def _clear(pair: list[list[float]], pair2: list[list[float]], n: int, k: int) -> bool:
    """Whether ``n`` paired rounds settle the decision (``bank=on``): one candidate is
    ahead of every other by :func:`stop_bound` standard errors of their difference, or
    all candidates scored the same in every round.  ``pair[i][j]``, ``pair2[i][j]``
    (``i < j``): the sums of candidate ``i``'s reward minus ``j``'s and of its square.

    >>> _clear([[0.0, 8.0], [0.0, 0.0]], [[0.0, 8.0], [0.0, 0.0]], 16, 2)
    True
    >>> _clear([[0.0, 2.0], [0.0, 0.0]], [[0.0, 8.0], [0.0, 0.0]], 16, 2)
    False
    """
    if all(pair2[i][j] == 0.0 for i in range(k) for j in range(i + 1, k)):
        return True  # every candidate scored the same in every round
    bound = stop_bound(n, k - 1)
    for lead in range(k):
        ahead = True
        for other in range(k):
            if other == lead:
                continue
            i, j, sign = (lead, other, 1.0) if lead < other else (other, lead, -1.0)
            mean = sign * pair[i][j] / n
            var = max(pair2[i][j] / n - mean * mean, 1e-12)
            if mean <= bound * math.sqrt(var / (n - 1)):
                ahead = False
                break
        if ahead:
            return True
    return False


def _cursing(kingdom: tuple[str, ...]) -> bool:
    """Whether a card of ``kingdom`` gives the other players a Curse when played (its
    declared steps hold :class:`~kingdoms.dominion.cards.steps.EachOtherGains` of
    Curses: Witch, Familiar).

    >>> _cursing(("witch", "moat")), _cursing(("familiar",)), _cursing(("smithy", "militia"))
    (True, True, False)
    """
    return any(gives_curses(name) for name in kingdom)


def _endgame(state: State) -> bool:
    """Near the end of the game: four Provinces or fewer left, or a Supply pile empty
    and another down to two cards or fewer."""
    from kingdoms.dominion.data import PROVINCE

    assert isinstance(state, DominionState)
    left = sorted(state.supply[i] for i in state.piles)
    return state.supply[PROVINCE] <= 4 or (left[0] == 0 and left[1] <= 2)


def plan_bot(name: str) -> StrategyBot:
    """A new bot that plays the plan ``name`` as a fixed strategy, every decision by
    its rules: any name :func:`plan_names` gives (a bundled strategy, ``bmu+X:N``,
    ``bmu+X:a+Y:b``, ``rush:...``), or the opponent model.  It shows what a plan is
    worth without the search (``bench/best_matchups.py --plans``).

    >>> plan_bot("bmu+witch:2+university:2").name
    'bmu+witch:2+university:2'
    >>> plan_bot("no-such-plan")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kingdoms.bots.dominion.vocabulary.StrategyError: no bundled strategy 'no-such-plan'; ...
    """
    return StrategyBot(_strategy(name)[0])


def early_plans(kingdom: tuple[str, ...]) -> tuple[str, ...]:
    """Big Money Ultimate with one or two of each terminal Action of ``kingdom``
    costing 4 or 5 (no Potion), bought before Gold (``best:early=on``).

    >>> early_plans(("cellar", "laboratory", "militia", "witch", "gardens"))
    ('bmu+militia:1:early', 'bmu+militia:2:early', 'bmu+witch:1:early', 'bmu+witch:2:early')
    """
    out: list[str] = []
    for cid in kingdom:
        if _plain_action(cid, 4, 5) and not _non_terminal(cid):
            out += [f"bmu+{cid}:1:early", f"bmu+{cid}:2:early"]
    return tuple(out)


def _plain_action(cid: str, low: int = 0, high: int = 99) -> bool:
    """Whether ``cid`` is an Action of this game costing ``low`` to ``high`` coins and
    no Potion.

    >>> _plain_action("militia", 4, 5), _plain_action("familiar"), _plain_action("gold")
    (True, False, False)
    """
    c = BY_ID.get(cid)
    return (
        c is not None and IS_ACTION[c] and not CARDS[c].cost[1] and low <= CARDS[c].cost[0] <= high
    )


def _plus(cid: str) -> tuple[int, int, int, int]:
    """The +Cards, +Actions, +Buys and +$ the Action ``cid`` declares.

    >>> _plus("laboratory"), _plus("market"), _plus("woodcutter")
    ((2, 1, 0, 0), (1, 1, 1, 1), (0, 0, 1, 2))
    """
    from kingdoms.dominion.cards.steps import Plus

    plus = [s for s in _steps(cid) if isinstance(s, Plus)]
    return (
        sum(s.cards for s in plus),
        sum(s.actions for s in plus),
        sum(s.buys for s in plus),
        sum(s.coins for s in plus),
    )


def _draws_one_action(cid: str) -> bool:
    """Whether the Action ``cid`` gives +1 Card or more and exactly +1 Action."""
    cards, actions, _, _ = _plus(cid)
    return cards >= 1 and actions == 1


def _strong_cantrip(cid: str) -> bool:
    """Whether the Action ``cid`` gives exactly +1 Action and more than it takes: +2
    Cards, or +1 Card and +$1 or more (Laboratory, Market, Poacher; not Spy, Harbinger
    or Merchant, which replace themselves and do a little more)."""
    cards, actions, _, coins = _plus(cid)
    return actions == 1 and cards >= 1 and cards + coins >= 2


def _attack_or_buy(cid: str) -> bool:
    """Whether the terminal Action ``cid`` attacks or gives +Buy (Militia, Witch,
    Woodcutter, Council Room)."""
    return not _non_terminal(cid) and (CARDS[BY_ID[cid]].is_attack or _plus(cid)[2] >= 1)


def many_plans(kingdom: tuple[str, ...]) -> tuple[str, ...]:
    """Big Money Ultimate with up to six of a strong cantrip and one or two of a
    terminal that attacks or gives +Buy (``best:many=on``, :data:`MANYS`), every such
    pair of ``kingdom`` costing 3 to 5 with no Potion: the cantrip gives exactly +1
    Action and +2 Cards, or +1 Card and +$1 (:func:`_strong_cantrip`: Laboratory,
    Market, Poacher); the terminal attacks or gives +Buy (Militia, Witch, Bandit,
    Bureaucrat, Thief, Woodcutter, Council Room).

    >>> many_plans(("laboratory", "market", "militia", "smithy", "spy", "woodcutter"))
    ... # doctest: +NORMALIZE_WHITESPACE
    ('bmu+laboratory:6+militia:1', 'bmu+laboratory:6+militia:2',
     'bmu+laboratory:6+woodcutter:1', 'bmu+laboratory:6+woodcutter:2',
     'bmu+market:6+militia:1', 'bmu+market:6+militia:2',
     'bmu+market:6+woodcutter:1', 'bmu+market:6+woodcutter:2')
    """

    cards = sorted(c for c in kingdom if _plain_action(c, 3, 5))
    cantrips = [c for c in cards if _strong_cantrip(c)]
    terminals = [c for c in cards if _attack_or_buy(c)]
    return tuple(f"bmu+{x}:6+{t}:{n}" for x in cantrips for t in terminals for n in (1, 2))


def trash_plans(kingdom: tuple[str, ...]) -> tuple[str, ...]:
    """Trashing plans of ``kingdom`` (``best:trash=on``, :data:`TRASHES`): with each
    trasher of the kingdom (Chapel, Sentry), three of each card giving Curses (Witch,
    Familiar) or, with none, of each terminal Attack without a Potion cost, alone and
    with three of each drawing cantrip (+1 Card or more, exactly +1 Action) or, beside
    a Curse giver, of each such Attack
    (:func:`~kingdoms.bots.dominion.opponent.trash_strategy`): the Chapel with Witch and
    Poacher, or with Familiar and Bandit, that ``kingdoms optimize`` finds.

    >>> trash_plans(("bandit", "chapel", "familiar", "laboratory", "smithy"))
    ... # doctest: +NORMALIZE_WHITESPACE
    ('trash:chapel+familiar:3', 'trash:chapel+familiar:3+bandit:3',
     'trash:chapel+familiar:3+laboratory:3')
    >>> trash_plans(("chapel", "militia", "smithy"))
    ('trash:chapel+militia:3',)
    >>> trash_plans(("bandit", "familiar", "laboratory"))
    ()
    """

    def attack(cid: str) -> bool:
        return _plain_action(cid) and CARDS[BY_ID[cid]].is_attack and not _non_terminal(cid)

    cards = sorted(c for c in kingdom if c in BY_ID and IS_ACTION[BY_ID[c]])
    cursers = [c for c in cards if gives_curses(c)]
    main = cursers or [c for c in cards if attack(c)]
    helpers = [
        c for c in cards if _draws_one_action(c) or (cursers and attack(c) and c not in cursers)
    ]
    out: list[str] = []
    for t in TRASHERS:
        if t not in kingdom:
            continue
        for x in main:
            out.append(f"trash:{t}+{x}:3")
            out += [f"trash:{t}+{x}:3+{y}:3" for y in helpers if y not in (x, t)]
    return tuple(out)


def plan_names(
    kingdom: tuple[str, ...],
    rush: bool = True,
    pairs: bool = False,
    early: bool = False,
    many: bool = False,
    trash: bool = False,
) -> tuple[str, ...]:
    """The plans :class:`PlanSearch` weighs on ``kingdom``:
    :func:`~kingdoms.bots.dominion.search.plan_candidates`, then (``rush``) a rush of
    each of the kingdom's cheap gainers for each alternative Victory card in it
    and, with a helper in the kingdom (Throne Room), the rush with it
    (``rush:workshop+gardens+throne_room``): the rush template ``kingdoms optimize``
    searches (:func:`~kingdoms.bots.dominion.opponent.rush_strategy`).  Without a
    helper the plain rush plays as the bundled ``workshop-gardens``, so it is not
    weighed; then (``pairs``) the plans of two cards
    (:func:`~kingdoms.bots.dominion.search.pair_plans`); then (``early``) the plans
    buying a terminal before Gold (:func:`early_plans`); then (``many``) the plans of
    many strong cantrips and a terminal attack or +Buy (:func:`many_plans`); last
    (``trash``) the trashing plans (:func:`trash_plans`).

    >>> k = ("cellar", "gardens", "throne_room", "woodcutter", "workshop")
    >>> [n for n in plan_names(k) if n.startswith("rush:")]
    ['rush:workshop+gardens+throne_room', 'rush:woodcutter+gardens+throne_room']
    >>> [n for n in plan_names(k, rush=False) if n.startswith("rush:")]
    []
    """
    out = list(plan_candidates(kingdom))
    if pairs:
        out += [n for n in pair_plans(kingdom) if n not in out]
    if early:
        out += [n for n in early_plans(kingdom) if n not in out]
    if rush:
        out += [
            f"{rush_name(g, v)}+{h}"
            for g in GAINERS
            if g in kingdom
            for v in ALT_VP
            if v in kingdom
            for h in RUSH_HELPERS
            if h in kingdom
        ]
    if many:
        out += [n for n in many_plans(kingdom) if n not in out]
    if trash:
        out += [n for n in trash_plans(kingdom) if n not in out]
    return tuple(out)


def level_plans(
    kingdom: tuple[str, ...], level: str = "default", pairs: bool = False
) -> tuple[str, ...]:
    """The plans the plan search of ``level`` weighs on ``kingdom`` (:func:`plan_names`
    with the level's ``early``, ``many`` and ``trash``; ``pairs``: with the plans of
    two cards too).

    >>> k = ("cellar", "chapel", "militia", "smithy", "witch")
    >>> level_plans(k) == plan_names(k, early=True, trash=True)
    True
    >>> level_plans(k, "strong") == plan_names(k)
    True
    """
    on = {k: LEVELS[level][k] == "on" for k in ("early", "many", "trash")}
    return plan_names(kingdom, pairs=pairs, **on)


class PlanSearch:
    """The plan search of one game for one seat: every candidate plan
    (:func:`~kingdoms.bots.dominion.search.plan_candidates`: the best bundled ones and
    Big Money Ultimate with one or two of each of the kingdom's cards) is played as
    the seat's strategy to the end of the game, all from the same deals with the same
    random numbers (paired, as the move search), the other seats by their models.
    Rounds accumulate over the decisions of the opening, each decision spending its
    own budget; a plan far behind the leader is dropped.  The first plan (the table's)
    is kept unless another beats it by ``keep`` standard errors (:meth:`choice`)."""

    def __init__(
        self,
        kingdom: tuple[str, ...],
        seat: int,
        rush: bool = True,
        pairs: bool = False,
        early: bool = False,
        many: bool = False,
        trash: bool = False,
    ) -> None:
        self.kingdom = kingdom
        self.seat = seat
        self.turn = 0
        self.scoring = PLAN_SCORING
        self.names: tuple[str, ...] = plan_names(kingdom, rush, pairs, early, many, trash)
        self.alive: list[int] = list(range(len(self.names)))
        self.results: list[list[float]] = []  # per round: each candidate's reward (alive)
        self.replan = False
        """Start over when the model of the other seats changes (``best:replan=on``)."""
        self.model: dict[int, str] = {}
        """Seat -> the strategy the rounds so far played it by (the opponent model)."""
        self.restarts = 0
        """Times the rounds were dropped for a new model (``replan``)."""

    @property
    def rounds(self) -> int:
        return len(self.results)

    def gain(self, i: int, j: int) -> tuple[float, float]:
        """Mean and standard error of plan ``i``'s reward minus plan ``j``'s, over
        the rounds both played."""
        d = [r[i] - r[j] for r in self.results]
        n = len(d)
        if n < 2:
            return 0.0, math.inf
        mean = sum(d) / n
        var = max(sum(x * x for x in d) / n - mean * mean, 1e-12)
        return mean, math.sqrt(var / (n - 1))

    def leader(self) -> int:
        return max(self.alive, key=lambda i: (self.gain(i, 0)[0], -i))

    def choice(self, keep: float) -> str:
        """The plan to play: the leader if it beats the first plan by ``keep``
        standard errors after :data:`MIN_PLAN_ROUNDS` rounds, else the first."""
        best = self.leader()
        if best == 0 or self.rounds < MIN_PLAN_ROUNDS:
            return self.names[0]
        mean, se = self.gain(best, 0)
        return self.names[best] if mean > keep * se else self.names[0]

    def prune(self) -> None:
        """Drop the plans more than :data:`PLAN_PRUNE` standard errors behind the
        leader (never the first plan: the baseline)."""
        if self.rounds < MIN_PLAN_ROUNDS:
            return
        best = self.leader()
        keep = []
        for i in self.alive:
            mean, se = self.gain(i, best)
            if i in (0, best) or mean + PLAN_PRUNE * se >= 0:
                keep.append(i)
        self.alive = keep

    def run(
        self,
        base: DominionState,
        me: int,
        rng: random.Random,
        seconds: float | None,
        limit: int | None,
        clock: Callable[[], float] = time.process_time,
        others: Mapping[int, str] | None = None,
    ) -> int:
        """Play rounds from ``base`` (whole rounds, within ``seconds`` of CPU and
        ``limit`` rollouts); the rollouts played.  ``others``: seat -> the strategy
        that plays it (the opponent model; the seats left out: the default model).
        With :attr:`replan`, a model other than the one the rounds so far played
        drops those rounds and brings every plan back."""
        model = dict(others or {})
        if self.replan and self.results and model != self.model:
            self.results = []
            self.alive = list(range(len(self.names)))
            self.restarts += 1
        self.model = model
        self.prune()
        alive = self.alive
        k = len(alive)
        n = len(self.names)
        start = clock()
        deadline = start + seconds if seconds is not None else None
        rounds = 0
        while True:
            if limit is not None and rounds * k + k > limit and rounds:
                break
            now = clock()
            if deadline is not None and rounds and now + (now - start) / rounds > deadline:
                break
            seed = rng.getrandbits(64)
            got = [0.0] * n
            for i in alive:
                r = random.Random(seed)
                state = base.determinize(me, r)
                state.logging = False
                finish_rollout(state, r, MAX_PLAYOUT_STEPS, {**(others or {}), me: self.names[i]})
                out = state.outcome()
                got[i] = 0.5 if out is None else rewards(out.scores, out.winners, self.scoring)[me]
            self.results.append(got)
            rounds += 1
        return rounds * k


def best_bot(**params: Any) -> BestBot:
    """The registry's factory for ``best`` (``best:level=strong,...``)."""
    return BestBot(**params)


def review_settings() -> Mapping[str, Any]:
    """What the game review takes from ``best``'s strong level: its rollout policy and
    its root width."""
    strong = LEVELS["strong"]
    return {"playout": PLAYOUT, "width": int(strong["width"])}


__all__ = [
    "BANKS",
    "EARLIES",
    "LEVELS",
    "MANYS",
    "METHODS",
    "OPPONENTS",
    "PAIRS",
    "PLANS",
    "REPLANS",
    "REWARDS",
    "ROLLOUTS",
    "RUSHES",
    "STOP_LOOKS",
    "TRASHES",
    "BestBot",
    "PlanSearch",
    "best_bot",
    "early_plans",
    "level_plans",
    "many_plans",
    "plan_bot",
    "plan_names",
    "review_settings",
    "stop_bound",
    "trash_plans",
]
