# Quandary: `make run` serves the app, `make test` runs every test.
# Both install what they need from nothing (Python venv, npm packages and,
# for the tests, Debian's chromium).

PYTHON ?= python3
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
PY_STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
PYTEST_ARGS ?=

.PHONY: run test build lint typecheck bench chromium clean

$(PY_STAMP): requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

build: $(PY_STAMP) $(NODE_STAMP)
	$(BIN)/python scripts/build.py

run: build
	$(BIN)/python -m scripts.serve --port $(PORT)

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium; }

lint: $(PY_STAMP)
	$(BIN)/ruff check py tests scripts bench
	$(BIN)/ruff format --check py tests scripts bench

typecheck: $(PY_STAMP)
	$(BIN)/mypy py

test: build chromium lint typecheck
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: build chromium
	$(BIN)/python bench/bots.py
	$(BIN)/python bench/randolph_bots.py
	$(BIN)/python bench/royal_tournament.py
	$(BIN)/python bench/minister_bots.py
	$(BIN)/python bench/bots_browser.py
	$(BIN)/python bench/rooms.py
	$(BIN)/python bench/room_crypto.py
	$(BIN)/python bench/room_flood.py
	$(BIN)/python bench/startup.py

clean:
	rm -rf dist $(VENV) node_modules .pytest_cache .ruff_cache .mypy_cache
