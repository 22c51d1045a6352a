"""Writes bounded by the client's patience: nothing is committed after the request's deadline or
after its client went away.

A report save that waited out a database outage used to commit after the client had given up
(13 of 18 saves without an idempotency key, with an 8 s client timeout, during a 20 s blackhole):
the client retries or reports a failure, and a record it never heard of is stored. Here:

* :class:`RequestClock` stamps each request's arrival in its scope (:data:`ARRIVED`); a session a
  request opens (``deps.open_session``, ``deps.get_db``) carries the request's deadline,
  arrival + REQUEST_DEADLINE_S (:func:`bind`);
* before every commit (a session event, :func:`install`) the deadline is checked, and so is the
  client: a route that may wait long (a report save) watches its connection
  (:func:`client_watch`) and a client gone is a refused commit too. Refused: :class:`DeadlinePassed`,
  a 503 saying nothing was saved, the transaction rolled back;
* on PostgreSQL a transaction begun with less time left than DB_STATEMENT_TIMEOUT_MS gets that
  remaining time as its ``statement_timeout`` (``SET LOCAL``, a round trip paid only by a late
  request), so the server itself cancels a statement that would end after the deadline;
* a write sent as one auto-committed statement (a report's INSERT) checks first and is sent so only
  while the server's own statement timeout ends before the deadline (:func:`autocommit_allowed`).

A commit sent before the deadline whose acknowledgement is lost may still be stored: that is what
idempotency keys are for.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session, sessionmaker
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from backend.app.core.errors import Unavailable

ARRIVED = "sizer.arrived"
"""Scope key: ``time.monotonic()`` when the request arrived."""

_DEADLINE = "deadline"  # session.info keys
_GONE = "client_gone"
_STATEMENT_TIMEOUT = "statement_timeout_ms"
_AUTOCOMMIT = "autocommit"


class DeadlinePassed(Unavailable):
    """A write reached its commit after the request's deadline or after its client left: 503."""


class RequestClock:
    """Stamps the arrival of every HTTP request (:data:`ARRIVED`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            scope[ARRIVED] = time.monotonic()
        await self.app(scope, receive, send)


def bind(session: Session, request: Request) -> Session:
    """``session`` carrying ``request``'s deadline (arrival + the app's REQUEST_DEADLINE_S)."""
    arrived = request.scope.get(ARRIVED, time.monotonic())
    settings = request.app.state.settings
    session.info[_DEADLINE] = arrived + settings.request_deadline_s
    session.info[_STATEMENT_TIMEOUT] = settings.db_statement_timeout_ms
    gone = request.scope.get(_GONE)
    if gone is not None:
        session.info[_GONE] = gone
    return session


def remaining_s(session: Session) -> float | None:
    """Seconds left before the session's request deadline (None: no deadline)."""
    deadline = session.info.get(_DEADLINE)
    return None if deadline is None else deadline - time.monotonic()


def check(session: Session) -> None:
    """:class:`DeadlinePassed` when the session's request is past its deadline or its client left."""
    gone: threading.Event | None = session.info.get(_GONE)
    if gone is not None and gone.is_set():
        raise DeadlinePassed(
            "the client closed its connection before the write was committed: nothing was saved"
        )
    left = remaining_s(session)
    if left is not None and left <= 0:
        raise DeadlinePassed(
            "the request passed its deadline (REQUEST_DEADLINE_S) before its write was committed: "
            "nothing was saved; try again"
        )


def autocommit_allowed(session: Session) -> bool:
    """Whether one auto-committed statement may be sent now: checked (:func:`check`), and the
    server's statement timeout ends it before the deadline (else it goes in a transaction, whose
    statements get the remaining time)."""
    check(session)
    left = remaining_s(session)
    statement_timeout_ms = session.info.get(_STATEMENT_TIMEOUT)
    allowed = left is None or statement_timeout_ms is None or left * 1000 > statement_timeout_ms
    # its statement commits as the server runs it: a later check would refuse what is stored
    session.info[_AUTOCOMMIT] = allowed
    return allowed


def install(factory: sessionmaker[Session], statement_timeout_ms: int | None) -> None:
    """The commit check and, on PostgreSQL, the statement timeout of a late transaction."""

    def before_commit(session: Session) -> None:
        if not session.info.get(_AUTOCOMMIT):
            check(session)

    def after_begin(session: Session, _transaction: Any, connection: Any) -> None:
        left = remaining_s(session)
        if left is None or connection.dialect.name != "postgresql":
            return
        if statement_timeout_ms is not None and left * 1000 >= statement_timeout_ms:
            return
        if connection.get_isolation_level() == "AUTOCOMMIT":
            return  # SET LOCAL holds only inside a transaction
        check(session)
        connection.exec_driver_sql(f"SET LOCAL statement_timeout = {max(1, int(left * 1000))}")

    event.listen(factory, "before_commit", before_commit)
    event.listen(factory, "after_begin", after_begin)


@asynccontextmanager
async def client_watch(request: Request) -> AsyncIterator[None]:
    """While inside, a client that closes its connection marks the request's sessions (opened
    inside, after this is entered) so they commit nothing. For routes that read their whole body
    first (the body is not read here) and answer without streaming."""
    gone = threading.Event()
    request.scope[_GONE] = gone

    async def watch() -> None:
        while True:
            message = await request.receive()
            if message["type"] == "http.disconnect":
                gone.set()
                return

    task = asyncio.ensure_future(watch())
    try:
        yield
    finally:
        task.cancel()
