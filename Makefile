# One-command run and test. Everything a fresh machine needs is installed from here.
SHELL := /bin/bash
.DEFAULT_GOAL := help
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
export TEST_DATABASE_URL ?= postgresql+psycopg://postgres@127.0.0.1:5432/test
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: help venv install frontend-install frontend-build migrate run dev test lint typecheck \
        test-models test-backend test-frontend test-e2e chromium wrk validate bench bench-api bench-count bench-ui reliability lock openapi clean

help:
	@echo "make run       install, build the UI, migrate and serve on http://$(HOST):$(PORT)"
	@echo "make test      lint, type checks, pytest (models, backend on SQLite + PostgreSQL), vitest, e2e"
	@echo "make validate  predicted vs published measurements, non-zero exit if a gate fails"
	@echo "make bench     engine and API benchmarks"
	@echo "make dev       API with reload + Vite dev server"

# ---- Python -----------------------------------------------------------------------------------
$(VENV)/.installed: requirements-dev.lock pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q -r requirements-dev.lock
	$(BIN)/pip install -q --no-deps -e .
	touch $@

venv install: $(VENV)/.installed

lock:
	uv pip compile -q pyproject.toml -o requirements.lock --python-version 3.11
	uv pip compile -q pyproject.toml --extra dev -o requirements-dev.lock --python-version 3.11

# ---- Frontend ---------------------------------------------------------------------------------
frontend/node_modules/.installed: frontend/package.json frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund --loglevel=error
	touch $@

frontend-install: frontend/node_modules/.installed

frontend-build: frontend-install
	cd frontend && npm run -s build

openapi: install frontend-install
	$(BIN)/python -m backend.app.openapi_dump frontend/src/api/openapi.json
	cd frontend && npm run -s gen:api

# ---- Database and serving ---------------------------------------------------------------------
migrate: install
	$(BIN)/alembic upgrade head

run: install frontend-build migrate
	@echo "Serving on http://$(HOST):$(PORT)  (UI /, API /api/v1, docs /docs)"
	$(BIN)/uvicorn backend.app.main:app --host $(HOST) --port $(PORT) --no-server-header

dev: install frontend-install migrate
	( $(BIN)/uvicorn backend.app.main:app --reload --host $(HOST) --port $(PORT) --no-server-header & \
	  cd frontend && npm run dev; kill %1 )

# ---- Tests ------------------------------------------------------------------------------------
chromium:
	@command -v chromium >/dev/null 2>&1 || ( apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null )

lint: install frontend-install
	$(BIN)/ruff check models backend bench scripts migrations
	$(BIN)/ruff format --check models backend bench scripts migrations

typecheck: install frontend-install
	$(BIN)/mypy models backend
	cd frontend && npm run -s typecheck

test-models: install
	$(BIN)/pytest -q models/tests

test-backend: install
	$(BIN)/pytest -q backend/tests

test-frontend: frontend-install
	cd frontend && npm run -s test

test-e2e: install frontend-build chromium
	cd frontend && npm run -s e2e

# Runs every suite (none stops the others), then prints one closing summary line.
test: install frontend-install chromium
	$(BIN)/python scripts/run_tests.py

validate: install
	$(BIN)/python -m models.validation fixtures/validation

bench: install
	$(BIN)/pytest -q bench --benchmark-only --benchmark-columns=min,median,max,ops

# uvicorn on 127.0.0.1 + wrk (or an asyncio httpx client): /health, /evaluate, /reports on PostgreSQL
wrk:
	@command -v wrk >/dev/null 2>&1 || ( apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null )

bench-api: install wrk
	$(BIN)/python bench/api_load.py

# CPU instructions per evaluate() under valgrind: a figure that does not move with the machine
bench-count: install
	@command -v valgrind >/dev/null 2>&1 || ( apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null )
	$(BIN)/python -m bench.instructions warm
	$(BIN)/python -m bench.instructions cold --calls 100

# UI timings in Chromium against a server on PORT (make run): first load on the wire, size click ->
# charts drawn, recommend click -> table and chart (wall clock, medians; say the load beside them)
bench-ui: install frontend-build chromium
	node bench/ui/size_timing.mjs --base http://$(HOST):$(PORT) --runs 20

# the API against a database that goes silent, refuses, or a server killed mid-write: prints figures
reliability: install
	$(BIN)/python bench/reliability.py

clean:
	rm -rf $(VENV) frontend/node_modules frontend/dist var/*.db
