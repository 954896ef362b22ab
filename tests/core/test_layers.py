"""``kingdoms.core`` and the game engines import nothing from the layers above them
(bots, simulator, server, terminal, web, RL)."""

from __future__ import annotations

import json
import subprocess
import sys

ABOVE = ("bots", "sim", "server", "cli", "web", "rl")

PROBE = """
import importlib, json, pkgutil, sys
import kingdoms.core
for m in pkgutil.iter_modules(kingdoms.core.__path__):
    importlib.import_module("kingdoms.core." + m.name)
from kingdoms.core import new_game
for game in ("dominion", "kingdomino"):
    state = new_game(game, players=2, seed=1)
    state.view(0)
    state.apply(state.legal_actions()[0])
print(json.dumps(sorted(m for m in sys.modules if m.startswith("kingdoms."))))
"""


def test_core_and_engines_import_nothing_from_the_layers_above() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=120
    )
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert "kingdoms.dominion.state" in loaded and "kingdoms.kingdomino.state" in loaded
    above = [m for m in loaded if m.split(".")[1] in ABOVE]
    assert above == []
