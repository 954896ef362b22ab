# Quick start: `make play` (set up and start the app) and `make test` (set up and run every test).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
EXTRAS := dev,rl,bench,postgres

.PHONY: setup play test lint typecheck pytest bench system-deps clean

setup: $(STAMP) system-deps

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[$(EXTRAS)]'
	touch $(STAMP)

# Debian packages the tests use: Chromium for the browser tests, PostgreSQL for the
# storage tests. Installed when missing and when we may (root); otherwise the
# tests that need them say so and skip.
system-deps:
	@bash scripts/system-deps.sh

# The web app on http://localhost:8000/ with its games in ./data/kingdoms.sqlite.
play: setup
	@mkdir -p data
	$(VENV)/bin/kingdoms serve --host 127.0.0.1 --port $${PORT:-8000} --db sqlite:///data/kingdoms.sqlite

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench examples
	$(VENV)/bin/ruff format --check src tests bench examples

typecheck: $(STAMP)
	$(VENV)/bin/mypy --strict -p kingdoms.core -p kingdoms.bots -p kingdoms.dominion -p kingdoms.kingdomino -p kingdoms.sim -p kingdoms.server -p kingdoms.rl

pytest: $(STAMP)
	$(VENV)/bin/pytest -n 2 --dist loadfile

test: setup lint typecheck pytest

bench: setup
	$(PY) bench/dominion_bigmoney.py
	$(PY) bench/kingdomino_playouts.py
	$(PY) bench/server_load.py --game dominion --games 200 --actions 40 --think 1

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
