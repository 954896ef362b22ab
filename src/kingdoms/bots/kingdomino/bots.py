"""Greedy and full-greedy Kingdomino bots, and the playout policies for MCTS.

Bots see only their view.  They rebuild a state from it with the game's
``state_from_view`` (the only hidden part, the order of undrawn dominoes, does
not matter to a greedy choice) and judge candidate moves with the engine's
bitmask kingdoms (:class:`kingdoms.kingdomino.board.Board`).

* ``greedy`` — places its domino where it adds the most points now; drafts the
  most valuable domino (highest number) left.
* ``full-greedy`` — the full-greedy agent of the CIG-2018 Kingdomino study
  (Gedda, Lagerkvist & Butler), as that study defines it: see
  :class:`FullGreedyBot`.
* ``planning-greedy`` — chooses the placement of its current domino *and* the
  domino it drafts together, so that the current one at its best spot plus the
  drafted one at its best spot afterwards give the largest immediate score;
  moves that break the Middle Kingdom (when that variant is on) or leave
  single-cell holes are avoided whenever another move exists.  To stay fast,
  only the ``width`` most promising placements of the current domino are paired
  with every draft.  Its judgement ranks moves for MCTS's ``width`` option.

Playout policies (``mcts:playout=NAME``): ``greedy`` (most points now, highest
domino drafted), ``careful`` (greedy placements that also count breaking the
Middle Kingdom and leaving holes) and ``drafting`` (careful placements, drafts by
what each domino is worth to the drafter's own kingdom) — the strongest, and the
default of ``mcts`` in Kingdomino.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Sequence
from typing import Any

from kingdoms.bots.base import ParameterlessBot, View
from kingdoms.core.errors import InvalidConfig
from kingdoms.core.state import State
from kingdoms.kingdomino.board import CENTRE, Board, W, cell_at, placement_cells
from kingdoms.kingdomino.game import GAME
from kingdoms.kingdomino.state import CHOOSE, DISCARD, FIRST_PICKS, PICK, PLACE, KingdominoState
from kingdoms.kingdomino.tiles import TILES, Domino


def _state(view: View, rng: random.Random) -> KingdominoState:
    st = GAME.state_from_view(view, rng)
    assert isinstance(st, KingdominoState)
    return st


def _bonus(st: KingdominoState, board: Board) -> int:
    """Variant bonuses as they would stand for ``board`` (Middle Kingdom)."""
    return 10 if st.middle and board.is_middle(st.middle_rule) else 0


def best_gain(board: Board, domino: Domino, unplaceable: int = 0) -> int:
    """The most points ``domino`` can add to ``board`` (``unplaceable`` if it cannot
    be placed)."""
    best: int | None = None
    for code in board.legal_placements(domino):
        g = board.gain(domino, code)
        if best is None or g > best:
            best = g
    return unplaceable if best is None else best


def greedy_place(st: KingdominoState, legal: Sequence[int], rng: random.Random) -> int:
    """The placement adding the most points (ties: at random)."""
    if legal[0] >= DISCARD:
        return legal[0]
    board = st.boards[st.current_player]
    dom = TILES[st.acting_domino()]
    best = -1
    choices: list[int] = []
    for code in legal:
        g = board.gain(dom, code)
        if g > best:
            best, choices = g, [code]
        elif g == best:
            choices.append(code)
    return choices[rng.randrange(len(choices))] if len(choices) > 1 else choices[0]


def careful_place(st: KingdominoState, legal: Sequence[int], rng: random.Random) -> int:
    """Greedy placement that also counts what a move costs later: breaking the Middle
    Kingdom (when on) and single-cell holes (each a square that can never be filled)."""
    if legal[0] >= DISCARD:
        return legal[0]
    board = st.boards[st.current_player]
    dom = TILES[st.acting_domino()]
    middle = st.middle and board.is_middle()
    holes = board.holes()
    best = -1e9
    choices: list[int] = []
    for code in legal:
        g = board.gain(dom, code) - 2 * (board.holes_after(code) - holes)
        if middle and not board.keeps_middle(code):
            g -= 10
        if g > best:
            best, choices = g, [code]
        elif g == best:
            choices.append(code)
    return choices[rng.randrange(len(choices))] if len(choices) > 1 else choices[0]


def drafting_pick(st: KingdominoState, legal: Sequence[int]) -> int:
    """The domino worth most to the picker's own kingdom: the most points it can add
    there now (:func:`best_gain`; -5 if it cannot be placed); ties go to the higher
    number."""
    if len(legal) == 1:
        return legal[0]
    board = st.boards[st.current_player]
    best_v = -(10**9)
    best_a = legal[0]
    for a in legal:
        v = best_gain(board, TILES[a - PICK], unplaceable=-5)
        if v > best_v or (v == best_v and a > best_a):
            best_v, best_a = v, a
    return best_a


def drafting_playout(state: State, rng: random.Random) -> int:
    """Playout policy: careful placements (:func:`careful_place`) and drafts by what
    the domino is worth to the drafter's own kingdom (:func:`drafting_pick`)."""
    assert isinstance(state, KingdominoState)
    legal = state.legal_actions()
    if state.phase == PLACE:
        return careful_place(state, legal, rng)
    return drafting_pick(state, legal)


def careful_playout(state: State, rng: random.Random) -> int:
    """Playout policy: careful placements (see :func:`careful_place`), best drafts."""
    assert isinstance(state, KingdominoState)
    legal = state.legal_actions()
    if state.phase == PLACE:
        return careful_place(state, legal, rng)
    return greedy_pick(legal)


def greedy_pick(legal: Sequence[int]) -> int:
    """The most valuable domino (the highest number) still free."""
    return max(legal)


def greedy_playout(state: State, rng: random.Random) -> int:
    """Playout policy: greedy placements, most valuable drafts."""
    assert isinstance(state, KingdominoState)
    legal = state.legal_actions()
    if state.phase == PLACE:
        return greedy_place(state, legal, rng)
    return greedy_pick(legal)


class _Judging(abc.ABC):
    """A bot that judges the state rebuilt from its view (:meth:`choose`); an only
    legal action is played at once."""

    def act(self, view: View, legal_actions: Sequence[int], rng: random.Random) -> int:
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        st = _state(view, rng)
        return self.choose(st, st.boards[st.current_player], legal, rng)

    @abc.abstractmethod
    def choose(
        self, st: KingdominoState, board: Board, legal: list[int], rng: random.Random
    ) -> int:
        """The action to play in ``st`` with ``board`` the acting seat's kingdom."""


class GreedyBot(ParameterlessBot):
    """Best immediate score for the current placement; drafts by domino value."""

    name = "greedy"

    def act(self, view: View, legal_actions: Sequence[int], rng: random.Random) -> int:
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        if legal[0] >= PICK:
            return greedy_pick(legal)
        return greedy_place(_state(view, rng), legal, rng)


class PlanningGreedyBot(_Judging):
    """Placement and draft judged together (see the module docstring)."""

    name = "planning-greedy"

    def __init__(self, width: int = 12, **params: Any) -> None:
        if params:
            raise InvalidConfig(f"bot 'planning-greedy' takes only 'width', got {sorted(params)}")
        if not isinstance(width, int) or width < 1:
            raise InvalidConfig(f"width must be a positive integer, not {width!r}")
        self.width = width

    def _ranked(
        self, st: KingdominoState, board: Board, domino: Domino, codes: Sequence[int]
    ) -> list[tuple[tuple[int, int, int], int, Board]]:
        """Placements as (safety key, code, board after), best first."""
        out = []
        for code in codes:
            after = board.copy()
            after.place(domino, code)
            safe_mk = 1 if not st.middle or after.is_middle(st.middle_rule) else 0
            key = (safe_mk, -after.holes(), after.property_score() + _bonus(st, after))
            out.append((key, code, after))
        out.sort(key=lambda e: e[0], reverse=True)
        return out

    def _draft_value(self, st: KingdominoState, board: Board, number: int) -> tuple[int, int, int]:
        domino = TILES[number]
        codes = board.legal_placements(domino)
        if not codes:
            return (0, -board.holes() - 2, board.property_score() + _bonus(st, board))
        best = self._ranked(st, board, domino, codes)[0][0]
        return best

    def choose(
        self, st: KingdominoState, board: Board, legal: list[int], rng: random.Random
    ) -> int:
        if st.phase in (CHOOSE, FIRST_PICKS):
            scored = [(self._draft_value(st, board, a - PICK), a) for a in legal]
            return max(scored)[1]
        # placing: pair the most promising placements with every draft still open
        dom = TILES[st.acting_domino()]
        ranked = self._ranked(st, board, dom, legal)[: self.width]
        drafts = [d for d, k in zip(st.next, st.next_kings, strict=True) if k < 0]
        best_key: tuple[tuple[int, int, int], tuple[int, int, int]] | None = None
        best_code = ranked[0][1]
        for key, code, after in ranked:
            follow = max((self._draft_value(st, after, d) for d in drafts), default=key)
            total = (min(key[0], follow[0]), follow[1] + key[1], follow[2])
            if best_key is None or (total, key) > best_key:
                best_key, best_code = (total, key), code
        return best_code


def rank_actions(state: State, legal: list[int]) -> list[int]:
    """Legal actions best first by the planning-greedy judgement (for MCTS ``width``)."""
    assert isinstance(state, KingdominoState)
    if len(legal) <= 1 or legal[0] == DISCARD:
        return list(legal)
    bot = PlanningGreedyBot()
    board = state.boards[state.current_player]
    if legal[0] >= PICK:
        return sorted(legal, key=lambda a: bot._draft_value(state, board, a - PICK), reverse=True)
    dom = TILES[state.acting_domino()]
    return [code for _key, code, _after in bot._ranked(state, board, dom, legal)]


# -- the study's full-greedy ------------------------------------------------------------
def _window(size: int) -> int:
    """Cells of the size×size square centred on the castle."""
    h = (size - 1) // 2
    return sum(
        1 << cell_at(x, y) for x in range(-h, h + 1) for y in range(-h, h + 1) if (x, y) != (0, 0)
    )


_WINDOWS = {5: _window(5), 7: _window(7)}


def _cells_mask(code: int) -> int:
    a, b = placement_cells(code)
    return 1 << a | 1 << b


def study_holes(occ: int, size: int) -> int:
    """Single-square holes as the study counts them: empty squares of the window
    centred on the castle whose four neighbours are each taken (a domino or the
    castle) or outside that window."""
    empty = _WINDOWS[size] & ~occ
    reach = empty << 1 | empty >> 1 | empty << W | empty >> W
    return (empty & ~reach).bit_count()


def most_crowns_on_a_square(legal: Sequence[int]) -> list[int]:
    """The picks whose domino has the most crowns on one of its two squares."""
    best = max(max(TILES[a - PICK].left[1], TILES[a - PICK].right[1]) for a in legal)
    return [a for a in legal if max(TILES[a - PICK].left[1], TILES[a - PICK].right[1]) == best]


class FullGreedyBot(ParameterlessBot, _Judging):
    """The full-greedy agent of the CIG-2018 Kingdomino study, as it defines it.

    A turn of the study is one move: place the domino taken last round and pick
    one in the new line.  Full-greedy looks one domino further: for every such
    move it places the picked domino too, in every legal way, and judges each
    resulting kingdom by, in this order,

    1. the kingdom stays inside the square centred on the castle (Middle Kingdom
       kept) — dropped as a criterion when no move keeps it;
    2. no single-square hole (:func:`study_holes`) — likewise dropped when every
       move leaves one;
    3. the score of the kingdom (properties and the variant bonuses of the game).

    It plays one of the best moves at random.  Where the study's agent has no
    kingdom to judge it falls back as the study's does:

    * nothing to place (the first picks) or an empty kingdom (its first
      placement): a random placement and a pick among the dominoes with the most
      crowns on one square;
    * no picked domino can be placed after any placement (the last round has
      nothing to pick): every move is judged on the kingdom as it was, so all
      tie and the placement is random.

    Our turn is two actions (place, then pick): the placement is that of a best
    move drawn at random, and the pick is drawn among the best moves that begin
    with the placement made, so each best move is played with equal chance.
    """

    name = "full-greedy"

    @staticmethod
    def _judge(st: KingdominoState, board: Board, number: int, code: int) -> tuple[int, int, int]:
        """(Middle Kingdom kept, no hole, score) of ``board`` with ``number`` placed by
        ``code`` (the placement is not made)."""
        occ = board.occ | _cells_mask(code)
        size = board.size
        inside = board.is_middle("window") and board.keeps_middle(code)
        score = board.property_score() + board.gain(TILES[number], code)
        if st.middle and (inside if st.middle_rule == "window" else _bbox_middle(board, code)):
            score += 10
        if st.harmony and not board.discarded and occ.bit_count() == size * size:
            score += 5
        return (1 if inside else 0, 0 if study_holes(occ, size) else 1, score)

    def _best_moves(
        self, st: KingdominoState, board: Board, placements: Sequence[int | None]
    ) -> list[tuple[int | None, int | None]]:
        """The best (placement, pick) moves; ``None`` for a discard or for no pick."""
        acting = st.acting_domino()
        free = [d for d, k in zip(st.next, st.next_kings, strict=True) if k < 0]
        best: tuple[int, int, int] | None = None
        moves: list[tuple[int | None, int | None]] = []
        for p in placements:
            after = board
            if p is not None:
                after = board.copy()
                after.place(TILES[acting], p)
            for d in free:
                for q in after.legal_placements(TILES[d]):
                    key = self._judge(st, after, d, q)
                    if best is None or key > best:
                        best, moves = key, [(p, d)]
                    elif key == best and (not moves or moves[-1] != (p, d)):
                        moves.append((p, d))
        if not moves:  # no kingdom to judge: every move ties
            picks: list[int | None] = list(free) if free else [None]
            moves = [(p, d) for p in placements for d in picks]
        return moves

    def choose(
        self, st: KingdominoState, board: Board, legal: list[int], rng: random.Random
    ) -> int:
        acting = st.acting_domino()
        if st.phase == FIRST_PICKS:
            choices = most_crowns_on_a_square(legal)
            return choices[rng.randrange(len(choices))]
        if st.phase == PLACE:
            if not board.placed:
                return legal[rng.randrange(len(legal))]
            placements: list[int | None] = [None] if legal == [DISCARD] else list(legal)
            moves = self._best_moves(st, board, placements)
            p = moves[rng.randrange(len(moves))][0]
            return DISCARD if p is None else p
        # the pick, with this turn's placement made
        before = [pl for pl in board.placed if pl[0] != acting]
        if not before:
            choices = most_crowns_on_a_square(legal)
            return choices[rng.randrange(len(choices))]
        moves = self._best_moves(st, board, [None])
        picks = [PICK + d for _p, d in moves if d is not None and PICK + d in legal]
        if not picks:
            picks = legal
        return picks[rng.randrange(len(picks))]


def _bbox_middle(board: Board, code: int) -> bool:
    """Whether the castle is the centre of the bounding box after ``code``."""
    xs = [board.minx, board.maxx]
    ys = [board.miny, board.maxy]
    for cell in placement_cells(code):
        xs.append(cell % W)
        ys.append(cell // W)
    return min(xs) + max(xs) == 2 * CENTRE and min(ys) + max(ys) == 2 * CENTRE
