"""Games that reach every decision the Dominion engine can ask: for each ``(kind,
zone)`` of :data:`kingdoms.dominion.decisions.SPECS`, a kingdom, a seed and the moves
that lead to it, found by playing seeded games with a simple policy (buy the kingdom's
cards, play every Action, answer at random).  The browser tests send these moves to a
seeded server and check the board at that decision; a kind or zone added to the engine
is met here, or the tests say which one no game reached."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import Any

import kingdoms.dominion.cards  # noqa: F401  (the cards declare their decisions)
from kingdoms.core.registry import get_game
from kingdoms.dominion import actions as A
from kingdoms.dominion.data import CARDS
from kingdoms.dominion.decisions import SPECS

KINGDOMS: tuple[dict[str, object], ...] = (
    {
        "kingdom": "Harbinger, Sentry, Herbalist, Bandit, Vassal, Library, Alchemist, "
        "Apothecary, Golem, Workshop",
        "base_edition": 2,
    },
    {
        "kingdom": "Thief, Chancellor, Spy, Militia, Moat, Throne Room, Chapel, "
        "Moneylender, Workshop, Mine"
    },
)
"""Two kingdoms whose cards ask every decision between them."""


@dataclass(frozen=True)
class Reached:
    options: dict[str, object]
    seed: int
    moves: tuple[int, ...]
    """The moves from the start; after them the seat to move faces the decision."""
    purpose: str
    game: str = "dominion"


def wanted() -> set[tuple[str, str]]:
    """Every ``(kind, zone)`` a Dominion decision has."""
    return {(s.kind, s.zone) for s in SPECS.values()}


def _policy(st: Any, rng: random.Random, kingdom: set[int]) -> int:
    legal: list[int] = st.legal_actions()
    by_kind: dict[int, list[int]] = {}
    for a in legal:
        by_kind.setdefault(A.decode(a)[0], []).append(a)
    if st.stack:
        return rng.choice(legal)  # a decision: any answer
    if A.PLAY in by_kind:
        return rng.choice(by_kind[A.PLAY])
    if A.PLAY_ALL_TREASURES in by_kind:
        return A.A_ALL_TREASURES
    if A.BUY in by_kind:
        buys = by_kind[A.BUY]
        names = {A.decode(a)[1]: a for a in buys}
        wish = [c for c in names if c in kingdom]
        if wish and rng.random() < 0.8:
            return names[rng.choice(wish)]
        for extra in ("potion", "gold", "silver"):
            c = next((c for c in names if CARDS[c].id == extra), None)
            if c is not None and rng.random() < 0.7:
                return names[c]
    return A.A_END_PHASE if A.A_END_PHASE in legal else rng.choice(legal)


def first_buy_phase(options: dict[str, object], buys: int, seeds: int = 200) -> Reached:
    """The first seeded game (in seed order, played by :func:`_policy`) reaching a buy
    phase with its Treasures played and at least ``buys`` cards to buy."""
    spec = get_game("dominion")
    ids = {c.id: i for i, c in enumerate(CARDS)}
    basic = ("copper", "silver", "gold", "estate", "duchy", "province", "curse", "potion")
    for seed in range(seeds):
        st: Any = spec.create(spec.config(2, seed, dict(options)))
        kingdom = {ids[v["card"]] for v in st.view(0)["supply"] if v["card"] not in basic}
        rng = random.Random(seed)
        moves: list[int] = []
        while not st.is_terminal() and len(moves) < 400:
            legal = st.legal_actions()
            offered = sum(1 for a in legal if A.decode(a)[0] == A.BUY)
            if not st.stack and A.A_ALL_TREASURES not in legal and offered >= buys:
                return Reached(dict(options), seed, tuple(moves), f"{offered} buys")
            action = _policy(st, rng, kingdom)
            moves.append(action)
            st.apply(action)
    raise AssertionError(f"no seeded game reached a buy phase with {buys} buys")


@cache
def reach_all(tries: int = 200, turns: int = 40) -> dict[tuple[str, str], Reached]:
    """The first game (in seed order) reaching each ``(kind, zone)``."""
    spec = get_game("dominion")
    found: dict[tuple[str, str], Reached] = {}
    goal = wanted()
    for seed in range(1, tries + 1):
        for options in KINGDOMS:
            st: Any = spec.create(spec.config(2, seed, dict(options)))
            ids = {c.id: i for i, c in enumerate(CARDS)}
            kingdom = {ids[v["card"]] for v in st.view(0)["supply"] if v["card"] in ids}
            kingdom -= {ids[x] for x in ("copper", "silver", "gold", "estate", "duchy")}
            kingdom -= {ids[x] for x in ("province", "curse")}
            rng = random.Random(seed)
            moves: list[int] = []
            while not st.is_terminal() and sum(st.turns) < turns:
                if st.stack:
                    fr = st.stack[-1]
                    s = SPECS[fr.code]
                    if (s.kind, s.zone) not in found:
                        found[(s.kind, s.zone)] = Reached(
                            dict(options), seed, tuple(moves), s.purpose
                        )
                a = _policy(st, rng, kingdom)
                moves.append(a)
                st.apply(a)
            if goal <= set(found):
                return found
    return found


@cache
def kingdomino_kinds(variant: str, games: int = 5) -> dict[str, Reached]:
    """Each kind of Kingdomino decision (its actions' ``info.kind``: pick, place,
    discard, …) met in ``games`` seeded random games of ``variant`` ("standard":
    none), with the first game and moves reaching it (the seat to move then has only
    that kind of answer)."""
    spec = get_game("kingdomino")
    options: dict[str, object] = {} if variant == "standard" else {"variants": [variant]}
    found: dict[str, Reached] = {}
    for seed in range(1, games + 1):
        st: Any = spec.create(spec.config(2, seed, dict(options)))
        rng = random.Random(seed)
        moves: list[int] = []
        while not st.is_terminal():
            legal = st.legal_actions()
            kinds = {st.action_info(a)["kind"] for a in legal}
            if len(kinds) == 1 and (kind := kinds.pop()) not in found:
                found[kind] = Reached(dict(options), seed, tuple(moves), kind, "kingdomino")
            a = rng.choice(legal)
            moves.append(a)
            st.apply(a)
    return found


def send_moves(server: str, game_id: str, tokens: list[str], moves: tuple[int, ...]) -> None:
    """Play ``moves`` in a game through its WebSocket, as the hot-seat page does (one
    connection holding every seat), each sent once the one before is acknowledged."""
    import json

    from websockets.sync.client import connect

    url = server.replace("http://", "ws://") + f"/ws/{game_id}"
    with connect(url, max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": tokens, "lang": "en"}))
        while json.loads(ws.recv(timeout=10))["type"] != "state":
            pass
        for step, action in enumerate(moves):
            ws.send(json.dumps({"type": "action", "action": action, "state_id": step, "ref": step}))
            while True:
                msg = json.loads(ws.recv(timeout=10))
                if msg["type"] == "error":
                    raise AssertionError(f"move {step} ({action}) refused: {msg}")
                if msg["type"] == "ack" and msg.get("ref") == step:
                    break


def open_at(page: Any, server: str, reached: Reached) -> None:
    """A hot-seat game (Ann, Kuba) at ``reached``'s decision, open in ``page``."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Kuba"}]
    data = {"game": reached.game, "seats": seats, "options": reached.options, "seed": reached.seed}
    res = page.request.post(server + "/api/games", data=data)
    assert res.ok, res.text()
    info = res.json()
    tokens = [s["token"] for s in info["seats"]]
    send_moves(server, info["id"], tokens, reached.moves)
    page.goto(f"{server}/game/{info['id']}#t={','.join(tokens)}")


def open_decision(page: Any, server: str, kind: str, zone: str) -> None:
    """A hot-seat game open in ``page`` at a ``kind`` decision offering cards of
    ``zone``, passed to the seat that decides (``server``: seeded, unthrottled)."""
    found = reach_all()
    assert (kind, zone) in found, (
        f"no seeded game reaches a {kind!r} decision from {zone!r}: add a card asking it "
        "to tests/browser/reach.py KINGDOMS"
    )
    open_at(page, server, found[(kind, zone)])
    page.wait_for_selector("#d-decision[data-kind], #pass-screen:not([hidden])")
    if page.query_selector("#pass-screen:not([hidden])"):
        page.keyboard.press("Enter")
        page.wait_for_selector("#pass-screen", state="hidden")
    page.wait_for_selector("#choices > .choice")
    # the decision's panel is drawn with (not before) its choices: wait for both
    shown = page.wait_for_function(
        "(() => { const d = document.querySelector('#d-decision[data-kind]');"
        " return d && document.querySelector('#choices > .choice')"
        " ? `${d.dataset.kind}:${d.dataset.zone}` : null; })()"
    ).json_value()
    assert shown == f"{kind}:{zone}", shown
