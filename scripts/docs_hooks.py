"""Nav entries for pages written on other branches that this checkout may not have yet.

A name in :data:`PENDING` that is missing from ``docs/`` is dropped from the nav (and
said at INFO level) instead of failing the strict build; every other nav entry must
exist. Once such a page is merged, its name can leave :data:`PENDING`.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

PENDING: set[str] = set()

log = logging.getLogger("mkdocs.plugins.pending_pages")


def _prune(items: list[Any], docs: Path) -> list[Any]:
    out: list[Any] = []
    for item in items:
        target = next(iter(item.values())) if isinstance(item, dict) else item
        if isinstance(target, list):
            out.append({next(iter(item)): _prune(target, docs)})
        elif isinstance(target, str) and target in PENDING and not (docs / target).exists():
            log.info("nav: %s is not in this checkout yet, left out", target)
        else:
            out.append(item)
    return out


def on_config(config: Any) -> Any:
    if config.nav:
        config.nav = _prune(config.nav, Path(config.docs_dir))
    return config
