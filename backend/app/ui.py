"""Serving the built single-page UI (``frontend/dist``) from the same origin as the API.

With a build: ``/assets/*`` are static files, files at the top of ``dist`` (favicon, robots.txt) are
served as they are, and every other GET path outside ``/api`` gets ``index.html`` so the client-side
router can handle it (``/``, ``/r/{id}``, ...). Without a build, ``/`` explains how to build the UI.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.convertors import PathConvertor, register_url_convertor

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


def mount_ui(app: FastAPI, dist: Path) -> None:
    """Add the UI routes. They never match ``/api/...``, so API routes added later are not shadowed."""
    index = dist / "index.html"
    if not index.is_file():
        app.add_route("/", _ui_not_built, methods=["GET", "HEAD"], include_in_schema=False)
        return

    root = dist.resolve()
    if (root / "assets").is_dir():
        app.mount("/assets", StaticFiles(directory=root / "assets"), name="assets")

    async def spa(request: Request) -> Response:
        path = request.path_params["path"]
        if path:
            try:
                candidate = (root / path).resolve()
            except (OSError, ValueError):  # e.g. an encoded NUL byte: no such file, no such route
                raise HTTPException(status_code=404) from None
            if candidate.is_relative_to(root) and candidate.is_file():
                return FileResponse(candidate)
            if "." in PurePosixPath(path).name:
                raise HTTPException(status_code=404)  # a missing file, not a client-side route
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    app.add_route("/{path:ui_path}", spa, methods=["GET", "HEAD"], include_in_schema=False)


async def _ui_not_built(request: Request) -> Response:
    return HTMLResponse(UI_NOT_BUILT_HTML)
