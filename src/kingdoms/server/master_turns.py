"""The turn and undo rules: a player's action or take-back checked, stored, then published.
One part of :class:`kingdoms.server.master.GameMaster`."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kingdoms.core.errors import IllegalAction, ParseError
from kingdoms.core.state import State
from kingdoms.server.master_base import (
    Database,
    Leases,
    Wake,
    log,
    no_wake,
)
from kingdoms.server.master_relay import Relay
from kingdoms.server.master_store import TableStore
from kingdoms.server.master_sync import Sync
from kingdoms.server.storage import (
    StaleWrite,
    Storage,
    StorageError,
)
from kingdoms.server.table import (
    RequestError,
    Table,
)
from kingdoms.server.undo import previous_state, undo_refusal


class Turns:
    """The turn and undo rules: a player's action or take-back checked, stored (through
    ``db``, with the lease change ``leases`` gives), then published by ``relay``.

    A write refused because another process wrote first brings the game up to date
    (``sync``); a finished game nobody watches leaves ``store``; ``wake`` is told of
    each change (the next decision may be a bot's)."""

    def __init__(
        self,
        storage: Storage,
        db: Database,
        leases: Leases,
        store: TableStore,
        relay: Relay,
        sync: Sync,
        wake: Wake = no_wake,
    ) -> None:
        self.storage = storage
        self.db = db
        self.leases = leases
        self.store = store
        self.relay = relay
        self.sync = sync
        self.wake = wake
        self.finish_hooks: list[Callable[[Table], None]] = []
        """Called once when a game ends (by its rules, a resignation or abandonment)."""

    # -- actions --------------------------------------------------------------------------
    def _resolve_action(self, state: State, message: Mapping[str, Any], lang: str) -> int:
        action = message.get("action")
        text = message.get("text")
        if action is not None:
            if type(action) is not int:
                raise RequestError("bad_message", "'action' must be an integer")
            return action
        if isinstance(text, str):
            try:
                return state.parse_action(text, lang)
            except ParseError as err:
                raise RequestError("illegal", str(err)) from err
        raise RequestError("bad_message", "an action message needs 'action' (int) or 'text'")

    def _check_turn(self, table: Table, seats: Sequence[int], message: Mapping[str, Any]) -> int:
        state = table.state
        if table.finished:
            raise RequestError("finished", "the game is over")
        state_id = message.get("state_id")
        if type(state_id) is not int:
            raise RequestError("bad_message", "'state_id' (the step you saw) must be an integer")
        if state_id != state.step:
            raise RequestError(
                "stale", f"the game has moved on (step {state.step}, you saw {state_id})"
            )
        wanted = message.get("seat")
        if wanted is not None:
            if type(wanted) is not int or wanted not in seats:
                raise RequestError("wrong_seat", "you do not hold that seat")
            seat = wanted
        elif state.current_player in seats:
            seat = state.current_player
        else:
            seat = seats[0]
        if state.current_player != seat:
            raise RequestError(
                "not_your_turn", f"it is player {state.current_player + 1}'s decision, not yours"
            )
        return seat

    async def act(
        self, table: Table, seats: Sequence[int], message: Mapping[str, Any], lang: str = "en"
    ) -> int:
        """Check and carry out a player's action; returns the new state id."""
        async with table.lock:
            seat = self._check_turn(table, seats, message)
            action = self._resolve_action(table.state, message, lang)
            await self.commit(table, seat, action)
            return table.state.step

    async def commit(self, table: Table, seat: int, action: int) -> None:
        """Apply to a clone, persist, then publish (call with the table lock held)."""
        state = table.state
        new = state.clone()
        try:
            new.apply_checked(action)
        except IllegalAction as err:
            raise RequestError("illegal", str(err)) from err
        action = new.history[-1]  # as the game records it (a double's placement: one form)
        finished = new.is_terminal()
        outcome = new.outcome() if finished else None
        lease = self.leases.after(table, new)
        store = functools.partial(
            self.storage.append_action,
            table.id,
            state.step,
            seat,
            action,
            outcome=None if outcome is None else outcome.to_json(),
            finished=finished,
            version=table.version,
            lease=lease,
        )
        try:
            # the game's end goes in the same transaction as its last action; with several
            # processes the event loop serves the other games while the database works
            table.version = await self.db.write(store)
        except StaleWrite as err:  # another process stored a move first
            await self.sync.refresh_locked(table)
            raise RequestError("stale", "the game has moved on; nothing was stored") from err
        except StorageError as err:
            log.error("game %s: %s", table.id, err)
            raise RequestError("storage", "the action could not be saved; try again") from err
        if lease is not None:
            table.lease_until = lease.until if lease.owner is not None else 0.0
        table.state = new
        table.prev = (new.step, state)
        if new.is_terminal():
            self.finished_game(table)
        await self.relay.push(table)
        self.store.release(table)
        self.wake(table)

    def finished_game(self, table: Table) -> None:
        """Run the finish hooks (ratings…); a failing hook never stops the game."""
        for hook in self.finish_hooks:
            try:
                hook(table)
            except Exception:
                log.exception("a finish hook failed for game %s", table.id)

    # -- undo -----------------------------------------------------------------------------
    def undo_refusal(self, table: Table, seat: int) -> str | None:
        """Why ``seat`` may not take back the last action now (``None``: it may)."""
        return undo_refusal(table, seat)

    async def undo(self, table: Table, seats: Sequence[int], message: Mapping[str, Any]) -> int:
        """Take back the last action for one of ``seats``; returns the new state id."""
        async with table.lock:
            state_id = message.get("state_id")
            if type(state_id) is not int:
                raise RequestError("bad_message", "'state_id' must be an integer")
            if state_id != table.state.step:
                raise RequestError("stale", "the game has moved on")
            wanted = message.get("seat")
            candidates = [wanted] if wanted is not None else list(seats)
            if wanted is not None and (type(wanted) is not int or wanted not in seats):
                raise RequestError("wrong_seat", "you do not hold that seat")
            reason = "nothing to undo"
            for seat in candidates:
                refusal = self.undo_refusal(table, seat)
                if refusal is None:
                    prev = previous_state(table)
                    lease = self.leases.after(table, prev)
                    try:
                        table.version = await self.db.write(
                            functools.partial(
                                self.storage.truncate_actions,
                                table.id,
                                prev.step,
                                version=table.version,
                                lease=lease,
                            )
                        )
                    except StaleWrite as err:
                        await self.sync.refresh_locked(table)
                        raise RequestError("stale", "the game has moved on") from err
                    if lease is not None:
                        table.lease_until = lease.until if lease.owner is not None else 0.0
                    table.state = prev.clone()
                    table.prev = None
                    await self.relay.push(table)
                    self.wake(table)
                    return table.state.step
                reason = refusal
            raise RequestError("cannot_undo", f"cannot undo: {reason}")
