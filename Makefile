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
        test-models test-backend test-frontend test-e2e chromium poppler wrk validate bench bench-figures bench-api bench-count bench-ui reliability lock openapi clean \
        check-python check-node check-postgres screenshots readme-figures model-error calibrate

help:
	@echo "make run       install, build the UI, migrate and serve on http://$(HOST):$(PORT)"
	@echo "make test      lint, type checks, pytest (models, backend on SQLite + PostgreSQL), vitest, e2e"
	@echo "make validate  predicted vs published measurements, non-zero exit if a gate fails"
	@echo "make calibrate fit the scale-out CPU costs to published rows and write them into the fixtures"
	@echo "make model-error  rewrite fixtures/calibration/model_error.yaml from what make validate computes"
	@echo "make bench     engine and API benchmarks (CPU time per call)"
	@echo "make bench-figures  rewrite the README's engine speed table from a CPU-timed benchmark run"
	@echo "make dev       API with reload + Vite dev server"
	@echo "make screenshots  remake the README's screenshots in docs/screenshots (make test writes under test-results/)"
	@echo "make readme-figures  rewrite the README's validation table from what make validate prints"
	@echo "make lock      regenerate requirements*.lock with uv"

# ---- Prerequisites: each stops make at once with one line naming what is missing ---------------
# The interpreter that builds the venv (or the venv's own, once built) must be Python 3.11-3.13.
check-python:
	@py=$(PY); test -x $(BIN)/python && py=$(BIN)/python; \
	command -v $$py >/dev/null 2>&1 || { echo "make: Python 3.11-3.13 is required and '$$py' was not found (set PY=python3.11)" >&2; exit 1; }; \
	$$py scripts/prereqs.py python

check-node:
	@$(PY) scripts/prereqs.py node

check-postgres:
	@$(PY) scripts/prereqs.py postgres

# ---- Python -----------------------------------------------------------------------------------
# requirements-dev.lock: the runtime, every extra ([policies], [distributed], [s3]) and the dev tools.
# Locks are complete, so they install with --no-deps (a package's stray requirements stay out).
$(VENV)/.installed: requirements-dev.lock pyproject.toml | check-python
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --no-deps -r requirements-dev.lock
	$(BIN)/pip install -q --no-deps -e .
	touch $@

venv install: $(VENV)/.installed

# requirements.lock: the engine and the API only; requirements-full.lock: with the three extras (the
# container's default image); requirements-dev.lock: with the dev tools too. The runtime locks hold
# no test package (libcachesim's stray pytest requirement is overridden away; see pyproject's
# [tool.uv] for boto3 and pybind11). Same versions in all three (the dev lock constrains the others).
UV_COMPILE := UV_PYTHON_DOWNLOADS=never $(BIN)/uv pip compile -q pyproject.toml --python-version 3.11 --custom-compile-command "make lock"
NO_PYTEST := <(echo "pytest; sys_platform == 'never'")
lock: install
	$(UV_COMPILE) --extra policies --extra distributed --extra s3 --extra dev -o requirements-dev.lock
	$(UV_COMPILE) --extra policies --extra distributed --extra s3 -c requirements-dev.lock --override $(NO_PYTEST) -o requirements-full.lock
	$(UV_COMPILE) -c requirements-dev.lock --override $(NO_PYTEST) -o requirements.lock

# ---- Frontend ---------------------------------------------------------------------------------
frontend/node_modules/.installed: frontend/package.json frontend/package-lock.json | check-node
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
	$(BIN)/uvicorn backend.app.main:app --host $(HOST) --port $(PORT) --no-server-header --no-proxy-headers

dev: install frontend-install migrate
	( $(BIN)/uvicorn backend.app.main:app --reload --host $(HOST) --port $(PORT) --no-server-header --no-proxy-headers & \
	  cd frontend && npm run dev; kill %1 )

# ---- Tests ------------------------------------------------------------------------------------
chromium:
	@command -v chromium >/dev/null 2>&1 || ( apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null )

# pdftoppm/pdftotext: the report tests read the proposal PDF back
poppler:
	@command -v pdftoppm >/dev/null 2>&1 || ( apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >/dev/null )

lint: install frontend-install
	$(BIN)/ruff check models backend bench scripts migrations
	$(BIN)/ruff format --check models backend bench scripts migrations

typecheck: install frontend-install
	$(BIN)/mypy models backend
	cd frontend && npm run -s typecheck

test-models: install
	$(BIN)/pytest -q -n auto models/tests

test-backend: check-postgres install chromium poppler
	$(BIN)/pytest -q -n auto backend/tests

test-frontend: frontend-install
	cd frontend && npm run -s test

test-e2e: install frontend-build chromium poppler
	cd frontend && npm run -s e2e

# The README's screenshots (docs/screenshots/), remade on request only: make test writes its own under
# test-results/ and leaves the tree as it was.
screenshots: install frontend-build chromium
	cd frontend && SCREENSHOTS_DIR=$(CURDIR)/docs/screenshots npx playwright test e2e/ui-correctness.spec.ts

# Runs every suite (none stops the others), then prints one closing summary line.
test: check-python check-node check-postgres install frontend-install chromium poppler
	$(BIN)/python scripts/run_tests.py

validate: install
	$(BIN)/python -m models.validation fixtures/validation

# Fit the software-defined nodes' CPU costs to the rows named in fixtures/calibration/scale_out_fit.yaml
# and write them (values, residuals, date) into the fixtures; then the model-error table again
calibrate: install
	$(BIN)/python scripts/calibrate.py
	$(BIN)/python -m models.validation fixtures/validation --write-model-error >/dev/null

# fixtures/calibration/model_error.yaml: the per-class errors make validate prints, shipped for the API
model-error: install
	$(BIN)/python -m models.validation fixtures/validation --write-model-error

# The README's validation summary table, rewritten from what `make validate` prints now
readme-figures: install
	$(BIN)/python scripts/readme_figures.py

# CPU time per call (time.process_time: user + system CPU of the benchmark process), not wall clock
bench: install
	$(BIN)/pytest -q -p no:xdist bench --benchmark-only --benchmark-timer=time.process_time --benchmark-columns=min,median,max,ops

# The README's engine speed table, rewritten from a CPU-timed run of the engine benchmarks
bench-figures: install
	$(BIN)/python scripts/bench_figures.py

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
