"""``kingdoms serve`` as a real process for tests, on a free loopback port."""

from __future__ import annotations

import contextlib
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serve(
    tmp_path: Path, *args: str, db: str | None = None, name: str = "server"
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``kingdoms serve ARGS`` over ``db`` (default: a SQLite file in ``tmp_path``);
    its output in ``tmp_path/NAME.log``."""
    port = _free_port()
    log_path = tmp_path / f"{name}.log"
    log = open(log_path, "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("kingdoms")),
            "serve",
            "--port",
            str(port),
            "--db",
            db or f"sqlite:///{tmp_path}/k.sqlite",
            *args,
        ],
        stdout=log,
        stderr=log,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        # the event: the server answers (or its process ended); a loaded machine may
        # take many seconds to start it, so the bound is only there to end a hang
        deadline = time.monotonic() + 180
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base + "/api/catalog", timeout=5).is_success:
                    break
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("the server did not start: " + log_path.read_text())
            time.sleep(0.05)
        yield base, proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
