"""The strategy files shipped with the package (``strategies/*.toml``) as bots.

Each bundled file is a bot of the same name (``council-room.toml`` ->
``council-room``).  :data:`BUNDLED` maps the names to the factories the bot
registry imports (``kingdoms.bots.dominion.bundled:council_room``).

>>> "militia" in bundled_names()
True
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from importlib import resources
from typing import Any

from kingdoms.bots.dominion.lang import StrategyError, load_strategy, parse_strategy
from kingdoms.bots.dominion.strategy import Strategy


@functools.cache
def bundled_names() -> tuple[str, ...]:
    root = resources.files("kingdoms.bots.dominion") / "strategies"
    return tuple(
        sorted(f.name[: -len(".toml")] for f in root.iterdir() if f.name.endswith(".toml"))
    )


def bundled_text(name: str) -> str:
    if name not in bundled_names():
        raise StrategyError(f"no bundled strategy {name!r}; bundled: {', '.join(bundled_names())}")
    root = resources.files("kingdoms.bots.dominion") / "strategies"
    return (root / f"{name}.toml").read_text(encoding="utf-8")


@functools.cache
def bundled_strategy(name: str) -> Strategy:
    """The bundled strategy ``name`` (parsed once per process)."""
    return parse_strategy(bundled_text(name), name, f"{name}.toml")


@functools.lru_cache(maxsize=64)
def _file_strategy(path: str, mtime: float) -> Strategy:
    return load_strategy(path)


def cached_file_strategy(path: str) -> Strategy:
    """A strategy file, parsed again only when it changes."""
    try:
        mtime = os.stat(path).st_mtime
    except OSError as err:
        raise StrategyError(f"cannot read strategy file {path!r}: {err.strerror}") from None
    return _file_strategy(os.path.abspath(path), mtime)


def attr_name(name: str) -> str:
    return name.replace("-", "_")


def __getattr__(attr: str) -> Callable[..., Any]:
    for name in bundled_names():
        if attr_name(name) == attr:
            from kingdoms.bots.dominion.bots import bundled_bot

            return functools.partial(bundled_bot, name)
    raise AttributeError(attr)
