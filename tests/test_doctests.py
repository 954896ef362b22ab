"""The examples in the public API's docstrings run as tests."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import kingdoms
from kingdoms._build import CYTHON, pure_requested

SKIP_PREFIXES = ("kingdoms.server", "kingdoms.web", "kingdoms.cli", "kingdoms.__main__")
OPTIONAL = ("pyspiel", "open_spiel")
"""Modules of optional extras that a module may import (then it is skipped without them)."""


def _modules() -> list[str]:
    names = ["kingdoms"]
    for info in pkgutil.walk_packages(kingdoms.__path__, "kingdoms."):
        if info.name in CYTHON and pure_requested():
            continue  # the compiled twins are not loaded on the pure-Python path
        if not info.name.startswith(SKIP_PREFIXES):
            names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name in OPTIONAL:
            pytest.skip(f"{name} needs {err.name} (an optional extra)")
        raise
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
