"""The whole decision's bounds (Chapel "up to 4", Cellar "any number", Militia "down
to 3") are structured data of the view, shown by the terminal and the web widget."""

from __future__ import annotations

import io

from rich.console import Console

from kingdoms.cli.dominion import Screen
from kingdoms.i18n import catalog
from tests.dominion.helpers import do, make


def _total(s: object, seat: int) -> dict[str, object]:
    return s.view(seat)["decision"]["total"]  # type: ignore[attr-defined, no-any-return]


def test_chapel_is_up_to_four_and_counts_the_picks() -> None:
    s = make(kingdom=["chapel"], hands={0: ["chapel", "copper", "copper", "estate", "estate"]})
    do(s, "play Chapel")
    assert _total(s, 0) == {"min": 0, "max": 4, "picked": 0}
    do(s, "trash Copper", "trash Estate")
    assert _total(s, 0) == {"min": 0, "max": 4, "picked": 2}


def test_cellar_is_any_number() -> None:
    s = make(hands={0: ["cellar", "copper", "estate", "estate"]})
    do(s, "play Cellar")
    assert _total(s, 0) == {"min": 0, "max": None, "picked": 0}
    do(s, "discard Estate")
    assert _total(s, 0) == {"min": 0, "max": None, "picked": 1}


def test_militia_is_exactly_down_to_three_and_public() -> None:
    s = make(hands={0: ["militia"], 1: ["copper", "copper", "estate", "silver", "gold"]})
    do(s, "play Militia")
    assert _total(s, 1) == {"min": 2, "max": 2, "picked": 0}
    s.apply_checked(s.legal_actions()[0])
    assert _total(s, 1) == {"min": 2, "max": 2, "picked": 1}
    assert _total(s, 0) == _total(s, 1)  # hand sizes are public


def test_a_single_pick_decision_has_total_bounds_of_one() -> None:
    s = make(hands={0: ["workshop"]})
    do(s, "play Workshop")
    assert _total(s, 0) == {"min": 1, "max": 1, "picked": 0}


def test_terminal_prints_the_bounds_translated() -> None:
    s = make(kingdom=["chapel"], hands={0: ["chapel", "copper", "estate"]})
    do(s, "play Chapel", "trash Copper")
    out = io.StringIO()
    Screen(Console(file=out, width=160, color_system=None), s, "pl").draw(s.view(0), [])
    expected = catalog("pl")["chosen {picked}, up to {max}"].format(picked=1, max=4)
    assert expected in out.getvalue()
