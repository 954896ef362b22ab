"""A typed observation of one Dominion seat: what the bots read instead of the view.

:func:`observe` builds it straight from the state, for one seat, with only what
that seat's view shows (``state.view(seat)``): the public counts, every seat's
owned cards (gains are public) and turns, and the pending decision's purpose,
subject and — for the deciding seat only — its choices.  No strings are built
beyond the card ids, no hand or deck of another seat is read.
:meth:`Observation.from_view` reads the same from a view dict, so that a bot
handed a view (web, terminal, RL) decides exactly as in simulation; the tests
check ``observe(state, p) == Observation.from_view(state.view(p))`` on many
random states.

>>> from kingdoms.core import new_game
>>> st = new_game("dominion", players=2, seed=3, options={"kingdom": "First Game"})
>>> obs = observe(st, st.current_player)
>>> obs == Observation.from_view(st.view(st.current_player))
True
>>> obs.owned[obs.seat]["copper"], obs.phase  # no Action in hand: the Buy phase
(7, 'buy')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from kingdoms.core.errors import InvalidArgument
from kingdoms.dominion.data import BY_ID, CARDS, NUM_CARDS
from kingdoms.dominion.decisions import ANSWERS, SPECS, purpose_of

if TYPE_CHECKING:
    from kingdoms.dominion.state import DominionState

IDS: Final[tuple[str, ...]] = tuple(c.id for c in CARDS)
PHASES: Final[tuple[str, ...]] = ("action", "buy", "over", "cleanup")
_BY_ID: Final[dict[str, int]] = BY_ID  # compiled: a constant, not a global look-up

Choice = tuple[int, str, "str | None"]
"""``(action, answer, card)`` of a pending decision, as the view's ``choices``."""


class Observation:
    """What one seat sees, as typed fields (see the module doc).

    An observation made by :func:`observe` counts the supply and the seats' owned
    cards only when first read (most decisions never read them); it reads them from
    the state it was made of, so they must be read before the game moves on (reading
    them later raises :class:`~kingdoms.core.errors.InvalidArgument`)."""

    __slots__ = (
        "_known_top",
        "_owned",
        "_state",
        "_step",
        "_supply",
        "_zones",
        "about",
        "actions",
        "buys",
        "choices",
        "coins",
        "phase",
        "potions",
        "purpose",
        "seat",
        "turns",
    )

    def __init__(
        self,
        seat: int,
        phase: str,
        coins: int,
        potions: int,
        actions: int,
        buys: int,
        supply: dict[str, int] | None,
        owned: tuple[dict[str, int], ...] | None,
        turns: tuple[int, ...],
        purpose: str | None = None,
        about: int | None = None,
        choices: tuple[Choice, ...] = (),
        source: DominionState | None = None,
        zones: list[dict[str, float]] | None = None,
        known_top: tuple[str, ...] | None = None,
    ) -> None:
        self.seat = seat
        self.phase = phase
        self.coins = coins
        self.potions = potions
        self.actions = actions
        self.buys = buys
        self._supply = supply
        n = len(turns)
        self._owned: list[dict[str, int] | None] = [None] * n if owned is None else list(owned)
        self.turns = turns
        """Per seat: turns taken."""
        self.purpose = purpose
        """The pending decision's purpose (``"militia.discard"``), None: no decision."""
        self.about = about
        """The seat the pending decision is about, when the view says."""
        self.choices = choices
        """The pending decision's choices, only in the deciding seat's observation."""
        self._state = source
        self._zones: list[dict[str, float] | None] = (
            [None, None, None, None] if zones is None else list(zones)
        )
        self._known_top = known_top
        # len(history) is the state's step, without the property's call
        self._step = len(source.history) if source is not None else 0

    def _source(self) -> DominionState:
        st = self._state
        if st is None:  # pragma: no cover - observations without counts have a source
            raise InvalidArgument("this observation has no supply or owned counts")
        if len(st.history) != self._step:
            raise InvalidArgument(
                f"observation of step {self._step} read at step {st.step}: "
                "read its supply and owned cards during the decision"
            )
        return st

    @property
    def supply(self) -> dict[str, int]:
        """Card id -> cards left, for the piles of this game (in pile order)."""
        out = self._supply
        if out is None:
            st = self._source()
            ids = IDS
            counts = st.supply
            out = {ids[c]: counts[c] for c in st.piles}
            self._supply = out
        return out

    def left(self, card: str) -> int:
        """Cards left in ``card``'s supply pile (0: no such pile in this game), as
        ``supply.get(card, 0)`` without counting every pile."""
        out = self._supply
        if out is not None:
            return out.get(card, 0)
        # _read(card, -1), inlined: a buy's end-of-game guard reads one pile per buy
        c = _BY_ID.get(card)
        if c is None:
            return 0
        st = self._state
        if st is None or len(st.history) != self._step:
            st = self._source()  # raises: no such reading
        counts = st.supply
        return counts[c] if c < len(counts) else 0

    def pile_counts(self) -> list[int] | None:
        """The state's cards left per card index (0 for cards with no pile in this
        game), read during the decision only, not to be changed: what :meth:`left`
        reads, for a reader of many piles; None for an observation of a view."""
        if self._state is None:
            return None
        return self._source().supply

    def owned_by(self, seat: int) -> dict[str, int]:
        """Card id -> copies ``seat`` owns (public: every gain is seen)."""
        out = self._owned[seat]
        if out is None:
            # the counts the engine keeps as cards change hands: no zone is read
            st = self._source()
            counts = st.owned_counts[seat]
            ids = IDS
            out = {ids[c]: counts[c] for c in st.owned_kinds if counts[c]}
            self._owned[seat] = out
        return out

    def count_of(self, seat: int, card: str) -> int:
        """Copies of ``card`` ``seat`` owns, as ``owned_by(seat).get(card, 0)``, read
        from the engine's kept counts without building the dict."""
        out = self._owned[seat]
        if out is not None:
            return out.get(card, 0)
        return self._read(card, seat)

    def _read(self, card: str, seat: int) -> int:
        """``card``'s entry in the state's supply counts (``seat`` -1) or in
        ``seat``'s kept owned counts: 0 for a card with no pile or not owned."""
        c = _BY_ID.get(card)
        if c is None:
            return 0
        st = self._state
        if st is None or len(st.history) != self._step:
            st = self._source()  # raises: no such reading
        counts = st.supply if seat < 0 else st.owned_counts[seat]
        return counts[c] if c < len(counts) else 0

    def money_of(self, seat: int, values: Mapping[str, int], extra: Mapping[str, int]) -> int:
        """Coins of ``seat``'s owned cards: per copy ``values[card]``, else
        ``extra[card]`` (the sum a strategy's ``total_money`` asks for), read from
        the engine's kept counts when the owned dict is not built."""
        total = 0
        out = self._owned[seat]
        if out is not None:
            for card, n in out.items():
                v = values.get(card) or extra.get(card)
                if v:
                    total += v * n
            return total
        st = self._source()
        counts = st.owned_counts[seat]
        ids = IDS
        for c in st.owned_kinds:
            n = counts[c]
            if n:
                card = ids[c]
                v = values.get(card) or extra.get(card)
                if v:
                    total += v * n
        return total

    def count_type_of(self, seat: int, kind: str, types: Mapping[str, frozenset[str]]) -> int:
        """``seat``'s owned cards whose ``types`` entry holds ``kind``."""
        total = 0
        out = self._owned[seat]
        if out is not None:
            for card, n in out.items():
                if kind in types.get(card, ()):
                    total += n
            return total
        st = self._source()
        counts = st.owned_counts[seat]
        ids = IDS
        for c in st.owned_kinds:
            n = counts[c]
            if n and kind in types.get(ids[c], ()):
                total += n
        return total

    def zone(self, zone: int) -> dict[str, float]:
        """The seat's own zone (0 hand, 1 in play, 2 draw pile, 3 discard pile): card
        id -> copies.  The draw pile is known as a set, not in order (what a seat
        remembers of its own cards); an observation of a view, which shows no
        discard pile, splits the cards it cannot see between the draw and discard
        piles by their sizes (expected copies)."""
        got = self._zones[zone]
        if got is None:
            st = self._source()
            seat = self.seat
            cards = (st.hands, st.in_play, st.decks, st.discards)[zone][seat]
            ids = IDS
            got = {}
            for c in cards:
                card = ids[c]
                got[card] = got.get(card, 0.0) + 1.0
            self._zones[zone] = got
        return got

    @property
    def known_top(self) -> tuple[str, ...]:
        """The cards on top of the seat's own deck that it put there itself and that
        are still there, top card first (the view's ``known_top``)."""
        got = self._known_top
        if got is None:
            st = self._source()
            ids = IDS
            got = tuple(ids[c] for c in st.known_top(self.seat))
            self._known_top = got
        return got

    @property
    def owned(self) -> tuple[dict[str, int], ...]:
        """Per seat: card id -> copies owned (public: every gain is seen)."""
        return tuple(self.owned_by(q) for q in range(len(self.turns)))

    @property
    def in_decision(self) -> bool:
        return self.purpose is not None

    def _key(self) -> tuple[Any, ...]:
        return (
            self.seat,
            self.phase,
            self.coins,
            self.potions,
            self.actions,
            self.buys,
            self.supply,
            self.owned,
            self.turns,
            self.purpose,
            self.about,
            self.choices,
            self.known_top,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.seat, self.phase, self.coins, self.purpose, self.turns))

    def __repr__(self) -> str:
        return f"Observation(seat={self.seat}, phase={self.phase!r}, purpose={self.purpose!r})"

    @staticmethod
    def from_view(view: Mapping[str, Any]) -> Observation:
        """The observation a view dict shows (for bots handed a view)."""
        players = view["players"]
        frame = view.get("decision")
        purpose: str | None = None
        about: int | None = None
        choices: tuple[Choice, ...] = ()
        if isinstance(frame, Mapping):
            purpose = str(frame.get("purpose", ""))
            subject = frame.get("about")
            if isinstance(subject, Mapping) and isinstance(subject.get("player"), int):
                about = int(subject["player"])
            choices = tuple(
                (int(c["action"]), str(c["answer"]), c.get("card"))
                for c in frame.get("choices") or ()
            )
        seat = int(view["player"])
        return Observation(
            seat=seat,
            phase=str(view["phase"]),
            coins=int(view["coins"]),
            potions=int(view["potions"]),
            actions=int(view["actions"]),
            buys=int(view["buys"]),
            supply={pile["card"]: int(pile["count"]) for pile in view["supply"]},
            owned=tuple(dict(p["owned"]) for p in players),
            turns=tuple(int(p["turns"]) for p in players),
            purpose=purpose,
            about=about,
            choices=choices,
            zones=_view_zones(view, seat),
            known_top=tuple(str(c) for c in view.get("known_top") or ()),
        )


def _count(cards: Any) -> dict[str, float]:
    out: dict[str, float] = {}
    for c in cards or ():
        out[str(c)] = out.get(str(c), 0.0) + 1.0
    return out


def _view_zones(view: Mapping[str, Any], seat: int) -> list[dict[str, float]]:
    """The seat's own zones as a view shows them (see :meth:`Observation.zone`)."""
    me = view["players"][seat]
    hand = _count(view.get("hand"))
    play = _count(me.get("in_play"))
    unseen: dict[str, float] = {}
    for card, n in dict(me.get("owned") or {}).items():
        rest = n - hand.get(card, 0) - play.get(card, 0)
        if rest > 0:
            unseen[card] = rest
    deck, disc = int(me.get("deck_size", 0)), int(me.get("discard_size", 0))
    share = deck / (deck + disc) if deck + disc else 1.0
    return [
        hand,
        play,
        {c: n * share for c, n in unseen.items()},
        {c: n * (1 - share) for c, n in unseen.items()},
    ]


def observe(st: DominionState, seat: int) -> Observation:
    """``seat``'s observation of ``st`` (only what ``st.view(seat)`` shows)."""
    ids = IDS
    purpose: str | None = None
    about: int | None = None
    choices: tuple[Choice, ...] = ()
    if st.stack:
        fr = st.stack[-1]
        spec = SPECS[fr.code]
        purpose = purpose_of(fr)
        mine = st.current_player == seat
        if (spec.subject >= 0 or spec.whose >= 0) and (spec.zone != "hand" or mine):
            about = fr.field(spec.whose) if spec.whose >= 0 else fr.who
        if mine:
            subject = ids[fr.field(spec.subject)] if spec.subject >= 0 else None
            out: list[Choice] = []
            for a in st.legal_actions():
                kind, c = divmod(a, NUM_CARDS)
                answer = ANSWERS.get(kind, "card")
                if answer == "card" or answer == "pile":
                    out.append((a, answer, ids[c]))
                elif answer == "yes" or answer == "no":
                    out.append((a, answer, subject))
                else:
                    out.append((a, answer, None))
            choices = tuple(out)
    return Observation(
        seat,
        PHASES[st.phase],
        st.coins,
        st.potions,
        st.actions,
        st.buys,
        None,
        None,
        tuple(st.turns),
        purpose,
        about,
        choices,
        st,
    )
