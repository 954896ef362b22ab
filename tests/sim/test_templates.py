"""The strategy templates ``optimize`` and ``rank`` search: every generated genome is a
strategy file that loads and checks clean, and the search reaches the templates."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from kingdoms.bots.dominion.lang import check_text, parse_strategy
from kingdoms.sim.rank import kingdom_cards
from kingdoms.sim.templates import (
    Extra,
    Genome,
    combos,
    crossover,
    mutate,
    normalize,
    template_of,
    template_seeds,
)

GARDENS = "Workshop,Gardens,Cellar,Chapel,Moat,Village,Smithy,Market,Festival,Laboratory"
FAMILIAR = "Familiar,Laboratory,Cellar,Chapel,Moat,Village,Smithy,Market,Festival,Workshop"
THRONE = "Throne Room,Smithy,Cellar,Chapel,Moat,Village,Workshop,Market,Festival,Gardens"


def _clean(g: Genome, cards: list[str]) -> None:
    text = g.to_toml("x")
    findings = check_text(text, "x", cards)
    assert not [f for f in findings if f.level == "error"], (text, findings)
    parse_strategy(text)  # loads as a bot would


@pytest.mark.parametrize("kingdom", [GARDENS, FAMILIAR, THRONE, "First Game"])
def test_every_mutation_and_crossover_is_a_valid_strategy(kingdom: str) -> None:
    cards = kingdom_cards(kingdom, 0)
    rng = random.Random(7)
    pop = template_seeds(cards, rng)
    kinds: Counter[str] = Counter()
    for _ in range(300):
        a = rng.choice(pop)
        g = (
            crossover(a, rng.choice(pop), cards, rng)
            if rng.random() < 0.3
            else mutate(a, cards, rng)
        )
        assert normalize(g, cards) == g  # variation keeps genomes normalized
        _clean(g, cards)
        kinds[template_of(g)] += 1
        pop.append(g)
    assert len(kinds) >= 3  # the variations move between templates


def test_the_templates_of_a_kingdom() -> None:
    rng = random.Random(1)
    seeds = template_seeds(kingdom_cards(GARDENS, 0), rng)
    kinds = {template_of(g) for g in seeds}
    assert {"Big Money", "Big Money + X", "draw engine", "trashing engine", "Gardens rush"} <= kinds
    rush = next(g for g in seeds if g.rush)
    strategy = parse_strategy(rush.to_toml("rush"))
    assert "workshop.gain" in strategy.decisions  # the rush writes its gain rules
    gain = [r.text for r in strategy.decisions["workshop.gain"]]
    assert gain[0].startswith("Gardens if count(Workshop) >= ")
    trash = next(g for g in seeds if g.trasher == "chapel")
    strategy = parse_strategy(trash.to_toml("t"))
    rules = strategy.decisions["chapel.trash"]
    assert [r.key for r in rules[:3]] == ["curse", "estate", "copper"]
    assert rules[1].cond is not None and rules[2].cond is not None  # conditioned trash rules
    assert strategy.play[0].cond is not None or strategy.play[-1].cond is not None
    fam = template_seeds(kingdom_cards(FAMILIAR, 0), rng)
    potion = [g for g in fam if "Potion" in g.templates()]
    assert potion
    assert any(f"Potion if count(Potion) < {g.potions}" in g.to_toml("p") for g in potion)


def test_rule_conditions_drive_the_games() -> None:
    """A generated village rule plays the village only with a terminal in hand."""
    g = Genome(village="village", extras=(Extra("smithy", 2, False),))
    strategy = parse_strategy(g.to_toml("e"))
    assert [r.key for r in strategy.play] == ["village", "smithy"]
    assert "in_hand(Smithy) >= 1" in strategy.play[0].text


def test_combos_of_a_card_use_it_and_one_partner_at_most() -> None:
    cards = kingdom_cards(GARDENS, 0)
    found = combos("gardens", cards, random.Random(3))
    assert found and all("gardens" in g.cards() and len(g.cards()) <= 2 for g in found)
    assert any(g.rush and g.gainer == "workshop" for g in found)


def test_a_tiny_optimize_on_the_gardens_kingdom_finds_a_gardens_rush() -> None:
    from kingdoms.sim.optimize import optimize

    result = optimize(
        GARDENS, ["workshop-gardens"], pool=False, population=8, generations=2, games=4,
        final_games=20, workers=1,
    )  # fmt: skip
    assert result.template == "Gardens rush", result.text
    assert result.genome.gainer == "workshop"
    findings = check_text(result.text, "x", kingdom_cards(GARDENS, 0))
    assert not [f for f in findings if f.level == "error"], findings
    assert '"workshop.gain" = [' in result.text and "Gardens if count(Workshop) >= " in result.text
