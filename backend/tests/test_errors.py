"""Error responses: always JSON, never a traceback; oversized bodies refused before they are read."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from fastapi import APIRouter, FastAPI, Request
from fastapi.testclient import TestClient
from pydantic import BaseModel
from sqlalchemy.exc import InterfaceError, OperationalError

from backend.app.core.config import Settings
from backend.app.main import create_app
from backend.tests.conftest import serve

LIMIT = 1024 * 1024


class Sample(BaseModel):
    disks: int


def probe_router() -> APIRouter:
    """Routes that only exist in these tests, to reach each error path."""
    router = APIRouter(prefix="/api/v1/probe", tags=["probe"])

    @router.post("/echo-size")
    async def echo_size(request: Request) -> dict[str, int]:
        return {"received": len(await request.body())}

    @router.post("/validate")
    def validate(sample: Sample) -> Sample:
        return sample

    @router.get("/db-down")
    def db_down() -> None:
        raise OperationalError("SELECT 1", {}, Exception("connection refused"))

    @router.get("/db-gone")
    def db_gone() -> None:
        raise InterfaceError("SELECT 1", {}, Exception("connection already closed"))

    @router.get("/bug")
    def bug() -> None:
        raise RuntimeError("secret internal state /etc/passwd")

    return router


@pytest.fixture
def probe_client(make_settings: Callable[..., Settings]) -> Iterator[TestClient]:
    app: FastAPI = create_app(make_settings(max_body_bytes=LIMIT))
    app.include_router(probe_router())
    with serve(app) as client:
        yield client


def test_body_with_content_length_over_the_limit_is_413_json(probe_client: TestClient) -> None:
    response = probe_client.post("/api/v1/probe/echo-size", content=b"x" * (LIMIT + 1))

    assert response.status_code == 413
    assert response.headers["content-type"] == "application/json"
    assert "bytes" in response.json()["detail"]


def test_chunked_body_over_the_limit_is_413_json(probe_client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(5):
            yield b"x" * (LIMIT // 4)

    response = probe_client.post("/api/v1/probe/echo-size", content=chunks())

    assert response.request.headers.get("transfer-encoding") == "chunked"
    assert response.status_code == 413
    assert response.json()["detail"].startswith("request body larger than")


def test_body_of_exactly_the_limit_is_accepted(probe_client: TestClient) -> None:
    response = probe_client.post("/api/v1/probe/echo-size", content=b"x" * LIMIT)

    assert response.status_code == 200
    assert response.json() == {"received": LIMIT}


def test_oversized_body_is_refused_even_on_an_unknown_path(probe_client: TestClient) -> None:
    response = probe_client.post("/api/v1/nowhere", content=b"x" * (LIMIT + 1))

    assert response.status_code == 413


@pytest.mark.parametrize("method", ["GET", "POST", "DELETE"])
def test_unknown_api_path_is_json_404(probe_client: TestClient, method: str) -> None:
    response = probe_client.request(method, "/api/v1/no-such-thing")

    assert response.status_code == 404
    assert response.json() == {"detail": "Not Found"}


def test_validation_error_is_422_with_the_field_path(probe_client: TestClient) -> None:
    response = probe_client.post("/api/v1/probe/validate", json={"disks": "many"})

    assert response.status_code == 422
    (error,) = response.json()["detail"]
    assert error["loc"] == ["body", "disks"]


@pytest.mark.parametrize("path", ["/api/v1/probe/db-down", "/api/v1/probe/db-gone"])
def test_lost_database_connection_in_any_route_is_503_json(probe_client: TestClient, path: str) -> None:
    response = probe_client.get(path)

    assert response.status_code == 503
    assert response.json() == {"detail": "database unavailable"}


def test_unexpected_error_is_json_500_without_a_traceback(probe_client: TestClient) -> None:
    response = probe_client.get("/api/v1/probe/bug")

    assert response.status_code == 500
    assert response.json() == {"detail": "internal server error"}
    assert "Traceback" not in response.text
    assert "passwd" not in response.text
