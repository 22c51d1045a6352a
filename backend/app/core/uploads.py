"""Uploaded files: the body as byte chunks, from a multipart form (field ``file``) or the raw body.

Large uploads never sit in memory: :func:`spool` copies the chunks into a temporary file that
stays in memory up to ``SPOOL_MEMORY_BYTES`` and moves to disk beyond it.
"""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator
from typing import IO, Any
from urllib.parse import unquote

from fastapi import Request
from starlette.datastructures import UploadFile

from backend.app.core.errors import InvalidInput

SPOOL_MEMORY_BYTES = 1024 * 1024
CHUNK_BYTES = 1024 * 1024

UPLOAD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "properties": {"file": {"type": "string", "format": "binary"}},
                    "required": ["file"],
                }
            },
            "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
        },
    }
}
"""OpenAPI ``requestBody`` of an upload route (``openapi_extra``)."""


async def body_chunks(request: Request, default_name: str) -> tuple[AsyncIterator[bytes], str]:
    """The upload as byte chunks and its file name (multipart field ``file`` or the raw body,
    named by the ``X-Filename`` header, percent-encoded when it is not ASCII)."""
    if request.headers.get("content-type", "").startswith("multipart/form-data"):
        form = await request.form(max_files=1, max_fields=10)
        upload = form.get("file")
        if not isinstance(upload, UploadFile):
            raise InvalidInput.at(("body", "file"), "send the file as the multipart field 'file'", "missing")

        async def from_file() -> AsyncIterator[bytes]:
            while data := await upload.read(CHUNK_BYTES):
                yield data

        return from_file(), upload.filename or default_name
    return request.stream(), unquote(request.headers.get("x-filename", default_name))


async def spool(chunks: AsyncIterator[bytes]) -> tuple[IO[bytes], int]:
    """The chunks in a temporary file (rewound) and their total size; the caller closes it."""
    out = tempfile.SpooledTemporaryFile(max_size=SPOOL_MEMORY_BYTES)  # noqa: SIM115 - handed to the caller
    size = 0
    try:
        async for data in chunks:
            out.write(data)
            size += len(data)
    except BaseException:
        out.close()
        raise
    out.seek(0)
    return out, size
