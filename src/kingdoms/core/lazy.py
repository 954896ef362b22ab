"""Outcome details built when first asked for (kept out of the compiled modules:
a plain Python mapping)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any


class LazyDetails(Mapping[str, Any]):
    """Game-specific outcome details built on first access (search asks only for
    scores and winners); asking for any of them builds all of them.

    >>> d = LazyDetails(lambda: {"turns": 12})
    >>> dict(d)
    {'turns': 12}
    """

    __slots__ = ("_build", "_data")

    def __init__(self, build: Callable[[], Mapping[str, Any]]) -> None:
        self._build: Callable[[], Mapping[str, Any]] | None = build
        self._data: Mapping[str, Any] = {}

    def _get(self) -> Mapping[str, Any]:
        build = self._build
        if build is not None:
            self._data = build()
            self._build = None
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __repr__(self) -> str:
        return repr(dict(self._get()))

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self._get()),))
