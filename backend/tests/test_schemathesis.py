"""Property-based API tests from the app's own OpenAPI document (schemathesis).

Every operation gets generated requests, valid and invalid; none may answer with a 5xx, and every
answer must be a documented status with a documented content type and a body matching its schema.
Bounded and deterministic (derandomized) so the suite stays fast and repeatable: each operation
runs on SQLite and on PostgreSQL, with the full example budget on PostgreSQL only where the
database is part of the answer (reports, hardware, traces, health).
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
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from backend.app.core.config import Settings
from backend.app.main import create_app
from backend.tests.conftest import migrate, postgres_schema

MAX_EXAMPLES = 30
ENGINE_EXAMPLES = 8
"""A POST that runs the engine (evaluate, size, compare, curves, what-if, recommend, reports) may
take a second per example (a comparison sizes up to 8 configurations): fewer examples. The
property tests in ``test_api_properties.py`` drive these with requests the engine accepts."""
NOT_ENGINE_POSTS = ("/api/v1/import", "/api/v1/hardware", "/api/v1/traces")
DATABASE_PATHS = ("/api/v1/reports", "/api/v1/hardware", "/api/v1/traces", "/api/v1/health")
ENGINE_ONLY_EXAMPLES_ON_POSTGRESQL = 4

CONFIG = {"generation": {"deterministic": True}}

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]


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

    @given(case=cases)
    @settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def check(case: Any) -> None:
        case.call_and_validate(checks=CHECKS)

    check()
