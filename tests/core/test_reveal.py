"""The undo rule derived from the views (:mod:`kingdoms.core.reveal`), proved over
random games of both games: in Kingdomino against an exact account of what each step
shows, in Dominion against many more independent determinizations."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kingdoms.core import new_game, reveal
from kingdoms.core.reveal import REVEALED, sampled_reveal, step_reveal, view_change
from kingdoms.core.state import State
from kingdoms.kingdomino.state import FIRST_PICKS, PLACE, KingdominoState

CHANCE = "that action used chance (cards were shuffled or drawn)"


def kingdomino_expected(before: KingdominoState, after: KingdominoState) -> str | None:
    """What a Kingdomino step shows, worked out from the rules: a new game of a Dynasty
    is shuffled; a new line shows dominoes unless the unseen ones were exactly that
    line; a first pick draws the next king unless the kings left all have one owner."""
    if after.game_no != before.game_no:
        return CHANCE
    first_line = before.phase == FIRST_PICKS and after.phase != FIRST_PICKS
    new_line = bool(after.next) and (first_line or after.round != before.round)
    if new_line and len(before.pile) + len(before.aside) > len(after.next):
        return REVEALED
    drawing = before.phase == FIRST_PICKS and after.phase == FIRST_PICKS
    if drawing and len(set(before.pick_order[before.pick_pos + 1 :])) > 1:
        return REVEALED
    return None


def random_steps(state: State, seed: int) -> Iterator[tuple[State, int]]:
    """Play ``state`` on with uniformly random legal actions to the end: after each
    step, ``(the state before it, its action)`` (``state`` is the state after)."""
    rng = random.Random(seed)
    while not state.is_terminal():
        before = state.clone()
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        state.apply(action)
        yield before, action


@settings(max_examples=4, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 10**6),
    variants=st.sets(st.sampled_from(["middle-kingdom", "harmony", "dynasty"])),
)
def test_kingdomino_steps_are_final_exactly_when_they_show_something(
    players: int, seed: int, variants: set[str]
) -> None:
    """Also: every step Kingdomino settles from its structure shows nothing on
    samples either, and the structure settles every placement that draws no line."""
    state = new_game(
        "kingdomino", players=players, seed=seed, options={"variants": sorted(variants)}
    )
    assert isinstance(state, KingdominoState)
    kinds = set()
    settled = 0
    for before, action in random_steps(state, seed):
        assert isinstance(before, KingdominoState)
        expected = kingdomino_expected(before, state)
        assert step_reveal(before, action, state) == expected, (before.phase, action)
        kinds.add(expected)
        if before.revealed_nothing(action, state):
            settled += 1
            assert sampled_reveal(before, action, state) is None, (before.phase, action)
        elif before.phase == PLACE and len(state.pile) == len(before.pile):
            assert state.game_no != before.game_no  # only a new game of a Dynasty
    assert REVEALED in kinds and None in kinds and settled > 0


def test_step_reveal_samples_only_what_the_game_cannot_settle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Kingdomino placement is answered without a single determinization; a pick
    that draws a line is still sampled (and final)."""
    state = new_game("kingdomino", players=3, seed=11)
    assert isinstance(state, KingdominoState)
    sampled: list[int] = []
    real = reveal.sampled_reveal

    def counting(
        before: State, action: int, after: State, samples: int = 64, **options: Any
    ) -> str | None:
        sampled.append(before.step)
        return real(before, action, after, samples, **options)

    monkeypatch.setattr(reveal, "sampled_reveal", counting)
    verdicts: dict[bool, set[str | None]] = {True: set(), False: set()}
    while state.round < 2:
        before = state.clone()
        action = state.legal_actions()[0]
        state.apply(action)
        was_sampled = len(sampled)
        verdict = step_reveal(before, action, state)
        verdicts[len(sampled) > was_sampled].add(verdict)
        if before.phase == PLACE:
            assert len(sampled) == was_sampled, "a placement was sampled"
    assert verdicts[False] == {None}
    assert REVEALED in verdicts[True]


def test_the_last_line_of_a_four_player_game_reveals_nothing() -> None:
    """With 4 players every domino is used: the last line is the last four, whatever
    their order, so bringing it out shows nothing."""
    state = new_game("kingdomino", players=4, seed=5)
    assert isinstance(state, KingdominoState)
    for before, action in random_steps(state, 5):
        assert isinstance(before, KingdominoState)
        if not state.pile and state.next and before.pile:
            assert step_reveal(before, action, state) is None
            return
    raise AssertionError("the last line never came out")


def test_a_new_line_in_a_two_player_game_is_final() -> None:
    """Issue scenario: the last pick of the first round brings out the next line."""
    state = new_game("kingdomino", players=2, seed=9)
    assert isinstance(state, KingdominoState)
    while True:
        before = state.clone()
        action = state.legal_actions()[0]
        state.apply(action)
        if before.phase == FIRST_PICKS and state.phase != FIRST_PICKS:
            assert state.next
            assert step_reveal(before, action, state) == REVEALED
            return


def _independent_check(before: State, action: int, after: State, samples: int) -> bool:
    """Every seat's view after the step and every new log event come out the same on
    ``samples`` fresh determinizations for the actor (ignoring what each other seat
    already saw of its own: compared as changes)."""
    actor = before.current_player
    start = len(before.log)
    rng = random.Random(12345)
    for _ in range(samples):
        alt_before = before.determinize(actor, random.Random(rng.random()))
        alt = alt_before.clone()
        alt.apply_checked(action)
        for s in range(after.num_players):
            if [e.visible_to(s) for e in alt.log[start:]] != [
                e.visible_to(s) for e in after.log[start:]
            ]:
                return False
            if view_change(alt_before.view(s), alt.view(s)) != view_change(
                before.view(s), after.view(s)
            ):
                return False
    return True


@settings(max_examples=3, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6))
@example(players=3, seed=340)  # a Militia discard passing the decision on, missed by sampling
def test_dominion_steps_left_undoable_show_nothing_on_fresh_samples(
    players: int, seed: int
) -> None:
    state = new_game("dominion", players=players, seed=seed)
    verdicts = set()
    for before, action in itertools.islice(random_steps(state, seed), 80):
        verdict = step_reveal(before, action, state)
        verdicts.add(verdict)
        if before.rng.getstate() != state.rng.getstate():
            assert verdict == CHANCE
        if verdict is None:
            assert _independent_check(before, action, state, 96)
    assert None in verdicts and REVEALED in verdicts


DOMINION_SETS = [
    {"sets": ["base", "base-1e"]},
    {"sets": ["base", "base-2e"], "base_edition": 2},
    {"sets": ["alchemy", "base", "base-1e"]},
    {"sets": ["alchemy", "base-2e"], "base_edition": 2},
]


@pytest.mark.parametrize("options", DOMINION_SETS, ids=lambda o: "+".join(o["sets"]))
def test_dominion_structure_agrees_with_sampling_on_random_games(
    options: dict[str, object],
) -> None:
    """Every Dominion step settled from the structure (no sampling) reveals nothing on
    the sampling rule too, in random games of every set; most steps are settled so."""
    settled = steps = 0
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        state = new_game("dominion", players=players, seed=seed, options=options)
        for before, action in itertools.islice(random_steps(state, seed), 150):
            if before.rng.getstate() != state.rng.getstate():
                continue
            steps += 1
            if before.revealed_nothing(action, state):
                settled += 1
                assert sampled_reveal(before, action, state) is None, (seed, before.step, action)
                assert step_reveal(before, action, state) is None
    assert settled > steps // 3, (settled, steps)


def test_dominion_buys_and_treasures_are_settled_without_sampling(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Playing a Treasure, buying without ending the turn and ending the Action phase
    read nothing hidden: answered without a single determinization."""
    from kingdoms.dominion.actions import A_END_PHASE, BUY, PLAY, decode
    from kingdoms.dominion.state import ACTION_PHASE, DominionState

    sampled: list[int] = []
    real = reveal.sampled_reveal

    def counting(
        before: State, action: int, after: State, samples: int = 64, **options: Any
    ) -> str | None:
        sampled.append(before.step)
        return real(before, action, after, samples, **options)

    monkeypatch.setattr(reveal, "sampled_reveal", counting)
    state = new_game("dominion", players=2, seed=4)
    assert isinstance(state, DominionState)
    checked = 0
    for before, action in itertools.islice(random_steps(state, 4), 200):
        assert isinstance(before, DominionState)
        kind, _card = decode(action)
        simple = (
            (kind == PLAY and before.phase != ACTION_PHASE)
            or (kind == BUY and state.turn == before.turn)
            or (action == A_END_PHASE and before.phase == ACTION_PHASE)
        )
        if not simple or before.rng.getstate() != state.rng.getstate():
            continue
        count = len(sampled)
        assert step_reveal(before, action, state) is None
        assert len(sampled) == count, before.action_to_str(action)
        checked += 1
    assert checked > 20


ATTACK_KINGDOMS = [
    # 1st edition: Spy, Thief, Militia, Witch, Bureaucrat (no Moat to answer them)
    ["spy", "thief", "militia", "witch", "bureaucrat", "throne_room", "library", "cellar",
     "adventurer", "chancellor"],
    # 2nd edition: Bandit, Sentry, Vassal, Harbinger, Poacher
    ["bandit", "militia", "witch", "sentry", "vassal", "harbinger", "poacher", "library",
     "cellar", "throne_room"],
    # Alchemy: Familiar, Scrying Pool, Golem, Possession, Apothecary, Herbalist; a Moat
    ["familiar", "scrying_pool", "golem", "possession", "apothecary", "herbalist", "spy",
     "militia", "moat", "throne_room"],
]  # fmt: skip


@pytest.mark.parametrize("kingdom", ATTACK_KINGDOMS, ids=lambda k: k[0])
def test_dominion_attacks_and_ordered_samples_agree_with_sampling(kingdom: list[str]) -> None:
    """On random games of kingdoms full of Attacks and cards that read decks (Spy,
    Militia, Library, Sentry, Cellar, Possession, Golem...): every step settled without
    sampling reveals nothing on the sampling rule, Attacks included; and every other
    step gets the same verdict whether its samples are tried in order or those that
    differ where it read first."""
    settled = unsettled = 0
    verdicts: set[str | None] = set()
    for players, seed in ((2, 5), (3, 6), (4, 7)):
        options = {"kingdom": kingdom, "base_edition": 2 if "bandit" in kingdom else 1}
        state = new_game("dominion", players=players, seed=seed, options=options)
        for before, action in itertools.islice(random_steps(state, seed), 90):
            if before.rng.getstate() != state.rng.getstate():
                continue
            if before.revealed_nothing(action, state):
                settled += 1
                assert sampled_reveal(before, action, state) is None, (seed, before.step, action)
                continue
            unsettled += 1
            verdict = sampled_reveal(before, action, state, ordered=True)
            assert verdict == sampled_reveal(before, action, state), (seed, before.step)
            verdicts.add(verdict)
    assert unsettled > 30 and REVEALED in verdicts, (unsettled, verdicts)
    assert settled > 0


SPY_KINGDOM = ["spy", "militia", "bureaucrat", "moat", "village", "smithy", "cellar",
               "library", "festival", "market"]  # fmt: skip


def _counting_samples(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that gets one item per sample :func:`sampled_reveal` plays out."""
    played: list[int] = []
    real = reveal._agrees

    def counting(*args: object) -> bool:
        played.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(reveal, "_agrees", counting)
    return played


def _step(state: State, text: str) -> tuple[State, int]:
    before = state.clone()
    action = state.parse_action(text)
    state.apply(action)
    return before, action


def test_a_spy_no_moat_can_answer_is_settled_and_its_reveal_found_on_the_first_sample(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Playing a Spy whose draw and own reveal come from a deck of Coppers, against a
    seat holding no Moat, reads nothing hidden: undoable with no sample played out.
    Answering for the Spy's own card then turns the other seat's top card (a Copper of
    14 over a Silver) face up: final, found on the first sample whose top card differs
    (the same verdict as trying the samples in order, which takes many more)."""
    from kingdoms.dominion.state import DominionState

    played = _counting_samples(monkeypatch)
    state = DominionState.scenario(
        2,
        SPY_KINGDOM,
        hands={0: ["spy"] + ["copper"] * 4},
        decks={0: ["copper"] * 5, 1: ["copper"] * 14 + ["silver"]},
        seed=1,
    )
    before, action = _step(state, "play Spy")
    assert step_reveal(before, action, state) is None
    assert played == []
    assert sampled_reveal(before, action, state) is None
    before, action = _step(state, "discard Copper")
    played.clear()
    assert step_reveal(before, action, state) == REVEALED
    assert len(played) == 1
    played.clear()
    assert sampled_reveal(before, action, state) == REVEALED
    assert len(played) > 1


@pytest.mark.parametrize(
    ("hand", "deck"),
    [
        (["copper", "silver", "copper", "copper", "gold"], ["copper"] * 5),  # Bureaucrat
        (["copper"] * 5, ["moat"] + ["copper"] * 4),  # a Moat that may be in the hand
    ],
)
def test_attacks_that_may_read_a_hand_are_still_sampled(hand: list[str], deck: list[str]) -> None:
    """A Bureaucrat against a hand without a Victory card shows that hand; a Spy against
    a seat that may hold a Moat reads its hand (the Moat check): neither is settled
    without sampling, and the Bureaucrat's is final."""
    from kingdoms.dominion.state import DominionState

    attack = "bureaucrat" if "gold" in hand else "spy"
    state = DominionState.scenario(
        2,
        SPY_KINGDOM,
        hands={0: [attack] + ["copper"] * 4, 1: hand},
        decks={0: ["copper"] * 5, 1: deck},
        seed=2,
    )
    before, action = _step(state, f"play {attack.title()}")
    assert not before.revealed_nothing(action, state)
    verdict = step_reveal(before, action, state)
    assert verdict == sampled_reveal(before, action, state)
    if attack == "bureaucrat":
        assert verdict == REVEALED


@pytest.mark.parametrize(
    ("hand", "deck", "settled"),
    [
        (["copper", "estate", "silver", "copper", "duchy"], [], True),  # its hand is all
        (["curse", "copper", "copper", "copper", "curse"], ["curse"], True),  # both kinds
        (["copper", "estate", "silver", "copper", "duchy"], ["gold", "copper", "estate"], False),
    ],
)
def test_a_decision_passed_to_a_seat_whose_hand_is_certain_is_settled(
    hand: list[str], deck: list[str], settled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a Militia, the first victim's last discard hands the decision to the second
    victim.  With no deck its hidden cards are its hand (any determinization deals the
    same cards); with 3 Coppers and 3 Curses for a hand of 5 it holds both kinds
    whatever the deal: what it is offered is certain, undoable without sampling.  With
    a deck of other cards it is sampled, and final (the offer is read from its hand)."""
    from kingdoms.dominion.state import DominionState

    played = _counting_samples(monkeypatch)
    state = DominionState.scenario(
        3,
        SPY_KINGDOM,
        hands={
            0: ["militia"] + ["copper"] * 4,
            1: ["copper", "copper", "estate", "estate", "silver"],
            2: hand,
        },
        decks={1: ["copper"] * 3, 2: deck},
        seed=3,
    )
    _step(state, "play Militia")
    _step(state, "discard Estate")
    before, action = _step(state, "discard Estate")
    assert state.current_player == 2
    played.clear()
    verdict = step_reveal(before, action, state)
    assert (played == []) is settled
    assert verdict == sampled_reveal(before, action, state)
    assert verdict == (None if settled else REVEALED)


def test_a_decision_passed_on_is_final_however_rare_the_hand_that_shows_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under a Militia, the first victim's last discard hands the decision to the second
    victim, whose hand of 5 Coppers was dealt from 2,000 Coppers and one Estate.  A hand
    with the Estate would be offered other cards, so the step is final; one random
    determinization in 400 deals it, so the random samples alone miss it, and the
    game's own samples (a hand with and one without each kind) find it on the first.
    Those samples are determinizations for the acting seat: it sees the same, and every
    seat holds the same cards."""
    from kingdoms.dominion.state import DominionState

    state = DominionState.scenario(
        3,
        SPY_KINGDOM,
        hands={
            0: ["militia"] + ["copper"] * 4,
            1: ["copper", "copper", "estate", "estate", "silver"],
            2: ["copper"] * 5,
        },
        decks={1: ["copper"] * 3, 2: ["copper"] * 1000 + ["estate"] + ["copper"] * 1000},
        seed=4,
    )
    _step(state, "play Militia")
    _step(state, "discard Estate")
    before, action = _step(state, "discard Estate")
    assert state.current_player == 2
    telling = list(before.telling_samples(action, state, random.Random(0)))
    assert len(telling) == 4  # Copper and Estate, held and not
    hands = [sorted(alt.snapshot()["hands"][2]) for alt in telling]
    assert sorted(before.snapshot()["hands"][2]) in hands  # five Coppers
    assert len({tuple(hand) for hand in hands}) == 2  # and four Coppers with the Estate
    for alt in telling:
        assert alt.view(1) == before.view(1)
        for seat, (real, dealt) in enumerate(
            zip(before.snapshot()["hands"], alt.snapshot()["hands"], strict=True)
        ):
            real_deck = before.snapshot()["decks"][seat]
            assert sorted(real + real_deck) == sorted(dealt + alt.snapshot()["decks"][seat])
    # each sample shows the step as the real game did exactly when it deals the same
    # kinds of cards (no sample differs for another reason, such as its log)
    case = reveal._Case(before, action, state)
    real = set(before.snapshot()["hands"][2])
    for alt in telling:
        same = set(alt.snapshot()["hands"][2]) == real
        assert reveal._agrees(case, alt.clone(), alt.clone) is same
    played = _counting_samples(monkeypatch)
    assert step_reveal(before, action, state) == REVEALED
    assert len(played) == 1
    monkeypatch.setattr(DominionState, "telling_samples", lambda *args: [])
    assert step_reveal(before, action, state) is None  # what sampling alone concluded


@pytest.mark.parametrize("answer", ["reveal Moat", "don't reveal"])
def test_a_moat_answer_is_settled_and_the_attack_that_asked_it_sampled(
    answer: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Militia against a seat that may hold a Moat reads that seat's hand: sampled,
    and final (the Moat decision shows the Moat).  The Moat answer, which runs the rest
    of the Attack (the Militia's effect, its discard asked of the same seat or not),
    reads nothing the answering seat does not know: settled with no sample played out."""
    from kingdoms.dominion.state import DominionState

    played = _counting_samples(monkeypatch)
    state = DominionState.scenario(
        2,
        SPY_KINGDOM,
        hands={0: ["militia"] + ["copper"] * 4, 1: ["moat", "copper", "estate", "silver"]},
        decks={0: ["silver", "estate", "copper"], 1: ["moat", "gold", "copper", "estate"]},
        seed=4,
    )
    before, action = _step(state, "play Militia")
    assert not before.revealed_nothing(action, state)
    assert step_reveal(before, action, state) == REVEALED
    before, action = _step(state, answer)
    played.clear()
    assert step_reveal(before, action, state) is None
    assert played == []
    assert sampled_reveal(before, action, state) is None
