"""The relay to subscribers: seats and spectators joining and leaving, and each one's view
pushed after every change.  One part of :class:`kingdoms.server.master.GameMaster`."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from collections.abc import AsyncIterator, Sequence
from typing import Any

from kingdoms.i18n import LANGUAGES
from kingdoms.server.limits import DEFAULT_LIMITS, ServerLimits
from kingdoms.server.master_base import (
    INTERNAL_ERROR,
    Database,
    Wake,
    log,
    no_wake,
)
from kingdoms.server.master_store import TableStore
from kingdoms.server.spectate import public_frames
from kingdoms.server.table import (
    Outbox,
    RequestError,
    Sender,
    Snapshot,
    Subscriber,
    Table,
    state_message,
)
from kingdoms.server.undo import undo_refusal


class Relay:
    """The relay to subscribers: seats and spectators joining and leaving, and each one's
    view pushed after every change.

    Games come from ``store`` (a finished game nobody watches any more leaves it);
    seats joining are stored through ``db``; ``wake`` is told of each game someone
    joins (a bot that stopped goes on)."""

    def __init__(
        self,
        store: TableStore,
        db: Database,
        limits: ServerLimits = DEFAULT_LIMITS,
        wake: Wake = no_wake,
    ) -> None:
        self.store = store
        self.db = db
        self.limits = limits
        self.wake = wake
        self._watchers: dict[str, int] = {}
        """Spectator connections per client address."""
        self._turn_lock = asyncio.Lock()

    # -- connections ---------------------------------------------------------------------
    async def subscribe(
        self, game_id: str, tokens: Sequence[str], send: Sender, lang: str = "en"
    ) -> tuple[Table, Subscriber]:
        """Connect ``send`` to the seats of ``game_id`` its ``tokens`` hold (each marked
        joined) and send it their views now."""
        store = self.store
        table = await store.fetch(game_id)
        seats = store.authenticate(table, tokens)
        if lang not in LANGUAGES:
            lang = "en"
        sub = Subscriber(seats, send, lang)
        async with table.lock:
            newly = [s for s in seats if not table.seats[s].get("joined")]
            if newly:
                # merged with what other processes set meanwhile; if the database fails,
                # nothing changed here either (the client says hello again)
                merge = functools.partial(
                    store.storage.merge_seats, table.id, {s: {"joined": True} for s in newly}
                )
                table.seats = await self.db.write(merge)
            table.subscribers.append(sub)
            await self.push(table, [sub])
        self.wake(table)  # a bot that stopped goes on when someone comes back
        return table, sub

    def add_spectator(self, table: Table, sub: Subscriber) -> None:
        """Count ``sub`` in: refused past the spectators per game or per address."""
        limits = self.limits
        if sum(1 for s in table.subscribers if not s.seats) >= limits.spectators_per_game:
            raise RequestError("too_many", "this game has as many spectators as it may have")
        if sub.address is not None:
            held = self._watchers.get(sub.address, 0)
            if held >= limits.spectators_per_address:
                raise RequestError(
                    "too_many", f"at most {limits.spectators_per_address} games watched at once"
                )
            self._watchers[sub.address] = held + 1
        table.subscribers.append(sub)

    def unsubscribe(self, table: Table, sub: Subscriber) -> None:
        """Disconnect ``sub`` (nothing happens if it already left)."""
        try:
            table.subscribers.remove(sub)
        except ValueError:
            return
        if not sub.seats and sub.address is not None:
            left = self._watchers.get(sub.address, 0) - 1
            if left > 0:
                self._watchers[sub.address] = left
            else:
                self._watchers.pop(sub.address, None)
        self.store.release(table)  # finished and unwatched: reloaded on demand

    def seat_message(
        self, table: Table, seat: int, sub: Subscriber, snap: Snapshot | None = None
    ) -> dict[str, Any]:
        """Everything one seat may know now (its view, its log, its choices).
        ``snap``: the parts shared with the other messages of the same push."""
        state = table.state
        lang = sub.lang
        if snap is None:
            snap = Snapshot(table)
        msg = state_message(table, sub, seat, snap.view(seat), snap)
        msg["seat"] = seat
        if state.current_player == seat and not table.finished:
            # Games may describe actions as data (``action_info(a)``, e.g. which card or
            # which square) so that boards can make those things clickable: still no rules
            # in the client, it only maps the server's legal actions onto the board.
            game = snap.game()
            legal: list[dict[str, Any]] = []
            for a in state.legal_actions():
                entry: dict[str, Any] = {"action": a, "text": state.action_to_str(a, lang)}
                info = game.action_info(state, a)
                if info is not None:
                    entry["info"] = info
                legal.append(entry)
            msg["legal"] = legal
        if not table.finished:
            msg["can_undo"] = undo_refusal(table, seat, snap.view) is None
        return msg

    async def push(self, table: Table, subs: Sequence[Subscriber] | None = None) -> None:
        """Send each subscriber (all by default) the current state of each of its seats.

        Call with ``table.lock`` held.  A connection's messages are only queued in its
        :class:`~kingdoms.server.table.Outbox` (nothing here waits on a socket); one
        that has fallen too far behind is dropped.  Spectators share one message."""
        targets = list(table.subscribers if subs is None else subs)
        outbox: list[tuple[Subscriber, list[dict[str, Any] | str]]] = []
        async with self._turn():
            frames = None
            snap = Snapshot(table)
            for sub in targets:
                if not sub.seats:  # a spectator: the public view only, built once
                    try:
                        if frames is None:
                            frames = public_frames(table)
                        msg, text = frames.message(sub)
                    except Exception:  # an engine bug: drop the watcher
                        log.exception("cannot update a spectator of game %s", table.id)
                        self.unsubscribe(table, sub)
                        continue
                    outbox.append((sub, [text if isinstance(sub.send, Outbox) else msg]))
                    continue
                msgs: list[dict[str, Any] | str] = []
                for seat in sub.seats:
                    try:
                        msgs.append(self.seat_message(table, seat, sub, snap))
                    except Exception:  # an engine bug: report it, keep the game and the socket
                        log.exception("cannot build the view of seat %s in game %s", seat, table.id)
                        msgs.append(INTERNAL_ERROR)
                outbox.append((sub, msgs))
        later: list[tuple[Subscriber, str]] = []
        for sub, msgs in outbox:
            for item in msgs:
                if isinstance(sub.send, Outbox):
                    if not sub.seats and isinstance(item, str):
                        later.append((sub, item))
                        break
                    if sub.send.post(item):
                        continue
                    self.unsubscribe(table, sub)  # it fell behind (or left): dropped
                    break
                try:  # an in-process receiver
                    await sub.send(item if isinstance(item, dict) else json.loads(item))
                except Exception as err:  # a closed connection must not stop the game
                    log.info("dropped a connection of game %s: %r", table.id, err)
                    self.unsubscribe(table, sub)
                    break
        if later:
            # after the players' messages and the mover's acknowledgement: those are
            # written first, the spectators' (as many as they are) on the next pass
            asyncio.get_running_loop().call_soon(self._post_to_spectators, table, later)

    def _post_to_spectators(self, table: Table, posts: list[tuple[Subscriber, str]]) -> None:
        for sub, text in posts:
            if isinstance(sub.send, Outbox) and not sub.send.post(text):
                self.unsubscribe(table, sub)  # it fell behind (or left): dropped

    @contextlib.asynccontextmanager
    async def _turn(self) -> AsyncIterator[None]:
        """One game's share of the event loop: the work of building its views.

        Games take turns, one per pass of the event loop, so that between two of
        them the loop reads the sockets (WebSocket pings answered, new messages
        taken in) however many games are busy.  Without it, a pass ran every ready
        game's work at once: with hundreds of games that took longer than the
        clients' ping timeout and they closed their connections."""
        async with self._turn_lock:
            yield
            await asyncio.sleep(0)  # keep the turn until the loop has polled the sockets
