"""What a simulation was played on, for its reports: the game's setup (Dominion: the
kingdom, or "random per game, from sets …"), the seed, the bots' labels, and notes
on bots whose rules name cards the games did not have.

>>> describe_setup("dominion", {"kingdom": "First Game"}, 2)["text"][:33]
'kingdom: Cellar, Market, Militia,'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from kingdoms.bots.base import make_bot
from kingdoms.core.errors import InvalidConfig
from kingdoms.core.registry import get_game

_BASIC = frozenset({"copper", "silver", "gold", "estate", "duchy", "province", "curse", "potion"})


def _names(cards: Sequence[str]) -> str:
    from kingdoms.dominion.data import BY_ID, CARDS

    return ", ".join(CARDS[BY_ID[c]].names.get("en", c) if c in BY_ID else c for c in cards)


def describe_setup(game: str, options: Mapping[str, Any], players: int) -> dict[str, Any]:
    """The setup every game of a run shares, with a one-line ``text``."""
    if game != "dominion":
        shown = ", ".join(f"{k}={v}" for k, v in sorted(options.items()))
        return {"text": f"options: {shown}" if shown else "default options"}
    from kingdoms.dominion.kingdom import _named, fixed_kingdom

    opts = get_game(game).config(players, 0, options).options
    value = options.get("kingdom")
    if fixed_kingdom(value):
        cards = list(opts["kingdom"])
        name = f" ({value})" if isinstance(value, str) and "," not in value else ""
        return {"kingdom": cards, "text": f"kingdom: {_names(cards)}{name}"}
    sets = list(opts["sets"])
    text = f"random per game, from sets {', '.join(sets)}"
    named = _named(value) or []
    from kingdoms.bots.dominion.lang import card_id

    required = [c for c in (card_id(n) for n in named) if c is not None]
    if required:
        text += f", always with {_names(required)}"
    out: dict[str, Any] = {"kingdom": "random", "sets": sets, "text": text}
    if required:
        out["required"] = required
    return out


def bot_label(game: str, spec: str) -> str:
    """How reports name a bot: a strategy file by its ``name``, any other by its spec."""
    from kingdoms.bots.base import STRATEGY_SUFFIXES

    if spec.endswith(STRATEGY_SUFFIXES):
        name = getattr(make_bot(game, spec, files=True), "name", None)
        if isinstance(name, str) and name:
            return name
    return spec


def labels(game: str, specs: Sequence[str]) -> list[str]:
    """:func:`bot_label` of every spec; where different bots would get the same label
    (two files named alike, or a file named as a bundled bot), each file's label also
    names its file, so no table shows two bots under one name (one spec given twice
    keeps one label: the same bot).

    >>> labels("dominion", ["smithy", "big-money"])
    ['smithy', 'big-money']
    """
    return distinct([bot_label(game, spec) for spec in specs], specs)


def distinct(names: Sequence[str], specs: Sequence[str]) -> list[str]:
    """``names`` (the labels of ``specs``) with each file's label followed by its file
    where different specs share a label (case aside).

    >>> distinct(["Smithy", "smithy", "Smithy"], ["a/s.toml", "smithy", "b/m.toml"])
    ['Smithy (s.toml)', 'smithy', 'Smithy (m.toml)']
    """
    specs_of: dict[str, set[str]] = {}
    for name, spec in zip(names, specs, strict=True):
        specs_of.setdefault(name.casefold(), set()).add(spec)
    out = []
    for name, spec in zip(names, specs, strict=True):
        if len(specs_of[name.casefold()]) > 1 and name != spec:
            same_file = [s for s in specs_of[name.casefold()] if Path(s).name == Path(spec).name]
            out.append(f"{name} ({spec if len(same_file) > 1 else Path(spec).name})")
        else:
            out.append(name)
    return out


def file_kingdom(game: str, specs: Sequence[str]) -> tuple[list[str], str] | None:
    """The kingdom a bot's strategy file names (the first file that names one) and that
    bot's label; None: no file names one (or not Dominion)."""
    named = file_kingdoms(game, specs)
    return named[0] if named else None


def file_kingdoms(game: str, specs: Sequence[str]) -> list[tuple[list[str], str]]:
    """Every kingdom the bots' strategy files name, with the bot's label, in the order
    of ``specs`` (none for other games)."""
    if game != "dominion":
        return []
    out: list[tuple[list[str], str]] = []
    for spec in specs:
        strategy = getattr(make_bot(game, spec, files=True), "strategy", None)
        cards = list(getattr(strategy, "kingdom", ()) or ())
        if cards:
            out.append((cards, bot_label(game, spec)))
    return out


def kingdom_note(
    game: str, options: Mapping[str, Any], specs: Sequence[str]
) -> tuple[dict[str, Any], list[str]]:
    """``options`` with the kingdom of the first bot file that names one when they give
    none (how ``sim`` honours a file's ``kingdom``), and what to tell the user: whose
    kingdom is played, and the files whose own kingdom is not."""
    named = file_kingdoms(game, specs)
    if not named:
        return dict(options), []
    given = options.get("kingdom")
    if given is not None:
        from kingdoms.bots.dominion.vocabulary import card_id
        from kingdoms.dominion.kingdom import _named, set_kingdom

        ids = set(set_kingdom(given) or (card_id(n) for n in _named(given) or ()))
        who = [label for cards, label in named if {card_id(c) for c in cards} != ids]
        if not who:
            return dict(options), []
        return dict(options), [
            f"--kingdom given: the kingdom named in {', '.join(who)}'s strategy file not used"
        ]
    cards, label = named[0]
    notes = [f"kingdom from {label}'s strategy file"]
    from kingdoms.dominion.kingdom import RECOMMENDED

    # a recommended set's cards: played under its name, which the reports then show
    value: list[str] | str = cards
    for names, set_cards in RECOMMENDED.items():
        if sorted(set_cards) == sorted(cards):
            value = names[0]
            break
    notes += [
        f"{other}'s strategy file names another kingdom, not used (--kingdom chooses)"
        for kingdom, other in named[1:]
        if sorted(kingdom) != sorted(cards)
    ]
    return {**options, "kingdom": value}, notes


def bot_cards(game: str, spec: str) -> list[str]:
    """The kingdom cards a bot's rules buy or play (none for bots without rules)."""
    if game != "dominion":
        return []
    bot = make_bot(game, spec, files=True)
    named = getattr(bot, "named_cards", None)
    if named is None:
        return []
    return [c for c in named() if c not in _BASIC]


def require_cards(
    game: str, options: Mapping[str, Any], specs: Sequence[str], players: int
) -> dict[str, Any]:
    """``options`` whose random kingdoms hold every kingdom card the bots name
    (``--require-cards``); an error when a fixed kingdom lacks one or they are
    more than 10."""
    if game != "dominion":
        raise InvalidConfig("--require-cards is for Dominion kingdoms")
    from kingdoms.dominion.kingdom import _named, fixed_kingdom

    wanted: list[str] = []
    for spec in specs:
        wanted += [c for c in bot_cards(game, spec) if c not in wanted]
    value = options.get("kingdom")
    if fixed_kingdom(value):
        have = set(get_game(game).config(players, 0, options).options["kingdom"])
        missing = [c for c in wanted if c not in have]
        if missing:
            raise InvalidConfig(
                f"--require-cards: the kingdom lacks {_names(missing)}, which the bots name"
            )
        return dict(options)
    from kingdoms.bots.dominion.lang import card_id

    named = [c for c in (card_id(n) for n in _named(value) or []) if c is not None]
    cards = named + [c for c in wanted if c not in named]
    if len(cards) > 10:
        raise InvalidConfig(
            f"--require-cards: the bots name {len(cards)} kingdom cards "
            f"({_names(cards)}); a kingdom has 10"
        )
    out = dict(options)
    if cards:
        out["kingdom"] = cards
    return out


def card_notes(
    game: str,
    specs: Sequence[str],
    names: Sequence[str],
    setup: Mapping[str, Any],
    kingdoms: Sequence[Sequence[str]] | None = None,
) -> list[str]:
    """Warnings about bots naming cards absent from the kingdom: for a fixed kingdom,
    the cards missing; for random kingdoms, the share of the games (``kingdoms``,
    one per game) that had each card."""
    out: list[str] = []
    kingdom = setup.get("kingdom")
    for spec, name in zip(specs, names, strict=True):
        cards = bot_cards(game, spec)
        if not cards:
            continue
        if isinstance(kingdom, list):
            missing = [c for c in cards if c not in kingdom]
            if missing:
                out.append(f"{name} names {_names(missing)}, not in this kingdom")
            continue
        if kingdoms is None:
            continue
        games = len(kingdoms)
        parts = []
        for c in cards:
            present = sum(1 for k in kingdoms if c in k)
            if present < games:
                parts.append(f"{_names([c])} in {present} of {games} games ({present / games:.0%})")
        if parts:
            out.append(f"{name} names cards absent from some kingdoms: {'; '.join(parts)}")
    return out
