"""The Kingdomino game state: lines, kings, kingdoms, turn order, variants.

Module map of :mod:`kingdoms.kingdomino`:

* ``tiles.py`` — the 48 dominoes (``data/tiles.csv``), terrain names;
* ``board.py`` — one kingdom as bitmasks: legal placements, scoring, bonuses;
* ``state.py`` — this module: setup, rounds, picks and placements, outcome;
* ``text.py`` — action and log texts in English, Polish and Czech;
* ``game.py`` — the registered game: options (variants), bots, ``state_from_view``.

Actions (``NUM_ACTIONS`` in all):

* ``0 .. 4*CELLS-1`` — place the acting king's domino (a placement code of
  :mod:`.board`: direction × CELLS + cell of the left square);
* ``DISCARD`` — discard it (legal only when no placement is);
* ``PICK + n`` — put the acting king on domino ``n`` of the line being chosen from.

A round: kings act in the order of their dominoes in the current line (lowest
number first); each places (or discards) its domino, then picks in the next
line.  The first picks (on the first line) follow a random king order: the
kings are drawn from a hand one at a time and each king picks as it comes out,
so only the king drawn next is ever known (the order is shuffled at setup, as it
always was, and kept hidden until each king is drawn).  The last round only
places.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from kingdoms.core.errors import IllegalAction, InvalidArgument, ParseError, malformed_as
from kingdoms.core.events import Event
from kingdoms.core.state import (
    TERMINAL,
    GameConfig,
    JSONDict,
    LazyDetails,
    Outcome,
    State,
    copy_rng,
)
from kingdoms.dominion.shuffle import shuffle
from kingdoms.kingdomino.board import (
    CELLS,
    CENTRE,
    MARK_ACTIONS,
    NATIVE_PLAYOUT,
    OFF,
    Board,
    canonical_placement,
    cell_at,
    new_board,
    placement_cells,
    xy,
)
from kingdoms.kingdomino.tiles import TERRAIN_NAMES, TERRAINS, TILES

TERRAIN_NAMES_EN: Final = TERRAIN_NAMES["en"]

DISCARD: Final = 4 * CELLS
PICK: Final = DISCARD + 1
NUM_ACTIONS: Final = PICK + 49

FIRST_PICKS: Final = 0
PLACE: Final = 1
CHOOSE: Final = 2
OVER: Final = 3
PHASES: Final = ("first-picks", "place", "pick", "over")

VARIANTS: Final = ("middle-kingdom", "harmony", "dynasty", "mighty-duel")
GAMES_IN_DYNASTY: Final = 3


_FIELDS: Final = (
    *("aside", "current", "current_kings", "dynasty", "first", "game_no", "harmony"),
    *("kings", "middle", "middle_rule", "mighty", "next", "next_kings", "phase"),
    *("pick_order", "pick_pos", "pile", "round", "size", "slot"),
)
"""The fields of a state held as plain JSON values (for :meth:`KingdominoState.data`;
the boards and the finished games of a Dynasty are written apart)."""


def _restore(data: Mapping[str, Any], log: Sequence[Event]) -> KingdominoState:
    """The state :meth:`KingdominoState.data` describes."""
    conf = data["config"]
    if conf["game"] != KingdominoState.game_name:
        raise InvalidArgument(f"not a Kingdomino state: a game of {conf['game']!r}")
    config = GameConfig(
        KingdominoState.game_name, int(conf["players"]), int(conf["seed"]), dict(conf["options"])
    )
    version, internal, gauss = data["rng"]
    rng = random.Random()
    rng.setstate((version, tuple(internal), gauss))
    st = KingdominoState(config, rng)
    for name in _FIELDS:
        value = data[name]
        setattr(st, name, value.copy() if isinstance(value, list) else value)
    boards: list[Board] = []
    for b in data["boards"]:
        board = new_board(int(b["size"]))
        for number, code in b["placed"]:
            board.place(TILES[number], code)
        for number in b["discarded"]:
            board.discard(number)
        boards.append(board)
    if len(boards) != config.players:
        raise InvalidArgument(f"not a Kingdomino state: {len(boards)} boards")
    st.boards = boards
    st.past = [[(int(s), int(p), int(c)) for s, p, c in g] for g in data["past"]]
    history = data["history"]
    if not isinstance(history, list) or any(type(a) is not int for a in history):
        raise InvalidArgument("not a Kingdomino state: history must be a list of ints")
    st.history = list(history)
    st.logging = bool(data["logging"])
    st.log = list(log)
    st._legal = None
    return st


_DISCARD_ONLY: Final = (DISCARD,)


def _free(line: list[int], kings: list[int]) -> list[int]:
    """The pick actions of the dominoes of ``line`` no king stands on (``kings``)."""
    out: list[int] = []
    for i in range(len(line)):
        if kings[i] < 0:
            out.append(PICK + line[i])
    return out


def dominoes_used(players: int, mighty_duel: bool) -> int:
    """24 with 2 players (48 in Mighty Duel), 36 with 3, 48 with 4."""
    if mighty_duel:
        return 48
    return {2: 24, 3: 36, 4: 48}[players]


class KingdominoState(State):
    """A game (or a Dynasty match of three games) of Kingdomino."""

    __slots__ = (
        "_legal",
        "aside",
        "boards",
        "current",
        "current_kings",
        "dynasty",
        "first",
        "game_no",
        "harmony",
        "kings",
        "middle",
        "middle_rule",
        "mighty",
        "next",
        "next_kings",
        "past",
        "phase",
        "pick_order",
        "pick_pos",
        "pile",
        "round",
        "size",
        "slot",
    )

    game_name: ClassVar[str] = "kingdomino"

    def __init__(self, config: GameConfig, rng: random.Random | None = None) -> None:
        """A new game of ``config`` (given ``rng``: a shell, see ``_init_core``)."""
        if self._init_core(config, rng):
            return
        opts = config.options
        variants = set(opts.get("variants", ()))
        self.middle = "middle-kingdom" in variants
        self.harmony = "harmony" in variants
        self.dynasty = "dynasty" in variants
        self.mighty = "mighty-duel" in variants
        self.middle_rule = str(opts.get("middle_kingdom_rule", "window"))
        self.size = 7 if self.mighty else 5
        n = config.players
        self.kings = 2 if n == 2 else 1
        self.game_no = 0
        self.past: list[list[tuple[int, int, int]]] = []
        """Per finished game of a Dynasty: per seat (score, largest property, crowns)."""
        self._legal: list[int] | None = None
        self._setup()
        self.first = self.pick_order[0]
        """The seat whose king was drawn first (for first-seat statistics)."""

    # -- setup and flow -------------------------------------------------------------------
    def _setup(self) -> None:
        n = self.config.players
        self.boards: list[Board] = [new_board(self.size) for _ in range(n)]
        numbers = list(range(1, 49))
        shuffle(numbers, self.rng)  # as self.rng.shuffle(numbers), compiled
        used = dominoes_used(n, self.mighty)
        self.pile = numbers[:used]
        self.aside = sorted(numbers[used:])
        owners = [p for p in range(n) for _ in range(self.kings)]
        shuffle(owners, self.rng)
        self.pick_order = owners
        self.pick_pos = 0
        self.round = 0
        self.slot = 0
        self.current = self._draw()
        self.current_kings = [-1] * len(self.current)
        self.next: list[int] = []
        self.next_kings: list[int] = []
        self.phase = FIRST_PICKS
        self._legal = None
        if self.logging:
            self.emit(
                Event(
                    "setup",
                    data={
                        "game_no": self.game_no + 1,
                        "line": list(self.current),
                        "first": owners[0],
                    },
                )
            )

    def _draw(self) -> list[int]:
        k = len(self.pick_order)
        if len(self.pile) < k:
            return []
        line = sorted(self.pile[-k:])
        del self.pile[-k:]
        return line

    def _after_turn(self) -> None:
        """The acting king is done: next king, next round, or the end."""
        self.slot += 1
        if self.slot < len(self.current):
            self.phase = PLACE
            return
        if not self.next:
            self._finish_game()
            return
        self.current, self.current_kings = self.next, self.next_kings
        self.next = self._draw()
        self.next_kings = [-1] * len(self.next)
        self.slot = 0
        self.round += 1
        self.phase = PLACE
        if self.logging:
            self.emit(Event("round", data={"round": self.round + 1, "line": list(self.next)}))

    def _finish_game(self) -> None:
        results = [
            (self.score(p), b.largest_property(), b.total_crowns())
            for p, b in enumerate(self.boards)
        ]
        if self.logging:
            self.emit(
                Event(
                    "game_end",
                    data={"game_no": self.game_no + 1, "scores": [r[0] for r in results]},
                )
            )
        if self.dynasty and self.game_no + 1 < GAMES_IN_DYNASTY:
            self.past.append(results)
            self.game_no += 1
            self._setup()
            return
        self.phase = OVER

    # -- the contract -------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        ph = self.phase
        if ph in (PLACE, CHOOSE):
            return self.current_kings[self.slot]
        if ph == FIRST_PICKS:
            return self.pick_order[self.pick_pos]
        return TERMINAL

    def acting_domino(self) -> int:
        """The number of the domino the acting king stands on (0 outside a turn)."""
        if self.phase in (PLACE, CHOOSE):
            return self.current[self.slot]
        return 0

    def check_seat(self, player: object) -> int:
        """``player`` if it is a seat of this game, else :class:`InvalidArgument`."""
        n = self.config.players
        if type(player) is not int or not 0 <= player < n:
            raise InvalidArgument(f"no seat {player!r} in a {n}-player game (seats 0–{n - 1})")
        return player

    def check_action(self, action: object) -> int:
        """``action`` if it is an action code of Kingdomino that names a domino now,
        else :class:`InvalidArgument`."""
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            raise InvalidArgument(
                f"{action!r} is not a Kingdomino action (codes are 0–{NUM_ACTIONS - 1})"
            )
        if action >= PICK:
            if action - PICK not in TILES:
                raise InvalidArgument(f"there is no domino {action - PICK}")
        elif not self.acting_domino():
            raise InvalidArgument("no king is placing a domino now")
        return action

    def legal_actions(self) -> list[int]:
        legal = self._legal
        if legal is None:  # a list of its own for the caller (the step-by-step path)
            return self._new_legal()
        return legal.copy()

    def canonical(self, action: int) -> int:
        """``action`` as the legal actions name it: a placement of a double (two
        identical squares) pointing left or up becomes the same placement pointing
        right or down from its other square (:func:`.board.canonical_placement`);
        any other action is returned as it is."""
        number = self.acting_domino()
        if number and 0 <= action < DISCARD and self.phase == PLACE:
            return canonical_placement(TILES[number], action)
        return action

    def apply_checked(self, action: object) -> None:
        """As :meth:`State.apply_checked`, a double's placement taken in either form
        and recorded in the form the legal actions name it (:meth:`canonical`)."""
        if type(action) is int:
            action = self.canonical(action)
        super().apply_checked(action)

    def parse_action(self, text: str, lang: str = "en") -> int:
        """As :meth:`State.parse_action`; a double's placement may also be named in its
        other form (pointing left or up: its text or its code)."""
        try:
            return super().parse_action(text, lang)
        except ParseError:
            number = self.acting_domino()
            if not number or self.phase != PLACE or not TILES[number].is_double:
                raise
            from kingdoms.kingdomino.text import action_text

            wanted = " ".join(text.split()).casefold()
            for code in self._legal_actions():
                if code >= DISCARD:
                    continue
                d, a = divmod(code, CELLS)
                other = (d + 2) * CELLS + a + OFF[d]  # from the other square, turned round
                if wanted in (str(other), action_text(self, other, lang).casefold()):
                    return code
            raise

    def _legal_actions(self) -> list[int]:
        """The legal actions, cached until the next action (not to be changed)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._new_legal()
        return legal

    def _new_legal(self) -> list[int]:
        """The legal actions, in a new list."""
        ph = self.phase
        if ph == PLACE:
            slot = self.slot
            legal = self.boards[self.current_kings[slot]].legal_placements(
                TILES[self.current[slot]]
            )
            if not legal:
                legal = [DISCARD]
            return legal
        if ph == CHOOSE:
            return _free(self.next, self.next_kings)
        if ph == FIRST_PICKS:
            return _free(self.current, self.current_kings)
        return []

    def legal_actions_mask(self, size: object) -> bytearray:  # object: checked here
        """The legal actions as a mask of ``size`` (at least ``NUM_ACTIONS``) bytes,
        written without the list: the acting kingdom's board marks the placements
        itself (in C on the compiled board)."""
        if type(size) is not int or size < NUM_ACTIONS:
            raise InvalidArgument(
                f"a Kingdomino action mask holds at least {NUM_ACTIONS} actions, not {size!r}"
            )
        mask = bytearray(size)
        ph = self.phase
        if ph == PLACE:
            slot = self.slot
            board = self.boards[self.current_kings[slot]]
            if not board.mark_placements(TILES[self.current[slot]], mask):
                mask[DISCARD] = 1
        elif ph == CHOOSE:
            for d, k in zip(self.next, self.next_kings, strict=True):
                if k < 0:
                    mask[PICK + d] = 1
        elif ph == FIRST_PICKS:
            for d, k in zip(self.current, self.current_kings, strict=True):
                if k < 0:
                    mask[PICK + d] = 1
        return mask

    def mark_legal(self, mask: bytearray) -> tuple[int, ...]:
        """The legal actions written into ``mask`` (at least ``NUM_ACTIONS`` bytes),
        which is rewritten whole — zeros, then 1 at each legal action — and returned
        as a tuple in increasing order: the mask and the sorted legal actions of
        :meth:`legal_actions_mask` and :meth:`legal_actions` in one pass, into a
        buffer the caller keeps (the environments' step)."""
        if len(mask) < NUM_ACTIONS:
            raise InvalidArgument(
                f"a Kingdomino action mask holds at least {NUM_ACTIONS} actions, not {len(mask)}"
            )
        ph = self.phase
        if ph == PLACE:
            slot = self.slot
            board = self.boards[self.current_kings[slot]]
            legal: tuple[int, ...] = board.mark_legal(TILES[self.current[slot]], mask)
            if not legal:
                mask[DISCARD] = 1
                return _DISCARD_ONLY
            return legal
        if ph == CHOOSE:
            picks = _free(self.next, self.next_kings)
        elif ph == FIRST_PICKS:
            picks = _free(self.current, self.current_kings)
        else:
            picks = []
        marked: tuple[int, ...] = MARK_ACTIONS(mask, picks)
        return marked

    def random_playout(self, rng: random.Random, max_steps: int = 100_000) -> None:
        """Play to the end with uniformly random actions, as :meth:`State.random_playout`
        does (same actions for the same ``rng``), without its copies (a game always ends
        in far fewer than ``max_steps`` actions).  On the compiled build, with logging
        off, the loop runs in C (:data:`.board.NATIVE_PLAYOUT`): the same games."""
        if NATIVE_PLAYOUT is not None and not self.logging:
            NATIVE_PLAYOUT(self, rng)
            return
        history = self.history
        while self.phase != OVER:
            legal = self._legal_actions()
            action = legal[int(rng.random() * len(legal))]
            self._apply(action)
            history.append(action)

    def _apply(self, action: int) -> None:
        self._legal = None
        ph = self.phase
        if ph == PLACE:
            owner = self.current_kings[self.slot]
            number = self.current[self.slot]
            board = self.boards[owner]
            if action == DISCARD:
                board.discard(number)
                if self.logging:
                    self.emit(Event("discard", owner, {"domino": number}))
            else:
                board.place(TILES[number], action)
                if self.logging:
                    d, a = divmod(action, CELLS)
                    x, y = xy(a)
                    self.emit(Event("place", owner, {"domino": number, "x": x, "y": y, "dir": d}))
            if self.next:
                self.phase = CHOOSE
            else:
                self._after_turn()
        elif ph == CHOOSE:
            self._pick(self.current_kings[self.slot], action - PICK, self.next, self.next_kings)
            self._after_turn()
        elif ph == FIRST_PICKS:
            owner = self.pick_order[self.pick_pos]
            self._pick(owner, action - PICK, self.current, self.current_kings)
            self.pick_pos += 1
            if self.pick_pos == len(self.pick_order):
                self.next = self._draw()
                self.next_kings = [-1] * len(self.next)
                self.phase = PLACE
                self.slot = 0
                if self.logging:
                    self.emit(Event("round", data={"round": 1, "line": list(self.next)}))
        else:
            raise AssertionError("no action is possible: the game is over")

    def _pick(self, owner: int, number: int, line: list[int], kings: list[int]) -> None:
        """``owner``'s king goes onto domino ``number`` of ``line`` (``kings``: the
        owners of the kings on that line)."""
        kings[line.index(number)] = owner
        if self.logging:
            self.emit(Event("pick", owner, {"domino": number}))

    def clone(self) -> KingdominoState:
        new = self._copy(copy_rng(self.rng))
        new.pile = self.pile.copy()
        return new

    # -- serialization (see kingdoms.core.serial) ------------------------------------
    def data(self) -> JSONDict:
        """Everything but the log that :meth:`from_data` needs for the same game, as
        JSON data: config, random generator, every field, history."""
        out = self._snapshot_core()
        for name in _FIELDS:
            value = getattr(self, name)
            out[name] = value.copy() if isinstance(value, list) else value
        out["boards"] = [b.snapshot() for b in self.boards]
        out["past"] = [[list(r) for r in g] for g in self.past]
        out["history"] = list(self.history)
        out["logging"] = self.logging
        return out

    @classmethod
    def from_data(cls, data: Mapping[str, Any], log: Sequence[Event] = ()) -> KingdominoState:
        """The state :meth:`data` (and ``log``) describe; malformed data raises
        :class:`InvalidArgument`."""
        return malformed_as("a Kingdomino state", lambda: _restore(data, log))

    def serialize(self) -> str:
        """The whole state as text (:func:`kingdoms.core.serial.new_state_from` reads
        it back): fields, random generator, history and log."""
        from kingdoms.core.serial import dumps

        return dumps(self.data(), self.log)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling over :meth:`data` (a compiled class has no bare ``__new__``)."""
        return (_restore, (self.data(), list(self.log)))

    def __copy__(self) -> KingdominoState:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> KingdominoState:
        return self.clone()

    def _copy(self, rng: random.Random) -> KingdominoState:
        """A copy with ``rng`` and without the undrawn pile (the caller sets it)."""
        new = KingdominoState(self.config, rng)
        new.history = self.history.copy()
        new.log = self.log.copy()
        new.logging = self.logging
        new.aside = self.aside.copy()
        new.boards = [b.copy() for b in self.boards]
        new.current = self.current.copy()
        new.current_kings = self.current_kings.copy()
        new.game_no = self.game_no
        new.harmony = self.harmony
        new.kings = self.kings
        new.middle = self.middle
        new.middle_rule = self.middle_rule
        new.next = self.next.copy()
        new.next_kings = self.next_kings.copy()
        new.past = [g.copy() for g in self.past]
        new.phase = self.phase
        new.pick_order = self.pick_order.copy()
        new.pick_pos = self.pick_pos
        new.round = self.round
        new.size = self.size
        new.slot = self.slot
        new.dynasty = self.dynasty
        new.first = self.first
        new.mighty = self.mighty
        new._legal = self._legal  # never changed in place (replaced whole), never handed out
        return new

    # -- scoring ----------------------------------------------------------------------
    def bonuses(self, player: int) -> dict[str, int]:
        """Variant bonuses the kingdom of ``player`` earns as it stands."""
        b = self.boards[self.check_seat(player)]
        out = {}
        if self.middle:
            out["middle_kingdom"] = 10 if b.is_middle(self.middle_rule) else 0
        if self.harmony:
            out["harmony"] = 5 if b.is_complete() else 0
        return out

    def score(self, player: int) -> int:
        """The score of ``player``'s kingdom in the game being played (bonuses included)."""
        b = self.boards[self.check_seat(player)]
        points = b.property_score()
        if self.middle and b.is_middle(self.middle_rule):
            points += 10
        if self.harmony and b.is_complete():
            points += 5
        return points

    def totals(self) -> list[int]:
        """Dynasty totals (the current game included); the plain scores otherwise."""
        n = self.config.players
        return [sum(g[p][0] for g in self.past) + self.score(p) for p in range(n)]

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        n = self.config.players
        now = [
            (self.score(p), b.largest_property(), b.total_crowns())
            for p, b in enumerate(self.boards)
        ]
        games = [*self.past, now]
        keys = [tuple(sum(g[p][i] for g in games) for i in range(3)) for p in range(n)]
        best = max(keys)
        winners = tuple(p for p in range(n) if keys[p] == best)
        return Outcome(
            tuple(float(k[0]) for k in keys),
            winners,
            LazyDetails(lambda: self._details(keys, games)),
        )

    def _details(
        self, keys: list[tuple[int, ...]], games: list[list[tuple[int, int, int]]]
    ) -> dict[str, Any]:
        """The outcome's details (built when first asked for)."""
        n = self.config.players
        details: dict[str, Any] = {
            "breakdown": [self.breakdown(p) for p in range(n)],
            "largest_property": [k[1] for k in keys],
            "crowns": [k[2] for k in keys],
            "first_player": self.first,
        }
        if self.dynasty:
            details["games"] = [[g[p][0] for p in range(n)] for g in games]
        return details

    def breakdown(self, player: int) -> dict[str, Any]:
        """Score details of ``player``'s kingdom: properties and bonuses."""
        b = self.boards[self.check_seat(player)]
        ranked = sorted(b.properties(), key=lambda p: (-p[1] * p[2], -p[1], p[0]))
        props = [
            {"terrain": TERRAINS[t], "squares": s, "crowns": c, "points": s * c}
            for t, s, c in ranked
        ]
        return {
            "properties": props,
            "property_points": b.property_score(),
            "bonuses": self.bonuses(player),
            "score": self.score(player),
            "discarded": list(b.discarded),
        }

    # -- views -----------------------------------------------------------------------
    def _line(self, numbers: Sequence[int], kings: Sequence[int]) -> list[JSONDict]:
        return [
            {"domino": d, "king": k if k >= 0 else None}
            for d, k in zip(numbers, kings, strict=True)
        ]

    def view(self, player: object) -> JSONDict:  # object: checked here, also when compiled
        """Everything is public except the order (and identity) of undrawn dominoes
        and the kings not drawn yet for the first picks."""
        player = self.check_seat(player)
        n = self.config.players
        line_done = self.slot if self.phase in (PLACE, CHOOSE) else 0
        kingdoms = []
        for p in range(n):
            b = self.boards[p]
            kingdoms.append(
                {
                    "cells": [[x, y, TERRAIN_NAMES_EN[t], c] for x, y, t, c in b.cells()],
                    "placed": [list(pl) for pl in b.placed],
                    "discarded": list(b.discarded),
                    "score": self.score(p),
                    "bonuses": self.bonuses(p),
                    "largest_property": b.largest_property(),
                    "crowns": b.total_crowns(),
                }
            )
        return {
            "game": "kingdomino",
            "seat": player,
            "players": n,
            "options": dict(self.config.options),
            "size": self.size,
            "phase": PHASES[self.phase],
            "to_move": self.current_player,
            "round": self.round + 1,
            "game_no": self.game_no + 1,
            "games": GAMES_IN_DYNASTY if self.dynasty else 1,
            "current_line": self._line(self.current, self.current_kings),
            "next_line": self._line(self.next, self.next_kings),
            "acting": self.acting_domino() or None,
            "line_done": line_done,
            "pick_order": self.kings_drawn(),
            "picks_made": self.pick_pos,
            "first_player": self.first,
            "undrawn": len(self.pile),
            "set_aside": len(self.aside),
            "kingdoms": kingdoms,
            "past_games": [[list(r) for r in g] for g in self.past],
            "totals": self.totals(),
        }

    def kings_drawn(self) -> list[int]:
        """The owners of the kings drawn so far for the first picks, in order: the
        king to pick now is the last one; the rest of the hand is unknown."""
        if self.phase == FIRST_PICKS:
            return list(self.pick_order[: self.pick_pos + 1])
        return list(self.pick_order)

    def unseen(self) -> list[int]:
        """Dominoes of this game nobody has seen: undrawn and set aside."""
        return sorted([*self.pile, *self.aside])

    def revealed_nothing(self, action: int, after: State) -> bool:
        """What :meth:`determinize` resamples (the undrawn dominoes, the set-aside
        ones, the kings not drawn yet) is read only to draw a line, to draw the next
        king of the first picks, or to deal the next game of a Dynasty: a step of the
        same game, outside the first picks, that left as many dominoes undrawn showed
        nothing.  (How many are undrawn is public.)"""
        return (
            isinstance(after, KingdominoState)
            and self.phase != FIRST_PICKS
            and after.game_no == self.game_no
            and len(after.pile) == len(self.pile)
        )

    def determinize(self, player: int, rng: random.Random) -> KingdominoState:
        """Reshuffle the undrawn dominoes (drawn from everything unseen) and, during
        the first picks, the kings not drawn yet."""
        self.check_seat(player)
        pool = self.unseen()
        shuffle(pool, rng)  # as rng.shuffle(pool), compiled
        new = self._copy(random.Random(rng.random()))
        k = len(self.pile)
        new.pile = pool[:k]
        new.aside = sorted(pool[k:])
        if self.phase == FIRST_PICKS:
            cut = self.pick_pos + 1
            rest = self.pick_order[cut:]
            shuffle(rest, rng)
            new.pick_order = self.pick_order[:cut] + rest
        return new

    def snapshot(self) -> JSONDict:
        return {
            **self._snapshot_core(),
            "phase": self.phase,
            "round": self.round,
            "slot": self.slot,
            "game_no": self.game_no,
            "pile": list(self.pile),
            "aside": list(self.aside),
            "current": list(self.current),
            "current_kings": list(self.current_kings),
            "next": list(self.next),
            "next_kings": list(self.next_kings),
            "pick_order": self.kings_drawn(),
            "pick_pos": self.pick_pos,
            "first": self.first,
            "boards": [b.snapshot() for b in self.boards],
            "past": [[list(r) for r in g] for g in self.past],
        }

    def check_invariants(self) -> None:
        from kingdoms.core.errors import InvariantViolation

        seen: list[int] = [*self.pile, *self.aside, *self.current, *self.next]
        for b in self.boards:
            seen += [d for d, _ in b.placed]
            seen += b.discarded
        # dominoes of the current line that were already placed appear twice
        done = self.current[: self.slot + (1 if self.phase == CHOOSE else 0)]
        if self.phase == OVER:
            done = list(self.current)
        for d in done:
            seen.remove(d)
        if sorted(seen) != list(range(1, 49)):
            raise InvariantViolation(f"dominoes created or lost: {sorted(seen)}")
        for b in self.boards:
            if b.occ.bit_count() != 1 + 2 * len(b.placed):
                raise InvariantViolation("a kingdom's squares do not match its dominoes")
            if b.maxx - b.minx >= b.size or b.maxy - b.miny >= b.size:
                raise InvariantViolation("a kingdom outgrew its square")

    # -- text ---------------------------------------------------------------------------
    def action_to_str(self, action: int, lang: str = "en") -> str:
        from kingdoms.kingdomino.text import action_text

        return action_text(self, self.check_action(action), lang)

    def event_to_str(self, event: Mapping[str, Any], lang: str = "en") -> str:
        from kingdoms.kingdomino.text import event_text

        return event_text(event, lang)

    def action_info(self, action: int) -> JSONDict:
        """An action as data, for boards that make squares and dominoes clickable."""
        self.check_action(action)
        if action == DISCARD:
            return {"kind": "discard", "domino": self.acting_domino()}
        if action >= PICK:
            return {"kind": "pick", "domino": action - PICK}
        d, a = divmod(action, CELLS)
        dom = TILES[self.acting_domino()]
        x, y = xy(a)
        from kingdoms.kingdomino.board import OFF

        x2, y2 = xy(a + OFF[d])
        return {
            "kind": "place",
            "domino": dom.number,
            "x": x,
            "y": y,
            "dir": d,
            "cells": [
                [x, y, TERRAINS[dom.left[0]], dom.left[1]],
                [x2, y2, TERRAINS[dom.right[0]], dom.right[1]],
            ],
        }

    def placement_action(self, x: object, y: object, direction: object) -> int:
        """The placement code with the left square on castle-relative ``(x, y)`` and
        the right square towards ``direction`` (0 right, 1 down, 2 left, 3 up); for a
        double being placed, in the form the legal actions name it (:meth:`canonical`:
        pointing left from ``(x, y)`` is pointing right from ``(x - 1, y)``).

        >>> from kingdoms.core import new_game
        >>> state = new_game("kingdomino", players=2, seed=1)
        >>> state.placement_action(0, 1, 0) == state.placement_action(1, 1, 2) - 2 * CELLS - 1
        True
        >>> state.placement_action(9, 9, 0)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        kingdoms.core.errors.IllegalAction: no square (9, 9): a kingdom reaches at most 6 ...
        """
        for name, value in (("x", x), ("y", y), ("direction", direction)):
            if type(value) is not int:
                raise IllegalAction(f"{name} must be an integer, not {value!r}")
        assert isinstance(x, int) and isinstance(y, int) and isinstance(direction, int)
        if direction not in range(4):
            raise IllegalAction(f"direction must be 0–3 (right, down, left, up), not {direction}")
        if not (-CENTRE <= x <= CENTRE and -CENTRE <= y <= CENTRE):
            raise IllegalAction(
                f"no square ({x}, {y}): a kingdom reaches at most {CENTRE} squares from the castle"
            )
        code = direction * CELLS + cell_at(x, y)
        x2, y2 = xy(placement_cells(code)[1])
        if abs(x2) > CENTRE or abs(y2) > CENTRE:
            raise IllegalAction(
                f"the other square ({x2}, {y2}) would be more than {CENTRE} squares from the castle"
            )
        return self.canonical(code)
