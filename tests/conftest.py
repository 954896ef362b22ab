"""Shared fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kingdoms.core import available_games

REPO = Path(__file__).resolve().parents[1]


def shared_dir() -> Path | None:
    """The project's ``shared/`` folder, if present.

    ``$KINGDOMS_SHARED`` names it explicitly; otherwise it is looked for beside the
    repository.
    """
    explicit = os.environ.get("KINGDOMS_SHARED")
    candidates = [Path(explicit)] if explicit else []
    candidates += [REPO.parent / "shared", REPO / "shared"]
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return None


@pytest.fixture(params=available_games())
def game_name(request: pytest.FixtureRequest) -> str:
    return str(request.param)
