"""What each seat may see of cards moved between hidden zones, and what a possessor
sees (issue: rules fidelity).

* Cards discarded together (the base rules: a player discarding several cards at once
  need not show them; the top card of every discard pile is always visible): the
  other seats see how many and the final top card, never the cards one by one and
  never the first pick as the top card; the discarding seat sees them all.  Cards a
  rule reveals stay revealed.
* Possession (§5.8): the possessor sees everything the possessed player sees during
  the turn, the Clean-up draw of the next hand included, and nothing more.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from kingdoms.core.registry import get_game
from kingdoms.dominion.data import BY_ID
from kingdoms.dominion.state import DominionState
from kingdoms.server.spectate import public_view
from tests.dominion.helpers import do, ids, make

KINGDOM = [
    "cellar", "militia", "poacher", "sentry", "moat",
    "library", "spy", "chancellor", "vassal", "smithy",
]  # fmt: skip
POSSESSION_KINGDOM = [
    "possession", "cellar", "militia", "sentry", "smithy",
    "library", "spy", "harbinger", "moat", "village",
]  # fmt: skip
GAME = get_game("dominion")


def _top(state: DominionState, viewer: int, seat: int) -> Any:
    return state.view(viewer)["players"][seat]["discard_top"]


def _new_events(state: DominionState, seat: int | None, start: int) -> list[dict[str, Any]]:
    return state.log_for(seat)[start:]


def _named_cards(events: list[dict[str, Any]], owner: int) -> list[str]:
    """Every card id the events name as a card of ``owner`` discarded."""
    out: list[str] = []
    for e in events:
        if e.get("player") == owner and e["type"] == "discard":
            out += e.get("cards", [])
            if "card" in e:
                out.append(e["card"])
    return out


def _consistent(state: DominionState, seats: range) -> None:
    """Every seat's view rebuilds to itself and survives determinization."""
    for p in seats:
        view = state.view(p)
        assert state.determinize(p, random.Random(p)).view(p) == view
        rebuilt = GAME.state_from_view(view, random.Random(p))
        assert isinstance(rebuilt, DominionState)
        rebuilt.check_invariants()
        assert rebuilt.view(p) == view


def _check_discard_together(
    state: DominionState,
    owner: int,
    picks: list[str],
    finish: list[str],
    old_top: str | None,
    discarded: list[str],
) -> None:
    """Drive ``picks`` (one card each) then ``finish``: the others see the old top
    card during the picks, then the final one, and one log event without names."""
    others = [q for q in range(state.num_players) if q != owner]
    start = len(state.log)
    size = state.view(others[0])["players"][owner]["discard_size"]
    for i, pick in enumerate(picks):
        do(state, pick)
        if i + 1 < len(picks) or finish:
            for q in others:
                assert _top(state, q, owner) == old_top, f"seat {q} sees a pick as the top"
                assert state.view(q)["players"][owner]["discard_size"] == size + i + 1
            assert _top(state, owner, owner) == discarded[i]
            assert public_view(state)["players"][owner]["discard_top"] == old_top
            _consistent(state, range(state.num_players))
    do(state, *finish)
    for q in range(state.num_players):
        assert _top(state, q, owner) == discarded[-1]
    for q in others:
        events = _new_events(state, q, start)
        assert _named_cards(events, owner) == []
        summary = [e for e in events if e["type"] == "discard"]
        assert summary == [
            {"type": "discard", "player": owner, "count": len(discarded), "top": discarded[-1]}
        ]
    assert _named_cards(_new_events(state, None, start), owner) == discarded
    assert _named_cards(_new_events(state, owner, start), owner) == discarded
    assert _named_cards(_new_events(state, -1, start), owner) == []  # a spectator
    _consistent(state, range(state.num_players))


def test_cellar_discards_are_shown_together_with_the_final_top_card() -> None:
    s = make(
        2,
        KINGDOM,
        hands={0: ["cellar", "estate", "duchy", "copper", "copper"]},
        discards={0: ["gold"]},
        decks={0: ["silver"] * 5},
    )
    do(s, "play Cellar")
    _check_discard_together(s, 0, ["discard Estate", "discard Duchy"], ["done"], "gold",
                            ["estate", "duchy"])  # fmt: skip
    assert ids(s.hands[0]).count("silver") == 2


def test_militia_victim_discards_are_shown_together() -> None:
    s = make(
        3,
        KINGDOM,
        hands={0: ["militia"], 1: ["estate", "duchy", "copper", "copper", "silver"]},
        discards={1: ["province"]},
    )
    do(s, "play Militia")
    assert s.current_player == 1
    _check_discard_together(s, 1, ["discard Estate", "discard Duchy"], [], "province",
                            ["estate", "duchy"])  # fmt: skip


def test_militia_onto_an_empty_discard_pile_shows_no_top_card_until_done() -> None:
    s = make(2, KINGDOM, hands={0: ["militia"], 1: ["estate", "duchy", "copper", "copper", "gold"]})
    do(s, "play Militia")
    _check_discard_together(s, 1, ["discard Estate", "discard Gold"], [], None,
                            ["estate", "gold"])  # fmt: skip


def test_poacher_picks_are_shown_together() -> None:
    s = make(
        2,
        KINGDOM,
        base_edition=2,
        hands={0: ["poacher", "estate", "duchy", "copper", "silver"]},
        decks={0: ["gold"]},
        discards={0: ["curse"]},
        supply={"smithy": 0, "spy": 0},
    )
    do(s, "play Poacher")
    _check_discard_together(s, 0, ["discard Estate", "discard Duchy"], [], "curse",
                            ["estate", "duchy"])  # fmt: skip


def test_poacher_discarding_its_whole_hand_shows_only_count_and_top() -> None:
    s = make(
        2,
        KINGDOM,
        base_edition=2,
        hands={0: ["poacher", "estate"]},
        decks={0: ["copper"]},
        supply={"smithy": 0, "spy": 0},
    )
    start = len(s.log)
    do(s, "play Poacher")
    assert s.hands[0] == [] and ids(s.discards[0]) == ["estate", "copper"]
    assert _top(s, 1, 0) == "copper"
    assert _named_cards(_new_events(s, 1, start), 0) == []
    assert {"type": "discard", "player": 0, "count": 2, "top": "copper"} in s.log_for(1)
    assert _named_cards(_new_events(s, 0, start), 0) == ["estate", "copper"]


def test_sentry_discards_of_cards_looked_at_are_shown_together() -> None:
    s = make(
        2,
        KINGDOM,
        base_edition=2,
        hands={0: ["sentry", "copper"]},
        decks={0: ["silver", "estate", "duchy", "gold"]},
        discards={0: ["curse"]},
    )
    do(s, "play Sentry", "done")  # trash none
    _check_discard_together(s, 0, ["discard Estate", "discard Duchy"], [], "curse",
                            ["estate", "duchy"])  # fmt: skip


def test_sentry_discarding_one_then_done() -> None:
    s = make(
        2,
        KINGDOM,
        base_edition=2,
        hands={0: ["sentry", "copper"]},
        decks={0: ["silver", "estate", "duchy", "gold"]},
    )
    do(s, "play Sentry", "done")
    _check_discard_together(s, 0, ["discard Duchy"], ["done"], None, ["duchy"])
    assert s.current_player == 0 and s.decks[0][-1] == s.decks[0][-1]


def test_clean_up_names_no_card_of_the_hand_and_shows_the_top() -> None:
    """Clean-up discards hand and play at once: no card named, the top card shown."""
    s = make(2, KINGDOM, hands={0: ["estate", "duchy", "curse", "gold", "silver"]})
    start = len(s.log)
    do(s, "end buys")
    assert _named_cards(_new_events(s, 1, start), 0) == []
    assert all("cards" not in e for e in _new_events(s, 1, start) if e.get("player") == 0)
    assert _top(s, 1, 0) == ids(s.discards[0])[-1]


def test_chancellor_puts_the_deck_away_unnamed() -> None:
    s = make(2, KINGDOM, hands={0: ["chancellor"]}, decks={0: ["gold", "silver", "estate"]})
    start = len(s.log)
    do(s, "play Chancellor", "discard deck")
    events = _new_events(s, 1, start)
    assert {"type": "deck_discarded", "player": 0, "count": 3} in events
    assert _named_cards(events, 0) == []
    assert _top(s, 1, 0) == ids(s.discards[0])[-1]


Scenario = Callable[[], tuple[DominionState, list[str], int, list[str]]]


def _spy() -> tuple[DominionState, list[str], int, list[str]]:
    s = make(2, KINGDOM, hands={0: ["spy"]}, decks={0: ["copper", "gold"], 1: ["estate"]})
    return s, ["play Spy", "discard Gold", "discard Estate"], 1, ["estate"]


def _library() -> tuple[DominionState, list[str], int, list[str]]:
    s = make(
        2, KINGDOM, hands={0: ["library", "copper"]}, decks={0: ["smithy", "copper", "copper",
        "copper", "copper", "copper", "copper"]},
    )  # fmt: skip
    return s, ["play Library", "set aside Smithy"], 0, ["smithy"]


def _vassal() -> tuple[DominionState, list[str], int, list[str]]:
    s = make(2, KINGDOM, base_edition=2, hands={0: ["vassal"]}, decks={0: ["estate"]})
    return s, ["play Vassal"], 0, ["estate"]


@pytest.mark.parametrize("scenario", [_spy, _library, _vassal], ids=["spy", "library", "vassal"])
def test_revealed_cards_stay_revealed_one_by_one(scenario: Scenario) -> None:
    """Spy's revealed cards, Library's set-aside cards, Vassal's top card: public."""
    s, steps, owner, revealed = scenario()
    start = len(s.log)
    do(s, *steps)
    for q in range(s.num_players):
        assert _named_cards(_new_events(s, q, start), owner) == revealed


@pytest.mark.parametrize("card", ["adventurer", "thief"])
def test_cards_revealed_from_the_deck_are_discarded_in_the_open(card: str) -> None:
    kingdom = [card, *KINGDOM[1:]]
    decks = {0: ["estate", "copper", "duchy", "silver"], 1: ["estate", "curse"]}
    s = make(2, kingdom, hands={0: [card]}, decks=decks)
    start = len(s.log)
    do(s, f"play {card.title()}")
    owner = 0 if card == "adventurer" else 1
    expected = ["estate", "duchy"] if card == "adventurer" else ["estate", "curse"]
    for q in range(2):
        assert sorted(_named_cards(_new_events(s, q, start), owner)) == sorted(expected)


# -- Possession ---------------------------------------------------------------------------
def _possessed(players: int = 3) -> DominionState:
    """Seat 0 possesses seat 1; seat 1's possessed turn has started."""
    s = make(
        players,
        POSSESSION_KINGDOM,
        hands={0: ["possession"], 1: ["smithy", "cellar", "copper", "copper", "estate"]},
        decks={
            0: ["copper"] * 5,
            1: ["silver", "gold", "duchy", "village", "copper", "curse", "copper", "moat"],
        },
        discards={1: ["province"]},
    )
    do(s, "play Possession", "end buys")
    assert s.turn == 1 and s.controller == 0
    return s


def test_possessor_sees_every_draw_of_the_possessed_turn_and_the_next_hand() -> None:
    s = _possessed()
    start = len(s.log)
    do(s, "play Cellar", "discard Estate", "done", "play Smithy")  # Cellar: +1 Action
    drawn = [e for e in s.log_for(0)[start:] if e["type"] == "draw"]
    assert [e["cards"] for e in drawn] == [["silver"], ["gold", "duchy", "village"]]
    assert all("cards" not in e for e in s.log_for(2)[start:])
    assert all("cards" not in e for e in s.log_for(-1)[start:])
    # the possessed discard: the possessor sees the card, the third seat does not
    assert {"type": "discard", "player": 1, "count": 1, "top": "estate",
            "cards": ["estate"]} in s.log_for(0)  # fmt: skip
    assert {"type": "discard", "player": 1, "count": 1, "top": "estate"} in s.log_for(2)
    cleanup = len(s.log)
    do(s, "end buys")
    assert s.turn == 1 and s.controller < 0  # seat 1's own turn now
    next_hand = sorted(ids(s.hands[1]))
    draws0 = [e for e in s.log_for(0)[cleanup:] if e["type"] == "draw"]
    assert sorted(draws0[0]["cards"]) == next_hand  # the Clean-up draw, in the log
    assert all("cards" not in e for e in s.log_for(2)[cleanup:])
    assert s.view(0)["seen_hands"] == [{"player": 1, "hand": next_hand}]
    assert s.view(1)["seen_hands"] == s.view(2)["seen_hands"] == []
    assert s.public_view()["seen_hands"] == [] and public_view(s)["seen_hands"] == []
    _consistent(s, range(3))
    # until seat 1's own Clean-up discards that hand
    while s.turn == 1:
        do(s, "end actions" if s.phase == 0 else "end buys")
    assert s.view(0)["seen_hands"] == []


def test_possessor_sees_nothing_more_than_the_possessed_player() -> None:
    """Another seat's draw during the possessed turn stays its own; the possessed
    player's deck stays hidden from the possessor."""
    s = make(
        3,
        [*POSSESSION_KINGDOM[:-1], "council_room"],
        hands={0: ["possession"], 1: ["council_room"]},
        decks={0: ["copper"] * 5, 2: ["gold"]},
    )
    do(s, "play Possession", "end buys")
    start = len(s.log)
    do(s, "play Council Room")
    seat2 = [e for e in s.log[start:] if e.type == "draw" and e.player == 2]
    assert seat2 and all(e.audience == (2,) for e in seat2)
    seat1 = [e for e in s.log[start:] if e.type == "draw" and e.player == 1]
    assert seat1 and all(e.audience == (1, 0) for e in seat1)
    view0 = s.view(0)
    assert "deck" not in view0["possession"] and view0["seen_hands"] == []


def _possession_policy(state: DominionState, rng: random.Random) -> int:
    """Buy Potions and Possessions, play Possession: reaches Possession turns soon."""
    texts = {state.action_to_str(a): a for a in state.legal_actions()}
    potions = state.owned_counts[state.current_player][BY_ID["potion"]]
    buys = ["buy Possession", *(["buy Potion"] if potions < 2 else []), "buy Gold"]
    for wanted in ("play Possession", "play all treasures", *buys, "buy Silver"):
        if wanted in texts:
            return texts[wanted]
    if state.stack:
        return rng.choice(list(texts.values()))
    return texts["end actions"] if "end actions" in texts else texts["end buys"]


def test_server_messages_show_the_possessor_the_clean_up_draw() -> None:
    """Over the wire: during and at the end of a possessed turn, the possessor's
    messages name the possessed player's draws and its view shows the next hand;
    the other seat's messages never name them."""
    import asyncio
    import json

    from kingdoms.server.master import GameMaster
    from kingdoms.server.storage import Storage

    async def main() -> tuple[list[list[dict[str, Any]]], int]:
        gm = GameMaster(Storage("sqlite://"), bot_delay=0)
        options = {"kingdom": POSSESSION_KINGDOM}
        table, tokens = gm.create_game("dominion", [{"kind": "human"}] * 3, options, seed=5)
        inboxes: list[list[dict[str, Any]]] = [[], [], []]

        def sender(p: int) -> Any:
            async def send(msg: dict[str, Any]) -> None:
                inboxes[p].append(json.loads(json.dumps(msg)))

            return send

        for p in range(3):
            await gm.subscribe(table.id, [tokens[p]], sender(p))  # type: ignore[list-item]
        rng = random.Random(5)
        possessor = -1
        while possessor < 0 or table.state.controller >= 0:
            state = table.state
            assert isinstance(state, DominionState) and not state.is_terminal()
            if state.controller >= 0:
                possessor = state.controller
            action = _possession_policy(state, rng)
            seat = state.current_player
            await gm.act(table, (seat,), {"action": action, "state_id": state.step})
        return inboxes, possessor

    inboxes, possessor = asyncio.run(main())
    possessed = (possessor + 1) % 3
    third = 3 - possessor - possessed
    seen = inboxes[possessor][-1]["view"]["seen_hands"]
    assert [e["player"] for e in seen] == [possessed]
    last_draw = [e for m in inboxes[possessor] for e in m["log"] if e["type"] == "draw"][-1]
    assert last_draw["player"] == possessed and sorted(last_draw["cards"]) == seen[0]["hand"]
    for m in inboxes[third]:
        assert all("cards" not in e for e in m["log"] if e.get("player") == possessed)
    assert inboxes[third][-1]["view"]["seen_hands"] == []


# -- no engine file names a card ------------------------------------------------------------
ENGINE_FILES = ("state.py", "rebuild.py", "view.py", "zones.py", "stack.py", "fields.py")


def _kingdom_card_names() -> set[str]:
    from kingdoms.dominion.data import CARDS

    kingdom = {c.id for c in CARDS if c.is_kingdom}
    # "possession" is also the name of a Possession turn (the turn's own bookkeeping)
    return (kingdom - {"possession"}) | {cid.upper() for cid in kingdom}


@pytest.mark.parametrize("name", ENGINE_FILES)
def test_engine_files_name_no_kingdom_card(name: str) -> None:
    """What a card's decision shows about a hidden hand (Library's card drawn, Moat,
    Bureaucrat) is declared with the card (``HAND_HINTS``), as the cards a frame holds
    are (``HELD``): the engine's own files name no kingdom card, in code."""
    import ast
    from pathlib import Path

    import kingdoms.dominion as pkg

    path = Path(pkg.__file__).parent / name
    tree = ast.parse(path.read_text("utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    cards = _kingdom_card_names()
    named = sorted(
        {
            str(node.value) if isinstance(node, ast.Constant) else node.id
            for node in ast.walk(tree)
            if (
                isinstance(node, ast.Constant)
                and id(node) not in docstrings
                and node.value in cards
            )
            or (isinstance(node, ast.Name) and node.id.isupper() and node.id in cards)
        }
    )
    assert named == [], f"{name} names cards {named}"


def test_library_hidden_card_still_blanked_and_rebuilt() -> None:
    """Library's drawn Action card: its owner's view names it, the other's blanks it,
    and a rebuild from the other's view puts an Action card in the hand."""
    from kingdoms.dominion.data import IS_ACTION

    s = make(2, KINGDOM, hands={0: ["library", "copper"]},
             decks={0: ["smithy", "copper", "copper", "copper", "copper", "copper"]})  # fmt: skip
    do(s, "play Library")
    assert s.stack[-1].code == "may_set_aside"
    mine, theirs = s.view(0), s.view(1)
    assert mine["engine"]["frames"][-1][3] == BY_ID["smithy"]
    assert theirs["engine"]["frames"][-1][3] is None
    assert "about" not in theirs["decision"] and mine["decision"]["about"]["card"] == "smithy"
    for seed in range(5):
        rebuilt = GAME.state_from_view(theirs, random.Random(seed))
        assert isinstance(rebuilt, DominionState)
        card = rebuilt.stack[-1].a
        assert IS_ACTION[card] and card in rebuilt.hands[0]
        assert rebuilt.view(1) == theirs
        det = s.determinize(1, random.Random(seed))
        assert BY_ID["smithy"] in det.hands[0]
    do(s, "set aside Smithy")
    assert ids(s.discards[0])[-1] == "smithy" and len(s.hands[0]) == 6


# -- the rest of the audit: every other card that moves cards out of a hidden zone --------
def _moves_seen_by(state: DominionState, seat: int, start: int, owner: int) -> list[Any]:
    """(type, the card names) of ``owner``'s events since ``start`` as ``seat`` sees them,
    for the events that move cards: discard, topdeck, reveal, trash, draw."""
    out: list[Any] = []
    for e in state.log_for(seat)[start:]:
        if e.get("player") == owner and e["type"] in ("discard", "topdeck", "reveal", "draw"):
            out.append((e["type"], e.get("cards", e.get("card"))))
    return out


AUDIT = {
    # card: (hands, decks, steps, owner, what the other seat sees of the owner's moves)
    "bandit": ({0: ["bandit"]}, {1: ["gold", "estate"]}, [], 1,
               [("reveal", ["gold", "estate"]), ("discard", "estate")]),
    "golem": ({0: ["golem"]}, {0: ["estate", "smithy", "copper", "village"]}, [], 0,
              [("reveal", ["smithy", "village", "estate", "copper"])]),
    "scrying_pool": ({0: ["scrying_pool"]}, {0: ["village", "copper", "estate"], 1: ["gold"]},
                     ["discard Village", "put back Gold"], 0,
                     [("reveal", ["village"]), ("discard", "village"), ("reveal", ["copper"])]),
    "harbinger": ({0: ["harbinger"]}, {0: ["copper"]}, ["put Gold on deck"], 0,
                  [("draw", None), ("topdeck", None)]),
    "artisan": ({0: ["artisan", "estate"]}, {}, ["gain Silver", "put Estate on deck"], 0,
                [("topdeck", None)]),
    "apothecary": ({0: ["apothecary"]}, {0: ["silver", "copper", "estate", "duchy", "potion"]},
                   ["put back Estate now"], 0,
                   [("draw", None), ("reveal", ["copper", "estate", "duchy", "potion"])]),
    "bureaucrat": ({0: ["bureaucrat"], 1: ["estate", "copper"]}, {}, [], 1,
                   [("reveal", ["estate"])]),
}  # fmt: skip


@pytest.mark.parametrize("card", sorted(AUDIT))
def test_what_other_seats_see_of_each_card_moving_hidden_cards(card: str) -> None:
    """Revealed cards are named to everyone; cards moved unrevealed are only counted
    (the owner sees them all)."""
    hands, decks, steps, owner, seen = AUDIT[card]
    kingdom = [card, *(c for c in POSSESSION_KINGDOM if c != card)][:10]
    s = make(2, kingdom, base_edition=2, hands=hands, decks=decks,
             discards={0: ["gold"]} if card == "harbinger" else None)  # fmt: skip
    start = len(s.log)
    do(s, f"play {card.replace('_', ' ').title()}", *steps)
    other = 1 - owner
    assert _moves_seen_by(s, other, start, owner) == seen
    mine = _moves_seen_by(s, owner, start, owner)
    assert len(mine) == len(seen)
    _consistent(s, range(2))


def test_determinizing_for_another_seat_resamples_the_picks_of_a_discard() -> None:
    """Militia picks not yet shown are as hidden as the hand they came from."""
    s = make(
        2,
        KINGDOM,
        hands={0: ["militia"], 1: ["estate", "duchy", "copper", "copper", "silver"]},
        decks={1: ["gold", "gold", "gold", "gold", "gold"]},
        discards={1: ["province"]},
    )
    do(s, "play Militia", "discard Estate")
    tops = set()
    for seed in range(30):
        det = s.determinize(0, random.Random(seed))
        det.check_invariants()
        assert det.view(0) == s.view(0)
        assert ids(det.discards[1])[0] == "province" and det.discarding[1] == 1
        tops.add(ids(det.discards[1])[-1])
    assert len(tops) > 1  # not always the real pick
    assert ids(s.determinize(1, random.Random(0)).discards[1]) == ["province", "estate"]


def test_terminal_shows_the_possessor_the_hand_it_saw() -> None:
    import io

    from rich.console import Console

    from kingdoms.cli.dominion import Screen

    s = _possessed()
    while s.controller >= 0:
        do(s, "end actions" if s.phase == 0 else "end buys")
    for lang, title in (("en", "Hand of Player 2, seen"), ("pl", "Ręka gracza Gracz 2")):
        out = io.StringIO()
        Screen(Console(file=out, width=200), s, lang).draw(s.view(0), [])
        assert title in out.getvalue()
        out2 = io.StringIO()
        Screen(Console(file=out2, width=200), s, lang).draw(s.view(2), [])
        assert title not in out2.getvalue()
