"""The API keeps to its OpenAPI document and to HTTP: Allow lists every declared method, numbers
are numbers (no booleans), and no redirect is built from the Host header."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from backend.app.core.operations import OperationIndex
from backend.tests.conftest import FAS3270, error_locs, phase, workload


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
