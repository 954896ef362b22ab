"""What a seat sees, and the text of actions and log events (en/pl/cs).

``view(player)`` shape (all JSON)::

    {
      "game": "dominion",
      "player": 1,                 # the seat this view is for
      "phase": "action" | "buy" | "over",
      "turn": 0,                   # whose turn it is
      "to_move": 0,                # who must decide now (-1: game over)
      "decision": null | {         # the pending mid-card decision, if any
          "kind": "choose_cards",  # choose_cards | choose_pile | order | yes_no
          "purpose": "militia.discard",      # <card id>.<verb>
          "prompt": "Militia: discard down to 3 cards.",  # English msgid (catalogs)
          "zone": "hand",          # where the offered cards are (hand, play, set_aside,
                                   # looking, trash, discard, deck, supply)
          "whose": 1,              # the seat whose cards are offered
          "code": "militia",       # the engine's frame code
          "who": 1, "card": "militia",       # the seat deciding and the card that asked
          "min": 1, "max": 1,      # picks in this step (0: "done" is allowed)
          "total": {"min": 0, "max": 4, "picked": 1},   # the whole decision (Chapel);
                                   # max null: any number (Cellar)
          "about": {"player": 0, "card": "gold"},  # what it is about, if one card/seat
          # only in the deciding seat's view:
          "choices": [{"action": 182, "answer": "card", "card": "copper"}, ...],
          "actions": [182, ...],   # the legal actions, as in choices
          "options": ["discard Copper", ...]  # their texts
      },
      "actions": 1, "buys": 1, "coins": 0, "potions": 0,
      "supply": [{"card": "copper", "count": 46, "cost": [0, 0]}, ...],
      "kingdom": ["cellar", ...],
      "rules": {"base_edition": 1, "alchemy_errata": false},
      "trash": ["copper", ...],
      "players": [{"hand_size": 5, "deck_size": 5, "discard_size": 0,
                   "discard_top": null | "copper",  # as this seat sees it: the
                                   # top card under a discard of several cards still
                                   # being made by another seat
                   "in_play": [...],
                   "set_aside": [...], "turns": 0, "owned": {"copper": 7, ...}}, ...],
      "hand": ["copper", ...],     # this seat's own hand only
      "known_top": ["laboratory", ...],  # this seat only: the cards it put on top
                                   # of its own deck itself, still there (top first)
      "possession": null | {"player": 1, "by": 0, "hand": [...], "looking": [...]},
                                   # a Possession turn (hand and looking: the
                                   # possessor's view only)
      "seen_hands": [{"player": 1, "hand": [...]}],  # the hands this seat saw drawn
                                   # at the Clean-up of turns it possessed (until
                                   # that seat's next Clean-up)
      "outcome": null | {...},     # once the game is over
      "engine": {...}              # public bookkeeping for rebuilding a state:
                                   # kingdoms.dominion.rebuild.public_engine
    }

Other players' hands and every deck order are never in a view.

Decision kinds, purposes, zones and prompts: :mod:`kingdoms.dominion.decisions`
(answers are the legal actions, one pick at a time).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kingdoms.core.state import JSONDict
from kingdoms.dominion import actions as A
from kingdoms.dominion.data import BY_ID, CARDS, COIN_COST, POTION_COST
from kingdoms.dominion.decisions import SPECS, describe
from kingdoms.dominion.rebuild import public_engine
from kingdoms.i18n import ngettext, translator

if TYPE_CHECKING:
    from kingdoms.dominion.state import DominionState, Frame

PHASES = ("action", "buy", "over", "cleanup")


IDS = [c.id for c in CARDS]
"""Card index -> id (grows with added cards: :mod:`kingdoms.dominion.extend`)."""


def make_view(st: DominionState, player: int) -> JSONDict:
    ids = IDS
    decision: JSONDict | None = None
    if st.stack:
        fr = st.stack[-1]
        mine = st.current_player == player
        legal = st.legal_actions()
        decision = describe(st, fr, legal if mine else None)
        decision.update(
            code=fr.code,
            who=fr.who,
            card=ids[fr.card] if fr.card else None,
            min=0 if A.A_DONE in legal else 1,
            max=1,
        )
        if "total" not in decision:
            decision["total"] = {"min": decision["min"], "max": 1, "picked": 0}
        subject = _subject(st, fr)
        if subject is not None and (SPECS[fr.code].zone != "hand" or mine):
            # (a card about to enter the hand, as Library's: only its owner sees it)
            decision["about"] = subject
        if mine:
            decision["options"] = [st.action_to_str(a) for a in legal]
            decision["actions"] = legal
    players = []
    for q in range(st.num_players):
        disc = st.discards[q]
        owned = st.owned(q)
        top = st.shown_discard_top(q, player)
        players.append(
            {
                "hand_size": len(st.hands[q]),
                "deck_size": len(st.decks[q]),
                "discard_size": len(disc),
                "discard_top": ids[top] if top >= 0 else None,
                "in_play": [ids[c] for c in st.in_play[q]],
                "set_aside": [ids[c] for c in st.set_aside_of(q)],
                "looking_count": len(st.looking[q]),
                "turns": st.turns[q],
                "owned": {ids[c]: owned.count(c) for c in sorted(set(owned))},
            }
        )
    out = st.outcome() if st.phase == 2 else None
    supply = st.supply
    return {
        "game": "dominion",
        "player": player,
        "phase": PHASES[st.phase],
        "turn": st.turn,
        "to_move": st.current_player,
        "decision": decision,
        "actions": st.actions,
        "buys": st.buys,
        "coins": st.coins,
        "potions": st.potions,
        "supply": [
            {"card": ids[c], "count": supply[c], "cost": [COIN_COST[c], POTION_COST[c]]}
            for c in st.piles
        ],
        "kingdom": list(st.config.options["kingdom"]),
        "rules": {"base_edition": st.edition, "alchemy_errata": st.alchemy_errata},
        "trash": [ids[c] for c in st.trash],
        "players": players,
        "hand": sorted(ids[c] for c in st.hands[player]),
        "looking": [ids[c] for c in st.looking[player]],
        "known_top": [ids[c] for c in st.known_top(player)],
        "possession": _possession(st, player),
        "seen_hands": [
            {"player": t[1], "hand": sorted(ids[c] for c in t[2:])}
            for t in st.seen_hands
            if t[0] == player
        ],
        "outcome": out.to_json() if out else None,
        "engine": public_engine(st, player),
    }


def make_public_view(st: DominionState) -> JSONDict:
    """What a spectator may see: the view of a seat not deciding now, without that
    seat's own cards (hand, cards looked at) and without anyone's choices."""
    seat = (st.current_player + 1) % st.num_players if st.current_player >= 0 else 0
    out = make_view(st, seat)
    out["player"] = None
    out["hand"] = []
    out["looking"] = []
    out["known_top"] = []
    out["engine"] = public_engine(st, None)
    out["seen_hands"] = []
    for q, seat_view in enumerate(out["players"]):
        top = st.shown_discard_top(q, -1)
        seat_view["discard_top"] = IDS[top] if top >= 0 else None
    if out["possession"] is not None:
        out["possession"] = {"player": out["possession"]["player"], "by": out["possession"]["by"]}
    if out["decision"] is not None:
        out["decision"] = {
            k: v for k, v in out["decision"].items() if k not in ("options", "actions")
        }
    return out


def _subject(st: DominionState, fr: Frame) -> JSONDict | None:
    """Whose card (and which) a decision is about, for a clear prompt."""
    spec = SPECS[fr.code]
    whose = fr.field(spec.whose) if spec.whose >= 0 else fr.who
    if spec.subject >= 0:
        return {"player": whose, "card": IDS[fr.field(spec.subject)]}
    if spec.whose >= 0:
        return {"player": whose}
    return None


def _possession(st: DominionState, player: int) -> JSONDict | None:
    """A Possession turn: who is possessed by whom; the possessor also sees what the
    possessed player may see (their hand and the cards they are looking at)."""
    if st.controller < 0:
        return None
    out: JSONDict = {"player": st.turn, "by": st.controller}
    if player == st.controller and player != st.turn:
        out["hand"] = sorted(IDS[c] for c in st.hands[st.turn])
        out["looking"] = [IDS[c] for c in st.looking[st.turn]]
    return out


def action_text(st: DominionState, action: int, lang: str = "en") -> str:
    _ = translator(lang)
    kind, c = A.decode(action)
    name = CARDS[c].name(lang)
    if kind == A.PLAY:
        return _("play {card}").format(card=name)
    if kind == A.BUY:
        return _("buy {card}").format(card=name)
    if kind == A.GAIN:
        return _("gain {card}").format(card=name)
    if kind == A.PLAY_ALL_TREASURES:
        return _("play all treasures")
    if kind == A.END_PHASE:
        return _("end actions") if st.phase == 0 else _("end buys")
    if kind == A.DONE:
        return _("done")
    spec = SPECS.get(st.stack[-1].code) if st.stack else None
    if spec is None:
        return _("choose {card}").format(card=name) if kind == A.CHOOSE else _(A.KIND_NAMES[kind])
    if kind == A.CHOOSE:
        return _(spec.pick).format(card=name)
    subject = st.stack[-1].field(spec.subject) if spec.subject >= 0 else -1
    text = spec.yes if kind == A.YES else spec.no
    return _(text).format(card=CARDS[subject].name(lang) if subject >= 0 else "")


EVENT_TEXT = {
    "turn": "{who}: turn {number}",
    "play": "{who} plays {card}",
    "buy": "{who} buys {card}",
    "gain": "{who} gains {card}",
    "trash": "{who} trashes {card}",
    "discard": "{who} discards {card}",
    "reveal": "{who} reveals {cards}",
    "shuffle": "{who} shuffles",
    "deck_discarded": "{who} puts their deck into the discard pile",
    "end": "Game over ({by})",
    "topdeck": "{who} puts a card on their deck",
    "possession": "{who} will possess the next player",
    "extra_turn_skipped": "{who} takes no second extra turn in a row",
    "setup": "Kingdom: {cards}",
}


DRAW_TEXT = ("{who} draws {count} card", "{who} draws {count} cards")
"""A draw's text: its plural form chosen by the catalog's rule for the count."""
DISCARD_TEXT = ("{who} discards {count} card", "{who} discards {count} cards")
"""Cards discarded together: the count, in the catalog's plural form for it."""
BUY_TEXT = "{who} buys {card} with {coins}"
"""A buy, with the money the player had when buying it ($5, $3+1P with a Potion)."""


def rules_text(base_edition: int, alchemy_errata: bool, lang: str = "en") -> str:
    """The game's rules-version options in words ("base cards: 1st edition; ...")."""
    _ = translator(lang)
    edition = _("1st edition") if base_edition == 1 else _("2nd edition")
    errata = _("on") if alchemy_errata else _("off")
    return (
        _("base cards: {edition}").format(edition=edition)
        + "; "
        + _("Alchemy errata: {state}").format(state=errata)
    )


def _card_name(cid: str, lang: str) -> str:
    return CARDS[BY_ID[cid]].name(lang) if cid in BY_ID else cid


def event_text(event: Mapping[str, Any], lang: str = "en") -> str:
    _ = translator(lang)
    kind = str(event.get("type"))
    who = _("player {n}").format(n=event["player"] + 1) if event.get("player") is not None else ""
    if kind == "setup":
        kingdom = ", ".join(_card_name(c, lang) for c in event.get("kingdom", []))
        edition, errata = int(event.get("base_edition", 1)), bool(event.get("alchemy_errata"))
        rules = rules_text(edition, errata, lang)
        return _(EVENT_TEXT[kind]).format(cards=kingdom) + f" ({rules})"
    if kind == "draw":
        count = int(event.get("count", 0))
        text = ngettext(lang, *DRAW_TEXT, count).format(who=who, count=count)
        if event.get("cards"):
            text += ": " + ", ".join(_card_name(c, lang) for c in event["cards"])
        return text
    if kind == "buy" and "coins" in event:
        money = f"${event['coins']}" + (f"+{event['potions']}P" if event.get("potions") else "")
        return _(BUY_TEXT).format(
            who=who, card=_card_name(str(event.get("card", "")), lang), coins=money
        )
    if kind == "discard" and "count" in event:
        # cards discarded together: how many and the top card; the seers see them all
        count = int(event["count"])
        text = ngettext(lang, *DISCARD_TEXT, count).format(who=who, count=count)
        if "cards" in event:
            return text + ": " + ", ".join(_card_name(c, lang) for c in event["cards"])
        top = _("{card} on top").format(card=_card_name(str(event.get("top", "")), lang))
        return f"{text} ({top})"
    template = EVENT_TEXT.get(kind)
    if template is None:
        return f"{who} {kind}".strip()
    text = _(template).format(
        who=who,
        number=event.get("number", ""),
        card=_card_name(str(event.get("card", "")), lang),
        cards=", ".join(_card_name(c, lang) for c in event.get("cards", [])),
        count=event.get("count", ""),
        by=_(str(event.get("by", ""))),
    )
    if kind == "turn" and event.get("possessed_by") is not None:
        text += " " + _("(possessed by player {n})").format(n=event["possessed_by"] + 1)
    if kind == "topdeck" and event.get("card"):
        text += ": " + _card_name(str(event["card"]), lang)
    if kind == "play" and event.get("by"):
        text += " " + _("(via {card})").format(card=_card_name(str(event["by"]), lang))
    return text
