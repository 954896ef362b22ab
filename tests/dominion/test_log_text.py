"""The game log's wording: plural forms by the catalog's rules, the money at each buy,
plays made by another card marked, seats named as given."""

from __future__ import annotations

import pytest

from kingdoms.dominion.data import BY_ID, CARDS
from kingdoms.dominion.view import event_text
from kingdoms.i18n import ngettext
from kingdoms.server.logtext import with_names
from tests.dominion.helpers import ALL_1E, do, make

DRAWS = {
    "en": {0: "draws 0 cards", 1: "draws 1 card", 2: "draws 2 cards", 5: "draws 5 cards",
           22: "draws 22 cards"},
    "pl": {0: "dobiera 0 kart", 1: "dobiera 1 kartę", 2: "dobiera 2 karty", 5: "dobiera 5 kart",
           22: "dobiera 22 karty"},
    "cs": {0: "líže 0 karet", 1: "líže 1 kartu", 2: "líže 2 karty", 5: "líže 5 karet",
           22: "líže 22 karet"},
}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "pl", "cs"])
@pytest.mark.parametrize("count", [0, 1, 2, 5, 22])
def test_draws_take_the_plural_form_of_their_count(lang: str, count: int) -> None:
    text = event_text({"type": "draw", "player": 0, "count": count}, lang)
    assert DRAWS[lang][count] in text
    shown = event_text(
        {"type": "draw", "player": 0, "count": count, "cards": ["copper"] * count}, lang
    )
    assert shown.count(":") == (1 if count else 0), shown  # one colon: "… 5 cards: Copper, …"
    assert "::" not in shown and ": 5:" not in shown


def test_the_catalog_rule_picks_the_form() -> None:
    forms = [ngettext("pl", "{n} card", "{n} cards", n).format(n=n) for n in (1, 3, 12, 22, 25)]
    assert forms == ["1 karta", "3 karty", "12 kart", "22 karty", "25 kart"]


def test_a_buy_shows_the_money_the_player_had() -> None:
    s = make(hands={0: ["copper", "copper", "copper", "copper", "copper"]})
    s.logging = True
    do(s, "play all treasures", "buy Silver")
    buy = next(e for e in s.log_for(None) if e["type"] == "buy")
    assert buy["coins"] == 5
    assert s.event_to_str(buy, "en") == "player 1 buys Silver with $5"
    assert s.event_to_str(buy, "pl").endswith("(ma $5)")
    assert s.event_to_str(buy, "cs").endswith("(má $5)")


def test_a_throne_roomed_play_is_marked() -> None:
    s = make(kingdom=["village", *ALL_1E[:9]], hands={0: ["throne_room", "village"]})
    s.logging = True
    do(s, "play Throne Room", "play Village twice")
    plays = [s.event_to_str(e, "en") for e in s.log_for(None) if e["type"] == "play"]
    assert plays == [
        "player 1 plays Throne Room",
        "player 1 plays Village (via Throne Room)",
        "player 1 plays Village (via Throne Room)",
    ]
    marked = [s.event_to_str(e, "pl") for e in s.log_for(None) if e["type"] == "play"][1]
    assert marked.endswith("(dzięki karcie: " + CARDS[BY_ID["throne_room"]].name("pl") + ")")


def test_seats_are_named_as_given() -> None:
    names: list[str | None] = ["big-money", None]
    assert with_names("player 1 buys Gold", names) == "big-money buys Gold"
    assert with_names("player 2 buys Gold", names) == "Player 2 buys Gold"
    assert with_names("hráč 2 kupuje", names, "cs") == "Hráč 2 kupuje"


@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_every_log_line_is_translated(lang: str) -> None:
    from kingdoms.dominion.view import BUY_TEXT, DISCARD_TEXT, DRAW_TEXT, EVENT_TEXT
    from kingdoms.i18n import translator

    _ = translator(lang)
    left = [t for t in [*EVENT_TEXT.values(), BUY_TEXT] if _(t) == t]
    left += [t[0] for t in (DRAW_TEXT, DISCARD_TEXT) if ngettext(lang, *t, 5) == t[1]]
    assert not left, f"log lines left in English in {lang}: {left}"
