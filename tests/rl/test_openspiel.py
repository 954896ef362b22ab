"""Both games as OpenSpiel games: registered, OpenSpiel's own random-simulation test
and serialization round trip pass, tensors are the seat's observation, IS-MCTS runs."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from kingdoms.rl import chance  # noqa: E402
from kingdoms.rl import openspiel as ks  # noqa: E402 - registers the games
from kingdoms.rl.dominion_obs import DominionEncoder  # noqa: E402


def test_registered_with_their_parameters() -> None:
    names = pyspiel.registered_names()
    assert ks.DOMINION in names and ks.KINGDOMINO in names
    game = pyspiel.load_game(ks.KINGDOMINO, {"players": 3, "variants": "harmony"})
    assert game.num_players() == 3 and game.num_distinct_actions() == 778
    assert game.observation_tensor_size() == 4282
    dominion = pyspiel.load_game(ks.DOMINION, {"kingdom": "First Game"})
    assert dominion.num_distinct_actions() == 468
    assert dominion.observation_tensor_size() == DominionEncoder(2).size
    with pytest.raises(Exception, match=r"unknown|kingdom"):
        pyspiel.load_game(ks.DOMINION, {"kingdom": "No Such Set"})


@pytest.mark.parametrize(
    ("name", "params", "sims"),
    [
        (ks.KINGDOMINO, {"players": 2}, 2),
        (ks.KINGDOMINO, {"players": 3, "variants": "middle-kingdom+harmony"}, 1),
        (ks.DOMINION, {"players": 2, "max_game_length": 250}, 1),
    ],
)
def test_openspiel_random_simulation_test(name: str, params: dict, sims: int) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


@pytest.mark.parametrize("name", [ks.KINGDOMINO, ks.DOMINION])
def test_serialization_round_trip_and_tensors(name: str) -> None:
    game = pyspiel.load_game(name, {"players": 2})
    state = game.new_initial_state()
    rng = random.Random(3)
    state.apply_action(1234)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history()
    assert again.engine.fingerprint() == state.engine.fingerprint()
    player = state.current_player()
    expected = game.make_py_observer().encoder.encode(state.engine, player)
    assert np.array_equal(np.asarray(state.observation_tensor(player)), expected)
    assert state.information_state_string(player).startswith(f"p{player} ")
    # what the seat may see is all it is given: a resampled state looks the same to it
    other = state.resample_from_infostate(player, rng.random)
    assert other.information_state_string(player) == state.information_state_string(player)
    assert other.observation_tensor(player) == state.observation_tensor(player)


@pytest.mark.parametrize("name", [ks.KINGDOMINO, ks.DOMINION])
def test_ismcts_plays_a_move(name: str) -> None:
    """OpenSpiel's IS-MCTS, resampling the hidden part from the seat's information
    state, plays moves of both games (through Dominion's chance nodes)."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(
        name, {"players": 2, "max_game_length": 200} if name == ks.DOMINION else {"players": 2}
    )
    state = game.new_initial_state()
    state.apply_action(7)
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 8, random_state=rs)
    bot.set_resampler(ks.resampler(0))
    moves = 0
    while moves < 3:
        if state.is_chance_node():
            state.apply_action(int(rs.randint(len(state.chance_outcomes()))))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1


# -- chance: every random event is a chance node, and a copy carries no future -----------
TOPDECKERS = (
    "bureaucrat+harbinger+artisan+sentry+spy+apothecary+scrying_pool+alchemist+golem+chancellor"
)
DRAWERS = "cellar+library+adventurer+vassal+possession+thief+bandit+militia+moat+council_room"
PICKERS = "chapel+cellar+workshop+feast+militia+remodel+mine+artisan+throne_room+vassal"
QUIET = "festival+woodcutter+university+apprentice+transmute+throne_room+chapel+workshop+moat+mine"
HIDDEN = {"dominion": ("decks", "rng"), "kingdomino": ("pile", "aside", "rng")}


def _play(game, seed: int, steps: int):
    """Random play: yields (state, action) before each player action."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and len(state.history()) < steps:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        action = rng.choice(state.legal_actions())
        yield state, action
        state.apply_action(action)


def _snapshot(engine, name: str) -> dict:
    snap = engine.snapshot()
    return {k: v for k, v in snap.items() if k not in HIDDEN[name]}


@pytest.mark.parametrize(
    ("name", "params"),
    [
        (ks.DOMINION, {"kingdom": "First Game"}),
        (ks.DOMINION, {"kingdom": TOPDECKERS}),
        (ks.DOMINION, {"kingdom": DRAWERS, "players": 3}),
        (ks.DOMINION, {"kingdom": PICKERS, "players": 3}),
        (ks.DOMINION, {"kingdom": QUIET, "players": 2}),
        (ks.KINGDOMINO, {"players": 2, "variants": "dynasty"}),
        (ks.KINGDOMINO, {"players": 3}),
    ],
)
def test_actions_without_a_chance_node_read_nothing_unseen(name: str, params: dict) -> None:
    """An action carried out without a chance node before it gives the same game
    whatever order the unseen cards are in and whatever the generator: it read none
    of them (and those with a chance node do read them: the test sees both kinds)."""
    game = pyspiel.load_game(name, params)
    short = "dominion" if name == ks.DOMINION else "kingdomino"
    quiet = chance = 0
    for seed in range(3):
        for state, action in _play(game, seed, 600):
            needs = (
                ks.dominion_needs_chance if short == "dominion" else ks.kingdomino_needs_chance
            )(state.engine, action)
            if needs:
                chance += 1
                continue
            quiet += 1
            results = []
            for k in range(2):
                engine = state.engine.clone()
                fresh = None if state.fresh is None else list(state.fresh)
                ks.rearrange_unseen(engine, fresh, random.Random(k))
                engine.rng = random.Random(100 + k)
                engine.apply(action)
                results.append(engine)
            a, b = results
            assert _snapshot(a, short) == _snapshot(b, short), (seed, action)
            if short == "dominion":
                for p, u in enumerate(state.fresh):
                    assert a.decks[p][u:] == b.decks[p][u:]
                    assert sorted(a.decks[p]) == sorted(b.decks[p])
    assert quiet > 50 and chance > 20


@pytest.mark.parametrize(("kingdom", "players"), [("First Game", 2), (TOPDECKERS, 2), (DRAWERS, 3)])
def test_dominion_a_turn_end_reads_only_the_top_of_its_deck(kingdom: str, players: int) -> None:
    """A chance node before the end of a turn (the last buy, the end of the Buy phase)
    shuffles only the top five unseen cards of the deck of the player whose turn ends:
    the action reads nothing else nobody has seen (every other arrangement of the
    rest of that deck's unseen part and of the other decks' gives the same game)."""
    game = pyspiel.load_game(ks.DOMINION, {"kingdom": kingdom, "players": players})
    checked = 0
    for seed in range(3):
        for state, action in _play(game, seed, 700):
            engine = state.engine
            if not ks.dominion_needs_chance(engine, action) or not chance.ends_the_turn(
                engine, action
            ):
                continue
            seat = engine.turn
            results = []
            for k in range(2):
                copy = engine.clone()
                mixer = random.Random(1000 * seed + k)
                for p, u in enumerate(state.fresh):
                    deck = copy.decks[p]
                    keep = chance.CLEANUP_DRAW if p == seat else 0
                    rest = deck[: max(u - keep, 0)]
                    mixer.shuffle(rest)
                    deck[: len(rest)] = rest
                copy.rng = random.Random(7)
                copy.apply(action)
                results.append(copy)
            a, b = results
            assert _snapshot(a, "dominion") == _snapshot(b, "dominion"), (seed, action)
            checked += 1
    assert checked > 30


def test_dominion_cellar_picks_need_no_chance_node_its_draw_does() -> None:
    """A card picked for Cellar is discarded and the question asked again: no chance
    node (nothing drawn); Cellar's ``done`` draws as many, from a deck with cards
    nobody has seen: always a chance node, and copies at it draw differently."""
    from kingdoms.dominion.actions import A_DONE, CHOOSE
    from kingdoms.dominion.data import NUM_CARDS

    game = pyspiel.load_game(ks.DOMINION, {"kingdom": "First Game"})
    picks = dones = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal() and len(state.history()) < 1200:
            if state.is_chance_node():
                state.apply_action(rng.randrange(len(state.chance_outcomes())))
                continue
            engine = state.engine
            legal = state.legal_actions()
            if engine.stack and engine.stack[-1].code == "discard_draw":
                p = engine.stack[-1].who
                chosen = [a for a in legal if a // NUM_CARDS == CHOOSE]
                if chosen and rng.random() < 0.7:
                    hand = len(engine.hands[p])
                    state.apply_action(chosen[0])
                    assert not state.is_chance_node()
                    assert len(state.engine.hands[p]) == hand - 1
                    assert state.engine.stack[-1].code == "discard_draw"
                    picks += 1
                    continue
                drawn = state.engine.stack[-1].a
                state.apply_action(A_DONE)
                assert state.is_chance_node()
                if drawn and state.fresh[p] >= drawn + 2:
                    hands = set()
                    for outcome in range(8):
                        c = state.clone()
                        c.apply_action(outcome)
                        hands.add(tuple(sorted(c.engine.hands[p])))
                    dones += len(hands) > 1
                continue
            state.apply_action(rng.choice(legal))
    assert picks > 20 and dones > 3


def test_dominion_plays_without_a_chance_node() -> None:
    """The Action cards whose play reads nothing nobody has seen (their steps change
    counts or ask a decision; the answers have their own chance nodes): a play of one
    has no chance node, a play of a card that draws has one."""
    from kingdoms.dominion.actions import PLAY
    from kingdoms.dominion.data import BY_ID, NUM_CARDS
    from kingdoms.dominion.turn import ACTION_PHASE

    names = {ks_card for ks_card, i in BY_ID.items() if i in chance.QUIET_PLAYS}
    assert names == {
        "apprentice", "cellar", "chapel", "festival", "militia", "mine", "remodel",
        "transmute", "university", "woodcutter", "workshop",
    }  # fmt: skip
    # Throne Room's play plays the card it picks (which may draw): a chance node.
    game = pyspiel.load_game(ks.DOMINION, {"kingdom": "First Game"})
    quiet = drawing = 0
    for state, action in _play(game, 11, 3000):
        engine = state.engine
        if engine.stack or engine.phase != ACTION_PHASE or action // NUM_CARDS != PLAY:
            continue
        after = state.clone()
        after.apply_action(action)
        if action % NUM_CARDS in chance.QUIET_PLAYS:
            assert not after.is_chance_node()
            quiet += 1
        else:
            assert after.is_chance_node()
            drawing += 1
    assert quiet > 5 and drawing > 5


PINNED_FULL = [0, 9, 2, 4, 6, 1, 8, 5, 3, 7]
PINNED_PART = [0, 1, 2, 3, 9, 7, 6, 5, 4, 8]


def test_chance_shuffles_are_uniform_and_the_same_on_every_build() -> None:
    """The chance nodes' shuffle: each place of a full shuffle and of the top of a
    partial one takes each card about equally often; fixed results pin the generator
    (every build gives the same games)."""
    cards = list(range(10))
    chance.mix(cards, 0, 10, 10, 12345)
    assert cards == PINNED_FULL
    part = list(range(10))
    chance.mix(part, 2, 10, 3, 12345)
    assert part[:2] == [0, 1] and sorted(part) == list(range(10)) and part == PINNED_PART
    rng = random.Random(0)
    n = 20000
    for lo, top in ((0, 8), (3, 2)):
        counts = [[0] * 8 for _ in range(8)]
        for _ in range(n):
            deck = list(range(8))
            chance.mix(deck, lo, 8, top, chance.chance_seed(rng, 0))
            for place in range(8 - top, 8):
                counts[place][deck[place]] += 1
            assert deck[:lo] == list(range(lo))
        for place in range(8 - top, 8):
            cards_there = range(lo, 8)
            expect = n / len(cards_there)
            for c in cards_there:
                assert abs(counts[place][c] - expect) < 5 * (expect**0.5), (lo, place, c)
    # each outcome its own arrangement
    seen = set()
    for outcome in range(32):
        deck = list(range(20))
        chance.chance_shuffle(deck, random.Random(3), outcome)
        seen.add(tuple(deck))
    assert len(seen) == 32


@pytest.mark.parametrize("name", [ks.DOMINION, ks.KINGDOMINO])
def test_copies_carry_no_future_draw(name: str) -> None:
    """A copy of a state (OpenSpiel's clone, as MCTS makes) does not know what comes:
    copies that take different outcomes at the chance node draw differently, and the
    same outcome gives the same game."""
    game = pyspiel.load_game(name, {"players": 2})
    seen_chance = 0
    for state, action in _play(game, 5, 400):
        after = state.clone()
        after.apply_action(action)
        if not after.is_chance_node():
            continue
        seen_chance += 1
        if seen_chance < 4:
            continue
        copies = []
        for outcome in range(game.max_chance_outcomes() and 8):
            c = after.clone()
            c.apply_action(outcome)
            copies.append(str(c))
        assert len(set(copies)) > 1  # the future differs between copies
        again = after.clone()
        again.apply_action(3)
        assert str(again) == copies[3]  # ... and the outcome decides it
        # the copy taken before the action, the original and the serialized form agree
        assert game.deserialize_state(again.serialize()).engine.fingerprint() == (
            again.engine.fingerprint()
        )
        break
    assert seen_chance >= 4


def test_dominion_the_next_hand_is_drawn_at_a_chance_node() -> None:
    """Ending the Buy phase (the Clean-up draws the next hand) is followed by a chance
    node; two copies at it draw different hands for the same deck."""
    game = pyspiel.load_game(ks.DOMINION, {"players": 2, "kingdom": "First Game"})
    state = game.new_initial_state()
    state.apply_action(11)
    rng = random.Random(0)
    for _ in range(40):  # a few turns in, the decks have cards nobody has seen
        if state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    while True:
        if state.is_chance_node():
            state.apply_action(0)
            continue
        end = [a for a in state.legal_actions() if a == 8 * 52]
        if end and state.engine.phase == 1 and max(state.fresh) > 3:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    state.apply_action(end[0])
    assert state.is_chance_node()
    hands = set()
    for outcome in range(ks.CHANCE_OUTCOMES):
        c = state.clone()
        c.apply_action(outcome)
        hands.add(tuple(sorted(c.engine.hands[seat])))
    assert len(hands) > 1


def _oracle_fresh(monkeypatch: pytest.MonkeyPatch) -> dict:
    """Records, while an action runs, the lowest each deck got (pure build only)."""
    from kingdoms.dominion import effects

    box: dict = {"low": {}, "shuffled": {}}
    take_top, take_top_n, shuffle = (
        effects.Effects.take_top,
        effects.Effects.take_top_n,
        effects.Effects.shuffle,
    )

    def note(st, p):
        box["low"][p] = min(box["low"].get(p, 10**9), len(st.decks[p]))

    def top(st, p):
        out = take_top(st, p)
        note(st, p)
        return out

    def top_n(st, p, n):
        out = take_top_n(st, p, n)
        note(st, p)
        return out

    def shuf(st, p):
        done = shuffle(st, p)
        if done:
            box["shuffled"][p] = len(st.decks[p])  # the whole pile is the deck now
            box["low"].pop(p, None)
        return done

    monkeypatch.setattr(effects.Effects, "take_top", top)
    monkeypatch.setattr(effects.Effects, "take_top_n", top_n)
    monkeypatch.setattr(effects.Effects, "shuffle", shuf)
    return box


def test_dominion_cards_someone_saw_are_never_rearranged(monkeypatch: pytest.MonkeyPatch) -> None:
    """The part of a deck a chance node rearranges holds only cards nobody has seen:
    checked against the lowest each deck got while each action ran (recorded by
    wrapping the engine's deck functions), with cards put on decks (Bureaucrat,
    Harbinger, Artisan, Sentry, Spy, Apothecary, Scrying Pool, Alchemist)."""
    from kingdoms.dominion import effects

    if not hasattr(effects.Effects.take_top, "__code__"):
        pytest.skip("the compiled engine's methods cannot be wrapped")
    box = _oracle_fresh(monkeypatch)
    game = pyspiel.load_game(ks.DOMINION, {"players": 2, "kingdom": TOPDECKERS})
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_initial_state()
        state.apply_action(seed)
        truth = [len(d) for d in state.engine.decks]
        while not state.is_terminal() and len(state.history()) < 1500:
            if state.is_chance_node():
                action = rng.randrange(len(state.chance_outcomes()))
            else:
                action = rng.choice(state.legal_actions())
            box["low"].clear()
            box["shuffled"].clear()
            state.apply_action(action)
            if state.is_chance_node():
                continue  # the action waits for its chance node
            for p in range(2):
                if p in box["shuffled"]:
                    truth[p] = box["shuffled"][p]
                truth[p] = min(truth[p], box["low"].get(p, truth[p]), len(state.engine.decks[p]))
                assert state.fresh[p] <= truth[p], (seed, p, state.fresh, truth)
                checked += state.fresh[p] == truth[p]
    assert checked > 1000


# -- perfect recall, and OpenSpiel's algorithms ------------------------------------------
@pytest.mark.parametrize("name", [ks.KINGDOMINO, ks.DOMINION])
def test_information_state_tensor_has_perfect_recall(name: str) -> None:
    """The information-state tensor is the observation, then what the seat perceived of
    every action so far: its own actions are in it, it grows with the game, a state
    resampled for the seat gives it the same tensor, and two states that differ in
    what the seat saw earlier (not now) give different tensors."""
    game = pyspiel.load_game(
        name, {"players": 2, "max_game_length": 400} if name == ks.DOMINION else {"players": 2}
    )
    obs_size = game.observation_tensor_size()
    assert game.information_state_tensor_size() == obs_size + (
        400 if name == ks.DOMINION else 2 * 48 + 8
    )
    states = [s.clone() for s, _ in _play(game, 2, 120)]
    state = states[-1]
    player = state.current_player()
    tensor = np.asarray(state.information_state_tensor(player))
    assert np.array_equal(tensor[:obs_size], np.asarray(state.observation_tensor(player)))
    past = tensor[obs_size:]
    assert np.count_nonzero(past) == state.engine.step
    own = [a for (seat, a) in _own_actions(state) if seat == player]
    perceived = past[: state.engine.step]
    assert {a + 1 for a in own} <= set(perceived.astype(int).tolist())
    other = state.resample_from_infostate(player, random.Random(9).random)
    assert np.array_equal(np.asarray(other.information_state_tensor(player)), tensor)
    # two different histories: different information states
    tensors = {tuple(np.asarray(s.information_state_tensor(player))) for s in states}
    assert len(tensors) == len(states)
    # the string too: the same for the resampled state, a different one at every point
    # of the seat's history, and it holds the seat's own past actions
    assert other.information_state_string(player) == state.information_state_string(player)
    strings = [s.information_state_string(player) for s in states]
    assert len(set(strings)) == len(states)
    if name == ks.KINGDOMINO:
        said = strings[-1].split(" {", 1)[0].split()[1:]
        assert {str(a) for a in own} <= set(said)


@pytest.mark.parametrize("name", [ks.KINGDOMINO, ks.DOMINION])
def test_python_side_reads_agree_with_pyspiel(name: str) -> None:
    """``legal_actions`` (with and without a player) and ``is_chance_node``, answered
    in Python, are what pyspiel's own state answers, at the deal, chance nodes,
    decisions and the end."""
    game = pyspiel.load_game(name, {"players": 2})
    rng = random.Random(2)
    state = game.new_initial_state()
    kinds = set()
    while True:
        base = pyspiel.State
        assert state.is_chance_node() == base.is_chance_node(state)
        if len(state.history()) > 0:  # (the deal's 65,536 outcomes: checked once below)
            assert state.legal_actions() == base.legal_actions(state)
        for p in range(2):
            assert state.legal_actions(p) == base.legal_actions(state, p)
        kinds.add(state.current_player())
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert kinds == {pyspiel.PlayerId.CHANCE, 0, 1, pyspiel.PlayerId.TERMINAL}
    fresh = game.new_initial_state()
    assert fresh.legal_actions() == base.legal_actions(fresh) == list(range(ks.DEALS))


def test_dominion_log_kept_from_the_first_information_state() -> None:
    """Play keeps no log until an information state is asked for; the first one
    replays the game with the log on, which gives the engine state, the log, the
    marks and the information states of a game that kept its log from the deal; a
    copy keeps logging, and both go on alike."""
    game = pyspiel.load_game(ks.DOMINION, {"players": 2, "max_game_length": 400})
    lazy = game.new_initial_state()
    eager = game.new_initial_state()
    eager.recording = True
    rng = random.Random(5)

    def play(steps: int) -> None:
        for _ in range(steps):
            if lazy.is_terminal():
                return
            if lazy.is_chance_node():
                action = rng.randrange(len(lazy.chance_outcomes()))
            else:
                action = rng.choice(lazy.legal_actions())
            lazy.apply_action(action)
            eager.apply_action(action)

    play(1)  # the deal (its set-up events are logged as the game is made)
    made = len(lazy.engine.log)
    play(149)
    assert not lazy.recording and not lazy.engine.logging and len(lazy.engine.log) == made
    assert len(eager.engine.log) > 50 and len(eager.marks) > 20
    player = 0 if lazy.is_chance_node() else lazy.current_player()
    tensor = lazy.information_state_tensor(player)
    assert lazy.recording and lazy.engine.logging
    assert tensor == eager.information_state_tensor(player)
    assert lazy.information_state_string(1 - player) == eager.information_state_string(1 - player)
    assert lazy.engine.log == eager.engine.log and lazy.marks == eager.marks
    assert lazy.engine.snapshot() == eager.engine.snapshot() and lazy.fresh == eager.fresh
    assert lazy.engine.rng.getstate() == eager.engine.rng.getstate()
    assert lazy.clone().recording and lazy.clone().engine.logging
    play(150)
    for p in range(2):
        assert lazy.information_state_tensor(p) == eager.information_state_tensor(p)
    assert lazy.engine.log == eager.engine.log


def _own_actions(state) -> list[tuple[int, int]]:
    """(seat, action) of every player action applied to the engine so far."""
    engine = state.engine
    if state.fresh is not None:
        return [(seat, a) for seat, a, _ in state.marks]
    replay = state.get_game().new_initial_state()
    out = []
    for a in state.history():
        if not replay.is_chance_node():
            out.append((replay.current_player(), a))
        replay.apply_action(a)
    assert len(out) == engine.step
    return out


@pytest.mark.parametrize("name", [ks.KINGDOMINO, ks.DOMINION])
def test_openspiel_mcts_plays_through_chance_nodes(name: str) -> None:
    """OpenSpiel's MCTS (which clones states and samples chance outcomes) plays moves
    of both games, its simulations passing through the chance nodes."""
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(
        name, {"players": 2, "max_game_length": 300} if name == ks.DOMINION else {"players": 2}
    )
    rs = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, 2.0, 12, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
    state = game.new_initial_state()
    state.apply_action(5)
    moves = 0
    while moves < 4 and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rs.randint(len(state.chance_outcomes()))))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves == 4


@pytest.mark.parametrize("name", [ks.KINGDOMINO, ks.DOMINION])
def test_outcome_sampling_mccfr_runs(name: str) -> None:
    """Outcome-sampling MCCFR (one sampled trajectory an iteration, chance sampled from
    ``chance_outcomes``) learns regrets over the information-state strings."""
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = pyspiel.load_game(
        name,
        {"players": 2, "chance_outcomes": 4}
        if name == ks.KINGDOMINO
        else {"players": 2, "max_game_length": 150},
    )
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    np.random.seed(0)
    for _ in range(6 if name == ks.KINGDOMINO else 2):
        solver.iteration()
    infostates = solver._infostates  # what it learnt
    assert len(infostates) > 50
    policy = solver.average_policy()
    state = game.new_initial_state()
    state.apply_action(0)
    probs = policy.action_probabilities(state)
    assert set(probs) <= set(state.legal_actions())


def test_a_state_around_an_engine_position() -> None:
    """``state_from_engine`` wraps a position reached outside OpenSpiel (the baselines'
    IS-MCTS player plays from the engine's determinization)."""
    from open_spiel.python.algorithms import ismcts, mcts

    from kingdoms.core.registry import get_game

    game = pyspiel.load_game(ks.KINGDOMINO, {"players": 2})
    g = get_game("kingdomino")
    engine = g.create(g.config(2, 3))
    engine.apply(engine.legal_actions()[0])
    state = ks.state_from_engine(game, engine)
    assert state.current_player() == engine.current_player
    assert state.legal_actions() == sorted(engine.legal_actions())
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 6, random_state=rs)
    bot.set_resampler(ks.resampler(0))
    assert bot.step(state) in state.legal_actions()


def test_the_documented_example_in_short(capsys: pytest.CaptureFixture[str]) -> None:
    """``examples/openspiel_ismcts_kingdomino.py`` (docs/rl.md's command) with one game
    and a few simulations a move: it plays to the end and reports the score."""
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "examples" / "openspiel_ismcts_kingdomino.py"
    spec = importlib.util.spec_from_file_location("openspiel_ismcts_kingdomino", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["openspiel_ismcts_kingdomino"] = module
    spec.loader.exec_module(module)
    wins = module.main(["--games", "2", "--simulations", "5"])
    assert 0 <= wins <= 2
    out = capsys.readouterr().out
    assert "game 2: IS-MCTS in seat 1" in out and "/2 (" in out
