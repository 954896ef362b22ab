# Quick start: `make play` (set up and start the app) and `make test` (set up and run every test).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
CORE   := $(VENV)/.core-stamp
STAMP  := $(VENV)/.installed-stamp
BUILT  := $(VENV)/.built-stamp
LOCK   := $(VENV)/.setup.lock
EXTRAS := dev,docs,rl,openspiel,bench,data,postgres,report,ray
# Compiler processes for the compiled build (default: every core).
JOBS   ?= $(shell nproc 2>/dev/null || echo 2)
# Sources of the compiled build (listed in src/kingdoms/_build.py): editing one rebuilds it.
COMPILED_SRC := $(shell $(PYTHON) src/kingdoms/_build.py)
# What setup.py needs to compile (setuptools, mypy, Cython), from pyproject.toml's [build-system].
BUILD_REQS = $(shell $(PYTHON) -c "import tomllib; print(' '.join(repr(r) for r in tomllib.load(open('pyproject.toml', 'rb'))['build-system']['requires']))")
# The build the first test run must find (`make test EXPECT_BUILD=pure` where nothing compiles).
EXPECT_BUILD ?= compiled
SERVE   = $(VENV)/bin/kingdoms serve --host 127.0.0.1 --port $${PORT:-8000} --db sqlite:///data/kingdoms.sqlite

.PHONY: setup setup-locked play test lint typecheck pytest docs docs-check docs-serve dist bench bench-optimize soak soak-native system-deps clean soak-server soak-server-multi schemathesis bench-server bench-server-multi

# Everything (every extra, the compiled build, Debian packages), one set-up at a time:
# a `make play` compiling in the background and a `make test` do not build together.
setup:
	@mkdir -p $(VENV)
	@flock $(LOCK) $(MAKE) --no-print-directory setup-locked

setup-locked: $(STAMP) $(BUILT) system-deps

# Enough to play: the package (pure Python) and its runtime dependencies, nothing more
# (setuptools to install it; modules are byte-compiled when first imported).
$(CORE): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --no-compile $(filter 'setuptools%,$(BUILD_REQS))
	KINGDOMS_NO_COMPILE=1 $(PY) -m pip install --quiet --no-compile --no-build-isolation -e .
	touch $(CORE)

$(STAMP): $(CORE) pyproject.toml
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet $(BUILD_REQS)
	KINGDOMS_NO_COMPILE=1 $(PY) -m pip install --quiet --no-build-isolation -e '.[$(EXTRAS)]'
	touch $(STAMP)

# The compiled engine (mypyc + Cython, see setup.py) in place, on $(JOBS) cores, rebuilt
# when its sources change (only the changed modules' C is compiled again); when it cannot
# be built the same code runs as pure Python.
$(BUILT): $(STAMP) setup.py $(COMPILED_SRC)
	$(PY) setup.py --quiet build_ext --inplace --parallel $(JOBS)
	@$(PY) -c "import kingdoms; k = kingdoms.build_kind(); print('kingdoms engine build:', k + ('' if k == 'compiled' else ' -- compiling failed, running pure Python (see: python setup.py build_ext --inplace)'))"
	touch $(BUILT)

# Debian packages the tests use: Chromium for the browser tests, PostgreSQL for the
# storage tests. Installed when missing and when we may (root); otherwise the
# tests that need them say so and skip.
system-deps:
	@bash scripts/system-deps.sh

# The web app on http://localhost:8000/ with its games in ./data/kingdoms.sqlite. As soon
# as the package is installed: on the compiled build when it is ready, else on the
# pure-Python path while the rest of the set-up (and the compiling) runs in the
# background, niced; the next `make play` uses the compiled build.
play: $(CORE)
	@mkdir -p data
	@if $(MAKE) --no-print-directory -q $(BUILT) 2>/dev/null; then \
	  exec $(SERVE); \
	fi; \
	if flock -n $(LOCK) true; then \
	  echo "kingdoms: the compiled engine is not ready: serving on the pure-Python path now;"; \
	  echo "kingdoms: setting up and compiling in the background (log: $(VENV)/setup.log); run make play again afterwards"; \
	  setsid nohup nice -n 10 $(MAKE) --no-print-directory setup > $(VENV)/setup.log 2>&1 < /dev/null & \
	else \
	  echo "kingdoms: set-up in progress elsewhere (log: $(VENV)/setup.log): serving on the pure-Python path now"; \
	fi; \
	KINGDOMS_PURE=1 exec $(SERVE)

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench examples scripts setup.py
	$(VENV)/bin/ruff format --check src tests bench examples scripts setup.py

typecheck: $(STAMP)
	$(VENV)/bin/mypy --strict -p kingdoms.core -p kingdoms.bots -p kingdoms.dominion -p kingdoms.kingdomino -p kingdoms.sim -p kingdoms.server -p kingdoms.rl -p kingdoms.cli -p kingdoms.web -p kingdoms.review -m kingdoms._build

# The whole suite twice: on the compiled build, then on the pure-Python path
# (KINGDOMS_PURE=1 loads the .py sources); tests/core/test_build.py checks which ran.
pytest: $(BUILT)
	KINGDOMS_EXPECT_BUILD=$(EXPECT_BUILD) $(VENV)/bin/pytest -n 2 --dist loadfile
	KINGDOMS_PURE=1 KINGDOMS_EXPECT_BUILD=pure $(VENV)/bin/pytest -n 2 --dist loadfile

test: setup lint typecheck docs-check pytest

# The documentation site (mkdocs.yml, docs/): warnings are errors.
docs: setup
	$(VENV)/bin/mkdocs build --strict

docs-check: $(STAMP)
	@rm -rf build/site-check
	$(VENV)/bin/mkdocs build --strict --quiet --site-dir build/site-check

docs-serve: setup
	$(VENV)/bin/mkdocs serve --strict --dev-addr 127.0.0.1:$${DOCS_PORT:-8001}

# An sdist and a wheel in dist/ (compiled where a compiler is; KINGDOMS_NO_COMPILE=1: pure).
dist: $(STAMP)
	$(PY) -m build --outdir dist .

bench: setup
	$(PY) bench/dominion_bigmoney.py
	$(PY) bench/kingdomino_playouts.py
	$(PY) bench/kingdomino_full_greedy.py
	$(PY) bench/kingdomino_engine.py
	$(PY) bench/server_load.py --game dominion --games 200 --actions 40 --think 1
	$(PY) bench/sim_workers.py --games 2000 --workers 2

# optimize with its default budget on every bundled engine bot's kingdom (~50 min on 2
# cores), each winner measured on 2,000 fresh games against that bot and Big Money.
bench-optimize: setup
	$(PY) bench/optimize_engine_kingdoms.py --out optimize-bench

# Dominion card conservation over 100,000 random games (SOAK_GAMES, SOAK_WORKERS).
soak: setup
	$(PY) bench/dominion_soak.py --games $${SOAK_GAMES:-100000} --workers $${SOAK_WORKERS:-2}

# The native Dominion core against the Python engine, game by game (SOAK_GAMES,
# SOAK_WORKERS): prints games, native games and differences (must be 0).
soak-native: setup
	$(PY) bench/dominion_native_soak.py --games $${SOAK_GAMES:-100000} --workers $${SOAK_WORKERS:-2}

# The server killed with SIGKILL at random moments, on SQLite and PostgreSQL: prints
# games, acknowledged moves, lost and inconsistent (all lost/inconsistent must be 0).
soak-server: setup
	$(PY) bench/soak_server.py --cycles $${CYCLES:-25}

# The same with two server processes on one PostgreSQL database, killed one after the other.
soak-server-multi: setup
	$(PY) bench/soak_server.py --cycles $${CYCLES:-25} --db postgres --processes 2

# schemathesis, every check, against a running server (the suite runs a short version).
schemathesis: setup
	$(PY) -c "import sys; sys.path.insert(0, 'tests/server'); from pathlib import Path; \
	from serverproc import serve; from test_server_schemathesis import run_schemathesis; \
	import tempfile; tmp = Path(tempfile.mkdtemp()); \
	args = ('--bot-delay', '0', '--rate', 'create=0', '--rate', 'replay=0', '--rate', 'record=0'); \
	ctx = serve(tmp, *args); base, _ = ctx.__enter__(); \
	code, cases, out = run_schemathesis(base, examples=$${EXAMPLES:-100}, workdir=tmp); ctx.__exit__(None, None, None); \
	print(out[-3000:]); print('test cases:', cases); sys.exit(code)"

# Web load: scripted people over WebSockets in 50, 200 and 500 concurrent games.
bench-server: setup
	for n in 50 200 500; do $(PY) bench/server_load.py --game kingdomino --games $$n --actions 40 --think 0.5; done

# Web load against one and two server processes on one PostgreSQL database (ratios printed).
bench-server-multi: setup
	$(PY) bench/server_load.py --game kingdomino --processes 1,2 --games $${GAMES:-200} --actions 40 --think $${THINK:-0.05}

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache build site dist
	find src -name '*.so' -delete
	rm -f src/kingdoms/kingdomino/_cboard.c
