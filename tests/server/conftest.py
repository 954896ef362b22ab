"""Fixtures for the server tests: a toy game in the registry, storages, apps."""

from __future__ import annotations

import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from pgcluster import PostgresUnavailable, temp_postgres

from kingdoms.core import registry
from kingdoms.server.storage import Storage


@pytest.fixture(autouse=True)
def toy_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register ``toy`` (tests/server/toygame.py) next to the real games."""
    games = {**registry._entry_points(), "toy": "toygame:GAME"}
    monkeypatch.setattr(registry, "_entry_points", lambda: MappingProxyType(games))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL cluster in a temp dir on a free port."""
    try:
        with temp_postgres() as url:
            yield url
    except PostgresUnavailable as err:
        pytest.skip(str(err))


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def storage_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'db' / 'kingdoms.sqlite'}"
    url: str = request.getfixturevalue("pg")
    return url


@pytest.fixture
def pg(postgres_url: str) -> str:
    """The test cluster with empty tables (a fresh schema: what an earlier test left
    is dropped)."""
    from kingdoms.server.storage import metadata

    store = Storage(postgres_url)
    metadata.drop_all(store.engine)
    store.close()
    return postgres_url
