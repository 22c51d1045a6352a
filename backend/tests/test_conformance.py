"""The API keeps to its OpenAPI document and to HTTP: Allow lists every declared method, numbers
are numbers (no booleans), and no redirect is built from the Host header."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import jsonschema_rs
import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel, ValidationError

from backend.app.core.config import Settings
from backend.app.core.idempotency import KEY_PATTERN
from backend.app.core.openapi_document import RULES_OPENAPI_CANNOT_STATE
from backend.app.core.operations import OperationIndex
from backend.app.main import create_app
from backend.app.whatif.schemas import BuildingBlocksRequest
from backend.tests.conftest import FAS3270, error_locs, phase, serve, workload
from models.drives import DriveSpec
from models.importers import HostStatsOptions
from models.traces import TraceOptions
from models.workload import Phase, Skew


@pytest.mark.parametrize(
    ("path", "allow"),
    [
        ("/api/v1/hardware/some-record", "DELETE, GET, HEAD, PUT, OPTIONS"),
        ("/api/v1/hardware", "GET, HEAD, POST, OPTIONS"),
        ("/api/v1/reports", "POST, OPTIONS"),
    ],
)
def test_options_and_405_answers_allow_every_method_the_path_declares(
    client: TestClient, path: str, allow: str
) -> None:
    options = client.options(path)
    patch = client.patch(path)

    assert (options.status_code, options.headers["allow"]) == (204, allow)
    assert (patch.status_code, patch.headers["allow"]) == (405, allow)


def test_a_trailing_slash_with_a_forged_host_is_404_not_a_redirect_to_that_host(client: TestClient) -> None:
    response = client.get("/api/v1/health/", headers={"Host": "evil.example"}, follow_redirects=False)

    assert response.status_code == 404
    assert "location" not in response.headers


@pytest.mark.parametrize("value", [False, True])
def test_a_boolean_where_a_number_belongs_is_422_at_the_field(client: TestClient, value: bool) -> None:
    conversion = client.post(
        "/api/v1/whatif/raid-conversion",
        json={
            "measured_iops": value,
            "from_scheme": "raid5",
            "to_scheme": "raid10",
            "configuration": FAS3270,
        },
    )
    evaluate = client.post(
        "/api/v1/evaluate",
        json={"workloads": [workload(phases=[phase(iops=value)])], "configuration": FAS3270},
    )

    assert error_locs(conversion) == [["body", "measured_iops"]]
    assert conversion.json()["detail"][0]["type"] == "number_type"
    assert error_locs(evaluate) == [["body", "workloads", 0, "phases", 0, "iops"]]


def test_a_boolean_is_refused_only_where_every_schema_branch_wants_a_number() -> None:
    index = OperationIndex(
        {
            "components": {"schemas": {"Leaf": {"type": "object", "properties": {"n": {"type": "number"}}}}},
            "paths": {},
        }
    )
    schema = {
        "type": "object",
        "properties": {
            "count": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "flag_or_rate": {"anyOf": [{"type": "boolean"}, {"type": "number"}]},
            "anything": {},
            "leaves": {"type": "array", "items": {"$ref": "#/components/schemas/Leaf"}},
        },
    }

    assert index.bool_refused(schema, ("count",))
    assert index.bool_refused(schema, ("leaves", 3, "n"))
    assert not index.bool_refused(schema, ("flag_or_rate",))
    assert not index.bool_refused(schema, ("anything",))
    assert not index.bool_refused(schema, ("not_in_the_schema",))  # left to validation (extra fields)


def test_a_number_or_text_is_refused_only_where_every_schema_branch_wants_a_boolean() -> None:
    index = OperationIndex(
        {
            "components": {
                "schemas": {"Leaf": {"type": "object", "properties": {"on": {"type": "boolean"}}}}
            },
            "paths": {},
        }
    )
    schema = {
        "type": "object",
        "properties": {
            "flag": {"anyOf": [{"type": "boolean"}, {"type": "null"}]},
            "flag_or_rate": {"anyOf": [{"type": "boolean"}, {"type": "number"}]},
            "leaves": {"type": "array", "items": {"$ref": "#/components/schemas/Leaf"}},
            "count": {"type": "integer"},
        },
    }

    assert index.boolean_names(schema) == {"flag", "flag_or_rate", "on"}
    assert index.non_bool_refused(schema, ("flag",))
    assert index.non_bool_refused(schema, ("leaves", 2, "on"))
    assert not index.non_bool_refused(schema, ("flag_or_rate",))
    assert not index.non_bool_refused(schema, ("count",))


@pytest.mark.parametrize("value", [0, 1, "yes", "true"])
def test_a_number_or_text_where_a_boolean_belongs_is_422_at_the_field(
    client: TestClient, value: object
) -> None:
    # pydantic's lax mode read 0 and "yes" as booleans: schemathesis sent them as invalid data
    reference = {**FAS3270, "hypothetical": value}
    response = client.post("/api/v1/evaluate", json={"workloads": [workload()], "configuration": reference})

    assert error_locs(response) == [["body", "configuration", "hypothetical"]]
    assert response.json()["detail"][0]["type"] == "bool_type"


def test_true_and_false_are_still_booleans(client: TestClient) -> None:
    reference = {**FAS3270, "hypothetical": False}
    response = client.post("/api/v1/evaluate", json={"workloads": [workload()], "configuration": reference})

    assert response.status_code == 200, response.text


# ---- what the OpenAPI document states beyond the routes


def _document(make_settings: Callable[..., Settings]) -> dict[str, Any]:
    return create_app(make_settings()).openapi()


def _operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(m, p, op) for p, ops in document["paths"].items() for m, op in ops.items()]


def test_no_parameter_outside_the_body_is_null_in_the_schema(make_settings: Callable[..., Settings]) -> None:
    document = _document(make_settings)
    key = next(
        p
        for p in document["paths"]["/api/v1/hardware"]["post"]["parameters"]
        if p["name"] == "Idempotency-Key"
    )

    assert key["required"] is False
    assert (key["schema"]["type"], key["schema"]["pattern"]) == ("string", KEY_PATTERN)
    for method, path, operation in _operations(document):
        for parameter in operation.get("parameters", []):
            assert "null" not in json.dumps(parameter["schema"]), (method, path, parameter["name"])


def test_every_operation_with_a_body_documents_the_413_of_the_size_limit(
    make_settings: Callable[..., Settings],
) -> None:
    document = _document(make_settings)
    with_body = [(m, p, op) for m, p, op in _operations(document) if "requestBody" in op]

    assert len(with_body) >= 25  # 21 engine and import, 2 hardware, a report, a trace
    for method, path, operation in with_body:
        assert "413" in operation["responses"], (method, path)
    assert (
        "1,048,576 bytes" in document["paths"]["/api/v1/evaluate"]["post"]["responses"]["413"]["description"]
    )
    assert (
        "2,147,483,648 bytes"
        in document["paths"]["/api/v1/traces"]["post"]["responses"]["413"]["description"]
    )


def test_a_body_over_the_limit_is_the_documented_413(make_settings: Callable[..., Settings]) -> None:
    with serve(create_app(make_settings(max_body_bytes=1000))) as small:
        response = small.post("/api/v1/import/iometer", json={"text": "x" * 2000})

    assert response.status_code == 413
    assert response.json() == {"detail": "request body larger than 1000 bytes"}


@pytest.mark.parametrize(
    ("path", "model", "renamed"),
    [
        ("/api/v1/import/host-stats", HostStatsOptions, {"name": "workload_name"}),
        ("/api/v1/traces", TraceOptions, {"name": "workload_name"}),
    ],
)
def test_query_options_state_the_bounds_their_model_checks(
    make_settings: Callable[..., Settings], path: str, model: type[BaseModel], renamed: dict[str, str]
) -> None:
    # a bound only the model knew was a 422 the schema did not announce (schemathesis sent
    # window_minutes=0 as valid data)
    bounds = (
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minLength",
        "maxLength",
        "maxItems",
    )
    fields = model.model_json_schema()["properties"]
    checked = 0
    for parameter in _document(make_settings)["paths"][path]["post"]["parameters"]:
        field = fields.get(renamed.get(parameter["name"], parameter["name"]))
        if field is None:
            continue
        stated = {k: v for k, v in parameter["schema"].items() if k in bounds}
        branches = field.get("anyOf", [field])
        wanted = {k: v for b in branches for k, v in b.items() if k in bounds}
        assert stated == wanted, parameter["name"]
        checked += 1
    assert checked >= 8


@pytest.mark.parametrize(
    ("query", "loc"),
    [
        ("window_minutes=0", ["query", "window_minutes"]),
        ("night_start_hour=24", ["query", "night_start_hour"]),
        ("name=", ["query", "name"]),
    ],
)
def test_an_option_outside_its_stated_bounds_is_422_at_the_query_field(
    client: TestClient, query: str, loc: list[str]
) -> None:
    response = client.post(f"/api/v1/import/host-stats?{query}", content=b"anything")

    assert error_locs(response) == [loc]


def test_a_trace_block_size_outside_the_stated_enum_is_422_at_block_kib(client: TestClient) -> None:
    enum = next(
        p["schema"]["enum"]
        for p in client.get("/openapi.json").json()["paths"]["/api/v1/traces"]["post"]["parameters"]
        if p["name"] == "block_kib"
    )
    response = client.post("/api/v1/traces?block_kib=12", content=b"0,R,0,4096\n")

    assert enum == [4, 8, 16, 32, 64, 128, 256, 512, 1024]
    assert error_locs(response) == [["query", "block_kib"]]


def test_each_rule_openapi_cannot_state_has_a_documented_422_example(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    for (method, path), examples in RULES_OPENAPI_CANNOT_STATE.items():
        documented = document["paths"][path][method]["responses"]["422"]["content"]["application/json"]
        assert documented["examples"] == examples, (method, path)
        assert documented["schema"] == {"$ref": "#/components/schemas/HTTPValidationError"}


def _documented(client: TestClient, method: str, path: str, name: str) -> dict[str, Any]:
    document = client.get("/openapi.json").json()
    example = document["paths"][path][method]["responses"]["422"]["content"]["application/json"]["examples"]
    return example[name]["value"]["detail"][0]


def test_the_documented_phase_mix_example_is_what_evaluate_answers(client: TestClient) -> None:
    mix = [{"size_kib": 4, "pct": 50}, {"size_kib": 64, "pct": 40}]  # 90 %
    bad = phase(io_size_kib=None, io_sizes=mix)
    response = client.post(
        "/api/v1/evaluate", json={"workloads": [workload(phases=[bad])], "configuration": FAS3270}
    )

    answered = response.json()["detail"]
    documented = _documented(client, "post", "/api/v1/evaluate", "phase-mix")
    assert response.status_code == 422
    assert [(e["loc"], e["msg"]) for e in answered] == [(documented["loc"], documented["msg"])]


def test_the_documented_seek_example_is_what_a_custom_drive_gets(client: TestClient) -> None:
    drive = {
        "name": "slow disk",
        "kind": "hdd",
        "capacity_gb": 4000,
        "rpm": 7200,
        "avg_read_seek_ms": 8.5,
        "avg_write_seek_ms": 9.5,
        "track_to_track_ms": 8.5,  # not below the average seek
        "media_rate_mb_s": 200,
    }
    response = client.post("/api/v1/hardware", json={"kind": "drive", "spec": drive})

    documented = _documented(client, "post", "/api/v1/hardware", "seek")
    assert response.status_code == 422
    assert [(e["loc"], e["msg"]) for e in response.json()["detail"]] == [
        (documented["loc"], documented["msg"])
    ]


def test_the_documented_target_example_is_what_building_blocks_answers(client: TestClient) -> None:
    block = {
        "name": "b",
        "rack_units": 2,
        "drives": 24,
        "drive_capacity_gb": 4000,
        "read_gb_s": 5,
        "write_gb_s": 3,
    }
    response = client.post("/api/v1/whatif/building-blocks", json={"target": {"iops": 0}, "block": block})

    documented = _documented(client, "post", "/api/v1/whatif/building-blocks", "no-target")
    assert response.status_code == 422
    assert [(e["loc"], e["msg"]) for e in response.json()["detail"]] == [
        (documented["loc"], documented["msg"])
    ]


@pytest.mark.parametrize("rack_units", [0.25, 5e-324])
def test_a_block_lower_than_half_a_rack_unit_is_422_at_rack_units(
    client: TestClient, rack_units: float
) -> None:
    # 5e-324 U made the blocks per rack infinite: an engine overflow answered as a refused request
    block = {
        "name": "b",
        "rack_units": rack_units,
        "drives": 24,
        "drive_capacity_gb": 4000,
        "read_gb_s": 5,
        "write_gb_s": 3,
    }
    response = client.post("/api/v1/whatif/building-blocks", json={"target": {"iops": 1000}, "block": block})

    assert error_locs(response) == [["body", "block", "rack_units"]]


# ---- rules between fields the schema states agree with the models that check them

HDD = {"rpm": 7200, "avg_read_seek_ms": 8.5, "avg_write_seek_ms": 9.5}
SSD = {"read_iops_4k": 1e5, "write_iops_4k": 5e4, "read_latency_us": 90, "write_latency_us": 30}


def _combinations(choices: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """Every combination of the choices; ``ABSENT`` leaves the field out."""
    out: list[dict[str, Any]] = [{}]
    for name, values in choices.items():
        out = [{**o, **({} if v is ABSENT else {name: v})} for o in out for v in values]
    return out


ABSENT = object()
CASES: list[tuple[type[BaseModel], dict[str, Any], dict[str, list[Any]]]] = [
    (
        Skew,
        {},
        {"zipf_alpha": [ABSENT, None, 0.8], "io_pct": [ABSENT, None, 80], "data_pct": [ABSENT, None, 20]},
    ),
    (
        Phase,
        {"name": "p", "window": "w", "read_pct": 70},
        {"io_sizes": [ABSENT, [], [{"size_kib": 4, "pct": 100}]], "io_size_kib": [ABSENT, None, 8]},
    ),
    (
        DriveSpec,
        {"id": "d", "name": "d", "capacity_gb": 4000, "media_rate_mb_s": 200},
        {"kind": ["hdd", "ssd"], "hdd": [ABSENT, HDD], "ssd": [ABSENT, SSD], "iops_rated_qd": [ABSENT, 32]},
    ),
]


@pytest.mark.parametrize(("model", "base", "choices"), CASES, ids=[c[0].__name__ for c in CASES])
def test_the_schema_accepts_exactly_what_the_model_accepts(
    model: type[BaseModel], base: dict[str, Any], choices: dict[str, list[Any]]
) -> None:
    validator = jsonschema_rs.Draft202012Validator(model.model_json_schema())
    verdicts = []
    for combination in _combinations(choices):
        value = {**base, **combination}
        value.update(value.pop("hdd", {}))
        value.update(value.pop("ssd", {}))
        try:
            model.model_validate(value)
            accepted = True
        except ValidationError:
            accepted = False
        assert validator.is_valid(value) == accepted, value
        verdicts.append(accepted)
    assert True in verdicts and False in verdicts  # both sides of each rule were tried


def test_building_blocks_takes_a_block_or_a_catalog_block_in_the_schema_as_in_the_model() -> None:
    block = {
        "name": "b",
        "rack_units": 2,
        "drives": 24,
        "drive_capacity_gb": 4000,
        "read_gb_s": 5,
        "write_gb_s": 3,
    }
    catalog = {"array_id": "netapp-fas3270"}
    validator = jsonschema_rs.Draft202012Validator(BuildingBlocksRequest.model_json_schema())
    expected = {(True, False): True, (False, True): True, (True, True): False, (False, False): False}
    for (has_block, has_catalog), accepted in expected.items():
        for absent_as in (ABSENT, None):
            body: dict[str, Any] = {"target": {"iops": 1000}}
            for name, given, value in (("block", has_block, block), ("catalog", has_catalog, catalog)):
                if given:
                    body[name] = value
                elif absent_as is None:
                    body[name] = None
            assert validator.is_valid(body) == accepted, body
