"""Fixtures for the server tests: a toy game in the registry, storages, apps."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType

import pytest

from kingdoms.core import registry
from kingdoms.server.storage import Storage

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True)
def toy_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register ``toy`` (tests/server/toygame.py) next to the real games."""
    games = {**registry._entry_points(), "toy": "toygame:GAME"}
    monkeypatch.setattr(registry, "_entry_points", lambda: MappingProxyType(games))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pg_bin() -> Path | None:
    for candidate in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (candidate / "initdb").exists() and (candidate / "pg_ctl").exists():
            return candidate
    return None


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL cluster in a temp dir on a free port."""
    bindir = _pg_bin()
    if bindir is None:
        pytest.skip("PostgreSQL binaries not found under /usr/lib/postgresql/*/bin")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("psycopg is not installed (pip install '.[postgres]')")
    tmp = Path(tempfile.mkdtemp(prefix="kingdoms-pg-"))
    data = tmp / "data"
    port = _free_port()
    prefix: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        user = "postgres"
        if shutil.which("runuser") is None:
            pytest.skip("running as root without runuser: cannot start PostgreSQL")
        try:
            subprocess.run(["id", user], check=True, capture_output=True)
        except subprocess.CalledProcessError:
            pytest.skip("running as root and there is no 'postgres' user to run PostgreSQL")
        shutil.chown(tmp, user)
        prefix = ["runuser", "-u", user, "--"]
    else:
        user = os.environ.get("USER") or "postgres"
    subprocess.run(
        [*prefix, str(bindir / "initdb"), "-D", str(data), "-U", "kingdoms", "-A", "trust"],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [
            *prefix,
            str(bindir / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(tmp / "log"),
            "-o",
            f"-p {port} -k {tmp} -c listen_addresses=127.0.0.1 -c fsync=off",
            "-w",
            "start",
        ],
        check=True,
        capture_output=True,
    )
    try:
        subprocess.run(
            [
                *prefix,
                str(bindir / "createdb"),
                "-h",
                "127.0.0.1",
                "-p",
                str(port),
                "-U",
                "kingdoms",
                "kingdoms",
            ],
            check=True,
            capture_output=True,
        )
        yield f"postgresql+psycopg://kingdoms@127.0.0.1:{port}/kingdoms"
    finally:
        subprocess.run(
            [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
        )
        time.sleep(0.1)
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def storage_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'db' / 'kingdoms.sqlite'}"
    url: str = request.getfixturevalue("postgres_url")
    # a fresh schema per test: drop what an earlier test left
    store = Storage(url)
    from kingdoms.server.storage import metadata

    metadata.drop_all(store.engine)
    store.close()
    return url
