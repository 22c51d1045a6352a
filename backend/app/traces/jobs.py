"""Running a trace job: the analysis, its progress and outcome in the ``trace_jobs`` row.

The same :func:`execute` runs a job in an API process (:class:`LocalRunner`, a thread) and on a
Dask worker (:mod:`backend.app.traces.cluster`): it marks the job running, passes the analysis a
progress callback that writes the row at most every :data:`PROGRESS_EVERY_S` and reads
``cancel_requested`` back, then stores the result or the error. Everything a job needs travels
in a :class:`JobSpec` (picklable), so that a cluster worker needs only the database URL.

A job always ends. Whatever the analysis raises fails the job with a message; a NUL byte among
the lines it could not read fails it too (a text trace holds none: the file is binary or damaged,
and PostgreSQL stores no NUL in text or JSON); an outcome the database refuses is stored as a
failure saying so. An outcome is written only while the job is still queued or running, so a
job failed by the watchdog (:func:`fail_stalled`: no progress for ``stall_s``) or cancelled by a
``DELETE`` keeps that state, and its analysis stops at its next progress check.
"""

from __future__ import annotations

import logging
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, sessionmaker

from backend.app.tables import TRACE_JOB_ACTIVE, TraceJob, utcnow
from backend.app.traces.storage import TraceStore, open_url
from models.traces import MalformedTraceError, TraceAnalysis, TraceCancelled, TraceError, TraceOptions
from models.traces.analyze import analyze_trace

logger = logging.getLogger(__name__)

PROGRESS_EVERY_S = 0.5
"""Least time between two progress writes (and cancel checks) of a running job."""

ProgressFn = Callable[[float, int, float], None]
StopFn = Callable[[], bool]


@dataclass(frozen=True)
class TraceLimits:
    """Server limits on trace jobs (from the settings)."""

    max_text_bytes: int | None = None
    max_records: int | None = None
    queue_max: int = 8
    stall_s: float = 900.0
    max_cpu_s: float = 3600.0
    """CPU time [s] a job's analysis may use in its thread (checked at each progress report)."""


@dataclass(frozen=True)
class JobSpec:
    """What running a job needs, read from its row (see :func:`spec_of`)."""

    job_id: str
    trace_url: str
    size_bytes: int
    options: dict[str, Any]
    partitions: int = 1
    limits: TraceLimits = field(default_factory=TraceLimits)


def spec_of(job: TraceJob, store: TraceStore, limits: TraceLimits) -> JobSpec:
    return JobSpec(
        job_id=job.id,
        trace_url=job.source_url or store.upload_url(job.id),
        size_bytes=job.size_bytes,
        options=dict(job.options),
        partitions=job.partitions,
        limits=limits,
    )


Analysis = Callable[[JobSpec, ProgressFn, StopFn], TraceAnalysis]


def analyze_in_process(spec: JobSpec, progress: ProgressFn, should_stop: StopFn) -> TraceAnalysis:
    """The job's trace read from its URL and analysed here, in ``spec.partitions`` partitions."""
    with open_url(spec.trace_url) as stream, tempfile.TemporaryDirectory(prefix="sizer-trace-") as scratch:
        return analyze_trace(
            stream,
            TraceOptions(**spec.options),
            total_bytes=spec.size_bytes,
            progress=progress,
            should_stop=should_stop,
            scratch_dir=Path(scratch),
            max_text_bytes=spec.limits.max_text_bytes,
            max_records=spec.limits.max_records,
            partitions=spec.partitions,
        )


def execute(session_factory: sessionmaker[Session], spec: JobSpec, analysis: Analysis) -> None:
    """Run one job: mark it running, analyse with progress and cancel checks, store the outcome.
    Never raises: a failure to reach the database is logged (the watchdog ends the job later)."""
    try:
        _execute(session_factory, spec, analysis)
    except Exception:
        logger.exception("trace job %s could not be run or its outcome stored", spec.job_id)


def _execute(session_factory: sessionmaker[Session], spec: JobSpec, analysis: Analysis) -> None:
    job_id = spec.job_id
    with session_factory() as session:
        job = session.get(TraceJob, job_id)
        if job is None or job.status != "queued":  # deleted, cancelled or failed while it waited
            return
        if job.cancel_requested:
            _finish(session, job_id, Outcome("cancelled", error="cancelled before it started"))
            return
        # queued -> running only if it is still queued: a cancel (or delete) committed since the read
        # above wins, never overwritten by this start (the next upload then finds the slot free)
        started = session.execute(
            update(TraceJob)
            .where(TraceJob.id == job_id, TraceJob.status == "queued")
            .values(status="running", updated_at=utcnow())
            .execution_options(synchronize_session=False)
        )
        session.commit()
        if started.rowcount != 1:  # type: ignore[attr-defined]
            return
    last = [0.0]
    stop = [False]
    cpu_deadline = time.thread_time() + spec.limits.max_cpu_s

    def should_stop() -> bool:
        return stop[0]

    def progress(fraction: float, records: int, rate: float) -> None:
        if time.thread_time() > cpu_deadline:  # a gzip bomb capped in size can still cost hours
            raise TraceError(
                f"the analysis used more than {spec.limits.max_cpu_s:g} s of CPU time "
                f"({records:,} records read): TRACE_JOB_MAX_CPU_S"
            )
        now = time.monotonic()
        if now - last[0] < PROGRESS_EVERY_S and fraction < 1.0:
            return
        last[0] = now
        with session_factory() as s:
            s.execute(
                update(TraceJob)
                .where(TraceJob.id == job_id, TraceJob.status == "running")
                .values(
                    percent=round(100.0 * fraction, 2),
                    records=records,
                    records_per_s=rate,
                    updated_at=utcnow(),
                )
            )
            s.commit()
            row = s.execute(
                select(TraceJob.cancel_requested, TraceJob.status).where(TraceJob.id == job_id)
            ).first()
            stop[0] = row is None or bool(row.cancel_requested) or row.status != "running"

    store_outcome(session_factory, job_id, outcome_of(lambda: analysis(spec, progress, should_stop), job_id))


def outcome_of(run: Callable[[], TraceAnalysis], job_id: str) -> Outcome:
    """How ``run`` (the analysis) ended, whatever it raised."""
    try:
        result = run()
    except TraceCancelled:
        return Outcome("cancelled", error="cancelled")
    except MalformedTraceError as exc:
        return Outcome("failed", error=str(exc), detail={"bad_lines": [b.model_dump() for b in exc.samples]})
    except OSError as exc:  # its message names server paths: say what failed, log the rest
        logger.warning("trace job %s could not read its trace: %s", job_id, exc)
        return Outcome("failed", error=f"the trace could not be read ({exc.strerror or type(exc).__name__})")
    except (TraceError, ValueError) as exc:
        return Outcome("failed", error=str(exc))
    except Exception as exc:  # a bug: keep the job readable, log the traceback
        logger.exception("trace job %s failed", job_id)
        return Outcome("failed", error=f"internal error: {type(exc).__name__}")
    nul = [b for b in result.parse.malformed_samples if "\x00" in b.text]
    if nul:
        return Outcome(
            "failed",
            error=(
                f"line {nul[0].line:,} holds a NUL byte: a text trace has none (the file is binary or "
                f"damaged); {result.parse.malformed_lines:,} of {result.parse.lines:,} lines were unreadable"
            ),
            detail={"bad_lines": [b.model_dump() for b in result.parse.malformed_samples]},
        )
    return Outcome("done", result=result.model_dump(mode="json"), records=result.profile.records)


@dataclass(frozen=True)
class Outcome:
    """How a job ended: its status and, as the case may be, the error, the bad lines, the result."""

    status: str
    error: str | None = None
    detail: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    records: int | None = None


NUL_SHOWN_AS = "\u2400"
"""A NUL character in stored text (an error, a bad line) is shown as the symbol for NUL."""


def without_nul(value: Any) -> Any:
    """``value`` (a JSON document or text) with every NUL character shown as :data:`NUL_SHOWN_AS`."""
    if isinstance(value, str):
        return value.replace("\x00", NUL_SHOWN_AS)
    if isinstance(value, dict):
        return {without_nul(k): without_nul(v) for k, v in value.items()}
    if isinstance(value, list):
        return [without_nul(v) for v in value]
    return value


def store_outcome(session_factory: sessionmaker[Session], job_id: str, outcome: Outcome) -> None:
    """Write the outcome if the job is still queued or running; one the database refuses is
    stored as a failure naming the reason."""
    with session_factory() as session:
        try:
            _finish(session, job_id, outcome)
        except Exception as exc:  # the database or its driver refused the document
            session.rollback()
            logger.warning("trace job %s: outcome %s not stored: %s", job_id, outcome.status, exc)
            _finish(
                session,
                job_id,
                Outcome(
                    "failed",
                    error=f"the analysis ended ({outcome.status}) but the database refused its outcome",
                ),
            )


def _finish(session: Session, job_id: str, outcome: Outcome) -> None:
    values: dict[str, Any] = {
        "status": outcome.status,
        "error": without_nul(outcome.error),
        "error_detail": without_nul(outcome.detail),
        "result": without_nul(outcome.result),
        "updated_at": utcnow(),
    }
    if outcome.status == "done":
        values["percent"] = 100.0
    if outcome.records is not None:
        values["records"] = outcome.records
    session.execute(
        update(TraceJob).where(TraceJob.id == job_id, TraceJob.status.in_(TRACE_JOB_ACTIVE)).values(**values)
    )
    session.commit()


def fail_stalled(session: Session, stall_s: float) -> int:
    """The watchdog: fail the running jobs that reported no progress for ``stall_s``, and the
    queued ones waiting that long while no job made progress either; returns how many. Their
    analyses, if still alive, stop at their next progress check."""
    cutoff = utcnow() - timedelta(seconds=stall_s)
    moving = session.scalar(
        select(func.count())
        .select_from(TraceJob)
        .where(TraceJob.status == "running", TraceJob.updated_at >= cutoff)
    )
    stalled = TraceJob.status == "running"
    if not moving:
        stalled = TraceJob.status.in_(TRACE_JOB_ACTIVE)
    failed = session.execute(
        update(TraceJob)
        .where(stalled, TraceJob.updated_at < cutoff)
        .values(
            status="failed",
            error=f"no progress for {stall_s:g} s: stopped by the server's watchdog (TRACE_JOB_STALL_S)",
            updated_at=utcnow(),
        )
    )
    session.commit()
    return int(getattr(failed, "rowcount", 0) or 0)


class LocalRunner:
    """Runs analyses in this process, on a small thread pool (one at a time by default: the work
    is CPU-bound); the upload is read from the trace storage."""

    def __init__(
        self,
        session_factory: sessionmaker[Session],
        store: TraceStore,
        limits: TraceLimits | None = None,
        workers: int = 1,
    ) -> None:
        self.session_factory = session_factory
        self.store = store
        self.limits = limits or TraceLimits()
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="trace")

    def check(self) -> None:
        """Nothing to reach beyond the storage (checked by the caller)."""

    def worker_label(self, this_process: str) -> str:
        return this_process

    def submit(self, spec: JobSpec) -> None:
        self.pool.submit(execute, self.session_factory, spec, analyze_in_process)  # execute never raises

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
