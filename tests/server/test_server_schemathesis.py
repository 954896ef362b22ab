"""schemathesis against the running server's /openapi.json: every check, fixed seed,
stateful links included (``make schemathesis`` runs the long version)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from serverproc import serve

CONFIG = Path(__file__).with_name("schemathesis.toml")


def run_schemathesis(
    base: str, examples: int, workdir: Path, seed: int = 1
) -> tuple[int, int, str]:
    """Run the ``st`` command in ``workdir`` (it keeps a cache there); returns
    (exit code, test cases generated, output)."""
    st = Path(sys.executable).with_name("st")
    cmd = [str(st)] if st.exists() else [shutil.which("st") or "st"]
    out = subprocess.run(
        [
            *cmd,
            "--config-file",
            str(CONFIG),
            "run",
            f"{base}/openapi.json",
            "--checks",
            "all",
            "--seed",
            str(seed),
            "--max-examples",
            str(examples),
            "--continue-on-failure",
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=workdir,
    )
    found = re.search(r"(\d+) generated", out.stdout)
    return out.returncode, int(found.group(1)) if found else 0, out.stdout + out.stderr


def test_schemathesis_finds_no_server_error_and_no_mismatch(tmp_path: Path) -> None:
    pytest.importorskip("schemathesis")
    args = ("--bot-delay", "0", "--rate", "create=0", "--rate", "replay=0", "--rate", "record=0")
    with serve(tmp_path, *args) as (base, _proc):
        code, cases, output = run_schemathesis(base, examples=15, workdir=tmp_path)
    assert code == 0, output[-4000:]
    assert cases >= 200, output[-2000:]
