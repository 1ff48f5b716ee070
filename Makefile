# make run   — create .venv, install, build the front end, migrate the SQLite database, serve on 127.0.0.1:8000
# make test  — the same with the test tools, Chromium and nginx, then every check
# make check — the quick loop: lint, engine and API tests (not slow), Hypothesis's quick profile
# make test-services — what depends on PostgreSQL + Redis (DATABASE_URL, REDIS_URL), for CI
# make build — the front end alone: npm ci (esbuild, pinned in package-lock.json), node build.mjs
# make types — static/js/types/api.d.ts, generated from the app's OpenAPI document (make lint runs it)
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
NODE ?= node
NPM ?= npm
# The front end's sources: a change to any of them builds static/dist/ again (types, *.d.ts,
# are the type check's only).
FRONT_END := build.mjs $(shell find static/js static/css static/i18n static/icons -type f -not -name '*.d.ts' 2>/dev/null)
ASSETS := static/dist/manifest.json
# The browser's types of the wire, generated (git-ignored) from the OpenAPI document, which
# the app's Python makes (docs/architecture.md, "Types").
TYPES := static/js/types/api.d.ts
OPENAPI := var/openapi.json

# Python keeps what it compiles (__pycache__, git-ignored), pytest its rewritten tests:
# where the environment says not to (PYTHONDONTWRITEBYTECODE), every pytest process (each
# xdist worker) rewrote every test module again: 9 s of make check's collection.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test check test-services lint types build chromium nginx bench bench-peer bench-hardening clean

# Tests run on the machine's cores (pytest-xdist) where they can share it; the tests that
# start servers of their own and time them (drain, faults, several processes, nginx) run
# after them, on their own.
WORKERS ?= auto
# $(call spread,N): N workers when WORKERS is auto, else WORKERS (0: one process)
spread = -n $(if $(filter auto,$(WORKERS)),$(1),$(WORKERS)) --dist worksteal
PARALLEL := $(call spread,auto)
CORES := $(shell nproc 2>/dev/null || echo 2)
# The first part of make test: one worker more than the cores. A browser test waits (on its
# page, on the server, on a real clock: three wait a minute each) about as much as it
# computes, so a worker that waits leaves a core to the spare one (637 s against 667 s).
MIXED := $(call spread,$(shell echo $$(($(CORES) + 1))))
SERIAL_TESTS := tests/integrity tests/faults tests/multiprocess tests/proxy
SERIAL_IGNORED := $(foreach dir,$(SERIAL_TESTS),--ignore=$(dir))
# On SQLite what those run of them (integrity, faults) mostly waits on a process of its own (a
# database that never answers for 15 s, a drain): two a core (58 s → 43 s on two cores).
# On PostgreSQL + Redis one at a time: two processes and nginx each, and an outage is told
# apart by its 30 s gaps.
SERIAL_CORES := $(if $(DATABASE_URL),,$(call spread,$(shell echo $$((2 * $(CORES))))))

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $(VENV)/.installed $@

node_modules/.installed: package.json package-lock.json
	@command -v $(NODE) >/dev/null && command -v $(NPM) >/dev/null || \
		{ echo "The front end is built with Node.js (18 or later) and npm: install them (apt-get install nodejs npm)."; exit 1; }
	$(NPM) ci --no-audit --no-fund
	touch $@

$(ASSETS): node_modules/.installed $(FRONT_END)
	$(NODE) build.mjs

build: $(ASSETS)

# --default-non-nullable false: a field with a default is optional, as the models read it
# (a client frame's `id`); tests/test_typecheck.py generates its types with this line's flags.
$(TYPES): $(VENV)/.installed node_modules/.installed $(shell find app engines -name '*.py')
	@mkdir -p $(dir $(OPENAPI))
	$(BIN)/python -m app.openapi_dump $(OPENAPI)
	$(NODE) node_modules/openapi-typescript/bin/cli.js $(OPENAPI) --output $@ --default-non-nullable false

types: $(TYPES)

run: $(VENV)/.installed $(ASSETS)
	$(BIN)/alembic upgrade head
	HOST=$(HOST) PORT=$(PORT) $(BIN)/python -m app

# Debian's chromium (the player's browser: the tests of installing and of a permission's
# prompt) and chromium-headless-shell (the same Blink, lighter: every other browser test)
chromium:
	@if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromium-headless-shell ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing Debian's chromium and chromium-headless-shell for the browser tests..."; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell >/dev/null; \
	else \
		echo "Browser tests need /usr/bin/chromium and /usr/bin/chromium-headless-shell: run 'sudo apt-get install chromium chromium-headless-shell' (they are skipped without them)."; \
	fi

nginx:
	@if command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing Debian's nginx for the proxy tests..."; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null; \
	else \
		echo "Proxy tests need nginx: run 'sudo apt-get install nginx' (they are skipped without it)."; \
	fi

# tsc: static/js checked against the wire's types (tsconfig.json; the service worker and the
# Intl worker against a worker's globals, tsconfig.workers.json).
lint: $(VENV)/.installed-dev $(TYPES)
	$(BIN)/ruff check app engines tests bench
	$(BIN)/mypy --strict engines/ app/
	$(BIN)/biome lint --error-on-warnings static/js tests/fixtures/games
	$(NODE) node_modules/typescript/bin/tsc -p tsconfig.json
	$(NODE) node_modules/typescript/bin/tsc -p tsconfig.workers.json

# --durations: the slowest tests, named in CI's log for whoever trims the loop next
test: $(VENV)/.installed-dev $(ASSETS) chromium nginx lint
	$(BIN)/pytest $(MIXED) $(SERIAL_IGNORED) --durations=25
	$(BIN)/pytest $(SERIAL_CORES) $(SERIAL_TESTS)

check: $(ASSETS) lint
	HYPOTHESIS_PROFILE=quick $(BIN)/pytest $(PARALLEL) -m "not slow" \
		tests/engines tests/api tests/test_static_size.py tests/test_stylesheet_size.py

# What depends on the stores and the hub, for a second pass on PostgreSQL + Redis (.ci/run):
# API, sockets, integrity, faults, several processes, nginx, and one browser test per game.
test-services: $(VENV)/.installed-dev $(ASSETS) chromium nginx
	$(BIN)/pytest $(PARALLEL) -m "smoke or not e2e" tests/api tests/e2e
	$(BIN)/pytest $(SERIAL_TESTS)

bench: $(VENV)/.installed-dev
	for script in bench/*.py; do $(BIN)/python $$script; done

# boardgame.io 0.50.2 (../shared/peer-bgio, needs node) against ours, one run after the other;
# e.g. make bench-peer PEER_ARGS="--postgres postgresql://... --redis redis://..."
bench-peer: $(VENV)/.installed-dev
	$(BIN)/python bench/peer.py $(PEER_ARGS)

# HARDENING_ARGS="--postgres postgresql://... --redis redis://..." adds a PostgreSQL + Redis run.
bench-hardening: $(VENV)/.installed-dev
	$(BIN)/python bench/hardening.py $(HARDENING_ARGS)

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache artifacts node_modules static/dist
