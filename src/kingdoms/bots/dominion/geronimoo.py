"""Geronimoo's Dominion Simulator bot files (``DomBots.xml``) as strategy files.

That simulator describes each bot (``<player name=…>``) as buy rules (``<buy
name="Card">``) walked top-down, each with conditions (``<condition>``: a left
value, an ``<operator>``, a right value and an optional ``<extra_operation>`` on
the right value) that must all hold.  This module converts every bot whose cards
and conditions exist here, keeping each rule's meaning:

* ``getTotalMoney`` counts the coins of Treasures and the fixed +$ of Actions, as
  ``total_money`` does (Moneylender, counted as +$1 there, is added:
  ``total_money + count(Moneylender)``);
* ``countCardsLeftInDrawDeck`` counts the draw pile and the discard pile;
* the right value's extra operation (``plus``, ``minus``, ``multiplyWith``,
  ``divideBy``) applies before comparing; the operators are ``==``, ``<``, ``<=``,
  ``>``, ``>=``;
* that simulator skips a buy that would end the game while behind (or tied with
  more turns), exactly as every strategy here does (``guard``);
* it gains with Workshop, Feast and the like the first buy rule's card it may
  gain: the buy list becomes the ``*.gain`` list too;
* its pseudo-types ``Terminal``, ``Village``, ``Cycler``, ``Trasher`` are the roles
  of :mod:`kingdoms.bots.dominion.roles`; functions about tokens, mats and projects
  of other sets are the constant they always are in a game of these sets;
* a start state (``<start_state>``: the hand, draw deck and discard pile a bot
  begins with) becomes the file's ``start`` table (its cards beyond the usual 7
  Coppers and 3 Estates come from the supply, as there);
* how it plays the bot's cards (its Action order, Chapel's ``aggressiveTrashing``,
  Sentry, Thief, Spy, Cellar, Harbinger and Throne Room choices, ``AppliesPPR``) is
  written into the file as rules (:mod:`kingdoms.bots.dominion.geronimoo_play`).

A bot naming a card, a card type, a condition or a start-state card with no
equivalent here is not converted; :func:`convert` gives every reason.  Other play
strategies have no equivalent: such a bot is converted with a note.

>>> xml = '''<playerCollection><player name="BM"><buy name="Gold"/>
... <buy name="Silver"><condition><left type="countCardsInDeck" attribute="Silver"/>
... <operator type="smallerThan"/><right type="constant" attribute="3.0"/></condition></buy>
... </player></playerCollection>'''
>>> bot = convert(xml)[0]
>>> bot.toml.splitlines()[3:5]
['  "Gold",', '  "Silver if count(Silver) < 3",']
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass, field

from kingdoms.bots.dominion.geronimoo_play import play_style
from kingdoms.bots.dominion.lang import DISPLAY, StrategyError, card_id, parse_strategy

_COMPARATORS = {
    "equalTo": "==",
    "smallerThan": "<",
    "smallerOrEqualThan": "<=",
    "greaterThan": ">",
    "greaterOrEqualThan": ">=",
}
_OPERATORS = {"plus": "+", "minus": "-", "multiplyWith": "*", "divideBy": "/"}
_TYPES = {
    "Action": "Action",
    "Treasure": "Treasure",
    "Victory": "Victory",
    "Curse": "Curse",
    "Attack": "Attack",
    "Reaction": "Reaction",
    # that simulator's pseudo-types are the roles here (kingdoms.bots.dominion.roles);
    # "Village" alone names the card, its plural the role
    "Terminal": "Terminal",
    "Village": "Villages",
    "Cycler": "Cycler",
    "Trasher": "Trasher",
}
_ABSENT_TYPES = frozenset(
    {
        "Duration", "Looter", "Ruins", "Reserve", "Traveller", "Knight", "Shelter",
        "Gathering", "Castle", "Night", "Fate", "Heirloom", "Doom", "Spirit", "Zombie",
        "Prize", "Loot", "Liaison", "Omen", "Shadow",
    }
)  # fmt: skip
"""Official card types no card of these sets has: counting them always gives 0."""
_ABSENT = {
    "isPlusOneBuyTokenSet": "0",
    "isPlusOneCardTokenSet": "0",
    "isPlusOneActionTokenSet": "0",
    "isPlusOneCoinTokenSet": "0",
    "isMinus$2TokenSet": "0",
    "isEstateTokenPlaced": "0",
    "isTrashingTokenPlaced": "0",
    "isSwampHagActive": "0",
    "isTravellingFairActive": "0",
    "countOnTavernMat": "0",
    "tokensOnDefiledShrine": "0",
    "tokensOnBaths": "0",
    "tokensOnTemple": "0",
    "countVPon": "0",
    "countVillagers": "0",
    "hasFlag": "0",
    "hasBuiltProject": "0",
    "hasInvestedAlready": "0",
    "hasBoughtRush": "0",
    "countCardsInExile": "0",
    "doesNotSpendCoffers": "1",
}
"""Functions about tokens, mats, events and projects of other sets: in a game of these
sets they always give the same value (no token is ever placed, no mat ever used)."""
_PLAIN = {
    "countAllCardsInDeck": "deck_size",
    "countAvailableMoney": "coins",
    "countTurns": "turn",
    "gainsNeededToEndGame": "gains_to_end",
    "isActionPhase": "action_phase",
    "countBuysLeft": "buys",
    "actionsLeft": "actions",
    "countVP": "vp",
    "countMAXOpponentVP": "opp_vp",
    "countCardsLeftInDrawDeck": "(draw_pile_size + discard_size)",
    "countEmptyPiles": "empty_piles",
}
"""Functions of no argument -> the condition text here."""
_BY_CARD = {
    "countCardsInDeck": "count",
    "countCardsInDeckNoMats": "count",
    "countCardsInSupply": "left",
    "countCardsInPlay": "in_play",
    "countCardsInHand": "in_hand",
}
_TWO_PLAYER = {
    "countCardsInOpponentsDecks": "opp_count",
    "countAllCardsInOpponentsDeck": "opponents_max(deck_size)",
}
"""Functions about the opponents: summed (or the first opponent's) there, the most
any opponent has here — the same in two-player games."""


_PLAY_STRATEGIES: dict[str, tuple[str, ...]] = {"chapel": ("aggressiveTrashing",)}
"""Per-card play strategies of that simulator that the play rules here follow."""


class Unsupported(Exception):
    """A part of a bot with no equivalent here."""


@dataclass(slots=True)
class Converted:
    """One bot of the file: its strategy file text, or why it has none."""

    name: str
    toml: str | None
    reason: str | None = None
    """Every reason it is not converted, joined by ``; `` (None: converted)."""
    notes: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    """Every reason it is not converted, one per card, type or function missing here."""

    @property
    def slug(self) -> str:
        return re.sub(r"[^a-z0-9]+", "-", self.name.lower()).strip("-") or "bot"


def _card(name: str | None) -> str:
    cid = card_id(name or "")
    if cid is None:
        raise Unsupported(f"the card {name!r} does not exist here")
    return cid


def _number(text: str | None) -> str:
    try:
        value = float(text or "0")
    except ValueError:
        raise Unsupported(f"a condition's value {text!r} is not a number") from None
    return str(int(value)) if value == int(value) else repr(value)


def _note(notes: list[str], note: str) -> None:
    if note not in notes:
        notes.append(note)


def _side(node: ET.Element | None, money: str, notes: list[str]) -> str:
    """One side of a condition as text here."""
    if node is None:
        raise Unsupported("a condition lacks a side")
    kind = node.get("type", "")
    attr = node.get("attribute")
    if kind == "constant":
        return _number(attr)
    if kind in ("getTotalMoney", "getTotalMoneyExcludingMats"):
        return money
    if kind in _PLAIN:
        return _PLAIN[kind]
    if kind in _BY_CARD:
        return f"{_BY_CARD[kind]}({DISPLAY[_card(attr)]})"
    if kind in _ABSENT:
        _note(notes, f"{kind} is always {_ABSENT[kind]} in a game of these sets")
        return _ABSENT[kind]
    if kind == "countCardTypeInDeck":
        t = _TYPES.get(attr or "")
        if t is None and attr in _ABSENT_TYPES:
            _note(notes, f"no card here is a {attr}: counting them gives 0")
            return "0"
        if t is None:
            raise Unsupported(f"the card type {attr!r} has no equivalent here")
        return f"count({t})"
    if kind in _TWO_PLAYER:
        note = f"{kind} reads the most any opponent has (as in two-player games)"
        if note not in notes:
            notes.append(note)
        if kind == "countCardsInOpponentsDecks":
            return f"opp_count({DISPLAY[_card(attr)]})"
        return _TWO_PLAYER[kind]
    raise Unsupported(f"the condition function {kind!r} has no equivalent here")


def _condition(node: ET.Element, money: str, notes: list[str]) -> str:
    """One condition as text here; :class:`Unsupported` with every missing part."""
    missing: list[str] = []

    def part(fn: Callable[[], str]) -> str:
        try:
            return fn()
        except Unsupported as err:
            missing.append(str(err))
            return "0"

    left = part(lambda: _side(node.find("left"), money, notes))
    op = node.find("operator")
    comparator = _COMPARATORS.get(op.get("type", "") if op is not None else "")
    if comparator is None:
        missing.append(f"the operator {op.get('type') if op is not None else None!r} is unknown")
    right = part(lambda: _side(node.find("right"), money, notes))
    extra = node.find("extra_operation")
    if extra is not None:
        operator = _OPERATORS.get(extra.get("type", ""))
        if operator is None:
            missing.append(f"the extra operation {extra.get('type')!r} is unknown")
        else:
            amount = part(lambda: _number(extra.get("attribute")))
            if not (operator in "+-" and float(amount) == 0):
                right = f"({right} {operator} {amount})"
    if missing:
        raise Unsupported(*missing)
    return f"{left} {comparator} {right}"


_START_ZONES = {"hand": "hand", "drawdeck": "deck", "discard": "discard"}
"""A start state's zones there -> the ``start`` table's keys here."""


def _contents(text: str) -> list[str]:
    """A start state's zone (``"Potion, 2 Estate, 3 Copper"``: listed top card
    first) as card names, one per card."""
    out: list[str] = []
    missing: list[str] = []
    for part in re.split(r",| and ", text):
        m = re.fullmatch(r"\s*(\d*)\s*(.*?)\s*", part)
        if m is None or not m.group(2):
            continue
        try:
            card = DISPLAY[_card(m.group(2))]
        except Unsupported as err:
            missing += [str(why) for why in err.args]
            continue
        out += [card] * int(m.group(1) or 1)
    if missing:
        raise Unsupported(*missing)
    return out


def _cards_list(cards: list[str]) -> str:
    return "[" + ", ".join(_quote(c) for c in cards) + "]"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _bot(player: ET.Element) -> Converted:
    name = player.get("name") or "bot"
    notes: list[str] = []
    rules = player.findall("buy")
    named = [r.get("name") for r in rules]
    money = "total_money"
    if any(card_id(n or "") == "moneylender" for n in named):
        money = "(total_money + count(Moneylender))"  # Moneylender counts +$1 there
    entries: list[str] = []
    pairs: list[tuple[str, str | None]] = []
    strategies: dict[str, str] = {}
    reasons: list[str] = []

    def refuse(err: Unsupported) -> None:
        for why in err.args:
            if str(why) not in reasons:
                reasons.append(str(why))

    if not rules:
        reasons.append("it has no buy rules")
    for rule in rules:
        card = ""
        try:
            card = DISPLAY[_card(rule.get("name"))]
        except Unsupported as err:
            refuse(err)
        strategy = rule.get("strategy")
        if card and strategy and strategy != "standard":
            strategies[_card(card)] = strategy
            if strategy not in _PLAY_STRATEGIES.get(_card(card), ()):
                note = f"{card}'s play strategy {strategy!r} has no equivalent: standard play"
                _note(notes, note)
        if rule.get("bane"):
            notes.append(f"{card or rule.get('name')}'s bane {rule.get('bane')!r} is ignored")
        conditions: list[str] = []
        for c in rule.findall("condition"):
            try:
                conditions.append(_condition(c, money, notes))
            except Unsupported as err:
                refuse(err)
        entries.append(card if not conditions else f"{card} if {' and '.join(conditions)}")
        if card:
            pairs.append((_card(card), " and ".join(conditions) if conditions else None))
    start_zones: dict[str, list[str]] = {}
    shuffled = True
    start = player.find("start_state")
    if start is not None:
        for zone in start:
            key = _START_ZONES.get(zone.tag)
            if key is None:
                refuse(Unsupported(f"its start state's {zone.tag!r} has no equivalent"))
                continue
            if zone.tag == "drawdeck":
                shuffled = (zone.get("shuffle") or "true") == "true"
            try:
                start_zones[key] = _contents(zone.get("contents") or "")
            except Unsupported as err:
                refuse(Unsupported(*(f"its start state: {why}" for why in err.args)))
    if reasons:
        return Converted(name, None, "; ".join(reasons), reasons=reasons)
    types = [t.get("name") for t in player.findall("type")]
    style = play_style(pairs, strategies, "AppliesPPR" in types)
    notes += [n for n in style.notes if n not in notes]
    kingdom: list[str] = []
    board = player.find("board")
    if board is not None and board.get("contents"):
        ids = [card_id(c) for c in board.get("contents", "").split(",") if c.strip()]
        if ids and all(c is not None for c in ids):
            kingdom = [DISPLAY[c] for c in ids if c is not None]
        else:
            notes.append("its board has cards that do not exist here: no kingdom given")
    lines = [f"name = {_quote(name)}"]
    description = (player.get("description") or "").strip()
    author = (player.get("author") or "").strip()
    about = f"Imported from Geronimoo's Dominion Simulator bot {name!r}"
    if author:
        about += f" by {author}"
    lines.append(f"description = {_quote(about + ('. ' + description if description else '.'))}")
    if style.ppr:
        lines.append("# that simulator's penultimate Province rule (AppliesPPR)")
        lines.append("penultimate_province = true")
    if kingdom and len(kingdom) <= 10:
        lines.append(f"kingdom = [{', '.join(_quote(c) for c in kingdom)}]")
    lines.append("buy = [")
    lines += [f"  {_quote(e)}," for e in entries]
    lines.append("]")
    if style.play:
        lines.append("# its Actions in the order that simulator plays them")
        lines.append("play = [")
        lines += [f"  {_quote(e)}," for e in style.play]
        lines.append("]")
    if style.styles:
        lines += [
            "",
            "# cards played by a named play style, as that simulator plays them",
            "[styles]",
        ]
        lines += [f"{c} = {_quote(v)}" for c, v in style.styles.items()]
    if start is not None:
        lines += ["", "# its start state: the seat's cards when the game begins", "[start]"]
        if start_zones.get("hand"):  # none: five cards drawn, as there
            lines.append(f"hand = {_cards_list(start_zones['hand'])}")
        lines.append(f"deck = {_cards_list(start_zones.get('deck', []))}")
        lines.append(f"shuffle = {str(shuffled).lower()}")
        if start_zones.get("discard"):
            lines.append(f"discard = {_cards_list(start_zones['discard'])}")
    lines += [
        "",
        "[decisions]",
        "# gains (Workshop, Feast…) follow the buy rules, as there",
        '"*.gain" = [',
    ]
    lines += [f"  {_quote(e)}," for e in entries]
    lines += ["]"]
    if style.decisions:
        lines.append("# its cards' choices as that simulator makes them")
    for purpose, listed in style.decisions.items():
        lines.append(f"{_quote(purpose)} = [")
        lines += [f"  {_quote(e)}," for e in listed]
        lines.append("]")
    lines.append("")
    toml = "\n".join(lines)
    try:
        parse_strategy(toml, name)
    except StrategyError as err:  # pragma: no cover - every part was checked above
        why = f"its conversion does not parse: {err}"
        return Converted(name, None, why, reasons=[why])
    return Converted(name, toml, None, notes)


def convert(xml: str) -> list[Converted]:
    """Every bot of a ``DomBots.xml`` text, converted or with the reason it is not."""
    try:
        root = ET.fromstring(xml)
    except ET.ParseError as err:
        raise StrategyError(f"not a bot file: {err}") from None
    players = [root] if root.tag == "player" else list(root.iter("player"))
    if not players:
        raise StrategyError(
            f"not a bot file: no <player> element (a DomBots.xml holds one per bot; "
            f"this one's root is <{root.tag}>)"
        )
    return [_bot(p) for p in players]
