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
    prompt: str
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
declared: next to the card or the step that asks it."""


PROMPTS: dict[str, str] = {}
"""Purpose -> prompt, for decisions of shared steps (declared with each card)."""


def register(code: str, spec: DecisionSpec) -> DecisionSpec:
    if code in SPECS and SPECS[code] != spec:
        raise ValueError(f"decision {code!r} declared twice")
    SPECS[code] = spec
    return spec


def _s(
    code: str,
    kind: str,
    purpose: str,
    prompt: str,
    zone: str = "hand",
    subject: int = -1,
    whose: int = -1,
    pick: str = "choose {card}",
    yes: str = "yes",
    no: str = "no",
) -> None:
    register(code, DecisionSpec(kind, purpose, prompt, zone, subject, whose, pick, yes, no))


TRASH, DISCARD, TOPDECK = "trash {card}", "discard {card}", "put {card} on deck"

# base set
_s(
    "moat",
    YES_NO,
    "moat.reveal",
    "An Attack is played: reveal Moat to be unaffected?",
    yes="reveal Moat",
    no="don't reveal",
)
_s(
    "chancellor",
    YES_NO,
    "chancellor.discard_deck",
    "Chancellor: put your deck into your discard pile?",
    "deck",
    yes="discard deck",
    no="keep deck",
)
_s(
    "library",
    YES_NO,
    "library.set_aside",
    "Library: set this Action card aside?",
    subject=3,
    yes="set aside {card}",
    no="keep {card}",
)
_s("mine", CHOOSE_CARDS, "mine.trash", "Mine: trash a Treasure to upgrade it.", pick=TRASH)
_s(
    "thief_trash",
    CHOOSE_CARDS,
    "thief.trash",
    "Thief: trash one of the revealed Treasures.",
    "set_aside",
    whose=3,
    pick=TRASH,
)
_s(
    "thief_gain",
    CHOOSE_CARDS,
    "thief.gain",
    "Thief: gain the trashed Treasures?",
    "trash",
    pick="gain {card}",
)
_s(
    "throne",
    CHOOSE_CARDS,
    "throne_room.play",
    "Throne Room: choose an Action card to play twice.",
    pick="play {card} twice",
)
_s(
    "moneylender",
    YES_NO,
    "moneylender.trash",
    "Moneylender: trash a Copper for +$3?",
    yes="trash Copper",
    no="keep Copper",
)
_s(
    "bureaucrat",
    CHOOSE_CARDS,
    "bureaucrat.topdeck",
    "Bureaucrat: put a Victory card onto your deck.",
    pick=TOPDECK,
)
# second edition
_s(
    "artisan",
    CHOOSE_CARDS,
    "artisan.topdeck",
    "Artisan: put a card from your hand onto your deck.",
    pick=TOPDECK,
)
_s(
    "bandit",
    CHOOSE_CARDS,
    "bandit.trash",
    "Bandit: choose the Treasure to trash.",
    "set_aside",
    whose=3,
    pick=TRASH,
)
_s(
    "harbinger",
    CHOOSE_CARDS,
    "harbinger.topdeck",
    "Harbinger: put a card from your discard pile onto your deck?",
    "discard",
    pick=TOPDECK,
)
_s("poacher", CHOOSE_CARDS, "poacher.discard", "Poacher: discard a card.", pick=DISCARD)
_s(
    "sentry_trash",
    CHOOSE_CARDS,
    "sentry.trash",
    "Sentry: trash any of these cards.",
    "looking",
    pick=TRASH,
)
_s(
    "sentry_discard",
    CHOOSE_CARDS,
    "sentry.discard",
    "Sentry: discard any of these cards.",
    "looking",
    pick=DISCARD,
)
_s(
    "sentry_order",
    ORDER,
    "sentry.order",
    "Sentry: which card goes on top?",
    "looking",
    pick="put {card} on top",
)
_s(
    "vassal",
    YES_NO,
    "vassal.play",
    "Vassal: play the discarded Action card?",
    "discard",
    3,
    yes="play {card}",
    no="don't play {card}",
)
# Alchemy
_s(
    "alchemist",
    YES_NO,
    "alchemist.topdeck",
    "Alchemist: put it onto your deck?",
    "play",
    yes="put Alchemist on deck",
    no="discard Alchemist",
)
_s(
    "apothecary",
    ORDER,
    "apothecary.order",
    "Apothecary: put the cards back (the last one ends on top).",
    "set_aside",
    pick="put back {card} now",
)
_s(
    "golem",
    ORDER,
    "golem.order",
    "Golem: which Action is played first?",
    "set_aside",
    pick="play {card} first",
)
_s(
    "herbalist",
    CHOOSE_CARDS,
    "herbalist.topdeck",
    "Herbalist: put a Treasure from play onto your deck?",
    "play",
    pick=TOPDECK,
)
_s(
    "cleanup",
    ORDER,
    "cleanup.order",
    "Clean-up: choose the card that leaves play next.",
    "play",
    pick="discard {card} from play",
)

GAINERS: tuple[str, ...] = (
    "workshop", "feast", "remodel", "mine", "university", "artisan",
)  # fmt: skip
"""Cards whose gain decision has the purpose ``<card>.gain``."""


def purpose_of(fr: Frame) -> str:
    purpose = SPECS[fr.code].purpose
    if purpose.startswith("*."):
        return CARDS[fr.card].id + purpose[1:]
    return purpose


def purposes() -> list[str]:
    """Every purpose a decision can have."""
    out = {s.purpose for s in SPECS.values() if not s.purpose.startswith("*")}
    from kingdoms.dominion.cards import DECLARED

    for decl in DECLARED.values():
        out.update(decl.purposes())
    return sorted(out | {f"{c}.gain" for c in GAINERS})


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
