"""Application settings, read from the environment only (no ``.env`` file), checked at start-up.

| variable         | default                         | meaning                                            |
|------------------|---------------------------------|----------------------------------------------------|
| DATABASE_URL     | ``sqlite:///<repo>/var/sizer.db`` | ``sqlite:///PATH`` or ``postgresql+psycopg://...`` |
| CORS_ORIGINS     | empty (CORS off)                | comma-separated or JSON list of allowed origins    |
| TRUSTED_PROXIES  | empty (none)                    | addresses or networks (``10.0.0.0/8``) whose ``X-Forwarded-For``/``-Proto`` are believed |
| MAX_BODY_BYTES   | 1048576                         | larger request bodies get 413                      |
| MAX_TRACE_BYTES  | 2147483648                      | limit for trace uploads (``POST /api/v1/traces``)  |
| TRACES_DIR       | ``<repo>/var/traces``           | uploaded traces and their analysis scratch files   |
| MAX_TRACE_TEXT_BYTES | 68719476736 (64 GiB)        | a (gzip) trace inflating beyond this is refused    |
| MAX_TRACE_RECORDS | 2000000000                     | a trace with more records is refused               |
| TRACE_QUEUE_MAX  | 8                               | trace jobs queued or running at once (then 429)    |
| TRACE_JOB_STALL_S | 900                           | a trace job with no progress this long is failed (the watchdog) |
| TRACE_JOB_MAX_CPU_S | 3600                        | a trace job's analysis using more CPU time than this fails |
| TRACES_URL       | unset (TRACES_DIR)              | trace storage as an fsspec URL (``s3://b/traces``)  |
| DASK_SCHEDULER_ADDRESS | unset (in-process)        | run trace jobs on this Dask cluster (``tcp://h:8786``) |
| DASK_CONNECT_TIMEOUT_S | 5                         | wait for the scheduler at submit time, then 503    |
| FRONTEND_DIST    | ``<repo>/frontend/dist``        | built UI served at ``/``                           |
| FIXTURES_DIR     | ``<repo>/fixtures``             | hardware catalog data                              |
| DB_POOL_SIZE     | 20                              | database connections each worker keeps open        |
| DB_MAX_OVERFLOW  | 10                              | extra connections under bursts (closed after use)  |
| DB_POOL_TIMEOUT_S | 2                              | longest wait for a pooled connection, then 503     |
| DB_CONNECT_TIMEOUT_S | 3                           | longest wait to open a PostgreSQL connection       |
| DB_STATEMENT_TIMEOUT_MS | 5000                     | PostgreSQL cancels a statement running longer; the client cuts the connection 1 s later |
| DB_IDLE_IN_TRANSACTION_TIMEOUT_MS | 10000          | PostgreSQL ends a session left idle inside a transaction this long (its locks go with it) |
| REQUEST_DEADLINE_S | 30                            | a request commits nothing this long after it arrived (503, nothing saved) |
| DB_TCP_USER_TIMEOUT_MS | 5000                      | the kernel drops a connection whose sent data stays unacknowledged this long |
| HEALTH_PROBE_INTERVAL_S | 1                        | ``/health`` probes the database this often; down when no probe succeeded for this + 1 s |
| RATE_LIMITS_ENABLED | true                         | per-client limits on writes (429 + Retry-After over them) |
| RATE_LIMIT_REPORTS | 60/minute;2000/day            | saves and recomputations of reports, per client    |
| RATE_LIMIT_HARDWARE | 60/minute;1000/day           | creates, edits and deletes of custom hardware      |
| RATE_LIMIT_TRACES | 10/minute;200/day              | trace uploads and their cancels and deletes        |
| RATE_LIMIT_IMPORTS | 60/minute;2000/day            | file imports (``/import/*`` but ``timeline`` and ``observed``) |
| REDIS_URL        | empty (counts in memory)        | ``redis://HOST:PORT/DB``: one count for every worker and server |
| IDEMPOTENCY_TTL_S | 86400                          | how long the answer to a write with an ``Idempotency-Key`` is kept |
| CHROMIUM_PATH    | ``chromium`` (on the PATH)      | the browser that prints a report's PDF proposal (optional: 503 without it) |
| PDF_TIMEOUT_S    | 60                              | a PDF print taking longer is stopped (503)         |

Each uvicorn worker keeps up to DB_POOL_SIZE connections: sized for the requests a worker serves at
once, so a steady load reuses them instead of opening and closing overflow connections (a new
PostgreSQL connection forks a server process; churning them under load made requests wait
seconds). Workers x (DB_POOL_SIZE + DB_MAX_OVERFLOW + 1) must stay below PostgreSQL's max_connections
(the one more is the health probe's connection).

Every wait on PostgreSQL is bounded (``backend/app/db.py``): a request never waits longer than
DB_POOL_TIMEOUT_S for a connection, DB_CONNECT_TIMEOUT_S to open one, and DB_STATEMENT_TIMEOUT_MS
+ 1 s for a statement, whatever the network does; TCP keepalives (idle 5 s, then every 2 s, 3
probes) find dead peers of idle connections; a session idle inside a transaction for
DB_IDLE_IN_TRANSACTION_TIMEOUT_MS is ended by the server. Migrations run with their own limits:
MIGRATION_LOCK_TIMEOUT_MS (5000) for each lock they wait for, MIGRATION_STATEMENT_TIMEOUT_MS
(600000) for each statement (or ``alembic -x lock_timeout_ms=... -x statement_timeout_ms=...``).
A request commits nothing after REQUEST_DEADLINE_S (30) from its arrival, nor after its client
closed the connection (a report save): 503, nothing saved (``backend/app/core/deadline.py``).

The client a rate limit or an idempotency key counts is the connection's peer, unless that peer
is one of TRUSTED_PROXIES: then it is the address the proxy forwarded. uvicorn runs with
``--no-proxy-headers`` (the Makefile, the container and ``scripts/prestart`` say so): its default
believes ``X-Forwarded-For`` from 127.0.0.1, where anything on the host could claim any address.

Relative FRONTEND_DIST and FIXTURES_DIR are taken from the repository root, not the working directory
(a relative SQLite path in DATABASE_URL is relative to the working directory, as in SQLAlchemy).
"""

from __future__ import annotations

import ipaddress
import json
from functools import lru_cache
from pathlib import Path
from typing import Annotated

import fsspec
from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from backend.app.core.ratelimit import parse_limits
from backend.app.db import DatabaseLimits

REPO_ROOT = Path(__file__).resolve().parents[3]

SUPPORTED_DRIVERS = {"sqlite", "sqlite+pysqlite", "postgresql+psycopg"}


def check_database_url(value: str) -> str:
    """``value`` if it is a SQLite file or PostgreSQL (psycopg 3) URL, else ``ValueError`` saying why."""
    try:
        url = make_url(value)
    except ArgumentError as exc:
        raise ValueError(f"DATABASE_URL is not a database URL: {exc}") from None
    if url.drivername not in SUPPORTED_DRIVERS:
        raise ValueError(
            f"DATABASE_URL driver {url.drivername!r} is not supported; "
            "use sqlite:///PATH or postgresql+psycopg://USER:PASSWORD@HOST:PORT/DB"
        )
    if url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:"):
        raise ValueError("DATABASE_URL must name a SQLite file (an in-memory database cannot be migrated)")
    return value


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=None, extra="ignore", frozen=True)

    database_url: str = Field(default=f"sqlite:///{REPO_ROOT / 'var' / 'sizer.db'}")
    cors_origins: Annotated[list[str], NoDecode] = Field(default_factory=list)
    trusted_proxies: Annotated[list[str], NoDecode] = Field(default_factory=list)
    max_body_bytes: int = Field(default=1024 * 1024, gt=0)
    max_trace_bytes: int = Field(default=2 * 1024**3, gt=0)
    traces_dir: Path = REPO_ROOT / "var" / "traces"
    max_trace_text_bytes: int = Field(default=64 * 1024**3, gt=0)
    max_trace_records: int = Field(default=2_000_000_000, gt=0)
    trace_queue_max: int = Field(default=8, ge=1, le=10_000)
    trace_job_stall_s: float = Field(default=900.0, gt=0, le=7 * 86400)
    trace_job_max_cpu_s: float = Field(default=3600.0, ge=0, le=7 * 86400)
    traces_url: str | None = None
    dask_scheduler_address: str | None = None
    dask_connect_timeout_s: float = Field(default=5.0, gt=0.0, le=120.0)
    frontend_dist: Path = REPO_ROOT / "frontend" / "dist"
    fixtures_dir: Path = REPO_ROOT / "fixtures"
    db_pool_size: int = Field(default=20, ge=1, le=1000)
    db_max_overflow: int = Field(default=10, ge=0, le=1000)
    db_pool_timeout_s: float = Field(default=2.0, gt=0, le=600)
    db_connect_timeout_s: int = Field(default=3, ge=2, le=600)  # libpq rounds lower values up to 2
    db_statement_timeout_ms: int = Field(default=5000, ge=100, le=3_600_000)
    db_tcp_user_timeout_ms: int = Field(default=5000, ge=100, le=3_600_000)
    db_idle_in_transaction_timeout_ms: int = Field(default=10_000, ge=100, le=3_600_000)
    request_deadline_s: float = Field(default=30.0, gt=0, le=3600)
    health_probe_interval_s: float = Field(default=1.0, gt=0, le=60)
    rate_limits_enabled: bool = True
    rate_limit_reports: str = "60/minute;2000/day"
    rate_limit_hardware: str = "60/minute;1000/day"
    rate_limit_traces: str = "10/minute;200/day"
    rate_limit_imports: str = "60/minute;2000/day"
    redis_url: str | None = None
    idempotency_ttl_s: float = Field(default=86400.0, gt=0, le=365 * 86400)
    chromium_path: str = Field(default="chromium", min_length=1)
    pdf_timeout_s: float = Field(default=60.0, gt=0, le=600)

    @field_validator("rate_limit_reports", "rate_limit_hardware", "rate_limit_traces", "rate_limit_imports")
    @classmethod
    def _check_rate_limit(cls, value: str) -> str:
        parse_limits(value)
        return value

    @field_validator("dask_scheduler_address")
    @classmethod
    def _check_dask(cls, value: str | None) -> str | None:
        if not value:
            return None
        try:
            import distributed  # noqa: F401 - imported by the trace jobs anyway
        except ImportError as exc:
            raise ValueError(f"DASK_SCHEDULER_ADDRESS needs Dask, {extra_missing('distributed')}") from exc
        return value

    @field_validator("traces_url")
    @classmethod
    def _check_traces_url(cls, value: str | None) -> str | None:
        if not value:
            return None
        protocol = value.split("://", 1)[0] if "://" in value else "file"
        try:
            fsspec.get_filesystem_class(protocol)
        except ImportError as exc:
            extra = f", {extra_missing('s3')}" if protocol in {"s3", "s3a"} else ""
            raise ValueError(
                f"TRACES_URL {protocol}:// needs a package that is not installed ({exc}){extra}"
            ) from exc
        except ValueError:
            pass  # a protocol fsspec does not know: TraceStore says so where the URL is used
        return value

    @field_validator("redis_url")
    @classmethod
    def _check_redis_url(cls, value: str | None) -> str | None:
        if not value:
            return None
        if not value.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError("REDIS_URL must be redis://HOST:PORT/DB (or rediss://, unix://)")
        return value

    def write_limits(self) -> dict[str, str]:
        return {
            "reports": self.rate_limit_reports,
            "hardware": self.rate_limit_hardware,
            "traces": self.rate_limit_traces,
            "imports": self.rate_limit_imports,
        }

    @field_validator("database_url")
    @classmethod
    def _check_database_url(cls, value: str) -> str:
        return check_database_url(value)

    @field_validator("trusted_proxies")
    @classmethod
    def _check_proxies(cls, value: list[str]) -> list[str]:
        for proxy in value:
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise ValueError(f"TRUSTED_PROXIES: {proxy!r} is not an IP address or network") from None
        return value

    @field_validator("cors_origins", "trusted_proxies", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                return json.loads(text)
            return [origin.strip() for origin in text.split(",") if origin.strip()]
        return value

    @field_validator("frontend_dist", "fixtures_dir", "traces_dir")
    @classmethod
    def _anchor_at_repo_root(cls, value: Path) -> Path:
        return value if value.is_absolute() else REPO_ROOT / value

    def database_limits(self) -> DatabaseLimits:
        return DatabaseLimits(
            statement_timeout_ms=self.db_statement_timeout_ms,
            idle_in_transaction_timeout_ms=self.db_idle_in_transaction_timeout_ms,
            lock_timeout_ms=self.db_statement_timeout_ms,
            connect_timeout_s=self.db_connect_timeout_s,
            tcp_user_timeout_ms=self.db_tcp_user_timeout_ms,
        )


def extra_missing(extra: str) -> str:
    """How to install an optional extra of this package, for a setting that needs it."""
    return f"the [{extra}] extra, which is not installed: pip install 'sizer[{extra}]' (make install has it)"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings; a malformed environment raises ``pydantic.ValidationError`` here."""
    return Settings()
