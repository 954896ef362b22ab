"""Bots as people read them: a name and a one-line description per bot, as msgids of
the interface catalogs (``kingdoms/i18n/locale``), and the name every seat goes by.

The browser's ``js/bots.js`` holds the same tables (a test keeps them equal): the
players panel, the log, the end screen, the review and the exports all call a seat
the same.  A seat nobody named is its bot's name (a human's: "Player n"); when
names repeat, each copy gets its number among them ("Greedy 1", "Greedy 2").

>>> display_names([{"kind": "bot", "bot": "greedy", "name": "Player 1"},
...                {"kind": "bot", "bot": "greedy", "name": "Player 2"},
...                {"kind": "human", "name": "Player 3"}], "en")
['Greedy 1', 'Greedy 2', 'Player 3']
>>> display_names([{"kind": "bot", "bot": "witch", "name": "Player 1"},
...                {"kind": "human", "name": "Ala"}], "pl")
['Bogactwo z Wiedźmą', 'Ala']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final

from kingdoms.i18n import translator

BOT_LABELS: Final[dict[str, str]] = {
    "big-money": "Big Money",
    "big-money-ultimate": "Big Money, best version",
    "smithy": "Smithy Big Money",
    "witch": "Witch Big Money",
    "militia": "Militia Big Money",
    "moat": "Moat Big Money",
    "adventurer": "Adventurer Big Money",
    "bureaucrat": "Bureaucrat Big Money",
    "chancellor": "Chancellor Big Money",
    "council-room": "Council Room Big Money",
    "festival": "Festival Big Money",
    "laboratory": "Laboratory Big Money",
    "familiar": "Familiar Big Money",
    "herbalist": "Herbalist Big Money",
    "chapel-lab": "Chapel and Laboratory engine",
    "chapel-lab-militia": "Chapel and Laboratory engine with Militia",
    "village-smithy": "Village and Smithy engine",
    "throne-room-smithy": "Throne Room and Smithy",
    "witch-lab": "Witch and Laboratories",
    "familiar-lab": "Familiar and Laboratories",
    "workshop-gardens": "Workshop and Gardens rush",
    "bureaucrat-gardens": "Bureaucrat and Gardens",
    "default": "Basic policy",
    "random": "Random moves",
    "greedy": "Greedy",
    "full-greedy": "Greedy, looking ahead",
    "planning-greedy": "Greedy, planning its placements",
    "mcts": "Tree search (MCTS)",
    "best": "Strongest: searching every move",
    "best:strong": "Strongest, thinking longer",
    "learned": "Learned network",
}
"""Bot name (before any ``:options``) → its label's msgid."""

BOT_ABOUT: Final[dict[str, str]] = {
    "big-money": "Buys only Gold, Silver and Provinces: simple and steady.",
    "big-money-ultimate": "Big Money with the best-known refinements (Duchies late, Smithy).",
    "smithy": "Big Money with about one Smithy per 11 Treasures.",
    "witch": "Big Money with two Witches.",
    "militia": "Big Money with up to three Militias.",
    "moat": "Big Money with up to two Moats.",
    "adventurer": "Big Money with one Adventurer once it has Gold.",
    "bureaucrat": "Big Money with about one Bureaucrat per 20 Treasures.",
    "chancellor": "Big Money with about one Chancellor per 19 Treasures.",
    "council-room": "Big Money with about one Council Room per 13 coins of money.",
    "festival": "Big Money with Festivals.",
    "laboratory": "Big Money with Laboratories.",
    "familiar": "Big Money with Familiars and one Potion.",
    "herbalist": "Big Money with a Herbalist per Silver beyond eight.",
    "chapel-lab": "Trashes its Estates and Coppers with a Chapel, then buys Laboratories and Gold.",
    "chapel-lab-militia": (
        "Trashes with a Chapel, buys Laboratories and Gold, and attacks with one Militia."
    ),
    "village-smithy": (
        "Two Smithies early, then a Village for each further Smithy, Gold and Provinces."
    ),
    "throne-room-smithy": "Smithies, and a Throne Room only when it has an Action to double.",
    "witch-lab": "Two Witches to hand out Curses, Laboratories to find them, then Big Money.",
    "familiar-lab": (
        "Familiars on one Potion with Laboratories and Gold: Curses out fast, then Provinces."
    ),
    "workshop-gardens": (
        "Workshops, then Gardens and Estates, to end the game on three empty piles."
    ),
    "bureaucrat-gardens": (
        "Bureaucrats gain Silvers and slow the others; Gardens, Duchies and Estates to finish."
    ),
    "default": "The policy every strategy falls back to: buys like Big Money.",
    "random": "Chooses among the legal moves at random.",
    "greedy": "Takes the move that scores most now.",
    "full-greedy": "Takes the move that scores most, looking one step further.",
    "planning-greedy": "Picks and places to keep its best future placements open.",
    "mcts": "Plays many games ahead in its head and picks what wins most often (slow, strong).",
    "best": (
        "The strongest level: plays each move ahead many times from what it can see,"
        " guided by the best plan for the kingdom."
    ),
    "best:strong": "The strongest level with ten times the thinking per move, for analysis.",
    "learned": "A neural network trained across random kingdoms decides every move (quick).",
}
"""Bot name → its one-line description's msgid."""

DEFAULT_BOTS: Final[dict[str, str]] = {
    "dominion": "big-money-ultimate",
    "kingdomino": "planning-greedy",
}
"""The lobby's preselected bot per game: the strongest bot that answers at once (the
strongest bundled strategy for any kingdom in Dominion; in Kingdomino the planning
greedy bot, MCTS being stronger but taking a second a move)."""


def bot_key(spec: str) -> str:
    """A bot spec's name: ``"mcts:time=1"`` → ``"mcts"``."""
    return spec.partition(":")[0].strip()


def label_key(spec: str) -> str:
    """The key of a bot spec's name and description: its name, with its level where
    that level has its own (``"best:strong,many=on"`` and ``"best:level=strong"`` →
    ``"best:strong"``; ``"mcts:time=1"`` → ``"mcts"``)."""
    name = bot_key(spec)
    level = ""
    for i, part in enumerate(spec.partition(":")[2].split(",")):
        key, eq, value = (p.strip() for p in part.partition("="))
        if (i == 0 and not eq) or key == "level":
            level = value if eq else key
    leveled = f"{name}:{level}"
    return leveled if leveled in BOT_LABELS else name


def bot_label(spec: str, lang: str = "en") -> str:
    """A bot's name in ``lang`` ("big-money" → "Big Money"; unknown: "Some Bot")."""
    key = label_key(spec)
    if key in BOT_LABELS:
        return translator(lang)(BOT_LABELS[key])
    if key.startswith("bmu+"):
        return translator(lang)("Big Money Ultimate") + " + " + key[4:]
    return " ".join(w[:1].upper() + w[1:] for w in key.replace("_", "-").split("-") if w)


def default_name(index: int) -> str:
    """The name stored for a seat nobody named."""
    return f"Player {index + 1}"


def display_names(seats: Sequence[Mapping[str, Any]], lang: str = "en") -> list[str]:
    """The name each seat goes by in ``lang`` (see the module docstring)."""
    base: list[str] = []
    for i, seat in enumerate(seats):
        name = seat.get("name")
        if isinstance(name, str) and name and name != default_name(i):
            base.append(name)
        elif seat.get("kind") == "bot" and isinstance(seat.get("bot"), str):
            base.append(bot_label(seat["bot"], lang))
        else:
            base.append(translator(lang)("Player {n}").format(n=i + 1))
    counts = Counter(base)
    seen: Counter[str] = Counter()
    out = []
    for name in base:
        if counts[name] > 1:
            seen[name] += 1
            out.append(f"{name} {seen[name]}")
        else:
            out.append(name)
    return out


__all__ = [
    "BOT_ABOUT",
    "BOT_LABELS",
    "DEFAULT_BOTS",
    "bot_label",
    "default_name",
    "display_names",
    "label_key",
]
