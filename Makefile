# Quick start: `make play` (set up and start the app) and `make test` (set up and run every test).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
BUILT  := $(VENV)/.built-stamp
EXTRAS := dev,rl,bench,postgres
# Sources of the compiled build (listed in src/kingdoms/_build.py): editing one rebuilds it.
COMPILED_SRC := $(shell $(PYTHON) src/kingdoms/_build.py)
# The build the first test run must find (`make test EXPECT_BUILD=pure` where nothing compiles).
EXPECT_BUILD ?= compiled

.PHONY: setup play test lint typecheck pytest bench system-deps clean

setup: $(STAMP) $(BUILT) system-deps

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	KINGDOMS_NO_COMPILE=1 $(PY) -m pip install --quiet -e '.[$(EXTRAS)]'
	touch $(STAMP)

# The compiled engine (mypyc + Cython, see setup.py), rebuilt in place when its sources
# change; when it cannot be built the same code runs as pure Python.
$(BUILT): $(STAMP) setup.py $(COMPILED_SRC)
	$(PY) -m pip install --quiet --no-deps -e .
	@$(PY) -c "import kingdoms; k = kingdoms.build_kind(); print('kingdoms engine build:', k + ('' if k == 'compiled' else ' -- compiling failed, running pure Python (see: pip install -v -e .)'))"
	touch $(BUILT)

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
	$(VENV)/bin/ruff check src tests bench setup.py
	$(VENV)/bin/ruff format --check src tests bench setup.py

typecheck: $(STAMP)
	$(VENV)/bin/mypy --strict -p kingdoms.core -p kingdoms.bots -p kingdoms.dominion -p kingdoms.kingdomino -p kingdoms.sim -p kingdoms.server -m kingdoms._build

# The whole suite twice: on the compiled build, then on the pure-Python path
# (KINGDOMS_PURE=1 loads the .py sources); tests/core/test_build.py checks which ran.
pytest: $(BUILT)
	KINGDOMS_EXPECT_BUILD=$(EXPECT_BUILD) $(VENV)/bin/pytest -n 2 --dist loadfile
	KINGDOMS_PURE=1 KINGDOMS_EXPECT_BUILD=pure $(VENV)/bin/pytest -n 2 --dist loadfile

test: setup lint typecheck pytest

bench: setup
	$(PY) bench/dominion_bigmoney.py
	$(PY) bench/kingdomino_playouts.py
	$(PY) bench/kingdomino_engine.py
	$(PY) bench/server_load.py --game dominion --games 200 --actions 40 --think 1

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache build
	find src -name '*.so' -delete
	rm -f src/kingdoms/kingdomino/_cboard.c
