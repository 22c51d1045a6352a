"""Domain errors raised by services, and the handlers that turn every error into JSON.

Services never raise ``HTTPException``: they raise the errors below and the handlers map them:

* :class:`InvalidInput` -> 422 ``{"detail": [{"loc": [...], "msg": ..., "type": ...}]}``, the same
  body FastAPI gives for request validation, so a client handles one shape for both;
* request validation errors keep FastAPI's shape, but each ``loc`` is the JSON path into the body
  the client sent: the tags pydantic inserts for a discriminated union (``configuration.catalog.
  group_width``) are taken out (``configuration.group_width``), and a wrong or missing ``kind``
  is reported at ``kind``;
* :class:`NotFound` -> 404, :class:`Forbidden` -> 403, :class:`Conflict` -> 409, :class:`Gone` -> 410,
  :class:`RateLimited` -> 429 (with ``Retry-After``), :class:`CatalogUnavailable` -> 503, each
  ``{"detail": "..."}``.

Data the database refuses gives 422, lost database connections 503; anything else is a bug and
gives a JSON 500 without details.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Iterator, Sequence
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DataError, InterfaceError, OperationalError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

logger = logging.getLogger(__name__)

Loc = tuple[str | int, ...]


class InvalidInput(Exception):
    """The request is well-formed but impossible; each error names the field path (``loc``)."""

    def __init__(self, errors: Sequence[tuple[Loc, str, str]]) -> None:
        self.errors: list[dict[str, Any]] = [
            {"loc": list(loc), "msg": msg, "type": kind} for loc, msg, kind in errors
        ]
        super().__init__("; ".join(f"{'.'.join(map(str, loc))}: {msg}" for loc, msg, _ in errors))

    @classmethod
    def at(cls, loc: Loc, msg: str, kind: str = "value_error") -> InvalidInput:
        return cls([(loc, msg, kind)])

    def moved(self, old: Loc, new: Loc) -> InvalidInput:
        """The same errors with the ``old`` prefix of each path replaced by ``new``."""
        moved = []
        for error in self.errors:
            loc = tuple(error["loc"])
            if loc[: len(old)] == old:
                loc = new + loc[len(old) :]
            moved.append((loc, error["msg"], error["type"]))
        return InvalidInput(moved)


class NotFound(Exception):
    """No such resource: ``what`` (e.g. "report") and its ``id``."""

    def __init__(self, what: str, id: str) -> None:
        self.what = what
        self.id = id
        super().__init__(f"{what} {id!r} not found")


ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""Every id the API hands out (report tokens, record UUIDs) matches this."""


def well_formed_id(what: str, id: str) -> str:
    """``id`` if it could name a stored resource, else :class:`NotFound` without asking the database."""
    if not ID_PATTERN.fullmatch(id):
        raise NotFound(what, id)
    return id


def contains_nul(value: Any) -> bool:
    """Whether any string (key or value) in a JSON document has a NUL character."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(contains_nul(k) or contains_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(contains_nul(v) for v in value)
    return False


def refuse_nul(document: Any) -> None:
    """PostgreSQL stores no NUL character in text or JSONB: refuse it on every database alike."""
    if contains_nul(document):
        raise InvalidInput.at(("body",), "text may not contain NUL characters")


# A NUL inside a JSON string is written ``\u0000``; after an odd number of backslashes the
# backslash before ``u0000`` is itself escaped text (``\\u0000`` is the six characters \u0000).
_JSON_NUL = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")


def refuse_nul_json(text: str) -> None:
    """:func:`refuse_nul` for a serialized JSON document (one regex scan instead of a tree walk)."""
    if "\x00" in text or ("\\u0000" in text and _JSON_NUL.search(text)):
        raise InvalidInput.at(("body",), "text may not contain NUL characters")


class Forbidden(Exception):
    """The caller may not do this (e.g. delete a report without its owner token)."""


class Conflict(Exception):
    """The request contradicts what is stored (an idempotency key reused for another request, a
    record still used by another): 409 ``{"detail": "..."}``."""


class Gone(Exception):
    """The resource existed and was deleted (an idempotent replay of its creation): 410."""


class RateLimited(Exception):
    """The client is over a rate limit or quota: 429 with ``Retry-After`` (whole seconds)."""

    def __init__(self, limit: str, retry_after_s: int) -> None:
        self.limit = limit
        self.retry_after_s = max(1, retry_after_s)
        super().__init__(f"rate limit {limit} exceeded; retry after {self.retry_after_s} s")


class CatalogUnavailable(Exception):
    """The hardware catalog under ``settings.fixtures_dir`` does not load."""


class Unavailable(Exception):
    """An optional part the request needs is missing or failed (Chromium for a PDF): 503 with the
    message, which says what to install or set."""


_MAX_TAGS = 4


def _child(node: Any, segment: str | int) -> tuple[bool, Any]:
    """(True, node[segment]) when the document has that key or index, else (False, None)."""
    if isinstance(node, dict) and isinstance(segment, str) and segment in node:
        return True, node[segment]
    if isinstance(node, list) and isinstance(segment, int) and 0 <= segment < len(node):
        return True, node[segment]
    return False, None


def json_path(document: Any, loc: Loc) -> Loc:
    """``loc`` without the segments that are not in ``document`` (discriminated-union tags).

    The path found keeps every segment that exists in the document, in order; the last segment
    alone may be a key missing from an object (a required field). Of several such paths the one
    dropping the fewest segments wins, and on a tie the one dropping the earliest: pydantic puts a
    tag before the fields of its union member, and a tag may also be a key of the body (``/compare``
    tags ``configurations`` and ``schemes`` are fields too: ``configurations.relax.0.case`` is
    ``relax.0.case``, not ``configurations.0.case``). ``loc`` itself when none fits.
    """
    best: tuple[int, Loc] | None = None

    def walk(node: Any, i: int, kept: Loc, dropped: int) -> None:
        nonlocal best
        if dropped > _MAX_TAGS or (best is not None and dropped >= best[0]):
            return
        if i == len(loc):
            best = (dropped, kept)
            return
        segment = loc[i]
        if isinstance(segment, str):  # dropped first: of paths dropping as many, the earliest drop wins
            walk(node, i + 1, kept, dropped + 1)
        found, child = _child(node, segment)
        if found:
            walk(child, i + 1, kept + (segment,), dropped)
        elif i == len(loc) - 1 and isinstance(node, dict) and isinstance(segment, str):
            walk(None, i + 1, kept + (segment,), dropped)  # a required field that is missing

    walk(document, 0, (), 0)
    return best[1] if best is not None else loc


_VALIDATOR_MESSAGE = re.compile(r"(?:Value error, )?(?P<field>[a-z][a-z0-9_]*)\b(?P<required> is required)?")


def _named_field(error: dict[str, Any]) -> str | None:
    """The field a model validator's message starts with, when the object it checked has it
    (or the message says it is required).

    Cross-field checks (``rpm is required for a hard disk``, ``track_to_track_ms must be below
    avg_read_seek_ms``) fail on the whole object, so pydantic reports them at the object; the
    engine's messages name the offending field first, which places them at that field instead.
    """
    if error.get("type") != "value_error" or not isinstance(error.get("input"), dict):
        return None
    match = _VALIDATOR_MESSAGE.match(str(error.get("msg", "")))
    if match is None or not (match.group("field") in error["input"] or match.group("required")):
        return None
    return match.group("field")


def _client_error(error: dict[str, Any], body: Any) -> dict[str, Any]:
    loc = tuple(error.get("loc", ()))
    if loc[:1] == ("body",):
        loc = ("body",) + json_path(body, loc[1:])
        if error.get("type") in ("union_tag_invalid", "union_tag_not_found"):
            discriminator = str((error.get("ctx") or {}).get("discriminator", "")).strip("'")
            if discriminator.isidentifier():
                loc += (discriminator,)
        field = _named_field(error)
        if field is not None and loc[-1] != field:
            loc += (field,)
    return {**error, "loc": list(loc)}


def json_safe(value: Any) -> Any:
    """``value`` with what JSON cannot carry made printable: a non-finite number as its name
    (``"NaN"``, ``"Infinity"``), a lone surrogate as its escape (``"\\ud800"``)."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value).replace("inf", "Infinity").replace("nan", "NaN")
    if isinstance(value, str):
        return value if value.isascii() else value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {json_safe(str(k)): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


async def request_invalid(request: Request, exc: Exception) -> JSONResponse:
    """FastAPI's 422 for request validation, with each ``loc`` a JSON path into the sent body.

    The ``input`` pydantic echoes is made encodable (:func:`json_safe`): the answer always encodes.
    """
    assert isinstance(exc, RequestValidationError)
    errors = [_client_error(dict(e), exc.body) for e in exc.errors()]
    return JSONResponse({"detail": json_safe(jsonable_encoder(errors))}, status_code=422)


ENGINE_ERROR = "engine_error"
"""Type of the 422 a numerical failure inside the engine gives (overflow, a non-finite figure)."""


def _numbers(node: Any, path: Loc) -> Iterator[tuple[Loc, float]]:
    if isinstance(node, bool):
        return
    if isinstance(node, int | float):
        yield path, float(node)
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _numbers(value, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _numbers(value, path + (index,))


EXTREME_DECADES = 9.0
"""A number at least 1e9 or at most 1e-9 in size counts as extreme when the engine fails."""


def most_extreme_number(document: Any) -> Loc | None:
    """Path of the number farthest from 1 in orders of magnitude (``|log10 |x||``), when that is at
    least :data:`EXTREME_DECADES`; None otherwise. An engine overflow is caused by such a value."""
    best: tuple[float, Loc] | None = None
    for path, number in _numbers(document, ()):
        if number == 0 or not math.isfinite(number):
            continue
        decades = abs(math.log10(abs(number)))
        if decades >= EXTREME_DECADES and (best is None or decades > best[0]):
            best = (decades, path)
    return best[1] if best is not None else None


async def _sent_document(request: Request) -> Any:
    try:
        body = await request.body()
        return orjson.loads(body) if body else None
    except (RuntimeError, orjson.JSONDecodeError):  # stream not kept, or not JSON
        return None


async def invalid_input(request: Request, exc: Exception) -> JSONResponse:
    """422 for :class:`InvalidInput`; an engine failure reported at the whole body (or a report's
    ``inputs``) is placed at the most extreme number the client sent under it."""
    assert isinstance(exc, InvalidInput)
    errors = exc.errors
    if any(e["type"] == ENGINE_ERROR and e["loc"] in (["body"], ["body", "inputs"]) for e in errors):
        document = await _sent_document(request)
        errors = [_placed(e, document) for e in errors]
    return JSONResponse({"detail": errors}, status_code=422)


def _placed(error: dict[str, Any], document: Any) -> dict[str, Any]:
    if error["type"] != ENGINE_ERROR or error["loc"] not in (["body"], ["body", "inputs"]):
        return error
    under = error["loc"][1:]
    node = document
    for segment in under:
        node = node.get(segment) if isinstance(node, dict) else None
    path = most_extreme_number(node)
    if path is None:
        return error
    return {**error, "loc": ["body", *under, *path]}


async def not_found(request: Request, exc: Exception) -> JSONResponse:
    return JSONResponse({"detail": str(exc)}, status_code=404)


async def forbidden(request: Request, exc: Exception) -> JSONResponse:
    return JSONResponse({"detail": str(exc)}, status_code=403)


async def conflict(request: Request, exc: Exception) -> JSONResponse:
    return JSONResponse({"detail": str(exc)}, status_code=409)


async def gone(request: Request, exc: Exception) -> JSONResponse:
    return JSONResponse({"detail": str(exc)}, status_code=410)


async def rate_limited(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RateLimited)
    headers = {"Retry-After": str(exc.retry_after_s)}
    return JSONResponse({"detail": str(exc)}, status_code=429, headers=headers)


async def catalog_unavailable(request: Request, exc: Exception) -> JSONResponse:
    logger.error("hardware catalog unavailable during %s %s: %s", request.method, request.url.path, exc)
    return JSONResponse({"detail": "hardware catalog unavailable"}, status_code=503)


async def unavailable(request: Request, exc: Exception) -> JSONResponse:
    logger.warning("%s %s: %s", request.method, request.url.path, exc)
    return JSONResponse({"detail": str(exc)}, status_code=503)


async def data_not_storable(request: Request, exc: Exception) -> JSONResponse:
    """Input the database refuses to store (a value out of its range): 422, never a 500."""
    logger.warning("database refused data during %s %s: %s", request.method, request.url.path, exc)
    detail = [{"loc": ["body"], "msg": "the database cannot store this input", "type": "value_error"}]
    return JSONResponse({"detail": detail}, status_code=422)


async def database_unavailable(request: Request, exc: Exception) -> JSONResponse:
    """Lost or refused database connection -> 503; the pool reconnects on a later request."""
    logger.warning("database unavailable during %s %s: %s", request.method, request.url.path, exc)
    probe = getattr(request.app.state, "database_probe", None)
    if probe is not None:  # health turns at once, until the next probe succeeds
        probe.report_failure()
    return JSONResponse({"detail": "database unavailable"}, status_code=503)


class ServerErrorMiddleware:
    """Last resort for a bug: a JSON 500 without details (the server log has the traceback).

    Unlike Starlette's own last resort, the error is not raised again after the answer, so the
    server keeps the client's keep-alive connection open: the client's next request on it works.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception as exc:
            logger.error(
                "unhandled %s during %s %s",
                type(exc).__name__,
                scope.get("method"),
                scope.get("path"),
                exc_info=(type(exc), exc, exc.__traceback__),
            )
            if started:  # part of an answer is out: only closing the connection can tell the client
                raise
            response = JSONResponse({"detail": "internal server error"}, status_code=500)
            await response(scope, receive, send)


def install_exception_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, request_invalid)
    app.add_exception_handler(InvalidInput, invalid_input)
    app.add_exception_handler(NotFound, not_found)
    app.add_exception_handler(Forbidden, forbidden)
    app.add_exception_handler(Conflict, conflict)
    app.add_exception_handler(Gone, gone)
    app.add_exception_handler(RateLimited, rate_limited)
    app.add_exception_handler(CatalogUnavailable, catalog_unavailable)
    app.add_exception_handler(Unavailable, unavailable)
    app.add_exception_handler(DataError, data_not_storable)
    app.add_exception_handler(OperationalError, database_unavailable)
    app.add_exception_handler(InterfaceError, database_unavailable)
