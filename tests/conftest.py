"""Shared fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from kingdoms.core import available_games

REPO = Path(__file__).resolve().parents[1]


def shared_dir() -> Path | None:
    """The project's ``shared/`` folder (beside the repository), if present."""
    for candidate in (REPO.parent / "shared", REPO / "shared"):
        if candidate.is_dir():
            return candidate
    return None


@pytest.fixture(params=available_games())
def game_name(request: pytest.FixtureRequest) -> str:
    return str(request.param)
