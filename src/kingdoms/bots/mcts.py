"""Game-agnostic Monte Carlo search that sees only its view.

Every iteration the bot builds a full state from its view with
``get_game(view["game"]).state_from_view(view, rng)`` (hidden parts sampled:
a *determinization*), so it never uses information its seat cannot see.

Two algorithms:

* ``flat`` — flat Monte Carlo: playouts spread over the root actions with UCB1.
* ``uct`` — information-set UCT (single observer): one tree keyed by action
  sequences, a fresh determinization per iteration, and only actions legal in
  that determinization are considered (UCB uses availability counts).

Playouts are uniformly random or a named policy supplied by the game: the
game's bot package (``kingdoms.bots.<game>``) may define
``playout_policy(name) -> Callable[[State, random.Random], int] | None``.

Rewards (``scoring``), from ``state.outcome().scores``:

* ``win`` — 1 sole winner, 0.5 shared win, 0 otherwise;
* ``score`` — own score divided by the best score at the table;
* ``relative`` — own / (own + best opponent).

``width`` (optional) limits the search at the root to the ``width`` most promising
actions, as ranked by the game's ``rank_actions(state, legal)`` (in its bot
package) when it has one — a way to spend a small budget where it matters
(``0`` or absent: no limit).

``keep`` (optional, with ``width`` and ``flat``) keeps the best-ranked root action
unless another one's mean reward beats it by more than ``keep`` standard errors:
a noisy search only overrules a good ranking on clear evidence.

A game's bot package may also name moves not worth searching with
``obvious_action(state, legal) -> action | None`` (Dominion: playing all Treasures).

A game's bot package may set better defaults for this bot in ``BOT_DEFAULTS``
(Kingdomino: ``playout=drafting,width=6``); ``make_bot`` applies them under the
parameters of the spec.

``time`` is CPU seconds of the searching thread (``clock=cpu``, the default):
the same seed and budget in ``iterations`` give the same move on any machine, and
a CPU budget searches as much on a busy machine as on an idle one.

Spec examples: ``mcts:time=1``, ``mcts:iterations=500,algorithm=uct,playout=greedy``,
``mcts:time=1,width=8``.
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Callable, Sequence

from kingdoms.bots.base import View, game_bot_hook
from kingdoms.core.errors import InvalidConfig
from kingdoms.core.registry import get_game
from kingdoms.core.state import State

PlayoutPolicy = Callable[[State, random.Random], int]

ALGORITHMS = ("flat", "uct")
SCORINGS = ("win", "score", "relative")
MAX_PLAYOUT_STEPS = 100_000


def random_playout_policy(state: State, rng: random.Random) -> int:
    """Uniformly random over ``state.legal_actions()`` (playouts with this policy run
    as ``state.random_playout(rng)``, which draws the same way)."""
    legal = state.legal_actions()
    return legal[int(rng.random() * len(legal))]


def game_playout_policy(game: str, name: str) -> PlayoutPolicy:
    """The playout policy ``name`` for ``game``: the game's own (from
    ``kingdoms.bots.<game>.playout_policy``) if it has one, else ``random``."""
    policy: PlayoutPolicy | None = None
    finder = game_bot_hook(game, "playout_policy")
    if finder is not None:
        policy = finder(name)
    if policy is None and name == "random":
        policy = random_playout_policy
    if policy is None:
        raise InvalidConfig(f"no playout policy {name!r} for {game}; try 'random'")
    return policy


def game_ranker(game: str) -> Callable[[State, list[int]], list[int]] | None:
    """The game's ``rank_actions(state, legal) -> legal, best first``, if it has one."""
    ranker = game_bot_hook(game, "rank_actions")
    return ranker if callable(ranker) else None


def play_to_end(state: State, policy: PlayoutPolicy, rng: random.Random) -> None:
    """Play ``state`` on by ``policy`` until the game ends (at most
    ``MAX_PLAYOUT_STEPS`` steps): the game's own fast loop for random playouts, the
    policy's own whole rollout where it has one (``finish``), else step by step."""
    if policy is random_playout_policy:
        state.random_playout(rng, MAX_PLAYOUT_STEPS)
    elif (finish := getattr(policy, "finish", None)) is not None:
        finish(state, rng, MAX_PLAYOUT_STEPS)
    else:
        apply = state.apply
        for _ in range(MAX_PLAYOUT_STEPS):
            if state.current_player < 0:
                break
            apply(policy(state, rng))


def rewards(scores: Sequence[float], winners: Sequence[int], scoring: str) -> list[float]:
    """Per-seat reward in [0, 1] for a finished game."""
    n = len(scores)
    if scoring == "win":
        if len(winners) == 1:
            return [1.0 if p == winners[0] else 0.0 for p in range(n)]
        return [0.5 if p in winners else 0.0 for p in range(n)]
    if scoring == "score":
        top = max(max(abs(s) for s in scores), 1e-9)
        return [max(s, 0.0) / top for s in scores]
    out = []
    for p in range(n):
        own = scores[p]
        best = max((scores[q] for q in range(n) if q != p), default=0.0)
        total = own + best
        if own < 0 or best < 0 or total <= 0:
            out.append(1.0 if own > best else 0.5 if own == best else 0.0)
        else:
            out.append(own / total)
    return out


CLOCKS: dict[str, Callable[[], float]] = {
    "wall": _time.perf_counter,
    "cpu": _time.thread_time,
}
"""What a time budget counts (the ``clock`` option)."""


class _Node:
    __slots__ = ("avail", "children", "n", "w")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.n = 0
        self.w = 0.0  # reward of the seat that chose the action leading here
        self.avail = 0


class MCTSBot:
    """Monte Carlo search over determinizations built from the view."""

    name = "mcts"

    def __init__(
        self,
        time: float | None = None,
        iterations: int | None = None,
        algorithm: str = "flat",
        playout: str = "random",
        scoring: str = "relative",
        c: float | None = None,
        seed: int | None = None,
        width: int | None = None,
        clock: str = "cpu",
        keep: float | None = None,
    ) -> None:
        if algorithm not in ALGORITHMS:
            raise InvalidConfig(f"algorithm must be one of {ALGORITHMS}, not {algorithm!r}")
        if scoring not in SCORINGS:
            raise InvalidConfig(f"scoring must be one of {SCORINGS}, not {scoring!r}")
        if time is None and iterations is None:
            time = 1.0
        if time is not None and not time > 0:
            raise InvalidConfig(f"time must be positive, not {time!r}")
        if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
            raise InvalidConfig(f"iterations must be a positive integer, not {iterations!r}")
        if width is not None and (not isinstance(width, int) or width < 0):
            raise InvalidConfig(f"width must be a positive integer (0: no limit), not {width!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise InvalidConfig(f"seed must be an integer, not {seed!r}")
        if not isinstance(playout, str):
            raise InvalidConfig(f"playout must be the name of a playout policy, not {playout!r}")
        if clock not in CLOCKS:
            raise InvalidConfig(f"clock must be one of {tuple(CLOCKS)}, not {clock!r}")
        self.width = width or None
        self.clock = clock
        """``cpu`` (the default): ``time`` is seconds of this thread's CPU time, so the
        bot searches as much on a busy machine as on an idle one; ``wall``: seconds of
        wall-clock time (its strength then depends on the machine's load)."""
        if keep is not None and (
            isinstance(keep, bool) or not isinstance(keep, int | float) or not keep >= 0
        ):
            raise InvalidConfig(f"keep must be a number of standard errors >= 0, not {keep!r}")
        self.keep = float(keep) if keep is not None else None
        self.time = float(time) if time is not None else None
        self.iterations = iterations
        self.algorithm = algorithm
        self.playout = str(playout)
        self.scoring = scoring
        self.c = float(c) if c is not None else (0.7 if algorithm == "uct" else 0.5)
        self.seed = seed
        self._rng = random.Random(seed) if seed is not None else None
        self._policies: dict[str, PlayoutPolicy] = {}
        self.last_iterations = 0
        self.last_stats: dict[int, tuple[int, float]] = {}

    def check_game(self, game: str) -> None:
        """Raise :class:`InvalidConfig` if an option names something ``game`` lacks
        (its playout policy), so that a bad spec is refused when the bot is made, not
        when it first moves."""
        self._policy(game)

    # -- helpers --------------------------------------------------------------------
    def _policy(self, game: str) -> PlayoutPolicy:
        policy = self._policies.get(game)
        if policy is None:
            policy = game_playout_policy(game, self.playout)
            self._policies[game] = policy
        return policy

    def _finish(self, state: State, policy: PlayoutPolicy, rng: random.Random) -> list[float]:
        play_to_end(state, policy, rng)
        out = state.outcome()
        if out is None:
            return [0.5] * state.num_players
        return rewards(out.scores, out.winners, self.scoring)

    def _budget(self) -> Callable[[int], bool]:
        limit = self.iterations
        now = CLOCKS[self.clock]
        deadline = now() + self.time if self.time is not None else None

        def more(done: int) -> bool:
            if limit is not None and done >= limit:
                return False
            return deadline is None or done == 0 or now() < deadline

        return more

    # -- the bot --------------------------------------------------------------------
    def act(self, view: View, legal_actions: Sequence[int], rng: random.Random) -> int:
        legal = list(legal_actions)
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        rng = self._rng if self._rng is not None else rng
        game = get_game(str(view["game"]))
        policy = self._policy(game.name)
        # One state rebuilt from the view; every iteration resamples its hidden
        # parts with ``determinize`` (cheaper than rebuilding from the view).
        base = game.state_from_view(view, rng)
        base.logging = False
        obvious = game_bot_hook(game.name, "obvious_action")
        if callable(obvious):
            forced = obvious(base, legal)
            if forced is not None:
                self.last_iterations = 0
                return int(forced)
        ranked = False
        if self.width is not None and (len(legal) > self.width or self.keep is not None):
            ranker = game_ranker(game.name)
            if ranker is not None:
                legal = ranker(base, legal)[: self.width]
                ranked = True
                if len(legal) == 1:
                    return legal[0]

        if self.algorithm == "flat":
            return self._flat(base, legal, policy, rng, ranked)
        return self._uct(base, legal, policy, rng)

    def _flat(
        self, base: State, legal: list[int], policy: PlayoutPolicy, rng: random.Random, ranked: bool
    ) -> int:
        """Flat UCB over the root actions; each iteration plays one from a fresh
        determinization of ``base`` for the seat to move."""
        me = base.current_player
        k = len(legal)
        n = [0] * k
        w = [0.0] * k
        w2 = [0.0] * k
        order = list(range(k))
        rng.shuffle(order)
        more = self._budget()
        c = self.c
        done = 0
        while more(done):
            if done < k:
                i = order[done]
            else:
                log_t = math.log(done)
                best = -1.0
                i = 0
                for j in range(k):
                    v = w[j] / n[j] + c * math.sqrt(log_t / n[j])
                    if v > best:
                        best, i = v, j
            state = base.determinize(me, rng)
            state.logging = False
            state.apply(legal[i])
            r = self._finish(state, policy, rng)
            n[i] += 1
            w[i] += r[me]
            w2[i] += r[me] * r[me]
            done += 1
        self.last_iterations = done
        self.last_stats = {legal[j]: (n[j], w[j]) for j in range(k)}
        pick = self._pick(legal, n, w)
        if ranked and self.keep is not None and pick != legal[0] and n[0] > 0:
            j = legal.index(pick)

            def var(i: int) -> float:
                mean = w[i] / n[i]
                return max(w2[i] / n[i] - mean * mean, 1e-12)

            diff = w[j] / n[j] - w[0] / n[0]
            if diff <= self.keep * math.sqrt(var(j) / n[j] + var(0) / n[0]):
                return legal[0]
        return pick

    @staticmethod
    def _pick(legal: list[int], n: list[int], w: list[float]) -> int:
        # most visited, ties broken by mean reward, then by canonical order
        best = 0
        for j in range(1, len(legal)):
            if n[j] > n[best] or (
                n[j] == n[best] and n[j] > 0 and w[j] / n[j] > w[best] / max(n[best], 1)
            ):
                best = j
        return legal[best]

    def _uct(self, base: State, legal: list[int], policy: PlayoutPolicy, rng: random.Random) -> int:
        """UCT (information-set style: one tree over determinizations of ``base`` for
        the seat to move, children counted as available when legal)."""
        me = base.current_player
        root = _Node()
        more = self._budget()
        c = self.c
        done = 0
        while more(done):
            state = base.determinize(me, rng)
            state.logging = False
            node = root
            path: list[tuple[_Node, int]] = []  # (child node, seat that chose it)
            # selection / expansion
            while state.current_player >= 0:
                player = state.current_player
                actions = legal if node is root else state.legal_actions()
                children = node.children
                untried = [a for a in actions if a not in children]
                if untried:
                    a = untried[rng.randrange(len(untried))]
                    for b in actions:
                        child = children.get(b)
                        if child is not None:
                            child.avail += 1
                    child = _Node()
                    child.avail = 1
                    children[a] = child
                    state.apply(a)
                    path.append((child, player))
                    break
                best_v = -1.0
                best_a = actions[0]
                best_child: _Node | None = None
                for b in actions:
                    child = children[b]
                    child.avail += 1
                    v = child.w / child.n + c * math.sqrt(math.log(child.avail) / child.n)
                    if v > best_v:
                        best_v, best_a, best_child = v, b, child
                assert best_child is not None
                state.apply(best_a)
                path.append((best_child, player))
                node = best_child
            r = self._finish(state, policy, rng)
            root.n += 1
            for child, player in path:
                child.n += 1
                child.w += r[player]
            done += 1
        self.last_iterations = done
        stats = [root.children.get(a) for a in legal]
        n = [s.n if s is not None else 0 for s in stats]
        w = [s.w if s is not None else 0.0 for s in stats]
        self.last_stats = {legal[j]: (n[j], w[j]) for j in range(len(legal))}
        return self._pick(legal, n, w)
