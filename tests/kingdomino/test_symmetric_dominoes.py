"""A double (two identical squares) lies the same pointing left from (x, y) as pointing
right from (x - 1, y), and up from (x, y) as down from (x, y - 1).  The legal actions
name such a placement once (right or down); every way a placement comes in takes
either form and keeps the listed one: ``placement_action``, ``apply_checked``,
``parse_action`` and the terminal, the server (what the web board sends), records,
and ``state_from_view`` — on the pure-Python board and on the compiled one."""

from __future__ import annotations

import asyncio
import importlib
import random
from typing import Any

import pytest

from kingdoms.core import new_game
from kingdoms.core.record import GameRecord
from kingdoms.core.registry import get_game
from kingdoms.kingdomino.board import CELLS, OFF, Board, canonical_placement, xy
from kingdoms.kingdomino.state import PLACE, KingdominoState
from kingdoms.kingdomino.tiles import TILES


def _board_kinds() -> list[Any]:
    kinds: list[Any] = [pytest.param(Board, id="pure")]
    try:
        native = importlib.import_module("kingdoms.kingdomino._cboard").CBoard
    except ImportError:
        native = None
    kinds.append(
        pytest.param(
            native,
            id="compiled",
            marks=pytest.mark.skipif(native is None, reason="the compiled board is not built"),
        )
    )
    return kinds


def _on(state: KingdominoState, kind: Any) -> KingdominoState:
    """``state`` with every kingdom on a board of ``kind`` (the same placements)."""
    boards = []
    for old in state.boards:
        new = kind(state.size)
        for number, code in old.placed:
            new.place(TILES[number], code)
        for number in old.discarded:
            new.discard(number)
        boards.append(new)
    state.boards = boards
    state._legal = None
    return state


def _double_to_place(seed: int) -> tuple[KingdominoState, list[int]]:
    """A game of random moves stopped where a double is to be placed with at least
    one legal placement whose other form lies on the grid: (state, actions so far)."""
    rng = random.Random(seed)
    while True:
        state = new_game("kingdomino", players=2, seed=rng.randrange(10**6))
        assert isinstance(state, KingdominoState)
        while not state.is_terminal():
            number = state.acting_domino()
            if state.phase == PLACE and TILES[number].is_double and _turned(state):
                return state, list(state.history)
            state.apply(rng.choice(state.legal_actions()))


def _turned(state: KingdominoState) -> list[tuple[int, int]]:
    """(canonical code, its other form) of each legal placement."""
    out = []
    for code in state.legal_actions():
        if code >= 4 * CELLS:
            continue
        d, a = divmod(code, CELLS)
        out.append((code, (d + 2) * CELLS + a + OFF[d]))
    return out


@pytest.mark.parametrize("kind", _board_kinds())
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_either_form_of_a_double_placement_is_taken(kind: Any, seed: int) -> None:
    state, _ = _double_to_place(seed)
    state = _on(state, kind)
    number = state.acting_domino()
    for code, other in _turned(state):
        assert other not in state.legal_actions()
        assert canonical_placement(TILES[number], other) == code
        assert state.canonical(other) == code
        d, a = divmod(other, CELLS)
        x, y = xy(a)
        assert state.placement_action(x, y, d) == code  # pointing left/up from (x, y)
        assert state.parse_action(str(other)) == code
        assert state.parse_action(state.action_to_str(other)) == code
        assert state.parse_action(state.action_to_str(other, "pl"), "pl") == code
        from kingdoms.cli.kingdomino import normalize_answer

        answer = normalize_answer(state, f"{x} {y} {('right', 'down', 'left', 'up')[d]}")
        assert state.parse_action(answer) == code
    code, other = _turned(state)[0]
    a, b = state.clone(), state.clone()
    a.apply_checked(other)
    b.apply_checked(code)
    assert a.history[-1] == code  # recorded in the listed form
    assert a.fingerprint() == b.fingerprint()
    assert a.boards[state.current_player].cells() == b.boards[state.current_player].cells()


def test_a_single_placement_is_never_turned_round() -> None:
    state, _ = _double_to_place(4)
    single = next(d for d in TILES.values() if not d.is_double)
    for code in range(4 * CELLS):
        assert canonical_placement(single, code) == code
    assert state.canonical(4 * CELLS) == 4 * CELLS  # discard: as it is


def test_records_replay_either_form() -> None:
    state, history = _double_to_place(5)
    code, other = _turned(state)[0]
    record = GameRecord(config=state.config, actions=(*history, other))
    replayed = record.replay()
    assert replayed.history[-1] == code
    expected = state.clone()
    expected.apply_checked(code)
    assert replayed.fingerprint() == expected.fingerprint()


@pytest.mark.parametrize("kind", _board_kinds())
def test_state_from_view_takes_either_form(kind: Any) -> None:
    state, _ = _double_to_place(6)
    code, other = _turned(state)[0]
    seat = state.current_player
    state.apply_checked(code)
    state = _on(state, kind)
    view = state.view(seat)
    placed = view["kingdoms"][seat]["placed"]
    assert placed[-1][1] == code
    placed[-1][1] = other  # the same placement in its other form
    rebuilt = get_game("kingdomino").state_from_view(view, random.Random(0))
    assert isinstance(rebuilt, KingdominoState)
    assert rebuilt.boards[seat].placed[-1][1] == code
    assert rebuilt.boards[seat].cells() == state.boards[seat].cells()


def test_the_server_takes_either_form_and_stores_the_listed_one() -> None:
    """What the web board (or any client) sends goes through the game master."""
    from kingdoms.server.master import GameMaster
    from kingdoms.server.storage import Storage

    async def main() -> None:
        gm = GameMaster(Storage("sqlite://"), bot_delay=0)
        table, tokens = gm.create_game("kingdomino", [{"kind": "human"}] * 2, {}, seed=11)

        async def send(msg: dict[str, Any]) -> None:
            pass

        await gm.subscribe(table.id, list(tokens), send)
        rng = random.Random(11)
        while True:
            state = table.state
            assert isinstance(state, KingdominoState) and not state.is_terminal()
            seat = state.current_player
            number = state.acting_domino()
            if state.phase == PLACE and TILES[number].is_double and _turned(state):
                code, other = _turned(state)[0]
                await gm.act(table, (seat,), {"action": other, "state_id": state.step})
                assert table.state.history[-1] == code
                stored = gm.storage.load_game(table.id)
                assert stored is not None and stored.actions[-1] == code
                return
            action = rng.choice(state.legal_actions())
            await gm.act(table, (seat,), {"action": action, "state_id": state.step})

    asyncio.run(main())


@pytest.mark.parametrize(("players", "options"), [(2, {}), (3, {}), (4, {"variants": ["dynasty"]})])
def test_kingdomino_moves_no_domino_between_hidden_zones(
    players: int, options: dict[str, Any]
) -> None:
    """The audit of hidden moves in Kingdomino: dominoes leave the face-down pile only
    as a line turned face up (named in full to everyone), and nothing else is hidden
    from one seat but not another: no log event has a secret part and every seat's
    view is the same but for its seat number."""
    state = new_game("kingdomino", players=players, seed=players, options=options)
    rng = random.Random(players)
    seen = {e["domino"] for e in state.view(0)["current_line"]}  # the first line: face up
    while not state.is_terminal():
        assert all(e.secret is None and e.audience == () for e in state.log)
        views = [state.view(p) for p in range(players)]
        for v in views[1:]:
            assert {k: x for k, x in v.items() if k != "seat"} == {
                k: x for k, x in views[0].items() if k != "seat"
            }
        for e in state.log:
            if e.type in ("setup", "round"):
                seen.update(e.data["line"])
        for line in ("current_line", "next_line"):
            assert {e["domino"] for e in views[0][line]} <= seen
        state.apply(rng.choice(state.legal_actions()))
