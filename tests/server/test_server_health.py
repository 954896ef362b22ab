"""``/healthz``: what the container image's healthcheck and a load balancer ask."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

import kingdoms
from kingdoms.server.app import create_app


def test_health_answers_ok_with_the_version_and_build(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'k.sqlite'}"
    with TestClient(create_app(db, bot_delay=0)) as client:
        res = client.get("/healthz")
    assert res.status_code == 200
    assert res.json() == {
        "status": "ok",
        "version": kingdoms.__version__,
        "build": kingdoms.build_kind(),
    }
    assert res.headers["cache-control"] == "no-store"


def test_health_is_503_when_the_database_is_gone(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'k.sqlite'}"
    app = create_app(db, bot_delay=0)
    with TestClient(app) as client:
        assert client.get("/healthz").status_code == 200
        storage = app.state.storage

        def gone() -> None:
            raise OSError("connection refused")

        storage.ping = gone
        res = client.get("/healthz")
    assert res.status_code == 503
    assert res.json()["status"] == "unavailable"
