"""Reusable steps that card declarations are composed of.

A :class:`Step` does one thing for the player who plays the card: ``+Cards``,
``+Actions``, a gain within a cost, discarding any number, trashing up to N, an
attack on each other player...  A step that needs an answer pushes a decision
frame and declares it here once — its kind, its purpose (``<card>.<verb>``, the
card being whichever card the step belongs to), its prompt and option texts, its
legal answers and what an answer does.  :func:`kingdoms.dominion.cards.declare.declare`
runs a card's steps in order, waiting for each decision before the next step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from kingdoms.dominion import actions as A
from kingdoms.dominion.cards.registry import (
    ANSWERS,
    CUSTOM,
    DECISION_ACTIONS,
    HAND_HINTS,
    TASKS,
    Answer,
    HandHint,
    Options,
)
from kingdoms.dominion.data import BY_ID, CARDS, COIN_COST, IS_ACTION, NUM_CARDS, POTION_COST
from kingdoms.dominion.decisions import (
    CHOOSE_CARDS,
    CHOOSE_PILE,
    ORDER,
    PROMPTS,
    YES_NO,
    DecisionSpec,
    register,
)

if TYPE_CHECKING:
    from kingdoms.dominion.frames import Frame
    from kingdoms.dominion.state import DominionState

CHOOSE0 = A.CHOOSE * NUM_CARDS
GAIN0 = A.GAIN * NUM_CARDS


def asks(code: str, spec: DecisionSpec, options: Options, answer: Answer) -> None:
    """Declare the decision ``code``: its spec, legal actions and answer.  A spec
    without a prompt takes the one its card's declaration gives for its purpose (so a
    card's custom decisions are declared right below the card, their prompts in it)."""
    if not spec.prompt:
        if spec.purpose not in PROMPTS:
            raise ValueError(f"decision {code!r}: no prompt declared for {spec.purpose!r}")
        spec = replace(spec, prompt=PROMPTS[spec.purpose])
    register(code, spec)
    DECISION_ACTIONS[code] = options
    ANSWERS[code] = answer


def yes_no(st: DominionState, fr: Frame) -> list[int]:
    """The legal actions of a yes/no question."""
    return [A.A_YES, A.A_NO]


def choices(cards: list[int]) -> list[int]:
    """Picking one of ``cards`` (each distinct card once, in card order)."""
    return [A.encode(A.CHOOSE, c) for c in sorted(set(cards))]


def hand_choices(hand: list[int], pred: Callable[[int], bool] | None = None) -> list[int]:
    return [
        CHOOSE0 + c if c < NUM_CARDS else A.encode(A.CHOOSE, c)
        for c in sorted(set(hand))
        if pred is None or pred(c)
    ]


@mypyc_attr(allow_interpreted_subclasses=True)  # a card module may add a step of its own
class Step:
    """One part of a card's effect for player ``p`` (``card``: the card played)."""

    verb = ""
    """The verb of the decision this step may ask (empty: it asks nothing)."""
    uses_play = False
    """Whether the step reads the play's id: then it runs by :meth:`run_play`."""

    def run(self, st: DominionState, p: int, card: int) -> None:
        raise NotImplementedError

    def run_play(self, st: DominionState, p: int, card: int, play_id: int) -> None:
        """:meth:`run` for one play ``play_id`` of the card (Throne Room plays a card
        twice with one id); called instead of it when :attr:`uses_play` is set."""
        self.run(st, p, card)

    def bind(self, card: int) -> None:
        """Called once when card ``card`` is declared with this step."""


class Counted(Step):
    """A step with one number ``n`` (how many cards...)."""

    def __init__(self, n: int) -> None:
        self.n = n


When = Callable[["DominionState", int], bool]


class Ask(Step):
    """Ask the player the card's decision ``code`` (declared with the card) if
    ``when(state, player)`` holds: there is something to choose from."""

    def __init__(self, code: str, when: When) -> None:
        self.code, self.when = code, when

    def run(self, st: DominionState, p: int, card: int) -> None:
        if self.when(st, p):
            st.push(self.code, p, card)


class Custom(Step):
    """The card's own code (a real special case): the function registered with
    ``@card(<id>)`` right below the card's declaration, called as
    ``fn(state, player, play_id)``.  Only a card's sole step gets the play id (-1 when
    other steps come before it)."""

    def run(self, st: DominionState, p: int, card: int) -> None:
        CUSTOM[card](st, p, -1)


class TrashThis(Step):
    """Trash the card played from play, once a play: a card played twice by one
    effect (Throne Room, with one play id) is trashed by its first play only, and not
    if it left play (Feast)."""

    uses_play = True

    def run(self, st: DominionState, p: int, card: int) -> None:
        self.run_play(st, p, card, -1)

    def run_play(self, st: DominionState, p: int, card: int, play_id: int) -> None:
        play = st.in_play[p]
        if play_id not in st.moved and card in play:
            st.moved.append(play_id)
            # the copy this play refers to: the last one put into play
            del play[len(play) - 1 - play[::-1].index(card)]
            st.trash_card(p, card)


class Plus(Step):
    """+Cards, +Actions, +Buys, +$."""

    def __init__(self, cards: int = 0, actions: int = 0, buys: int = 0, coins: int = 0) -> None:
        self.cards, self.actions, self.buys, self.coins = cards, actions, buys, coins

    def run(self, st: DominionState, p: int, card: int) -> None:
        if self.cards:
            st.draw(p, self.cards)
        st.actions += self.actions
        st.buys += self.buys
        st.coins += self.coins


# -- discard any number, then draw as many (Cellar) -------------------------------------
class DiscardAnyThenDraw(Step):
    verb = "discard"

    def run(self, st: DominionState, p: int, card: int) -> None:
        st.push("discard_draw", p, card, 0)


def _discard_draw_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    p = fr.who
    if kind == A.DONE:
        st.discarded_together(p)  # all at once: shown before the draw
        st.draw(p, fr.a)
    else:
        st.discard_hidden(p, st.hands[p], c)
        st.push("discard_draw", p, fr.card, fr.a + 1)


asks(
    "discard_draw",
    DecisionSpec(
        CHOOSE_CARDS,
        "*.discard",
        "Cellar: discard cards, then draw as many (done to stop).",
        pick="discard {card}",
        bounds=lambda st, fr: (fr.a, 0, None),
    ),
    lambda st, fr: [*hand_choices(st.hands[fr.who]), A.A_DONE],
    _discard_draw_answer,
)


# -- play an Action card from the hand twice (Throne Room) ------------------------------
class PlayActionTwice(Step):
    """Choose an Action card from the hand (asked when the hand holds one; in the
    editions ``optional_in`` the player may choose none) and play it twice, as one play
    (one play id: a card trashing itself is trashed by its first play only) (Throne
    Room)."""

    verb = "play"

    def __init__(self, optional_in: tuple[int, ...] = ()) -> None:
        self.optional_in = optional_in

    def bind(self, card: int) -> None:
        PLAY_TWICE[card] = self

    def run(self, st: DominionState, p: int, card: int) -> None:
        if any(IS_ACTION[c] for c in st.hands[p]):
            st.push("play_twice", p, card)


PLAY_TWICE: dict[int, PlayActionTwice] = {}
"""Card index -> its :class:`PlayActionTwice` step."""


def _is_action(c: int) -> bool:
    return IS_ACTION[c]


def _play_twice_options(st: DominionState, fr: Frame) -> list[int]:
    out = hand_choices(st.hands[fr.who], _is_action)
    return [*out, A.A_DONE] if st.edition in PLAY_TWICE[fr.card].optional_in else out


def _play_twice_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    if kind != A.DONE:
        p = fr.who
        st.hands[p].remove(c)
        st.in_play[p].append(c)
        pid = st.new_play_id()
        st.push("play", p, c, pid, fr.card)
        st.push("play", p, c, pid, fr.card)


asks(
    "play_twice",
    DecisionSpec(
        CHOOSE_CARDS,
        "*.play",
        "Throne Room: choose an Action card to play twice.",
        pick="play {card} twice",
    ),
    _play_twice_options,
    _play_twice_answer,
)


# -- discard a card per empty Supply pile (Poacher) -------------------------------------
class DiscardPerEmptyPile(Step):
    """Discard a card from the hand per empty Supply pile: one at a time as the player
    chooses, or the whole hand (in hand order, not asked) when it holds no more cards
    than there are empty piles (Poacher)."""

    verb = "discard"

    def run(self, st: DominionState, p: int, card: int) -> None:
        empty = st.empty_piles()
        hand = st.hands[p]
        if not empty or not hand:
            return
        if len(hand) <= empty:
            for c in list(hand):
                st.discard_hidden(p, hand, c)
            st.discarded_together(p)
            return
        st.push("discard_per_empty", p, card, empty)


def _discard_per_empty_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    p = fr.who
    st.discard_hidden(p, st.hands[p], c)
    if fr.a > 1 and st.hands[p]:
        st.push("discard_per_empty", p, fr.card, fr.a - 1)
    else:
        st.discarded_together(p)


asks(
    "discard_per_empty",
    DecisionSpec(CHOOSE_CARDS, "*.discard", "Poacher: discard a card.", pick="discard {card}"),
    lambda st, fr: hand_choices(st.hands[fr.who]),
    _discard_per_empty_answer,
)


# -- you may put your deck into your discard pile (Chancellor) ---------------------------
class MayDiscardDeck(Step):
    """Ask whether to put the deck into the discard pile (asked only with cards in the
    deck); yes: the deck goes there as one move, top card first (Chancellor)."""

    verb = "discard_deck"

    def run(self, st: DominionState, p: int, card: int) -> None:
        if st.decks[p]:
            st.push("discard_deck", p, card)


def _discard_deck_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    if kind == A.YES:
        p = fr.who
        deck = st.decks[p]
        deck.reverse()
        st.discards[p].extend(deck)
        st.decks[p] = []
        if st.logging:
            st._log("deck_discarded", p, count=len(deck))


asks(
    "discard_deck",
    DecisionSpec(
        YES_NO,
        "*.discard_deck",
        "Chancellor: put your deck into your discard pile?",
        zone="deck",
        yes="discard deck",
        no="keep deck",
    ),
    yes_no,
    _discard_deck_answer,
)


# -- draw up to N cards in hand, setting aside cards of a type (Library) -----------------
SET_ASIDE_TYPES: dict[int, str] = {}
"""Card index -> the type of the drawn cards its :class:`DrawToSettingAside` may set aside."""


class DrawToSettingAside(Counted):
    """Draw until the hand holds ``n`` cards (or the deck and discard pile run out);
    for each card of the type ``only`` drawn, the player is asked whether to set it
    aside (it then no longer counts); the set-aside cards are discarded after, in the
    order set aside (Library: 7 cards, Action cards)."""

    verb = "set_aside"

    def __init__(self, n: int, only: str) -> None:
        super().__init__(n)
        self.only = only

    def bind(self, card: int) -> None:
        SET_ASIDE_TYPES[card] = self.only

    def run(self, st: DominionState, p: int, card: int) -> None:
        st.push("draw_to", p, card, self.n)


def _draw_to(st: DominionState, fr: Frame) -> None:
    """Draw one card at a time up to ``fr.a`` cards; a card that may be set aside asks
    (this task waits under the question), then the set-aside cards are discarded."""
    p = fr.who
    hand = st.hands[p]
    only = SET_ASIDE_TYPES[fr.card]
    while len(hand) < fr.a:
        if st.draw(p, 1) == 0:
            break
        c = hand[-1]
        if only in CARDS[c].types:
            st.push("draw_to", p, fr.card, fr.a)
            st.push("may_set_aside", p, fr.card, c)
            return
    aside = st.aside[p]
    for c in list(aside):
        st.discard_from(p, aside, c)


def _set_aside_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    if kind == A.YES:
        st.hands[fr.who].remove(fr.a)
        st.aside[fr.who].append(fr.a)


def _may_be_set_aside(c: int) -> bool:
    return any(t in CARDS[c].types for t in set(SET_ASIDE_TYPES.values()))


TASKS["draw_to"] = _draw_to
asks(
    "may_set_aside",
    DecisionSpec(
        YES_NO,
        "*.set_aside",
        "Library: set this Action card aside?",
        subject=3,
        yes="set aside {card}",
        no="keep {card}",
    ),
    yes_no,
    _set_aside_answer,
)
# the card drawn (field a) is in the hand, seen by its owner only: the others know it
# is of a type some step may set aside
HAND_HINTS["may_set_aside"] = HandHint(
    lambda fr, c: c == fr.a, secret=3, blank_fits=_may_be_set_aside
)


# -- trash a named card from the hand for +$ (Moneylender) ------------------------------
class TrashCardFor(Step):
    """If the hand holds a ``card``, trash one for +$``coins``: the player is asked
    (yes/no) in the editions ``optional_in``, and it is done in the others
    (Moneylender: a Copper for +$3, optional in the second edition)."""

    verb = "trash"

    def __init__(self, card: str, coins: int, optional_in: tuple[int, ...] = ()) -> None:
        self.card, self.coins, self.optional_in = BY_ID[card], coins, optional_in

    def bind(self, card: int) -> None:
        TRASH_FOR[card] = self

    def run(self, st: DominionState, p: int, card: int) -> None:
        if self.card in st.hands[p]:
            if st.edition in self.optional_in:
                st.push("may_trash_for", p, card, self.card)
            else:
                self.trash(st, p)

    def trash(self, st: DominionState, p: int) -> None:
        st.trash_from(p, st.hands[p], self.card)
        st.coins += self.coins


TRASH_FOR: dict[int, TrashCardFor] = {}
"""Card index -> its :class:`TrashCardFor` step."""


def _trash_for_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    if kind == A.YES:
        TRASH_FOR[fr.card].trash(st, fr.who)


asks(
    "may_trash_for",
    DecisionSpec(
        YES_NO,
        "*.trash",
        "Moneylender: trash a Copper for +$3?",
        subject=3,
        yes="trash {card}",
        no="keep {card}",
    ),
    yes_no,
    _trash_for_answer,
)


# -- trash up to N cards from the hand (Chapel) ------------------------------------------
class TrashUpTo(Counted):
    """Trash up to ``n`` cards from the hand (Chapel)."""

    verb = "trash"

    def run(self, st: DominionState, p: int, card: int) -> None:
        if st.hands[p]:
            st.push("trash_up_to", p, card, 0, self.n)


def _trash_up_to_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    if kind == A.DONE:
        return
    hand = st.hands[fr.who]
    st.trash_from(fr.who, hand, c)
    if fr.a + 1 < fr.b and hand:
        st.push("trash_up_to", fr.who, fr.card, fr.a + 1, fr.b)


asks(
    "trash_up_to",
    DecisionSpec(
        CHOOSE_CARDS,
        "*.trash",
        "Chapel: trash up to 4 cards (done to stop).",
        pick="trash {card}",
        bounds=lambda st, fr: (fr.a, 0, fr.b),
    ),
    lambda st, fr: [*hand_choices(st.hands[fr.who]), A.A_DONE],
    _trash_up_to_answer,
)


# -- gain a card costing up to ... (Workshop, Feast, Remodel, Mine, University, Artisan) --
class GainRule:
    """Where a card's gain goes (``to``), whether it may be declined, which cards it
    may take (``only``: a type, empty for any)."""

    __slots__ = ("only", "optional", "to")

    def __init__(self, to: str = "discard", optional: bool = False, only: str = "") -> None:
        self.to, self.optional, self.only = to, optional, only


ANY_GAIN = GainRule()
GAIN_RULES: dict[int, GainRule] = {}
"""Card index -> the rule of its gains (cards not in it: :data:`ANY_GAIN`)."""


def gain_options(st: DominionState, coins: int, potions: int, src: int) -> list[int]:
    """Supply cards costing at most (coins, potions) that ``src`` may gain (its
    :class:`GainRule`: Mine only Treasures, University only Actions).  Costs compare
    coins and potions separately."""
    supply = st.supply
    only = GAIN_RULES.get(src, ANY_GAIN).only
    return [
        c
        for c in st.piles
        if supply[c] > 0
        and COIN_COST[c] <= coins
        and POTION_COST[c] <= potions
        and (not only or only in CARDS[c].types)
    ]


def ask_gain(st: DominionState, p: int, src: int, coins: int, potions: int) -> None:
    if gain_options(st, coins, potions, src):
        st.push("gain", p, src, coins, potions)


class GainUpTo(Step):
    """Gain a card costing up to $``coins`` (and ``potions``), to ``to``; ``optional``:
    "you may gain"; ``only``: a card type it must have."""

    verb = "gain"

    def __init__(
        self, coins: int, potions: int = 0, to: str = "discard", optional: bool = False,
        only: str = "",
    ) -> None:  # fmt: skip
        self.coins, self.potions = coins, potions
        self.rule = GainRule(to, optional, only)

    def bind(self, card: int) -> None:
        GAIN_RULES[card] = self.rule

    def run(self, st: DominionState, p: int, card: int) -> None:
        ask_gain(st, p, card, self.coins, self.potions)


def _gain_options(st: DominionState, fr: Frame) -> list[int]:
    out = [A.encode(A.GAIN, c) for c in gain_options(st, fr.a, fr.b, fr.card)]
    return [*out, A.A_DONE] if GAIN_RULES.get(fr.card, ANY_GAIN).optional else out


def _gain_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    if kind != A.DONE:
        st.gain(fr.who, c, GAIN_RULES.get(fr.card, ANY_GAIN).to)


asks(
    "gain",
    DecisionSpec(CHOOSE_PILE, "*.gain", "Gain a card.", "supply", pick="gain {card}"),
    _gain_options,
    _gain_answer,
)


# -- attacks on each other player ---------------------------------------------------------
class EachOtherDiscardsDownTo(Counted):
    """Each other player (not protected) discards down to ``n`` cards (Militia)."""

    verb = "discard"

    def run(self, st: DominionState, p: int, card: int) -> None:
        from kingdoms.dominion.frames import Frame

        keep = self.n
        victims = [q for q in st.others(p) if not st.immune[q] and len(st.hands[q]) > keep]
        st.then(*(Frame("discard_down_to", q, card, keep) for q in victims))


def _discard_down_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    hand = st.hands[fr.who]
    st.discard_hidden(fr.who, hand, c)
    if len(hand) > fr.a:
        st.push("discard_down_to", fr.who, fr.card, fr.a, fr.b + 1)
    else:
        st.discarded_together(fr.who)


def _down_to_bounds(st: DominionState, fr: Frame) -> tuple[int, int, int | None]:
    """``a``: the hand size to keep; ``b``: the cards discarded so far."""
    total = fr.b + len(st.hands[fr.who]) - fr.a
    return fr.b, total, total


asks(
    "discard_down_to",
    DecisionSpec(
        CHOOSE_CARDS,
        "*.discard",
        "Militia: discard down to 3 cards.",
        pick="discard {card}",
        bounds=_down_to_bounds,
    ),
    lambda st, fr: hand_choices(st.hands[fr.who]),
    _discard_down_answer,
)


class EachOtherGains(Step):
    """Each other player (not protected) gains ``card`` (Witch, Familiar: a Curse)."""

    def __init__(self, card: str) -> None:
        self.card = BY_ID[card]

    def run(self, st: DominionState, p: int, card: int) -> None:
        for q in st.others(p):
            if not st.immune[q]:
                st.gain(q, self.card)


class GainCard(Step):
    """Gain a ``card`` from the supply (when one is left) to ``to``: ``"discard"``,
    ``"hand"`` or ``"deck"`` (Bureaucrat: a Silver onto the deck)."""

    def __init__(self, card: str, to: str = "discard") -> None:
        self.card, self.to = BY_ID[card], to

    def run(self, st: DominionState, p: int, card: int) -> None:
        st.gain(p, self.card, self.to)


TOPDECK_TYPES: dict[int, str] = {}
"""Card index -> the type of the card its :class:`EachOtherTopdecks` step takes."""


def _topdeckable(card: int, c: int) -> bool:
    return TOPDECK_TYPES[card] in CARDS[c].types


class EachOtherTopdecks(Step):
    """Each other player (not protected) reveals a card of the type ``only`` from their
    hand and puts it onto their deck, choosing which when the hand holds more than one
    kind of them; a hand without one is revealed and stays (Bureaucrat: a Victory
    card)."""

    verb = "topdeck"

    def __init__(self, only: str) -> None:
        self.only = only

    def bind(self, card: int) -> None:
        TOPDECK_TYPES[card] = self.only

    def run(self, st: DominionState, p: int, card: int) -> None:
        from kingdoms.dominion.frames import Frame

        victims = [q for q in st.others(p) if not st.immune[q]]
        st.then(*(Frame("reveal_to_topdeck", q, card) for q in victims))


def _topdeck_victim(st: DominionState, fr: Frame) -> None:
    q, card = fr.who, fr.card
    hand = st.hands[q]
    kinds = sorted({c for c in hand if _topdeckable(card, c)})
    if not kinds:
        st.reveal(q, hand)
    elif len(kinds) == 1:
        _reveal_topdeck(st, q, kinds[0])
    else:
        st.push("victim_topdeck", q, card)


def _reveal_topdeck(st: DominionState, q: int, c: int) -> None:
    st.reveal(q, [c])
    st.hands[q].remove(c)
    st.will_put_on_deck(q)
    st.decks[q].append(c)


def _victim_topdeck_options(st: DominionState, fr: Frame) -> list[int]:
    return hand_choices([c for c in st.hands[fr.who] if _topdeckable(fr.card, c)])


TASKS["reveal_to_topdeck"] = _topdeck_victim
asks(
    "victim_topdeck",
    DecisionSpec(
        CHOOSE_CARDS,
        "*.topdeck",
        "Bureaucrat: put a Victory card onto your deck.",
        pick="put {card} on deck",
    ),
    _victim_topdeck_options,
    lambda st, fr, kind, c: _reveal_topdeck(st, fr.who, c),
)
# asked only with cards of the type in hand (more than one kind): they all stay there
HAND_HINTS["victim_topdeck"] = HandHint(lambda fr, c: _topdeckable(fr.card, c), keep_all=True)


class EachOtherDraws(Counted):
    """Each other player draws ``n`` cards (Council Room)."""

    def run(self, st: DominionState, p: int, card: int) -> None:
        for q in st.others(p):
            st.draw(q, self.n)


# -- reveal each player's top card; the player chooses: discard it or put it back ---------
class RevealTopEach(Step):
    """The player, then each other player (not protected), reveals the top card of
    their deck; the player chooses for each: discard it or put it back (Spy,
    Scrying Pool)."""

    verb = "discard"

    def run(self, st: DominionState, p: int, card: int) -> None:
        from kingdoms.dominion.frames import Frame

        targets = [p] + [q for q in st.others(p) if not st.immune[q]]
        st.then(*(Frame("reveal_top", p, card, q) for q in targets))


def _reveal_top(st: DominionState, fr: Frame) -> None:
    q = fr.a
    c = st.take_top(q)
    if c < 0:
        return
    st.aside[q].append(c)
    st.reveal(q, [c])
    st.push("discard_or_back", fr.who, fr.card, q, c)


def _discard_or_back_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    """Yes: discard the revealed card; no: put it back."""
    q, found = fr.a, fr.b
    aside = st.aside[q]
    if kind == A.YES:
        st.discard_from(q, aside, found)
    else:
        aside.remove(found)
        st.decks[q].append(found)


TASKS["reveal_top"] = _reveal_top
asks(
    "discard_or_back",
    DecisionSpec(
        YES_NO,
        "*.discard",
        "Spy: discard this card or put it back?",
        "set_aside",
        subject=4,
        whose=3,
        yes="discard {card}",
        no="put back {card}",
    ),
    lambda st, fr: [A.A_YES, A.A_NO],
    _discard_or_back_answer,
)


# -- put a card onto the deck from the hand or the discard pile (Artisan, Harbinger) ------
def topdeck_from(st: DominionState, p: int, zone: list[int], c: int, last: bool) -> None:
    """Move ``c`` (its ``last`` copy, else its first) from ``zone`` onto ``p``'s deck,
    logged."""
    if last:
        del zone[len(zone) - 1 - zone[::-1].index(c)]
    else:
        zone.remove(c)
    st.will_put_on_deck(p)
    st.decks[p].append(c)
    if st.logging:
        st._log("topdeck", p, count=1)


class TopdeckFromHand(Step):
    """Put a card from the hand onto the deck (asked with cards in hand; Artisan)."""

    verb = "topdeck"

    def run(self, st: DominionState, p: int, card: int) -> None:
        if st.hands[p]:
            st.push("hand_to_deck", p, card)


asks(
    "hand_to_deck",
    DecisionSpec(
        CHOOSE_CARDS,
        "*.topdeck",
        "Artisan: put a card from your hand onto your deck.",
        pick="put {card} on deck",
    ),
    lambda st, fr: hand_choices(st.hands[fr.who]),
    lambda st, fr, kind, c: topdeck_from(st, fr.who, st.hands[fr.who], c, last=False),
)


class MayTopdeckFromDiscard(Step):
    """The player may put a card from the discard pile onto the deck (asked with
    cards in the discard pile; the last copy of the card chosen moves; Harbinger)."""

    verb = "topdeck"

    def run(self, st: DominionState, p: int, card: int) -> None:
        if st.discards[p]:
            st.push("discard_to_deck", p, card)


def _topdeck_from_discard_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    if kind != A.DONE:
        topdeck_from(st, fr.who, st.discards[fr.who], c, last=True)


asks(
    "discard_to_deck",
    DecisionSpec(
        CHOOSE_CARDS,
        "*.topdeck",
        "Harbinger: put a card from your discard pile onto your deck?",
        zone="discard",
        pick="put {card} on deck",
    ),
    lambda st, fr: [*choices(st.discards[fr.who]), A.A_DONE],
    _topdeck_from_discard_answer,
)


# -- a Clean-up ability: a Treasure from play onto the deck (Herbalist) ----------------
class TopdeckTreasureAtCleanup(Step):
    """At Clean-up, as this card is discarded from play, the player may put one of
    its Treasures from play onto its deck (Herbalist).  Playing the card counts the
    play (``herbalists``); the Clean-up asks
    (:func:`kingdoms.dominion.cards.alchemy.start_cleanup`): with the printed wording,
    the order cards leave play (purpose ``cleanup.order``) and, as this card leaves,
    the Treasure (``<card>.topdeck``); with the errata, one Treasure per play at the
    start of Clean-up."""

    verb = "topdeck"

    def run(self, st: DominionState, p: int, card: int) -> None:
        st.herbalists += 1


# -- look at the top cards: trash any, discard any, put the rest back in any order (Sentry)
class LookTrashDiscardReorder(Counted):
    """Look at the top ``n`` cards of the deck; trash any number of them, then discard
    any number of the rest (one at a time, ``done`` to stop), then put the rest back
    in any order (Sentry: 2).  The player is asked which card goes on top when two
    different cards go back."""

    verb = "trash"
    verbs = ("trash", "discard", "order")
    """Every verb of the decisions it asks."""

    def run(self, st: DominionState, p: int, card: int) -> None:
        looking = st.looking[p]
        for _ in range(self.n):
            c = st.take_top(p)
            if c < 0:
                break
            looking.append(c)
        if not looking:
            return
        st.push("look_back", p, card)
        st.push("look_discard_ask", p, card)
        st.push("look_trash", p, card)


def _look_pick(code: str, trash: bool) -> None:
    """The "trash any" and "discard any" of the cards looked at (done stops)."""

    def answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
        p, looking = fr.who, st.looking[fr.who]
        if kind == A.DONE:
            st.discarded_together(p)  # (nothing when trashing)
            return
        if trash:
            st.trash_from(p, looking, c)
        else:
            st.discard_hidden(p, looking, c)  # looked at, not revealed
        if looking:
            st.push(code, p, fr.card)
        else:
            st.discarded_together(p)

    asks(
        code,
        DecisionSpec(
            CHOOSE_CARDS,
            "*.trash" if trash else "*.discard",
            "Sentry: trash any of these cards." if trash else "Sentry: discard any of these cards.",
            zone="looking",
            pick="trash {card}" if trash else "discard {card}",
        ),
        lambda st, fr: [*choices(st.looking[fr.who]), A.A_DONE],
        answer,
    )


_look_pick("look_trash", trash=True)
_look_pick("look_discard", trash=False)


def _look_discard_ask(st: DominionState, fr: Frame) -> None:
    if st.looking[fr.who]:
        st.push("look_discard", fr.who, fr.card)


def _look_back(st: DominionState, fr: Frame) -> None:
    p = fr.who
    looking = st.looking[p]
    if len(looking) == 2 and looking[0] != looking[1]:
        st.push("look_order", p, fr.card)
        return
    st.will_put_on_deck(p)
    st.decks[p].extend(looking)
    looking.clear()


def _look_order_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    """The chosen card goes back on top; the other under it."""
    p = fr.who
    looking = st.looking[p]
    looking.remove(c)
    st.will_put_on_deck(p)
    st.decks[p].extend(looking)
    st.decks[p].append(c)
    looking.clear()


TASKS["look_discard_ask"] = _look_discard_ask
TASKS["look_back"] = _look_back
asks(
    "look_order",
    DecisionSpec(
        ORDER,
        "*.order",
        "Sentry: which card goes on top?",
        zone="looking",
        pick="put {card} on top",
    ),
    lambda st, fr: choices(st.looking[fr.who]),
    _look_order_answer,
)


# -- trash a card from the hand, then something depending on it ---------------------------
Then = Callable[["DominionState", int, int, int], None]
AFTER_TRASH: dict[int, Then] = {}
"""Card index -> what follows the trash of card ``c`` by player ``p``: ``fn(st, p, card, c)``."""


class TrashOneFromHand(Step):
    """Trash a card from the hand (if any), then ``then(st, p, card, trashed)``
    (Remodel, Transmute, Apprentice)."""

    verb = "trash"

    def __init__(self, then: Then) -> None:
        self.then = then

    def bind(self, card: int) -> None:
        AFTER_TRASH[card] = self.then

    def run(self, st: DominionState, p: int, card: int) -> None:
        if st.hands[p]:
            st.push("trash_one", p, card)


def _trash_one_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    st.trash_from(fr.who, st.hands[fr.who], c)
    AFTER_TRASH[fr.card](st, fr.who, fr.card, c)


asks(
    "trash_one",
    DecisionSpec(CHOOSE_CARDS, "*.trash", "Remodel: trash a card.", pick="trash {card}"),
    lambda st, fr: hand_choices(st.hands[fr.who]),
    _trash_one_answer,
)


class TrashOfTypeFromHand(Step):
    """Trash a card of the type ``only`` from the hand (asked when the hand holds one;
    in the editions ``optional_in`` the player may trash none), then
    ``then(st, p, card, trashed)`` (Mine: a Treasure, then a Treasure costing up to $3
    more to the hand; optional in the second edition)."""

    verb = "trash"

    def __init__(self, only: str, then: Then, optional_in: tuple[int, ...] = ()) -> None:
        self.only, self.then, self.optional_in = only, then, optional_in

    def bind(self, card: int) -> None:
        TRASH_OF_TYPE[card] = self

    def fits(self, c: int) -> bool:
        return self.only in CARDS[c].types

    def run(self, st: DominionState, p: int, card: int) -> None:
        if any(self.fits(c) for c in st.hands[p]):
            st.push("trash_of_type", p, card)


TRASH_OF_TYPE: dict[int, TrashOfTypeFromHand] = {}
"""Card index -> its :class:`TrashOfTypeFromHand` step."""


def _trash_of_type_options(st: DominionState, fr: Frame) -> list[int]:
    step = TRASH_OF_TYPE[fr.card]
    out = hand_choices(st.hands[fr.who], step.fits)
    return [*out, A.A_DONE] if st.edition in step.optional_in else out


def _trash_of_type_answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    if kind != A.DONE:
        st.trash_from(fr.who, st.hands[fr.who], c)
        TRASH_OF_TYPE[fr.card].then(st, fr.who, fr.card, c)


asks(
    "trash_of_type",
    DecisionSpec(
        CHOOSE_CARDS, "*.trash", "Mine: trash a Treasure to upgrade it.", pick="trash {card}"
    ),
    _trash_of_type_options,
    _trash_of_type_answer,
)


class GainCostingMore:
    """The follow-up "gain a card costing up to $``more`` more than the trashed one"
    (and as many potions), by the card's :class:`GainRule` (Remodel: $2 more)."""

    def __init__(self, more: int) -> None:
        self.more = more

    def __call__(self, st: DominionState, p: int, card: int, c: int) -> None:
        ask_gain(st, p, card, COIN_COST[c] + self.more, POTION_COST[c])


def gain_costing_more(more: int) -> Then:
    """The follow-up "gain a card costing up to $``more`` more than the trashed one"."""
    return GainCostingMore(more)


class DrawPerCost:
    """The follow-up "+1 Card per $1 the trashed card costs, +``per_potion`` Cards if
    it costs a potion" (Apprentice: 2)."""

    def __init__(self, per_potion: int) -> None:
        self.per_potion = per_potion

    def __call__(self, st: DominionState, p: int, card: int, c: int) -> None:
        n = COIN_COST[c] + (self.per_potion if POTION_COST[c] else 0)
        if n:
            st.draw(p, n)


# -- reveal cards from the deck until enough are found (Adventurer, Scrying Pool, Golem) --
def reveal_until(
    st: DominionState, p: int, wanted: int, found_if: Callable[[int], bool]
) -> tuple[list[int], list[int], list[int]]:
    """Take cards from the top of ``p``'s deck (shuffling as needed) until ``wanted``
    cards for which ``found_if`` holds are found or none are left: ``(revealed, found,
    others)``, each in the order taken.  The cards are in none of ``p``'s zones yet."""
    revealed: list[int] = []
    found: list[int] = []
    others: list[int] = []
    while len(found) < wanted:
        c = st.take_top(p)
        if c < 0:
            break
        revealed.append(c)
        (found if found_if(c) else others).append(c)
    return revealed, found, others


class RevealUntil(Step):
    """Reveal cards from the deck until ``wanted`` cards for which ``found_if`` holds
    are revealed; they go to the hand, the other cards to the discard pile — or to the
    hand too with ``keep_all`` (Adventurer: 2 Treasures; Scrying Pool: a non-Action,
    all to the hand)."""

    def __init__(
        self, wanted: int, found_if: Callable[[int], bool], keep_all: bool = False
    ) -> None:
        self.wanted, self.found_if, self.keep_all = wanted, found_if, keep_all

    def run(self, st: DominionState, p: int, card: int) -> None:
        revealed, found, others = reveal_until(st, p, self.wanted, self.found_if)
        st.reveal(p, revealed)
        if self.keep_all:
            st.hands[p].extend(revealed)
            return
        st.hands[p].extend(found)
        aside = st.aside[p]
        aside.extend(others)
        for c in list(aside):
            st.discard_from(p, aside, c)


# -- each other player reveals their top 2 cards; a Treasure of them is trashed (Thief, Bandit)
def reveal_two_to_trash(st: DominionState, q: int, trashable: Callable[[int], bool]) -> list[int]:
    """Reveal the top 2 cards of ``q``'s deck into ``q``'s set-aside zone and return
    the distinct ones that may be trashed (in card order); with none, the revealed
    cards are discarded at once."""
    aside = st.aside[q]
    st.reveal_top(q, 2, aside)
    targets = sorted({c for c in aside if trashable(c)})
    if not targets:
        st.discard_all(q, aside)
    return targets


def trash_revealed(st: DominionState, q: int, c: int) -> None:
    """Trash ``c`` of ``q``'s revealed cards and discard the rest."""
    aside = st.aside[q]
    st.trash_from(q, aside, c)
    st.discard_all(q, aside)


TRASH_REVEALED: dict[int, EachOtherTrashesRevealed] = {}
"""Card index -> its :class:`EachOtherTrashesRevealed` step."""


class EachOtherTrashesRevealed(Step):
    """Each other player (not protected) reveals the top 2 cards of their deck and
    trashes one of the type ``only`` that is not ``spare`` (choosing which when
    they are of two kinds), discarding the rest (Bandit: a Treasure other than
    Copper).  ``by_you``: the player of the card chooses which, not the victim;
    ``may_gain``: then the player may gain any of the cards this play trashed, one at a
    time, to their discard pile (Thief: any Treasure, both)."""

    verb = "trash"

    def __init__(
        self, only: str, spare: str = "", by_you: bool = False, may_gain: bool = False
    ) -> None:
        self.only, self.spare = only, (BY_ID[spare] if spare else -1)
        self.by_you, self.may_gain = by_you, may_gain
        self.verbs: tuple[str, ...] = ("trash", "gain") if may_gain else ("trash",)
        """Every verb of the decisions it asks."""

    def bind(self, card: int) -> None:
        TRASH_REVEALED[card] = self

    def trashable(self, c: int) -> bool:
        return self.only in CARDS[c].types and c != self.spare

    def run(self, st: DominionState, p: int, card: int) -> None:
        from kingdoms.dominion.frames import Frame

        victims = [Frame("reveal_two_trash", p, card, q) for q in st.others(p) if not st.immune[q]]
        if self.may_gain:
            st.stolen.clear()
            victims.append(Frame("gain_trashed_ask", p, card))
        st.then(*victims)


def _reveal_two_trash(st: DominionState, fr: Frame) -> None:
    q = fr.a
    step = TRASH_REVEALED[fr.card]
    targets = reveal_two_to_trash(st, q, step.trashable)
    if len(targets) > 1:
        if step.by_you:
            st.push("trash_revealed", fr.who, fr.card, q)  # the player chooses
        else:
            st.push("victim_trash_revealed", q, fr.card, q)  # the victim chooses
    elif targets:
        _trash_revealed_by(st, fr.card, q, targets[0])


def _trash_revealed_by(st: DominionState, card: int, q: int, c: int) -> None:
    """Trash ``c`` of ``q``'s revealed cards for ``card``'s step (kept to be gained
    when the step lets the player gain them) and discard the rest."""
    trash_revealed(st, q, c)
    if TRASH_REVEALED[card].may_gain:
        st.stolen.append(c)


def _gain_trashed_ask(st: DominionState, fr: Frame) -> None:
    if st.stolen:
        st.push("gain_trashed", fr.who, fr.card)


def _gain_trashed(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    """Gain ``c``, one of the cards this play trashed, from the trash (``done``: none
    more); asked again while some are left."""
    p = fr.who
    if kind == A.DONE:
        st.stolen.clear()
        return
    st.trash.remove(c)
    st.stolen.remove(c)
    gainer = st.gainer(p)
    st.discards[gainer].append(c)
    st.owned_counts[gainer][c] += 1
    if st.logging:
        st._log("gain", p, card=CARDS[c].id, to="discard", source="trash")
    if st.stolen:
        st.push("gain_trashed", p, fr.card)


TASKS["reveal_two_trash"] = _reveal_two_trash
TASKS["gain_trashed_ask"] = _gain_trashed_ask
# the victim chooses (Bandit), or the player of the card (Thief): the same decision
for _code, _prompt in (
    ("victim_trash_revealed", "Bandit: choose the Treasure to trash."),
    ("trash_revealed", "Thief: trash one of the revealed Treasures."),
):
    asks(
        _code,
        DecisionSpec(
            CHOOSE_CARDS, "*.trash", _prompt, zone="set_aside", whose=3, pick="trash {card}"
        ),
        lambda st, fr: choices([c for c in st.aside[fr.a] if TRASH_REVEALED[fr.card].trashable(c)]),
        lambda st, fr, kind, c: _trash_revealed_by(st, fr.card, fr.a, c),
    )
asks(
    "gain_trashed",
    DecisionSpec(
        CHOOSE_CARDS,
        "*.gain",
        "Thief: gain the trashed Treasures?",
        zone="trash",
        pick="gain {card}",
    ),
    lambda st, fr: [*choices(st.stolen), A.A_DONE],
    _gain_trashed,
)
