"""The server as a real process: slow and numerous clients cannot exhaust it."""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
from pathlib import Path

import httpx
from serverproc import serve

ROOT = Path(__file__).resolve().parents[2]


def _half_request(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
    return sock


def _closed(sock: socket.socket, within: float) -> bool:
    sock.settimeout(within)
    try:
        return sock.recv(1024) == b""
    except TimeoutError:
        return False
    except OSError:
        return True  # reset


def test_half_sent_requests_time_out_and_connections_are_capped(tmp_path: Path) -> None:
    args = ("--header-timeout", "1", "--max-connections", "20")
    with serve(tmp_path, *args) as (base, proc):
        port = int(base.rsplit(":", 1)[1])
        slow = [_half_request(port) for _ in range(40)]
        try:
            assert all(_closed(s, 3) for s in slow)  # over the cap at once, the rest in ~1 s
            res = httpx.get(base + "/api/games", timeout=5)
            assert res.status_code == 200  # reachable again
            limits = Path(f"/proc/{proc.pid}/limits").read_text()
            line = next(x for x in limits.splitlines() if x.startswith("Max open files"))
            soft, hard = line.split()[3:5]
            assert soft == hard  # raised to the hard limit at start
        finally:
            for s in slow:
                s.close()
    assert (tmp_path / "server.log").stat().st_size < 20_000  # no log flood


def test_a_slow_body_is_cut_off(tmp_path: Path) -> None:
    with serve(tmp_path, "--header-timeout", "1") as (base, _proc):
        port = int(base.rsplit(":", 1)[1])
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000000000\r\n\r\n{"
        )
        sock.settimeout(5)
        answer = sock.recv(4096)
        sock.close()
        assert answer.startswith(b"HTTP/1.1 413")


def test_rate_limits_and_bot_limits_come_from_the_command_line(tmp_path: Path) -> None:
    with serve(tmp_path, "--rate", "create=0.4", "--bot-think", "1") as (base, _proc):
        body = {"game": "kingdomino", "seats": [{"kind": "bot", "bot": "mcts:time=2"}] * 2}
        assert httpx.post(base + "/api/games", json=body).status_code == 400
        body = {"game": "kingdomino", "players": 2}
        assert httpx.post(base + "/api/games", json=body).status_code == 201
        res = httpx.post(base + "/api/games", json=body)
        assert res.status_code == 429 and int(res.headers["retry-after"]) >= 1


def test_raise_open_file_limit_in_a_child() -> None:
    code = (
        "import resource; from kingdoms.server.runtime import raise_open_file_limit;"
        "s, h = resource.getrlimit(resource.RLIMIT_NOFILE);"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (min(256, h), h));"
        "print(raise_open_file_limit() == resource.getrlimit(resource.RLIMIT_NOFILE),"
        " resource.getrlimit(resource.RLIMIT_NOFILE)[0] >= min(h, 256))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True"]
    assert importlib.util.find_spec("uvicorn") is not None and os.name == "posix"


def test_huge_websocket_frames_are_refused(tmp_path: Path) -> None:
    import asyncio

    import websockets

    async def main(base: str) -> int | None:
        game = httpx.post(base + "/api/games", json={"game": "kingdomino", "players": 2}).json()
        uri = base.replace("http", "ws", 1) + f"/ws/{game['id']}"
        async with websockets.connect(uri, max_size=None) as ws:
            await ws.send("x" * 200_000)
            try:
                await asyncio.wait_for(ws.recv(), 5)
            except websockets.ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None
        return None

    with serve(tmp_path) as (base, _proc):
        assert asyncio.run(main(base)) == 1009  # message too big: closed, not buffered
