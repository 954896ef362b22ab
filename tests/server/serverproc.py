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
def serve(tmp_path: Path, *args: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = _free_port()
    log = open(tmp_path / "server.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("kingdoms")),
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{tmp_path}/k.sqlite",
            *args,
        ],
        stdout=log,
        stderr=log,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base + "/api/catalog", timeout=1).is_success:
                    break
            time.sleep(0.05)
        else:
            pytest.fail("the server did not start: " + (tmp_path / "server.log").read_text())
        yield base, proc
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
