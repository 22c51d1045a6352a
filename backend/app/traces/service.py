"""Trace jobs: uploads (or traces named by URL), their queue, their state in ``trace_jobs``.

The job row is written first (so no upload ever lies in the storage without its row: another
server process sweeping orphans sees it), then the upload into the trace storage
(:class:`~backend.app.traces.storage.TraceStore`: a local directory, or any fsspec URL shared by
every API process and Dask worker); its first megabyte is checked at once (a file that is not a
trace, or mostly malformed, is refused: :class:`TraceRejected` -> 400), and whatever fails before
the job is accepted removes the row and the folder again. A trace already in the storage can be
named by URL instead, with the same checks. At most ``settings.trace_queue_max`` jobs are queued
or running at once (:class:`QueueFull` -> 429 with ``Retry-After``); an unreachable storage or
Dask scheduler is a 503 before anything is created (:class:`Unavailable`).

A runner then analyses the trace: :class:`~backend.app.traces.jobs.LocalRunner` (a thread of
this process) or, with ``DASK_SCHEDULER_ADDRESS``, :class:`~backend.app.traces.cluster.DaskRunner`.
Progress, the result or the error are kept in the row, so a page reload, or another API process,
finds them. Each job records who runs it (:func:`this_worker`, or the Dask scheduler); when a
server process starts, the queued or running jobs whose process is gone were interrupted by a
restart and are marked failed, while those of another live worker process (``uvicorn --workers
N``) or of the cluster go on. ``DELETE`` sets ``cancel_requested``; the job checks it and stops.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import posixpath
import socket
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, BinaryIO, Protocol

import anyio
from pydantic import TypeAdapter, ValidationError
from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool

from backend.app.core import idempotency as idem
from backend.app.core.errors import InvalidInput, NotFound
from backend.app.core.owners import check_owner, token_digest
from backend.app.tables import TRACE_JOB_ACTIVE, IdempotencyKey, TraceJob, new_uuid, utcnow
from backend.app.traces.cluster import WORKER_PREFIX, SchedulerUnavailable
from backend.app.traces.jobs import JobSpec, TraceLimits, fail_stalled, spec_of
from backend.app.traces.schemas import TraceJob as TraceJobOut
from backend.app.traces.schemas import TraceJobCreated
from backend.app.traces.storage import StorageUnavailable, TraceStore
from models.traces import MalformedTraceError, TraceAnalysis, TraceError, TraceOptions
from models.traces.parse import sniff
from models.traces.records import BadLine
from models.traces.volumes import matches, names, no_match_message

logger = logging.getLogger(__name__)

SNIFF_BYTES = 1024 * 1024
"""Head of an upload checked before the job is accepted."""


class TraceRejected(Exception):
    """The upload is not a readable trace; ``body`` is the 400 response body."""

    def __init__(self, message: str, error: TraceError, volumes: list[str] | None = None) -> None:
        super().__init__(message)
        self.body: dict[str, Any] = {"detail": message}
        if volumes is not None:
            self.body["volumes"] = volumes
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


class Unavailable(Exception):
    """The trace storage or the Dask scheduler cannot be reached (-> 503, nothing created)."""


class Runner(Protocol):
    """Where jobs run: :class:`~backend.app.traces.jobs.LocalRunner` or
    :class:`~backend.app.traces.cluster.DaskRunner`."""

    store: TraceStore
    limits: TraceLimits

    def check(self) -> None: ...
    def worker_label(self, this_process: str) -> str: ...
    def submit(self, spec: JobSpec) -> None: ...
    def shutdown(self) -> None: ...


def check_reachable(runner: Runner) -> None:
    """Unavailable when the storage or the scheduler cannot be reached."""
    try:
        runner.store.check()
        runner.check()
    except (StorageUnavailable, SchedulerUnavailable) as exc:
        raise Unavailable(str(exc)) from exc


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
    """QueueFull when ``limits.queue_max`` live jobs are queued or running already (in any
    process); stalled jobs are failed first (:func:`~backend.app.traces.jobs.fail_stalled`), so
    they never hold a slot."""
    fail_stalled(session, limits.stall_s)
    active = session.scalar(
        select(func.count()).select_from(TraceJob).where(TraceJob.status.in_(TRACE_JOB_ACTIVE))
    )
    if active is not None and active >= limits.queue_max:
        raise QueueFull(active, RETRY_AFTER_S)


def _new_job(
    session: Session, runner: Runner, filename: str, options: TraceOptions, partitions: int | None
) -> TraceJob:
    """The job's row, committed (status queued, 0 bytes until its trace is accepted)."""
    job = TraceJob(
        id=new_uuid(),
        status="queued",
        filename=filename.replace("\x00", "")[:255],
        size_bytes=0,
        options=options.model_dump(mode="json"),
        percent=0.0,
        records=0,
        records_per_s=0.0,
        cancel_requested=False,
        worker=runner.worker_label(this_worker()),
        partitions=partitions or default_partitions(runner),
    )
    session.add(job)
    session.commit()
    return job


def default_partitions(runner: Runner) -> int:
    """One partition per worker thread on a cluster, one in this process."""
    count = getattr(runner, "default_partitions", None)
    return int(count()) if callable(count) else 1


def _check_head(head: bytes, options: TraceOptions) -> None:
    """TraceRejected when the head is not a trace, or the volume filter matches none of the
    volumes it holds (the 400 lists them)."""
    try:
        state = sniff(head, options.format)
    except TraceError as exc:
        raise TraceRejected(str(exc), exc) from exc
    present = names(state)
    if options.volumes and present and not any(matches(v, options.volumes) for v in present):
        message = no_match_message(options.volumes, present) + " (read from the first MiB)"
        raise TraceRejected(message, TraceError(message), volumes=present)


OPERATION = "traces.create"
"""The idempotent write of ``POST /traces`` (``core.idempotency``)."""
_CREATED = TypeAdapter(TraceJobCreated)


@dataclass(frozen=True)
class IdempotentWrite:
    """An ``Idempotency-Key`` sent with ``POST /traces``: the request's digest covers the options,
    the partitions and the trace (the body's bytes, or its URL), so it is known only once the
    body has been read."""

    key: str
    ttl_s: float
    client: str = ""

    def digest(self, options: TraceOptions, partitions: int | None) -> hashlib._Hash:
        h = hashlib.sha256()
        h.update(options.model_dump_json().encode())
        h.update(f"\npartitions={partitions}\n".encode())
        return h

    def bind(self, h: hashlib._Hash) -> idem.Idempotency:
        return idem.Idempotency(OPERATION, self.key, h.hexdigest(), self.ttl_s, self.client)

    def known(self, session: Session) -> bool:
        """Whether an unexpired answer is stored under this key."""
        row = session.get(
            IdempotencyKey, idem.Idempotency(OPERATION, self.key, "", self.ttl_s, self.client).key_digest
        )
        return row is not None and utcnow() - row.created_at <= timedelta(seconds=self.ttl_s)


async def submit(
    session: Session,
    runner: Runner,
    chunks: AsyncIterator[bytes],
    filename: str,
    options: TraceOptions,
    partitions: int | None = None,
    write: IdempotentWrite | None = None,
) -> tuple[TraceJobCreated, bool]:
    """Store the upload, check its head, queue the analysis; TraceRejected if it is not a trace.
    Returns the answer and whether it replays an earlier one (the same ``Idempotency-Key`` and
    request: the body is read and hashed, not stored; another request under the key is a 409).
    The caller checks the queue and the storage first (:func:`check_queue`,
    :func:`check_reachable`: before the body is read). The row goes in first; whatever fails
    before the job is accepted (a bad file, a client gone, the database) takes the row and the
    folder away. Every database, storage and hashing call runs in a worker thread: a database
    that stops answering never stalls the event loop (it froze the server for about 6 s per
    upload)."""
    h = write.digest(options, partitions) if write else None
    if write is not None and h is not None and await run_in_threadpool(write.known, session):
        async for data in chunks:
            await run_in_threadpool(h.update, data)
        first = await run_in_threadpool(idem.replay, session, write.bind(h), _CREATED, _job_exists(session))
        if first is not None:
            return first, True
        # the answer expired while the body was read (it was just dropped): the body is gone
        await run_in_threadpool(session.commit)
        raise Unavailable("the Idempotency-Key's answer expired during the upload: send it again")
    job = await run_in_threadpool(_new_job, session, runner, filename, options, partitions)
    try:
        head = bytearray()
        size = 0
        out = await run_in_threadpool(runner.store.open_upload, job.id)
        try:
            async for data in chunks:
                await run_in_threadpool(_store_chunk, out, h, data)
                size += len(data)
                if len(head) < SNIFF_BYTES:
                    head.extend(data[: SNIFF_BYTES - len(head)])
        finally:
            with anyio.CancelScope(shield=True):
                await run_in_threadpool(out.close)
        if size == 0:
            raise TraceRejected("the upload is empty", TraceError("empty"))
        await run_in_threadpool(_check_head, bytes(head), options)
        job.size_bytes = size
    except BaseException:
        with anyio.CancelScope(shield=True):  # also when the client went away
            await run_in_threadpool(_discard, session, runner.store, job.id)
        raise
    return await run_in_threadpool(_accept, session, runner, job, write.bind(h) if write and h else None)


def _store_chunk(out: BinaryIO, h: hashlib._Hash | None, data: bytes) -> None:
    out.write(data)
    if h is not None:
        h.update(data)


def _accept(
    session: Session, runner: Runner, job: TraceJob, idempotency: idem.Idempotency | None
) -> tuple[TraceJobCreated, bool]:
    """Commit the job with its remembered answer and hand it to the runner: ``(answer, replayed)``.
    When a concurrent write under the same key committed first, its answer (and this job goes);
    whatever fails removes the job and its folder."""
    accepted = False
    try:
        owner_token = idem.owner_token(idempotency, job.id)
        job.owner_token_hash = token_digest(owner_token)
        created = TraceJobCreated(id=job.id, status="queued", owner_token=owner_token)
        idem.remember(session, idempotency, 202, created)
        first = idem.commit(session, idempotency, _CREATED)
        if first is not None:
            return first, True
        _hand_over(runner, job)
        accepted = True
        return created, False
    finally:
        if not accepted:
            _discard(session, runner.store, job.id)


def _job_exists(session: Session) -> Callable[[str], bool]:
    """Whether a job is still there (an idempotent replay of a deleted one is 410)."""
    return lambda job_id: session.get(TraceJob, job_id) is not None


def _hand_over(runner: Runner, job: TraceJob) -> None:
    """Give the job to its runner; Unavailable when the scheduler does not take it."""
    try:
        runner.submit(spec_of(job, runner.store, runner.limits))
    except SchedulerUnavailable as exc:
        raise Unavailable(str(exc)) from exc


def submit_url(
    session: Session,
    runner: Runner,
    url: str,
    options: TraceOptions,
    max_bytes: int,
    partitions: int | None = None,
    write: IdempotentWrite | None = None,
) -> tuple[TraceJobCreated, bool]:
    """Queue the analysis of a trace already in the storage, named by URL; InvalidInput at
    ``source_url`` for a URL the store refuses (another protocol, a chained URL, outside the
    root: checked as text before anything opens it), a missing object or one too large. The
    trace is read in the job only (a file that is not a trace fails the job). With an
    ``Idempotency-Key``, the request is the options and the URL. Blocking: call it in a thread."""
    idempotency = None
    if write is not None:
        h = write.digest(options, partitions)
        h.update(f"source_url={url}".encode())
        idempotency = write.bind(h)
        first = idem.replay(session, idempotency, _CREATED, _job_exists(session))
        if first is not None:
            return first, True
    try:
        full_url, size = runner.store.resolve(url)
    except ValueError as exc:
        raise InvalidInput.at(("query", "source_url"), str(exc), "value_error") from exc
    if size == 0:
        raise TraceRejected("the trace is empty", TraceError("empty"))
    if size > max_bytes:
        raise InvalidInput.at(
            ("query", "source_url"),
            f"the trace is {size:,} bytes, more than the limit of {max_bytes:,}",
            "too_large",
        )
    job = _new_job(session, runner, posixpath.basename(full_url), options, partitions)
    job.source_url = full_url
    job.size_bytes = size
    return _accept(session, runner, job, idempotency)


def check_source_url(store: TraceStore, url: str) -> None:
    """InvalidInput at ``source_url`` when the store refuses the URL as text (no I/O: see
    :meth:`TraceStore.path_of`)."""
    try:
        store.path_of(url)
    except ValueError as exc:
        raise InvalidInput.at(("query", "source_url"), str(exc), "url_not_allowed") from exc


def _discard(session: Session, store: TraceStore, job_id: str) -> None:
    """Remove a job that was not accepted: its folder, then its row (best effort: a database
    that is down leaves the row, which the start-up check removes as an unfinished upload)."""
    with contextlib.suppress(Exception):
        store.remove(job_id)
    try:
        session.rollback()
        session.execute(delete(TraceJob).where(TraceJob.id == job_id))
        session.commit()
    except SQLAlchemyError as exc:
        logger.warning("could not remove the row of refused trace upload %s: %s", job_id, exc)


def sweep_orphans(session_factory: sessionmaker[Session], store: TraceStore) -> int:
    """Remove upload folders that have no job row (left by a process killed between removing a
    row and its folder, or by older versions); returns how many. Skipped when the database or
    the storage is down: an unreadable table must not look empty."""
    try:
        with session_factory() as session:
            known = set(session.scalars(select(TraceJob.id)))
        folders = store.job_ids()
    except (SQLAlchemyError, OSError) as exc:
        logger.warning("could not sweep orphaned trace uploads at start-up: %s", exc)
        return 0
    orphans = [job_id for job_id in folders if job_id not in known]
    for job_id in orphans:
        store.remove(job_id)
    return len(orphans)


def get(session: Session, job_id: str, stall_s: float | None = None) -> TraceJobOut:
    """The job; with ``stall_s``, a live job with no progress for that long is failed first."""
    job = session.get(TraceJob, job_id)
    if job is None:
        raise NotFound("trace job", job_id)
    if stall_s is not None and job.status in TRACE_JOB_ACTIVE and fail_stalled(session, stall_s):
        session.refresh(job)
    detail = job.error_detail or {}
    return TraceJobOut(
        id=job.id,
        status=job.status,  # type: ignore[arg-type]
        filename=job.filename,
        source_url=job.source_url,
        partitions=job.partitions,
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


def cancel(session: Session, store: TraceStore, job_id: str, owner_token: str | None) -> TraceJobOut | None:
    """``DELETE``: end a job whatever its state. A queued job is cancelled at once; a running
    one is asked to stop (``cancel_requested``: it stops at its next progress check), and
    cancelled at once when asked again (a job that does not stop never holds its slot); a
    finished job is deleted with its files.

    Needs the job's owner token (:class:`Forbidden` otherwise). Returns the job for one that
    was queued or running, None when it was deleted.
    """
    job = session.get(TraceJob, job_id)
    if job is None:
        raise NotFound("trace job", job_id)
    check_owner(job.owner_token_hash, owner_token, f"trace job {job_id}")
    if job.status in TRACE_JOB_ACTIVE:
        if job.status == "queued" or job.cancel_requested:
            job.error = "cancelled" if job.status == "queued" else "cancelled (the analysis had not stopped)"
            job.status = "cancelled"
        job.cancel_requested = True
        job.updated_at = utcnow()
        session.commit()
        return get(session, job_id)
    session.delete(job)
    session.commit()
    store.remove(job_id)  # the job's folder: a trace named by URL stays where it was
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


def mark_interrupted(session_factory: sessionmaker[Session], store: TraceStore | None = None) -> int:
    """Jobs left queued or running by a server process that is gone are failed; returns how many.
    Those whose upload had not finished (``size_bytes`` 0: the client never had a 202) are
    removed with their folder instead.

    Jobs of a live worker process (another ``uvicorn`` worker of this server) or of the Dask
    cluster (they do not depend on any API process) are left alone. A
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
            dead = [
                (job_id, size)
                for job_id, worker, size in active
                if not (worker or "").startswith(WORKER_PREFIX) and not worker_alive(worker)
            ]
            gone = [job_id for job_id, size in dead if size > 0]
            uploading = [job_id for job_id, size in dead if size == 0]
            if uploading:
                session.execute(delete(TraceJob).where(TraceJob.id.in_(uploading)))
                for job_id in uploading:
                    if store is not None:
                        with contextlib.suppress(Exception):
                            store.remove(job_id)
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
