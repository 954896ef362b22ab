"""Observations hold only what the seat may see.

Two states that differ only in what a seat cannot see (every deck's order, other
seats' hands, Kingdomino's undrawn dominoes) give that seat identical observations;
what it can see changes them.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from kingdoms.core.registry import new_game
from kingdoms.core.state import State
from kingdoms.dominion.state import DominionState
from kingdoms.rl.dominion import DominionEncoder
from kingdoms.rl.env import Encoder
from kingdoms.rl.kingdomino import KingdominoEncoder

CASES = [
    ("dominion", 2, {"kingdom": "First Game"}),
    ("dominion", 3, {"sets": ["base", "alchemy"]}),
    (
        "dominion",
        2,
        {
            "kingdom": [
                "militia",
                "library",
                "spy",
                "thief",
                "bureaucrat",
                "moat",
                "cellar",
                "chapel",
                "throne_room",
                "mine",
            ]
        },
    ),
    ("kingdomino", 2, {}),
    ("kingdomino", 4, {"variants": ["dynasty"]}),
]


def _encoder(game: str, players: int) -> Encoder:
    return DominionEncoder(players) if game == "dominion" else KingdominoEncoder(players)


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_determinized_states_look_the_same(game: str, players: int, options: dict) -> None:
    """``determinize(seat)`` resamples everything ``seat`` cannot see; at many points of
    random games the seat's observation of both states is the same vector."""
    rng = random.Random(7)
    checked = differs = 0
    for seed in range(3):
        st = new_game(game, players=players, seed=seed, options=options)
        step = 0
        while not st.is_terminal() and step < 400:
            if step % 7 == 0:
                for seat in range(players):
                    other = st.determinize(seat, random.Random(step))
                    differs += other.fingerprint() != st.fingerprint()
                    mine = _encoder(game, players).encode(st, seat)
                    theirs = _encoder(game, players).encode(other, seat)
                    assert np.array_equal(mine, theirs), (seed, step, seat)
                    checked += 1
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
            step += 1
    assert checked > 30
    assert differs > checked // 2  # the hidden parts really were resampled


def _dominion(seed: int = 3) -> DominionState:
    st = new_game("dominion", players=2, seed=seed, options={"kingdom": "First Game"})
    assert isinstance(st, DominionState)
    return st


def _obs(st: State, seat: int) -> np.ndarray:
    return DominionEncoder(st.num_players).encode(st, seat)


def test_other_hand_and_decks_are_invisible() -> None:
    st = _dominion()
    seat = st.current_player
    other = 1 - seat
    before = _obs(st, seat)
    changed = st.clone()
    assert isinstance(changed, DominionState)
    # swap a card between the other seat's hand and its deck, and shuffle own deck
    hand, deck = changed.hands[other], changed.decks[other]
    j = next(i for i, c in enumerate(deck) if c != hand[0])
    hand[0], deck[j] = deck[j], hand[0]
    changed.decks[seat].reverse()
    assert changed.fingerprint() != st.fingerprint()
    assert np.array_equal(before, _obs(changed, seat))
    # the other seat does see its own hand change
    assert not np.array_equal(_obs(st, other), _obs(changed, other))


def test_own_hand_is_visible() -> None:
    st = _dominion()
    seat = st.current_player
    enc = DominionEncoder(2)
    changed = st.clone()
    assert isinstance(changed, DominionState)
    hand, deck = changed.hands[seat], changed.decks[seat]
    j = next(i for i, c in enumerate(deck) if c != hand[0])
    hand[0], deck[j] = deck[j], hand[0]
    a, b = enc.describe(enc.encode(st, seat)), enc.describe(enc.encode(changed, seat))
    assert a["hand"] != b["hand"]
    assert a["owned"] == b["owned"]
    assert sum(a["hand"].values()) == len(st.hands[seat])


def test_fields_match_the_view() -> None:
    """The per-card fields hold exactly what the view lists."""
    st = _dominion(11)
    rng = random.Random(1)
    for _ in range(150):
        st.apply(rng.choice(st.legal_actions()))
    enc = DominionEncoder(2)
    for seat in (0, 1):
        view = st.view(seat)
        fields = enc.describe(enc.encode(st, seat))
        hand: dict[str, float] = {}
        for c in view["hand"]:
            hand[c] = hand.get(c, 0) + 1
        assert fields["hand"] == hand
        assert fields["supply"] == {s["card"]: s["count"] for s in view["supply"] if s["count"]}
        for r in range(2):
            q = (seat + r) % 2
            assert fields["owned"][r] == view["players"][q]["owned"]
            assert fields["seat_counts"][6 * r : 6 * r + 3] == [
                view["players"][q]["hand_size"],
                view["players"][q]["deck_size"],
                view["players"][q]["discard_size"],
            ]
            assert fields["seat_counts"][6 * r + 5] == st.vp_of(q)


def test_kingdomino_undrawn_order_is_invisible() -> None:
    st = new_game("kingdomino", players=3, seed=2)
    enc = KingdominoEncoder(3)
    other = st.clone()
    other.pile.reverse()  # type: ignore[attr-defined]
    assert other.fingerprint() != st.fingerprint()
    for seat in range(3):
        assert np.array_equal(enc.encode(st, seat), KingdominoEncoder(3).encode(other, seat))


def test_library_card_is_seen_by_its_owner_only() -> None:
    """Library's drawn Action: the deciding seat sees which card it is; the other seat
    sees that a Library decision is pending, and nothing of the card (as in the view)."""
    from kingdoms.dominion import actions as A
    from kingdoms.dominion.data import BY_ID

    kingdom = ["library", "village", "cellar", "chapel", "moat"]
    kingdom += ["militia", "smithy", "market", "mine", "remodel"]
    st = DominionState.scenario(
        2,
        kingdom,
        hands={0: ["library", "copper", "copper", "copper", "estate"]},
        decks={0: ["village", "copper", "copper", "copper", "copper"]},
    )
    st.apply_checked(A.encode(A.PLAY, BY_ID["library"]))
    enc = DominionEncoder(2)
    mine = enc.describe(enc.encode(st, 0))
    theirs = enc.describe(enc.encode(st, 1))
    assert mine["decision_subject"] == {"village": 1.0}
    assert mine["decision_card"] == {"library": 1.0}
    assert mine["decision_about"] == [1.0, 0.0]
    assert theirs["decision_subject"] == {}
    assert theirs["decision_about"] == [0.0, 0.0]
    assert theirs["decision_card"] == {"library": 1.0}
    assert theirs["decision"] == mine["decision"]
    assert theirs["decision_who"] == [0.0, 1.0]  # relative: the seat after player_1


DOMINION_MIXES = [
    (2, {"kingdom": "First Game"}),
    (3, {"sets": ["base", "alchemy"]}),
    (2, {"sets": ["base", "base-2e", "alchemy"], "base_edition": 2}),
    (4, {"sets": ["base", "alchemy"]}),
]


@pytest.mark.parametrize(("players", "options"), DOMINION_MIXES)
def test_dominion_encoder_equals_the_view_encoding(players: int, options: dict) -> None:
    """On every state of many random games (random kingdoms, pending decisions,
    Possession turns…), for every seat, the encoder reading the engine's fields gives
    exactly the vector built from that seat's JSON view (``encode_view``)."""
    rng = random.Random(players)
    enc = DominionEncoder(players)  # one encoder through every game: its caches too
    checked = decisions = 0
    for seed in range(12):
        st = new_game("dominion", players=players, seed=seed, options=options)
        assert isinstance(st, DominionState)
        st.logging = False
        for _ in range(600):
            if st.is_terminal():
                break
            for seat in range(players):
                fast = enc.encode(st, seat)
                slow = enc.encode_view(st.view(seat), bool(st.bought))
                assert np.array_equal(fast, slow), (seed, st.step, seat, _diff(enc, fast, slow))
                checked += 1
            decisions += bool(st.stack)
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
    assert checked > 3000
    assert decisions > 20


def _diff(enc: Encoder, a: np.ndarray, b: np.ndarray) -> dict[str, list[int]]:
    return {
        name: [i - sl.start for i in range(sl.start, sl.stop) if a[i] != b[i]]
        for name, sl in enc.layout.items()
        if not np.array_equal(a[sl], b[sl])
    }


@pytest.mark.parametrize(
    ("players", "variants"),
    [(2, []), (3, ["harmony"]), (4, ["dynasty", "middle-kingdom"]), (2, ["mighty-duel"])],
)
def test_kingdomino_encoder_equals_the_view_encoding(players: int, variants: list[str]) -> None:
    """Every state of several random games, every seat: the encoder reading the
    engine's fields (grids updated incrementally, caches kept across games) gives
    exactly the vector built from that seat's JSON view (``encode_view``)."""
    rng = random.Random(players)
    enc = KingdominoEncoder(players)
    checked = 0
    for seed in range(4):
        st = new_game("kingdomino", players=players, seed=seed, options={"variants": variants})
        while not st.is_terminal():
            for seat in range(players):
                fast = enc.encode(st, seat)
                slow = enc.encode_view(st.view(seat))
                assert np.array_equal(fast, slow), (seed, st.step, seat, _diff(enc, fast, slow))
                checked += 1
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
    assert checked > 200


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_one_encoder_over_interleaved_games(game: str, players: int, options: dict) -> None:
    """One encoder asked about two games played side by side, and about
    determinizations of them, in turn (its caches and per-seat templates switch
    state at every call): every vector equals the view-based encoding of its own
    state, and the seat's observation of a determinization equals its own."""
    rng = random.Random(11)
    enc = _encoder(game, players)
    games = [new_game(game, players=players, seed=s, options=options) for s in (21, 22)]
    for st in games:
        st.logging = False

    def slow(st: State, seat: int) -> np.ndarray:
        if isinstance(enc, DominionEncoder):
            assert isinstance(st, DominionState)
            return enc.encode_view(st.view(seat), bool(st.bought))
        assert isinstance(enc, KingdominoEncoder)
        return enc.encode_view(st.view(seat))

    checked = 0
    for step in range(150):
        for st in games:
            if st.is_terminal():
                continue
            seat = step % players
            fast = enc.encode(st, seat)
            assert np.array_equal(fast, slow(st, seat)), (
                step,
                seat,
                _diff(enc, fast, slow(st, seat)),
            )
            if step % 5 == 0:
                other = st.determinize(seat, random.Random(step))
                assert np.array_equal(enc.encode(other, seat), fast), (step, seat)
            checked += 1
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
    assert checked > 60
