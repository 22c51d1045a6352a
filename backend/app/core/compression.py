"""gzip for the API's answers: whole bodies compressed in one call, streams left as they are.

Starlette's ``GZipMiddleware`` compresses through a ``GzipFile`` per response and a responder
object per request: for a 51 kB evaluation answer it cost 0.56 ms of server CPU, of which zlib's
own work (level 1) is 0.2 ms (bench/asgi_overhead.py, engine free, with and without gzip). The
API's answers are one body message each: :class:`CompressedAnswers` compresses such a body with
one ``zlib.compress`` call. A response sent in several messages (a stream, a file) is passed on
untouched, never buffered, so a streamed answer reaches its client as it is written.

Only answers of at least :data:`GZIP_MINIMUM_BYTES` with a compressible media type and no
``Content-Encoding`` of their own (the catalog's answers are gzipped once, ``core.encoding``) are
compressed; every such answer says ``Vary: Accept-Encoding``, compressed or not.
"""

from __future__ import annotations

import zlib

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from backend.app.core.encoding import accepted_encodings

GZIP_MINIMUM_BYTES = 1400
"""Answers at least one Ethernet frame long are gzipped for clients that accept it."""

GZIP_LEVEL = 1
"""zlib level 1: a 51 kB evaluation to 11.4 kB in 0.2 ms; JSON gains little from higher levels
(level 9: about a quarter smaller again, for four times the CPU)."""

GZIP_WBITS = 31
"""zlib window bits 16 + 15: the gzip container (header and CRC), as ``Content-Encoding: gzip`` wants."""

COMPRESSIBLE = ("application/json", "application/problem+json", "text/", "application/javascript")


def _compressible(headers: MutableHeaders) -> bool:
    media = headers.get("content-type", "")
    return "content-encoding" not in headers and media.startswith(COMPRESSIBLE)


class CompressedAnswers:
    """gzip (:data:`GZIP_LEVEL`) of whole answers under ``prefixes`` for clients that accept it."""

    def __init__(
        self, app: ASGIApp, prefixes: tuple[str, ...], minimum_bytes: int = GZIP_MINIMUM_BYTES
    ) -> None:
        self.app = app
        self.prefixes = prefixes
        self.minimum_bytes = minimum_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(self.prefixes):
            await self.app(scope, receive, send)
            return
        gzip_accepted = "gzip" in accepted_encodings(Headers(scope=scope).get("accept-encoding", ""))
        start: Message | None = None
        passing = False  # a stream, or a start already sent: messages go on as they come

        async def compressing_send(message: Message) -> None:
            nonlocal start, passing
            if passing:
                await send(message)
                return
            if message["type"] == "http.response.start":
                start = message
                return
            if message["type"] != "http.response.body" or start is None:
                await send(message)
                return
            passing = True
            body: bytes = message.get("body", b"")
            headers = MutableHeaders(scope=start)
            if (
                message.get("more_body", False)
                or len(body) < self.minimum_bytes
                or not _compressible(headers)
            ):
                await send(start)
                await send(message)
                return
            headers.add_vary_header("Accept-Encoding")
            if gzip_accepted:
                body = zlib.compress(body, GZIP_LEVEL, GZIP_WBITS)
                headers["Content-Encoding"] = "gzip"
                headers["Content-Length"] = str(len(body))
            await send(start)
            await send({"type": "http.response.body", "body": body, "more_body": False})

        await self.app(scope, receive, compressing_send)
