"""Kingdomino action and log texts in English, Polish and Czech.

Actions read ``pick 23``, ``discard 23`` and ``place 23 at 1,-2 right``: the
left square of domino 23 on the cell one right of and two above the castle,
its right square to the right of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kingdoms.i18n import translator
from kingdoms.kingdomino.board import CELLS, DIRECTIONS, xy

if TYPE_CHECKING:
    from kingdoms.kingdomino.state import KingdominoState


def direction_name(d: int, lang: str = "en") -> str:
    return translator(lang)(DIRECTIONS[d])


def action_text(st: KingdominoState, action: int, lang: str = "en") -> str:
    from kingdoms.kingdomino.state import DISCARD, PICK

    _ = translator(lang)
    if action >= PICK:
        return _("pick {domino}").format(domino=action - PICK)
    if action == DISCARD:
        return _("discard {domino}").format(domino=st.acting_domino())
    d, a = divmod(action, CELLS)
    x, y = xy(a)
    return _("place {domino} at {x},{y} {direction}").format(
        domino=st.acting_domino(), x=x, y=y, direction=direction_name(d, lang)
    )


def event_text(event: Mapping[str, Any], lang: str = "en") -> str:
    _ = translator(lang)
    kind = event.get("type")
    who = _("Player {n}").format(n=int(event.get("player", 0)) + 1)
    if kind == "pick":
        return _("{who} picks domino {domino}").format(who=who, domino=event["domino"])
    if kind == "discard":
        return _("{who} discards domino {domino}").format(who=who, domino=event["domino"])
    if kind == "place":
        return _("{who} places domino {domino} at {x},{y} {direction}").format(
            who=who,
            domino=event["domino"],
            x=event["x"],
            y=event["y"],
            direction=direction_name(int(event["dir"]), lang),
        )
    if kind == "round":
        line = ", ".join(str(d) for d in event.get("line", []))
        return _("Round {round}; next line: {line}").format(round=event["round"], line=line or "–")
    if kind == "setup":
        line = ", ".join(str(d) for d in event.get("line", []))
        return _("Game {n}: first line {line}").format(n=event.get("game_no", 1), line=line)
    if kind == "game_end":
        scores = ", ".join(str(s) for s in event.get("scores", []))
        return _("Game {n} over; scores: {scores}").format(n=event.get("game_no", 1), scores=scores)
    return str(kind)
