"""``kingdoms kingdomino play``: Kingdomino in the terminal against bots.

The human is seat 0.  The screen shows the current and next lines with the
kings on them and every kingdom as a coloured grid (castle-relative
coordinates; ``*`` marks crowns).  Each decision lists numbered options; answer
with a number, with (a prefix of) an option's text, or for a placement with
coordinates and a direction such as ``1 -2 right`` (or ``1,-2 r``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from kingdoms.cli.game_options import cli_options, seat_options, seat_specs
from kingdoms.core.errors import KingdomsError
from kingdoms.core.registry import new_game
from kingdoms.core.state import State
from kingdoms.i18n import LANGUAGES, translator
from kingdoms.kingdomino.board import DIRECTIONS
from kingdoms.kingdomino.game import GAME
from kingdoms.kingdomino.state import KingdominoState
from kingdoms.kingdomino.text import direction_name
from kingdoms.kingdomino.tiles import TERRAIN_NAMES, TERRAINS, TILES

STYLE = {
    "wheat": "black on yellow",
    "forest": "white on dark_green",
    "lake": "white on blue",
    "grassland": "black on green_yellow",
    "swamp": "white on grey37",
    "mine": "white on dark_orange3",
    "castle": "bold black on white",
}
KING_STYLE = ("bold red", "bold blue", "bold magenta", "bold cyan")


ABBREV = {
    "en": "WFLGSMC",
    "pl": "PLJŁBKZ",
    "cs": "PLJOBDH",
}
"""One letter per terrain (wheat … mine, castle), distinct in each language."""


def legend(lang: str) -> str:
    names = TERRAIN_NAMES.get(lang, TERRAIN_NAMES["en"])
    letters = ABBREV.get(lang, ABBREV["en"])
    return "  ".join(f"{a}={n}" for a, n in zip(letters, names, strict=True)) + "  *=👑"


def _square(terrain: str, crowns: int, lang: str) -> Text:
    idx = (*TERRAINS, "castle").index(terrain)
    label = ABBREV.get(lang, ABBREV["en"])[idx] + ("*" * crowns)
    return Text(f"{label:^3}", style=STYLE[terrain])


class KingdominoScreen:
    """Draws the lines and kingdoms for the human seat."""

    def __init__(self, console: Console, lang: str) -> None:
        self.console = console
        self.lang = lang
        self._ = translator(lang)

    def _domino(self, number: int) -> Text:
        dom = TILES[number]
        out = Text(f"{number:>2} ")
        for t, c in (dom.left, dom.right):
            out.append(_square(TERRAINS[t], c, self.lang))
        return out

    def _line(self, title: str, line: Sequence[Mapping[str, Any]], done: int) -> Table:
        table = Table(title=title, show_header=False, box=None, padding=(0, 1))
        for i, entry in enumerate(line):
            king = entry["king"]
            who = (
                Text(f"♔ {self._('Player')} {king + 1}", style=KING_STYLE[king % 4])
                if king is not None
                else Text("—")
            )
            mark = Text("✓" if i < done else " ")
            table.add_row(mark, self._domino(int(entry["domino"])), who)
        return table

    def _kingdom(self, view: Mapping[str, Any], p: int) -> Text:
        k = view["kingdoms"][p]
        size = int(view["size"])
        cells = {(c[0], c[1]): (c[2], c[3]) for c in k["cells"]}
        xs = [x for x, _ in cells]
        ys = [y for _, y in cells]
        slack_x = size - 1 - (max(xs) - min(xs))
        slack_y = size - 1 - (max(ys) - min(ys))
        x0, x1 = min(xs) - min(slack_x, 1), max(xs) + min(slack_x, 1)
        y0, y1 = min(ys) - min(slack_y, 1), max(ys) + min(slack_y, 1)
        me = " ←" if p == view["seat"] else ""
        out = Text(f"{self._('Player')} {p + 1}{me}: {k['score']} {self._('points')}\n", "bold")
        out.append("y\\x " + "".join(f"{x:^3}" for x in range(x0, x1 + 1)) + "\n")
        for y in range(y0, y1 + 1):
            out.append(f"{y:>3} ")
            for x in range(x0, x1 + 1):
                sq = cells.get((x, y))
                out.append(_square(sq[0], sq[1], self.lang) if sq else Text(" · "))
            out.append("\n")
        return out

    def draw(self, view: Mapping[str, Any], log: Sequence[str]) -> None:
        _ = self._
        c = self.console
        head = f"{_('Round')} {view['round']}"
        if view["games"] > 1:
            head += f" · {_('Game')} {view['game_no']}/{view['games']}"
        c.rule(Text(head, style="bold"))
        lines = Table.grid(padding=(0, 4))
        lines.add_row(
            self._line(_("Current line"), view["current_line"], int(view["line_done"])),
            self._line(_("Next line"), view["next_line"], 0),
        )
        c.print(lines)
        c.print(f"{_('Dominoes left to draw')}: {view['undrawn']}")
        c.print(Text(legend(self.lang), style="dim"))
        grid = Table.grid(padding=(1, 4))
        boards = [self._kingdom(view, p) for p in range(int(view["players"]))]
        for i in range(0, len(boards), 2):
            grid.add_row(*boards[i : i + 2])
        c.print(grid)
        if view["acting"] is not None and view["to_move"] == view["seat"]:
            c.print(Text(f"{_('Your domino')}: ").append(self._domino(int(view["acting"]))))
        if log:
            c.print(Text("\n".join(log[-8:]), style="dim"))


_COORD = re.compile(r"^\(?\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*\)?\s+(\w+)$")


def normalize_answer(state: State, text: str, lang: str = "en") -> str:
    """``1 -2 right`` / ``1,-2 r`` -> the placement's action text; anything else unchanged."""
    m = _COORD.match(text.strip())
    if not m or not isinstance(state, KingdominoState):
        return text
    x, y, word = int(m.group(1)), int(m.group(2)), m.group(3).casefold()
    for d in range(4):
        names = {DIRECTIONS[d], direction_name(d, lang).casefold()}
        if any(n.startswith(word) for n in names):
            try:  # a double's placement in either form: the form the options name
                return state.action_to_str(state.placement_action(x, y, d), lang)
            except KingdomsError:
                number = state.acting_domino()
                return translator(lang)("place {domino} at {x},{y} {direction}").format(
                    domino=number, x=x, y=y, direction=direction_name(d, lang)
                )
    return text


_OPTIONS = cli_options(GAME)


@click.group()
def kingdomino() -> None:
    """Kingdomino: play in the terminal."""


@kingdomino.command()
@seat_options(
    "2–4", "full-greedy", "Comma-separated bot specs for seats 2, 3, … (e.g. mcts:time=1)."
)
@_OPTIONS.decorate
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True)
@click.option("--seed", type=int, default=None, help="Seed of the game (random if omitted).")
def play(players: int | None, bots: str, lang: str, seed: int | None, **flags: Any) -> None:
    """Play Kingdomino against bots (you are player 1)."""
    from kingdoms.bots import make_bot
    from kingdoms.cli.dominion import run

    players, specs = seat_specs(bots, players, "full-greedy")
    if not 2 <= players <= 4:
        raise click.BadParameter("Kingdomino takes 2–4 players", param_hint="--players")
    options = _OPTIONS.take(flags)
    try:
        state = new_game("kingdomino", players=players, seed=seed, options=options)
        seat_bots = [None, *(make_bot("kingdomino", s) for s in specs)]
    except KingdomsError as err:
        raise click.ClickException(str(err)) from err
    console = Console(file=sys.stdout, highlight=False)
    code = run(
        state,
        seat_bots,
        lang,
        sys.stdin,
        console,
        screen=KingdominoScreen(console, lang),
        score_label="points",
        normalize=lambda st, text: normalize_answer(st, text, lang),
    )
    sys.exit(code) if code else None
