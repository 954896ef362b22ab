"""Which build of the engine runs: compiled (mypyc + Cython) or pure Python.

:data:`COMPILED` is the one list of modules that ``setup.py`` compiles with mypyc
(add a module here to compile it); :data:`CYTHON` the Cython extensions (with their
pure-Python fallbacks).  The pure-Python sources stay the source of truth: with the
environment variable ``KINGDOMS_PURE=1`` set before :mod:`kingdoms` is imported, an
import hook loads the ``.py`` source of every compiled module (and no Cython
extension), so the same installation runs either path.

>>> build_kind() in ("compiled", "pure")
True
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Final

COMPILED: Final = (
    "kingdoms.core.state",
    "kingdoms.kingdomino.state",
    "kingdoms.bots.mcts",
    "kingdoms.dominion.shuffle",
    "kingdoms.dominion.frames",
    "kingdoms.dominion.effects",
    "kingdoms.dominion.rules",
    "kingdoms.dominion.stack",
    "kingdoms.dominion.zones",
    "kingdoms.dominion.scoring",
    "kingdoms.dominion.turn",
    "kingdoms.dominion.state",
    "kingdoms.dominion.decisions",
    "kingdoms.dominion.cards.registry",
    "kingdoms.dominion.cards.steps",
    "kingdoms.dominion.cards.declare",
    "kingdoms.dominion.cards.basic",
    "kingdoms.dominion.cards.base",
    "kingdoms.dominion.cards.second",
    "kingdoms.dominion.cards.alchemy",
    "kingdoms.bots.dominion.observation",
    "kingdoms.bots.dominion.policy",
    "kingdoms.bots.dominion.strategy",
    "kingdoms.bots.dominion.adapter",
    "kingdoms.bots.dominion.bots",
    "kingdoms.bots.dominion.search",
    "kingdoms.rl.encoding",
    "kingdoms.rl.dominion_obs",
    "kingdoms.rl.kingdomino_obs",
    "kingdoms.rl.core",
    "kingdoms.rl.chance",
)
"""Modules compiled with mypyc (each must pass ``mypy --strict``)."""

CYTHON: Final = (
    "kingdoms.kingdomino._cboard",
    "kingdoms.dominion._cnative",
    "kingdoms.rl._cfresh",
    "kingdoms.rl._cdominion_obs",
    "kingdoms.rl._ckingdomino_obs",
)
"""Cython extensions; each has a pure-Python fallback used when it is missing."""

PURE_ENV: Final = "KINGDOMS_PURE"

_SRC: Final = Path(__file__).resolve().parent.parent


def pure_requested() -> bool:
    """Whether ``KINGDOMS_PURE`` asks for the pure-Python path."""
    return os.environ.get(PURE_ENV, "").strip().lower() not in ("", "0", "false", "no")


class _PureFinder(importlib.abc.MetaPathFinder):
    """Finds the ``.py`` source of compiled modules; hides the Cython extensions."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname in CYTHON:
            raise ModuleNotFoundError(f"{fullname} is not used on the pure-Python path")
        if fullname not in COMPILED:
            return None
        source = _SRC.joinpath(*fullname.split(".")).with_suffix(".py")
        return importlib.util.spec_from_file_location(fullname, source)


def install_pure_path() -> None:
    """Make later imports of the compiled modules load their Python sources."""
    if not any(isinstance(f, _PureFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _PureFinder())


def compiled_sources() -> list[Path]:
    """The source files of the compiled build (what ``make setup`` rebuilds on change)."""
    out = [_SRC.joinpath(*m.split(".")).with_suffix(".py") for m in COMPILED]
    out += [_SRC.joinpath(*m.split(".")).with_suffix(".pyx") for m in CYTHON]
    # a Cython extension's declarations, which the extensions that cimport it read too
    out += [p for m in CYTHON if (p := _SRC.joinpath(*m.split(".")).with_suffix(".pxd")).exists()]
    return out


def build_kind() -> str:
    """``compiled`` when the mypyc modules and the Cython board are in use, else ``pure``
    (a compiled module is loaded from a shared library, not a ``.py`` file)."""
    import kingdoms.kingdomino.board as board
    import kingdoms.kingdomino.state as state

    native = not str(state.__file__).endswith(".py")
    return "compiled" if native and board.NATIVE_BOARD else "pure"


def describe_build() -> str:
    """One line on the build in use, for ``kingdoms --version`` and ``make play``."""
    if build_kind() == "compiled":
        return "compiled build (mypyc + Cython)"
    if pure_requested():
        return f"pure-Python path ({PURE_ENV}=1 is set)"
    return "pure-Python build (no compiled engine in this install)"


if __name__ == "__main__":  # ``python src/kingdoms/_build.py``: the sources, for make
    root = _SRC.parent
    print(" ".join(str(p.relative_to(root)) for p in compiled_sources()))
