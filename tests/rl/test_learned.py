"""``learned``: the shipped network bot (every decision from the network) and its
training pipeline (examples/train_dominion_learned.py) in short runs."""

from __future__ import annotations

import importlib.util
import io
import json
import random
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from kingdoms.bots.base import bot_names, make_bot
from kingdoms.bots.dominion.learned import (
    LearnedBot,
    Network,
    load_network,
    save_network,
    shipped_network,
)
from kingdoms.core.errors import InvalidConfig
from kingdoms.core.registry import get_game
from kingdoms.core.runner import bot_input
from kingdoms.core.state import TERMINAL
from kingdoms.dominion.actions import NUM_ACTIONS
from kingdoms.rl.dominion_obs import DominionEncoder

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "train_dominion_learned.py"
CHECKPOINT = ROOT / "src" / "kingdoms" / "bots" / "dominion" / "data" / "learned.npz"
GAME = get_game("dominion")


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_dominion_learned", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_dominion_learned"] = module
    spec.loader.exec_module(module)
    return module


def _play(bots: list[LearnedBot | object], seed: int, players: int = 2, **opts: object) -> object:
    state = GAME.create(GAME.config(players, seed, dict(opts)))
    rng = random.Random(seed)
    while state.current_player != TERMINAL:
        p = state.current_player
        bot = bots[p]
        state.apply(bot.act(bot_input(bot, state, p), state.legal_actions(), rng))  # type: ignore[attr-defined]
    return state


# -- the bot ---------------------------------------------------------------------------
def test_learned_is_a_dominion_bot_spec() -> None:
    assert "learned" in bot_names("dominion")
    bot = make_bot("dominion", "learned")
    assert isinstance(bot, LearnedBot) and bot.name == "learned"
    with pytest.raises(InvalidConfig, match="no parameters"):
        make_bot("dominion", "learned:depth=2")


def test_every_decision_is_the_networks_argmax_over_legal_actions() -> None:
    """A network whose scores are a fixed ranking of the actions picks, at every
    decision, the best-ranked legal one: nothing else decides for it."""
    rng = np.random.default_rng(0)
    size = DominionEncoder(2).size
    ranking = rng.permutation(NUM_ACTIONS).astype(np.float32)
    arrays = {
        "inv_scale": np.zeros(size, np.float32),
        "w0": np.zeros((size, NUM_ACTIONS), np.float32),
        "b0": ranking,
    }
    bot = LearnedBot(Network(arrays, {}))
    state = GAME.create(GAME.config(2, 3, {"kingdom": "First Game"}))
    r = random.Random(0)
    for _ in range(300):
        if state.current_player == TERMINAL:
            break
        legal = state.legal_actions()
        p = state.current_player
        action = bot.act(bot.observe(state, p), legal, r)
        assert action == max(legal, key=lambda a: ranking[a])
        state.apply(action)


def test_the_view_and_the_fast_observation_give_the_same_decisions() -> None:
    """Front ends that hand the JSON view get the same moves as the runner's fast path."""
    bot = make_bot("dominion", "learned")
    assert isinstance(bot, LearnedBot)
    state = GAME.create(GAME.config(2, 11, {}))  # a random kingdom
    rng = random.Random(1)
    decisions = 0
    while state.current_player != TERMINAL and decisions < 400:
        p = state.current_player
        legal = state.legal_actions()
        fast = bot.act(bot.observe(state, p), legal, rng)
        slow = bot.act(state.view(p), legal, rng)
        assert fast == slow
        state.apply(fast)
        decisions += 1
    assert decisions > 50


def test_learned_plays_whole_games_with_more_players_and_beats_random() -> None:
    learned = make_bot("dominion", "learned")
    state = _play([learned, make_bot("dominion", "random"), make_bot("dominion", "random")], 5, 3)
    assert state.is_terminal()  # type: ignore[attr-defined]
    won = 0
    for g in range(6):
        seat = g % 2
        bots: list[object] = [learned, make_bot("dominion", "random")]
        if seat:
            bots.reverse()
        st = _play(bots, 100 + g)
        won += st.returns()[seat] > 0  # type: ignore[attr-defined]
    assert won == 6


def test_the_shipped_checkpoint_is_small_and_carries_its_model_card() -> None:
    assert CHECKPOINT.stat().st_size < 2_000_000
    net = shipped_network()
    meta = net.meta
    assert net.size == DominionEncoder(2).size and net.num_actions == NUM_ACTIONS
    for key in ("seed", "settings", "budget", "samples", "training_kingdoms", "teachers", "curve"):
        assert key in meta, key
    assert meta["budget"]["gradient_steps"] > 0 and meta["samples"] > 0
    assert len(meta["training_kingdoms"]) == meta["settings"]["kingdoms"]
    # the "bought this turn" flag (not in a seat's JSON view) is not read
    assert net.inv_scale[DominionEncoder(2).layout["bought"]].max() == 0


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    arrays = {
        "inv_scale": rng.random(4).astype(np.float32),
        "w0": rng.standard_normal((4, 3)).astype(np.float32),
        "b0": rng.standard_normal(3).astype(np.float32),
    }
    path = tmp_path / "n.npz"
    save_network(str(path), arrays, {"seed": 7})
    net = load_network(path.read_bytes())
    assert net.meta == {"seed": 7}
    x = rng.random(4).astype(np.float32)
    want = (x * arrays["inv_scale"]) @ arrays["w0"] + arrays["b0"]
    assert np.allclose(net.scores(x), want, atol=1e-2)  # float16 weights
    with pytest.raises(InvalidConfig, match="at least one layer"):
        buf = io.BytesIO()
        np.savez(buf, inv_scale=arrays["inv_scale"])
        load_network(buf.getvalue())


# -- the pipeline ----------------------------------------------------------------------
SHORT = {
    "kingdoms": 2,
    "select_games": 2,
    "games": 6,
    "dagger": 1,
    "dagger_games": 3,
    "epochs": 2,
    "curve_games": 6,
    "curve_kingdoms": 3,
    "log": False,
}


def test_training_is_reproducible_from_its_seed() -> None:
    """Same seed, same build: the same weights and the same curve; another seed differs."""
    ex = _example()
    _, a = ex.train(seed=3, **SHORT)
    _, b = ex.train(seed=3, **SHORT)
    assert a["weights_sha256"] == b["weights_sha256"]
    assert a["curve"] == b["curve"] and len(a["curve"]) == 2
    assert a["budget"] == b["budget"] and a["budget"]["dagger_games"] == 6
    _, c = ex.train(seed=4, **SHORT)
    assert c["weights_sha256"] != a["weights_sha256"]
    assert c["training_kingdoms"] != a["training_kingdoms"]


def test_every_decision_kind_is_in_the_samples() -> None:
    """Behaviour cloning sees plays, buys and card choices, not buys only."""
    ex = _example()
    teacher = make_bot("dominion", "bmu+militia:2")
    rec: list[tuple[np.ndarray, list[int], int]] = []
    kingdom = ex.training_kingdoms(0, 1)[0]
    if "militia" not in kingdom:
        kingdom = [*kingdom[:9], "militia"] if "militia" not in kingdom else kingdom
    for g in range(4):
        opp = make_bot("dominion", "bmu+militia:2")
        ex.play(
            kingdom,
            g,
            [teacher, opp],
            random.Random(g),
            {0: teacher, 1: opp},
            rec,
            DominionEncoder(2),
        )
    from kingdoms.dominion.actions import decode

    kinds = {decode(a)[0] for _, _, a in rec}
    assert {0, 1, 2} <= kinds  # play, buy, choose (Militia's discards)
    assert all(len(legal) >= 2 and a in legal for _, legal, a in rec)


def test_evaluation_kingdoms_are_fresh_and_their_own() -> None:
    ex = _example()
    train = ex.training_kingdoms(0, 30)
    ev = ex.evaluation_kingdoms(0, 20, train)
    assert len(ev) == 20
    assert not {tuple(sorted(k)) for k in ev} & {tuple(sorted(k)) for k in train}
    assert ex.training_kingdoms(0, 30) == train  # from the seed


def test_the_documented_commands_in_short(tmp_path: Path) -> None:
    """``--save``/``--report`` then ``--load``: the checkpoint measured as saved."""
    ex = _example()
    ckpt, report = tmp_path / "l.npz", tmp_path / "l.json"
    out = ex.main(
        [
            "--kingdoms",
            "2",
            "--select-games",
            "1",
            "--games",
            "4",
            "--dagger",
            "0",
            "--epochs",
            "1",
            "--curve-games",
            "4",
            "--eval-games",
            "8",
            "--eval-kingdoms",
            "4",
            "--save",
            str(ckpt),
            "--report",
            str(report),
        ]
    )
    saved = json.loads(report.read_text())
    assert [r["games"] for r in saved["evaluation"]["results"]] == [8, 8]
    assert out["budget"]["teacher_games"] == 8
    again = ex.main(["--load", str(ckpt), "--eval-games", "8", "--eval-kingdoms", "4"])
    assert again["evaluation"] == saved["evaluation"]
    assert again["meta"]["training_kingdoms"] == saved["training_kingdoms"]
    picture = tmp_path / "curve.png"
    assert ex.main(["--plot", str(report), str(report), "--curve", str(picture)]) == {"plotted": 2}
    assert picture.read_bytes()[:4] == b"\x89PNG"


# -- the front ends --------------------------------------------------------------------
def test_the_front_ends_offer_learned() -> None:
    """The simulator, the terminal game and the server lobby's catalogue."""
    from click.testing import CliRunner

    from kingdoms.cli import main
    from kingdoms.cli.dominion import dominion
    from kingdoms.server.lobby import game_catalog

    res = CliRunner().invoke(
        main, ["sim", "dominion", "--bots", "learned,big-money-ultimate", "-n", "4", "--json"]
    )
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["games"] == 4
    res = CliRunner().invoke(
        dominion,
        ["play", "--kingdom", "First Game", "--seed", "3", "--bots", "learned"],
        input="1\n" * 20000,
    )
    assert res.exit_code == 0, res.output
    assert "Game over" in res.output or "Winner" in res.output
    dominion_entry = next(g for g in game_catalog() if g["name"] == "dominion")
    assert "learned" in dominion_entry["bots"]


def test_learned_plays_without_the_rl_extras_environments() -> None:
    """The bot needs numpy (a dependency of the core's matplotlib), not gymnasium or
    pettingzoo: a server installed without the ``rl`` extra plays it."""
    import subprocess

    code = (
        "import sys\n"
        "for m in ('pettingzoo', 'gymnasium', 'torch'): sys.modules[m] = None\n"
        "import random, kingdoms\n"
        "from kingdoms.bots.base import make_bot\n"
        "s = kingdoms.new_game('dominion', players=2, seed=4)\n"
        "bots = [make_bot('dominion', 'learned'), make_bot('dominion', 'big-money')]\n"
        "r = random.Random(0)\n"
        "while not s.is_terminal():\n"
        "    p = s.current_player\n"
        "    s.apply(bots[p].act(s.view(p), s.legal_actions(), r))\n"
        "print('pettingzoo' in sys.modules and sys.modules['pettingzoo'] is None)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    )
    assert out.stdout.strip() == "True", out.stderr


def test_the_decision_one_hot_keeps_the_order_the_network_was_trained_with() -> None:
    """Decisions that became declared steps keep their place in the ``decision``
    one-hot (by the card's own code they had when the shipped network was trained)."""
    from kingdoms.rl.dominion_obs import DECISION_KINDS

    trained = (
        "alchemist", "apothecary", "artisan", "bandit", "bureaucrat", "chancellor",
        "cleanup", "discard_down_to", "discard_draw", "discard_or_back", "gain", "golem",
        "harbinger", "herbalist", "library", "mine", "moat", "moneylender", "poacher",
        "sentry_discard", "sentry_order", "sentry_trash", "thief_gain", "thief_trash",
        "throne", "trash_one", "trash_up_to", "vassal",
    )  # fmt: skip
    renamed = {
        "artisan": "hand_to_deck",
        "bandit": "victim_trash_revealed",
        "harbinger": "discard_to_deck",
        "mine": "trash_of_type",
        "poacher": "discard_per_empty",
        "throne": "play_twice",
        "thief_trash": "trash_revealed",
        "thief_gain": "gain_trashed",
        "sentry_discard": "look_discard",
        "sentry_order": "look_order",
        "sentry_trash": "look_trash",
        "bureaucrat": "victim_topdeck",
        "chancellor": "discard_deck",
        "library": "may_set_aside",
        "moneylender": "may_trash_for",
    }
    assert tuple(renamed.get(k, k) for k in trained) == DECISION_KINDS
