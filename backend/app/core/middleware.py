"""Pure ASGI middleware: request body size limit and security headers."""

from __future__ import annotations

from collections.abc import Mapping

from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# The API docs pages (their assets are local, but the pages start Swagger UI / ReDoc with inline scripts).
DOCS_PATHS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json"})

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"
)
API_HEADERS = {"X-Content-Type-Options": "nosniff"}
UI_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def is_api_path(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


class RequestBodyTooLarge(HTTPException):
    """Raised from ``receive`` once a streamed body passes the limit (handled as a 413 response)."""

    def __init__(self, limit: int) -> None:
        super().__init__(status_code=413, detail=f"request body larger than {limit} bytes")


class BodySizeLimitMiddleware:
    """413 for request bodies over ``max_body_bytes`` (or the limit ``path_limits`` gives the path).

    A declared ``Content-Length`` over the limit is refused before the app runs; a body without one
    (chunked) is counted as it is read and refused as soon as it passes the limit. ``path_limits``
    maps exact request paths to their own limit (e.g. trace uploads, gigabytes).
    """

    def __init__(
        self, app: ASGIApp, max_body_bytes: int, path_limits: Mapping[str, int] | None = None
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.path_limits = dict(path_limits or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.path_limits.get(scope["path"], self.max_body_bytes)
        declared = Headers(scope=scope).get("content-length")
        if declared is not None:
            if not declared.strip().isdigit():
                response = JSONResponse({"detail": "invalid Content-Length"}, status_code=400)
                await response(scope, receive, send)
                return
            if int(declared) > limit:
                await _too_large(limit, scope, receive, send)
                return

        received = 0
        response_started = False

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise RequestBodyTooLarge(limit)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal response_started
            if message["type"] == "http.response.start":
                response_started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except RequestBodyTooLarge:
            if response_started:
                raise
            await _too_large(limit, scope, receive, send)


async def _too_large(limit: int, scope: Scope, receive: Receive, send: Send) -> None:
    response = JSONResponse({"detail": RequestBodyTooLarge(limit).detail}, status_code=413)
    await response(scope, receive, send)


class SecurityHeadersMiddleware:
    """CSP, nosniff and no-referrer on UI responses; nosniff on API and docs responses."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        extra = API_HEADERS if is_api_path(path) or path in DOCS_PATHS else UI_HEADERS

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in extra.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)
