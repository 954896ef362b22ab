"""``kingdoms dominion play`` driven through a pipe with scripted answers."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

pytest.importorskip("kingdoms.dominion.game", reason="Dominion engine not present")

from kingdoms.cli.dominion import dominion


def _play(args: list[str], answers: str) -> str:
    result = CliRunner().invoke(dominion, ["play", *args], input=answers)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code == 0, result.output
    return result.output


def test_whole_first_game_in_polish_answering_1() -> None:
    out = _play(
        ["--kingdom", "First Game", "--lang", "pl", "--seed", "3", "--bots", "big-money"],
        "1\n" * 20000,
    )
    assert "Koniec gry" in out  # the game was played to the end
    assert "Prowincja" in out and "Miedziaki" in out  # Polish card names
    assert "Zwycięzca" in out or "Zwycięzcy" in out
    assert "Do widzenia" not in out  # it did not run out of answers


def test_bad_input_is_explained_and_asked_again() -> None:
    out = _play(["--kingdom", "First Game", "--seed", "5"], "frobnicate\n999\n0\nq\n")
    assert "Not understood" in out
    assert "No such option: 999" in out
    assert "No such option: 0" in out
    assert out.count("Your choice") >= 4
    assert "Goodbye." in out


def test_eof_quits_cleanly_and_czech_works() -> None:
    out = _play(["--kingdom", "First Game", "--seed", "7", "--lang", "cs"], "")
    assert "Měďák" in out or "Statek" in out


def test_answer_by_name_and_save(tmp_path: pytest.TempPathFactory) -> None:
    path = tmp_path / "game.json"  # type: ignore[operator]
    out = _play(["--kingdom", "First Game", "--seed", "9"], f"play all treasures\nsave {path}\nq\n")
    assert "Saved to" in out
    from kingdoms.core import load_record

    record = load_record(path)
    state = record.replay()
    # the file holds the game where it was saved: just after the answer given by name
    before = record.replay(len(record.actions) - 1)
    assert before.current_player == 0
    assert before.action_to_str(record.actions[-1]) == "play all treasures"
    assert state.current_player == 0 and not state.is_terminal()
    assert not any(t.startswith("play ") for t in state.describe_legal())


def test_three_players_and_bot_list() -> None:
    out = _play(
        ["--players", "3", "--bots", "big-money,witch", "--seed", "11"],
        "1\n" * 50 + "q\n",
    )
    assert "Goodbye." in out


class _BotAtTheKeyboard:
    """A stdin whose answers are a bot's choices, typed as option names."""

    def __init__(self, state: object, lang: str) -> None:
        import random

        from kingdoms.bots import make_bot

        self.state = state
        self.lang = lang
        self.bot = make_bot("dominion", "smithy")
        self.rng = random.Random(1)
        self.lines = 0

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        st = self.state
        action = self.bot.act(st.view(0), st.legal_actions(), self.rng)  # type: ignore[attr-defined]
        self.lines += 1
        return st.action_to_str(action, self.lang) + "\n"  # type: ignore[attr-defined]


def test_whole_game_answered_by_name_in_czech() -> None:
    import io

    from rich.console import Console

    from kingdoms.bots import make_bot
    from kingdoms.cli.dominion import run
    from kingdoms.core import new_game

    state = new_game("dominion", 3, 21, {"kingdom": "Village Square"})
    keyboard = _BotAtTheKeyboard(state, "cs")
    out = io.StringIO()
    bots = [None, make_bot("dominion", "big-money"), make_bot("dominion", "witch")]
    code = run(state, bots, "cs", keyboard, Console(file=out, width=100))  # type: ignore[arg-type]
    assert code == 0
    assert state.is_terminal()
    assert keyboard.lines > 20
    text = out.getvalue()
    assert "Konec hry" in text and "Provincie" in text
    assert "Nerozumím" not in text  # every typed name was understood


def test_unknown_bot_is_an_error() -> None:
    result = CliRunner().invoke(dominion, ["play", "--bots", "nope"], input="q\n")
    assert result.exit_code != 0
    assert "unknown dominion bot 'nope'" in result.output


def test_rules_options_shown_and_stored(tmp_path: pytest.TempPathFactory) -> None:
    """Issue 3: --edition and --alchemy-errata are game options, stored in the record
    and shown on the screen and in the log."""
    path = tmp_path / "game.json"  # type: ignore[operator]
    out = _play(
        ["--kingdom", "Forbidden Arts", "--edition", "2", "--alchemy-errata", "--seed", "4"],
        f"save {path}\nq\n",
    )
    assert "Rules: base cards: 2nd edition; Alchemy errata: on" in out
    from kingdoms.core import load_game

    state = load_game(path)
    options = state.config.options
    assert options["base_edition"] == 2 and options["alchemy_errata"] is True
    assert "Possession" in out and "Potion" in out


def test_random_kingdom_with_alchemy_cards() -> None:
    from kingdoms.cli.dominion_options import game_options
    from kingdoms.core import new_game
    from kingdoms.dominion.data import BY_ID, CARDS

    options = game_options(None, None, "2", False, "3-5")
    sets = ["base", "base-2e", "alchemy"]
    assert options == {"base_edition": 2, "alchemy_cards": "3-5", "sets": sets}
    for seed in range(20):
        state = new_game("dominion", players=2, seed=seed, options=options)
        kingdom = state.config.options["kingdom"]
        alchemy = sum(CARDS[BY_ID[c]].set == "alchemy" for c in kingdom)
        assert 3 <= alchemy <= 5
        assert not any(CARDS[BY_ID[c]].set == "base-1e" for c in kingdom)


def test_bad_rules_flags_are_explained() -> None:
    result = CliRunner().invoke(dominion, ["play", "--sets", "base,intrigue"], input="q\n")
    assert result.exit_code != 0
    assert "unknown set 'intrigue'" in result.output
    result = CliRunner().invoke(dominion, ["play", "--alchemy-cards", "7-3"], input="q\n")
    assert result.exit_code != 0
    assert "alchemy_cards must be" in result.output
