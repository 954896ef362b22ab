"""What both games' observation encoders share: the element type, the field layout
and cheap element writes.  No dependency beyond numpy (the encoders are compiled
with mypyc in the compiled build; :mod:`kingdoms.rl.env` adds PettingZoo)."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

OBS_DTYPE = np.int16
"""The observations' element type: every field is a small integer (counts, flags,
scores), and two bytes per element keep the copy handed to the learner cheap."""
OBS_LOW = int(np.iinfo(OBS_DTYPE).min)
OBS_HIGH = int(np.iinfo(OBS_DTYPE).max)


def lay_out(fields: list[tuple[str, int]]) -> tuple[dict[str, slice], int]:
    """Consecutive fields ``(name, length)``: each name's slice, and the total length."""
    layout: dict[str, slice] = {}
    pos = 0
    for name, length in fields:
        layout[name] = slice(pos, pos + length)
        pos += length
    return layout, pos


def writer(array: np.ndarray) -> Any:
    """A memoryview of a 1-D numpy array, to set a few elements one by one: a
    memoryview item write costs a fraction of a numpy item write or of a numpy
    fancy-indexing call (typed ``Any``: typeshed's memoryview takes only ints)."""
    view: Any = memoryview(array)  # type: ignore[arg-type]
    return view


def native_module(name: str) -> Any:
    """The C encoder extension ``name`` (a module of :mod:`kingdoms._build`'s
    ``CYTHON``), or ``None`` when it is not built or the pure-Python path was asked
    for (its encoder then keeps its own Python encoding)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None
