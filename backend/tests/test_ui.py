"""Serving the built UI beside the API, and the headers every response carries."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from backend.app.core.config import Settings
from backend.app.core.middleware import CONTENT_SECURITY_POLICY
from backend.app.main import create_app

INDEX_HTML = '<!doctype html><html><body><div id="root"></div><script src="/assets/app-1a2b.js"></script></body></html>'


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    """A minimal Vite build: index.html, one hashed asset, one top-level public file."""
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text(INDEX_HTML)
    (dist / "assets" / "app-1a2b.js").write_text("console.log('sizer')")
    (dist / "favicon.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    (tmp_path / "secret.txt").write_text("outside dist")
    return dist


@pytest.fixture
def ui_client(dist: Path, make_settings: Callable[..., Settings]) -> TestClient:
    return TestClient(create_app(make_settings(frontend_dist=dist)))


@pytest.mark.parametrize("path", ["/", "/r/abc", "/r/Zm9vYmFy-_x", "/workloads/new"])
def test_spa_fallback_serves_index_html_for_client_side_routes(ui_client: TestClient, path: str) -> None:
    response = ui_client.get(path)

    assert response.status_code == 200
    assert response.text == INDEX_HTML
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["cache-control"] == "no-cache"


def test_assets_and_top_level_files_are_served_from_dist(ui_client: TestClient) -> None:
    asset = ui_client.get("/assets/app-1a2b.js")
    favicon = ui_client.get("/favicon.svg")

    assert asset.status_code == 200 and asset.text == "console.log('sizer')"
    assert "javascript" in asset.headers["content-type"]
    assert favicon.status_code == 200 and favicon.headers["content-type"].startswith("image/svg+xml")


@pytest.mark.parametrize(
    "path",
    [
        "/assets/missing-9f9f.js",
        "/missing.png",
        "/..%2Fsecret.txt",
        "/%00",  # regression: an encoded NUL byte made path resolution raise, a 500
        "/r/%00x",
    ],
)
def test_missing_or_outside_files_are_404_not_index_html(ui_client: TestClient, path: str) -> None:
    response = ui_client.get(path)

    assert response.status_code == 404
    assert "outside dist" not in response.text


def test_unknown_api_path_is_json_404_even_with_the_spa_fallback(ui_client: TestClient) -> None:
    response = ui_client.get("/api/v1/reports-typo")

    assert response.status_code == 404
    assert response.json() == {"detail": "Not Found"}


def test_wrong_method_on_an_api_route_is_405_not_404(ui_client: TestClient) -> None:
    assert ui_client.delete("/api/v1/health").status_code == 405


def test_root_explains_how_to_build_the_ui_when_dist_is_missing(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    client = TestClient(create_app(make_settings(frontend_dist=tmp_path / "nothing-here")))

    response = client.get("/")

    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "make run" in response.text


@pytest.mark.parametrize("path", ["/", "/r/abc"])
def test_ui_responses_carry_security_headers(ui_client: TestClient, path: str) -> None:
    headers = ui_client.get(path).headers

    assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "default-src 'self'" in headers["content-security-policy"]
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


def test_security_headers_are_present_when_the_ui_is_not_built(
    make_settings: Callable[..., Settings],
) -> None:
    headers = TestClient(create_app(make_settings())).get("/").headers

    assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


@pytest.mark.parametrize("path", ["/api/v1/health", "/api/v1/unknown", "/docs", "/openapi.json"])
def test_api_and_docs_responses_are_nosniff_without_the_ui_csp(ui_client: TestClient, path: str) -> None:
    headers = ui_client.get(path).headers

    assert headers["x-content-type-options"] == "nosniff"
    assert "content-security-policy" not in headers


def test_cors_is_off_when_no_origins_are_configured(make_settings: Callable[..., Settings]) -> None:
    client = TestClient(create_app(make_settings(cors_origins=[])))

    response = client.get("/api/v1/health", headers={"Origin": "https://elsewhere.example"})

    assert "access-control-allow-origin" not in response.headers


def test_cors_allows_only_the_configured_origins(make_settings: Callable[..., Settings]) -> None:
    client = TestClient(create_app(make_settings(cors_origins=["http://localhost:5173"])))

    preflight = client.options(
        "/api/v1/health",
        headers={"Origin": "http://localhost:5173", "Access-Control-Request-Method": "GET"},
    )
    foreign = client.get("/api/v1/health", headers={"Origin": "https://elsewhere.example"})

    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] == "http://localhost:5173"
    assert "access-control-allow-origin" not in foreign.headers


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_the_api_docs_load_their_assets_from_the_app_not_a_cdn(ui_client: TestClient, page: str) -> None:
    html = ui_client.get(page).text

    assert "cdn." not in html and "https://" not in html.split("<body>", 1)[-1]
    scripts = [part.split('"', 1)[0] for part in html.split('src="')[1:]]
    assert scripts, html
    for src in scripts:
        asset = ui_client.get(src)
        assert asset.status_code == 200, src
        assert len(asset.content) > 100_000  # the Swagger UI / ReDoc bundle itself


def test_health_at_the_root_points_at_the_api_health_not_the_ui(ui_client: TestClient) -> None:
    response = ui_client.get("/health")

    assert response.status_code == 200
    assert response.json()["status"] in ("ok", "degraded")
    assert response.history[0].status_code == 307
