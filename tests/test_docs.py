"""The documentation's code runs: every ```python block and every ``>>>`` example of
the site's pages (docs/) and the README, and the docs tooling's own examples.

The ``python`` blocks of one page run in order in one namespace (a page may build on
its earlier blocks), in a temporary directory. A block that is an excerpt of the
sources rather than an example is fenced ```{.python .excerpt}`` and not run."""

from __future__ import annotations

import doctest
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(
    r"^(?P<indent> *)```(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)```\s*$", re.M | re.S
)


def _pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _blocks(page: Path, languages: tuple[str, ...]) -> list[tuple[int, str]]:
    text = page.read_text("utf-8")
    out = []
    for m in FENCE.finditer(text):
        if m["info"].strip() in languages:
            indent = len(m["indent"])
            body = "\n".join(line[indent:] for line in m["body"].splitlines())
            out.append((text.count("\n", 0, m.start()) + 1, body))
    return out


def _ids(pages: list[Path]) -> list[str]:
    return [str(p.relative_to(ROOT)) for p in pages]


def _needs(code: str) -> None:
    if "kingdoms.rl" in code:
        pytest.importorskip("pettingzoo", reason="the rl extra is not installed")


PY_PAGES = [p for p in _pages() if _blocks(p, ("python", "py"))]
CONSOLE_PAGES = [p for p in _pages() if _blocks(p, ("pycon",))]


@pytest.mark.parametrize("page", PY_PAGES, ids=_ids(PY_PAGES))
def test_python_blocks_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "__docs__"}
    for line, code in _blocks(page, ("python", "py")):
        _needs(code)
        try:
            exec(compile(code, f"{page.name}:{line}", "exec"), namespace)
        except Exception as err:
            raise AssertionError(f"the python block at {page.name}:{line} failed: {err!r}") from err


@pytest.mark.parametrize("page", CONSOLE_PAGES, ids=_ids(CONSOLE_PAGES))
def test_console_examples_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs: dict[str, object] = {}
    for line, code in _blocks(page, ("pycon",)):
        _needs(code)
        runner.run(parser.get_doctest(code, globs, page.name, str(page), line))
    assert runner.failures == 0, f"{runner.failures} example(s) failed in {page.name}"


def test_every_nav_entry_is_a_page() -> None:
    """Each page the nav names exists, except those still on other branches
    (``PENDING`` in scripts/docs_hooks.py, left out of the nav until they arrive)."""
    import yaml

    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text("utf-8"))["nav"]

    def names(items: list[object]) -> set[str]:
        found: set[str] = set()
        for item in items:
            target = next(iter(item.values())) if isinstance(item, dict) else item
            found |= names(target) if isinstance(target, list) else {str(target)}
        return found

    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "scripts/docs_hooks.py")
    assert spec is not None and spec.loader is not None
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    missing = {n for n in names(nav) if not (ROOT / "docs" / n).exists()}
    assert missing <= hooks.PENDING, f"nav entries without a page: {missing - hooks.PENDING}"


def test_the_docs_tooling_examples_run() -> None:
    path = ROOT / "scripts" / "griffe_doctests.py"
    pytest.importorskip("griffe", reason="the docs extra is not installed")
    spec = importlib.util.spec_from_file_location("griffe_doctests", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert doctest.testmod(module).failed == 0
