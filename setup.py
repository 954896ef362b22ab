"""Build of the compiled engine: mypyc for the modules in ``kingdoms._build.COMPILED``
and Cython for the Kingdomino board.  Every part is optional: when a compiler or a
module fails, the package installs as pure Python (the same code) and says so.

``KINGDOMS_NO_COMPILE=1`` skips compilation altogether.
"""

from __future__ import annotations

import ast
import os
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
SRC = ROOT / "src"


def _say(text: str) -> None:
    print(f"kingdoms build: {text}", file=sys.stderr, flush=True)


def _lists() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``COMPILED`` and ``CYTHON`` of ``src/kingdoms/_build.py`` (read, not imported)."""
    tree = ast.parse((SRC / "kingdoms" / "_build.py").read_text("utf-8"))
    found: dict[str, tuple[str, ...]] = {}
    for node in tree.body:
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id in ("COMPILED", "CYTHON")
            and node.value is not None
        ):
            found[node.target.id] = tuple(ast.literal_eval(node.value))
    return found["COMPILED"], found["CYTHON"]


def _path(module: str, suffix: str) -> str:
    return str(Path("src", *module.split(".")).with_suffix(suffix))


def _extensions() -> list[Extension]:
    if os.environ.get("KINGDOMS_NO_COMPILE", "").strip() not in ("", "0"):
        _say("KINGDOMS_NO_COMPILE is set: pure Python only")
        return []
    compiled, cython = _lists()
    out: list[Extension] = []
    try:
        from Cython.Build import cythonize

        out += cythonize(
            [Extension(name, [_path(name, ".pyx")]) for name in cython],
            quiet=True,
            compiler_directives={"language_level": "3"},
        )
    except BaseException as exc:
        _say(f"Cython board not built ({exc!r}); the pure-Python board is used")
        for name in cython:
            _remove_built(name)
    try:
        from mypyc.build import mypycify

        mypyc_exts = mypycify(
            # the build environment lacks the runtime dependencies (and their types)
            [
                "--ignore-missing-imports",
                "--no-warn-unused-configs",
                *(_path(name, ".py") for name in compiled),
            ],
            opt_level="3",
            group_name="kingdoms",
        )
        for ext in mypyc_exts:
            ext._kingdoms_mypyc = True  # type: ignore[attr-defined]
        out += mypyc_exts
    except BaseException as exc:
        _say(f"mypyc modules not built ({exc!r}); their pure-Python sources are used")
        for name in compiled:  # no copy from an earlier build may shadow the sources
            _remove_built(name)
        for shared in SRC.glob("kingdoms__mypyc*"):
            shared.unlink(missing_ok=True)
    return out


def _remove_built(module: str) -> None:
    """Delete the in-place compiled copy of ``module``, if any."""
    suffix = str(sysconfig.get_config_var("EXT_SUFFIX"))
    (SRC / (module.replace(".", "/") + suffix)).unlink(missing_ok=True)


class OptionalBuildExt(build_ext):
    """Builds what it can; a failed part leaves its pure-Python code in charge."""

    def build_extensions(self) -> None:
        self.check_extensions_list(self.extensions)
        mypyc = [e for e in self.extensions if getattr(e, "_kingdoms_mypyc", False)]
        others = [e for e in self.extensions if e not in mypyc]
        for ext in others:
            self._try([ext])
        if mypyc:
            self._try(mypyc)

    def _try(self, group: list[Any]) -> None:
        """Build ``group`` all or nothing (mypyc's modules need their shared library)."""
        try:
            for ext in group:
                self.build_extension(ext)
        except BaseException as exc:
            names = ", ".join(e.name for e in group)
            _say(f"compiling {names} failed ({exc!r}); using pure Python for it")
            for ext in group:  # no stale copy may shadow the pure-Python source
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
                _remove_built(ext.name)


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
