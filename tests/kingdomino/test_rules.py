"""Scenario tests for every rule of shared/rules/kingdomino.md (each names its rule)."""

from __future__ import annotations

import collections
import csv
import random
from pathlib import Path

import pytest

from kingdoms.core import IllegalAction, InvalidConfig, ParseError, get_game, new_game
from kingdoms.kingdomino.board import Board, placement_cells, xy
from kingdoms.kingdomino.state import (
    CHOOSE,
    DISCARD,
    FIRST_PICKS,
    OVER,
    PICK,
    PLACE,
    KingdominoState,
)
from kingdoms.kingdomino.tiles import TERRAINS, TILES
from tests.conftest import shared_dir
from tests.kingdomino.helpers import DOWN, LEFT, RIGHT, UP, build, code, game

PACKAGE_CSV = Path(__file__).parents[2] / "src" / "kingdoms" / "kingdomino" / "data" / "tiles.csv"


# -- components ----------------------------------------------------------------------------
def test_package_tiles_equal_shared_table() -> None:
    """Tile data: the package copy is the shared table."""
    shared = shared_dir()
    if shared is None:
        pytest.skip("shared/ folder not found (set KINGDOMS_SHARED)")
    assert PACKAGE_CSV.read_bytes() == (shared / "data" / "kingdomino_tiles.csv").read_bytes()


def test_square_totals_match_the_rulebook_table() -> None:
    """Components: 96 squares with the terrain × crowns totals of the rulebook."""
    want = {
        "wheat": {0: 21, 1: 5},
        "forest": {0: 16, 1: 6},
        "lake": {0: 12, 1: 6},
        "grassland": {0: 10, 1: 2, 2: 2},
        "swamp": {0: 6, 1: 2, 2: 2},
        "mine": {0: 1, 1: 1, 2: 3, 3: 1},
    }
    got: dict[str, collections.Counter[int]] = collections.defaultdict(collections.Counter)
    with PACKAGE_CSV.open() as fh:
        for row in csv.DictReader(fh):
            for side in ("left", "right"):
                got[row[f"{side}_terrain"]][int(row[f"{side}_crowns"])] += 1
    assert {t: dict(c) for t, c in got.items()} == want
    assert sum(sum(c.values()) for c in got.values()) == 96
    assert sorted(TILES) == list(range(1, 49))


# -- setup ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "used", "kings", "line"), [(2, 24, 2, 4), (3, 36, 1, 3), (4, 48, 1, 4)]
)
def test_setup_dominoes_kings_and_lines(players: int, used: int, kings: int, line: int) -> None:
    """Setup: 24/36/48 dominoes (the rest set aside unseen), two kings each with
    2 players, lines of as many dominoes as kings, sorted ascending."""
    st = game(players, seed=4)
    assert len(st.pile) + len(st.current) == used
    assert len(st.aside) == 48 - used
    assert len(st.pick_order) == players * kings
    assert sorted(collections.Counter(st.pick_order).values()) == [kings] * players
    assert len(st.current) == line and st.current == sorted(st.current)
    assert st.phase == FIRST_PICKS and st.next == []


@pytest.mark.parametrize(
    ("players", "variants"), [(2, []), (3, []), (4, []), (2, ["mighty-duel"]), (3, ["dynasty"])]
)
def test_setup_deals_as_the_generators_own_shuffle(players: int, variants: list[str]) -> None:
    """The setup's shuffles (the engine's compiled twin of ``Random.shuffle``) deal
    exactly what ``random.Random(seed).shuffle`` deals and leave the generator where
    it leaves it: games of old seeds and records replay alike."""
    for seed in (0, 1, 7, 12345):
        st = new_game("kingdomino", players=players, seed=seed, options={"variants": variants})
        rng = random.Random(seed)
        numbers = list(range(1, 49))
        rng.shuffle(numbers)
        used = 48 if "mighty-duel" in variants else {2: 24, 3: 36, 4: 48}[players]
        kings = 2 if players == 2 else 1
        owners = [p for p in range(players) for _ in range(kings)]
        rng.shuffle(owners)
        assert sorted(numbers[used:]) == st.aside
        assert st.pick_order == owners
        line = len(st.current)
        assert st.current == sorted(numbers[used - line : used])
        assert st.pile == numbers[: used - line]
        assert st.rng.getstate() == rng.getstate()


def test_first_picks_follow_a_random_king_order_and_can_repeat_a_player() -> None:
    """Initial picks: random king order; with 2 players A-A-B-B is possible."""
    orders = {tuple(game(2, seed=s).pick_order) for s in range(60)}
    assert (0, 0, 1, 1) in orders or (1, 1, 0, 0) in orders
    assert (0, 1, 0, 1) in orders or (1, 0, 1, 0) in orders
    st = game(2, seed=7)
    seen = []
    while st.phase == FIRST_PICKS:
        seen.append(st.current_player)
        st.apply(st.legal_actions()[0])
    assert seen == st.pick_order
    assert st.next == sorted(st.next) and len(st.next) == 4


def test_the_last_king_of_the_first_picks_has_no_choice() -> None:
    """Initial picks: one king per domino, the last king has no choice."""
    st = game(3, seed=2)
    st.apply(st.legal_actions()[0])
    st.apply(st.legal_actions()[0])
    assert len(st.legal_actions()) == 1


def test_kings_act_in_line_order_place_then_pick() -> None:
    """A round: kings in the order of their dominoes (lowest first); each places
    then picks in the next line."""
    st = game(4, seed=3)
    for a in [PICK + d for d in reversed(st.current)]:  # picks in reverse line order
        st.apply(a)
    owners = list(st.current_kings)
    assert owners == list(reversed(st.pick_order))
    for slot in range(4):
        assert st.phase == PLACE and st.current_player == owners[slot]
        assert st.acting_domino() == st.current[slot]
        st.apply(st.legal_actions()[0])
        assert st.phase == CHOOSE and st.current_player == owners[slot]
        assert all(a >= PICK for a in st.legal_actions())
        st.apply(st.legal_actions()[-1])
    assert st.round == 1 and st.slot == 0


@pytest.mark.parametrize(
    ("players", "rounds", "per_player"), [(2, 6, 12), (3, 12, 12), (4, 12, 12)]
)
def test_round_count_and_last_round_places_only(players: int, rounds: int, per_player: int) -> None:
    """Rounds: 12 with 3–4 players, 6 with 2 (two kings: 12 dominoes each); the
    last round only places."""
    st = game(players, seed=1)
    rng = random.Random(0)
    last_round_picks = 0
    while not st.is_terminal():
        if st.round == rounds - 1 and st.phase == CHOOSE:
            last_round_picks += 1
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    assert st.round == rounds - 1
    assert last_round_picks == 0
    for b in st.boards:
        assert len(b.placed) + len(b.discarded) == per_player


# -- placement -----------------------------------------------------------------------------
def test_castle_is_wild_for_either_square() -> None:
    """Connection: next to the castle connects, for either square, any terrain."""
    b = Board()
    mine_left = TILES[40]  # mine | wheat
    assert code(1, 0, RIGHT) in b.legal_placements(mine_left)  # mine touches castle
    assert code(-2, 0, RIGHT) in b.legal_placements(mine_left)  # wheat touches castle
    assert code(1, 1, RIGHT) not in b.legal_placements(mine_left)  # diagonal only


def test_castle_corner_diagonal_does_not_connect() -> None:
    """Connection is orthogonal: touching the castle at a corner is not enough."""
    b = Board()
    legal = b.legal_placements(TILES[13])
    assert code(1, 1, DOWN) not in legal
    assert code(-1, -1, UP) not in legal
    assert code(1, -1, RIGHT) not in legal


def test_each_square_is_checked_against_its_own_neighbours() -> None:
    """Cross-matching: a forest square next to a lake does not connect because
    the domino's other square is lake."""
    b = build((7, 1, 0, RIGHT))  # lake lake at (1,0),(2,0)
    dom = TILES[17]  # forest | lake
    # forest on (1,1), lake on (2,1) under the lake (2,0): the lake square connects
    assert code(1, 1, RIGHT) in b.legal_placements(dom)
    # forest at (3,1)?? no: forest on (3,0) right of the lake, lake on (4,0): lake touches nothing
    # lake-coloured (3,0) neighbour is lake but the square there is forest -> no connection
    assert code(3, 0, RIGHT) not in b.legal_placements(dom)
    # turned round: lake square on (3,0) next to the lake connects
    assert code(4, 0, LEFT) in b.legal_placements(dom)


def test_a_double_does_not_connect_to_itself() -> None:
    """Checked before writing: a double far from its terrain is not legal."""
    b = build((13, 1, 0, RIGHT))  # wheat (1,0), forest (2,0)
    dom = TILES[3]  # forest forest
    assert code(2, 1, DOWN) in b.legal_placements(dom)  # under the forest square
    assert code(1, 1, DOWN) not in b.legal_placements(dom)  # under wheat only
    assert code(1, -2, RIGHT) not in b.legal_placements(dom)


def test_doubles_are_listed_once() -> None:
    """A double turned half way round gives the same kingdom: counted once."""
    b = Board()
    legal = b.legal_placements(TILES[1])
    covers = [frozenset(placement_cells(c)) for c in legal]
    assert len(covers) == len(set(covers))
    not_double = b.legal_placements(TILES[13])
    assert len(not_double) == 2 * len(legal)


def test_occupied_cells_cannot_be_covered() -> None:
    """Both cells must be empty."""
    b = build((1, 1, 0, RIGHT))
    legal = b.legal_placements(TILES[2])
    for c in legal:
        a, z = placement_cells(c)
        assert xy(a) not in {(0, 0), (1, 0), (2, 0)} and xy(z) not in {(0, 0), (1, 0), (2, 0)}


def test_five_by_five_box_includes_the_castle() -> None:
    """The whole kingdom, castle included, stays inside 5×5."""
    b = build((1, 1, 0, RIGHT), (2, 3, 0, RIGHT))  # castle at x=0, wheat up to x=4
    assert b.maxx - b.minx == 4
    for number in (1, 13, 24):
        for c in b.legal_placements(TILES[number]):
            assert all(0 <= xy(cell)[0] <= 4 for cell in placement_cells(c))
    assert code(-1, 0, UP) not in b.legal_placements(TILES[13])
    assert code(0, 1, RIGHT) in b.legal_placements(TILES[13])


def test_seven_by_seven_box_in_mighty_duel() -> None:
    """Mighty Duel: 7×7 kingdoms; the same kingdom is full at 5 in a normal game."""
    moves = ((1, 1, 0, RIGHT), (2, 3, 0, RIGHT))
    b = build(*moves, size=7)
    assert code(5, 0, RIGHT) in b.legal_placements(TILES[1])  # up to x=6: 7 wide
    wide = build(*moves, (13, 5, 0, RIGHT), size=7)  # castle at x=0, squares up to x=6
    assert code(-1, 0, UP) not in wide.legal_placements(TILES[13])  # x=-1: 8 wide
    for c in wide.legal_placements(TILES[13]):
        assert all(0 <= xy(cell)[0] <= 6 for cell in placement_cells(c))
    assert code(5, 0, RIGHT) not in build(*moves, size=5).legal_placements(TILES[1])


def test_discard_only_when_no_placement_exists() -> None:
    """A domino that cannot be placed is discarded; one that can, cannot be."""
    st = game(2, seed=11)
    while st.phase != PLACE:
        st.apply(st.legal_actions()[0])
    assert DISCARD not in st.legal_actions()
    with pytest.raises(IllegalAction):
        st.apply_checked(DISCARD)
    # wall the castle in with doubles of terrains the acting domino does not have
    number = st.acting_domino()
    dom = TILES[number]
    doubles = [
        d for d in TILES.values() if d.is_double and d.left[0] not in (dom.left[0], dom.right[0])
    ]
    walled = Board()
    for d, (x, y, direction) in zip(
        doubles, ((1, 0, DOWN), (-1, 0, DOWN), (0, 1, DOWN), (0, -1, UP)), strict=False
    ):
        walled.place(d, code(x, y, direction))
    assert not walled.can_place(dom)
    st.boards[st.current_player] = walled
    st._legal = None
    assert st.legal_actions() == [DISCARD]
    st.apply_checked(DISCARD)
    assert walled.discarded == [number]
    assert st.phase == CHOOSE


# -- scoring -------------------------------------------------------------------------------
def test_properties_score_squares_times_crowns() -> None:
    """Scoring: each property scores squares × crowns; no crowns, no points;
    two properties of one terrain score separately."""
    b = build(
        (19, 1, 0, RIGHT),  # wheat* (1,0), forest (2,0)
        (24, 2, 1, LEFT),  # forest* (2,1), wheat (1,1)
        (1, -2, 0, RIGHT),  # wheat wheat (-2,0),(-1,0): separate wheat property (castle between)
    )
    props = sorted(b.properties())
    wheat = [(s, c) for t, s, c in props if TERRAINS[t] == "wheat"]
    forest = [(s, c) for t, s, c in props if TERRAINS[t] == "forest"]
    assert sorted(wheat) == [(2, 0), (2, 1)]
    assert forest == [(2, 1)]
    assert b.property_score() == 2 * 1 + 2 * 1
    assert b.largest_property() == 2 and b.total_crowns() == 2


def _finished(players: int = 2, seed: int = 0, **options: object) -> KingdominoState:
    st = game(players, seed=seed, **options)
    rng = random.Random(seed)
    while not st.is_terminal():
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    return st


def test_tiebreak_largest_property_then_crowns_then_shared(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tie: the largest property wins; then most crowns; then a shared victory."""
    st = _finished(3, seed=2)
    values = {0: (30, 5, 9), 1: (30, 6, 1), 2: (12, 9, 9)}
    for p, (score, largest, crowns) in values.items():
        monkeypatch.setattr(st.boards[p], "_score", (score, largest, crowns))
    out = st.outcome()
    assert out is not None and out.winners == (1,)
    values[1] = (30, 5, 9)
    for p, v in values.items():
        monkeypatch.setattr(st.boards[p], "_score", v)
    out = st.outcome()
    assert out is not None and out.winners == (0, 1) and out.shared
    values[1] = (30, 5, 8)
    for p, v in values.items():
        monkeypatch.setattr(st.boards[p], "_score", v)
    out = st.outcome()
    assert out is not None and out.winners == (0,)


# -- variants -----------------------------------------------------------------------------
def test_middle_kingdom_window_rule_and_bbox_option() -> None:
    """Middle Kingdom: +10. Default: every square in the window centred on the
    castle; option ``bbox``: the castle is the exact centre of the bounding box."""
    b = build((1, 1, 0, RIGHT))  # x from 0 to 2: inside the window, castle not centred
    assert b.is_middle("window") and not b.is_middle("bbox")
    b2 = build((1, 1, 0, RIGHT), (2, -2, 0, RIGHT))
    assert b2.is_middle("window") and b2.is_middle("bbox")
    b3 = build((1, 1, 0, RIGHT), (2, 3, 0, DOWN))  # x up to 3: outside the window
    assert not b3.is_middle("window")
    st = _finished(2, seed=5, variants=["middle-kingdom"])
    for p in range(2):
        bonus = 10 if st.boards[p].is_middle("window") else 0
        assert st.score(p) == st.boards[p].property_score() + bonus
        assert st.bonuses(p) == {"middle_kingdom": bonus}


def test_harmony_needs_a_full_square_and_no_discard() -> None:
    """Harmony: +5 for a complete kingdom (filled square, nothing discarded)."""
    st = _finished(2, seed=8, variants=["harmony"])
    for p, b in enumerate(st.boards):
        full = b.occ.bit_count() == 25 and not b.discarded
        assert st.bonuses(p) == {"harmony": 5 if full else 0}
        assert b.is_complete() == full
        assert (len(b.discarded) == 0) == (b.occ.bit_count() == 25)


def test_dynasty_is_three_games_with_totals() -> None:
    """Dynasty: three games in a row; the highest total wins."""
    st = _finished(2, seed=3, variants=["dynasty"])
    out = st.outcome()
    assert out is not None
    games = out.details["games"]
    assert len(games) == 3
    assert list(out.scores) == [sum(g[p] for g in games) for p in range(2)]
    assert st.game_no == 2
    assert [e.type for e in st.log].count("setup") == 3


def test_mighty_duel_uses_all_48_on_7x7_for_two_players_only() -> None:
    """Mighty Duel: 2 players, all 48 dominoes, 7×7, 12 rounds."""
    st = game(2, seed=1, variants=["mighty-duel"])
    assert len(st.pile) + len(st.current) == 48 and st.aside == [] and st.size == 7
    with pytest.raises(InvalidConfig, match="2 players"):
        new_game("kingdomino", players=3, options={"variants": ["mighty-duel"]})
    fin = _finished(2, seed=1, variants=["mighty-duel"])
    assert fin.round == 11
    for b in fin.boards:
        assert len(b.placed) + len(b.discarded) == 24


def test_variants_are_normalized_and_bad_options_named() -> None:
    """Options: combinable variants in a canonical order; unknown ones rejected by name."""
    g = get_game("kingdomino")
    opts = g.normalize_options({"variants": "harmony,middle-kingdom"}, 4, 1)
    assert opts == {"variants": ["middle-kingdom", "harmony"], "middle_kingdom_rule": "window"}
    assert g.normalize_options(opts, 4, 1) == opts
    with pytest.raises(InvalidConfig, match=r"unknown Kingdomino variants.*castle"):
        g.normalize_options({"variants": ["castle"]}, 2, 1)
    with pytest.raises(InvalidConfig, match="middle_kingdom_rule"):
        g.normalize_options({"middle_kingdom_rule": "centre"}, 2, 1)
    with pytest.raises(InvalidConfig, match="unknown Kingdomino options"):
        g.normalize_options({"kingdom": "x"}, 2, 1)


# -- information ---------------------------------------------------------------------------
def test_views_hide_the_order_of_undrawn_dominoes() -> None:
    """Views: the undrawn order is hidden; everything else is public."""
    st = game(2, seed=9)
    other = st.clone()
    other.pile = list(reversed(st.pile))
    other.aside = st.aside
    for p in range(2):
        assert st.view(p) == other.view(p)
        text = str(st.view(p))
        assert "pile" not in text
    assert st.view(0)["undrawn"] == 20 and st.view(0)["set_aside"] == 24


def test_determinize_reshuffles_unseen_dominoes_only() -> None:
    """Hidden chance made explicit: determinize() resamples undrawn dominoes."""
    st = game(2, seed=9)
    for _ in range(10):
        st.apply(st.legal_actions()[0])
    rng = random.Random(1)
    piles = set()
    for _ in range(20):
        det = st.determinize(0, rng)
        assert det.view(0) == st.view(0)
        assert sorted(det.pile + det.aside) == sorted(st.pile + st.aside)
        piles.add(tuple(det.pile))
    assert len(piles) > 1


def test_state_from_view_matches_the_view_and_legal_actions() -> None:
    """Bots rebuild a consistent state from their view alone."""
    st = game(4, seed=12, variants=["middle-kingdom", "harmony"])
    rng = random.Random(3)
    g = get_game("kingdomino")
    while not st.is_terminal():
        p = st.current_player
        rebuilt = g.state_from_view(st.view(p), random.Random(rng.random()))
        assert rebuilt.view(p) == st.view(p)
        assert rebuilt.legal_actions() == st.legal_actions()
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])


# -- text ----------------------------------------------------------------------------------
def test_actions_read_as_coordinates_and_direction() -> None:
    """Placements are named by castle-relative coordinates and direction."""
    st = game(2, seed=1)
    while st.phase != PLACE:
        st.apply(st.legal_actions()[0])
    for a in st.legal_actions():
        text = st.action_to_str(a)
        assert text.startswith(f"place {st.acting_domino()} at ")
        assert st.parse_action(text) == a
    assert st.action_to_str(st.legal_actions()[0], "pl").startswith("połóż ")
    assert st.action_to_str(st.legal_actions()[0], "cs").startswith("polož ")
    with pytest.raises(ParseError, match="not a legal action"):
        st.parse_action("place 99 at 9,9 right")


def test_game_end_is_terminal() -> None:
    st = _finished(4, seed=6)
    assert st.phase == OVER and st.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        st.apply_checked(0)
