"""``/traces``: upload a block I/O trace, follow its analysis, get the result, cancel it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, FastAPI, Header, Path, Query, Request, Response, status
from fastapi.responses import JSONResponse
from pydantic import StringConstraints
from starlette.concurrency import run_in_threadpool

from backend.app.core.config import Settings
from backend.app.core.deps import SessionDep
from backend.app.core.idempotency import REPLAYED_HEADER, IdempotencyKeyHeader
from backend.app.core.ratelimit import WriteQuota, client_of
from backend.app.core.uploads import UPLOAD_BODY, body_chunks
from backend.app.schemas import error_responses
from backend.app.traces import service
from backend.app.traces.cluster import DaskRunner
from backend.app.traces.jobs import LocalRunner, TraceLimits
from backend.app.traces.schemas import TraceJob, TraceJobCreated, TraceRejection
from backend.app.traces.storage import TraceStore
from models.traces import TraceFormat

CachePolicy = Literal["arc", "s3fifo", "fifo", "lirs"]
BLOCK_KIB = [4, 8, 16, 32, 64, 128, 256, 512, 1024]
"""The cache block sizes :class:`models.traces.TraceOptions` takes: powers of two, 4 to 1024 KiB
(an enum in the schema; the options check it, so another number is a 422 at ``query.block_kib``)."""


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """At start-up, fail the jobs a previous process left running and remove upload folders
    without a job; at shutdown, stop the workers."""
    store = trace_store(app.state.settings)
    service.mark_interrupted(app.state.session_factory, store)
    service.sweep_orphans(app.state.session_factory, store)
    yield
    runner = getattr(app.state, "trace_runner", None)
    if runner is not None:
        runner.shutdown()


router = APIRouter(prefix="/traces", tags=["traces"], responses=error_responses(503), lifespan=lifespan)

JobId = Annotated[str, Path(min_length=1, max_length=36, description="trace job id")]


def trace_store(settings: Settings) -> TraceStore:
    """The trace storage: ``TRACES_URL``, else the local ``TRACES_DIR``."""
    return TraceStore(settings.traces_url or str(settings.traces_dir))


def get_runner(request: Request) -> service.Runner:
    """This app's runner: on the Dask cluster when ``DASK_SCHEDULER_ADDRESS`` is set, else here."""
    app = request.app
    runner: service.Runner | None = getattr(app.state, "trace_runner", None)
    if runner is None:
        settings: Settings = app.state.settings
        limits = TraceLimits(
            max_text_bytes=settings.max_trace_text_bytes,
            max_records=settings.max_trace_records,
            queue_max=settings.trace_queue_max,
            stall_s=settings.trace_job_stall_s,
            max_cpu_s=settings.trace_job_max_cpu_s,
        )
        store = trace_store(settings)
        if settings.dask_scheduler_address:
            runner = DaskRunner(
                settings.dask_scheduler_address,
                settings.database_url,
                store,
                limits,
                connect_timeout_s=settings.dask_connect_timeout_s,
            )
        else:
            runner = LocalRunner(app.state.session_factory, store, limits)
        app.state.trace_runner = runner
    return runner


RunnerDep = Annotated[service.Runner, Depends(get_runner)]


@router.post(
    "",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=TraceJobCreated,
    openapi_extra=UPLOAD_BODY,
    dependencies=[Depends(WriteQuota("traces"))],
    responses={
        400: {"model": TraceRejection, "description": "Not a readable trace"},
        409: {"description": "The Idempotency-Key was used for another request"},
        429: {
            "description": "Too many trace analyses queued or running, or this client's write quota is used up; see Retry-After"
        },
        503: {"description": "The trace storage or the Dask scheduler is unreachable; nothing was created"},
        **error_responses(410),
    },
)
async def create(
    request: Request,
    session: SessionDep,
    runner: RunnerDep,
    format: Annotated[TraceFormat | None, Query(description="default: detect")] = None,
    interval_s: Annotated[
        float | None, Query(ge=1.0, le=3600.0, description="profile interval [s], 1-3600, default 60")
    ] = None,
    block_kib: Annotated[
        int | None,
        Query(
            json_schema_extra={"enum": BLOCK_KIB},
            description="cache block [KiB], a power of two 4-1024, default 4",
        ),
    ] = None,
    warmup_s: Annotated[float | None, Query(ge=0.0, description="cache warm-up excluded [s]")] = None,
    latency_target_ms: Annotated[
        float | None, Query(gt=0.0, le=10_000.0, description="latency target [ms], default 10")
    ] = None,
    capacity_gb: Annotated[
        float | None, Query(gt=0.0, description="volume capacity [GB]; default the footprint")
    ] = None,
    name: Annotated[
        str | None, Query(min_length=1, max_length=80, description="name of the derived workload")
    ] = None,
    policies: Annotated[
        list[CachePolicy] | None,
        Query(max_length=4, description="cache policies simulated beside LRU (libCacheSim); none by default"),
    ] = None,
    volumes: Annotated[
        list[Annotated[str, StringConstraints(min_length=1, max_length=200)]] | None,
        Query(
            max_length=1000, description="volumes to keep: a volume's name, or a host for all of its volumes"
        ),
    ] = None,
    partitions: Annotated[
        int | None,
        Query(
            ge=1,
            le=256,
            description="partitions of the block keys (default: one per Dask worker thread, or 1)",
        ),
    ] = None,
    source_url: Annotated[
        str | None,
        Query(
            min_length=1,
            max_length=2000,
            description=(
                "a trace already in the trace storage, instead of a body: a URL of the storage's own "
                "scheme under its root (no other protocol, no chained '::' URL; 422 otherwise)"
            ),
        ),
    ] = None,
    idempotency_key: IdempotencyKeyHeader = None,
) -> Response:
    """Upload a trace (multipart field ``file`` or the raw body, gzip or not), or name one already
    in the trace storage (``source_url``); 202 with the job id. With an ``Idempotency-Key``, a
    retry with the same options and trace gets the first answer (``Idempotent-Replayed: true``),
    and the key with another request is a 409; a retry after the job was deleted is a 410. The
    answer's ``owner_token`` is needed to cancel or delete the job."""
    options = service.parse_options(
        {
            "format": format,
            "interval_s": interval_s,
            "block_kib": block_kib,
            "warmup_s": warmup_s,
            "latency_target_ms": latency_target_ms,
            "capacity_gb": capacity_gb,
            "workload_name": name,
            "policies": policies,
            "volumes": volumes,
        }
    )
    settings: Settings = request.app.state.settings
    write = (
        service.IdempotentWrite(idempotency_key, settings.idempotency_ttl_s, client_of(request))
        if idempotency_key
        else None
    )
    if source_url is not None:
        service.check_source_url(runner.store, source_url)  # as text, before anything opens it
    try:
        await run_in_threadpool(service.check_queue, session, runner.limits)  # before reading the body
        await run_in_threadpool(service.check_reachable, runner)
        if source_url is not None:
            created, replayed = await run_in_threadpool(
                service.submit_url,
                session,
                runner,
                source_url,
                options,
                settings.max_trace_bytes,
                partitions,
                write,
            )
        else:
            chunks, filename = await body_chunks(request, "trace")
            created, replayed = await service.submit(
                session, runner, chunks, filename, options, partitions, write
            )
    except service.Unavailable as exc:
        return JSONResponse({"detail": str(exc)}, status_code=status.HTTP_503_SERVICE_UNAVAILABLE)
    except service.TraceRejected as exc:
        return JSONResponse(exc.body, status_code=status.HTTP_400_BAD_REQUEST)
    except service.QueueFull as exc:
        return JSONResponse(
            {"detail": str(exc)},
            status_code=status.HTTP_429_TOO_MANY_REQUESTS,
            headers={"Retry-After": str(exc.retry_after_s)},
        )
    headers = {REPLAYED_HEADER: "true"} if replayed else None
    return JSONResponse(created.model_dump(), status_code=status.HTTP_202_ACCEPTED, headers=headers)


@router.get("/{job_id}", responses=error_responses(404))
def get(request: Request, session: SessionDep, job_id: JobId) -> TraceJob:
    """Status and progress (% and records/s); with the analysis once done. A job with no
    progress for ``TRACE_JOB_STALL_S`` is failed by the watchdog."""
    return service.get(session, job_id, request.app.state.settings.trace_job_stall_s)


@router.delete(
    "/{job_id}",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=TraceJob,
    responses={
        204: {"description": "A finished job and its upload were deleted"},
        **error_responses(403, 404, 429),
    },
    dependencies=[Depends(WriteQuota("traces"))],
)
def delete(
    session: SessionDep,
    runner: RunnerDep,
    job_id: JobId,
    x_owner_token: Annotated[
        str | None, Header(max_length=200, description="the owner token from the upload")
    ] = None,
) -> Response:
    """Cancel a queued job (202, the job, cancelled); ask a running one to stop (202, the job,
    ``cancel_requested``), and cancel it at once when asked again; delete a finished one (204)."""
    job = service.cancel(session, runner.store, job_id, x_owner_token)
    if job is None:
        return Response(status_code=status.HTTP_204_NO_CONTENT)
    return JSONResponse(job.model_dump(mode="json"), status_code=status.HTTP_202_ACCEPTED)
