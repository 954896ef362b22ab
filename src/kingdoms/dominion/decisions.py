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

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kingdoms.core.state import JSONDict
from kingdoms.dominion import actions as A
from kingdoms.dominion.data import CARDS

if TYPE_CHECKING:
    from kingdoms.dominion.state import DominionState, Frame

CHOOSE_CARDS, CHOOSE_PILE, ORDER, YES_NO = "choose_cards", "choose_pile", "order", "yes_no"
KINDS = (CHOOSE_CARDS, CHOOSE_PILE, ORDER, YES_NO)

ANSWERS = {A.CHOOSE: "card", A.GAIN: "pile", A.YES: "yes", A.NO: "no", A.DONE: "done"}
"""Action kind -> the answer it gives (``choices[i].answer`` in the view)."""


Bounds = Callable[["DominionState", "Frame"], tuple[int, int, int | None]]
"""``(picked, min, max)`` of a whole decision: the cards picked so far and how many it
takes in all (``max`` None: any number)."""


@dataclass(frozen=True, slots=True)
class DecisionSpec:
    kind: str
    purpose: str
    """``<card id>.<verb>``; ``*.<verb>``: the card is the frame's card (the one that
    asked), for decisions that steps shared by several cards declare."""
    prompt: str = ""
    """The English prompt (a msgid); empty in a card's own decision: the prompt its
    declaration gives for the purpose (filled in by ``steps.asks``)."""
    zone: str = "hand"
    subject: int = -1
    """Frame field holding the card a yes/no question is about (-1: none)."""
    whose: int = -1
    """Frame field holding the seat whose cards are offered (-1: the decider)."""
    pick: str = "choose {card}"
    """Option text (msgid) of picking a card."""
    yes: str = "yes"
    no: str = "no"
    """Option texts (msgids) of a yes/no question (``{card}``: its subject)."""
    bounds: Bounds | None = None
    """The whole decision's bounds, for decisions answered by several picks (Cellar,
    Chapel, Militia); None: one pick (optional when ``done`` is legal)."""

    @property
    def verb(self) -> str:
        return self.purpose.split(".", 1)[1]


SPECS: dict[str, DecisionSpec] = {}
"""Frame code -> its decision.  Filled by :func:`register` where the decision is
declared: right below the card that asks it, or with the step that asks it
(:func:`kingdoms.dominion.cards.steps.asks`).  There is no table of per-card decisions
here."""


PROMPTS: dict[str, str] = {}
"""Purpose -> prompt, as each card's declaration gives it."""


def register(code: str, spec: DecisionSpec) -> DecisionSpec:
    if code in SPECS and SPECS[code] != spec:
        raise ValueError(f"decision {code!r} declared twice")
    SPECS[code] = spec
    return spec


def purpose_of(fr: Frame) -> str:
    purpose = SPECS[fr.code].purpose
    if purpose.startswith("*."):
        return CARDS[fr.card].id + purpose[1:]
    return purpose


def purposes() -> list[str]:
    """Every purpose a decision can have: those the cards declare, and Clean-up's."""
    out = {s.purpose for s in SPECS.values() if not s.purpose.startswith("*")}
    from kingdoms.dominion.cards import DECLARED

    for decl in DECLARED.values():
        out.update(decl.purposes())
    return sorted(out)


def describe(st: DominionState, fr: Frame, legal: list[int] | None) -> JSONDict:
    """The structured pending decision: kind, purpose, zone, the card that asked, the
    seat whose cards it offers and — with ``legal`` (the deciding seat only) — its
    choices as data: ``{"action": int, "answer": "card"|"pile"|"yes"|"no"|"done",
    "card": id|None}`` (for yes/no, the card the question is about)."""
    spec = SPECS[fr.code]
    purpose = purpose_of(fr)
    out: JSONDict = {
        "kind": spec.kind,
        "purpose": purpose,
        "prompt": PROMPTS.get(purpose, spec.prompt),
        "zone": spec.zone,
        "whose": fr.field(spec.whose) if spec.whose >= 0 else fr.who,
    }
    if spec.bounds is not None:
        picked, least, most = spec.bounds(st, fr)
        out["total"] = {"min": least, "max": most, "picked": picked}
    if legal is not None:
        subject = CARDS[fr.field(spec.subject)].id if spec.subject >= 0 else None
        choices = []
        for a in legal:
            kind, c = A.decode(a)
            answer = ANSWERS.get(kind, "card")
            card = CARDS[c].id if answer in ("card", "pile") else None
            if answer in ("yes", "no"):
                card = subject
            choices.append({"action": a, "answer": answer, "card": card})
        out["choices"] = choices
    return out
