"""One push builds the parts its messages share once (:class:`Snapshot`): each seat's
message is the same as one built alone, hidden information included."""

from __future__ import annotations

import random

from kingdoms.core import new_game
from kingdoms.server.table import Snapshot, Table, state_message_from


def test_shared_parts_give_each_seat_the_message_built_alone() -> None:
    state = new_game("dominion", players=3, seed=11)
    seats = [{"kind": "human", "name": n, "joined": True} for n in ("Ann", "Bob", "Cy")]
    table = Table(id="g1", state=state, seats=seats, meta={}, bots={})
    rng = random.Random(5)
    secrets_seen = 0
    for _ in range(160):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        start = max(0, len(state.log) - 6)
        snap = Snapshot(table)
        for lang in ("en", "pl"):
            shared = [
                state_message_from(table, s, snap.view(s), start, lang, snap) for s in range(3)
            ]
            alone = [state_message_from(table, s, state.view(s), start, lang) for s in range(3)]
            assert shared == alone
        secrets_seen += sum(e.secret is not None for e in state.log[start:])
        # what a seat may not see never reaches it: another seat's drawn cards
        for event in state.log[start:]:
            if event.secret is not None:
                outsider = next((s for s in range(3) if s not in event.audience), None)
                if outsider is not None:
                    entry = snap.log_entry(event, outsider, "en")
                    assert all(k not in entry for k in event.secret if k not in event.data)
    assert secrets_seen > 0
