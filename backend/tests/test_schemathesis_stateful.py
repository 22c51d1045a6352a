"""Stateful schemathesis run over the OpenAPI ``links`` (create -> read, replace, delete).

The document links each answer that creates a resource (a saved report, a hardware entry, a queued
trace job) to the operations on it, passing the new ``id`` and, where one is needed, the owner
token as the ``x-owner-token`` header. Schemathesis' state machine follows those links with
generated requests and checks that nothing is a server error, every answer matches its schema,
a created resource is readable (``ensure_resource_availability``) and a deleted one is not
(``use_after_free``). Bounded and derandomized (a few seconds of CPU per database); rate limits
off, so a scenario is not cut short by a 429.

A trace job is analysed in a background thread, so what a DELETE of it finds depended on the
machine's load: on a quiet machine the small generated upload had already ended (204, gone; a
later read 404), on a loaded one it was still queued or running (202, cancelled or asked to stop,
and still readable: ``use_after_free`` failed). Before a DELETE of a job the run now waits until the
job has ended (:func:`settle_trace_job`, up to :data:`JOB_SETTLE_S`), so every machine runs what a
quiet one did, with every check. Cancelling a live job is tested in ``test_traces_api.py`` and
``test_trace_jobs_end.py``.
"""

from __future__ import annotations

import collections
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS, load_all_checks
from schemathesis.config import SchemathesisConfig

from backend.app.core.config import Settings
from backend.app.main import create_app
from backend.tests.conftest import migrate, postgres_schema

MAX_EXAMPLES = 40
LINKED_PATHS = r"^/api/v1/(reports|hardware|traces)(/|$)"
"""The paths of the resources the API links (reports, custom hardware, trace jobs)."""
JOB_SETTLE_S = 60.0
"""Longest wait for a trace job to end before the run deletes it (a small upload ends in well under
a second on a quiet machine)."""
LIVE_JOB = frozenset({"queued", "running"})
STEP_COUNT = 6
STATEFUL_CHECK_NAMES = frozenset(
    {
        "not_a_server_error",
        "use_after_free",
        "ensure_resource_availability",
        "status_code_conformance",
        "content_type_conformance",
        "response_headers_conformance",
        "response_schema_conformance",
    }
)
"""The checks about state and conformance; whether a drawn body is accepted is the stateless
run's question (``test_schemathesis.py``), with the rules OpenAPI cannot state left out there."""

load_all_checks()
STATEFUL_CHECKS = [check for check in CHECKS.get_all() if check.__name__ in STATEFUL_CHECK_NAMES]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def api_schema(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with ExitStack() as stack:
        if request.param == "sqlite":
            url = f"sqlite:///{tmp_path_factory.mktemp('stateful') / 'sizer.db'}"
        else:
            url = stack.enter_context(postgres_schema())
        migrate(url)
        scratch = tmp_path_factory.mktemp("scratch")
        app_settings = Settings.model_validate(
            {
                "database_url": url,
                "frontend_dist": scratch / "no-dist",
                "traces_dir": scratch / "traces",
                "rate_limits_enabled": False,
            }
        )
        app = create_app(app_settings)
        stack.callback(app.state.engine.dispose)
        config = SchemathesisConfig.from_dict({"generation": {"deterministic": True}})
        yield schemathesis.openapi.from_asgi("/openapi.json", app, config=config)


def test_every_create_links_to_the_operations_on_what_it_created(api_schema: Any) -> None:
    links = {
        (operation["operationId"], name, link["operationId"], tuple(sorted(link["parameters"])))
        for operations in api_schema.raw_schema["paths"].values()
        for operation in operations.values()
        for response in operation.get("responses", {}).values()
        for name, link in response.get("links", {}).items()
    }
    report = ("path.report_id",)
    report_owner = ("header.x-owner-token", "path.report_id")
    hardware = ("path.hardware_id",)
    hardware_owner = ("header.x-owner-token", "path.hardware_id")
    job = ("path.job_id",)
    expected = {
        *(
            (source, *link)
            for source in ("reports-create", "reports-recompute")
            for link in (
                ("GetReport", "reports-get", report),
                ("ExportReport", "reports-export", report),
                ("RecomputeReport", "reports-recompute", report),
                ("DeleteReport", "reports-delete", report_owner),
            )
        ),
        ("hardware-create", "GetHardware", "hardware-get", hardware),
        ("hardware-create", "ReplaceHardware", "hardware-replace", hardware_owner),
        ("hardware-create", "DeleteHardware", "hardware-delete", hardware_owner),
        ("traces-create", "GetTraceJob", "traces-get", job),
        ("traces-create", "DeleteTraceJob", "traces-delete", ("header.x-owner-token", "path.job_id")),
    }
    assert links == expected


def settle_trace_job(client: TestClient, job_id: str) -> None:
    """Wait until trace job ``job_id`` is no longer queued or running (or is gone)."""
    ends = time.monotonic() + JOB_SETTLE_S
    while time.monotonic() < ends:
        response = client.get(f"/api/v1/traces/{job_id}")
        if response.status_code != 200 or response.json()["status"] not in LIVE_JOB:
            return
        time.sleep(0.05)
    raise AssertionError(f"trace job {job_id} still queued or running after {JOB_SETTLE_S} s")


def test_linked_scenarios_get_no_server_error_and_no_deleted_resource_stays_readable(api_schema: Any) -> None:
    answered: collections.Counter[tuple[str, int]] = collections.Counter()
    reader = TestClient(api_schema.app)

    # the operations whose answers link to others (create -> read, export, recompute, delete) and those
    # links' targets: the scenarios are theirs. Every operation's single requests are the stateless
    # run's (test_schemathesis.py); over the whole API, each new operation moved the derandomized
    # draw and left the linked ones unexercised
    linked = api_schema.include(path_regex=LINKED_PATHS)

    jobs: set[str] = set()  # every trace job the run queued, ended or not

    class Workflow(linked.as_state_machine()):  # type: ignore[misc]
        def before_call(self, case: Any) -> None:
            super().before_call(case)
            if case.operation.label == "DELETE /api/v1/traces/{job_id}":
                settle_trace_job(reader, str(case.path_parameters["job_id"]))
            elif case.operation.label == "POST /api/v1/traces":
                # the queue holds a few live jobs (more: 429): an upload finds every earlier job
                # ended, as on a quiet machine, so the same draw gets the same answers (a 429 on a
                # loaded machine left a link unfollowed and the replayed draw inconsistent)
                for job_id in sorted(jobs):
                    settle_trace_job(reader, job_id)

        def after_call(self, response: Any, case: Any) -> None:
            super().after_call(response, case)
            answered[case.operation.label, response.status_code] += 1
            if case.operation.label == "POST /api/v1/traces" and response.status_code == 202:
                jobs.add(str(response.json()["id"]))

        def validate_response(
            self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any
        ) -> None:
            case.validate_response(response, checks=STATEFUL_CHECKS, recorder=self.recorder)

    Workflow.run(
        settings=settings(
            max_examples=MAX_EXAMPLES,
            stateful_step_count=STEP_COUNT,
            derandomize=True,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
    )
    # the links were followed: an entry was created, then deleted with the token from its creation
    assert answered["POST /api/v1/hardware", 201] > 0
    assert answered["DELETE /api/v1/hardware/{hardware_id}", 204] > 0
    # trace jobs were deleted once ended: gone (204), never a live job's 202
    assert answered["DELETE /api/v1/traces/{job_id}", 202] == 0
