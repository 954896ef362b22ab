"""The pages share one frame (``static/page.html``); each adds its body and script."""

from __future__ import annotations

from starlette.testclient import TestClient

from kingdoms.server.app import create_app
from kingdoms.web import PAGES, render_page


def test_every_page_is_served_in_the_shared_frame() -> None:
    with TestClient(create_app("sqlite://", bot_delay=0)) as client:
        for path, name in (("/", "index"), ("/game/x", "game"), ("/leaderboard", "leaderboard")):
            res = client.get(path)
            assert res.status_code == 200 and res.text == render_page(name)
            html = res.text
            assert html.startswith("<!doctype html>") and html.rstrip().endswith("</html>")
            assert f'<script type="module" src="/static/js/{PAGES[name].script}.js">' in html
            assert f'<body class="{PAGES[name].body_class}">' in html
            assert 'id="lang-slot"' in html and "$" not in html


def test_game_style_sheets_are_not_in_the_frame() -> None:
    """A game's own CSS comes from its registration when the game page knows the game."""
    assert "kingdomino.css" not in render_page("game")
