# Quandary: `make run` serves the app, `make test` runs every test, `make check`
# the quick loop (lint, types, the pure layers with fewer playouts, no browser).
# Each installs what it needs from nothing (Python venv with the package itself,
# npm packages and, for the browser tests, Debian's chromium and coturn).

# The venv's interpreter: Debian's own CPython where it is 3.11 or later with venv, as it is
# an optimised build (the pure tests ran 1.4 times as fast under it as under the python3
# on this machine's PATH, built from source without optimisation), else that python3.
PYTHON ?= $(shell /usr/bin/python3 -c \
  'import ensurepip, sys, venv; sys.exit(sys.version_info < (3, 11))' 2>/dev/null \
  && echo /usr/bin/python3 || echo python3)
# Compiled modules are kept (in __pycache__, which git and the build ignore) even where
# the environment asks Python not to: each test run starts a dozen interpreters, and each
# compiled the package and its tests again (an import of the engine and the room took
# 4.4 s instead of 1.2 s here).
unexport PYTHONDONTWRITEBYTECODE
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
PY_STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
PYTEST_ARGS ?=
# Test workers (pytest-xdist): every core for the pure layers; the browser tests
# run two at a time, as each worker has its own Chromium, server and relay.
JOBS ?= auto
E2E_JOBS ?= 2
# Random playouts per game of the conformance suite: `make check` and `make test` play
# every (players x options) cell of each game once (`cells`, in whole chunks: from 25
# playouts for Royal Dilemma to 100 for The Game of Dilemmas), `make monkey` (CI's
# long run) 500 for depth.
CHECK_PLAYOUTS ?= cells
DEEP_PLAYOUTS ?= 500
# Batches of 100 hostile messages the room protocol's fuzz test sends to a host and a
# guest (tests/net/test_fuzz.py): 5,000 messages in `make check` and `make test`, over
# 20,000 in `make monkey`.
CHECK_FUZZ ?= 50
DEEP_FUZZ ?= 205
CHECK_DEPTH = QUANDARY_PLAYOUTS=$(CHECK_PLAYOUTS) FUZZ_EXAMPLES=$(CHECK_FUZZ)
# Random clicks, taps and keys per game in `make monkey` (CI runs it after `make test`).
MONKEY_ACTIONS ?= 500
PURE_TESTS := tests/unit tests/net tests/conformance

.PHONY: run test monkey browsers check build lint typecheck bench chromium coturn firefox webkit clean

# The tools are installed without compiling every module they ship (pip's default):
# the first run compiles only what it imports (under a second here), and the install
# took 4.5 s less (17.0 -> 12.6 s with a warm download cache).
$(PY_STAMP): requirements-dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet --no-compile -r requirements-dev.txt
	$(BIN)/pip install --quiet --no-deps --editable .
	touch $@

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# Rebuilds only when the sources changed (scripts/build.py hashes them).
build: $(PY_STAMP) $(NODE_STAMP)
	$(BIN)/python scripts/build.py --if-stale

run: build
	$(BIN)/python -m scripts.serve --port $(PORT)

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium; }

# The TURN server of tests/e2e/test_turn.py (started on loopback by the test
# itself; the package's own service is not used).
coturn:
	@command -v turnserver >/dev/null 2>&1 || { \
	  echo "Installing Debian's coturn for the relay-only room test"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq coturn; }

# Firefox (Debian's firefox-esr, driven by npm puppeteer-core over WebDriver BiDi) and
# WebKit (Debian's WebKitGTK through its WebDriver, under a virtual X server) for
# `make browsers`.
firefox:
	@command -v firefox-esr >/dev/null 2>&1 || { \
	  echo "Installing Debian's firefox-esr for the Firefox tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq firefox-esr; }

webkit:
	@{ command -v WebKitWebDriver && command -v xvfb-run; } >/dev/null 2>&1 || { \
	  echo "Installing Debian's webkit2gtk-driver and xvfb for the WebKit tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq webkit2gtk-driver xvfb; }

lint: $(PY_STAMP)
	$(BIN)/ruff check py tests scripts bench
	$(BIN)/ruff format --check py tests scripts bench

typecheck: $(PY_STAMP)
	$(BIN)/mypy py

# A browser test whose click waited its whole 30 s for a button to hold still is run
# once more (shown as R): headless Chromium has been seen to stop drawing a page's
# frames under load, which hangs every click on it (a failed test's report says whether
# its pages were drawing: tests/e2e/conftest.py). Any other failure is final.
test: build chromium coturn lint typecheck
	$(CHECK_DEPTH) $(BIN)/python -m pytest -n $(JOBS) --dist worksteal $(PURE_TESTS) $(PYTEST_ARGS)
	$(BIN)/python -m pytest -n $(E2E_JOBS) --dist worksteal -m "not walk" --durations 8 \
	  --reruns 1 --only-rerun "Locator.click: Timeout" tests/e2e $(PYTEST_ARGS)

# The built page in Firefox and WebKit (tests/browsers): boot, each game against bots
# to its end screen, a Dilemma throw by keys and by drag, offline reload, rooms between
# Chromium and Firefox each way round, and WebKit's plain word that it cannot join rooms.
# Each engine's tests keep to one worker; WebKit needs an X server (xvfb-run).
# A browser that stops answering fails its test after a deadline (tests/browsers/conftest.py,
# pytest-timeout); that test alone is run once more (shown as R), as such a stall is
# the driver's (one stalled a whole CI run once). So is a test whose WebKit browser exited
# under it (its driver is stopped at once, tests/browsers/conftest.py: one held a run for
# minutes), and one whose page waited its whole time for a screen (two engines each
# running Python on 2 cores were seen to starve one page); a page that really never
# shows it fails twice, saying what it showed instead. Any other failure is final.
browsers: build chromium firefox webkit
	xvfb-run -a $(BIN)/python -m pytest -n $(E2E_JOBS) --dist loadgroup --timeout 360 \
	  --reruns 1 --only-rerun "no answer in|Timeout|waited [0-9]+ ms for|the browser exited" --durations 8 \
	  tests/browsers $(PYTEST_ARGS)

# The long walks through every game: the conformance suite's 500 random playouts per
# game and the room protocol's fuzz at over 20,000 messages, then the browser walks (tests marked `walk`): a monkey's random clicks,
# taps and keys, with no error reaching the page, each game played to its end on a
# 360 px phone, with no screen wider than the phone, whole Dilemma games at a
# newcomer's pace, a room seat that waits for its absent player, and rooms of three
# browsers where the host, or a guest, leaves at every phase of every game. These run
# Chromium's WebAssembly as players' browsers do, with the optimising compiler that
# `make test` leaves out for speed (tests/e2e/conftest.py, WASM_BASELINE_ONLY).
monkey: build chromium coturn
	QUANDARY_PLAYOUTS=$(DEEP_PLAYOUTS) FUZZ_EXAMPLES=$(DEEP_FUZZ) $(BIN)/python -m pytest \
	  -n $(JOBS) tests/conformance/test_conformance.py tests/net/test_fuzz.py $(PYTEST_ARGS)
	QUANDARY_MONKEY_ACTIONS=$(MONKEY_ACTIONS) QUANDARY_WASM_TOP_TIER=1 \
	  $(BIN)/python -m pytest -n $(E2E_JOBS) -m walk --durations 8 tests/e2e $(PYTEST_ARGS)

check: lint typecheck
	$(CHECK_DEPTH) $(BIN)/python -m pytest -n $(JOBS) $(PURE_TESTS) $(PYTEST_ARGS)

bench: build chromium
	$(BIN)/python -m bench.bots
	$(BIN)/python -m bench.randolph_bots
	$(BIN)/python -m bench.randolph_newcomer
	$(BIN)/python -m bench.royal_tournament
	$(BIN)/python -m bench.minister_bots
	$(BIN)/python -m bench.minister_newcomer
	$(BIN)/python -m bench.minister_fold
	$(BIN)/python -m bench.bots_browser
	$(BIN)/python -m bench.rooms
	$(BIN)/python -m bench.room_crypto
	$(BIN)/python -m bench.room_flood
	$(BIN)/python -m bench.succession
	$(BIN)/python -m bench.startup
	$(BIN)/python -m bench.moments

clean:
	rm -rf dist .dist.lock build py/quandary.egg-info $(VENV) node_modules .pytest_cache .ruff_cache .mypy_cache
