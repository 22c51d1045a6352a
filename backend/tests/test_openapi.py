"""The OpenAPI document the UI's TypeScript client is generated from."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from fastapi import FastAPI
from fastapi.testclient import TestClient

from backend.app import main as main_module
from backend.app.core.config import Settings
from backend.app.main import create_app
from backend.app.openapi_dump import main as openapi_dump


def operation_ids(schema: dict) -> list[str]:
    return [op["operationId"] for path in schema["paths"].values() for op in path.values()]


def test_operation_ids_are_tag_dash_name(make_settings: Callable[..., Settings]) -> None:
    schema = TestClient(create_app(make_settings())).get("/openapi.json").json()

    assert schema["paths"]["/api/v1/health"]["get"]["operationId"] == "health-get"
    assert all("-" in op_id and " " not in op_id for op_id in operation_ids(schema))


def test_every_api_path_is_under_api_v1(make_settings: Callable[..., Settings]) -> None:
    schema = create_app(make_settings()).openapi()

    assert schema["paths"]
    assert all(path.startswith("/api/v1/") for path in schema["paths"])


def test_health_documents_both_the_200_and_the_503_body(make_settings: Callable[..., Settings]) -> None:
    responses = create_app(make_settings()).openapi()["paths"]["/api/v1/health"]["get"]["responses"]

    health_ref = {"$ref": "#/components/schemas/Health"}
    assert responses["200"]["content"]["application/json"]["schema"] == health_ref
    assert responses["503"]["content"]["application/json"]["schema"] == health_ref


def test_openapi_dump_writes_the_schema_with_sorted_keys(tmp_path: Path) -> None:
    out = tmp_path / "api" / "openapi.json"

    assert openapi_dump([str(out)]) == 0

    text = out.read_text()
    schema = json.loads(text)
    assert text == json.dumps(schema, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    assert "health-get" in operation_ids(schema)


def test_openapi_dump_without_an_output_path_is_a_usage_error() -> None:
    assert openapi_dump([]) == 2


def _generated_anew(app: FastAPI) -> dict:
    """``app``'s document generated for it alone (nothing shared from other apps)."""
    saved = dict(main_module._OPENAPI_DOCUMENTS)
    main_module._OPENAPI_DOCUMENTS.clear()
    try:
        return app.openapi()
    finally:
        main_module._OPENAPI_DOCUMENTS.clear()
        main_module._OPENAPI_DOCUMENTS.update(saved)


def test_the_document_generated_once_per_process_is_the_one_each_app_would_generate(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text("<!doctype html><title>Sizer</title>")
    first = create_app(make_settings()).openapi()
    other_settings = create_app(make_settings(cors_origins=["http://example.test"], frontend_dist=dist))
    shared = other_settings.openapi()
    generated = _generated_anew(create_app(make_settings(rate_limits_enabled=False)))

    assert shared == generated
    assert first == generated
    # the body limit is stated in the document: a different limit is a different document
    smaller = create_app(make_settings(max_body_bytes=4096)).openapi()
    assert smaller == _generated_anew(create_app(make_settings(max_body_bytes=4096)))
    assert smaller != generated
    # each app has its own copy
    first["info"]["title"] = "changed by one app"
    assert other_settings.openapi()["info"]["title"] == "Sizer"
    assert create_app(make_settings()).openapi()["info"]["title"] == "Sizer"
