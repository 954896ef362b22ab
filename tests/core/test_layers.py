"""``kingdoms.core`` and the game engines import nothing from the layers above them
(bots, simulator, server, terminal, web, RL), not even through the games'
registrations (which name those layers' hooks as strings)."""

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
from kingdoms.core import available_games, get_game, new_game
for game in available_games():
    state = new_game(game, players=2, seed=1)
    state.view(0)
    state.apply(state.legal_actions()[0])
    # the registration names the layers above by strings only
    spec = get_game(game)
    spec.lobby_options(), spec.client_data("en"), spec.public_view(state)
    spec.current_scores(state), spec.action_info(state, state.legal_actions()[0])
    spec.bots, spec.web, spec.sim, spec.terminal, spec.cli_options
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


def test_core_sources_name_no_layer_above_not_even_for_types() -> None:
    """Type-only imports count too: ``core`` defines the protocols it needs (``Bot``)."""
    import re
    from pathlib import Path

    import kingdoms.core

    pattern = re.compile(r"^\s*(from|import)\s+kingdoms\.(" + "|".join(ABOVE) + r")\b", re.M)
    found = [
        path.name
        for path in Path(kingdoms.core.__file__).parent.glob("*.py")
        if pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []
