"""Running the app under uvicorn so that slow or numerous clients cannot exhaust it.

* :func:`guarded_protocol`: uvicorn's HTTP/1.1 protocol with a deadline for
  request headers (a client that opens a connection and sends nothing, or half a
  request, is cut off) and a cap on open connections (past it, new ones are
  closed at once instead of piling up until the process runs out of files);
* :func:`raise_open_file_limit`: the soft limit on open files raised to the hard one;
* :func:`run_server`: all of it, plus rate-limited logging of repeated errors;
* :func:`run_workers`: ``N`` such server processes sharing one listening socket
  (the kernel hands each new connection to one of them), restarted if one dies.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import resource
import signal
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from kingdoms.server.guard import install_repeat_filter
from kingdoms.server.limits import client_id

log = logging.getLogger(__name__)


class GuardedH11Protocol(H11Protocol):
    """H11 with a header deadline and a connection cap (set by :func:`guarded_protocol`)."""

    header_timeout: float = 10.0
    max_connections: int = 1000
    max_per_address: int = 0
    """Open connections (HTTP and WebSocket) one client may hold (0: no cap); a client
    is an IPv4 address or an IPv6 /``ipv6_prefix`` (:func:`client_id`)."""
    ipv6_prefix: int = 64
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections or self._over_address_cap():
            transport.abort()  # full: refuse at once rather than hold a file open
            return
        self._arm()

    def _over_address_cap(self) -> bool:
        """Whether this client's address already holds its share of the connections
        (so that one address cannot take every slot and lock the others out)."""
        if self.max_per_address <= 0 or not self.client:
            return False
        host = client_id(str(self.client[0]), self.ipv6_prefix)
        held = 0
        for conn in self.connections:
            client = getattr(conn, "client", None)
            if client and client_id(str(client[0]), self.ipv6_prefix) == host:
                held += 1
        return held > self.max_per_address

    def _idle(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _arm(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if self._idle() and not self.transport.is_closing():
            self.transport.close()  # no complete request in time

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            self._disarm()
        elif self._idle():
            self._arm()  # (part of) a new request: it must be complete in time
        else:
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._disarm()  # idle again: uvicorn's keep-alive timeout takes over

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._disarm()
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def guarded_protocol(
    header_timeout: float, max_connections: int, max_per_address: int = 0, ipv6_prefix: int = 64
) -> type[GuardedH11Protocol]:
    """A :class:`GuardedH11Protocol` with these limits, for uvicorn's ``http=``."""
    return type(
        "ConfiguredH11Protocol",
        (GuardedH11Protocol,),
        {
            "header_timeout": header_timeout,
            "max_connections": max_connections,
            "max_per_address": max_per_address,
            "ipv6_prefix": ipv6_prefix,
        },
    )


def raise_open_file_limit() -> tuple[int, int]:
    """Raise the soft limit on open files to the hard limit; returns (soft, hard) now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 65_536)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError) as err:
            log.warning("cannot raise the open-file limit: %s", err)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft, hard


@dataclass(frozen=True)
class ServeOptions:
    """How one server process treats its connections (the same in every worker)."""

    header_timeout: float = 10.0
    """Seconds a client has to send a complete request head."""
    idle_timeout: float = 30.0
    """Seconds an idle HTTP connection is kept open."""
    max_connections: int | None = None
    """Open connections at most per process (``None``: most of the open-file limit)."""
    log_level: str = "warning"
    max_per_address: int = 64
    """Open connections one client address may hold per process (0: no cap; behind a
    reverse proxy every client comes from the proxy's address: cap there instead)."""
    forwarded_allow_ips: str = ""
    """The proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed
    (comma-separated addresses or networks, ``*``: any); empty: nobody's, the peer's
    address is the client's (uvicorn alone would believe 127.0.0.1)."""
    ipv6_prefix: int = 64
    """IPv6 addresses of one network of this prefix length are one client."""

    def with_file_limit(self) -> ServeOptions:
        """These options once the open-file limit is raised, ``max_connections`` set."""
        soft, _hard = raise_open_file_limit()
        if self.max_connections is not None:
            return self
        return replace(self, max_connections=max(16, int(soft * 0.8) - 64))


def run_server(app: Any, host: str, port: int, options: ServeOptions = ServeOptions()) -> None:
    """Serve ``app`` with uvicorn within the limits above (blocks until stopped)."""
    import uvicorn

    config = _config(app, host, port, options.with_file_limit())
    _quiet_repeats()
    uvicorn.Server(config).run()


def _quiet_repeats() -> None:
    logging.basicConfig(level=logging.WARNING)
    install_repeat_filter(("", "uvicorn", "uvicorn.error", "uvicorn.access"))


def _config(app: Any, host: str, port: int, options: ServeOptions) -> Any:
    import uvicorn

    assert options.max_connections is not None
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=options.log_level,
        http=guarded_protocol(
            options.header_timeout,
            options.max_connections,
            options.max_per_address,
            options.ipv6_prefix,
        ),
        # forwarded addresses believed only from the proxies named (by default none:
        # a client behind a same-host proxy that passes headers on would pick its own)
        proxy_headers=bool(options.forwarded_allow_ips.strip()),
        forwarded_allow_ips=options.forwarded_allow_ips.strip() or [],
        timeout_keep_alive=max(1, int(options.idle_timeout)),
        ws_max_size=64 * 1024,  # messages are at most 4 KB: no 16 MB frames held in memory
        # no compression: it would run once per connection and message (a move watched by
        # 1,000 spectators compressed 1,000 times); state messages carry only what is new
        ws_per_message_deflate=False,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
    )


def _worker(
    make_app: Callable[[], Any],
    sock: socket.socket,
    settings: tuple[str, int, ServeOptions],
    parent: int,
) -> None:
    """One worker process: its own app (database pool, listener, bots) on the shared socket."""
    import uvicorn

    # not the parent's handlers: a signal before uvicorn installs its own stops us at once
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)  # blocked by the parent
    _die_with_parent(parent)
    _own_session()

    host, port, options = settings
    config = _config(make_app(), host, port, options)
    _quiet_repeats()
    uvicorn.Server(config).run(sockets=[sock])


_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def _own_session() -> None:
    """Make this worker a session of its own.

    Linux's scheduler (with autogroup, the default on most distributions) shares the
    CPU between sessions first: workers left in their parent's session would split
    one share between them, so on a busy machine N workers got no more CPU than one.
    As sessions of their own each gets its share, as N separate servers would.  The
    parent still stops them (it forwards Ctrl+C and SIGTERM, and they die with it)."""
    with contextlib.suppress(OSError):
        os.setsid()


def _die_with_parent(parent: int) -> None:
    """Ask Linux to send this process SIGTERM when its parent dies (even by SIGKILL)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the parent stops its workers itself
        pass
    if os.getppid() != parent:  # it died before we asked
        os._exit(0)


def run_workers(
    make_app: Callable[[], Any],
    workers: int,
    host: str,
    port: int,
    options: ServeOptions = ServeOptions(),
) -> None:
    """Serve with ``workers`` processes on one port (blocks until SIGINT or SIGTERM).

    The parent binds the socket and forks the workers; each builds its own app with
    ``make_app`` (after the fork: no connection is shared).  A worker that dies is
    started again after a second.  ``options.max_connections`` is per worker."""
    options = options.with_file_limit()
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    settings = (host, port, options)
    context = multiprocessing.get_context("fork")
    stopping = False

    def start() -> multiprocessing.process.BaseProcess:
        args = (make_app, sock, settings, os.getpid())
        proc = context.Process(target=_worker, args=args, daemon=False)
        # a stop signal between the fork and the worker's own handlers waits for them
        signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
        try:
            proc.start()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
        return proc

    def stop(_signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True

    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    procs = [start() for _ in range(workers)]
    try:
        while not stopping:
            time.sleep(0.2)
            for i, proc in enumerate(procs):
                if not proc.is_alive() and not stopping:
                    log.warning(
                        "worker %s stopped (exit %s); starting another", proc.pid, proc.exitcode
                    )
                    time.sleep(1.0)
                    procs[i] = start()
    finally:
        for proc in procs:
            if proc.is_alive() and proc.pid is not None:
                os.kill(proc.pid, signal.SIGTERM)
        for proc in procs:
            proc.join(15)
            if proc.is_alive():
                proc.kill()
                proc.join()
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        sock.close()
