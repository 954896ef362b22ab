"""The owned counts the engine keeps as cards change hands (``owned_counts``) always
equal a count over the zones: after every action of random games on random kingdoms
of every set (Possession's trashes set aside and given back, Thief's gains from the
trash, Golem's held cards, every trasher), and in every copy of a state (clone,
snapshot/restore, determinization, a state rebuilt from a view)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingdoms.bots.dominion.soak import seat_zones
from kingdoms.core import InvariantViolation, new_game
from kingdoms.dominion.data import BY_ID, CARDS
from kingdoms.dominion.rebuild import state_from_view
from kingdoms.dominion.state import DominionState
from tests.dominion.helpers import do, make, soak_game


def recount(state: DominionState, p: int) -> dict[int, int]:
    """Card -> copies ``p`` owns, counted zone by zone (every zone a seat's cards
    can be in, the cards pending effects hold included)."""
    counts: Counter[int] = Counter()
    for zone in seat_zones(state, p):
        counts.update(zone)
    return dict(counts)


def kept(state: DominionState, p: int) -> dict[int, int]:
    return {c: n for c, n in enumerate(state.owned_counts[p]) if n}


def assert_kept_right(state: DominionState) -> None:
    for p in range(state.num_players):
        assert kept(state, p) == recount(state, p), (
            f"step {state.step}, seat {p}: kept {kept(state, p)} != {recount(state, p)}"
        )
        assert set(kept(state, p)) <= set(state.owned_kinds)


class Seen:
    def __init__(self) -> None:
        self.possessed_trash = self.thief_gains = self.golem_holds = self.steps = 0


def play(seed: int, seen: Seen, copies: bool = False, max_steps: int = 3000) -> None:
    """A soak game (random kingdom, random and policy seats), checking the kept counts
    after every action (and in copies of the state every few steps)."""
    state, bots, rngs = soak_game(seed, "owned")
    check = random.Random(seed)
    for _ in range(max_steps):
        assert_kept_right(state)
        seen.possessed_trash += bool(state.possessed_trash)
        seen.golem_holds += any(fr.code.startswith("golem") for fr in state.stack)
        if copies and check.random() < 0.05:
            for other in (
                state.clone(),
                DominionState.restore(state.snapshot()),
                state.determinize(state.current_player, random.Random(seed)),
            ):
                assert other.owned_counts == state.owned_counts
                assert_kept_right(other)
        player = state.current_player
        if player < 0:
            break
        legal = state.legal_actions()
        action = bots[player].act(state.view(player), legal, rngs[player])
        stolen = len(state.stolen)
        state.apply_checked(action)
        seen.thief_gains += len(state.stolen) < stolen and bool(state.stack or stolen)
        seen.steps += 1
    assert_kept_right(state)


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_kept_owned_counts_equal_a_recount_after_every_action(seed: int) -> None:
    play(seed, Seen(), copies=True)


def test_the_random_games_reach_possession_trashes_thief_and_golem() -> None:
    """Seeded soak games reach what could break the kept counts: cards trashed in a
    Possession turn (set aside, given back after Clean-up), Thief's gains from the
    trash and Golem's held cards; the counts stay right through all of them."""
    seen = Seen()
    for seed in range(40):
        play(seed, seen)
    assert seen.possessed_trash > 0
    assert seen.thief_gains > 0
    assert seen.golem_holds > 0


KC = [
    "possession", "feast", "mine", "bureaucrat", "moneylender",
    "thief", "witch", "moat", "throne_room", "golem",
]  # fmt: skip


def test_possession_trash_leaves_the_owned_counts_until_clean_up() -> None:
    """A card trashed in a Possession turn is set aside (owned by nobody) and comes
    back to its owner after Clean-up; what is gained goes to the possessor."""
    s = make(
        kingdom=KC,
        hands={0: ["possession"], 1: ["feast", "copper", "copper", "copper", "copper"]},
        decks={0: ["copper"] * 5, 1: ["estate"] * 5},
    )
    feast, duchy, silver = BY_ID["feast"], BY_ID["duchy"], BY_ID["silver"]
    assert s.owned_counts[1][feast] == 1
    do(s, "play Possession", "end buys", "play Feast", "gain Duchy")
    assert s.possessed_trash == [feast]
    assert s.owned_counts[1][feast] == 0 and s.owned_counts[0][duchy] == 1
    assert_kept_right(s)
    do(s, "play all treasures", "buy Silver")
    assert s.possessed_trash == [] and s.owned_counts[1][feast] == 1
    assert s.owned_counts[0][silver] == 1 and s.owned_counts[1][silver] == 0
    assert_kept_right(s)


def test_a_state_rebuilt_from_a_view_counts_its_owned_cards() -> None:
    s = make(kingdom=["witch", "chapel", "village", "smithy", "market", "moat", "mine",
                      "cellar", "militia", "remodel"])  # fmt: skip
    rng = random.Random(3)
    for _ in range(80):
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
    back = state_from_view(s.view(s.current_player), random.Random(1))
    assert_kept_right(back)
    assert back.owned_counts == s.owned_counts


def test_a_card_moved_without_its_bookkeeping_breaks_the_invariant() -> None:
    s = make()
    s.check_invariants()
    s.trash.append(s.hands[0].pop())  # trashed behind the engine's back
    with pytest.raises(InvariantViolation, match="owned counts"):
        s.check_invariants()
    s.owned_counts = s.count_owned()
    s.check_invariants()
    assert sum(s.owned_counts[0]) == 9 and CARDS[s.trash[0]].id in ("copper", "estate")


def test_a_new_game_starts_with_what_a_recount_gives() -> None:
    for players in (2, 3, 6):
        s = new_game(
            "dominion", players=players, seed=players, options={"kingdom": "Forbidden Arts"}
        )
        assert isinstance(s, DominionState)
        start = (s.totals, s.owned_counts, s.owned_kinds)
        s.recount()
        assert (s.totals, s.owned_counts, s.owned_kinds) == start
