"""Running a trace job: the analysis, its progress and outcome in the ``trace_jobs`` row.

The same :func:`execute` runs a job in an API process (:class:`LocalRunner`, a thread) and on a
Dask worker (:mod:`backend.app.traces.cluster`): it marks the job running, passes the analysis a
progress callback that writes the row at most every :data:`PROGRESS_EVERY_S` and reads
``cancel_requested`` back, then stores the result or the error. Everything a job needs travels
in a :class:`JobSpec` (picklable), so that a cluster worker needs only the database URL.
"""

from __future__ import annotations

import logging
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from backend.app.tables import TraceJob, utcnow
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
    """Run one job: mark it running, analyse with progress and cancel checks, store the outcome."""
    job_id = spec.job_id
    with session_factory() as session:
        job = session.get(TraceJob, job_id)
        if job is None:
            return
        if job.cancel_requested:
            _finish(session, job, Outcome("cancelled", error="cancelled before it started"))
            return
        job.status = "running"
        job.updated_at = utcnow()
        session.commit()
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
        result = analysis(spec, progress, should_stop)
    except TraceCancelled:
        outcome = Outcome("cancelled", error="cancelled")
    except MalformedTraceError as exc:
        outcome = Outcome(
            "failed", error=str(exc), detail={"bad_lines": [b.model_dump() for b in exc.samples]}
        )
    except (TraceError, ValueError, OSError) as exc:
        outcome = Outcome("failed", error=str(exc))
    except Exception as exc:  # a bug: keep the job readable, log the traceback
        logger.exception("trace job %s failed", job_id)
        outcome = Outcome("failed", error=f"internal error: {type(exc).__name__}")
    else:
        outcome = Outcome("done", result=result.model_dump(mode="json"), records=result.profile.records)
    store_outcome(session_factory, job_id, outcome)


@dataclass(frozen=True)
class Outcome:
    """How a job ended: its status and, as the case may be, the error, the bad lines, the result."""

    status: str
    error: str | None = None
    detail: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    records: int | None = None


def store_outcome(session_factory: sessionmaker[Session], job_id: str, outcome: Outcome) -> None:
    with session_factory() as session:
        job = session.get(TraceJob, job_id)
        if job is not None:
            _finish(session, job, outcome)


def _finish(session: Session, job: TraceJob, outcome: Outcome) -> None:
    job.status = outcome.status
    job.error = outcome.error
    job.error_detail = outcome.detail
    job.result = outcome.result
    if outcome.status == "done":
        job.percent = 100.0
    if outcome.records is not None:
        job.records = outcome.records
    job.updated_at = utcnow()
    session.commit()


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
        self.pool.submit(execute, self.session_factory, spec, analyze_in_process)

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
