"""``kingdoms dominion play``: Dominion in the terminal against bots.

The human is seat 0; bots fill the other seats.  Each decision lists numbered
options; answer with a number or (a prefix of) the option's text.  ``q`` quits,
``save FILE`` saves the game so far.  Works with stdin as a pipe.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any

import click
from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from kingdoms.cli.dominion_options import dominion_options, game_options
from kingdoms.cli.game_options import seat_options, seat_specs
from kingdoms.core.errors import KingdomsError, ParseError
from kingdoms.core.registry import new_game
from kingdoms.core.runner import seat_rngs
from kingdoms.core.state import State
from kingdoms.i18n import LANGUAGES, translator

HUMAN = 0
LOG_LINES = 14


class _Quit(Exception):
    pass


def _names(value: Any) -> list[str]:
    """Card ids from a view field: a list of ids, of dicts with an id, or an id -> count map."""
    out: list[str] = []
    if isinstance(value, Mapping):
        for k, v in value.items():
            if isinstance(v, int) and not isinstance(v, bool):
                out.extend([str(k)] * v)
            else:
                out.append(str(k))
    elif isinstance(value, list | tuple):
        for item in value:
            if isinstance(item, Mapping):
                out.append(str(item.get("id", item.get("card", item.get("name", item)))))
            else:
                out.append(str(item))
    return out


def seat_name(q: int, names: Sequence[str], lang: str) -> str:
    """How the table names seat ``q``: "Player 3", and the bot's name after it where
    ``names`` gives one, so it still matches the log's "player 2".

    >>> seat_name(1, ["", "Smithy (smithy.toml)"], "en")
    'Player 2 — Smithy (smithy.toml)'
    >>> seat_name(0, ["", "big-money"], "en")
    'Player 1'
    """
    _ = translator(lang)
    name = names[q] if q < len(names) else ""
    return f"{_('Player')} {q + 1}" + (f" — {name}" if name else "")


class Screen:
    """Draws the game for the human seat with rich; ``names``: each seat's bot name
    ("" for the human seat; see :func:`seat_name`)."""

    def __init__(
        self, console: Console, state: State, lang: str, names: Sequence[str] = ()
    ) -> None:
        self.console = console
        self.state = state
        self.lang = lang
        self.names = list(names)
        self._ = translator(lang)
        self.card_name = self._card_namer()

    def who(self, q: int) -> str:
        return seat_name(q, self.names, self.lang)

    def _card_namer(self) -> Callable[[str], str]:
        from kingdoms.dominion.data import BY_ID, CARDS

        lang = self.lang
        return lambda cid: CARDS[BY_ID[cid]].name(lang) if cid in BY_ID else self._(cid)

    def cards(self, value: Any) -> str:
        ids = _names(value)
        if not ids:
            return "—"
        counts: dict[str, int] = {}
        for cid in ids:
            counts[cid] = counts.get(cid, 0) + 1
        return ", ".join(
            (f"{n}× " if n > 1 else "") + self.card_name(cid) for cid, n in counts.items()
        )

    def draw(self, view: Mapping[str, Any], log: Sequence[str]) -> None:
        _ = self._
        c = self.console
        seat = int(view.get("player", HUMAN))
        players = view.get("players") or []
        turn = int(view.get("turn", 0))
        header = Text(_("Dominion"), style="bold")
        header.append(f"  {_('Turn')}: {self.who(turn)}")
        c.rule(header)
        table = Table(title=_("Supply"), header_style="bold", box=None, pad_edge=False)
        groups = 3 if c.width >= 96 else 2
        for _i in range(groups):
            table.add_column(_("Card"))
            table.add_column(_("Cost"), justify="right")
            table.add_column(_("Left"), justify="right")
        cells: list[str] = []
        for pile in view.get("supply") or ():
            coins, potions = [*pile.get("cost", [0, 0]), 0, 0][:2]
            cost = f"{coins}" + ("P" if potions else "")
            cells += [self.card_name(str(pile["card"])), cost, str(pile["count"])]
        row = 3 * groups
        while len(cells) % row:
            cells.append("")
        for i in range(0, len(cells), row):
            table.add_row(*cells[i : i + row])
        c.print(table)
        rules = view.get("rules")
        if isinstance(rules, Mapping):
            from kingdoms.dominion.view import rules_text  # not loaded for other games

            text = rules_text(
                int(rules.get("base_edition", 1)), bool(rules.get("alchemy_errata")), self.lang
            )
            c.print(f"[dim]{_('Rules')}: {text}[/dim]")
        c.print(f"[bold]{_('Trash')}:[/bold] {self.cards(view.get('trash'))}")
        for q, entry in enumerate(players):
            mark = "»" if q == turn else " "
            who = self.who(q) + (f" ({_('you')})" if q == seat else "")
            c.print(
                f"{mark} [bold]{who}[/bold]: {_('Hand')} {entry.get('hand_size', '?')}, "
                f"{_('Deck')} {entry.get('deck_size', '?')}, "
                f"{_('Discard pile')} {entry.get('discard_size', '?')}; "
                f"{_('In play')}: {self.cards(entry.get('in_play'))}"
            )
        c.print(
            f"{_('Actions')}: {view.get('actions', 0)}  {_('Buys')}: {view.get('buys', 0)}  "
            f"{_('Coins')}: {view.get('coins', 0)}"
            + (f"  P: {view['potions']}" if view.get("potions") else "")
        )
        c.print(f"[bold]{_('Hand')}:[/bold] {self.cards(view.get('hand'))}")
        if view.get("looking"):
            c.print(f"[bold]{_('You look at')}:[/bold] {self.cards(view['looking'])}")
        possession = view.get("possession")
        if possession:
            who, by = self.who(possession["player"]), self.who(possession["by"])
            label = _("extra turn under Possession")
            c.print(f"[magenta]{who} ← {by} ({label})[/magenta]")
            if "hand" in possession:
                c.print(f"[bold]{who} {_('Hand')}:[/bold] {self.cards(possession['hand'])}")
        for seen in view.get("seen_hands") or []:  # drawn at the end of a possessed turn
            name = self.who(int(seen["player"]))
            title = _("Hand of {name}, seen at the end of the possessed turn").format(name=name)
            c.print(f"[magenta]{title}:[/magenta] {self.cards(seen['hand'])}")
        decision = view.get("decision")
        if isinstance(decision, Mapping) and decision.get("prompt"):
            # any card's question, from its structured decision (prompt msgid, subject)
            line = f"[bold yellow]{_(str(decision['prompt']))}[/bold yellow]"
            about = decision.get("about")
            if isinstance(about, Mapping) and about.get("card"):
                line += f" ({self.who(int(about['player']))}: {self.cards([about['card']])})"
            bounds = _bounds_text(decision.get("total"))
            if bounds:
                line += f" [dim]({_(bounds[0]).format(**bounds[1])})[/dim]"
            c.print(line)
        if log:
            c.print(Panel("\n".join(log), title=_("Log"), expand=True))


def _bounds_text(total: Any) -> tuple[str, dict[str, Any]] | None:
    """The msgid and arguments saying how many cards a multi-pick decision takes in
    all (Chapel: up to 4; Cellar: any number; Militia: exactly as many as needed)."""
    if not isinstance(total, Mapping) or total.get("max") == 1:
        return None
    most = total.get("max")
    args = {"picked": total.get("picked", 0), "max": most}
    if most is None:
        return "chosen {picked}, any number", args
    if total.get("min") == most:
        return "chosen {picked} of {max}", args
    return "chosen {picked}, up to {max}", args


def _read(stream: IO[str]) -> str:
    line = stream.readline()
    if line == "":
        raise _Quit
    return line.strip()


def _outcome_lines(
    state: State, lang: str, score_label: str = "VP", names: Sequence[str] = ()
) -> list[str]:
    _ = translator(lang)
    out = state.outcome()
    if out is None:
        return []
    lines = [
        f"{seat_name(p, names, lang)}: {s:g} {_(score_label)}" for p, s in enumerate(out.scores)
    ]
    winners = ", ".join(seat_name(p, names, lang) for p in out.winners)
    label = _("Winners") if len(out.winners) > 1 else _("Winner")
    lines.append(f"{label}: {winners}")
    return lines


def run(
    state: State,
    bots: Sequence[Any],
    lang: str,
    stdin: IO[str],
    console: Console,
    screen: Any = None,
    score_label: str = "VP",
    normalize: Callable[[State, str], str] | None = None,
    names: Sequence[str] = (),
) -> int:
    """Play ``state`` to the end (human in seat 0). Returns the exit status.

    Any game can use this loop: ``screen`` draws its view (``draw(view, log)``;
    Dominion's by default), ``normalize`` turns shorthand answers into action text;
    ``names`` are the seats' bot names (see :func:`seat_name`)."""
    _ = translator(lang)
    if screen is None:
        screen = Screen(console, state, lang, names)
    rngs = seat_rngs(state.config.seed, state.num_players)
    shown = 0
    recent: list[str] = []
    while not state.is_terminal():
        player = state.current_player
        legal = state.legal_actions()
        if player != HUMAN:
            bot = bots[player]
            state.apply_checked(bot.act(state.view(player), legal, rngs[player]))
            continue
        events = state.log_for(HUMAN)
        for ev in events[shown:]:
            recent.append(state.event_to_str(ev, lang))
        shown = len(events)
        recent = recent[-LOG_LINES:]
        screen.draw(state.view(HUMAN), recent)
        labels = [state.action_to_str(a, lang) for a in legal]
        for i, label in enumerate(labels, 1):
            console.print(f"  [bold cyan]{i:>2}[/bold cyan]. {label}")
        while True:
            console.print(_("Your choice (number or name; q quits):"), end=" ")
            try:
                text = _read(stdin)
            except _Quit:
                console.print()
                console.print(_("Goodbye."))
                return 0
            if not stdin.isatty():
                console.print(text, highlight=False, markup=False)
            if text.lower() in ("q", "quit", "exit"):
                console.print(_("Goodbye."))
                return 0
            if text.lower().startswith("save "):
                from kingdoms.core.record import save_game

                path = text[5:].strip()
                try:
                    save_game(state, path, seats=["human", *[b.name for b in bots[1:]]])
                except (OSError, KingdomsError) as err:
                    console.print(f"[red]{_('Could not save')}: {err}[/red]")
                else:
                    console.print(f"{_('Saved to')} {path}")
                continue
            if text.isdigit():
                n = int(text)
                if 1 <= n <= len(legal):
                    action = legal[n - 1]
                    break
                console.print(
                    f"[red]{_('No such option')}: {n}. "
                    f"{_('Answer a number from 1 to')} {len(legal)}.[/red]"
                )
                continue
            try:
                if normalize is not None:
                    text = normalize(state, text)
                action = state.parse_action(text, lang)
            except ParseError as err:
                console.print(f"[red]{_('Not understood')}: {err}[/red]")
                continue
            break
        state.apply_checked(action)
    events = state.log_for(HUMAN)
    tail = [state.event_to_str(ev, lang) for ev in events[shown:]][-LOG_LINES:]
    if tail:
        console.print(Panel("\n".join(tail), title=_("Log")))
    console.rule(Text(_("Game over"), style="bold"))
    for line in _outcome_lines(state, lang, score_label, names):
        console.print(line)
    return 0


@click.group()
def dominion() -> None:
    """Dominion: play in the terminal."""


@dominion.command()
@seat_options(
    "2–6",
    "big-money",
    "Comma-separated bot specs for seats 2, 3, … (names or strategy .toml files)",
)
@dominion_options
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True)
@click.option("--seed", type=int, default=None, help="Seed of the game (random if omitted).")
def play(players: int | None, bots: str, lang: str, seed: int | None, **flags: Any) -> None:
    """Play Dominion against bots (you are player 1)."""
    from kingdoms.bots import make_bot
    from kingdoms.bots.base import seat_options as bot_seat_options
    from kingdoms.sim.setup import labels

    players, specs = seat_specs(bots, players, "big-money")
    if players < 2:
        raise click.BadParameter("at least 2 players", param_hint="--players")
    options = game_options(**flags)
    try:
        seat_bots = [None, *(make_bot("dominion", s, files=True) for s in specs)]
        # the bots by name, as ``kingdoms sim`` names them (a strategy file by its
        # ``name``, with its file where two bots would share one)
        names = ["", *labels("dominion", specs)]
        # each bot's start state (its strategy's ``start``) goes to its seat, as in
        # ``kingdoms sim``; the human seat starts as usual
        options = bot_seat_options("dominion", options, seat_bots)
        state = new_game("dominion", players=players, seed=seed, options=options)
    except KingdomsError as err:
        raise click.ClickException(str(err)) from err
    console = Console(file=sys.stdout, highlight=False)
    stdin = sys.stdin
    code = run(state, seat_bots, lang, stdin, console, names=names)
    sys.exit(code) if code else None
