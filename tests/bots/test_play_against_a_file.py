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
