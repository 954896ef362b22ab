"""``best``'s model of the other seats, fitted to what they have visibly done.

Without it, a rollout plays another seat by the bundled strategy naming the Kingdom
cards it owns (:func:`kingdoms.bots.dominion.search.seat_strategy`, the *default
model*).  A seat playing something else — a Gardens rush tuned by ``kingdoms
optimize``, Big Money with one card — is then rolled out as a different player
than the one across the table.  :class:`OpponentModel` watches each other seat's
gains (which every seat sees: the view's ``owned`` counts and ``turns``), scores
each candidate strategy by the likelihood of those gains, and names the one that
explains them best once it beats the default model's prior.

Candidates (:func:`model_candidates`): every bundled strategy the kingdom lets play
(:func:`~kingdoms.bots.dominion.search.kingdom_plans`), a rush of each gainer with
each alternative Victory card of the kingdom (``rush:workshop+gardens``: the
``kingdoms optimize`` template with a strategist's usual thresholds), and Big Money
Ultimate with one or two of each Action or Treasure card of the kingdom
(``bmu+X``, ``bmu+X:2``: "buy what they bought").

The likelihood of one turn's gains under a strategy: the seat's coins that turn are
not seen, so hands are dealt from the cards it owned before the turn (a fixed number
of deals from a generator seeded by seat and turn: deterministic) and, for each
gained card, the share of the deals that could pay for it in which the strategy's
buy rules choose that card (a turn with no gain: the share in which they choose
nothing); every share is mixed with a small uniform floor (:data:`FLOOR`) so one
odd buy never rules a strategy out.  The posterior is that likelihood times a
prior putting :data:`DEFAULT_PRIOR` on the default model and the rest evenly on the
others: early in the game the default model stands.

Everything read is public: the view's ``turns``, ``owned`` and ``supply``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from kingdoms.bots.dominion import adapter
from kingdoms.bots.dominion.strategy import Situation, Strategy

DEFAULT_PRIOR = 0.5
"""The prior probability of the default model (the rest is shared by the others)."""

FLOOR = 0.05
"""The uniform floor mixed into each gain's probability (1/20: any of ~20 piles)."""

DEALS = 12
"""Hands dealt per observed turn to guess the coins the seat had."""

HAND = 5

GAINERS = ("workshop", "woodcutter", "feast", "bureaucrat", "university", "artisan")
"""The cards a rush is built on (cheap gains), as ``kingdoms optimize``'s templates."""

ALT_VP = ("gardens",)
"""Victory cards a rush heads for."""

RUSH_HELPERS = ("throne_room",)
"""Cards a rush may add a few of (``rush:GAINER+VP+HELPER``): they play the gainer
twice."""

_SKIP = frozenset({"curse"})
"""Gains the seat did not choose (another seat's Witch gives them)."""


def rush_name(gainer: str, vp: str) -> str:
    """The candidate name of a ``gainer`` rush for ``vp``.

    >>> rush_name("workshop", "gardens")
    'rush:workshop+gardens'
    """
    return f"rush:{gainer}+{vp}"


@lru_cache(maxsize=32)
def rush_strategy(name: str) -> Strategy:
    """The strategy named ``rush:GAINER+VP`` or ``rush:GAINER+VP+HELPER``: the
    ``kingdoms optimize`` rush template (gain the gainer up to a cap, then the
    Victory card, Estates late, a Duchy on five coins near the end) with a
    strategist's usual thresholds; with a helper (:data:`RUSH_HELPERS`), up to three
    of it (one per eight Treasures), more gainers before the Victory card and
    earlier Duchies and Estates (the shape of the rushes ``kingdoms optimize`` finds
    on such kingdoms).

    >>> rush_strategy("rush:workshop+gardens").play_cards
    ('workshop',)
    >>> rush_strategy("rush:workshop+gardens+throne_room").play_cards
    ('throne_room', 'workshop')
    """
    from kingdoms.bots.dominion.strategy_file import parse_strategy
    from kingdoms.sim.templates import Extra, Genome

    parts = name.removeprefix("rush:").split("+")
    if (
        not name.startswith("rush:")
        or len(parts) not in (2, 3)
        or parts[0] not in GAINERS
        or parts[1] not in ALT_VP
        or (len(parts) == 3 and parts[2] not in RUSH_HELPERS)
    ):
        raise ValueError(f"not a rush strategy name: {name!r}")
    helped = len(parts) == 3
    genome = Genome(
        province_money=28,
        rush=True,
        gainer=parts[0],
        alt_vp=parts[1],
        vp_after=9 if helped else 7,
        gainer_cap=11 if helped else 10,
        rush_duchy=6 if helped else 4,
        rush_estate=8 if helped else 6,
        extras=(Extra(parts[2], 3, True, 8),) if helped else (),
    )
    return parse_strategy(genome.to_toml(name), name=name)


TRASHERS = ("chapel", "sentry")
"""The trashers a trashing plan is built on (``trash:TRASHER+X:N``), as ``kingdoms
optimize``'s trashing-engine template."""


def trash_strategy(name: str) -> Strategy:
    """The strategy named ``trash:TRASHER+X:N`` or ``trash:TRASHER+X:N+Y:M``: the
    ``kingdoms optimize`` trashing-engine template (one trasher bought in the first two
    turns, played on two Estates and Coppers or a Curse; it trashes Curses, Estates
    while more than two Provinces are left and Coppers while the money stays above 6)
    with up to ``N`` of ``X``, a terminal one no more than one per eight Treasures,
    bought before Gold, and up to ``M`` of ``Y`` before Silver: the shape of the
    Chapel with Witch and Poacher (or Familiar and Bandit) that the optimizer finds.

    >>> trash_strategy("trash:chapel+witch:3+poacher:3").play_cards
    ('poacher', 'witch', 'chapel')
    >>> trash_strategy("trash:chapel+smithy")
    Traceback (most recent call last):
    ...
    ValueError: not a trashing strategy name: 'trash:chapel+smithy'
    """
    from kingdoms.bots.dominion.search import _non_terminal
    from kingdoms.bots.dominion.strategy_file import parse_strategy
    from kingdoms.dominion.data import BY_ID, IS_ACTION
    from kingdoms.sim.templates import Extra, Genome

    parts = name.removeprefix("trash:").split("+")
    extras: list[Extra] = []
    for i, part in enumerate(parts[1:]):
        card, _, copies = part.partition(":")
        c = BY_ID.get(card)
        if c is None or not copies.isdigit() or not IS_ACTION[c] or i > 1:
            raise ValueError(f"not a trashing strategy name: {name!r}")
        terminal = not _non_terminal(card)
        extras.append(Extra(card, int(copies), i == 0, 8 if terminal else 0))
    if not name.startswith("trash:") or parts[0] not in TRASHERS or not extras:
        raise ValueError(f"not a trashing strategy name: {name!r}")
    # the cantrips first, then the terminal, the trasher last (the Chapel waits for junk)
    payload = [e.card for e in extras if not e.ratio] + [e.card for e in extras if e.ratio]
    genome = Genome(trasher=parts[0], extras=tuple(extras), play=(*payload, parts[0]))
    return parse_strategy(genome.to_toml(name), name=name)


@lru_cache(maxsize=256)
def model_candidates(kingdom: tuple[str, ...]) -> tuple[str, ...]:
    """The strategies a seat on ``kingdom`` may be modelled by (see the module).

    >>> k = ("cellar", "gardens", "militia", "workshop")
    >>> model_candidates(k)[:3]
    ('workshop-gardens', 'militia', 'big-money-ultimate')
    >>> [n for n in model_candidates(k) if n.startswith("rush:")]
    ['rush:workshop+gardens']
    """
    from kingdoms.bots.dominion.search import kingdom_plans, plan_candidates

    out = list(kingdom_plans(kingdom))
    out += [rush_name(g, v) for g in GAINERS if g in kingdom for v in ALT_VP if v in kingdom]
    out += [n for n in plan_candidates(kingdom) if n.startswith("bmu+") and n not in out]
    return tuple(out)


def _coins(hand: Sequence[str]) -> tuple[int, int]:
    """Coins and Potions of ``hand``'s Treasures."""
    values = adapter.TREASURE_VALUES
    coins = sum(values.get(c, 0) for c in hand if c != "potion")
    return coins, hand.count("potion")


class _Seat:
    """What one watched seat has shown: its last snapshot and each candidate's
    log-likelihood (the default model last)."""

    __slots__ = ("loglik", "owned", "supply", "turns", "watched")

    def __init__(self, n: int, turns: int, owned: dict[str, int], supply: dict[str, int]):
        self.loglik = [0.0] * (n + 1)
        self.turns = turns
        self.owned = owned
        self.supply = supply
        self.watched = 0
        """Turns of this seat whose gains were scored."""


class OpponentModel:
    """The model of every seat but ``me`` in one game on ``kingdom`` (see the module).

    Call :meth:`observe` with each view the seat ``me`` decides from; :meth:`model`
    names the strategy a rollout should play a seat by (None: the default model)."""

    def __init__(self, kingdom: tuple[str, ...], me: int) -> None:
        self.kingdom = kingdom
        self.me = me
        self.names = model_candidates(kingdom)
        self.seats: dict[int, _Seat] = {}

    def observe(self, view: Mapping[str, Any]) -> None:
        """Take in a view of ``me`` (only its public parts: ``players[q].turns``,
        ``players[q].owned``, ``supply``): the gains of each seat's turn since the
        last view are scored (a seat seen again within the same turn of its own
        keeps its earlier snapshot, so a whole turn's gains are scored together)."""
        supply = {p["card"]: int(p["count"]) for p in view["supply"]}
        for q, seat in enumerate(view["players"]):
            if q == self.me:
                continue
            turns = int(seat["turns"])
            owned = {str(c): int(n) for c, n in seat["owned"].items()}
            known = self.seats.get(q)
            if known is None:
                self.seats[q] = _Seat(len(self.names), turns, owned, supply)
                continue
            if turns == known.turns:
                continue
            if turns == known.turns + 1:
                gains: list[str] = []
                for card, n in owned.items():
                    extra = n - known.owned.get(card, 0)
                    if extra > 0 and card not in _SKIP:
                        gains += [card] * extra
                self._score(q, known, gains)
                known.watched += 1
            known.turns, known.owned, known.supply = turns, owned, supply

    def _score(self, q: int, seat: _Seat, gains: list[str]) -> None:
        """Add the log-likelihood of ``gains`` (seat ``q``'s turn after ``seat``'s
        snapshot) under every candidate."""
        from kingdoms.bots.dominion.search import _strategy, seat_strategy
        from kingdoms.dominion.data import BY_ID

        turn = seat.turns + 1
        deck = [c for c, n in sorted(seat.owned.items()) for _ in range(n)]
        rng = random.Random(f"opponent {q} {turn}")
        size = min(HAND, len(deck))
        deals = [_coins(rng.sample(deck, size)) for _ in range(DEALS)]
        costs, pcosts = adapter.COSTS, adapter.POTION_COSTS
        gains = sorted(gains, key=lambda c: (-costs.get(c, 0), c))
        default = seat_strategy(self.kingdom, [BY_ID[c] for c in deck if c in BY_ID], turn)
        names = [*self.names, default]
        choices: dict[tuple[str, int, int, int], str | None] = {}
        for i, name in enumerate(names):
            strategy = _strategy(name)[0]
            owned = dict(seat.owned)
            logp = 0.0
            for step, card in enumerate([*gains] if gains else [None]):
                if card is None:
                    pays = deals
                else:
                    pays = [
                        d
                        for d in deals
                        if d[0] >= costs.get(card, 0) and d[1] >= pcosts.get(card, 0)
                    ] or [(costs.get(card, 0), pcosts.get(card, 0))]
                hit = 0
                for coins, potions in pays:
                    key = (name, step, coins, potions)
                    if key not in choices:
                        choices[key] = self._choose(
                            strategy, owned, seat.supply, coins, potions, turn, q
                        )
                    hit += choices[key] == card
                p = hit / len(pays)
                logp += math.log((1.0 - FLOOR) * p + FLOOR / 20.0)
                if card is not None:
                    owned[card] = owned.get(card, 0) + 1
            seat.loglik[i] += logp

    def _choose(
        self,
        strategy: Strategy,
        owned: Mapping[str, int],
        supply: Mapping[str, int],
        coins: int,
        potions: int,
        turn: int,
        q: int,
    ) -> str | None:
        situation = Situation(
            coins=coins,
            owned=owned,
            supply=supply,
            costs=adapter.COSTS,
            potion_costs=adapter.POTION_COSTS,
            potions=potions,
            treasure_values=adapter.TREASURE_VALUES,
            treasure_ids=adapter.TREASURE_IDS,
            types=adapter.TYPES,
            turn=turn,
            others=(),
            seat=q,
            taken=turn,
            zones=({}, {}, {}, {}),
        )
        try:
            return strategy.choose(situation)
        except (KeyError, TypeError, AttributeError):  # a rule reading what is not here
            return None

    def posterior(self, q: int) -> list[float]:
        """The posterior of every candidate for seat ``q`` (the default model last)."""
        seat = self.seats.get(q)
        n = len(self.names)
        if seat is None:
            return [0.0] * n + [1.0]
        other = math.log((1.0 - DEFAULT_PRIOR) / max(n, 1))
        logs = [ll + other for ll in seat.loglik[:n]]
        logs.append(seat.loglik[n] + math.log(DEFAULT_PRIOR))
        top = max(logs)
        weights = [math.exp(x - top) for x in logs]
        total = sum(weights)
        return [w / total for w in weights]

    def model(self, q: int) -> str | None:
        """The strategy to roll seat ``q`` out by: the candidate of highest posterior,
        None when that is the default model."""
        post = self.posterior(q)
        best = max(range(len(post)), key=lambda i: (post[i], -i))
        return None if best == len(self.names) else self.names[best]

    def models(self) -> dict[int, str]:
        """Seat -> its model, for the seats not played by the default model."""
        out = {}
        for q in sorted(self.seats):
            name = self.model(q)
            if name is not None:
                out[q] = name
        return out


__all__ = ["OpponentModel", "model_candidates", "rush_name", "rush_strategy"]
