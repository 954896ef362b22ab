"""Every decision a Dominion card asks: its generic kind, its purpose and its prompt.

A pending decision frame has a ``code`` (the engine's name of the question, e.g.
``"throne"``).  :data:`SPECS` gives each code

* a **kind** — what shape the answer has, which gives the widget in the browser,
  the prompt in the terminal and the bots' default handling:

  ``choose_cards``  pick cards one at a time from ``zone`` (``done`` stops when allowed);
  ``choose_pile``   pick a supply pile (a gain within a cost);
  ``order``         pick which of the cards in ``zone`` goes first/next;
  ``yes_no``        yes or no about one card (``subject``);

* a **purpose** — ``<card id>.<verb>`` such as ``cellar.discard``, ``militia.discard``,
  ``chapel.trash``, ``throne_room.play``: what strategies, tests, logs and bots refer to
  (a gain's purpose names the card that gains: ``workshop.gain``, ``remodel.gain``…);
* the **zone** the cards come from (``hand``, ``play``, ``set_aside``, ``looking``,
  ``trash``, ``discard``, ``supply``) and the English **prompt** (a msgid of the
  catalogs: ``kingdoms.i18n``).

:func:`describe` turns the top frame into the structured data of the view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kingdoms.core.state import JSONDict
from kingdoms.dominion import actions as A
from kingdoms.dominion.data import CARDS, NUM_CARDS

if TYPE_CHECKING:
    from kingdoms.dominion.state import DominionState, Frame

CHOOSE_CARDS, CHOOSE_PILE, ORDER, YES_NO = "choose_cards", "choose_pile", "order", "yes_no"
KINDS = (CHOOSE_CARDS, CHOOSE_PILE, ORDER, YES_NO)

ANSWERS = {A.CHOOSE: "card", A.GAIN: "pile", A.YES: "yes", A.NO: "no", A.DONE: "done"}
"""Action kind -> the answer it gives (``choices[i].answer`` in the view)."""


@dataclass(frozen=True, slots=True)
class DecisionSpec:
    kind: str
    purpose: str
    """``<card id>.<verb>``; for ``gain`` the card is the frame's source card."""
    prompt: str
    zone: str = "hand"
    subject: int = -1
    """Frame field holding the card a yes/no question is about (-1: none)."""
    whose: int = -1
    """Frame field holding the seat whose cards are offered (-1: the decider)."""

    @property
    def verb(self) -> str:
        return self.purpose.split(".", 1)[1]


def _s(
    kind: str, purpose: str, prompt: str, zone: str = "hand", subject: int = -1, whose: int = -1
) -> DecisionSpec:
    return DecisionSpec(kind, purpose, prompt, zone, subject, whose)


SPECS: dict[str, DecisionSpec] = {
    # base set
    "moat": _s(YES_NO, "moat.reveal", "An Attack is played: reveal Moat to be unaffected?"),
    "cellar": _s(
        CHOOSE_CARDS, "cellar.discard", "Cellar: discard cards, then draw as many (done to stop)."
    ),
    "chancellor": _s(
        YES_NO,
        "chancellor.discard_deck",
        "Chancellor: put your deck into your discard pile?",
        "deck",
    ),
    "chapel": _s(CHOOSE_CARDS, "chapel.trash", "Chapel: trash up to 4 cards (done to stop)."),
    "gain": _s(CHOOSE_PILE, "*.gain", "Gain a card.", "supply"),
    "library": _s(YES_NO, "library.set_aside", "Library: set this Action card aside?", subject=3),
    "militia": _s(CHOOSE_CARDS, "militia.discard", "Militia: discard down to 3 cards."),
    "mine": _s(CHOOSE_CARDS, "mine.trash", "Mine: trash a Treasure to upgrade it."),
    "remodel": _s(CHOOSE_CARDS, "remodel.trash", "Remodel: trash a card."),
    "spy": _s(YES_NO, "spy.discard", "Spy: discard this card or put it back?", "set_aside", 4, 3),
    "thief_trash": _s(
        CHOOSE_CARDS,
        "thief.trash",
        "Thief: trash one of the revealed Treasures.",
        "set_aside",
        whose=3,
    ),
    "thief_gain": _s(CHOOSE_CARDS, "thief.gain", "Thief: gain the trashed Treasures?", "trash"),
    "throne": _s(
        CHOOSE_CARDS, "throne_room.play", "Throne Room: choose an Action card to play twice."
    ),
    "moneylender": _s(YES_NO, "moneylender.trash", "Moneylender: trash a Copper for +$3?"),
    "bureaucrat": _s(
        CHOOSE_CARDS, "bureaucrat.topdeck", "Bureaucrat: put a Victory card onto your deck."
    ),
    # second edition
    "artisan": _s(
        CHOOSE_CARDS, "artisan.topdeck", "Artisan: put a card from your hand onto your deck."
    ),
    "bandit": _s(
        CHOOSE_CARDS, "bandit.trash", "Bandit: choose the Treasure to trash.", "set_aside"
    ),
    "harbinger": _s(
        CHOOSE_CARDS,
        "harbinger.topdeck",
        "Harbinger: put a card from your discard pile onto your deck?",
        "discard",
    ),
    "poacher": _s(CHOOSE_CARDS, "poacher.discard", "Poacher: discard a card."),
    "sentry_trash": _s(
        CHOOSE_CARDS, "sentry.trash", "Sentry: trash any of these cards.", "looking"
    ),
    "sentry_discard": _s(
        CHOOSE_CARDS, "sentry.discard", "Sentry: discard any of these cards.", "looking"
    ),
    "sentry_order": _s(ORDER, "sentry.order", "Sentry: which card goes on top?", "looking"),
    "vassal": _s(YES_NO, "vassal.play", "Vassal: play the discarded Action card?", "discard", 3),
    # Alchemy
    "alchemist": _s(YES_NO, "alchemist.topdeck", "Alchemist: put it onto your deck?", "play"),
    "apothecary": _s(
        ORDER,
        "apothecary.order",
        "Apothecary: put the cards back (the last one ends on top).",
        "set_aside",
    ),
    "apprentice": _s(CHOOSE_CARDS, "apprentice.trash", "Apprentice: trash a card to draw."),
    "golem": _s(ORDER, "golem.order", "Golem: which Action is played first?", "set_aside"),
    "herbalist": _s(
        CHOOSE_CARDS,
        "herbalist.topdeck",
        "Herbalist: put a Treasure from play onto your deck?",
        "play",
    ),
    "scrying_pool": _s(
        YES_NO,
        "scrying_pool.discard",
        "Scrying Pool: discard this card or put it back?",
        "set_aside",
        4,
        3,
    ),
    "transmute": _s(CHOOSE_CARDS, "transmute.trash", "Transmute: trash a card."),
    "cleanup": _s(
        ORDER, "cleanup.order", "Clean-up: choose the card that leaves play next.", "play"
    ),
}

GAINERS: tuple[str, ...] = (
    "workshop", "feast", "remodel", "mine", "university", "artisan",
)  # fmt: skip
"""Cards whose gain decision has the purpose ``<card>.gain``."""


def purpose_of(fr: Frame) -> str:
    spec = SPECS[fr.code]
    if fr.code == "gain":
        return f"{CARDS[fr.card].id}.gain"
    return spec.purpose


def purposes() -> list[str]:
    """Every purpose a decision can have."""
    out = [s.purpose for s in SPECS.values() if not s.purpose.startswith("*")]
    return sorted(out + [f"{c}.gain" for c in GAINERS])


def describe(st: DominionState, fr: Frame, legal: list[int] | None) -> JSONDict:
    """The structured pending decision: kind, purpose, zone, the card that asked, the
    seat whose cards it offers and — with ``legal`` (the deciding seat only) — its
    choices as data: ``{"action": int, "answer": "card"|"pile"|"yes"|"no"|"done",
    "card": id|None}`` (for yes/no, the card the question is about)."""
    spec = SPECS[fr.code]
    out: JSONDict = {
        "kind": spec.kind,
        "purpose": purpose_of(fr),
        "prompt": spec.prompt,
        "zone": spec.zone,
        "whose": fr.field(spec.whose) if spec.whose >= 0 else fr.who,
    }
    if legal is not None:
        subject = CARDS[fr.field(spec.subject)].id if spec.subject >= 0 else None
        choices = []
        for a in legal:
            kind, c = divmod(a, NUM_CARDS)
            answer = ANSWERS.get(kind, "card")
            card = CARDS[c].id if answer in ("card", "pile") else None
            if answer in ("yes", "no"):
                card = subject
            choices.append({"action": a, "answer": answer, "card": card})
        out["choices"] = choices
    return out
