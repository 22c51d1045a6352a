"""Serving the built UI beside the API, and the headers every response carries."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from backend.app.core.compression import GZIP_MINIMUM_BYTES
from backend.app.core.config import Settings
from backend.app.core.encoding import accepted_encodings
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
    assert headers.get("content-security-policy") != CONTENT_SECURITY_POLICY


@pytest.mark.parametrize("page", ["/docs", "/redoc", "/docs/oauth2-redirect"])
def test_the_api_docs_cannot_be_framed_and_run_only_their_own_scripts(
    ui_client: TestClient, page: str
) -> None:
    response = ui_client.get(page)
    policy = dict(
        part.strip().split(" ", 1) for part in response.headers["content-security-policy"].split(";")
    )
    inline = re.findall(r"<script>(.*?)</script>", response.text, re.DOTALL)

    assert policy["frame-ancestors"] == "'none'" and response.headers["x-frame-options"] == "DENY"
    assert "unsafe-inline" not in policy["script-src"] and "unsafe-eval" not in policy["script-src"]
    assert policy["script-src"].split() == [
        "'self'",
        *("'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'" for s in inline),
    ]
    assert len(inline) == (0 if page == "/redoc" else 1)  # Swagger UI's start-up script; ReDoc has none
    assert policy["default-src"] == policy["connect-src"] == "'self'"


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


# ---- caching and compression ----------------------------------------------------------------------

ASSET_JS = "console.log('sizer');\n" * 200  # 4.4 kB of script, as the build leaves it


@pytest.fixture
def compressed_dist(dist: Path) -> Path:
    """The build with the variants frontend/scripts/compress.mjs writes: .br and .gz beside the asset."""
    asset = dist / "assets" / "app-1a2b.js"
    asset.write_text(ASSET_JS)
    (dist / "assets" / "app-1a2b.js.gz").write_bytes(gzip.compress(ASSET_JS.encode()))
    (dist / "assets" / "app-1a2b.js.br").write_bytes(b"BROTLI-BYTES")  # served as stored, never decoded
    return dist


@pytest.fixture
def compressed_client(compressed_dist: Path, make_settings: Callable[..., Settings]) -> TestClient:
    return TestClient(create_app(make_settings(frontend_dist=compressed_dist)))


def test_hashed_assets_are_cached_for_a_year_as_immutable(ui_client: TestClient) -> None:
    response = ui_client.get("/assets/app-1a2b.js")

    assert response.headers["cache-control"] == "public, max-age=31536000, immutable"


@pytest.mark.parametrize("path", ["/", "/r/abc", "/favicon.svg"])
def test_index_and_unhashed_files_are_revalidated_on_every_use(ui_client: TestClient, path: str) -> None:
    assert ui_client.get(path).headers["cache-control"] == "no-cache"


def test_a_browser_accepting_brotli_gets_the_brotli_variant_as_stored(compressed_client: TestClient) -> None:
    response = compressed_client.get("/assets/app-1a2b.js", headers={"Accept-Encoding": "gzip, deflate, br"})

    assert response.headers["content-encoding"] == "br"
    assert response.headers["vary"] == "Accept-Encoding"
    assert "javascript" in response.headers["content-type"]
    assert response.headers["content-length"] == str(len(b"BROTLI-BYTES"))


def test_a_client_accepting_only_gzip_gets_the_gzip_variant(compressed_client: TestClient) -> None:
    response = compressed_client.get("/assets/app-1a2b.js", headers={"Accept-Encoding": "gzip"})

    assert response.headers["content-encoding"] == "gzip"
    assert response.text == ASSET_JS  # httpx decodes it: the variant holds the same bytes
    assert int(response.headers["content-length"]) < len(ASSET_JS) / 10


def test_a_client_refusing_compression_gets_the_plain_file_with_vary(compressed_client: TestClient) -> None:
    response = compressed_client.get("/assets/app-1a2b.js", headers={"Accept-Encoding": "identity, br;q=0"})

    assert "content-encoding" not in response.headers
    assert response.text == ASSET_JS
    assert response.headers["vary"] == "Accept-Encoding"
    assert response.headers["cache-control"] == "public, max-age=31536000, immutable"


def test_a_revalidated_asset_is_304_with_its_caching_headers(compressed_client: TestClient) -> None:
    first = compressed_client.get("/assets/app-1a2b.js", headers={"Accept-Encoding": "gzip"})

    again = compressed_client.get(
        "/assets/app-1a2b.js", headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["etag"]}
    )

    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == first.headers["etag"]
    assert again.headers["cache-control"] == "public, max-age=31536000, immutable"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("gzip, deflate, br, zstd", {"gzip", "deflate", "br", "zstd"}),
        ("br;q=0, gzip;q=0.5", {"gzip"}),
        ("*", {"*", "br", "gzip"}),
        ("GZIP ; q=1.0", {"gzip"}),
        ("gzip;q=nonsense", set()),
        ("", set()),
    ],
)
def test_accept_encoding_is_read_with_its_quality_values(header: str, expected: set[str]) -> None:
    assert accepted_encodings(header) == expected


def test_large_api_answers_are_gzipped_for_clients_that_accept_it(ui_client: TestClient) -> None:
    compressed = ui_client.get("/api/v1/catalog/drives", headers={"Accept-Encoding": "gzip"})
    plain = ui_client.get("/api/v1/catalog/drives", headers={"Accept-Encoding": "identity"})

    assert len(plain.content) > GZIP_MINIMUM_BYTES
    assert compressed.headers["content-encoding"] == "gzip"
    assert int(compressed.headers["content-length"]) < len(plain.content) / 3
    assert "content-encoding" not in plain.headers
    assert json.loads(compressed.content) == plain.json()


def test_small_api_answers_are_sent_as_they_are(ui_client: TestClient) -> None:
    response = ui_client.get("/api/v1/health", headers={"Accept-Encoding": "gzip"})

    assert len(response.content) < GZIP_MINIMUM_BYTES
    assert "content-encoding" not in response.headers


@pytest.mark.parametrize("path", ["/", "/r/abc"])
def test_index_revalidated_with_its_etag_is_304_without_a_body(ui_client: TestClient, path: str) -> None:
    first = ui_client.get(path)

    again = ui_client.get(path, headers={"If-None-Match": first.headers["etag"]})

    assert first.status_code == 200 and first.content
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == first.headers["etag"]
    assert again.headers["cache-control"] == "no-cache"


def test_a_new_build_answers_the_old_etag_with_the_new_index(ui_client: TestClient, dist: Path) -> None:
    first = ui_client.get("/")
    (dist / "index.html").write_text("<!doctype html><title>the next build, a little longer</title>")

    again = ui_client.get("/", headers={"If-None-Match": first.headers["etag"]})

    assert again.status_code == 200
    assert "the next build" in again.text
    assert again.headers["etag"] != first.headers["etag"]
