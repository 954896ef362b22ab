"""A throwaway PostgreSQL cluster in a temp dir on a free loopback port.

Used by the tests' ``postgres_url`` fixture and by ``bench/soak_server.py``."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path


class PostgresUnavailable(Exception):
    """PostgreSQL cannot be started here (binaries, driver or user missing)."""


_CLUSTERS: dict[str, list[str]] = {}
"""Each running test cluster's URL → its ``pg_ctl -D DATA`` command (as the right user)."""


def restart_postgres(url: str, down: float = 0.0, stopped: threading.Event | None = None) -> None:
    """Stop the test cluster at ``url`` (``-m fast``: every connection is dropped),
    leave it down ``down`` seconds (``stopped`` set once it is down), start it again
    and wait until it accepts connections."""
    ctl = _CLUSTERS[url]
    subprocess.run([*ctl, "-m", "fast", "-w", "stop"], check=True, capture_output=True)
    if stopped is not None:
        stopped.set()
    time.sleep(down)
    subprocess.run([*ctl, "-w", "start"], check=True, capture_output=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pg_bin() -> Path | None:
    for candidate in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (candidate / "initdb").exists() and (candidate / "pg_ctl").exists():
            return candidate
    return None


@contextlib.contextmanager
def temp_postgres() -> Iterator[str]:
    """Start a cluster, yield its SQLAlchemy URL, stop and delete it."""
    bindir = _pg_bin()
    if bindir is None:
        raise PostgresUnavailable("PostgreSQL binaries not found under /usr/lib/postgresql/*/bin")
    try:
        import psycopg  # noqa: F401
    except ImportError as err:
        raise PostgresUnavailable("psycopg is not installed (pip install '.[postgres]')") from err
    tmp = Path(tempfile.mkdtemp(prefix="kingdoms-pg-"))
    data = tmp / "data"
    port = _free_port()
    prefix: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        user = "postgres"
        if shutil.which("runuser") is None:
            raise PostgresUnavailable("running as root without runuser: cannot start PostgreSQL")
        try:
            subprocess.run(["id", user], check=True, capture_output=True)
        except subprocess.CalledProcessError as err:
            raise PostgresUnavailable(
                "running as root and there is no 'postgres' user to run PostgreSQL"
            ) from err
        shutil.chown(tmp, user)
        prefix = ["runuser", "-u", user, "--"]
    subprocess.run(
        [*prefix, str(bindir / "initdb"), "-D", str(data), "-U", "kingdoms", "-A", "trust"],
        check=True,
        capture_output=True,
    )
    ctl = [
        *prefix,
        str(bindir / "pg_ctl"),
        "-D",
        str(data),
        "-l",
        str(tmp / "log"),
        "-o",
        f"-p {port} -k {tmp} -c listen_addresses=127.0.0.1 -c fsync=off",
    ]
    subprocess.run([*ctl, "-w", "start"], check=True, capture_output=True)
    url = f"postgresql+psycopg://kingdoms@127.0.0.1:{port}/kingdoms"
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
        _CLUSTERS[url] = ctl
        yield url
    finally:
        _CLUSTERS.pop(url, None)
        subprocess.run([*ctl, "-m", "immediate", "stop"], capture_output=True)
        time.sleep(0.1)
        shutil.rmtree(tmp, ignore_errors=True)
