"""Content codings: what a client accepts, and JSON answers kept encoded (ETag, gzip) once.

:class:`FixedAnswer` is for answers that change only when the data behind them does (the catalog):
serialized and gzipped at level 9 once, then sent as stored, and revalidated by ``ETag`` (``304``
without a body when the client holds the same bytes), so a page load neither re-serializes nor
re-compresses them.
"""

from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass

from fastapi.responses import Response
from starlette.datastructures import Headers

KNOWN_CODINGS = ("br", "gzip")
"""Codings ``*`` stands for: the ones this server ever sends."""


def accepted_encodings(accept_encoding: str) -> set[str]:
    """Content codings an ``Accept-Encoding`` header accepts (``q=0`` refuses; ``*`` accepts all)."""
    accepted: set[str] = set()
    for part in accept_encoding.lower().split(","):
        coding, *params = (p.strip() for p in part.split(";"))
        q = 1.0
        for param in params:
            if param.startswith("q="):
                try:
                    q = float(param[2:])
                except ValueError:
                    q = 0.0
        if coding and q > 0.0:
            accepted.add(coding)
    if "*" in accepted:
        accepted.update(KNOWN_CODINGS)
    return accepted


def _etag_matches(headers: Headers, etag: str) -> bool:
    tags = {t.strip().removeprefix("W/") for t in headers.get("if-none-match", "").split(",")}
    return etag in tags or "*" in tags


@dataclass(frozen=True)
class FixedAnswer:
    """A JSON answer serialized and gzipped once; revalidated by its ETag."""

    body: bytes
    gzipped: bytes
    etag: str

    @classmethod
    def of(cls, body: bytes) -> FixedAnswer:
        digest = hashlib.blake2b(body, digest_size=12).hexdigest()
        return cls(body=body, gzipped=gzip.compress(body, compresslevel=9, mtime=0), etag=f'"{digest}"')

    def response(self, headers: Headers) -> Response:
        """``304`` when the client holds these bytes, else the body (gzipped when accepted)."""
        common = {"ETag": self.etag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
        if _etag_matches(headers, self.etag):
            return Response(status_code=304, headers=common)
        if "gzip" in accepted_encodings(headers.get("accept-encoding", "")) and len(self.gzipped) < len(
            self.body
        ):
            return Response(
                self.gzipped, media_type="application/json", headers={**common, "Content-Encoding": "gzip"}
            )
        return Response(self.body, media_type="application/json", headers=common)
