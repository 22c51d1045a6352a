"""SQLAlchemy engine and session factory, with every wait on PostgreSQL bounded.

The app keeps its engine and session factory on ``app.state`` (see ``main.create_app``), so each
app built by a test talks to its own database.

A database that stops answering without refusing (a network blackhole, a half-open connection)
must not hold a request for the whole outage. :class:`DatabaseLimits` bounds each wait:

* connecting: libpq ``connect_timeout``;
* waiting for a pooled connection: the pool's ``pool_timeout``;
* a statement: the server's ``statement_timeout`` (it cancels the statement itself), and on the
  client a deadline a second later: a statement still waiting then has its socket shut down by
  :class:`StatementWatchdog`, which ends the wait with a disconnect error whatever the network
  does (a silent peer never answers the server's cancel either);
* a dead peer on an idle connection: TCP keepalives and ``tcp_user_timeout`` make the kernel
  drop the socket;
* a transaction left open (a request that died between two statements, a client gone): the
  server's ``idle_in_transaction_session_timeout`` ends the session, so no abandoned
  transaction holds its locks (one held ``idempotency_keys`` for over 95 s after an outage);
* a lock: ``lock_timeout`` (migrations set their own, so an ALTER waiting behind a busy table
  fails in seconds instead of queueing every request behind it).

No ``SELECT 1`` before each use (``pool_pre_ping`` cost a round trip per request): a pooled
connection is checked for free instead, by polling its socket without waiting. An idle connection
whose socket is readable was closed by the server (a restart sends a termination notice) or by the
kernel (keepalives), so the pool opens a new one in its place. A connection that dies while in use
fails that one request with a 503; SQLAlchemy then recycles every pooled connection opened before.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import select
import socket
import sqlite3
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from psycopg.pq import TransactionStatus
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import Session, sessionmaker

logger = logging.getLogger(__name__)

POSTGRES_CONNECT_TIMEOUT_S = 5
WATCHDOG_IDLE_EXIT_S = 30.0
WATCHDOG_SLACK_S = 0.1
"""The watchdog wakes this long after a deadline, to check every deadline passed by then in one
go: at hundreds of statements a second, one wake-up (and GIL hand-over) per statement otherwise."""


@dataclass(frozen=True)
class DatabaseLimits:
    """The bounds of every wait on PostgreSQL (documented in ``core.config``; None: no bound)."""

    statement_timeout_ms: int | None = None
    idle_in_transaction_timeout_ms: int | None = None
    lock_timeout_ms: int | None = None
    connect_timeout_s: int = POSTGRES_CONNECT_TIMEOUT_S
    tcp_user_timeout_ms: int | None = None
    keepalives_idle_s: int = 5
    keepalives_interval_s: int = 2
    keepalives_count: int = 3
    watchdog_grace_s: float = 1.0

    @property
    def client_deadline_s(self) -> float | None:
        """How long the client waits for a statement before cutting its connection."""
        if self.statement_timeout_ms is None:
            return None
        return self.statement_timeout_ms / 1000 + self.watchdog_grace_s


def _postgres_connect_args(url_query: Any, limits: DatabaseLimits) -> dict[str, Any]:
    args: dict[str, Any] = {}
    if "connect_timeout" not in url_query:
        args["connect_timeout"] = limits.connect_timeout_s
    args.update(
        keepalives=1,
        keepalives_idle=limits.keepalives_idle_s,
        keepalives_interval=limits.keepalives_interval_s,
        keepalives_count=limits.keepalives_count,
    )
    if limits.tcp_user_timeout_ms is not None:
        args["tcp_user_timeout"] = limits.tcp_user_timeout_ms
    server = {
        "statement_timeout": limits.statement_timeout_ms,
        "idle_in_transaction_session_timeout": limits.idle_in_transaction_timeout_ms,
        "lock_timeout": limits.lock_timeout_ms,
    }
    settings = " ".join(f"-c {name}={value}" for name, value in server.items() if value is not None)
    if settings:
        # libpq "options" carry server settings for the session: no round trip per connection.
        # Keep the URL's own options (e.g. a search_path).
        options = url_query.get("options", "")
        if isinstance(options, tuple):
            options = " ".join(options)
        args["options"] = f"{options} {settings}".strip()
    return args


def create_db_engine(database_url: str, limits: DatabaseLimits | None = None, **kwargs: Any) -> Engine:
    """Engine for a validated DATABASE_URL; creates the SQLite file's directory if it is missing.

    ``limits`` bound the waits on PostgreSQL (the app passes its settings; migrations and scripts
    pass none, so a long data migration is never cut).
    """
    url = make_url(database_url)
    connect_args: dict[str, Any] = {}
    limits = limits or DatabaseLimits()
    postgres = url.get_backend_name() == "postgresql"
    if not postgres:
        if url.database and url.database != ":memory:":
            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
    else:
        connect_args = _postgres_connect_args(url.query, limits)
    engine = create_engine(url, connect_args=connect_args, **kwargs)
    if not postgres:
        event.listen(engine, "connect", _sqlite_on_connect)
        return engine
    event.listen(engine, "checkout", _refuse_dead_connection)
    deadline = limits.client_deadline_s
    if deadline is not None:
        watchdog = StatementWatchdog(deadline)
        engine.sizer_watchdog = watchdog  # type: ignore[attr-defined]
        event.listen(engine, "before_cursor_execute", watchdog.on_execute)
        event.listen(engine, "commit", watchdog.on_transaction_end)
        event.listen(engine, "rollback", watchdog.on_transaction_end)
        event.listen(engine.pool, "reset", watchdog.on_reset)
    return engine


def _sqlite_on_connect(dbapi_connection: sqlite3.Connection, _record: object) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _socket_of(dbapi_connection: Any) -> int | None:
    try:
        fd = dbapi_connection.pgconn.socket
    except Exception:  # closed, or not a psycopg connection
        return None
    return fd if isinstance(fd, int) and fd >= 0 else None


def _refuse_dead_connection(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
    """A pooled connection is dead when its idle socket has something to read (the server's
    termination notice, end of stream, an error the kernel set): the pool takes a new one."""
    if dbapi_connection.closed:
        raise DisconnectionError("connection closed")
    fd = _socket_of(dbapi_connection)
    if fd is None:
        raise DisconnectionError("connection has no socket")
    readable, _, failed = select.select([fd], [], [fd], 0)
    if readable or failed:
        raise DisconnectionError("the server closed the idle connection")


def cut(fd: int) -> None:
    """Shut the socket ``fd`` down in both directions: a wait on it ends at once (not closed here:
    the connection's owner closes it)."""
    with contextlib.suppress(OSError):
        sock = socket.socket(fileno=fd)
        try:
            sock.shutdown(socket.SHUT_RDWR)
        finally:
            sock.detach()


class StatementWatchdog:
    """Cuts the connection of a statement still running ``deadline_s`` after it started.

    Each statement (and commit, rollback, reset) arms a deadline; a deadline only cuts a
    connection that is still busy with that same statement then (no later one armed since, and
    libpq ``transaction_status`` ACTIVE). Deadlines all have the same length, so a FIFO queue keeps
    them in order; one daemon thread sleeps until the first.
    """

    def __init__(self, deadline_s: float) -> None:
        self.deadline_s = deadline_s
        self.cuts = 0
        self._queue: collections.deque[tuple[float, Any, int]] = collections.deque()
        self._latest: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
        self._armed = 0
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None

    def arm(self, dbapi_connection: Any) -> None:
        with self._wake:
            self._armed += 1
            self._latest[dbapi_connection] = self._armed
            self._queue.append(
                (time.monotonic() + self.deadline_s, weakref.ref(dbapi_connection), self._armed)
            )
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="db-statement-watchdog", daemon=True)
                self._thread.start()
            elif len(self._queue) == 1:
                self._wake.notify()

    def on_execute(self, connection: Any, *_args: Any) -> None:
        self.arm(connection.connection.dbapi_connection)

    def on_transaction_end(self, connection: Any) -> None:
        if not connection.invalidated:  # an invalidated connection sends nothing more
            self.arm(connection.connection.dbapi_connection)

    def on_reset(self, dbapi_connection: Any, *_args: Any) -> None:
        self.arm(dbapi_connection)

    def _watch(self) -> None:
        while True:
            with self._wake:
                if not self._queue:
                    self._wake.wait(WATCHDOG_IDLE_EXIT_S)
                    if not self._queue:  # idle: the thread ends; the next statement starts another
                        self._thread = None
                        return
                deadline, ref, armed = self._queue[0]
                wait_s = deadline - time.monotonic()
                if wait_s > 0:
                    self._wake.wait(wait_s + WATCHDOG_SLACK_S)
                    continue
                self._queue.popleft()
                dbapi_connection = ref()
                # gone, or busy with a later statement that has its own deadline; checked and cut
                # under the lock, so no statement can start on the connection in between
                if dbapi_connection is not None and self._latest.get(dbapi_connection) == armed:
                    self._check(dbapi_connection)

    def _check(self, dbapi_connection: Any) -> None:
        try:
            busy = dbapi_connection.pgconn.transaction_status == TransactionStatus.ACTIVE
        except Exception:  # closed meanwhile
            return
        fd = _socket_of(dbapi_connection) if busy else None
        if fd is None:
            return
        self.cuts += 1
        logger.warning("database statement still waiting after %.1f s: connection cut", self.deadline_s)
        cut(fd)


def create_session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(bind=engine, expire_on_commit=False)
