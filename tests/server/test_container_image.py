"""The container image's files, checked without a container runtime: the Dockerfile's
stages, user, healthcheck and settings, and its entry point run as the image runs it
(the same command and environment, on this machine) for one process over SQLite and for
compose.yaml's two processes over PostgreSQL."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def _instructions(text: str) -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (KEYWORD, arguments), continuations joined."""
    out: list[tuple[str, str]] = []
    lines = iter(text.splitlines())
    for line in lines:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        while line.endswith("\\"):
            line = line[:-1] + " " + next(lines).strip()
        word, _, rest = line.strip().partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def _stages() -> list[list[tuple[str, str]]]:
    stages: list[list[tuple[str, str]]] = []
    for word, rest in _instructions((ROOT / "Dockerfile").read_text()):
        if word == "FROM":
            stages.append([])
        stages[-1].append((word, rest))
    return stages


def _env(stage: list[tuple[str, str]]) -> dict[str, str]:
    env: dict[str, str] = {}
    for word, rest in stage:
        if word == "ENV":
            for item in shlex.split(rest):
                key, _, value = item.partition("=")
                env[key] = value
    return env


def _exec_form(stage: list[tuple[str, str]], word: str) -> list[str]:
    (rest,) = [r for w, r in stage if w == word]
    if word == "HEALTHCHECK":
        rest = rest[rest.index("CMD") + 3 :].strip()
    command: list[str] = json.loads(rest)
    return command


def test_the_dockerfile_is_multi_stage_non_root_with_an_http_healthcheck() -> None:
    stages = _stages()
    assert len(stages) >= 2
    build, runtime = stages[0], stages[-1]
    assert build[0][1].endswith("AS build") and runtime[0][1].endswith("AS runtime")
    assert any(w == "COPY" and r.startswith("--from=build") for w, r in runtime)
    assert not any(w == "RUN" and "gcc" in r for w, r in runtime)  # no compiler at run time
    (user,) = [r for w, r in runtime if w == "USER"]
    assert user not in ("root", "0")
    assert _exec_form(runtime, "HEALTHCHECK")[:2] == ["kingdoms", "health"]
    assert _exec_form(runtime, "CMD") == ["kingdoms", "serve"]
    assert _env(runtime)["KINGDOMS_HOST"] == "0.0.0.0"
    assert "8000" in [r for w, r in runtime if w == "EXPOSE"]
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".venv", ".git", "*.so"} <= set(ignored)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _kingdoms(args: list[str]) -> list[str]:
    assert args[0] == "kingdoms"
    return [sys.executable, "-m", "kingdoms", *args[1:]]


class _Running:
    def __init__(self, command: list[str], env: Mapping[str, str], log: Path) -> None:
        self.env = {**os.environ, **env}
        self.log = log
        with open(log, "wb") as out:
            self.proc = subprocess.Popen(
                _kingdoms(command), env=self.env, stdout=out, stderr=subprocess.STDOUT
            )

    def healthy(self, check: list[str], within: float = 60.0) -> subprocess.CompletedProcess[str]:
        deadline = time.monotonic() + within
        while True:
            done = subprocess.run(
                _kingdoms(check), env=self.env, capture_output=True, text=True, timeout=30
            )
            if done.returncode == 0 or time.monotonic() > deadline:
                return done
            assert self.proc.poll() is None, self.log.read_text()
            time.sleep(0.3)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@contextlib.contextmanager
def _run(command: list[str], env: Mapping[str, str], log: Path) -> Iterator[_Running]:
    running = _Running(command, env, log)
    try:
        yield running
    finally:
        running.stop()


def test_the_image_entry_point_serves_and_its_healthcheck_passes(tmp_path: Path) -> None:
    """``CMD`` with the image's environment (``/data`` here a temporary directory, the
    port a free one): the healthcheck command fails before the server runs and passes
    once it serves; the SQLite database lands where ``KINGDOMS_DB`` says."""
    runtime = _stages()[-1]
    env = _env(runtime)
    env = {
        k: v.replace("/data/", f"{tmp_path}/").replace("$PATH", os.environ["PATH"])
        for k, v in env.items()
    }
    env["KINGDOMS_PORT"] = str(_free_port())
    check = _exec_form(runtime, "HEALTHCHECK")
    before = subprocess.run(_kingdoms(check), env={**os.environ, **env}, capture_output=True)
    assert before.returncode != 0
    with _run(_exec_form(runtime, "CMD"), env, tmp_path / "serve.log") as running:
        done = running.healthy(check)
        assert done.returncode == 0, done.stderr + running.log.read_text()
        assert ": ok (kingdoms " in done.stdout
    assert (tmp_path / "kingdoms.sqlite").exists()


def _compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
    return data


def test_compose_runs_postgres_and_two_app_processes() -> None:
    services = _compose()["services"]
    db, app = services["db"], services["app"]
    assert db["image"].startswith("postgres:")
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    assert app["build"] == "."
    assert app["environment"]["KINGDOMS_WORKERS"] == "2"
    url = app["environment"]["KINGDOMS_DB"]
    user, password, name = (
        db["environment"][k] for k in ("POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB")
    )
    assert url == f"postgresql+psycopg://{user}:{password}@db:5432/{name}"


@pytest.mark.postgres
def test_compose_app_settings_serve_two_processes_over_postgres(pg: str, tmp_path: Path) -> None:
    """The compose app's environment, its database host pointed at the test cluster:
    two processes start on one port and report healthy."""
    app = _compose()["services"]["app"]
    runtime = _stages()[-1]
    env = {**_env(runtime), **{k: str(v) for k, v in app["environment"].items()}}
    env["PATH"] = os.environ["PATH"]
    env["KINGDOMS_DB"] = pg
    env["KINGDOMS_PORT"] = str(_free_port())
    env["KINGDOMS_HOST"] = "127.0.0.1"
    with _run(_exec_form(runtime, "CMD"), env, tmp_path / "serve.log") as running:
        done = running.healthy(_exec_form(runtime, "HEALTHCHECK"))
        assert done.returncode == 0, done.stderr + running.log.read_text()
        assert "2 processes" in running.log.read_text()
