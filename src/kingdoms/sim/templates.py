"""Strategy templates a strategist would recognise, as genomes a search can vary.

A :class:`Genome` is one strategy file in parameter form.  Its shape is one of a
few templates, each written out as an ordinary strategy file (``buy``, ``play``
and ``[decisions]`` in the strategy language's rule form):

* **Big Money + X**: Big Money Ultimate's greening (Province above some total
  money, Duchy and Estate by the Provinces left) plus kingdom cards, each with a
  copy limit (absolute, and optionally one per so many Treasures) and a place in
  the buy list (before Gold or before Silver);
* **draw engine**: the same plus a village kept in step with the terminal cards
  ("Village if count(Village) < count(Smithy) - 1"), played only while a terminal
  is in hand (or as the last Action);
* **trashing engine**: a trasher bought in the opening ("Chapel if count(Chapel)
  == 0 and my_turns < 2"), played when enough junk is in hand, with conditioned
  trash rules ("Estate if left(Province) > 2", "Copper if total_money > 6");
* **gainer / alternative-VP rush**: gainer copies first, the alternative Victory
  card once there are enough gainers, Duchy and Estate by the alternative pile
  left, and the gainer's gain decision following the same rules;
* **Potion**: Potion-cost cards bring a Potion rule ("Potion if count(Potion) <
  N") with them, N varied with the cards;
* **attackers** are kingdom cards like any other (Witch, Militia: copies).

Every field is varied by :func:`mutate` and mixed by :func:`crossover`; both
return a genome :func:`normalize` made valid for the kingdom, so every genome's
:meth:`Genome.to_toml` is a strategy file that loads and passes ``kingdoms
strategy check``.  :func:`template_seeds` gives the starting genomes of a
kingdom: every template its cards allow, with parameters drawn at random.

>>> g = Genome(village="village", extras=(Extra("smithy", 3, False, 8),))
>>> g.templates(), g.actions()
(['draw engine'], ['village', 'smithy'])
>>> for e in g.buy_entries()[5:7]:
...     print(e)
Village if count(Village) < 3 and count(Village) < count(Smithy) - 1
Smithy if count(Smithy) < 3 and count(Smithy) < count(Treasure) / 8
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final

from kingdoms.dominion.data import BY_ID, CARDS

NONTERMINAL: Final = frozenset(
    {
        "village", "festival", "laboratory", "market", "cellar", "harbinger", "merchant",
        "poacher", "sentry", "spy", "alchemist", "apothecary", "familiar", "scrying_pool",
        "golem", "university", "throne_room", "peddler",
    }
)  # fmt: skip
"""Action cards that give back the Action they use (+1 Action or more)."""
VILLAGES: Final = ("village", "festival", "university")
"""+2 Actions: what an engine plays its terminals with."""
DRAW: Final = ("smithy", "council_room", "library", "moat", "witch", "laboratory", "alchemist")
"""Cards that draw (terminal or not): an engine's draw."""
TRASHERS: Final = ("chapel", "sentry")
"""Trashers whose trash decision may stop (``done``): the trashing-engine template."""
GAINERS: Final = ("workshop", "bureaucrat", "woodcutter", "feast", "university", "artisan")
"""Cards that gain (or buy) more cards: a rush's engine."""
GAIN_PURPOSE: Final = {c: f"{c}.gain" for c in ("workshop", "feast", "artisan", "university")}
"""Gainers whose gain is a decision (the rush writes its rules for it)."""
ALT_VP: Final = ("gardens",)
"""Victory cards worth more in a big deck."""
PAYLOAD: Final = ("gold", "market", "festival", "militia", "witch", "laboratory")


def name_of(card: str) -> str:
    """A card's printed (English) name, as strategy files name it."""
    return CARDS[BY_ID[card]].names["en"]


def is_action(card: str) -> bool:
    return CARDS[BY_ID[card]].is_action


def potion_cost(card: str) -> int:
    return CARDS[BY_ID[card]].cost[1]


def coin_cost(card: str) -> int:
    return CARDS[BY_ID[card]].cost[0]


def _clamp(x: int, lo: int, hi: int) -> int:
    return max(lo, min(hi, x))


@dataclass(frozen=True, slots=True)
class Extra:
    """A kingdom card to buy: at most ``copies`` (and, with ``ratio``, at most one per
    ``ratio`` Treasures owned), before Gold (``early``) or before Silver."""

    card: str
    copies: int
    early: bool
    ratio: int = 0

    def entry(self) -> str:
        n = name_of(self.card)
        text = f"{n} if count({n}) < {self.copies}"
        if self.ratio:
            text += f" and count({n}) < count(Treasure) / {self.ratio}"
        return text


@dataclass(frozen=True, slots=True)
class Genome:
    """One strategy in parameter form (see the module's description of the
    templates); the empty genome is Big Money Ultimate."""

    province_money: int = 18
    """Province while total money > this (rush: >=, left out from 28 up)."""
    duchy_late: int = 4
    estate_late: int = 2
    duchy_mid: int = 6
    extras: tuple[Extra, ...] = field(default=())
    play: tuple[str, ...] = ()
    """Play order of the Action cards (cards left out follow, non-terminals first)."""
    village: str = ""
    village_lag: int = 1
    """Village while count(Village) < (terminals owned) - lag."""
    village_max: int = 3
    village_cond: bool = True
    """Play the village only with a terminal in hand, or as the last Action."""
    trasher: str = ""
    trash_turns: int = 2
    """Buy the trasher while my_turns < this (and none owned)."""
    trash_early: bool = False
    """The trasher's buy rule before Gold (else before Silver)."""
    trash_estates: int = 2
    """Trash Estates while left(Province) > this."""
    trash_money: int = 6
    """Trash Coppers while total_money > this."""
    trash_junk: int = 2
    """Play the trasher with this many Estates and Coppers in hand (or a Curse)."""
    potions: int = 1
    """Potions to own when a Potion-cost card is bought."""
    rush: bool = False
    gainer: str = ""
    alt_vp: str = ""
    vp_after: int = 7
    """Rush: the alternative Victory card once count(gainer) >= this."""
    gainer_cap: int = 10
    rush_duchy: int = 4
    """Rush: Duchy while left(alternative VP) <= this and $5 (0: never)."""
    rush_estate: int = 6
    """Rush: Estate while left(alternative VP) <= this."""

    # -- what it is ------------------------------------------------------------------
    def templates(self) -> list[str]:
        """The templates this genome belongs to (for its description)."""
        out = []
        if self.rush:
            out.append(f"{name_of(self.alt_vp)} rush")
        if self.trasher:
            out.append("trashing engine")
        elif self.village:
            out.append("draw engine")
        if any(potion_cost(e.card) for e in self.extras):
            out.append("Potion")
        if not out:
            out.append("Big Money + X" if self.extras else "Big Money")
        return out

    def cards(self) -> list[str]:
        """Kingdom cards the strategy buys, in the order its parts name them."""
        out = [self.gainer, self.alt_vp] if self.rush else []
        out += [self.village, self.trasher] + [e.card for e in self.extras]
        seen: list[str] = []
        for c in out:
            if c and c not in seen:
                seen.append(c)
        return seen

    def actions(self) -> list[str]:
        """The Action cards it buys, in play order."""
        acts = [c for c in self.cards() if is_action(c)]
        order = [c for c in self.play if c in acts]
        rest = [c for c in acts if c not in order]
        rest.sort(key=lambda c: (c not in NONTERMINAL, c == "cellar"))
        return order + rest

    def terminals(self) -> list[str]:
        return [e.card for e in self.extras if is_action(e.card) and e.card not in NONTERMINAL]

    # -- the file --------------------------------------------------------------------
    def play_entries(self) -> list[str]:
        out = []
        terminals = [name_of(c) for c in self.terminals()]
        for c in self.actions():
            n = name_of(c)
            if c == self.village and self.village_cond and terminals:
                held = " or ".join(f"in_hand({t}) >= 1" for t in terminals[:2])
                out.append(
                    f"{n} if {held} or actions == 1 and in_hand({n}) >= 1 and draw_pile_size > 0"
                )
            elif c == self.trasher:
                out.append(
                    f"{n} if in_hand(Estate) + in_hand(Copper) >= {self.trash_junk} "
                    "or in_hand(Curse) >= 1"
                )
            elif c == "throne_room":
                out.append(f"{n} if in_hand(Action) >= 2")
            else:
                out.append(n)
        return out

    def buy_entries(self) -> list[str]:
        return self._rush_buys() if self.rush else self._money_buys()

    def _money_buys(self) -> list[str]:
        out = []
        province = "Province"
        if self.province_money > 0:
            province += f" if total_money > {self.province_money}"
        out.append(province)
        out.append(f"Duchy if left(Province) <= {self.duchy_late}")
        out.append(f"Estate if left(Province) <= {self.estate_late}")
        trash = ""
        if self.trasher:
            t = name_of(self.trasher)
            trash = f"{t} if count({t}) == 0 and my_turns < {self.trash_turns}"
        if trash and self.trash_early:
            out.append(trash)
        out += [e.entry() for e in self.extras if e.early]
        out.append("Gold")
        out.append(f"Duchy if left(Province) <= {self.duchy_mid}")
        if self.village:
            v = name_of(self.village)
            terms = " + ".join(f"count({name_of(c)})" for c in self.terminals()) or "1"
            rule = f"{v} if count({v}) < {self.village_max}"
            if self.terminals():
                rule += f" and count({v}) < {terms} - {self.village_lag}"
            out.append(rule)
        out += [e.entry() for e in self.extras if not e.early]
        if trash and not self.trash_early:
            out.append(trash)
        if any(potion_cost(e.card) for e in self.extras):
            out.append(f"Potion if count(Potion) < {self.potions}")
        out.append("Silver")
        return out

    def _rush_buys(self) -> list[str]:
        g, v = name_of(self.gainer), name_of(self.alt_vp)
        out = []
        if self.province_money < 28:
            out.append(f"Province if total_money >= {self.province_money}")
        out.append(f"{v} if count({g}) >= {self.vp_after}")
        # helpers (+Buy, a payload) before the gainers, or after them
        out += [e.entry() for e in self.extras if e.early]
        out.append(f"{g} if count({g}) < {self.gainer_cap}")
        if self.rush_duchy:
            out.append(f"Duchy if left({v}) <= {self.rush_duchy} and coins >= 5")
        out += [e.entry() for e in self.extras if not e.early]
        out.append(v)
        out.append(f"Estate if left({v}) <= {self.rush_estate}")
        out += [g, "Estate", "Copper"]
        return out

    def decisions(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        if self.trasher:
            out[f"{self.trasher}.trash"] = [
                "Curse",
                f"Estate if left(Province) > {self.trash_estates}",
                f"Copper if total_money > {self.trash_money}",
                "done",
            ]
        if self.rush and self.gainer in GAIN_PURPOSE:
            g, v = name_of(self.gainer), name_of(self.alt_vp)
            out[GAIN_PURPOSE[self.gainer]] = [
                f"{v} if count({g}) >= {self.vp_after}",
                f"{g} if count({g}) < {self.gainer_cap}",
                v,
                f"Estate if left({v}) <= {self.rush_estate}",
                g,
                "Silver",
                "Estate",
            ]
        if "throne_room" in self.cards():
            draws = [name_of(c) for c in self.terminals() if c in DRAW]
            out["throne_room.play"] = [*draws[:1], "Action"]
        return out

    def to_toml(self, name: str, header: Sequence[str] = ()) -> str:
        def items(entries: Sequence[str]) -> list[str]:
            return [f'  "{e}",' for e in entries]

        kinds = ", ".join(self.templates())
        described = ", ".join(name_of(c) for c in self.cards())
        lines = [f"# {h}" for h in header]
        lines.append(f'name = "{name}"')
        lines.append(f'description = "{kinds}' + (f": {described}" if described else "") + '"')
        play = self.play_entries()
        lines += ["play = [", *items(play), "]"] if play else ["play = []"]
        lines += ["buy = [", *items(self.buy_entries()), "]"]
        decisions = self.decisions()
        if decisions:
            lines += ["", "[decisions]"]
            for purpose, entries in decisions.items():
                lines += [f'"{purpose}" = [', *items(entries), "]"]
        return "\n".join(lines) + "\n"


# -- validity -------------------------------------------------------------------------
_BOUNDS: Final = {
    "province_money": (0, 30),
    "duchy_late": (0, 8),
    "estate_late": (0, 8),
    "duchy_mid": (0, 8),
    "village_lag": (-1, 3),
    "village_max": (1, 8),
    "trash_turns": (1, 6),
    "trash_estates": (0, 8),
    "trash_money": (3, 12),
    "trash_junk": (1, 4),
    "potions": (1, 3),
    "vp_after": (0, 12),
    "gainer_cap": (1, 14),
    "rush_duchy": (0, 8),
    "rush_estate": (0, 12),
}


def normalize(g: Genome, cards: Sequence[str]) -> Genome:
    """``g`` made valid for a kingdom of ``cards``: numbers within their bounds, parts
    naming cards not in the kingdom dropped, no card named twice, the rush only with
    a gainer and an alternative Victory card, the play order over the Actions bought."""
    kingdom = set(cards)
    changes: dict[str, object] = {
        k: _clamp(getattr(g, k), lo, hi) for k, (lo, hi) in _BOUNDS.items()
    }
    rush = g.rush and g.gainer in kingdom and g.alt_vp in kingdom
    # a rush's buy list has no place for a village or a trasher
    village = g.village if g.village in kingdom and g.village in VILLAGES and not rush else ""
    trasher = g.trasher if g.trasher in kingdom and g.trasher in TRASHERS and not rush else ""
    gainer = g.gainer if rush else ""
    alt_vp = g.alt_vp if rush else ""
    taken = {village, trasher, gainer, alt_vp}
    extras = []
    for e in g.extras:
        if e.card in kingdom and e.card not in taken:
            taken.add(e.card)
            extras.append(
                replace(
                    e,
                    copies=_clamp(e.copies, 1, 12),
                    ratio=0 if e.ratio <= 0 else _clamp(e.ratio, 3, 16),
                )
            )
    changes.update(
        village=village,
        trasher=trasher,
        rush=rush,
        gainer=gainer,
        alt_vp=alt_vp,
        extras=tuple(extras[:5]),
    )
    out = replace(g, **changes)  # type: ignore[arg-type]
    return replace(out, play=tuple(out.actions()))


# -- variation ------------------------------------------------------------------------
def _new_extra(card: str, rng: random.Random) -> Extra:
    dear = coin_cost(card) >= 6 or potion_cost(card) > 0
    copies = rng.randint(1, 3) if card not in ("laboratory", "market") else rng.randint(2, 8)
    return Extra(card, copies, dear or rng.random() < 0.3, rng.choice((0, 0, 0, 6, 8, 10)))


def mutate(g: Genome, cards: Sequence[str], rng: random.Random) -> Genome:
    """One random change of ``g`` (a threshold, a card added, removed or replaced,
    copies, place, play order, a village, trasher or rush part and their rule
    conditions, the Potions), normalized for the kingdom."""
    kingdom = list(cards)
    extras = list(g.extras)
    op = rng.randrange(16)
    step = rng.choice((-2, -1, 1, 2))
    out = g
    if op == 0:
        out = replace(g, province_money=g.province_money + rng.randint(-3, 3))
    elif op == 1:
        key = rng.choice(("duchy_late", "estate_late", "duchy_mid"))
        out = replace(g, **{key: getattr(g, key) + rng.choice((-1, 1))})
    elif op in (2, 3) or not extras:
        free = [c for c in kingdom if c not in g.cards()]
        if free:
            extras.insert(rng.randint(0, len(extras)), _new_extra(rng.choice(free), rng))
        out = replace(g, extras=tuple(extras))
    elif op == 4:
        del extras[rng.randrange(len(extras))]
        out = replace(g, extras=tuple(extras))
    elif op in (5, 6):
        i = rng.randrange(len(extras))
        e = extras[i]
        if rng.random() < 0.7:
            extras[i] = replace(e, copies=e.copies + rng.choice((-1, 1, 2)))
        elif rng.random() < 0.5:
            extras[i] = replace(e, early=not e.early)
        else:
            extras[i] = replace(e, ratio=0 if e.ratio else 8, copies=max(e.copies, 3))
        out = replace(g, extras=tuple(extras))
    elif op == 7:
        i, j = rng.randrange(len(extras)), rng.randrange(len(extras))
        extras[i], extras[j] = extras[j], extras[i]
        out = replace(g, extras=tuple(extras))
    elif op == 8:
        order = list(g.play)
        if len(order) >= 2:
            i = rng.randrange(len(order) - 1)
            order[i], order[i + 1] = order[i + 1], order[i]
        out = replace(g, play=tuple(order))
    elif op == 9:
        villages = [c for c in VILLAGES if c in kingdom]
        if (g.village and rng.random() < 0.3) or not villages:
            out = replace(g, village="")
        elif not g.village:
            out = replace(g, village=rng.choice(villages))
        else:
            key = rng.choice(("village_lag", "village_max", "village_cond"))
            value: Any = not g.village_cond if key == "village_cond" else getattr(g, key) + step
            out = replace(g, **{key: value})
    elif op in (10, 11):
        trashers = [c for c in TRASHERS if c in kingdom]
        if (g.trasher and rng.random() < 0.2) or not trashers:
            out = replace(g, trasher="")
        elif not g.trasher:
            out = replace(g, trasher=rng.choice(trashers))
        else:
            key = rng.choice(
                ("trash_turns", "trash_early", "trash_estates", "trash_money", "trash_junk")
            )
            flag: Any = not g.trash_early if key == "trash_early" else getattr(g, key) + step
            out = replace(g, **{key: flag})
    elif op == 12:
        out = replace(g, potions=g.potions + rng.choice((-1, 1)))
    else:
        gainers = [c for c in GAINERS if c in kingdom]
        alts = [c for c in ALT_VP if c in kingdom]
        if not g.rush:
            if gainers and alts and rng.random() < 0.5:
                out = replace(g, rush=True, gainer=rng.choice(gainers), alt_vp=rng.choice(alts))
            else:
                out = replace(g, province_money=g.province_money + rng.randint(-2, 2))
        elif rng.random() < 0.1:
            out = replace(g, rush=False)
        elif rng.random() < 0.1 and len(gainers) > 1:
            out = replace(g, gainer=rng.choice([c for c in gainers if c != g.gainer]))
        else:
            key = rng.choice(
                ("vp_after", "gainer_cap", "rush_duchy", "rush_estate", "province_money")
            )
            out = replace(g, **{key: getattr(g, key) + step})
    return normalize(out, kingdom)


def crossover(a: Genome, b: Genome, cards: Sequence[str], rng: random.Random) -> Genome:
    """A child taking each part from either parent: every field from ``a`` or ``b``
    at random, the kingdom cards a cut of ``a``'s followed by ``b``'s others."""
    changes: dict[str, object] = {}
    for f in fields(Genome):
        if f.name in ("extras", "play"):
            continue
        changes[f.name] = getattr(a if rng.random() < 0.5 else b, f.name)
    # the rush's parts travel together
    src = a if rng.random() < 0.5 else b
    changes.update(rush=src.rush, gainer=src.gainer, alt_vp=src.alt_vp)
    cut = rng.randint(0, len(a.extras))
    head = list(a.extras[:cut])
    tail = [e for e in b.extras if e.card not in {x.card for x in head}]
    changes["extras"] = tuple(head + tail[: rng.randint(0, len(tail))])
    changes["play"] = a.play if rng.random() < 0.5 else b.play
    return normalize(replace(a, **changes), list(cards))  # type: ignore[arg-type]


# -- the starting points -----------------------------------------------------------
def template_seeds(cards: Sequence[str], rng: random.Random) -> list[Genome]:
    """A kingdom's starting genomes: one or more of every template its cards allow
    (Big Money + each card, draw engines of each village and draw card, a trashing
    engine of each trasher with each partner, a rush of each gainer and alternative
    Victory card, each Potion-cost card with its Potions), parameters drawn at random
    around a strategist's usual values.  Nothing here is read from a bundled bot."""
    kingdom = list(cards)
    have = set(kingdom)
    out: list[Genome] = []

    def money(lo: int, hi: int) -> int:
        return rng.randint(lo, hi)

    def green(**parts: Any) -> Genome:
        """A genome of ``parts`` with greening thresholds drawn at random."""
        base = Genome(
            duchy_late=rng.randint(3, 5), estate_late=rng.randint(1, 3), duchy_mid=rng.randint(4, 7)
        )
        return replace(base, **parts)

    out.append(green(province_money=money(15, 19)))
    for c in kingdom:  # Big Money + X (attackers, Potion-cost cards included)
        out.append(
            green(
                province_money=money(14, 19),
                extras=(_new_extra(c, rng),),
                potions=rng.randint(1, 2),
            )
        )
    draws = [c for c in DRAW if c in have and c not in NONTERMINAL]
    for vil in [c for c in VILLAGES if c in have]:
        for d in draws:
            extras: list[Extra] = [Extra(d, rng.randint(2, 4), False, rng.choice((0, 8, 10)))]
            payload = [c for c in PAYLOAD if c in have and c not in (vil, d)]
            if payload and rng.random() < 0.5:
                extras.append(_new_extra(rng.choice(payload), rng))
            out.append(
                green(
                    province_money=money(14, 18),
                    extras=tuple(extras),
                    village=vil,
                    village_lag=rng.randint(0, 2),
                    village_max=rng.randint(2, 5),
                )
            )
    for labs in [c for c in ("laboratory", "market", "alchemist") if c in have]:
        out.append(
            green(
                province_money=money(14, 18),
                extras=(Extra(labs, rng.randint(3, 8), False),),
            )
        )
    if "throne_room" in have:
        for d in draws:
            out.append(
                green(
                    province_money=money(14, 18),
                    extras=(Extra(d, rng.randint(1, 3), False), Extra("throne_room", 1, False)),
                )
            )
    partners = [c for c in kingdom if is_action(c) and c not in TRASHERS]
    for t in [c for c in TRASHERS if c in have]:
        for p in [*partners, ""]:
            one = () if not p else (_new_extra(p, rng),)
            out.append(
                green(
                    province_money=money(12, 17),
                    extras=one,
                    trasher=t,
                    trash_turns=rng.randint(1, 3),
                    trash_early=rng.random() < 0.5,
                    trash_estates=rng.randint(1, 4),
                    trash_money=rng.randint(4, 8),
                    trash_junk=rng.randint(1, 3),
                )
            )
    for gnr in [c for c in GAINERS if c in have]:
        for v in [c for c in ALT_VP if c in have]:
            helpers = [c for c in ("woodcutter", "market", "festival") if c in have and c != gnr]
            helper = (
                (_new_extra(rng.choice(helpers), rng),) if helpers and rng.random() < 0.3 else ()
            )
            out.append(
                green(
                    province_money=money(20, 30),
                    rush=True,
                    gainer=gnr,
                    alt_vp=v,
                    vp_after=rng.randint(3, 9),
                    gainer_cap=rng.randint(6, 12),
                    rush_duchy=rng.randint(0, 6),
                    rush_estate=rng.randint(2, 8),
                    extras=helper,
                )
            )
    for p in [c for c in kingdom if potion_cost(c) and is_action(c)]:
        partner = [c for c in ("laboratory", "market", "smithy") if c in have]
        cards_p: list[Extra] = [Extra(p, rng.randint(1, 4), rng.random() < 0.7)]
        if partner and rng.random() < 0.6:
            cards_p.append(_new_extra(rng.choice(partner), rng))
        out.append(
            green(
                province_money=money(15, 19),
                extras=tuple(cards_p),
                potions=rng.randint(1, 2),
            )
        )
    return [normalize(g, kingdom) for g in out]


def template_of(g: Genome) -> str:
    """The genome's main template (the first of :meth:`Genome.templates`)."""
    return g.templates()[0]


def combos(card: str, cards: Sequence[str], rng: random.Random) -> list[Genome]:
    """The starting genomes that use ``card`` and at most one other kingdom card:
    ``card``'s two-card combinations (the templates of :func:`template_seeds`, and
    Big Money with ``card`` and each partner)."""
    out = []
    for g in template_seeds(cards, rng):
        if card not in g.cards():
            continue
        extras = list(g.extras)
        while len(g.cards()) > 2 and any(e.card != card for e in extras):
            extras.remove(next(e for e in reversed(extras) if e.card != card))
            g = normalize(replace(g, extras=tuple(extras)), list(cards))
        if len(g.cards()) <= 2 and g not in out:
            out.append(g)
    for p in cards:
        if p != card:
            out.append(
                normalize(Genome(extras=(_new_extra(card, rng), _new_extra(p, rng))), list(cards))
            )
    return out
