"""Serving the built single-page UI (``frontend/dist``) from the same origin as the API.

With a build: ``/assets/*`` are static files, files at the top of ``dist`` (favicon, robots.txt) are
served as they are, and every other GET path outside ``/api`` gets ``index.html`` so the client-side
router can handle it (``/``, ``/r/{id}``, ...). Without a build, ``/`` explains how to build the UI.

Caching and compression: ``/assets/*`` names carry a content hash (Vite), so they are sent with
``Cache-Control: public, max-age=31536000, immutable``; ``index.html`` and the top-level files with
``no-cache`` (revalidated on every load, so a new build is seen at once: a request with the ETag
or date it holds gets a 304 without a body). The build writes ``.br``
and ``.gz`` beside each text asset (``frontend/scripts/compress.mjs``); a request that accepts one
gets it (brotli first) with ``Content-Encoding`` and ``Vary: Accept-Encoding``, and nothing is
compressed per request.
"""

from __future__ import annotations

import mimetypes
import os
from pathlib import Path, PurePosixPath

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.convertors import PathConvertor, register_url_convertor
from starlette.datastructures import Headers
from starlette.types import Scope

from backend.app.core.encoding import accepted_encodings

IMMUTABLE = "public, max-age=31536000, immutable"
"""Cache-Control of content-hashed assets: never revalidated."""

REVALIDATE = "no-cache"
"""Cache-Control of ``index.html`` and unhashed files: stored, revalidated on every use."""

ENCODINGS = (("br", ".br"), ("gzip", ".gz"))
"""Precompressed variants the build writes beside a file, in order of preference."""

UI_NOT_BUILT_HTML = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Sizer: UI not built</title></head>
<body>
<h1>The web UI is not built</h1>
<p>Run <code>make run</code> to build the UI and serve it here.
The API is available under <a href="/api/v1/health">/api/v1</a> and documented at <a href="/docs">/docs</a>.</p>
</body>
</html>
"""


class UIPathConvertor(PathConvertor):
    """Any path except ``api`` and ``api/...``: unknown API paths stay 404 and wrong methods 405."""

    regex = "(?!api(?:/|$)).*"


register_url_convertor("ui_path", UIPathConvertor())


def encoded_variant(path: str, headers: Headers) -> tuple[str, str | None]:
    """The file to send for ``path``: its precompressed variant the client accepts (and the coding),
    else ``path`` itself (coding None)."""
    accepted = accepted_encodings(headers.get("accept-encoding", ""))
    for coding, suffix in ENCODINGS:
        if coding in accepted and os.path.isfile(path + suffix):
            return path + suffix, coding
    return path, None


def _has_variants(path: str) -> bool:
    return any(os.path.isfile(path + suffix) for _, suffix in ENCODINGS)


def _media_type(path: str) -> str:
    return mimetypes.guess_type(path)[0] or "application/octet-stream"


def send_file(path: str, headers: Headers, cache_control: str, status_code: int = 200) -> FileResponse:
    """``path`` (or its precompressed variant) with its media type, caching and encoding headers."""
    sent, coding = encoded_variant(path, headers)
    extra = {"Cache-Control": cache_control}
    if coding is not None:
        extra["Content-Encoding"] = coding
    if coding is not None or _has_variants(path):
        extra["Vary"] = "Accept-Encoding"
    return FileResponse(
        sent, status_code=status_code, media_type=_media_type(path), headers=extra, stat_result=os.stat(sent)
    )


class HashedAssets(StaticFiles):
    """``dist/assets``: immutable, and precompressed where the build wrote variants."""

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        headers = Headers(scope=scope)
        return conditional(send_file(os.fspath(full_path), headers, IMMUTABLE, status_code), headers)


_VALIDATOR = StaticFiles(directory=None, check_dir=False)
"""Starlette's conditional-request check (``If-None-Match``, ``If-Modified-Since``), used as it is."""


def conditional(response: Response, headers: Headers) -> Response:
    """``response``, or a 304 with its caching headers when the request's validator matches it
    (``index.html`` is revalidated on every load: a matching ETag costs a 304 of no body)."""
    if response.status_code == 200 and _VALIDATOR.is_not_modified(response.headers, headers):
        return Response(status_code=304, headers=_not_modified_headers(response))
    return response


def _not_modified_headers(response: Response) -> dict[str, str]:
    keep = ("cache-control", "content-encoding", "etag", "last-modified", "vary")
    return {k: v for k, v in response.headers.items() if k in keep}


def mount_ui(app: FastAPI, dist: Path) -> None:
    """Add the UI routes. They never match ``/api/...``, so API routes added later are not shadowed."""
    index = dist / "index.html"
    if not index.is_file():
        app.add_route("/", _ui_not_built, methods=["GET", "HEAD"], include_in_schema=False)
        return

    root = dist.resolve()
    if (root / "assets").is_dir():
        app.mount("/assets", HashedAssets(directory=root / "assets"), name="assets")

    async def spa(request: Request) -> Response:
        path = request.path_params["path"]
        if path:
            try:
                candidate = (root / path).resolve()
            except (OSError, ValueError):  # e.g. an encoded NUL byte: no such file, no such route
                raise HTTPException(status_code=404) from None
            if candidate.is_relative_to(root) and candidate.is_file():
                return conditional(send_file(str(candidate), request.headers, REVALIDATE), request.headers)
            if "." in PurePosixPath(path).name:
                raise HTTPException(status_code=404)  # a missing file, not a client-side route
        return conditional(send_file(str(index), request.headers, REVALIDATE), request.headers)

    app.add_route("/{path:ui_path}", spa, methods=["GET", "HEAD"], include_in_schema=False)


async def _ui_not_built(request: Request) -> Response:
    return HTMLResponse(UI_NOT_BUILT_HTML)
