"""The fast paths of the Kingdomino engine give the full, same results."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from kingdoms.core import new_game
from kingdoms.core.state import State
from kingdoms.kingdomino.state import KingdominoState

VARIANT_SETS = [
    (4, []),
    (3, ["middle-kingdom", "harmony"]),
    (2, ["dynasty"]),
    (2, ["mighty-duel", "harmony"]),
]


def _game(players: int, variants: list[str], seed: int) -> KingdominoState:
    st = new_game("kingdomino", players=players, seed=seed, options={"variants": variants})
    assert isinstance(st, KingdominoState)
    return st


@pytest.mark.parametrize(("players", "variants"), VARIANT_SETS)
def test_random_playout_plays_what_the_generic_loop_plays(
    players: int, variants: list[str]
) -> None:
    for seed in range(5):
        fast = _game(players, variants, seed)
        slow = fast.clone()
        fast.random_playout(random.Random(seed))
        State.random_playout(slow, random.Random(seed))
        assert fast.is_terminal()
        assert fast.history == slow.history
        assert fast.fingerprint() == slow.fingerprint()


def test_random_playout_records_its_actions_for_replay() -> None:
    st = _game(4, [], 3)
    st.random_playout(random.Random(9))
    again = _game(4, [], 3)
    for a in st.history:
        again.apply_checked(a)
    assert again.fingerprint() == st.fingerprint()


@pytest.mark.parametrize(("players", "variants"), VARIANT_SETS)
def test_outcome_details_are_built_when_asked_and_complete(
    players: int, variants: list[str]
) -> None:
    st = _game(players, variants, 11)
    st.random_playout(random.Random(1))
    out = st.outcome()
    assert out is not None
    details = dict(out.details)
    assert set(details) >= {"breakdown", "largest_property", "crowns", "first_player"}
    assert ("games" in details) == ("dynasty" in variants)
    for p in range(players):
        assert details["breakdown"][p] == st.breakdown(p)
        if "dynasty" not in variants:
            assert details["breakdown"][p]["score"] == out.scores[p]
    assert out.to_json()["details"] == details
    copy = pickle.loads(pickle.dumps(out))
    assert copy.scores == out.scores
    assert copy.winners == out.winners
    assert dict(copy.details) == details


def test_no_log_events_unless_logging() -> None:
    quiet = _game(4, [], 5)
    quiet.logging = False
    quiet.log.clear()
    quiet.random_playout(random.Random(2))
    assert quiet.log == []
    loud = _game(4, [], 5)
    loud.random_playout(random.Random(2))
    kinds = {e.type for e in loud.log}
    assert {"setup", "place", "pick", "round", "game_end"} <= kinds


def test_determinize_keeps_the_original_untouched_and_samples_the_pile() -> None:
    st = _game(4, [], 8)
    rng = random.Random(4)
    for _ in range(10):
        st.apply(st.legal_actions()[0])
    before = st.fingerprint()
    prefixes = set()
    for _ in range(5):
        d = st.determinize(0, rng)
        assert sorted(d.pile + d.aside) == sorted(st.pile + st.aside)
        assert d.view(0) == st.view(0)
        d.random_playout(rng)
        prefixes.add(tuple(d.history[: len(st.history)]))
    assert st.fingerprint() == before
    assert prefixes == {tuple(st.history)}


def test_states_pickle_and_deepcopy_on_either_build() -> None:
    st = _game(3, ["middle-kingdom"], 4)
    rng = random.Random(6)
    for _ in range(20):
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    for copy_of in (pickle.loads(pickle.dumps(st)), copy.deepcopy(st)):
        assert copy_of.fingerprint() == st.fingerprint()
        assert copy_of.legal_actions() == st.legal_actions()
        copy_of.random_playout(random.Random(1))
        again = st.clone()
        again.random_playout(random.Random(1))
        assert copy_of.fingerprint() == again.fingerprint()
    assert not st.is_terminal()


def test_pickling_covers_every_field() -> None:
    from kingdoms.kingdomino import state as module

    slots = set(getattr(KingdominoState, "__slots__", ())) | set(getattr(State, "__slots__", ()))
    if not slots:
        pytest.skip("compiled classes do not list their fields")
    # _FIELDS are written as they are; the rest apart (_legal: a cache, built again)
    apart = {"config", "rng", "boards", "past", "history", "log", "logging", "_legal"}
    assert set(module._FIELDS) | apart == slots


@pytest.mark.parametrize("bad", ["3", 3.0, None, -1, [1], True])
def test_untrusted_actions_raise_our_error_on_either_build(bad: object) -> None:
    """Compiled code checks argument types: hostile input must still get our error."""
    from kingdoms.core.errors import IllegalAction

    st = _game(4, [], 2)
    before = st.fingerprint()
    with pytest.raises(IllegalAction):
        st.apply_checked(bad)
    assert st.fingerprint() == before


@pytest.mark.parametrize(("players", "variants"), VARIANT_SETS)
def test_setup_deals_what_the_standard_library_shuffle_deals(
    players: int, variants: list[str]
) -> None:
    """The set-up's shuffles (the compiled ``shuffle``) deal exactly what
    ``random.Random(seed).shuffle`` deals, so games recorded before still replay."""
    mighty = "mighty-duel" in variants
    for seed in (0, 1, 2, 99, 123456789):
        st = _game(players, variants, seed)
        rng = random.Random(seed)
        numbers = list(range(1, 49))
        rng.shuffle(numbers)
        owners = [p for p in range(players) for _ in range(2 if players == 2 else 1)]
        rng.shuffle(owners)
        used = 48 if mighty else {2: 24, 3: 36, 4: 48}[players]
        k = len(owners)
        assert st.aside == sorted(numbers[used:])
        assert st.pick_order == owners
        assert st.current == sorted(numbers[used - k : used])
        assert st.pile == numbers[: used - k]
        assert st.rng.getstate() == rng.getstate()
