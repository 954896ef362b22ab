"""The lobby API with the real games: options offered, board data, action infos."""

from __future__ import annotations

from starlette.testclient import TestClient

from kingdoms.core import new_game
from kingdoms.dominion.data import BY_ID, CARDS
from kingdoms.server.app import create_app


def _client() -> TestClient:
    return TestClient(create_app("sqlite://", bot_delay=0, allow_seeds=True))


def test_catalog_offers_kingdoms_rules_versions_and_variants() -> None:
    with _client() as client:
        games = {g["name"]: g for g in client.get("/api/catalog").json()["games"]}
        dominion = games["dominion"]["options"]
        kingdoms = [v for v, _ in dominion["kingdom"]["choices"]]
        assert "First Game" in kingdoms and "Forbidden Arts" in kingdoms and "random" in kingdoms
        assert [v for v, _ in dominion["base_edition"]["choices"]] == [1, 2]
        assert "3-5" in [v for v, _ in dominion["alchemy_cards"]["choices"]]
        assert dominion["cards"]["type"] == "text" and dominion["cards"]["into"] == "kingdom"
        variants = games["kingdomino"]["options"]["variants"]
        assert variants["type"] == "flags"
        assert {v for v, _ in variants["choices"]} == {
            "middle-kingdom", "harmony", "dynasty", "mighty-duel"
        }  # fmt: skip
        assert "mcts" in games["kingdomino"]["bots"] and "witch" in games["dominion"]["bots"]


def test_games_created_with_lobby_options() -> None:
    with _client() as client:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "big-money"}]
        res = client.post(
            "/api/games",
            json={
                "game": "dominion",
                "seats": seats,
                "options": {"kingdom": "Smithy, Witch, Potion Mixers", "base_edition": 2},
            },
        )
        assert res.status_code == 400 and "Potion Mixers" in res.json()["message"]
        res = client.post(
            "/api/games",
            json={"game": "dominion", "seats": seats, "options": {"kingdom": "Chemistry Lesson"}},
        )
        assert res.status_code == 201, res.text
        assert "philosophers_stone" in res.json()["options"]["kingdom"]
        # a random kingdom from base + Alchemy with 3-5 Alchemy cards, as the lobby offers
        for seed_try in range(5):
            res = client.post(
                "/api/games",
                json={
                    "game": "dominion",
                    "seats": seats,
                    "options": {
                        "kingdom": "random",
                        "sets": ["base", "base-1e", "alchemy"],
                        "alchemy_cards": "3-5",
                    },
                },
            )
            assert res.status_code == 201, res.text
            kingdom = res.json()["options"]["kingdom"]
            assert 3 <= sum(CARDS[BY_ID[c]].set == "alchemy" for c in kingdom) <= 5, seed_try
        res = client.post(
            "/api/games",
            json={
                "game": "kingdomino",
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
                "options": {"variants": ["mighty-duel", "harmony"]},
            },
        )
        assert res.status_code == 201, res.text
        assert res.json()["options"]["variants"] == ["harmony", "mighty-duel"]


def test_board_data_in_each_language() -> None:
    with _client() as client:
        pl = client.get("/api/catalog/dominion/pl").json()["cards"]
        assert pl["province"]["name"] == "Prowincja" and pl["golem"]["potions"] == 1
        assert pl["smithy"]["text"] == "+3 karty."
        cs = client.get("/api/catalog/dominion/cs").json()["cards"]
        assert cs["witch"]["name"] == "Čarodějnice"
        kd = client.get("/api/catalog/kingdomino/cs").json()
        assert kd["terrains"]["forest"] == "les" and kd["dominoes"]["48"][1] == ["mine", 3]
        assert client.get("/api/catalog/dominion/xx").status_code == 404
        assert client.get("/api/catalog/chess/en").status_code == 404


def test_action_infos_name_cards_and_squares() -> None:
    st = new_game("dominion", players=2, seed=1, options={"kingdom": "First Game"})
    infos = [st.action_info(a) for a in st.legal_actions()]  # type: ignore[attr-defined]
    kinds = {i["kind"] for i in infos}
    assert kinds <= {"play", "buy", "play_all_treasures", "end_phase"}
    assert all("card" in i for i in infos if i["kind"] in ("play", "buy"))
    kd = new_game("kingdomino", players=2, seed=1)
    while kd.legal_actions()[0] >= 4 * 182:  # picks first
        assert kd.action_info(kd.legal_actions()[0])["kind"] == "pick"  # type: ignore[attr-defined]
        kd.apply(kd.legal_actions()[0])
    info = kd.action_info(kd.legal_actions()[0])  # type: ignore[attr-defined]
    assert info["kind"] == "place" and len(info["cells"]) == 2
    assert {c[2] for c in info["cells"]} <= {
        "wheat", "forest", "lake", "grassland", "swamp", "mine"
    }  # fmt: skip
