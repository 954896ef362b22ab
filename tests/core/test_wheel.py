"""The package as a user installs it: ``python -m build`` makes an sdist and a wheel
from the sources (the pure-Python wheel, ``KINGDOMS_NO_COMPILE=1``, to stay quick), the
wheel installs into a clean virtual environment, and its ``kingdoms`` command serves,
simulates and plays from there, saying which build it is."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import time
import urllib.request
import venv
import zipfile
from pathlib import Path

import pytest

import kingdoms

ROOT = Path(__file__).resolve().parents[2]
TOP_SKIP = {".git", ".venv", "build", "dist", "site", "data", "runs", "test-artifacts"}
ANY_SKIP = shutil.ignore_patterns(
    "*.so", "*.c", "__pycache__", ".*_cache", ".hypothesis", "*.egg-info"
)


def _skip(directory: str, names: list[str]) -> set[str]:
    """What the copy of the source tree leaves out: builds, caches, local data."""
    skipped = set(ANY_SKIP(directory, names))
    return skipped | (TOP_SKIP & set(names) if Path(directory) == ROOT else set())


def _clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without what points Python at the source tree."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "KINGDOMS_"))}
    return {**env, **extra}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if os.environ.get("KINGDOMS_EXPECT_BUILD") == "pure":
        pytest.skip("the wheel is tested once, in the first (compiled) run of make test")
    pytest.importorskip("build", reason="the docs extra (python -m build) is not installed")
    tmp = tmp_path_factory.mktemp("wheel")
    tree, dist, env_dir = tmp / "src", tmp / "dist", tmp / "venv"
    shutil.copytree(ROOT, tree, ignore=_skip)
    built = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--skip-dependency-check",
         "--outdir", str(dist), str(tree)],
        env=_clean_env(KINGDOMS_NO_COMPILE="1"), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (sdist,) = dist.glob("kingdoms-*.tar.gz")
    (wheel,) = dist.glob("kingdoms-*.whl")
    assert sdist.name == f"kingdoms-{kingdoms.__version__}.tar.gz"
    assert wheel.name == f"kingdoms-{kingdoms.__version__}-py3-none-any.whl"
    with tarfile.open(sdist) as tar:
        names = tar.getnames()
    top = f"kingdoms-{kingdoms.__version__}"
    for needed in ("setup.py", "pyproject.toml", "src/kingdoms/_build.py", "CHANGELOG.md"):
        assert f"{top}/{needed}" in names
    with zipfile.ZipFile(wheel) as whl:
        files = whl.namelist()
    assert not [f for f in files if f.endswith((".so", ".c"))]  # a pure wheel
    assert "kingdoms/web/static/page.html" in files
    assert "kingdoms/kingdomino/_cboard.pyx" in files
    assert any(f.startswith("kingdoms/bots/dominion/strategies/") for f in files)

    venv.create(env_dir, with_pip=True)
    pip = subprocess.run(
        [str(env_dir / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-compile",
         str(wheel)],
        env=_clean_env(), capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert pip.returncode == 0, pip.stderr[-3000:]
    return env_dir


def _kingdoms(env_dir: Path, *args: str, stdin: str = "", cwd: Path | None = None) -> str:
    done = subprocess.run(
        [str(env_dir / "bin" / "kingdoms"), *args],
        env=_clean_env(), input=stdin, capture_output=True, text=True, timeout=120, cwd=cwd,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout


def test_the_wheel_runs_from_its_own_environment(installed: Path) -> None:
    where = subprocess.run(
        [str(installed / "bin" / "python"), "-c", "import kingdoms; print(kingdoms.__file__)"],
        env=_clean_env(), capture_output=True, text=True, cwd="/", check=True,
    ).stdout  # fmt: skip
    assert where.startswith(str(installed))
    version = _kingdoms(installed, "--version")
    assert version.strip() == (
        f"kingdoms {kingdoms.__version__}, pure-Python build (no compiled engine in this install)"
    )


def test_the_wheel_simulates_and_plays(installed: Path, tmp_path: Path) -> None:
    out = _kingdoms(
        installed, "sim", "dominion", "--bots", "big-money,smithy", "--kingdom", "First Game",
        "-n", "20", "--json", cwd=tmp_path,
    )  # fmt: skip
    report = json.loads(out)
    assert report["games"] == 20
    played = _kingdoms(
        installed, "dominion", "play", "--bots", "big-money", "--kingdom", "First Game",
        "--seed", "1", stdin="q\n", cwd=tmp_path,
    )  # fmt: skip
    assert "Goodbye." in played


def test_the_wheel_serves(installed: Path, tmp_path: Path) -> None:
    port = _free_port()
    log = tmp_path / "serve.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [str(installed / "bin" / "kingdoms"), "serve", "--port", str(port),
             "--db", f"sqlite:///{tmp_path / 'k.sqlite'}"],
            env=_clean_env(), stdout=out, stderr=subprocess.STDOUT, cwd=tmp_path,
        )  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=2) as res:
                    health = json.loads(res.read())
                break
            except OSError:
                assert proc.poll() is None, log.read_text()
                time.sleep(0.1)
        else:
            pytest.fail("the server did not start: " + log.read_text())
        assert health == {"status": "ok", "version": kingdoms.__version__, "build": "pure"}
        with urllib.request.urlopen(base + "/", timeout=5) as res:
            assert res.status == 200 and b"<!doctype html>" in res.read()
        with urllib.request.urlopen(base + "/static/js/lobby.js", timeout=5) as res:
            assert res.status == 200
    finally:
        proc.terminate()
        proc.wait(15)
