"""Decisions as data: every decision has a kind, a purpose and its texts in en/pl/cs;
the deciding seat's view carries them structured (no text to parse)."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

from kingdoms.bots.dominion import adapter
from kingdoms.bots.dominion.bots import bundled_bot
from kingdoms.cli.dominion import Screen
from kingdoms.dominion.cards.registry import ANSWERS, DECISION_ACTIONS
from kingdoms.dominion.data import BY_ID, CARDS
from kingdoms.dominion.decisions import KINDS, PROMPTS, SPECS, YES_NO, purposes
from kingdoms.i18n import catalog
from tests.dominion.helpers import FIRST_GAME, do, make

PURPOSE = re.compile(r"^[a-z_]+\.[a-z_]+$")


def test_every_decision_has_a_kind_and_a_purpose() -> None:
    # decisions declared with their legal answers also declare their spec
    assert set(DECISION_ACTIONS) == set(ANSWERS) and set(ANSWERS) <= set(SPECS)
    for code, spec in SPECS.items():
        assert spec.kind in KINDS, code
    for purpose in purposes():
        assert PURPOSE.match(purpose), purpose
        card = purpose.split(".")[0]
        # a card id of data/cards.csv (Clean-up is the one decision of a phase)
        assert card in BY_ID or card == "cleanup", purpose
    gainers = {p.split(".")[0] for p in purposes() if p.endswith(".gain")}
    assert gainers == {"workshop", "feast", "remodel", "mine", "university", "artisan", "thief"}
    assert all(CARDS[BY_ID[c]].is_kingdom for c in gainers)


@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_every_decision_prompt_and_option_text_is_translated(lang: str) -> None:
    """Every decision purpose has its prompt, every decision kind its option texts, in
    Polish and Czech (English is the msgid itself)."""
    cat = catalog(lang)
    missing = [s.prompt for s in SPECS.values() if not cat.get(s.prompt)]
    missing += [p for p in PROMPTS.values() if not cat.get(p)]
    for code, spec in SPECS.items():
        texts = (spec.pick, spec.yes, spec.no) if spec.kind == YES_NO else (spec.pick,)
        missing += [f"{code}: {t}" for t in texts if not cat.get(t)]
    for generic in ("choose {card}", "gain {card}", "done", "yes", "no", "Decide."):
        if not cat.get(generic):
            missing.append(generic)
    assert missing == []


def test_every_card_has_a_name_and_text_in_every_language() -> None:
    from kingdoms.dominion.info import texts

    table = texts()
    for card in CARDS:
        for lang in ("en", "pl", "cs"):
            assert card.names.get(lang), (card.id, lang)
            assert table[card.id][lang].strip(), (card.id, lang)


def test_militia_decision_in_the_view_is_structured_and_private() -> None:
    s = make(hands={0: ["militia"], 1: ["copper", "copper", "estate", "silver", "gold"]})
    do(s, "play Militia")
    mine, theirs = s.view(1)["decision"], s.view(0)["decision"]
    assert mine["kind"] == "choose_cards" and mine["purpose"] == "militia.discard"
    assert mine["zone"] == "hand" and mine["whose"] == 1 and mine["who"] == 1
    assert mine["prompt"] == "Militia: discard down to 3 cards."
    picks = {c["card"] for c in mine["choices"]}
    assert picks == {"copper", "estate", "silver", "gold"}
    assert {c["answer"] for c in mine["choices"]} == {"card"}
    assert [c["action"] for c in mine["choices"]] == s.legal_actions()
    # the attacker sees the question, not the victim's hand
    assert theirs["purpose"] == "militia.discard" and "choices" not in theirs


def test_library_yes_no_names_its_card_as_data_and_the_bot_reads_it() -> None:
    s = make(
        kingdom=[
            *("library", "village", "cellar", "market", "militia"),
            *("mine", "moat", "remodel", "smithy", "workshop"),
        ],
        hands={0: ["library", "copper"]},
        decks={0: ["village", "copper", "copper", "copper", "copper", "copper"]},
    )
    do(s, "play Library")
    d = s.view(0)["decision"]
    assert d["kind"] == "yes_no" and d["purpose"] == "library.set_aside"
    assert {(c["answer"], c["card"]) for c in d["choices"]} == {
        ("yes", "village"),
        ("no", "village"),
    }
    options = adapter.decode(s.view(0), s.legal_actions())
    assert {(o.verb, o.card) for o in options} == {("set_aside", "village"), ("keep", "village")}
    # no Actions left to play: the default policy sets the Village aside
    default = bundled_bot("default")
    assert default.act(s.view(0), s.legal_actions(), random.Random(0)) == s.legal_actions()[0]
    assert "village" not in str(s.view(1)["decision"])  # drawn into a hidden hand


def test_gain_purpose_names_the_card_that_gains() -> None:
    s = make(hands={0: ["workshop"]})
    do(s, "play Workshop")
    d = s.view(0)["decision"]
    assert d["kind"] == "choose_pile" and d["purpose"] == "workshop.gain"
    assert {c["answer"] for c in d["choices"]} == {"pile"}
    assert "silver" in {c["card"] for c in d["choices"]}
    info = s.action_info(s.legal_actions()[0])
    assert info["purpose"] == "workshop.gain"


def test_terminal_shows_any_decision_prompt_translated() -> None:
    s = make(hands={0: ["cellar", "copper", "estate"]})
    do(s, "play Cellar")
    out = io.StringIO()
    screen = Screen(Console(file=out, width=120, color_system=None), s, "pl")
    screen.draw(s.view(0), [])
    assert (
        catalog("pl")["Cellar: discard cards, then draw as many (done to stop)."] in out.getvalue()
    )


def test_every_declared_card_matches_the_shared_card_list() -> None:
    """Each declaration's facts (cost in coins and potions, types, set) are those of
    shared/data/dominion_cards.csv."""
    import csv

    from kingdoms.dominion.cards import DECLARED
    from tests.conftest import shared_dir

    shared = shared_dir()
    path = shared / "data" / "dominion_cards.csv" if shared is not None else None
    if path is None or not path.exists():
        pytest.skip("shared/data/dominion_cards.csv not found next to the repository")
    rows = {r["id"]: r for r in csv.DictReader(path.open(encoding="utf-8"))}
    assert set(rows) <= set(DECLARED)  # every card of the shared list is declared
    for cid, decl in DECLARED.items():
        row = rows[cid]
        assert (decl.cost, decl.potions) == (int(row["coins"]), int(row["potions"])), cid
        assert decl.types == frozenset(row["types"].split("|")), cid
        assert decl.set == row["set"], cid


def test_a_declaration_that_contradicts_the_card_list_is_refused() -> None:
    from kingdoms.dominion.cards.declare import DeclarationError, declare
    from kingdoms.dominion.cards.steps import Plus, TrashUpTo

    with pytest.raises(DeclarationError, match="does not match"):
        declare("smithy", 3, ("Action",), "base", Plus(cards=3))
    with pytest.raises(DeclarationError, match="not in the card list"):
        declare("peddler", 8, ("Action",), "prosperity")
    with pytest.raises(DeclarationError, match="prompts"):
        declare("chapel", 2, ("Action",), "base", TrashUpTo(4))


def test_steps_after_a_decision_wait_for_it() -> None:
    """A step after one that asks a decision runs once the decision is answered (a
    Chapel redeclared, for this test only, as "trash up to 2 cards, then +1 Card
    and +$2")."""
    from kingdoms.dominion.cards import DECLARED, EFFECTS
    from kingdoms.dominion.cards.declare import declare
    from kingdoms.dominion.cards.steps import Plus, TrashUpTo

    chapel = BY_ID["chapel"]
    saved = DECLARED["chapel"], EFFECTS[chapel]
    try:
        declare(
            "chapel",
            2,
            ("Action",),
            "base",
            TrashUpTo(2),
            Plus(cards=1, coins=2),
            trash="Chapel: trash up to 4 cards (done to stop).",
        )
        s = make(
            kingdom=["chapel", *FIRST_GAME[1:]],
            hands={0: ["chapel", "estate", "estate", "copper"]},
            decks={0: ["gold"]},
        )
        do(s, "play Chapel")
        assert s.coins == 0 and len(s.hands[0]) == 3  # the +$2 and +1 Card wait
        do(s, "trash Estate")
        assert s.coins == 0
        do(s, "trash Estate")  # the second (last) trash ends the decision
        assert s.coins == 2 and sorted(s.hands[0]) == sorted([BY_ID["copper"], BY_ID["gold"]])
        assert not s.stack
    finally:
        DECLARED["chapel"], EFFECTS[chapel] = saved


def test_every_card_is_one_declaration_with_its_prompts() -> None:
    """Every card of the card list is declared; a card has custom code exactly when its
    declaration has a ``Custom`` step; every prompt a declaration gives is the prompt
    of one of its decisions."""
    from kingdoms.dominion.cards import DECLARED, EFFECTS
    from kingdoms.dominion.cards.registry import CUSTOM
    from kingdoms.dominion.cards.steps import Custom
    from kingdoms.dominion.data import NUM_CARDS

    assert {c.id for c in CARDS[:NUM_CARDS]} <= set(DECLARED)
    spec_purposes = {s.purpose for s in SPECS.values()}
    for cid, decl in DECLARED.items():
        assert decl.index == BY_ID[cid]
        custom = any(isinstance(s, Custom) for s in decl.steps)
        assert custom == (decl.index in CUSTOM), cid
        assert (decl.index in EFFECTS) == bool(decl.steps) == CARDS[decl.index].is_action, cid
        for verb, prompt in decl.prompts.items():
            assert f"{cid}.{verb}" in spec_purposes or f"*.{verb}" in spec_purposes, cid
            assert PROMPTS[f"{cid}.{verb}"] == prompt


def test_a_card_decision_without_a_declared_prompt_is_refused() -> None:
    from kingdoms.dominion.cards.steps import asks, yes_no
    from kingdoms.dominion.decisions import DecisionSpec

    with pytest.raises(ValueError, match=r"no prompt declared for 'smithy\.reveal'"):
        asks("smithy_reveal", DecisionSpec(YES_NO, "smithy.reveal"), yes_no, _noop)
    assert "smithy_reveal" not in SPECS


def _noop(*args: object) -> None:
    return None
