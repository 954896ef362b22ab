"""The static client: every interface message is translated; `kingdoms serve` starts the app."""

from __future__ import annotations

import re
from typing import Any

import pytest
from click.testing import CliRunner

from kingdoms.cli import main
from kingdoms.i18n import catalog
from kingdoms.server.app import static_dir

T_CALL = re.compile(r"""\bt\("((?:[^"\\]|\\.)+)\"""")
DATA_I18N = re.compile(r'data-i18n(?:-title)?="([^"]+)"')


def _msgids() -> set[str]:
    found: set[str] = set()
    for path in static_dir().rglob("*"):
        if path.suffix == ".js":
            found |= set(T_CALL.findall(path.read_text(encoding="utf-8")))
        elif path.suffix == ".html":
            found |= set(DATA_I18N.findall(path.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_every_interface_message_is_translated(lang: str) -> None:
    ids = _msgids()
    assert len(ids) > 30
    missing = sorted(m for m in ids if m not in catalog(lang))
    assert not missing, f"add these msgids to i18n/locale/{lang}.po: {missing}"


def test_placeholders_survive_translation() -> None:
    for lang in ("pl", "cs"):
        for msgid in _msgids():
            want = sorted(re.findall(r"\{\w+\}", msgid))
            assert sorted(re.findall(r"\{\w+\}", catalog(lang)[msgid])) == want, (lang, msgid)


def test_serve_command_builds_the_app(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    seen: dict[str, Any] = {}

    def fake_run(app: Any, host: str, port: int, **kw: Any) -> None:
        seen.update(app=app, host=host, port=port, **kw)

    from kingdoms.server import runtime

    monkeypatch.setattr(runtime, "run_server", fake_run)
    db = f"sqlite:///{tmp_path / 'd' / 'k.sqlite'}"
    res = CliRunner().invoke(main, ["serve", "--port", "8123", "--db", db, "--bot-delay", "0"])
    assert res.exit_code == 0, res.output
    assert "http://localhost:8123/" in res.output
    assert seen["port"] == 8123 and seen["app"].state.master.bot_delay == 0
    assert seen["header_timeout"] == 10.0 and seen["app"].state.master.limits.bot_think == 5.0
    assert (tmp_path / "d" / "k.sqlite").exists()
