"""Property-based API tests from the app's own OpenAPI document (schemathesis).

Every operation gets generated requests, valid and invalid, checked with every check schemathesis
offers (``schemathesis run --checks all``): no 5xx; every answer a documented status with a
documented content type, headers and a body matching its schema; a request the schema allows is
accepted (2xx, or a 404/409/429 the state explains) and one it does not is refused (4xx); an
undeclared method is 405 with an ``Allow`` header listing what the path answers, OPTIONS lists the
same; a request without a required header is refused.

Two sources of requests per operation: Hypothesis draws (valid and invalid, derandomized), and the
coverage phase's request-shape probes (each undeclared method, a malformed and an unsupported
``Content-Type``, a missing required parameter) together with its boundary values of the
parameters outside the body (path, query, headers). Bounded and deterministic so the suite stays
fast and repeatable: each operation runs on SQLite and on PostgreSQL, with the full example budget
on PostgreSQL only where the database is part of the answer (reports, hardware, traces, health).

A rule the OpenAPI document cannot state (a value that must lie below another field's, a file that
must parse) is in the field's description with a documented 422 example; where schemathesis'
``positive_data_acceptance`` can draw a request breaking such a rule, exactly that check is left
out for exactly that operation in :data:`UNSTATABLE_RULES`, which names the rule.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import CHECKS, load_all_checks
from schemathesis.config import SchemathesisConfig
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.meta import REQUEST_SHAPE_PROBES, CoveragePhaseData, CoverageScenario

from backend.app.core.config import Settings
from backend.app.core.openapi_document import ENGINE_PATHS, RULES_OPENAPI_CANNOT_STATE
from backend.app.main import create_app
from backend.tests.conftest import migrate, postgres_schema

MAX_EXAMPLES = 30
ENGINE_EXAMPLES = 8
"""A POST that runs the engine (evaluate, size, compare, curves, what-if, recommend, reports) may
take a second per example (a comparison sizes up to 8 configurations): fewer examples. The
property tests in ``test_api_properties.py`` drive these with requests the engine accepts."""
NOT_ENGINE_POSTS = ("/api/v1/import", "/api/v1/hardware", "/api/v1/traces")
SEARCH_PATHS = ("/api/v1/recommend",)
SEARCH_EXAMPLES = 3
"""A recommendation searches the whole catalog (seconds per accepted request on a busy machine):
fewer still; ``test_recommend_api.py`` and the engine's tests cover what it answers."""
REQUEST_TIMEOUT_S = 120.0
"""Longest wait for an answer: schemathesis' default (10 s) is a speed assertion a loaded machine
fails; speed is measured in ``bench/``."""
DATABASE_PATHS = ("/api/v1/reports", "/api/v1/hardware", "/api/v1/traces", "/api/v1/health")
ENGINE_ONLY_EXAMPLES_ON_POSTGRESQL = 4

CONFIG = {
    "generation": {"deterministic": True},
    # a body over the size limit is refused (413, documented on every operation with a body) before
    # anything reads it: a refusal like the 4xx schemathesis expects for invalid data
    "checks": {
        "negative_data_rejection": {
            "expected-statuses": [400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 428, 429, "5xx"]
        }
    },
}

load_all_checks()
ALL_CHECKS = CHECKS.get_all()
"""Every check schemathesis registers: what ``schemathesis run --checks all`` runs."""

_ACCEPTS = "positive_data_acceptance"
_ENGINE_RULES = (
    "the engine's rules between fields of workloads and configurations: a phase's io_sizes "
    "percentages sum to 100; a skew's io_pct is at least its data_pct; a RAID group's width lies in "
    "its scheme's range and a stripe unit is a power of two; pool names are distinct and tiering "
    "names pools that exist; a scale-out family's nodes lie between its min_nodes and max_nodes"
)
_HOST_FILE = "the uploaded file must be that host-statistics format (its first lines say which)"
UNSTATABLE_RULES: dict[tuple[str, str], dict[str, str]] = {
    ("POST", "/api/v1/hardware"): {
        _ACCEPTS: "a hard disk's track_to_track_ms lies below its avg_read_seek_ms; an array's "
        "default_width lies between min_width and max_width"
    },
    ("PUT", "/api/v1/hardware/{hardware_id}"): {
        _ACCEPTS: "a hard disk's track_to_track_ms lies below its avg_read_seek_ms; an array's "
        "default_width lies between min_width and max_width"
    },
    ("POST", "/api/v1/import/fio"): {_ACCEPTS: "text must be a fio job file or fio JSON output"},
    ("POST", "/api/v1/import/iometer"): {_ACCEPTS: "text must be Iometer access-specification lines"},
    **{
        ("POST", f"/api/v1/import/{fmt}"): {_ACCEPTS: _HOST_FILE}
        for fmt in ("iostat", "sar", "perfmon", "esxtop")
    },
    ("POST", "/api/v1/import/host-stats"): {_ACCEPTS: _HOST_FILE},
    ("POST", "/api/v1/import/array-stats"): {
        _ACCEPTS: "the uploaded file must be an array export of a known format (its first lines say which)"
    },
    ("POST", "/api/v1/import/live-optics"): {
        _ACCEPTS: "the uploaded file must be a Live Optics xlsx workbook"
    },
    ("POST", "/api/v1/import/rvtools"): {_ACCEPTS: "the uploaded file must be an RVTools xlsx workbook"},
    ("POST", "/api/v1/import/timeline"): {
        _ACCEPTS: "each series has a time zone (its file's or the one given, agreeing), every list one "
        "value per interval, and the series overlap in time"
    },
    ("POST", "/api/v1/traces"): {_ACCEPTS: "the body must be a block I/O trace in a known format (else 400)"},
    **{("POST", f"/api/v1/{path}"): {_ACCEPTS: _ENGINE_RULES} for path in (*ENGINE_PATHS, "reports")},
    ("POST", "/api/v1/plan/replication"): {
        _ACCEPTS: _ENGINE_RULES + "; asynchronous replication states rpo_minutes above interval_minutes "
        "and each window's hours"
    },
    ("POST", "/api/v1/plan/expand"): {
        _ACCEPTS: _ENGINE_RULES + "; an expansion adds something, drives the array takes, within its maximum "
        "drives and shelves, in whole RAID groups"
    },
    ("POST", "/api/v1/plan/quote-check"): {
        _ACCEPTS: _ENGINE_RULES + "; a quote names a known drive and array, whose drives after spares form "
        "whole RAID groups"
    },
    ("POST", "/api/v1/plan/consolidate"): {
        _ACCEPTS: _ENGINE_RULES + "; candidates are families (drive count null), fixed arrays have drive "
        "counts, at least one candidate (or fixed arrays with fixed_only)"
    },
    ("POST", "/api/v1/plan/refresh"): {
        _ACCEPTS: _ENGINE_RULES + "; the successor is a family (drive count null)"
    },
    ("POST", "/api/v1/whatif/building-blocks"): {
        _ACCEPTS: "at least one target above zero (stating it, anyOf, leaves schemathesis' coverage "
        "phase without a single case for the operation); a block's figures fill at least one rack"
    },
    ("POST", "/api/v1/whatif/raid-conversion"): {
        _ACCEPTS: "a RAID group's width lies in its scheme's range, which depends on the scheme and "
        "its parity; a stripe unit is a power of two; both drive counts or neither"
    },
}
"""(method, path) -> {check name: the rule OpenAPI cannot state that a request drawn from the
schema may break}. Only ``positive_data_acceptance`` is ever left out, and only here."""

SHAPE_PROBES = REQUEST_SHAPE_PROBES | {CoverageScenario.MISSING_PARAMETER}


def _operations() -> list[tuple[str, str]]:
    never_connected = f"sqlite:///{Path(tempfile.gettempdir()) / 'sizer-openapi-only.db'}"
    paths = create_app(Settings(database_url=never_connected)).openapi()["paths"]
    return sorted((method.upper(), path) for path, operations in paths.items() for method in operations)


OPERATIONS = _operations()


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def api_schema(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Any]]:
    """(backend, the app's schema) on one migrated database per backend, shared by every operation."""
    with ExitStack() as stack:
        if request.param == "sqlite":
            url = f"sqlite:///{tmp_path_factory.mktemp('schemathesis') / 'sizer.db'}"
        else:
            url = stack.enter_context(postgres_schema())
        migrate(url)
        scratch = tmp_path_factory.mktemp("scratch")
        settings = Settings.model_validate(
            {"database_url": url, "frontend_dist": scratch / "no-dist", "traces_dir": scratch / "traces"}
        )
        app = create_app(settings)
        stack.callback(app.state.engine.dispose)
        yield (
            request.param,
            schemathesis.openapi.from_asgi("/openapi.json", app, config=SchemathesisConfig.from_dict(CONFIG)),
        )


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_no_request_gets_a_server_error_and_every_answer_matches_its_schema(
    api_schema: tuple[str, Any], method: str, path: str
) -> None:
    backend, schema = api_schema
    operation = schema[path][method]
    cases = st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE), operation.as_strategy(GenerationMode.NEGATIVE)
    )
    engine = method == "POST" and not path.startswith(NOT_ENGINE_POSTS)
    examples = ENGINE_EXAMPLES if engine else MAX_EXAMPLES
    if backend == "postgresql" and not path.startswith(DATABASE_PATHS):
        examples = min(examples, ENGINE_ONLY_EXAMPLES_ON_POSTGRESQL)
    if path.startswith(SEARCH_PATHS):
        examples = min(examples, SEARCH_EXAMPLES)

    @given(case=cases)
    @settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def check(case: Any) -> None:
        case.call_and_validate(checks=_checks(method, path), timeout=REQUEST_TIMEOUT_S)

    check()


def _checks(method: str, path: str) -> list[Any]:
    excluded = UNSTATABLE_RULES.get((method, path), {})
    return [check for check in ALL_CHECKS if check.__name__ not in excluded]


def _coverage_cases(operation: Any) -> list[Any]:
    """The coverage phase's request-shape probes and its cases varying a parameter outside the body
    (the body's thousands of boundary values are Hypothesis' job above, within its budget)."""
    schema = operation.schema
    generation = schema.config.generation_for(operation=operation, phase="coverage")
    cases = schema.iter_coverage_cases(
        operation, generation_modes=list(GenerationMode), generation_config=generation
    )
    kept = []
    for case in cases:
        data = case.meta.phase.data
        assert isinstance(data, CoveragePhaseData)
        if data.scenario in SHAPE_PROBES or (data.parameter_location not in (None, ParameterLocation.BODY)):
            kept.append(case)
    return kept


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_request_shape_probes_and_parameter_boundaries_get_the_documented_answers(
    api_schema: tuple[str, Any], method: str, path: str
) -> None:
    _, schema = api_schema
    operation = schema[path][method]
    if (method, path) not in _COVERAGE:  # drawn once (a second or more), sent on both databases
        _COVERAGE[method, path] = _coverage_cases(operation)
    cases = _COVERAGE[method, path]
    assert cases, "the coverage phase probes every operation (at least its undeclared methods)"
    for case in cases:
        case.operation = operation  # this database's app
        case.call_and_validate(checks=_checks(method, path), timeout=REQUEST_TIMEOUT_S)


_COVERAGE: dict[tuple[str, str], list[Any]] = {}


def test_every_left_out_check_is_positive_data_acceptance_for_a_rule_the_document_shows() -> None:
    documented = {(method.upper(), path) for method, path in RULES_OPENAPI_CANNOT_STATE}
    for (method, path), left_out in UNSTATABLE_RULES.items():
        assert (method, path) in OPERATIONS
        assert set(left_out) == {"positive_data_acceptance"}
        # the trace upload documents its 400 (TraceRejection, with samples of the bad lines) instead
        assert (method, path) in documented or (method, path) == ("POST", "/api/v1/traces")
