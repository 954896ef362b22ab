"""The static client: every interface message is translated; `kingdoms serve` starts the app."""

from __future__ import annotations

import re
from typing import Any

import pytest
from click.testing import CliRunner

from kingdoms.cli import main
from kingdoms.i18n import catalog, plurals
from kingdoms.server.app import static_dir

T_CALL = re.compile(r"""\bt\("((?:[^"\\]|\\.)+)\"""")
DATA_I18N = re.compile(r'data-i18n(?:-title|-label)?="([^"]+)"')
TN_CALL = re.compile(r'\btn\("((?:[^"\\]|\\.)+)", "((?:[^"\\]|\\.)+)"')
QUOTED_MAPS = re.compile(r"const (?:PROMPTS|BONUS|BOT_LABELS) = \{(.*?)\};", re.S)


def _msgids() -> set[str]:
    found: set[str] = set()
    for path in static_dir().rglob("*"):
        if path.suffix == ".js":
            text = path.read_text(encoding="utf-8")
            found |= set(T_CALL.findall(text))
            for block in QUOTED_MAPS.findall(text):  # msgids kept in tables, translated later
                found |= set(re.findall(r':\s*"((?:[^"\\]|\\.)+)"', block))
        elif path.suffix == ".html":
            found |= set(DATA_I18N.findall(path.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_every_interface_message_is_translated(lang: str) -> None:
    ids = _msgids()
    assert len(ids) > 30
    missing = sorted(m for m in ids if m not in catalog(lang))
    assert not missing, f"add these msgids to i18n/locale/{lang}.po: {missing}"


@pytest.mark.parametrize("lang", ["en", "pl", "cs"])
def test_every_counted_message_has_its_plural_forms(lang: str) -> None:
    pairs: set[tuple[str, str]] = set()
    for path in static_dir().rglob("*.js"):
        pairs |= set(TN_CALL.findall(path.read_text(encoding="utf-8")))
    assert pairs
    table = plurals(lang)
    for singular, plural in pairs:
        forms = table.get(singular)
        assert forms is not None, f"add a plural entry for {singular!r} to {lang}.po"
        assert len(forms) == (2 if lang == "en" else 3) and all("{n}" in f for f in forms)
        if lang == "en":
            assert forms == [singular, plural]


def test_placeholders_survive_translation() -> None:
    for lang in ("pl", "cs"):
        for msgid in _msgids():
            want = sorted(re.findall(r"\{\w+\}", msgid))
            assert sorted(re.findall(r"\{\w+\}", catalog(lang)[msgid])) == want, (lang, msgid)


def test_serve_command_builds_the_app(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    seen: dict[str, Any] = {}

    def fake_run(app: Any, host: str, port: int, options: Any) -> None:
        seen.update(app=app, host=host, port=port, options=options)

    from kingdoms.server import runtime

    monkeypatch.setattr(runtime, "run_server", fake_run)
    db = f"sqlite:///{tmp_path / 'd' / 'k.sqlite'}"
    res = CliRunner().invoke(main, ["serve", "--port", "8123", "--db", db, "--bot-delay", "0"])
    assert res.exit_code == 0, res.output
    assert "http://localhost:8123/" in res.output
    assert seen["port"] == 8123 and seen["app"].state.master.bot_delay == 0
    assert seen["options"].header_timeout == 10.0
    assert seen["app"].state.master.limits.bot_think == 5.0
    assert (tmp_path / "d" / "k.sqlite").exists()


def _po_strings(lang: str) -> list[str]:
    path = static_dir().parent.parent / "i18n" / "locale" / f"{lang}.po"
    return re.findall(r'^msgstr(?:\[\d\])? "(.*)"$', path.read_text(encoding="utf-8"), re.M)


@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_card_names_need_no_case_endings(lang: str) -> None:
    """A card name is slotted in after a colon ("kupuje: Prowincja"), never where the
    grammar would want another case of it."""
    for text in _po_strings(lang):
        for m in re.finditer(r"\{cards?\}", text):
            assert text[: m.start()].endswith(": ") or m.start() == 0, text


def test_one_register_per_language() -> None:
    """Czech speaks to the player with "ty" throughout, as Polish does."""
    formal_cs = re.compile(
        r"\b(?:[Vv]a[šs]\w*|[Vv]áš|[Vv]ám|[Vv]ás|\w+(?:ejte|ete|íte|uste|jste))\b"
    )
    assert not [t for t in _po_strings("cs") if formal_cs.search(t)]
    formal_pl = re.compile(r"\b(?:[Pp]an(?:i|a|u)?|[Pp]aństw\w*|[Ww]asz\w*)\b")
    assert not [t for t in _po_strings("pl") if formal_pl.search(t)]
