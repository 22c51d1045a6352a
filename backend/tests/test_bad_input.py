"""Bad input never gets a 5xx: values JSON or the database cannot carry are 422 at the field.

The catalogue: ``NaN``, ``Infinity``, ``-Infinity``, ``1e309`` (overflows a double), a lone UTF-16
surrogate and a NUL character, sent at a real field of every JSON operation, and numbers that
overflow inside the engine. Every answer is a 422 whose ``loc`` is the JSON path of the value.
"""

from __future__ import annotations

import http.client
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import uvicorn
from fastapi import APIRouter
from fastapi.testclient import TestClient

from backend.app.core.config import Settings
from backend.app.core.errors import json_safe, most_extreme_number
from backend.app.core.strict_json import body_problem, too_deep
from backend.app.main import create_app
from backend.tests.conftest import FAS3270, migrate, phase, workload
from backend.tests.tcp_proxy import free_port

# Raw JSON tokens (not Python values): what a client can put in a body.
BAD_NUMBERS = ["NaN", "Infinity", "-Infinity", "1e309", "-1e309"]
BAD_STRINGS = ['"\\ud800"', '"day\\udfff"', '"a\\u0000b"']
PLACEHOLDER = 987654.5

JSON_OPERATIONS = [
    ("POST", "/api/v1/evaluate"),
    ("POST", "/api/v1/size"),
    ("POST", "/api/v1/compare"),
    ("POST", "/api/v1/curves"),
    ("POST", "/api/v1/hardware"),
    ("PUT", "/api/v1/hardware/no-such-record"),
    ("POST", "/api/v1/import/iometer"),
    ("POST", "/api/v1/import/fio"),
    ("POST", "/api/v1/reports"),
    ("POST", "/api/v1/recommend"),
    ("POST", "/api/v1/whatif/growth"),
    ("POST", "/api/v1/whatif/sensitivity"),
    ("POST", "/api/v1/whatif/max-workload"),
    ("POST", "/api/v1/whatif/ranges"),
    ("POST", "/api/v1/whatif/degraded"),
    ("POST", "/api/v1/whatif/raid-conversion"),
    ("POST", "/api/v1/whatif/building-blocks"),
]


def body_with(token: str, where: str) -> tuple[str, list[str | int]]:
    """A body whose field at ``where`` holds the raw JSON ``token``; and that field's loc."""
    document: dict[str, Any] = {
        "workloads": [workload(phases=[phase(iops=PLACEHOLDER, name="PLACEHOLDER-NAME")])],
        "configuration": FAS3270,
        "name": "PLACEHOLDER-NAME",
    }
    text = json.dumps(document)
    if where == "number":
        return text.replace(str(PLACEHOLDER), token), ["body", "workloads", 0, "phases", 0, "iops"]
    first = text.index('"PLACEHOLDER-NAME"')
    return text[:first] + token + text[first + len('"PLACEHOLDER-NAME"') :], [
        "body",
        "workloads",
        0,
        "phases",
        0,
        "name",
    ]


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app on one SQLite file for the whole catalogue: these bodies are refused while parsing,
    before any database is asked (the tests that store text run on both databases)."""
    folder = tmp_path_factory.mktemp("bad-input")
    url = f"sqlite:///{folder / 'sizer.db'}"
    migrate(url)
    settings = Settings(database_url=url, frontend_dist=folder / "no-dist", traces_dir=folder / "traces")
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        yield client


@pytest.mark.parametrize(("method", "path"), JSON_OPERATIONS)
@pytest.mark.parametrize(
    ("token", "where"),
    [(t, "number") for t in BAD_NUMBERS] + [(t, "string") for t in BAD_STRINGS],
)
def test_a_value_json_cannot_carry_is_422_at_its_field_on_every_json_operation(
    api: TestClient, method: str, path: str, token: str, where: str
) -> None:
    content, loc = body_with(token, where)

    response = api.request(method, path, content=content, headers={"Content-Type": "application/json"})

    assert response.status_code == 422, response.text
    (error,) = response.json()["detail"]
    assert error["loc"] == loc
    assert error["type"] in ("finite_number", "string_unicode", "string_nul")


def test_a_nul_in_a_key_is_422_at_the_key(client: TestClient) -> None:
    controller = {"model": "Turbo", "count": 2, "cores": 16, "dram_cache_gb": 64}
    keyed = client.post("/api/v1/hardware", json={"kind": "controller", "spec": {**controller, "a\x00": 1}})

    assert keyed.json()["detail"][0]["loc"] == ["body", "spec", "a\x00"]


def test_a_workload_that_overflows_inside_the_engine_is_422_at_the_overflowing_field(
    client: TestClient,
) -> None:
    body = {
        "workloads": [workload(phases=[phase(iops=1e308)])],
        "configuration": {**FAS3270, "drive_count": 48},
    }

    evaluated = client.post("/api/v1/evaluate", json=body)
    saved = client.post("/api/v1/reports", json={"name": "r", "kind": "evaluate", "inputs": body})

    assert evaluated.status_code == saved.status_code == 422
    assert evaluated.json()["detail"][0]["loc"] == ["body", "workloads", 0, "phases", 0, "iops"]
    assert saved.json()["detail"][0]["loc"] == ["body", "inputs", "workloads", 0, "phases", 0, "iops"]
    assert evaluated.json()["detail"][0]["type"] == "engine_error"


def test_a_validation_error_never_echoes_an_input_json_cannot_carry() -> None:
    # pydantic echoes the offending input; NaN or a lone surrogate there made the 422 itself fail
    assert json_safe({"input": float("nan"), "x": [float("-inf")], "s": "\ud800"}) == {
        "input": "NaN",
        "x": ["-Infinity"],
        "s": "\\ud800",
    }


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b'{"a": [1, {"b": NaN}]}', (("a", 1, "b"), "finite_number")),
        (b'{"a": 1e400}', (("a",), "finite_number")),
        (b'{"k\\ud800": 1}', (("k\\ud800",), "string_unicode")),
        (b'{"a": "\\u0000"}', (("a",), "string_nul")),
        (b'{"a": "\\\\u0000"}', None),  # an escaped backslash then "u0000": six ordinary characters
        (b'{"a": 1', None),  # not JSON at all: left to the application's own 422
        (b"\xff\xfe", None),  # not UTF-8: left to the application's own 400
    ],
)
def test_body_problem_names_the_first_refused_value(body: bytes, expected: Any) -> None:
    problem = body_problem(body)

    assert (problem[0], problem[1]) == expected if problem else expected is None


def test_the_most_extreme_number_is_the_one_farthest_from_one_in_decades() -> None:
    document = {"iops": 5000, "tiny": 1e-12, "w": [{"huge": 1e300}], "flag": True}

    assert most_extreme_number(document) == ("w", 0, "huge")  # 300 decades beats 12
    assert most_extreme_number({"iops": 5000, "size": 8}) is None  # nothing beyond 1e9


@pytest.fixture
def live_server(tmp_path: Any, make_settings: Callable[..., Settings]) -> Iterator[int]:
    """The app under a real uvicorn (keep-alive connections), on a SQLite file."""
    url = f"sqlite:///{tmp_path / 'live.db'}"
    migrate(url)
    app = create_app(make_settings(database_url=url))
    bug = APIRouter(prefix="/api/v1/probe", tags=["probe"])

    @bug.get("/bug")
    def raise_a_bug() -> None:
        raise RuntimeError("a bug")

    app.include_router(bug)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="critical"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield port
    server.should_exit = True
    thread.join(10)


def test_the_connection_stays_open_after_a_bad_body_and_a_server_error(live_server: int) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", live_server, timeout=10)
    headers = {"Content-Type": "application/json"}
    answers = []
    for method, path, body in [
        ("POST", "/api/v1/evaluate", '{"workloads": NaN}'),
        ("POST", "/api/v1/evaluate", '{"name": "\\ud800"}'),
        ("GET", "/api/v1/probe/bug", None),
    ]:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        answers.append((response.status, response.getheader("connection")))
        response.read()
    connection.request("GET", "/api/v1/health")  # the same connection, reused
    health = connection.getresponse()

    assert answers == [(422, None), (422, None), (500, None)]  # no "Connection: close"
    assert health.status == 200
    connection.close()


# ---- nesting depth and media type, on every JSON operation of the OpenAPI document ----------------


def json_operations(client: TestClient, only: bool = False) -> list[tuple[str, str]]:
    """(method, path with placeholder ids) of every operation taking a JSON body (JSON only)."""
    found = []
    for template, operations in client.get("/openapi.json").json()["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" in content and (not only or set(content) == {"application/json"}):
                found.append((method.upper(), template.replace("{", "").replace("}", "")))
    return found


NESTED_962_BYTES = b"[" * 481 + b"]" * 481


def test_a_deeply_nested_body_is_422_naming_the_depth_on_every_json_operation(api: TestClient) -> None:
    operations = json_operations(api)
    objects = (b'{"a":' * 33 + b"1" + b"}" * 33, b'{"workloads":' + b"[" * 40 + b"]" * 40 + b"}")
    answers = {
        (method, path, body[:12]): api.request(
            method, path, content=body, headers={"Content-Type": "application/json"}
        )
        for method, path in operations
        for body in (NESTED_962_BYTES, *objects)
    }

    assert len(NESTED_962_BYTES) == 962 and len(operations) >= 20
    assert {k: r.status_code for k, r in answers.items() if r.status_code != 422} == {}
    errors = [r.json()["detail"] for r in answers.values()]
    assert all(
        e == [{"loc": ["body"], "msg": DEPTH_MSG, "type": "json_depth", "ctx": {"max_depth": 32}}]
        for e in errors
    )


DEPTH_MSG = "JSON nested deeper than 32 arrays and objects"


def test_a_json_body_sent_as_anything_but_json_is_415_on_every_json_only_operation(api: TestClient) -> None:
    operations = json_operations(api, only=True)
    body = json.dumps({"workloads": [workload()], "configuration": FAS3270})
    answers = {
        (method, path, str(kind)): api.request(method, path, content=body, headers=headers)
        for method, path in operations
        for kind, headers in (("text/plain", {"Content-Type": "text/plain"}), ("none", {}))
    }

    assert len(operations) >= 15
    assert {k: r.status_code for k, r in answers.items() if r.status_code != 415} == {}
    plain = answers[("POST", "/api/v1/evaluate", "text/plain")].json()["detail"]
    assert (
        plain
        == "this operation takes a JSON body sent with Content-Type: application/json, not Content-Type 'text/plain'"
    )


@pytest.mark.parametrize(
    ("body", "deeper"),
    [
        (b'{"a": [1, 2, {"b": []}]}', False),
        (b'{"a": "' + b"[" * 40 + b'"}', False),  # brackets in a string
        (b'{"a\\"' + b"[" * 40 + b'": "\\\\"}', False),  # an escaped quote, an escaped backslash
        (b"[" * 32 + b"]" * 32, False),
        (b"[" * 33 + b"]" * 33, True),
        (b"[{" * 20 + b"}]" * 20, True),
        (b"[" * 100, True),  # not even JSON: still refused, before any parse
    ],
)
def test_too_deep_counts_brackets_outside_strings(body: bytes, deeper: bool) -> None:
    assert too_deep(body, 32) is deeper


# ---- the hostile catalogue: hand-made bad requests over every operation, none a 5xx -----------------

BAD_BODIES: list[tuple[str, bytes, str]] = [
    ("a JSON string", b'"x"', "application/json"),
    ("a JSON number", b"1", "application/json"),
    ("null", b"null", "application/json"),
    ("an empty array", b"[]", "application/json"),
    ("an empty object", b"{}", "application/json"),
    ("truncated JSON", b'{"workloads": [', "application/json"),
    ("bytes that are not UTF-8", b"\xff\xfe\x00{", "application/json"),
    ("a 962-byte nested body", NESTED_962_BYTES, "application/json"),
    ("JSON as text/plain", b"{}", "text/plain"),
    ("a form", b"a=1&b=2", "application/x-www-form-urlencoded"),
    ("a multipart body without its file", b"--x\r\n\r\n--x--\r\n", "multipart/form-data; boundary=x"),
    ("garbage bytes", bytes(range(256)) * 4, "application/octet-stream"),
]
BAD_IDS = ["x" * 300, "%00", "..%2F..%2Fetc%2Fpasswd", "'; DROP TABLE reports; --", "%F0%9F%92%A9"]
BAD_QUERY_VALUES = ["", "NaN", "-1", "1e309", "%00", "x" * 3000, "true"]


def hostile_requests(client: TestClient) -> list[tuple[str, str, dict[str, Any]]]:
    """(method, URL, request options) of every hand-made bad request over every operation."""
    requests: list[tuple[str, str, dict[str, Any]]] = []
    for template, operations in client.get("/openapi.json").json()["paths"].items():
        for method, operation in operations.items():
            method = method.upper()
            plain = re.sub(r"\{[^}]+\}", "no-such-id", template)
            for bad_id in BAD_IDS if "{" in template else []:
                requests.append((method, re.sub(r"\{[^}]+\}", bad_id, template), {}))
            if "requestBody" in operation:
                for _, body, media in BAD_BODIES:
                    requests.append((method, plain, {"content": body, "headers": {"Content-Type": media}}))
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "query":
                    for value in BAD_QUERY_VALUES:
                        requests.append((method, plain, {"params": {parameter["name"]: value}}))
    return requests


def test_no_hand_made_bad_request_on_any_operation_gets_a_5xx(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    folder = tmp_path_factory.mktemp("hostile")
    url = f"sqlite:///{folder / 'sizer.db'}"
    migrate(url)
    settings = Settings(
        database_url=url,
        frontend_dist=folder / "no-dist",
        traces_dir=folder / "traces",
        rate_limits_enabled=False,
    )
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        requests = hostile_requests(client)
        answers = [
            (method, target, client.request(method, target, **options).status_code)
            for method, target, options in requests
        ]

    assert len(requests) >= 500
    assert [a for a in answers if a[2] >= 500] == []
