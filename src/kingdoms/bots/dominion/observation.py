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
from typing import TYPE_CHECKING, Any

from kingdoms.dominion.data import CARDS, NUM_CARDS
from kingdoms.dominion.decisions import ANSWERS, SPECS, purpose_of

if TYPE_CHECKING:
    from kingdoms.dominion.state import DominionState

IDS: tuple[str, ...] = tuple(c.id for c in CARDS)
PHASES: tuple[str, ...] = ("action", "buy", "over", "cleanup")

Choice = tuple[int, str, "str | None"]
"""``(action, answer, card)`` of a pending decision, as the view's ``choices``."""


class Observation:
    """What one seat sees, as typed fields (see the module doc)."""

    __slots__ = (
        "about",
        "actions",
        "buys",
        "choices",
        "coins",
        "owned",
        "phase",
        "potions",
        "purpose",
        "seat",
        "supply",
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
        supply: dict[str, int],
        owned: tuple[dict[str, int], ...],
        turns: tuple[int, ...],
        purpose: str | None = None,
        about: int | None = None,
        choices: tuple[Choice, ...] = (),
    ) -> None:
        self.seat = seat
        self.phase = phase
        self.coins = coins
        self.potions = potions
        self.actions = actions
        self.buys = buys
        self.supply = supply
        """Card id -> cards left, for the piles of this game (in pile order)."""
        self.owned = owned
        """Per seat: card id -> copies owned (public: every gain is seen)."""
        self.turns = turns
        """Per seat: turns taken."""
        self.purpose = purpose
        """The pending decision's purpose (``"militia.discard"``), None: no decision."""
        self.about = about
        """The seat the pending decision is about, when the view says."""
        self.choices = choices
        """The pending decision's choices, only in the deciding seat's observation."""

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
        return Observation(
            seat=int(view["player"]),
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
        )


def _counts(cards: list[int]) -> dict[str, int]:
    ids = IDS
    out: dict[str, int] = {}
    for c in cards:
        card = ids[c]
        out[card] = out.get(card, 0) + 1
    return out


def observe(st: DominionState, seat: int) -> Observation:
    """``seat``'s observation of ``st`` (only what ``st.view(seat)`` shows)."""
    ids = IDS
    supply = st.supply
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
        {ids[c]: supply[c] for c in st.piles},
        tuple(_counts(st.owned(q)) for q in range(st.num_players)),
        tuple(st.turns),
        purpose,
        about,
        choices,
    )
