"""Conservation soak: random kingdoms from every set, random and default-policy seats.

Each game draws its own setup from its seed: 2–6 players, first or second edition
base cards, Alchemy errata on or off, a kingdom drawn from every implemented kingdom
card (base 1st edition, base, base 2nd edition, Alchemy) in which Possession, Golem and
the trashers come up often, and for each seat either a random player or a player that
answers every decision with the default policy.  At every step the game must keep
every card: each card's total over all zones (supply, hands, decks, discard piles,
play, set-aside cards, the trash) equals the total the game started with, and the
game's own invariants hold.

Used by ``tests/dominion/test_conservation.py`` (a few hundred games) and by
``bench/dominion_soak.py`` (``make soak``: 100,000 games).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kingdoms.bots.base import View
from kingdoms.bots.dominion import adapter
from kingdoms.core.registry import new_game
from kingdoms.dominion import actions as A
from kingdoms.dominion.cards import IMPLEMENTED
from kingdoms.dominion.data import BY_ID, CARDS, COIN_COST, NUM_CARDS, POTION_COST
from kingdoms.dominion.state import DominionState

KINGDOM_CARDS: tuple[str, ...] = tuple(
    sorted(c.id for c in CARDS if c.is_kingdom and c.index in IMPLEMENTED)
)
TRASHERS: tuple[str, ...] = (
    "apprentice", "bandit", "chapel", "feast", "mine", "moneylender",
    "remodel", "sentry", "thief", "transmute",
)  # fmt: skip
"""Kingdom cards that trash (with Possession their trashes are set aside)."""
FAVOURED: tuple[str, ...] = ("possession", "golem", *TRASHERS)
POSSESSION = BY_ID["possession"]
POTION = BY_ID["potion"]


def random_setup(rng: random.Random) -> dict[str, Any]:
    """Players, options and kingdom of one soak game.

    Possession and Golem are each in about two kingdoms of three, and every kingdom
    has one to three trashers; the rest of the kingdom is drawn from every set."""
    kingdom: list[str] = []
    for card in ("possession", "golem"):
        if rng.random() < (0.8 if card == "possession" else 0.65):
            kingdom.append(card)
    kingdom += rng.sample(TRASHERS, rng.randint(1, 3))
    rest = [c for c in KINGDOM_CARDS if c not in kingdom]
    kingdom += rng.sample(rest, 10 - len(kingdom))
    return {
        "players": rng.randint(2, 6),
        "options": {
            "kingdom": sorted(kingdom),
            "base_edition": rng.choice((1, 2)),
            "alchemy_errata": rng.random() < 0.5,
        },
        "policy_seats": [rng.random() < 0.5 for _ in range(6)],
    }


class SoakBot:
    """Plays busily so that games reach Possession, Golem and the trashers: plays an
    Action whenever it can, usually plays its Treasures and buys the dearest card it
    can (favouring Possession, Golem and trashers), otherwise acts at random.  With
    ``policy`` set it answers every card's decision with the default policy;
    without, at random."""

    def __init__(self, policy: bool) -> None:
        self.policy = policy
        self.name = "soak-policy" if policy else "soak-random"
        from kingdoms.bots.dominion.bots import bundled_bot

        self._default = bundled_bot("default")

    def act(self, view: View, legal_actions: Sequence[int], rng: random.Random) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        if view.get("decision") is not None:
            if self.policy:
                return self._default.act(view, legal_actions, rng)
            return legal_actions[rng.randrange(len(legal_actions))]
        if rng.random() < 0.1:
            return legal_actions[rng.randrange(len(legal_actions))]
        plays = [a for a in legal_actions if a < NUM_CARDS]
        if view.get("phase") == "action":
            return rng.choice(plays) if plays else A.A_END_PHASE
        if A.A_ALL_TREASURES in legal_actions:
            return A.A_ALL_TREASURES
        buys = [a - A.BUY * NUM_CARDS for a in legal_actions if a // NUM_CARDS == A.BUY]
        if not buys:
            return A.A_END_PHASE
        if POSSESSION in buys and rng.random() < 0.9:
            return A.BUY * NUM_CARDS + POSSESSION
        if POTION in buys and adapter.owned(view).get("potion", 0) < 2 and rng.random() < 0.7:
            return A.BUY * NUM_CARDS + POTION
        favoured = [c for c in buys if CARDS[c].id in FAVOURED]
        if favoured and rng.random() < 0.6:
            return A.BUY * NUM_CARDS + rng.choice(favoured)
        best = max(buys, key=lambda c: (POTION_COST[c], COIN_COST[c], rng.random()))
        return A.BUY * NUM_CARDS + best


@dataclass(slots=True)
class SoakResult:
    seed: int
    players: int
    options: dict[str, Any]
    steps: int = 0
    ended: bool = False
    possessions: int = 0
    golems: int = 0
    violations: list[str] = field(default_factory=list)


def seat_zones(state: DominionState, p: int) -> tuple[Sequence[int], ...]:
    """Every zone seat ``p``'s cards can be in, listed one by one (the cards pending
    effects hold included): what the checks count, independently of the engine."""
    return (
        state.hands[p],
        state.decks[p],
        state.discards[p],
        state.in_play[p],
        state.set_aside_of(p),
        state.looking[p],
    )


def card_totals(state: DominionState) -> list[int]:
    """Every card of the game counted where it is now, zone by zone."""
    counts = state.supply.copy()
    for p in range(state.num_players):
        for zone in seat_zones(state, p):
            for c in zone:
                counts[c] += 1
    for zone in (state.trash, state.possessed_trash):
        for c in zone:
            counts[c] += 1
    return counts


def play_soak_game(
    seed: int, setup: dict[str, Any] | None = None, max_steps: int = 20_000
) -> SoakResult:
    """One soak game (``setup`` as :func:`random_setup` gives, by default drawn from the
    seed); conservation is checked after every action."""
    if setup is None:
        setup = random_setup(random.Random(seed))
    players: int = setup["players"]
    result = SoakResult(seed, players, setup["options"])
    state = new_game("dominion", players=players, seed=seed, options=setup["options"])
    if not isinstance(state, DominionState):  # pragma: no cover - registry guarantees it
        raise TypeError("not a Dominion state")
    state.logging = False
    n = players
    # the game's cards, from the rules: the supply as set up plus 7 Coppers and
    # 3 Estates per player
    expected = state.supply.copy()
    expected[BY_ID["copper"]] += 7 * n
    expected[BY_ID["estate"]] += 3 * n
    bots = [SoakBot(setup["policy_seats"][p]) for p in range(n)]
    rngs = [random.Random(f"{seed}:soak:{p}") for p in range(n)]
    possession, golem = POSSESSION, BY_ID["golem"]
    try:
        for _ in range(max_steps):
            counts = card_totals(state)
            if counts != expected:
                diff = {
                    CARDS[c].id: counts[c] - expected[c]
                    for c in range(NUM_CARDS)
                    if counts[c] != expected[c]
                }
                result.violations.append(f"step {state.step}: cards not conserved {diff}")
                break
            state.check_invariants()
            player = state.current_player
            if player < 0:
                result.ended = True
                break
            legal = state.legal_actions()
            action = bots[player].act(state.view(player), legal, rngs[player])
            if action == possession and not state.stack:
                result.possessions += 1
            elif action == golem and not state.stack:
                result.golems += 1
            state.apply_checked(action)
            result.steps += 1
    except Exception as err:  # any engine failure counts as a violation
        result.violations.append(f"step {state.step}: {type(err).__name__}: {err}")
    return result
