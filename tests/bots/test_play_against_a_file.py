"""``kingdoms dominion play --bots FILE.toml``: the terminal game against a strategy file."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from kingdoms.cli.dominion import dominion


def _play(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(dominion, ["play", *args], input="1\n" * 40 + "q\n")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def test_the_bot_seat_plays_the_strategy_file(tmp_path: Path) -> None:
    bot = tmp_path / "estates.toml"
    bot.write_text('name = "estates"\nbuy = ["Estate"]\n')
    code, out = _play(["--bots", str(bot), "--seed", "3", "--kingdom", "First Game"])
    assert code == 0, out
    bought = re.findall(r"player 2 buys (\w+)", out)
    assert bought and set(bought) == {"Estate"}
    # the same seat with the default bot buys something else
    code, out = _play(["--bots", "big-money", "--seed", "3", "--kingdom", "First Game"])
    assert code == 0, out
    assert set(re.findall(r"player 2 buys (\w+)", out)) - {"Estate"}


def test_a_bad_strategy_file_is_a_clear_error(tmp_path: Path) -> None:
    bot = tmp_path / "bad.toml"
    bot.write_text('buy = [\n  "Province",\n  "Golld",\n]\n')
    code, out = _play(["--bots", str(bot)])
    assert code != 0
    assert "bad.toml:3:4" in out and "unknown card or type 'Golld'" in out
    assert "Traceback" not in out
    code, out = _play(["--bots", str(tmp_path / "missing.toml")])
    assert code != 0 and "missing.toml" in out and "Traceback" not in out


def test_the_table_names_each_bot_as_sim_does(tmp_path: Path) -> None:
    """A strategy-file bot is shown by its file's ``name`` (beside its seat number, as
    the log says "player 2"), with its file where it would share a name with another
    bot (the bundled ``smithy`` here), as ``kingdoms sim`` labels it."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "smithy.toml").write_text(
        'name = "Smithy"\nbuy = ["Province", "Gold", "Smithy", "Silver"]\n'
    )
    (folder / "estates.toml").write_text('name = "Estates only"\nbuy = ["Estate"]\n')
    files = f"{folder / 'smithy.toml'},smithy,{folder / 'estates.toml'}"
    code, out = _play(["--bots", files, "--seed", "3", "--kingdom", "First Game"])
    assert code == 0, out
    seats = set(re.findall(r"^. (Player \d[^:]*):", out, re.MULTILINE))
    assert seats == {
        "Player 1 (you)",
        "Player 2 — Smithy (smithy.toml)",
        "Player 3 — smithy",
        "Player 4 — Estates only",
    }
    assert "Turn: Player 1" in out and "Player 2:" not in out


def test_a_toml_syntax_error_names_the_file_line_and_column(tmp_path: Path) -> None:
    """A TOML syntax error in a strategy file says so, with the file, the line and the
    column (the end of the file where the array is never closed), not the parser's
    bare wording."""
    unclosed = tmp_path / "unclosed.toml"
    unclosed.write_text('name = "x"\nbuy = [\n  "Province",\n  "Gold"\n')
    code, out = _play(["--bots", str(unclosed)])
    assert code != 0 and "Traceback" not in out
    assert (
        f"{unclosed}:5:1: error: TOML syntax error in the strategy file: "
        "unclosed array (at the end of the file)"
    ) in out
    quote = tmp_path / "quote.toml"
    quote.write_text('name = "x\nbuy = ["Gold"]\n')
    code, out = _play(["--bots", str(quote)])
    assert code != 0 and "Traceback" not in out
    assert f"{quote}:1:10: error: TOML syntax error in the strategy file: illegal character" in out
    assert "(at line" not in out  # said once, in the file:line:column form
