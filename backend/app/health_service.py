"""Liveness and readiness: is the database answering, and which engine and catalog are loaded.

``/health`` answers from memory: a :class:`DatabaseProbe` thread runs ``SELECT 1`` on a connection
of its own every ``interval_s`` and keeps the outcome. The database counts as up while the last
probe succeeded less than ``interval_s + STALE_GRACE_S`` ago, so a database that stops answering
(a probe stuck on a silent network) reads as down within that time, and a health request never
waits on the network. A request that loses its database connection reports it (``report_failure``)
so health turns at once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from sqlalchemy import Engine, text
from sqlalchemy.exc import SQLAlchemyError

from backend.app.catalog.service import CatalogStore
from backend.app.schemas import Health
from models import ENGINE_VERSION

logger = logging.getLogger(__name__)

STALE_GRACE_S = 1.0
FIRST_PROBE_WAIT_S = 2.0


def database_is_up(engine: Engine) -> bool:
    """True when ``SELECT 1`` succeeds on a connection of ``engine``."""
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except SQLAlchemyError as exc:
        logger.warning("database health check failed: %s", exc)
        return False
    return True


class DatabaseProbe:
    """Probes the database in a daemon thread (started by the first health request)."""

    def __init__(self, make_engine: Callable[[], Engine], interval_s: float = 1.0) -> None:
        self.make_engine = make_engine
        self.interval_s = interval_s
        self._last_ok: float | None = None  # time.monotonic() of the last successful probe
        self._first = threading.Event()
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run,
                    args=(self._stop, self._wake, self._first),
                    name="db-health-probe",
                    daemon=True,
                )
                self._thread.start()

    @property
    def started(self) -> bool:
        return self._thread is not None

    def start_and_wait(self) -> None:
        """Start probing and wait for the first outcome (at most ``FIRST_PROBE_WAIT_S``)."""
        self.start()
        self._first.wait(FIRST_PROBE_WAIT_S)

    def stop(self) -> None:
        """End the probe thread (app shutdown); the next health request starts a new one."""
        with self._lock:
            thread, self._thread = self._thread, None
            stop, wake = self._stop, self._wake
            self._stop, self._wake = threading.Event(), threading.Event()
            self._first = threading.Event()
            self._last_ok = None
        stop.set()
        wake.set()
        if thread is not None:
            thread.join(timeout=10)

    def is_up(self) -> bool:
        """Whether the last probe succeeded recently (never waits: see :meth:`start_and_wait`)."""
        last_ok = self._last_ok
        return last_ok is not None and time.monotonic() - last_ok <= self.interval_s + STALE_GRACE_S

    def report_failure(self) -> None:
        """A request lost its database connection: down until the next probe succeeds."""
        self._last_ok = None
        self._wake.set()

    def _run(self, stop: threading.Event, wake: threading.Event, first: threading.Event) -> None:
        engine = self.make_engine()
        try:
            while not stop.is_set():
                started = time.monotonic()
                up = database_is_up(engine)
                if stop.is_set():
                    break
                self._last_ok = started if up else None
                first.set()
                wake.wait(self.interval_s)
                wake.clear()
        finally:
            engine.dispose()


def check(probe: DatabaseProbe, catalog: CatalogStore) -> Health:
    database_ok = probe.is_up()
    return Health(
        status="ok" if database_ok else "degraded",
        database="ok" if database_ok else "unavailable",
        engine_version=ENGINE_VERSION,
        catalog_version=catalog.version(),
    )
