"""The examples in the server modules' docstrings run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "name",
    [
        "kingdoms.server.storage",
        "kingdoms.server.master",
        "kingdoms.server.table",
        "kingdoms.server.undo",
        "kingdoms.server.protocol",
        "kingdoms.server.app",
        "kingdoms.server.lobby",
        "kingdoms.server.openapi",
        "kingdoms.server.privacy",
        "kingdoms.server.limits",
        "kingdoms.server.botpool",
    ],
)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
