"""The log names the seats as their players chose, in every language."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from kingdoms.server.app import create_app
from kingdoms.server.logtext import seat_names, with_names


@pytest.mark.parametrize(
    ("lang", "needle"), [("en", "Ann plays"), ("pl", "Ann zagrywa"), ("cs", "Ann hraje")]
)
def test_the_log_uses_the_seats_names(lang: str, needle: str) -> None:
    with TestClient(create_app("sqlite://", bot_delay=0, allow_seeds=True)) as client:
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "name": "Bob", "bot": "random"}]
        game = client.post(
            "/api/games",
            json={
                "game": "dominion",
                "seats": seats,
                "seed": 2,
                "options": {"kingdom": "First Game"},
            },
        ).json()
        with client.websocket_connect(f"/ws/{game['id']}") as ws:
            ws.send_json({"type": "hello", "tokens": [game["seats"][0]["token"]], "lang": lang})
            msg = ws.receive_json()
            while not msg.get("legal"):  # the event: Ann's turn (the bot may move first)
                msg = ws.receive_json()
            treasure = next(x for x in msg["legal"] if x["info"]["kind"] == "play_all_treasures")
            ws.send_json(
                {"type": "action", "action": treasure["action"], "state_id": msg["state_id"]}
            )
            texts: list[str] = []
            while not any(needle in t for t in texts):
                got = ws.receive_json()
                texts += [e["text"] for e in got.get("log", [])]
        assert not any("player 1" in t or "gracz 1" in t or "hráč 1" in t for t in texts)


def test_default_names_and_other_numbers_stay() -> None:
    seats = [{"name": "Player 1"}, {"name": "Zoë"}]
    names = seat_names(seats)
    assert names == ["Player 1", "Zoë"]
    assert with_names("player 1 trashes; player 2 gains; player 12", names) == (
        "Player 1 trashes; Zoë gains; player 12"
    )
    assert with_names("gracz 1 kupuje", seat_names(seats, "pl"), "pl") == "Gracz 1 kupuje"
    # the old form: None for a seat left with its default name
    assert with_names("gracz 1 kupuje", [None, "Zoë"], "pl") == "Gracz 1 kupuje"
    assert with_names("Hráč 2 táhne", names, "cs") == "Zoë táhne"
