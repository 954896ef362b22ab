"""One client against everyone: a connection that does not read, floods, or never says
hello slows no one else (a real ``kingdoms serve`` process, raw sockets)."""

from __future__ import annotations

import base64
import json
import os
import random
import socket
import struct
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from serverproc import serve
from websockets.sync.client import ClientConnection, connect


def ws_frame(text: str) -> bytes:
    """One masked WebSocket text frame, as a client sends it."""
    data = text.encode()
    mask = os.urandom(4)
    n = len(data)
    size = bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack("!H", n)
    head = b"\x81" + size
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def raw_socket(base: str, game_id: str, rcvbuf: int = 4096) -> socket.socket:
    """A WebSocket opened by hand, with a small receive buffer, that never reads
    after the handshake."""
    host, port = base.split("//")[1].split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.connect((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET /ws/{game_id} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        byte = sock.recv(1)
        if not byte:
            sock.close()
            raise ConnectionResetError("closed by the server")
        head += byte
    assert b" 101 " in head.split(b"\r\n")[0], head
    return sock


class Player:
    """A player's connection that reads everything and times each request."""

    def __init__(self, base: str, game_id: str, tokens: list[str]) -> None:
        uri = base.replace("http", "ws", 1) + f"/ws/{game_id}"
        self.ws: ClientConnection = connect(uri, max_size=None).__enter__()
        self.ws.send(json.dumps({"type": "hello", "tokens": tokens}))
        self.state: dict[str, Any] = {}
        self.rng = random.Random(7)

    def _recv(self, timeout: float) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if msg["type"] == "state":
            self.state = msg
        return msg

    def my_turn(self, timeout: float = 60.0) -> float:
        """Wait for the event: a state in which seat 0 decides, with its choices, or the
        end of the game (the bot's moves come first); seconds waited.  Only what the
        server has already sent is read: a state is never replaced by a later one once
        it answers (a message read after it would be newer than what we act on)."""
        t = time.perf_counter()
        while not self.ready():
            self._recv(max(0.01, timeout - (time.perf_counter() - t)))
        return time.perf_counter() - t

    def ready(self) -> bool:
        """Whether the newest state asks seat 0 for a decision (or the game is over)."""
        state = self.state
        return bool(state) and (
            state["finished"] or (state["current_player"] == 0 and bool(state["legal"]))
        )

    def request(self, msg: dict[str, Any], timeout: float = 10.0) -> tuple[float, dict[str, Any]]:
        """Send ``msg``; seconds until its answer (ack or error), and the answer."""
        t = time.perf_counter()
        self.ws.send(json.dumps({**msg, "ref": 1}))
        while True:
            answer = self._recv(max(0.01, timeout - (time.perf_counter() - t)))
            if answer["type"] in ("ack", "error"):
                return time.perf_counter() - t, answer

    def move(self, buy: bool = True) -> float:
        """Send one of seat 0's legal actions (never a purchase unless ``buy``: a game
        where only the bot buys cannot end within the test, whatever its seed)."""
        assert self.ready() and not self.state["finished"], self.state
        legal = [c for c in self.state["legal"] if buy or not c["text"].startswith("buy ")]
        choice = self.rng.choice(legal or self.state["legal"])["action"]
        took, answer = self.request(
            {"type": "action", "action": choice, "state_id": self.state["state_id"]}
        )
        assert answer["type"] == "ack", answer
        return took


def _dominion_against_a_bot(base: str) -> tuple[str, list[str]]:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    game = httpx.post(base + "/api/games", json={"game": "dominion", "seats": seats}).json()
    return game["id"], [s["token"] for s in game["seats"] if s.get("token")]


def test_a_spectator_that_stops_reading_does_not_freeze_the_game(tmp_path: Path) -> None:
    """A watcher that never reads and asks for the whole log again and again (its
    buffers full within a second or two) is dropped; the players' moves, undo,
    resignation and the bot's moves keep their usual latency meanwhile."""
    args = ("--bot-delay", "0", "--message-rate", "0")
    with serve(tmp_path, *args) as (base, _proc):
        game_id, tokens = _dominion_against_a_bot(base)
        player = Player(base, game_id, tokens)
        for _ in range(40):  # a log of some length: each full copy is tens of KB
            player.my_turn()
            player.move(buy=False)
        watcher = raw_socket(base, game_id)
        watcher.sendall(ws_frame(json.dumps({"type": "hello", "watch": True})))
        dropped = threading.Event()
        stop = threading.Event()

        def flood() -> None:
            lang = ws_frame(json.dumps({"type": "lang", "lang": "en"}))
            while not stop.is_set():
                try:
                    watcher.sendall(lang)
                except OSError:
                    dropped.set()
                    return
                time.sleep(0.01)

        thread = threading.Thread(target=flood, daemon=True)
        thread.start()
        try:
            moves: list[float] = []
            bots: list[float] = []
            undos: list[float] = []
            # a number of rounds, not a time: on a loaded machine each takes longer
            for _ in range(25):
                bots.append(player.my_turn())
                moves.append(player.move(buy=False))
                player.my_turn()
                if player.state.get("can_undo"):
                    took, answer = player.request(
                        {"type": "undo", "state_id": player.state["state_id"]}
                    )
                    assert answer["type"] == "ack", answer
                    undos.append(took)
            player.my_turn()
            resigned, answer = player.request({"type": "resign", "seat": 0})
            assert answer["type"] == "ack", answer
            # the event: the server closed the watcher that fell behind
            assert dropped.wait(60), "the watcher that stopped reading was never closed"
        finally:
            stop.set()
            thread.join(5)
            watcher.close()
            player.ws.close()
        assert len(moves) == 25
        assert max(moves) < 2.0, moves
        assert max(bots) < 3.0, bots
        assert undos and max(undos) < 2.0, undos
        assert resigned < 2.0


def test_one_address_cannot_hold_every_connection(tmp_path: Path) -> None:
    """Sockets that never say hello, from one address, take at most that address's
    share of the slots: another visitor still gets in."""
    args = ("--max-connections", "30", "--max-connections-per-address", "10")
    with serve(tmp_path, *args) as (base, _proc):
        game = httpx.post(base + "/api/games", json={"game": "kingdomino", "players": 2}).json()
        held: list[socket.socket] = []
        refused = 0
        try:
            for _ in range(30):
                try:
                    held.append(raw_socket(base, game["id"]))
                except OSError:
                    refused += 1
            assert len(held) <= 10 and refused >= 20
            other = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"))
            with other:
                assert other.get(base + "/api/catalog", timeout=5).status_code == 200
        finally:
            for sock in held:
                sock.close()


def test_a_spectator_leaving_is_not_an_error(tmp_path: Path) -> None:
    """Spectators that close their page (a close frame) or lose their connection
    (a reset) while the game goes on leave no error or traceback in the log."""
    with serve(tmp_path, "--bot-delay", "0") as (base, _proc):
        game_id, tokens = _dominion_against_a_bot(base)
        player = Player(base, game_id, tokens)
        try:
            for _ in range(12):
                watchers = [raw_socket(base, game_id, rcvbuf=1 << 16) for _ in range(4)]
                for sock in watchers:
                    sock.sendall(ws_frame(json.dumps({"type": "hello", "watch": True})))
                for sock in watchers:  # the event: each is counted in (its first frame)
                    sock.settimeout(60)
                    assert sock.recv(2), "a spectator got no view of the game"
                player.my_turn()
                for j, sock in enumerate(watchers):
                    if j % 2:  # a reset: the connection is simply gone
                        linger = struct.pack("ii", 1, 0)
                        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
                    else:  # a browser closing its tab: a close frame, then the end
                        mask = os.urandom(4)
                        code = bytes(b ^ mask[k] for k, b in enumerate(struct.pack("!H", 1001)))
                        sock.sendall(bytes([0x88, 0x82]) + mask + code)
                    sock.close()
                player.move()
        finally:
            player.ws.close()
    log = (tmp_path / "server.log").read_text()
    assert "Traceback" not in log and "ERROR" not in log, log[-3000:]
