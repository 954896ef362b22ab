"""Build of the compiled engine: mypyc for the modules in ``kingdoms._build.COMPILED``
and Cython for the Kingdomino board.  Every part is optional: when a compiler or a
module fails, the package installs as pure Python (the same code) and says so.

``KINGDOMS_NO_COMPILE=1`` skips compilation altogether (a pure-Python wheel).

Speed: mypyc's code generation runs once, when ``build_ext`` runs (not at every
setuptools hook pip calls); it writes one C file per module (``multi_file``), and the
C files of every extension are compiled in parallel on every core
(``KINGDOMS_BUILD_JOBS`` or ``build_ext --parallel N`` to choose); an object file newer
than its C source and headers is kept, so a rebuild compiles only what changed.
"""

from __future__ import annotations

import ast
import os
import sys
import sysconfig
import threading
from concurrent.futures import ThreadPoolExecutor
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


def _no_compile() -> bool:
    return os.environ.get("KINGDOMS_NO_COMPILE", "").strip() not in ("", "0")


def _jobs(requested: int | None = None) -> int:
    """Compiler processes at once: ``KINGDOMS_BUILD_JOBS``, else ``--parallel``, else
    every core this process may use."""
    env = os.environ.get("KINGDOMS_BUILD_JOBS", "").strip()
    if env:
        return max(1, int(env))
    if requested:
        return max(1, requested)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def _extensions() -> list[Extension]:
    """The real extensions: Cython's and mypyc's (whose code generation runs here)."""
    compiled, cython = _lists()
    out: list[Extension] = []
    try:
        from Cython.Build import cythonize

        numpy_include = _numpy_include()
        wanted = []
        for name in cython:
            if name in NUMPY_C_API:
                if numpy_include is None:
                    _say(f"{name} not built (numpy, whose C headers it needs, is not installed)")
                    _remove_built(name)
                    continue
                wanted.append(
                    Extension(
                        name,
                        [_path(name, ".pyx")],
                        include_dirs=[numpy_include],
                        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
                    )
                )
            else:
                wanted.append(Extension(name, [_path(name, ".pyx")]))
        out += cythonize(wanted, quiet=True, compiler_directives={"language_level": "3"})
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
            multi_file=True,  # one C file per module: compiled in parallel, and only if changed
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


NUMPY_C_API = ("kingdoms.rl._cfresh",)
"""Cython extensions that use numpy's C API (the arrays the environments' C encoders
hand out, made in C): built only where numpy is installed, else they and the C
encoders that use them are left out and the Python encoders are used."""


def _numpy_include() -> str | None:
    """numpy's C header directory, or None when numpy is not installed."""
    try:
        import numpy
    except ImportError:
        return None
    return str(numpy.get_include())


def _remove_built(module: str) -> None:
    """Delete the in-place compiled copy of ``module``, if any."""
    suffix = str(sysconfig.get_config_var("EXT_SUFFIX"))
    (SRC / (module.replace(".", "/") + suffix)).unlink(missing_ok=True)


PLACEHOLDER = "kingdoms._compiled_engine"
"""Stands for the real extensions until ``build_ext`` runs: it makes the wheel a
platform wheel without running mypyc at every setuptools hook."""


def _up_to_date(obj: str, src: str, headers: list[str]) -> bool:
    """Whether the object file is newer than its source and every header it may use."""
    try:
        built = os.stat(obj).st_mtime
        return all(os.stat(p).st_mtime <= built for p in (src, *headers))
    except OSError:
        return False


def _parallel_compile(compiler: Any, slots: threading.Semaphore) -> None:
    """Make ``compiler.compile`` compile its sources in threads (each thread runs one
    compiler process, at most as many at once as ``slots`` allows), skipping objects
    that are up to date."""
    if getattr(compiler, "_kingdoms_parallel", False):
        return

    def compile(
        sources: list[str],
        output_dir: str | None = None,
        macros: Any = None,
        include_dirs: Any = None,
        debug: bool = False,
        extra_preargs: Any = None,
        extra_postargs: Any = None,
        depends: Any = None,
    ) -> list[str]:
        macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs
        )
        cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)
        headers = [d for d in depends or () if d.endswith(".h")]

        def one(obj: str) -> None:
            src, ext = build[obj]
            if _up_to_date(obj, src, headers):
                return
            with slots:
                compiler._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

        with ThreadPoolExecutor(max(1, len(objects))) as pool:
            list(pool.map(one, objects))
        return list(objects)

    compiler.compile = compile
    compiler._kingdoms_parallel = True


class OptionalBuildExt(build_ext):
    """Builds what it can; a failed part leaves its pure-Python code in charge."""

    def finalize_options(self) -> None:
        if not hasattr(self, "_options_given"):  # as set before finalizing, to do it again
            self._options_given = {
                k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v)
                for k, v in vars(self).items()
            }
        super().finalize_options()

    def run(self) -> None:
        if any(e.name == PLACEHOLDER for e in self.extensions or ()):
            self.distribution.ext_modules = _extensions()
            # setuptools prepares each extension when finalizing: again, for the real ones
            given = self._options_given
            vars(self).clear()
            vars(self).update(given)
            self._options_given = given
            self.finalize_options()
        if self.extensions:
            super().run()

    def build_extensions(self) -> None:
        self.check_extensions_list(self.extensions)
        jobs = _jobs(self.parallel if isinstance(self.parallel, int) else None)
        slots = threading.Semaphore(jobs)
        _parallel_compile(self.compiler, slots)
        _say(f"compiling on {jobs} core(s)")
        mypyc = [e for e in self.extensions if getattr(e, "_kingdoms_mypyc", False)]
        groups = [[e] for e in self.extensions if e not in mypyc]
        if mypyc:  # the shared library first, then the small per-module shims
            groups.append(sorted(mypyc, key=lambda e: "__mypyc" not in e.name))
        with ThreadPoolExecutor(max(1, len(groups))) as pool:
            failed = [e for bad in pool.map(self._try, groups) for e in bad]
        # what failed is not copied into the source tree (``--inplace``) nor installed
        self.extensions = [e for e in self.extensions if e not in failed]

    def _try(self, group: list[Any]) -> list[Any]:
        """Build ``group`` all or nothing (mypyc's modules need their shared library)."""
        try:
            for ext in group:
                self.build_extension(ext)
                # an extension found up to date is touched: it is as new as its sources
                built = Path(self.get_ext_fullpath(ext.name))
                if built.exists():
                    os.utime(built)
            return []
        except BaseException as exc:
            names = ", ".join(e.name for e in group)
            _say(f"compiling {names} failed ({exc!r}); using pure Python for it")
            for ext in group:  # no stale copy may shadow the pure-Python source
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
                _remove_built(ext.name)
            return group


def _ext_modules() -> list[Extension]:
    if _no_compile():
        _say("KINGDOMS_NO_COMPILE is set: pure Python only")
        return []
    return [Extension(PLACEHOLDER, sources=[])]


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
