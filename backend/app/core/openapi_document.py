"""What the app's OpenAPI document says beyond what FastAPI derives from the routes: the answers of
the middleware every request passes, and parameters as they travel (text, never ``null``).

Applied once to the generated document (``create_app`` wraps ``app.openapi``); changes it in place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

NULL = {"type": "null"}
ERROR_DETAIL = {"$ref": "#/components/schemas/ErrorDetail"}


def parameters_never_null(openapi: dict[str, Any]) -> None:
    """Take the ``null`` branch out of every path, query, header and cookie parameter's schema: an
    optional parameter is left out, never sent as ``null`` (a header or query value is text, so
    ``Idempotency-Key: null`` is four letters, which the key's pattern refuses)."""
    for operations in openapi.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema", {})
                branches = schema.get("anyOf")
                if not isinstance(branches, list) or NULL not in branches:
                    continue
                rest = [branch for branch in branches if branch != NULL]
                del schema["anyOf"]
                if "default" in schema and schema["default"] is None:
                    del schema["default"]
                if len(rest) == 1:
                    schema.update({k: v for k, v in rest[0].items() if k not in schema})
                else:
                    schema["anyOf"] = rest


def bodies_may_be_too_large(openapi: dict[str, Any], limits: Mapping[str, int], default_limit: int) -> None:
    """A 413 on every operation that takes a body: the body size limit (``BodySizeLimitMiddleware``)
    answers it before the operation runs. ``limits`` maps a path to its own limit (uploads)."""
    for path, operations in openapi.get("paths", {}).items():
        limit = limits.get(path, default_limit)
        for operation in operations.values():
            if "requestBody" not in operation:
                continue
            operation.setdefault("responses", {}).setdefault(
                "413",
                {
                    "description": f"The request body is larger than {limit:,} bytes (as sent)",
                    "content": {"application/json": {"schema": ERROR_DETAIL}},
                },
            )


def _refusal(summary: str, loc: list[str | int], msg: str, kind: str = "value_error") -> dict[str, Any]:
    return {"summary": summary, "value": {"detail": [{"loc": ["body", *loc], "msg": msg, "type": kind}]}}


_PHASE_MIX_MSG = "Value error, io_sizes percentages must sum to 100, got 90"
_PHASE_MIX = _refusal(
    "a phase's I/O-size mix must sum to 100 %", ["workloads", 0, "phases", 0, "io_sizes"], _PHASE_MIX_MSG
)
_SEEK = _refusal(
    "a hard disk's track-to-track seek must be shorter than its average seek",
    ["spec", "track_to_track_ms"],
    "Value error, track_to_track_ms must be below avg_read_seek_ms",
)
_HOST_FILE = _refusal(
    "the file must be in the format the path names",
    ["file"],
    "line 1: not an iostat line: 'PNG'",
    "parse_error",
)
_ENGINE = {"phase-mix": _PHASE_MIX}

ENGINE_PATHS = (
    "evaluate",
    "size",
    "compare",
    "curves",
    "raid-grid",
    "recommend",
    "import/observed",
    "import/observed/fit",
    "whatif/growth",
    "whatif/sensitivity",
    "whatif/max-workload",
    "whatif/ranges",
    "whatif/confidence",
    "whatif/degraded",
    "plan/replication",
    "plan/expand",
    "plan/quote-check",
    "plan/consolidate",
    "plan/refresh",
)
"""Operations (under /api/v1, POST) whose body holds workloads the engine runs."""

RULES_OPENAPI_CANNOT_STATE: dict[tuple[str, str], dict[str, dict[str, Any]]] = {
    **{("post", f"/api/v1/{path}"): _ENGINE for path in ENGINE_PATHS},
    ("post", "/api/v1/reports"): {
        "phase-mix": _refusal(
            "a phase's I/O-size mix must sum to 100 %",
            ["inputs", "workloads", 0, "phases", 0, "io_sizes"],
            _PHASE_MIX_MSG,
        )
    },
    ("post", "/api/v1/hardware"): {"seek": _SEEK},
    ("put", "/api/v1/hardware/{hardware_id}"): {"seek": _SEEK},
    ("post", "/api/v1/import/fio"): {
        "fio-text": _refusal(
            "text must be a fio job file or JSON output", ["text"], "no JSON object found", "parse_error"
        )
    },
    ("post", "/api/v1/import/iometer"): {
        "iometer-text": _refusal(
            "text must be Iometer access-specification lines",
            ["text"],
            "line 1: expected 8 comma-separated fields (size,% of size,% reads,% random,delay,burst,align,reply), got 1",
            "parse_error",
        )
    },
    **{
        ("post", f"/api/v1/import/{path}"): {"host-file": _HOST_FILE}
        for path in ("host-stats", "iostat", "sar", "perfmon", "esxtop")
    },
    ("post", "/api/v1/import/array-stats"): {
        "array-file": _refusal(
            "the file must be an array export of a known format (its first lines say which)",
            ["file"],
            "line 1: not an array export this importer reads: ...",
            "parse_error",
        )
    },
    **{
        ("post", f"/api/v1/import/{path}"): {
            "workbook": _refusal(
                "the file must be that collector's xlsx workbook, with the sheets and columns it reads",
                ["file"],
                "sheet 'vInfo', row 1: no column 'In Use MiB' or 'In Use MB'; the sheet has 'VM', ...",
                "parse_error",
            )
        }
        for path in ("live-optics", "rvtools")
    },
    ("post", "/api/v1/import/timeline"): {
        "zone": _refusal(
            "each series needs a time zone (stated by its file or given), agreeing with the file; "
            "the series must overlap in time and have one value per interval in every list",
            ["layers", 0, "time_zone"],
            "host: the file does not say which time zone its clock is in: give it (e.g. Europe/Berlin, UTC, +01:00)",
        )
    },
    ("post", "/api/v1/whatif/raid-conversion"): {
        "group-width": _refusal(
            "a RAID group's width must lie in its scheme's range",
            ["to_raid"],
            "Value error, raidz2 group width must be between 4 and 16 drives, got 39",
        )
    },
    ("post", "/api/v1/whatif/building-blocks"): {
        "no-target": _refusal(
            "at least one target above zero",
            ["target"],
            "Value error, give at least one target: read or write bandwidth, IOPS, usable or raw capacity",
        )
    },
}
"""(method, path) -> examples of the 422 a request gets for breaking a rule between fields that
OpenAPI cannot state (a figure below another, a sum, a file's format): the request matches the
schema and is still refused, at the field the rule is about."""


def unstated_rules_documented(openapi: dict[str, Any]) -> None:
    """Each operation in :data:`RULES_OPENAPI_CANNOT_STATE` shows its examples on its 422 answer."""
    for (method, path), examples in RULES_OPENAPI_CANNOT_STATE.items():
        operation = openapi.get("paths", {}).get(path, {}).get(method)
        if operation is None:
            continue
        response = operation.setdefault("responses", {}).setdefault(
            "422",
            {
                "description": "Validation Error",
                "content": {
                    "application/json": {"schema": {"$ref": "#/components/schemas/HTTPValidationError"}}
                },
            },
        )
        response["content"]["application/json"]["examples"] = examples


def _link(operation_id: str, description: str, parameters: dict[str, str]) -> dict[str, Any]:
    return {"operationId": operation_id, "description": description, "parameters": parameters}


def _report_links() -> dict[str, dict[str, Any]]:
    report_id = {"path.report_id": "$response.body#/id"}
    owner = {**report_id, "header.x-owner-token": "$response.body#/owner_token"}
    return {
        "GetReport": _link("reports-get", "Read the report just saved (its `id`)", report_id),
        "ExportReport": _link("reports-export", "Export the report just saved", report_id),
        "RecomputeReport": _link("reports-recompute", "Recompute the report just saved", report_id),
        "DeleteReport": _link(
            "reports-delete", "Delete the report just saved, with the owner token it came with", owner
        ),
    }


def _hardware_links() -> dict[str, dict[str, Any]]:
    hardware_id = {"path.hardware_id": "$response.body#/id"}
    owner = {**hardware_id, "header.x-owner-token": "$response.body#/owner_token"}
    return {
        "GetHardware": _link("hardware-get", "Read the hardware entry just created (its `id`)", hardware_id),
        "ReplaceHardware": _link(
            "hardware-replace", "Replace the entry just created, with the owner token it came with", owner
        ),
        "DeleteHardware": _link(
            "hardware-delete", "Delete the entry just created, with the owner token it came with", owner
        ),
    }


def _trace_links() -> dict[str, dict[str, Any]]:
    job_id = {"path.job_id": "$response.body#/id"}
    owner = {**job_id, "header.x-owner-token": "$response.body#/owner_token"}
    return {
        "GetTraceJob": _link("traces-get", "Follow the analysis job just queued (its `id`)", job_id),
        "DeleteTraceJob": _link(
            "traces-delete", "Cancel or delete the job just queued, with the owner token it came with", owner
        ),
    }


RESOURCE_LINKS: dict[tuple[str, str, str], Callable[[], dict[str, dict[str, Any]]]] = {
    ("post", "/api/v1/reports", "201"): _report_links,
    ("post", "/api/v1/reports/{report_id}/recompute", "201"): _report_links,
    ("post", "/api/v1/hardware", "201"): _hardware_links,
    ("post", "/api/v1/traces", "202"): _trace_links,
}
"""(method, path, status) of an answer that creates a resource -> its OpenAPI ``links``: the
operations that take the new resource's id (and owner token) from that answer's body."""


def resources_linked(openapi: dict[str, Any]) -> None:
    """The answers that create a resource link to the operations on it (OpenAPI ``links``), so a
    client, and a stateful test, can go from a create to the read, replace and delete."""
    for (method, path, status), links in RESOURCE_LINKS.items():
        response = openapi.get("paths", {}).get(path, {}).get(method, {}).get("responses", {}).get(status)
        if response is not None:
            response["links"] = links()


def finish(openapi: dict[str, Any], limits: Mapping[str, int], default_limit: int) -> dict[str, Any]:
    parameters_never_null(openapi)
    bodies_may_be_too_large(openapi, limits, default_limit)
    unstated_rules_documented(openapi)
    resources_linked(openapi)
    return openapi
