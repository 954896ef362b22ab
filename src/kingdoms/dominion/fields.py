"""The declared fields of a Dominion state, and how each is copied and saved.

Each part of :class:`kingdoms.dominion.state.DominionState` (stack, zones, turn)
lists its fields once, as :class:`Field` rows next to their type annotations; its
``__slots__`` are made from that list.  :data:`kingdoms.dominion.state.FIELDS`
joins the parts' lists, and everything that must know every field reads it:
``clone`` (through the :data:`SAME`/:data:`COPIED`/:data:`NESTED` groups made by
:func:`copy_groups`), ``snapshot``/``restore`` (:func:`to_json`/:func:`from_json`)
and the public bookkeeping of a view that :mod:`kingdoms.dominion.rebuild` reads
back (fields marked ``engine``: :func:`to_public`/:func:`from_public`).  Adding a
field is one row (and its annotation); ``tests/dominion/test_fields.py`` checks
that clone and snapshot cover every field.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from kingdoms.core.errors import InvalidArgument
from kingdoms.dominion.data import BY_ID, CARDS
from kingdoms.dominion.frames import Frame

VALUE: Final = "value"
"""An int, bool or str: shared by a copy, itself in a snapshot."""
SHARED: Final = "shared"
"""A list of ints the engine never changes in place (replaced whole): copied all the
same, so that a copy changed in place leaves its original alone."""
LIST: Final = "list"
"""A list of ints or bools (counts, seats, flags): copied."""
CARD_LIST: Final = "cards"
"""A list of card indices: copied; card ids in a view's public bookkeeping."""
ZONES: Final = "zones"
"""One list of card indices per seat: each list copied."""
FRAMES: Final = "frames"
"""A list of :class:`Frame` (never changed once made): copied; rows in a snapshot."""
TUPLES: Final = "tuples"
"""A list of tuples of ints: copied; lists in a snapshot."""
DERIVED: Final = "derived"
"""Counted from the other fields (card totals): copied, left out of a snapshot,
counted again on restore."""
TOTALS: Final = "totals"
"""A tuple of ints counted from the other fields (the card totals): immutable, so
shared by a copy; left out of a snapshot, counted again on restore."""
COUNTS: Final = "counts"
"""Per seat, one count per card, kept up to date as cards move (the owned counts):
each list copied by a copy, left out of a snapshot, counted again on restore."""

CACHE: Final = "cache"
"""A memo of what the other fields give (a dict, emptied when they change it): a copy
starts with an empty one; left out of a snapshot, empty on restore."""

KINDS: Final = (
    *(VALUE, SHARED, LIST, CARD_LIST, ZONES, FRAMES, TUPLES, DERIVED, TOTALS, COUNTS, CACHE),
)
UNSAVED: Final = (DERIVED, TOTALS, COUNTS, CACHE)
"""The kinds made from the other fields: not in a snapshot, made again on restore."""


@dataclass(frozen=True)
class Field:
    """One field of the state: its ``name``, its ``kind`` (how it is copied and
    saved), the type of the value or of its items (``of``: int, bool or str), and
    whether a view's public bookkeeping (``view["engine"]``) carries it."""

    name: str
    kind: str
    of: type = int
    engine: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"field {self.name!r}: unknown kind {self.kind!r}")


def card_indices(ids: Sequence[str]) -> list[int]:
    """The card indices of card ids; an unknown id raises :class:`InvalidArgument`."""
    out = []
    for cid in ids:
        c = BY_ID.get(cid)
        if c is None:
            raise InvalidArgument(f"not a Dominion view: unknown card {cid!r}")
        out.append(c)
    return out


def names(fields: Sequence[Field]) -> tuple[str, ...]:
    """The fields' names, in order (a part's ``__slots__``)."""
    return tuple(f.name for f in fields)


def copy_groups(fields: Sequence[Field]) -> tuple[tuple[str, ...], ...]:
    """(shared by a copy, copied as a list, copied list by list, empty in a copy): what
    ``clone`` does.  Only immutable values (ints, bools, strings, the totals' tuple)
    are shared: every list is copied, so that changing a copy in place never changes
    its original."""
    same = tuple(f.name for f in fields if f.kind in (VALUE, TOTALS))
    nested = tuple(f.name for f in fields if f.kind in (ZONES, COUNTS))
    fresh = tuple(f.name for f in fields if f.kind == CACHE)
    copied = tuple(f.name for f in fields if f.name not in same + nested + fresh)
    return same, copied, nested, fresh


def to_json(field: Field, value: Any) -> Any:
    """``value`` of ``field`` as JSON data (a snapshot)."""
    kind = field.kind
    if kind == VALUE:
        return value
    if kind == ZONES:
        return [list(z) for z in value]
    if kind == FRAMES:
        return [fr.to_json() for fr in value]
    if kind == TUPLES:
        return [list(t) for t in value]
    return list(value)


def from_json(field: Field, data: Any) -> Any:
    """The value of ``field`` from its JSON data (:func:`to_json`'s inverse)."""
    kind, of = field.kind, field.of
    if kind == VALUE:
        if type(data) is not of:
            raise InvalidArgument(f"field {field.name!r} must be {of.__name__}, not {data!r}")
        return data
    if kind == ZONES:
        return [[int(c) for c in z] for z in data]
    if kind == FRAMES:
        out = []
        for row in data:
            code, who, card, a, b = row
            out.append(Frame(str(code), int(who), int(card), int(a), int(b)))
        return out
    if kind == TUPLES:
        return [tuple(int(v) for v in t) for t in data]
    return [of(v) for v in data]


def to_public(field: Field, value: Any) -> Any:
    """``value`` as a view's public bookkeeping shows it (card lists by card id)."""
    if field.kind == CARD_LIST:
        return [CARDS[c].id for c in value]
    return to_json(field, value)


def from_public(field: Field, data: Any) -> Any:
    """The value of ``field`` from a view's public bookkeeping; unknown card ids and
    values of the wrong type raise :class:`InvalidArgument`."""
    if field.kind == CARD_LIST:
        return card_indices(data)
    if field.kind == VALUE:
        return field.of(data)
    return from_json(field, data)
