"""gzip of the API's answers (backend/app/core/compression.py)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

from fastapi.testclient import TestClient
from starlette.applications import Starlette
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from backend.app.core.compression import GZIP_MINIMUM_BYTES, CompressedAnswers
from backend.tests.conftest import FAS3270, phase, workload

BIG = {"figures": [{"value": i * 1.5, "unit": "IOPS", "formula": "BE = R x (1 - hit)"} for i in range(200)]}


async def _big(_request: object) -> Response:
    return JSONResponse(BIG)


async def _small(_request: object) -> Response:
    return JSONResponse({"status": "ok"})


async def _pdf(_request: object) -> Response:
    return Response(b"%PDF-" + b"x" * 5000, media_type="application/pdf")


async def _stream(_request: object) -> Response:
    async def lines() -> AsyncIterator[bytes]:
        for i in range(3):
            yield json.dumps({"line": i, "pad": "y" * 1000}).encode() + b"\n"

    return StreamingResponse(lines(), media_type="application/json")


def _client() -> TestClient:
    routes = [Route(f"/api/{f.__name__[1:]}", f) for f in (_big, _small, _pdf, _stream)]
    return TestClient(CompressedAnswers(Starlette(routes=routes), prefixes=("/api/",)))


def test_a_whole_json_answer_is_gzipped_for_a_client_that_accepts_it() -> None:
    response = _client().get("/api/big", headers={"Accept-Encoding": "gzip, br"})

    assert response.headers["content-encoding"] == "gzip"
    assert response.headers["vary"] == "Accept-Encoding"
    assert int(response.headers["content-length"]) < len(json.dumps(BIG)) / 4
    assert response.json() == BIG  # httpx decodes it


def test_a_client_that_refuses_gzip_gets_the_json_as_it_is_with_vary() -> None:
    response = _client().get("/api/big", headers={"Accept-Encoding": "identity"})

    assert "content-encoding" not in response.headers
    assert response.headers["vary"] == "Accept-Encoding"
    assert response.json() == BIG


def test_small_answers_and_other_media_are_sent_as_they_are() -> None:
    client = _client()
    small = client.get("/api/small", headers={"Accept-Encoding": "gzip"})
    pdf = client.get("/api/pdf", headers={"Accept-Encoding": "gzip"})

    assert len(small.content) < GZIP_MINIMUM_BYTES and "content-encoding" not in small.headers
    assert "content-encoding" not in pdf.headers and pdf.content.startswith(b"%PDF-")


def test_a_streamed_answer_is_passed_on_as_written_never_buffered_or_compressed() -> None:
    with _client().stream("GET", "/api/stream", headers={"Accept-Encoding": "gzip"}) as response:
        chunks = list(response.iter_raw())

    assert "content-encoding" not in response.headers
    assert len(chunks) >= 1
    assert [json.loads(line)["line"] for line in b"".join(chunks).splitlines()] == [0, 1, 2]


def test_an_evaluation_is_gzipped_and_decodes_to_the_plain_answer(client: TestClient) -> None:
    body = {"workloads": [workload(phases=[phase()])], "configuration": FAS3270}
    compressed = client.post("/api/v1/evaluate", json=body, headers={"Accept-Encoding": "gzip"})
    plain = client.post("/api/v1/evaluate", json=body, headers={"Accept-Encoding": "identity"})

    assert compressed.headers["content-encoding"] == "gzip"
    assert int(compressed.headers["content-length"]) < len(plain.content) / 2
    assert compressed.json() == plain.json()
