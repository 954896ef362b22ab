"""One declared field list: clone, snapshot and restore cover every field of a state.

The parts of the state (stack, zones, turn) declare their fields once
(:data:`kingdoms.dominion.state.FIELDS`); these tests fail when a field is added
to a part without its declaration, or when clone or snapshot misses one.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from kingdoms.core import InvalidArgument, new_game
from kingdoms.dominion import fields as F
from kingdoms.dominion.frames import Frame
from kingdoms.dominion.state import ENGINE_FIELDS, FIELDS, DominionState
from tests.dominion.helpers import make

PARTS = ("stack", "zones", "scoring", "turn", "state")
POSSESSION_KINGDOM = [
    "possession", "feast", "mine", "bureaucrat", "moneylender",
    "thief", "witch", "moat", "throne_room", "golem",
]  # fmt: skip


def _annotated_attributes() -> set[str]:
    """Names annotated in the class bodies of the state's part modules (the source)."""
    src = Path(__file__).resolve().parents[2] / "src" / "kingdoms" / "dominion"
    out: set[str] = set()
    for part in PARTS:
        tree = ast.parse((src / f"{part}.py").read_text("utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                        out.add(item.target.id)
    return out


def test_every_annotated_attribute_of_the_parts_is_declared_once() -> None:
    declared = [f.name for f in FIELDS]
    assert len(declared) == len(set(declared))
    assert set(declared) == _annotated_attributes()
    assert all(f.kind in F.KINDS for f in FIELDS)


def test_a_new_game_sets_every_declared_field() -> None:
    st = new_game("dominion", players=3, seed=4, options={"kingdom": POSSESSION_KINGDOM})
    for f in FIELDS:
        getattr(st, f.name)  # raises if the constructor left it unset
    slots = {s for cls in type(st).__mro__ for s in getattr(cls, "__slots__", ())}
    core = {"config", "history", "log", "logging", "rng"}
    if "__dict__" not in dir(st):  # a slotted class: its slots are exactly the fields
        assert slots - core == {f.name for f in FIELDS}


def _states(seed: int, count: int) -> Iterator[DominionState]:
    """States along random games: a Possession kingdom (3 players) and a scenario in
    which seat 0 plays Possession at once."""
    rng = random.Random(seed)
    starts = [
        new_game("dominion", players=3, seed=seed, options={"kingdom": POSSESSION_KINGDOM}),
        make(
            kingdom=POSSESSION_KINGDOM,
            seed=seed,
            hands={0: ["possession", "throne_room", "potion", "gold", "gold"]},
        ),
    ]
    for start in starts:
        st = start
        st.logging = False
        for _ in range(count):
            if st.is_terminal():
                break
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
            yield st


def _mutated(f: F.Field, value: Any) -> Any:
    """A different value of the same kind (a fresh object for shared lists)."""
    kind = f.kind
    if kind == F.VALUE:
        if f.of is bool:
            return not value
        if f.of is str:
            return value + "x"
        return value + 7
    if kind == F.ZONES:
        value[0].append(3)
        return value
    if kind == F.COUNTS:
        value[0][3] += 1  # kept in place as cards move
        return value
    if kind == F.FRAMES:
        value.append(Frame("reset_immune", 0))
        return value
    if kind == F.TUPLES:
        value.append((1, 2))
        return value
    if kind == F.CACHE:
        value[-1] = [1]
        return value
    if kind in (F.SHARED, F.DERIVED):
        value.append(1)  # the engine replaces these whole; a caller may not
        return value
    if kind == F.TOTALS:
        return (*value, 1)  # a tuple: replaced whole
    value.append(True if f.of is bool else 1)
    return value


def test_clone_copies_every_field_and_snapshot_shows_every_field() -> None:
    seen_pending = seen_possession = 0
    for i, st in enumerate(_states(11, 400)):
        if i % 9:
            continue
        seen_pending += bool(st.stack)
        seen_possession += st.controller >= 0
        before = st.snapshot()
        totals = st.totals
        owned = [list(counts) for counts in st.owned_counts]
        cache = dict(st.buy_cache)
        for f in FIELDS:
            copy = st.clone()
            assert copy.snapshot() == before
            setattr(copy, f.name, _mutated(f, getattr(copy, f.name)))
            assert st.snapshot() == before, f"clone shares {f.name}"
            assert st.totals == totals, f"clone shares {f.name}"
            assert st.owned_counts == owned, f"clone shares {f.name}"
            assert st.buy_cache == cache, f"clone shares {f.name}"
            if f.kind not in F.UNSAVED:
                assert copy.snapshot() != before, f"snapshot leaves out {f.name}"
    assert seen_pending and seen_possession


def test_snapshot_restore_gives_the_same_game() -> None:
    checked = pending = possessed = 0
    for i, st in enumerate(_states(5, 600)):
        if i % 7:
            continue
        snap = st.snapshot()
        back = DominionState.restore(snap)
        assert back.snapshot() == snap
        assert back.totals == st.totals
        assert back.owned_counts == st.owned_counts
        back.check_invariants()
        # both play on identically (the random generator is restored too)
        a, b = st.clone(), back
        rng = random.Random(i)
        for _ in range(30):
            if a.is_terminal():
                break
            legal = a.legal_actions()
            assert b.legal_actions() == legal
            act = legal[rng.randrange(len(legal))]
            a.apply(act)
            b.apply(act)
        assert a.snapshot() == b.snapshot()
        checked += 1
        pending += bool(st.stack)
        possessed += st.controller >= 0
    assert checked > 50 and pending and possessed


@settings(max_examples=25, deadline=None)
@given(seed=hs.integers(0, 10_000), steps=hs.integers(0, 300), players=hs.integers(2, 4))
def test_restore_of_any_snapshot_is_equal(seed: int, steps: int, players: int) -> None:
    st = new_game("dominion", players=players, seed=seed, options={"kingdom": "Forbidden Arts"})
    rng = random.Random(seed)
    for _ in range(steps):
        if st.is_terminal():
            break
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    assert DominionState.restore(st.snapshot()).fingerprint() == st.fingerprint()


def test_restore_rejects_what_is_not_a_dominion_snapshot() -> None:
    snap = make().snapshot()
    del snap["hands"]
    with pytest.raises(InvalidArgument, match="no field 'hands'"):
        DominionState.restore(snap)
    other = new_game("kingdomino", players=2, seed=1).snapshot()
    with pytest.raises(InvalidArgument, match="kingdomino"):
        DominionState.restore(other)
    bad = make().snapshot()
    bad["coins"] = "many"
    with pytest.raises(InvalidArgument, match="coins"):
        DominionState.restore(bad)


def test_the_public_bookkeeping_is_the_fields_marked_engine() -> None:
    st = make(kingdom=POSSESSION_KINGDOM)
    engine = st.view(0)["engine"]
    assert set(engine) == {"frames"} | {f.name for f in ENGINE_FIELDS}
