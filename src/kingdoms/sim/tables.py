"""Tables of the reports in several formats: a terminal table, Markdown or CSV.

The reports build :class:`rich.table.Table` objects; :func:`show` prints one as asked
(``plain``: the table as drawn for a terminal, never wrapped when the output is not a
terminal; ``markdown``: a pipe table; ``csv``: one header row then the rows).

>>> from rich.table import Table
>>> t = Table(title="demo")
>>> t.add_column("bot"); t.add_column("score")
>>> t.add_row("witch", "95.3% [94.9%–95.7%]")
>>> print(as_markdown(t))
| bot | score |
|---|---|
| witch | 95.3% [94.9%–95.7%] |
"""

from __future__ import annotations

import csv
import io

from rich.console import Console
from rich.table import Table
from rich.text import Text

FORMATS = ("plain", "markdown", "csv", "json")
"""The formats of every table command (``json``: the command's JSON document)."""


def _text(cell: object) -> str:
    if isinstance(cell, Text):
        return cell.plain
    if isinstance(cell, str):
        return Text.from_markup(cell).plain
    return str(cell)


def rows(table: Table) -> tuple[list[str], list[list[str]]]:
    """A table's header and rows as plain strings."""
    header = [_text(c.header) for c in table.columns]
    columns = [[_text(x) for x in c.cells] for c in table.columns]
    body = [list(r) for r in zip(*columns, strict=True)] if columns else []
    return header, body


def as_markdown(table: Table) -> str:
    header, body = rows(table)
    lines = ["| " + " | ".join(h.replace("|", "\\|") for h in header) + " |"]
    lines.append("|" + "---|" * len(header))
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in body]
    return "\n".join(lines)


def as_csv(table: Table) -> str:
    header, body = rows(table)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    w.writerows(body)
    return out.getvalue().rstrip("\n")


def console() -> Console:
    """The console for reports: a terminal's own width, else no wrapping at all."""
    probe = Console()
    return probe if probe.is_terminal else Console(width=100_000, soft_wrap=True)


def show(out: Console, table: Table, fmt: str = "plain") -> None:
    """Print ``table`` on ``out`` in format ``fmt`` (``plain``, ``markdown``, ``csv``)."""
    if fmt == "markdown":
        if table.title:
            out.print(f"**{_text(table.title)}**\n", highlight=False, markup=False)
        # a blank line ends the table: a text line right after it would read as a row
        out.print(as_markdown(table) + "\n", highlight=False, markup=False, soft_wrap=True)
    elif fmt == "csv":
        out.print(as_csv(table), highlight=False, markup=False, soft_wrap=True)
    else:
        out.print(table)
