"""How Geronimoo's Dominion Simulator plays the cards of an imported bot, as rules.

That simulator plays every bot's cards by per-card logic (which Action first, what
Chapel trashes, what Sentry keeps, what Thief takes…), much of it reading the bot's
own buy rules ("does this bot want this card now?").  :func:`play_style` writes the
equivalent entries of a strategy file for the cards a bot uses: its ``play`` list
and the ``[decisions]`` where that play differs from the default policy here.  Every
rule is plain strategy language, so an imported file shows (and lets one edit) how
it plays.

``wants(card)`` there — a buy rule for the card whose conditions hold now — is
written out here as the buy rules' own conditions joined by ``or``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from kingdoms.bots.dominion.lang import DISPLAY
from kingdoms.bots.dominion.roles import ROLES
from kingdoms.bots.dominion.styles import value_rank

_JUNK = "(in_hand(Curse) + in_hand(Victory) + in_hand(Copper))"

# The order Actions are played in, one entry per card (or per card and condition):
# +Actions and cantrips first (they cost no Action), terminal draw when Actions are to
# spare, then the terminals, strongest effect first: cursers, draw-to-X, trashers
# that gain, plain draw, +$, attacks, gainers last.  ``{junk}`` is the count of
# Curses, Victory cards and Coppers in hand.
_PLAY_ORDER: tuple[tuple[str, str | None], ...] = (
    ("sentry", None),
    ("festival", None),
    ("harbinger", None),
    ("spy", None),
    ("university", None),
    ("village", None),
    ("smithy", "actions > 1"),
    ("council_room", "actions > 1 and (draw_pile_size + discard_size) > 0"),
    ("merchant", None),
    ("scrying_pool", None),
    ("throne_room", None),
    ("laboratory", None),
    ("alchemist", None),
    ("poacher", None),
    ("market", None),
    ("familiar", None),
    ("cellar", None),
    ("chapel", "@aggressive"),
    ("golem", None),
    ("witch", "left(Curse) > 0"),
    ("apothecary", None),
    ("apprentice", None),
    ("library", None),
    ("adventurer", None),
    ("possession", None),
    ("bandit", None),
    ("moneylender", None),
    ("mine", None),
    ("remodel", None),
    ("council_room", None),
    ("smithy", None),
    ("vassal", None),
    ("feast", None),
    ("bureaucrat", None),
    ("woodcutter", None),
    ("artisan", None),
    ("chancellor", None),
    ("militia", None),
    ("thief", None),
    ("witch", None),
    ("moat", None),
    ("transmute", None),
    ("chapel", "@chapel"),
    ("workshop", None),
    ("herbalist", None),
)

_THRONE_ORDER = ("possession", "witch", "laboratory", "golem", "familiar", "adventurer",
                 "alchemist", "scrying_pool", "poacher", "market", "library", "council_room",
                 "artisan", "festival", "university", "militia", "apothecary", "smithy",
                 "vassal", "moat", "bandit", "workshop", "spy", "sentry", "mine", "feast",
                 "village", "moneylender", "herbalist", "woodcutter", "thief", "chancellor",
                 "bureaucrat", "transmute", "merchant", "apprentice", "remodel", "chapel",
                 "cellar", "harbinger")  # fmt: skip
"""The card Throne Room plays twice: the most valuable Action in hand (a terminal only
with an Action left for it, or when every Action in hand is one)."""

_KEEP_ON_DISCARD = ("Curse", "Victory", "Copper", "Silver", "Harbinger", "Cellar", "Chapel",
                    "Remodel", "Apprentice", "Merchant", "Transmute", "Bureaucrat",
                    "Chancellor", "Thief", "Woodcutter")  # fmt: skip
"""What Sentry discards rather than puts back: junk, Silver, and the Actions that
simulator ranks no better than Silver to draw."""


VASSAL_FIRST: Final = "known_top(Action) > 0 and (known_top(Terminal) == 0 or actions > 1)"
"""When that simulator plays Vassal before every other Action."""


@dataclass(slots=True)
class Style:
    """The entries an imported bot gets for how it plays."""

    play: list[str] = field(default_factory=list)
    decisions: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    ppr: bool = False
    """Whether the file applies the penultimate Province rule (``penultimate_province``)."""
    styles: dict[str, str] = field(default_factory=dict)
    """Card id -> its named play style (``[styles]``, :mod:`kingdoms.bots.dominion.styles`)."""


def wants(card: str, rules: Sequence[tuple[str, str | None]]) -> str | None:
    """The condition under which the buy rules want ``card`` now: None when a rule for
    it always applies, ``"0 == 1"`` when none names it."""
    conds = [cond for c, cond in rules if c == card]
    if not conds:
        return "0 == 1"
    if any(c is None for c in conds):
        return None
    if len(conds) == 1:
        return conds[0]
    return " or ".join(f"({c})" for c in conds)


def _unless_wanted(card: str, rules: Sequence[tuple[str, str | None]]) -> str | None:
    """An entry naming ``card`` unless the buy rules want it now."""
    w = wants(card, rules)
    if w is None:
        return None
    if w == "0 == 1":
        return DISPLAY[card]
    return f"{DISPLAY[card]} if not ({w})"


def play_style(
    rules: Sequence[tuple[str, str | None]],
    strategies: Mapping[str, str],
    ppr: bool,
) -> Style:
    """The play of a bot whose buy rules are ``rules`` (card id, condition or None),
    with the play strategies its buy rules name (card id -> strategy) and whether it
    applies the penultimate Province rule."""
    style = Style()
    cards = {c for c, _ in rules}
    aggressive = strategies.get("chapel") == "aggressiveTrashing"
    least = 4 if aggressive else 6
    if "vassal" in cards:
        # first when the top card is known (put back by Sentry or Harbinger) to be
        # an Action Vassal can play: a non-terminal, or a terminal with Actions to spare
        style.play.append(f"{DISPLAY['vassal']} if {VASSAL_FIRST}")
    for card, cond in _PLAY_ORDER:
        if card not in cards:
            continue
        name = DISPLAY[card]
        if cond == "@aggressive":
            if aggressive:
                style.play.append(f"{name} if actions == 1 and {_JUNK} > 1")
            continue
        if cond == "@chapel":
            style.play.append(
                f"{name} if in_hand(Curse) + in_hand(Estate) > 0 or "
                f"(in_hand(Copper) > 0 and total_money - 1 >= {least})"
            )
            continue
        style.play.append(name if cond is None else f"{name} if {cond}")
    if "chapel" in cards:
        trash = ["Curse"]
        for c in ("duchy", "estate", "gardens"):
            e = _unless_wanted(c, rules)
            if e is not None:
                trash.append(e)
        trash += [f"Copper if total_money - 1 >= {least}", "done"]
        style.decisions["chapel.trash"] = trash
        if strategies.get("chapel") not in (None, "standard", "aggressiveTrashing"):
            style.notes.append(f"Chapel's play strategy {strategies['chapel']!r}: standard play")
    if "sentry" in cards:
        trash = ["Curse"]
        for c in ("duchy", "estate", "gardens"):
            e = _unless_wanted(c, rules)
            if e is not None:
                trash.append(e)
        trash += ["Copper", "done"]
        style.decisions["sentry.trash"] = trash
        style.decisions["sentry.discard"] = [*_KEEP_ON_DISCARD, "done"]
    junk = "(is(card, Curse) or is(card, Victory) or is(card, Copper))"
    if "harbinger" in cards:  # the best card of the discard pile, if better than Copper
        style.decisions["harbinger.topdeck"] = [f"costliest any if not {junk}", "done"]
    if "cellar" in cards:  # excess terminals, other Cellars, then what is no better than Silver
        excess = "in_hand(Terminal) > actions"
        terminals = sorted(
            (c for c in cards if "terminal" in ROLES.get(c, ())), key=lambda c: (value_rank(c), c)
        )  # the least valued terminal goes first
        style.decisions["cellar.discard"] = [
            *(f"{DISPLAY[c]} if {excess}" for c in terminals),
            f"Terminal if {excess}",
            "Cellar",
            *_KEEP_ON_DISCARD,
            "done",
        ]
    if "throne_room" in cards:
        pick = []
        for c in _THRONE_ORDER:
            if c in cards:
                terminal = "terminal" in ROLES.get(c, ())
                when = " if actions > 0 or in_hand(Terminal) == in_hand(Action)"
                pick.append(DISPLAY[c] + (when if terminal else ""))
        style.decisions["throne_room.play"] = pick
    if "thief" in cards:
        take = ["Gold", "Philosopher's Stone", "Potion", "Silver", "any"]
        style.decisions["thief.trash"] = take
        gain = []
        for t in ("gold", "philosophers_stone", "potion", "silver", "copper"):
            w = wants(t, rules)
            if w is None:
                gain.append(DISPLAY[t])
            elif w != "0 == 1":
                gain.append(f"{DISPLAY[t]} if {w}")
        style.decisions["thief.gain"] = [*gain, "done"]
    if "spy" in cards:
        spy = [f"yes if about_me and {junk}", "no if about_me", f"no if {junk}"]
        if "thief" in cards:
            spy.append(
                "no if in_hand(Thief) > 0 and (is(card, Silver) or is(card, Gold) "
                "or is(card, Potion) or is(card, Philosopher's Stone))"
            )
        style.decisions["spy.discard"] = [*spy, "yes"]
    if "remodel" in cards:
        # Remodel upgrades what the buy rules would gain at a card's cost + $2, and is
        # played only when that beats the card (a style: no plain rule can ask that)
        style.styles["remodel"] = "upgrade"
    if "mine" in cards:
        # Mine upgrades the Treasure whose buy-rule Treasure at cost + $3 ranks first
        # in the buy rules, and is played only when there is one
        style.styles["mine"] = "upgrade"
    style.ppr = ppr
    return style
