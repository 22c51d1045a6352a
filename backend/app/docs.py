"""API documentation pages served with their own assets: ``/docs`` (Swagger UI) and ``/redoc`` (ReDoc).

FastAPI's default pages load Swagger UI and ReDoc from a CDN, which leaves a blank page without
internet. The assets come from the pinned ``fastapi-offline`` package (Swagger UI's and ReDoc's
distribution files) and are served under ``/docs-assets``.

Each page has its own Content-Security-Policy (:func:`docs_policy`): scripts from this app plus
the page's one inline start-up script, named by its SHA-256 (no ``'unsafe-inline'`` script),
data and fetches from this app only, workers from ``blob:`` (ReDoc's search), and
``frame-ancestors 'none'`` with ``X-Frame-Options: DENY``: no other site can frame the docs.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles

ASSETS_URL = "/docs-assets"
ASSETS_DIR = Path(fastapi_offline.__file__).parent / "static"

REDOC_OPTIONS = 'generated-payload-samples-max-depth="2"'
"""ReDoc's options (attributes of its element): payload samples two levels deep (the schema beside
each shows every level). ReDoc builds every sample when the page loads; at its default depth of
10 the samples of the engine's nested results cost a fifth of the page's main-thread time."""


_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)


def docs_policy(html: str) -> str:
    """The Content-Security-Policy of a docs page: its inline scripts allowed by hash, nothing else
    inline, every other source this app (ReDoc's footer logo from its vendor's CDN is not loaded)."""
    sources = ["'self'"] + [
        "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"
        for script in _INLINE_SCRIPT.findall(html)
    ]
    return (
        f"default-src 'self'; script-src {' '.join(sources)}; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data: blob:; worker-src 'self' blob:; connect-src 'self'; font-src 'self' data:; "
        "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )


def docs_page(html: str) -> HTMLResponse:
    """A docs page with its own policy, and no framing by any other site."""
    return HTMLResponse(
        html, headers={"Content-Security-Policy": docs_policy(html), "X-Frame-Options": "DENY"}
    )


def mount_docs(app: FastAPI, openapi_url: str, health_url: str) -> None:
    """``/docs``, ``/docs/oauth2-redirect`` and ``/redoc`` with local assets; ``/health`` points at ``health_url``."""
    app.mount(ASSETS_URL, StaticFiles(directory=ASSETS_DIR), name="docs-assets")
    title = app.title

    async def swagger(request: Request) -> HTMLResponse:
        page = get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{title}: API",
            swagger_js_url=f"{ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS_URL}/favicon.png",
            oauth2_redirect_url="/docs/oauth2-redirect",
        )
        return docs_page(bytes(page.body).decode())

    async def oauth2_redirect(request: Request) -> HTMLResponse:
        return docs_page(bytes(get_swagger_ui_oauth2_redirect_html().body).decode())

    async def redoc(request: Request) -> HTMLResponse:
        page = get_redoc_html(
            openapi_url=openapi_url,
            title=f"{title}: API reference",
            redoc_js_url=f"{ASSETS_URL}/redoc.standalone.js",
            redoc_favicon_url=f"{ASSETS_URL}/favicon.png",
            with_google_fonts=False,
        )
        html = bytes(page.body).decode().replace("<redoc ", f"<redoc {REDOC_OPTIONS} ", 1)
        return docs_page(html)

    async def health(request: Request) -> RedirectResponse:
        return RedirectResponse(health_url, status_code=307)

    app.add_route("/docs", swagger, methods=["GET", "HEAD"], include_in_schema=False)
    app.add_route("/docs/oauth2-redirect", oauth2_redirect, methods=["GET", "HEAD"], include_in_schema=False)
    app.add_route("/redoc", redoc, methods=["GET", "HEAD"], include_in_schema=False)
    app.add_route("/health", health, methods=["GET", "HEAD"], include_in_schema=False)
