"""Every card type has its one-card form ("type:Treasure") in every catalog, so a
card's type line never falls back to the supply's group heading."""

from __future__ import annotations

import csv
from importlib import resources

import pytest

from kingdoms.i18n import catalog


@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_every_card_type_has_its_singular_form(lang: str) -> None:
    path = resources.files("kingdoms.dominion").joinpath("data", "cards.csv")
    with path.open(encoding="utf-8") as fh:
        types = {t for row in csv.DictReader(fh) for t in row["types"].split("|")}
    assert {"Treasure", "Curse", "Action", "Victory"} <= types
    pl = catalog("pl")
    for t in types:
        if f"type:{t}" in pl:  # the types whose heading and card differ in some language
            assert f"type:{t}" in catalog(lang), (lang, t)
