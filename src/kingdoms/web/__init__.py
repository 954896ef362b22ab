"""The browser client: static HTML, CSS and ES modules served by the app (no build step).

It renders the view JSON the server sends and sends actions back; it holds
no game rules (the legal actions come from the server)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from string import Template


@dataclass(frozen=True)
class Page:
    """One page of the client: ``static/pages/<name>.html`` (its body) in the shared
    frame ``static/page.html`` (head, style sheets, its script)."""

    title: str
    script: str
    body_class: str
    css: tuple[str, ...] = ()


PAGES = {
    "index": Page("Kingdoms", "lobby", "lobby", ("css/cards.css",)),
    "game": Page("Kingdoms", "game", "game-page", ("css/cards.css",)),
    "leaderboard": Page("Kingdoms · Leaderboard", "leaderboard", "leaderboard"),
    "rules": Page("Kingdoms · Rules", "rules", "rules", ("css/cards.css",)),
}
"""The pages by name; a game's own style sheets are added by the game page when it
knows the game (``Game.web``)."""


@cache
def render_page(name: str) -> str:
    """The HTML of the page ``name`` (a key of :data:`PAGES`)."""
    page = PAGES[name]
    static = resources.files("kingdoms.web").joinpath("static")
    frame = Template(static.joinpath("page.html").read_text(encoding="utf-8"))
    return frame.substitute(
        title=page.title,
        styles="".join(f'<link rel="stylesheet" href="/static/{css}">\n' for css in page.css),
        script=page.script,
        body_class=page.body_class,
        content=static.joinpath("pages", f"{name}.html").read_text(encoding="utf-8"),
    )
