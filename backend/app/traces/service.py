"""Trace uploads and their background analysis (:func:`models.traces.analyze_trace`).

The job row is written first (so no upload ever lies on disk without its row: another server
process sweeping orphans sees it), then the upload under ``settings.traces_dir/<id>/``; its
first megabyte is checked at once (a file that is not a trace, or mostly malformed, is refused:
:class:`TraceRejected` -> 400), and whatever fails before the job is accepted removes the row
and the folder again. At most ``settings.trace_queue_max`` jobs are queued or running at once
(:class:`QueueFull` -> 429 with ``Retry-After``). Then a worker thread analyses the upload, with
limits on the decompressed text and the records (a gzip bomb is refused at the cap). Progress, the result or the error are kept in the ``trace_jobs``
table, so a page reload finds them. Each job records the server process that runs it
(:func:`this_worker`); when a server process starts, the queued or running jobs whose process is
gone were interrupted by a restart and are marked failed, while those of another live worker
process (``uvicorn --workers N``) go on. ``DELETE`` sets ``cancel_requested``; the worker checks
it between chunks and stops.
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
import threading
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from backend.app.core.errors import InvalidInput, NotFound
from backend.app.tables import TRACE_JOB_ACTIVE, TraceJob, new_uuid, utcnow
from backend.app.traces.schemas import TraceJob as TraceJobOut
from backend.app.traces.schemas import TraceJobCreated
from models.traces import MalformedTraceError, TraceAnalysis, TraceCancelled, TraceError, TraceOptions
from models.traces.analyze import analyze_trace
from models.traces.parse import sniff
from models.traces.records import BadLine

logger = logging.getLogger(__name__)

SNIFF_BYTES = 1024 * 1024
"""Head of an upload checked before the job is accepted."""
PROGRESS_EVERY_S = 0.5
"""Least time between two progress writes (and cancel checks) of a running job."""
UPLOAD_NAME = "upload"


class TraceRejected(Exception):
    """The upload is not a readable trace; ``body`` is the 400 response body."""

    def __init__(self, message: str, error: TraceError) -> None:
        super().__init__(message)
        self.body: dict[str, Any] = {"detail": message}
        if isinstance(error, MalformedTraceError):
            self.body.update(
                format=error.format.value,
                malformed_lines=error.malformed,
                lines=error.lines,
                bad_lines=[b.model_dump() for b in error.samples],
            )


class QueueFull(Exception):
    """Too many trace jobs are queued or running; ``retry_after_s`` is a fair wait before trying again."""

    def __init__(self, active: int, retry_after_s: int) -> None:
        super().__init__(
            f"{active} trace analyses are queued or running (the server's limit): try again later"
        )
        self.retry_after_s = retry_after_s


RETRY_AFTER_S = 30
"""Suggested wait when the trace queue is full [s]: about one analysis of a few million records."""


@dataclass(frozen=True)
class TraceLimits:
    """Server limits on trace jobs (from the settings)."""

    max_text_bytes: int | None = None
    max_records: int | None = None
    queue_max: int = 8


class TraceRunner:
    """Runs analyses on a small thread pool (one at a time by default: the work is CPU-bound)."""

    def __init__(
        self,
        session_factory: sessionmaker[Session],
        traces_dir: Path,
        workers: int = 1,
        limits: TraceLimits | None = None,
    ) -> None:
        self.session_factory = session_factory
        self.traces_dir = traces_dir
        self.limits = limits or TraceLimits()
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="trace")
        self.lock = threading.Lock()

    def submit(self, job_id: str) -> None:
        self.pool.submit(run_job, self.session_factory, self.traces_dir, job_id, self.limits)

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def parse_options(values: dict[str, Any]) -> TraceOptions:
    for name, value in values.items():
        if isinstance(value, str) and "\x00" in value:
            field = "name" if name == "workload_name" else name
            raise InvalidInput.at(("query", field), "must not contain a NUL character", "string_nul")
    try:
        return TraceOptions(**{k: v for k, v in values.items() if v is not None})
    except ValidationError as exc:
        raise InvalidInput(
            [(("query", *map(str, e["loc"])), e["msg"], e["type"]) for e in exc.errors()]
        ) from exc


def check_queue(session: Session, limits: TraceLimits) -> None:
    """QueueFull when ``limits.queue_max`` jobs are queued or running already (in any process)."""
    active = session.scalar(
        select(func.count()).select_from(TraceJob).where(TraceJob.status.in_(TRACE_JOB_ACTIVE))
    )
    if active is not None and active >= limits.queue_max:
        raise QueueFull(active, RETRY_AFTER_S)


async def submit(
    session: Session,
    runner: TraceRunner,
    chunks: AsyncIterator[bytes],
    filename: str,
    options: TraceOptions,
) -> TraceJobCreated:
    """Store the upload, check its head, queue the analysis; TraceRejected if it is not a trace;
    the caller checks the queue first (:func:`check_queue`, before the body is read). The row
    goes in first; whatever fails before the job is accepted (a bad file, a client gone, the
    database) takes the row and the folder away."""
    job = TraceJob(
        id=new_uuid(),
        status="queued",
        filename=filename.replace("\x00", "")[:255],
        size_bytes=0,  # 0 until the upload is complete (an empty upload is refused)
        options=options.model_dump(mode="json"),
        percent=0.0,
        records=0,
        records_per_s=0.0,
        cancel_requested=False,
        worker=this_worker(),
    )
    session.add(job)
    session.commit()
    job_dir = runner.traces_dir / job.id
    accepted = False
    try:
        job_dir.mkdir(parents=True, exist_ok=True)
        path = job_dir / UPLOAD_NAME
        head = bytearray()
        size = 0
        with path.open("wb") as out:
            async for data in chunks:
                out.write(data)
                size += len(data)
                if len(head) < SNIFF_BYTES:
                    head.extend(data[: SNIFF_BYTES - len(head)])
        if size == 0:
            raise TraceRejected("the upload is empty", TraceError("empty"))
        try:
            sniff(bytes(head), options.format)
        except TraceError as exc:
            raise TraceRejected(str(exc), exc) from exc
        job.size_bytes = size
        session.commit()
        accepted = True
    finally:
        if not accepted:
            _discard(session, job.id, job_dir)
    runner.submit(job.id)
    return TraceJobCreated(id=job.id, status="queued")


def _discard(session: Session, job_id: str, job_dir: Path) -> None:
    """Remove a job that was not accepted: its folder, then its row (best effort: a database
    that is down leaves the row, which the start-up check fails as interrupted)."""
    shutil.rmtree(job_dir, ignore_errors=True)
    try:
        session.rollback()
        session.execute(delete(TraceJob).where(TraceJob.id == job_id))
        session.commit()
    except SQLAlchemyError as exc:
        logger.warning("could not remove the row of refused trace upload %s: %s", job_id, exc)


def sweep_orphans(session_factory: sessionmaker[Session], traces_dir: Path) -> int:
    """Remove upload folders that have no job row (left by a process killed between removing a
    row and its folder, or by older versions); returns how many. Skipped when the database is
    down: an unreadable table must not look empty."""
    if not traces_dir.is_dir():
        return 0
    try:
        with session_factory() as session:
            known = set(session.scalars(select(TraceJob.id)))
    except SQLAlchemyError as exc:
        logger.warning("could not sweep orphaned trace uploads at start-up: %s", exc)
        return 0
    removed = 0
    for entry in traces_dir.iterdir():
        if entry.is_dir() and entry.name not in known:
            shutil.rmtree(entry, ignore_errors=True)
            removed += 1
    return removed


def get(session: Session, job_id: str) -> TraceJobOut:
    job = session.get(TraceJob, job_id)
    if job is None:
        raise NotFound("trace job", job_id)
    detail = job.error_detail or {}
    return TraceJobOut(
        id=job.id,
        status=job.status,  # type: ignore[arg-type]
        filename=job.filename,
        size_bytes=job.size_bytes,
        percent=job.percent,
        records=job.records,
        records_per_s=job.records_per_s,
        cancel_requested=job.cancel_requested,
        error=job.error,
        bad_lines=[BadLine(**b) for b in detail.get("bad_lines", [])],
        created_at=job.created_at,
        updated_at=job.updated_at,
        result=TraceAnalysis.model_validate(job.result) if job.result is not None else None,
    )


def cancel(session: Session, runner: TraceRunner, job_id: str) -> TraceJobOut | None:
    """Ask a queued or running job to stop (its status follows); delete a finished job and its files.

    Returns the job for an active one, None when it was deleted.
    """
    job = session.get(TraceJob, job_id)
    if job is None:
        raise NotFound("trace job", job_id)
    if job.status in TRACE_JOB_ACTIVE:
        job.cancel_requested = True
        job.updated_at = utcnow()
        session.commit()
        return get(session, job_id)
    session.delete(job)
    session.commit()
    shutil.rmtree(runner.traces_dir / job_id, ignore_errors=True)
    return None


def _process_start(pid: int) -> str | None:
    """Start time of process ``pid`` in clock ticks since boot (Linux ``/proc``), None if none."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def this_worker() -> str:
    """``host/pid/start time`` of this server process: unique while it lives, and a pid reused
    after a restart has another start time."""
    pid = os.getpid()
    return f"{socket.gethostname()}/{pid}/{_process_start(pid) or '?'}"


def worker_alive(worker: str | None) -> bool:
    """Whether ``worker`` (from :func:`this_worker`) is a process still running on this host.

    Unknown (None, another host, no ``/proc``) counts as gone: the app runs on one host, and a
    re-created container has a new host name while its old processes are gone.
    """
    if not worker:
        return False
    host, _, rest = worker.partition("/")
    pid, _, started = rest.partition("/")
    if host != socket.gethostname() or not pid.isdigit() or started == "?":
        return False
    return _process_start(int(pid)) == started


def mark_interrupted(session_factory: sessionmaker[Session], traces_dir: Path | None = None) -> int:
    """Jobs left queued or running by a server process that is gone are failed; returns how many.
    Those whose upload had not finished (``size_bytes`` 0: the client never had a 202) are
    removed with their folder instead.

    Jobs of a live worker process (another ``uvicorn`` worker of this server) are left alone. A
    database that is down (or not migrated) at start-up is logged and skipped: the app still
    starts and reports the database in ``/health``.
    """
    try:
        with session_factory() as session:
            active = session.execute(
                select(TraceJob.id, TraceJob.worker, TraceJob.size_bytes).where(
                    TraceJob.status.in_(TRACE_JOB_ACTIVE)
                )
            ).all()
            dead = [(job_id, size) for job_id, worker, size in active if not worker_alive(worker)]
            gone = [job_id for job_id, size in dead if size > 0]
            uploading = [job_id for job_id, size in dead if size == 0]
            if uploading:
                session.execute(delete(TraceJob).where(TraceJob.id.in_(uploading)))
                for job_id in uploading:
                    if traces_dir is not None:
                        shutil.rmtree(traces_dir / job_id, ignore_errors=True)
            if gone:
                session.execute(
                    update(TraceJob)
                    .where(TraceJob.id.in_(gone), TraceJob.status.in_(TRACE_JOB_ACTIVE))
                    .values(status="failed", error="interrupted by a server restart", updated_at=utcnow())
                )
            session.commit()
            return len(gone)
    except SQLAlchemyError as exc:
        logger.warning("could not mark interrupted trace jobs at start-up: %s", exc)
        return 0


def run_job(
    session_factory: sessionmaker[Session], traces_dir: Path, job_id: str, limits: TraceLimits | None = None
) -> None:
    """The worker: analyse the stored upload, writing progress, then the result or the error."""
    job_dir = traces_dir / job_id
    with session_factory() as session:
        job = session.get(TraceJob, job_id)
        if job is None:
            return
        if job.cancel_requested:
            _finish(session, job, "cancelled", error="cancelled before it started")
            return
        job.status = "running"
        job.updated_at = utcnow()
        session.commit()
        options = TraceOptions(**job.options)
        size = job.size_bytes
    last = [0.0]
    stop = [False]

    def should_stop() -> bool:
        return stop[0]

    def progress(fraction: float, records: int, rate: float) -> None:
        now = time.monotonic()
        if now - last[0] < PROGRESS_EVERY_S and fraction < 1.0:
            return
        last[0] = now
        with session_factory() as s:
            s.execute(
                update(TraceJob)
                .where(TraceJob.id == job_id)
                .values(
                    percent=round(100.0 * fraction, 2),
                    records=records,
                    records_per_s=rate,
                    updated_at=utcnow(),
                )
            )
            s.commit()
            stop[0] = bool(s.scalar(select(TraceJob.cancel_requested).where(TraceJob.id == job_id)))

    try:
        with (job_dir / UPLOAD_NAME).open("rb") as stream:
            analysis = analyze_trace(
                stream,
                options,
                total_bytes=size,
                progress=progress,
                should_stop=should_stop,
                scratch_dir=job_dir,
                max_text_bytes=limits.max_text_bytes if limits else None,
                max_records=limits.max_records if limits else None,
            )
    except TraceCancelled:
        _store(session_factory, job_id, "cancelled", error="cancelled")
    except MalformedTraceError as exc:
        _store(
            session_factory,
            job_id,
            "failed",
            error=str(exc),
            detail={"bad_lines": [b.model_dump() for b in exc.samples]},
        )
    except (TraceError, ValueError) as exc:
        _store(session_factory, job_id, "failed", error=str(exc))
    except Exception as exc:  # a bug: keep the job readable, log the traceback
        logger.exception("trace job %s failed", job_id)
        _store(session_factory, job_id, "failed", error=f"internal error: {type(exc).__name__}")
    else:
        _store(
            session_factory,
            job_id,
            "done",
            result=analysis.model_dump(mode="json"),
            records=analysis.profile.records,
        )


def _store(
    session_factory: sessionmaker[Session],
    job_id: str,
    status: str,
    error: str | None = None,
    detail: dict[str, Any] | None = None,
    result: dict[str, Any] | None = None,
    records: int | None = None,
) -> None:
    with session_factory() as session:
        job = session.get(TraceJob, job_id)
        if job is not None:
            _finish(session, job, status, error, detail, result, records)


def _finish(
    session: Session,
    job: TraceJob,
    status: str,
    error: str | None = None,
    detail: dict[str, Any] | None = None,
    result: dict[str, Any] | None = None,
    records: int | None = None,
) -> None:
    job.status = status
    job.error = error
    job.error_detail = detail
    job.result = result
    if status == "done":
        job.percent = 100.0
    if records is not None:
        job.records = records
    job.updated_at = utcnow()
    session.commit()
