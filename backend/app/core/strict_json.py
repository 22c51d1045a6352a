"""Strict JSON request bodies: values no response could echo and no database could store are refused
at parse time, at the field that holds them.

Python's ``json`` module reads ``NaN``, ``Infinity``, ``-Infinity``, numbers that overflow a double
(``1e309`` becomes infinity) and lone UTF-16 surrogates (``"\\ud800"``, not a character); PostgreSQL
stores no NUL character in text or JSONB. :class:`StrictJSONMiddleware` parses every JSON request
body with ``orjson`` (RFC 8259 strict, and faster than the application's own parse that follows) and
answers 422 with the JSON path of the first such value; only then does the application see the body.
A body that is not JSON at all goes through unchanged: the application answers it as before (422
``json_invalid``, or 400 for bytes that are not UTF-8).

Two limits come before any parse: a body nested deeper than :data:`MAX_DEPTH` arrays and objects
is a 422 naming the depth (``json_depth``; a recursive walk of a 962-byte ``[[[[...]]]]`` once
ended in a 500 and a 147 KB traceback), counted on the raw bytes with strings left out; and an
operation whose body is JSON only takes it sent as JSON: another ``Content-Type``, or none with
a body, is 415 (FastAPI would read any body as JSON).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator
from typing import Any

import orjson
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from backend.app.core.operations import OperationIndex, bool_paths, non_bool_paths

Path = tuple[str | int, ...]

NOT_A_NUMBER = ("number_type", "Input should be a number, not a boolean")
NOT_A_BOOLEAN = ("bool_type", "Input should be true or false (not a number or text)")
NOT_FINITE = (
    "finite_number",
    "Input should be a finite number (NaN, Infinity and overflowing numbers are not)",
)
NOT_UNICODE = ("string_unicode", "Input should be a valid string: a lone UTF-16 surrogate is not a character")
HAS_NUL = ("string_nul", "text may not contain NUL characters")


MAX_DEPTH = 32
"""Deepest nesting of arrays and objects a JSON body may have (the API's own bodies need about 10)."""

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")


def too_deep(body: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether ``body``'s arrays and objects nest deeper than ``limit`` (brackets inside strings
    do not count); linear in the body's length, and no parse."""
    if body.count(b"[") + body.count(b"{") <= limit:  # cannot nest deeper than the brackets it has
        return False
    depth = 0
    for match in _BRACKET.finditer(_STRING.sub(b'""', body)):
        if match.group() in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def _string_problem(text: str) -> tuple[str, str] | None:
    if "\x00" in text:
        return HAS_NUL
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return NOT_UNICODE
    return None


def _walk(node: Any, path: Path) -> Iterator[tuple[Path, tuple[str, str]]]:
    if isinstance(node, float):
        if not math.isfinite(node):
            yield path, NOT_FINITE
    elif isinstance(node, str):
        problem = _string_problem(node)
        if problem is not None:
            yield path, problem
    elif isinstance(node, dict):
        for key, value in node.items():
            problem = _string_problem(key)
            if problem is not None:
                yield path + (key.encode("utf-8", "backslashreplace").decode("ascii", "replace"),), problem
            yield from _walk(value, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _walk(value, path + (index,))


def first_problem(document: Any) -> tuple[Path, str, str] | None:
    """(path, error type, message) of the first non-finite number, lone surrogate or NUL, else None."""
    for path, (kind, msg) in _walk(document, ()):
        return path, kind, msg
    return None


def body_problem(
    body: bytes, schema: dict[str, Any] | None = None, index: OperationIndex | None = None
) -> tuple[Path, str, str] | None:
    """The first value of a JSON ``body`` that is refused, with its path; None when the body is fine
    or is not JSON at all (left to the application to answer). With the body's ``schema`` (and the
    ``index`` resolving its references), a boolean where the schema wants a number is refused too,
    and a number or a string where it wants a boolean."""
    try:
        document = orjson.loads(body)
    except orjson.JSONDecodeError:
        try:  # what the application's parser would read: NaN, Infinity, 1e309, "\ud800" included
            lenient = json.loads(body)
        except ValueError:  # not JSON, or not UTF-8
            return None
        return first_problem(lenient)
    if b"\\u0000" in body:  # orjson reads NUL escapes; find where (rare: only then walk the document)
        problem = first_problem(document)
        if problem is not None:
            return problem
    if schema is not None and index is not None:
        if b"true" in body or b"false" in body:
            for path in bool_paths(document):
                if index.bool_refused(schema, path):
                    return path, *NOT_A_NUMBER
        names = index.boolean_names(schema)
        if names:
            for path in non_bool_paths(document, names):
                if index.non_bool_refused(schema, path):
                    return path, *NOT_A_BOOLEAN
    return None


def is_json(headers: Headers) -> bool:
    media = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


class StrictJSONMiddleware:
    """422 naming the field for JSON bodies holding a value :func:`body_problem` refuses (given the
    app's :class:`OperationIndex`, booleans where the operation's schema wants numbers too, and
    numbers or strings where it wants booleans).

    The body is read here (the body size limit outside this middleware still applies) and handed on
    to the application unchanged.
    """

    def __init__(self, app: ASGIApp, index: Callable[[], OperationIndex] | None = None) -> None:
        self.app = app
        self.index = index

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS", "DELETE"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        index = self.index() if self.index is not None else None
        schema = index.body_schema(scope["method"], scope["path"]) if index is not None else None
        if not is_json(headers):
            if schema is not None and index is not None and index.json_only(scope["method"], scope["path"]):
                if "content-type" in headers or not await _empty(receive):
                    await _unsupported(headers)(scope, receive, send)
                    return
                receive = _replaying(b"", receive)
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away: nobody to answer
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if too_deep(body):
            msg = f"JSON nested deeper than {MAX_DEPTH} arrays and objects"
            depth = {"loc": ["body"], "msg": msg, "type": "json_depth", "ctx": {"max_depth": MAX_DEPTH}}
            await JSONResponse({"detail": [depth]}, status_code=422)(scope, receive, send)
            return
        problem = body_problem(body, schema, index) if body else None
        if problem is not None:
            path, kind, msg = problem
            detail = [{"loc": ["body", *path], "msg": msg, "type": kind}]
            await JSONResponse({"detail": detail}, status_code=422)(scope, receive, send)
            return

        await self.app(scope, _replaying(body, receive), send)


def _replaying(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` giving ``body`` (already read) first, then what the client sends next."""
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if not replayed:
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _empty(receive: Receive) -> bool:
    """Whether the request has no body (read up to its first non-empty chunk)."""
    while True:
        message = await receive()
        if message["type"] != "http.request" or message.get("body"):
            return message["type"] == "http.request" and not message.get("body")
        if not message.get("more_body", False):
            return True


def _unsupported(headers: Headers) -> JSONResponse:
    sent = headers.get("content-type")
    said = f"Content-Type {sent!r}" if sent is not None else "no Content-Type"
    return JSONResponse(
        {"detail": f"this operation takes a JSON body sent with Content-Type: application/json, not {said}"},
        status_code=415,
    )
