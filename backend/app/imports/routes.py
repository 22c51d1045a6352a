"""``/import``: Iometer and fio files into a workload phase; host statistics (iostat, sar, perfmon,
esxtop), array exports (ONTAP, PowerStore, generic CSV) and Live Optics workbooks into workloads
with a phase per busy window; RVTools workbooks into capacities; several imports lined up on one
timeline; observed vs predicted latency."""

from __future__ import annotations

from collections.abc import Callable
from typing import IO, Annotated, Literal, TypeVar

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from backend.app.core.deps import SizingContextDep
from backend.app.core.lanes import ENGINE_LANE, json_in_lane
from backend.app.core.ratelimit import WriteQuota
from backend.app.core.uploads import UPLOAD_BODY, body_chunks, spool
from backend.app.imports import host_stats, service
from backend.app.imports.schemas import (
    ArrayStatsImport,
    FioImport,
    HostStatsImport,
    ImportResult,
    IometerImport,
    LiveOpticsImport,
    ObservedRequest,
    RVToolsImport,
    TimelineRequest,
)
from backend.app.schemas import error_responses
from models.evidence import ObservedComparison
from models.importers import HostFormat, HostStatsOptions, RateStatistic, WindowKind
from models.importers.arraystats import ArrayFormat, ArrayStatsOptions
from models.importers.rvtools import GroupBy
from models.importers.timeline import Timeline
from models.site_fit import SiteFit

T = TypeVar("T")

IMPORT_QUOTA = [Depends(WriteQuota("imports"))]
"""File imports count against the client's import quota (``RATE_LIMIT_IMPORTS``), before the body
is read or spooled; lining imports up (``/timeline``) and comparing (``/observed``) are computations
like ``/evaluate`` and are not counted."""

router = APIRouter(prefix="/import", tags=["import"], responses=error_responses(400))

HOST_STATS_PATHS = ("/import/host-stats", *(f"/import/{f.value}" for f in HostFormat))
UPLOAD_PATHS = (*HOST_STATS_PATHS, "/import/array-stats", "/import/live-optics", "/import/rvtools")
"""Upload routes (under the API prefix), whose bodies may be as large as a trace upload."""
TIMELINE_BODY_BYTES = 32 * 1024**2
"""Largest ``/import/timeline`` body: 32 imports of 2,048 intervals (about 160 kB of JSON each)."""


@router.post("/iometer", dependencies=IMPORT_QUOTA, responses=error_responses(429))
def iometer(body: IometerImport) -> ImportResult:
    """An Iometer access specification as a phase (I/O-size mix, read %, random %)."""
    return service.iometer(body)


@router.post("/fio", dependencies=IMPORT_QUOTA, responses=error_responses(429))
def fio(body: FioImport) -> ImportResult:
    """A fio job file or JSON result as a phase (mix, rate, queue depth, measured latencies)."""
    return service.fio(body)


def host_stats_options(
    devices: Annotated[
        list[str] | None,
        Query(max_length=4096, description="devices to use (repeat the parameter); default: whole disks"),
    ] = None,
    merge: Annotated[
        bool | None, Query(description="one workload for all devices (default) or one each")
    ] = None,
    rate: Annotated[
        RateStatistic | None, Query(description="a window's rate: mean, p95 (default), peak")
    ] = None,
    window_minutes: Annotated[
        int | None, Query(ge=1, le=1440, description="length of a window [min], default 60")
    ] = None,
    night_start_hour: Annotated[
        int | None, Query(ge=0, le=23, description="night begins [h], default 22")
    ] = None,
    night_end_hour: Annotated[int | None, Query(ge=0, le=23, description="night ends [h], default 6")] = None,
    month_end_days: Annotated[
        int | None, Query(ge=1, le=10, description="last days of a month, default 3")
    ] = None,
    windows: Annotated[
        list[WindowKind] | None, Query(max_length=8, description="window kinds to make phases of")
    ] = None,
    resolution_s: Annotated[
        float | None, Query(ge=1.0, le=3600.0, description="interval the series is kept at [s], default 60")
    ] = None,
    interval_s: Annotated[
        float | None,
        Query(gt=0.0, le=86400.0, description="sampling interval of files without timestamps [s]"),
    ] = None,
    skip_first: Annotated[bool | None, Query(description="iostat: leave out the since-boot report")] = None,
    capacity_tb: Annotated[
        float | None, Query(gt=0.0, le=1e6, description="capacity of the data [TB]")
    ] = None,
    name: Annotated[str | None, Query(min_length=1, max_length=80, description="workload name")] = None,
    date_order: Annotated[
        Literal["auto", "mdy", "dmy", "ymd"] | None,
        Query(description="order of day and month in dates like 01/02/2024: auto (default), mdy, dmy or ymd"),
    ] = None,
    latency_target: Annotated[
        Literal["observed", "none"] | None,
        Query(
            description="observed (default): each phase's read latency target is the read latency the host saw "
            "in its window, rounded up to 0.1 ms; none: no target"
        ),
    ] = None,
) -> HostStatsOptions:
    return host_stats.parse_options(
        {
            "devices": devices,
            "merge": merge,
            "rate": rate,
            "window_minutes": window_minutes,
            "night_start_hour": night_start_hour,
            "night_end_hour": night_end_hour,
            "month_end_days": month_end_days,
            "windows": windows,
            "resolution_s": resolution_s,
            "interval_s": interval_s,
            "skip_first": skip_first,
            "capacity_tb": capacity_tb,
            "workload_name": name,
            "date_order": date_order,
            "latency_target": latency_target,
        }
    )


OptionsDep = Annotated[HostStatsOptions, Depends(host_stats_options)]


async def _upload(request: Request, default_name: str, read: Callable[[IO[bytes], int, str, int], T]) -> T:
    """The upload spooled, then ``read(raw, size, filename, limit)`` in a worker thread; every
    upload route goes through here, with the trace upload limit."""
    chunks, filename = await body_chunks(request, default_name)
    raw, size = await spool(chunks)
    try:
        limit = request.app.state.settings.max_trace_bytes
        return await run_in_threadpool(read, raw, size, filename, limit)
    finally:
        raw.close()


async def _import(request: Request, fmt: HostFormat | None, options: HostStatsOptions) -> HostStatsImport:
    return await _upload(
        request,
        "host-stats",
        lambda raw, size, name, limit: host_stats.read_upload(raw, size, name, fmt, options, limit),
    )


@router.post(
    "/host-stats",
    openapi_extra=UPLOAD_BODY,
    response_model=HostStatsImport,
    dependencies=IMPORT_QUOTA,
    responses=error_responses(429),
)
async def host_stats_any(
    request: Request,
    options: OptionsDep,
    format: Annotated[HostFormat | None, Query(description="default: detected from the first lines")] = None,
) -> HostStatsImport:
    """Host statistics of any supported format (iostat, sar/sadf, perfmon, esxtop), detected from
    the file unless ``format`` names it. The file is the multipart field ``file`` or the raw body
    (gzip or not), up to the trace upload limit. Answers the workloads (a phase per detected
    window, the host-observed latency as evidence), the windows, a summary per device, the
    counters not used and notes on every assumption."""
    return await _import(request, format, options)


@router.post(
    "/iostat",
    openapi_extra=UPLOAD_BODY,
    response_model=HostStatsImport,
    dependencies=IMPORT_QUOTA,
    responses=error_responses(429),
)
async def iostat(request: Request, options: OptionsDep) -> HostStatsImport:
    """``iostat -x`` or ``-d`` text (any sysstat layout, with or without ``-t``) into workloads."""
    return await _import(request, HostFormat.IOSTAT, options)


@router.post(
    "/sar",
    openapi_extra=UPLOAD_BODY,
    response_model=HostStatsImport,
    dependencies=IMPORT_QUOTA,
    responses=error_responses(429),
)
async def sar(request: Request, options: OptionsDep) -> HostStatsImport:
    """``sar -d`` text or ``sadf -d`` output into workloads."""
    return await _import(request, HostFormat.SAR, options)


@router.post(
    "/perfmon",
    openapi_extra=UPLOAD_BODY,
    response_model=HostStatsImport,
    dependencies=IMPORT_QUOTA,
    responses=error_responses(429),
)
async def perfmon(request: Request, options: OptionsDep) -> HostStatsImport:
    """A Windows performance-monitor CSV/TSV (typeperf, relog) into workloads."""
    return await _import(request, HostFormat.PERFMON, options)


@router.post(
    "/esxtop",
    openapi_extra=UPLOAD_BODY,
    response_model=HostStatsImport,
    dependencies=IMPORT_QUOTA,
    responses=error_responses(429),
)
async def esxtop(request: Request, options: OptionsDep) -> HostStatsImport:
    """VMware ``esxtop -b`` batch CSV into workloads."""
    return await _import(request, HostFormat.ESXTOP, options)


def array_stats_options(
    options: OptionsDep,
    read_pct: Annotated[
        float | None,
        Query(
            ge=0.0,
            le=100.0,
            description="share of reads [%] for exports that give total IOPS only (ONTAP qos)",
        ),
    ] = None,
) -> ArrayStatsOptions:
    return ArrayStatsOptions(**options.model_dump(), read_pct=read_pct)


@router.post(
    "/array-stats",
    openapi_extra=UPLOAD_BODY,
    response_model=ArrayStatsImport,
    dependencies=IMPORT_QUOTA,
    responses=error_responses(429),
)
async def array_stats(
    request: Request,
    options: Annotated[ArrayStatsOptions, Depends(array_stats_options)],
    format: Annotated[ArrayFormat | None, Query(description="default: detected from the first lines")] = None,
) -> ArrayStatsImport:
    """An array's performance export into workloads: ONTAP ``statistics show`` or ``qos statistics
    volume performance show`` text, a PowerStore metrics CSV or the generic CSV (``timestamp,
    object, read_iops, write_iops, read_mb_s, write_mb_s, read_latency_ms, write_latency_ms``),
    detected unless ``format`` names it; gzip or not. Answers what host statistics answer: a phase
    per detected window with the array-observed latency, the windows, the objects, the series."""
    return await _upload(
        request,
        "array-stats",
        lambda raw, size, name, limit: host_stats.read_array_upload(raw, size, name, format, options, limit),
    )


@router.post(
    "/live-optics",
    openapi_extra=UPLOAD_BODY,
    response_model=LiveOpticsImport,
    dependencies=IMPORT_QUOTA,
    responses=error_responses(429),
)
async def live_optics(request: Request, options: OptionsDep) -> LiveOpticsImport:
    """A Live Optics project workbook (``.xlsx``, gzip or not) into workloads: with a time series,
    a phase per detected window (the options' statistic, observed latency as evidence); without,
    the peak and 95th percentile of the summary sheets. Every figure names its sheet, columns and
    statistic; capacity from the VMs or Host Devices sheet."""
    return await _upload(
        request,
        "live-optics.xlsx",
        lambda raw, size, name, limit: host_stats.read_live_optics(raw, size, name, options, limit),
    )


@router.post(
    "/rvtools",
    openapi_extra=UPLOAD_BODY,
    response_model=RVToolsImport,
    dependencies=IMPORT_QUOTA,
    responses=error_responses(429),
)
async def rvtools(
    request: Request,
    group_by: Annotated[
        GroupBy, Query(description="capacity groups: datastore, cluster (default), folder or host")
    ] = GroupBy.CLUSTER,
) -> RVToolsImport:
    """An RVTools workbook (``.xlsx``, gzip or not) into capacities per group: in use, provisioned,
    free, the growth thin disks may still take; RVTools has no performance data, so no IOPS are
    made up: every VM is listed as without performance."""
    return await _upload(
        request,
        "rvtools.xlsx",
        lambda raw, size, name, limit: host_stats.read_rvtools(raw, size, name, group_by, limit),
    )


@router.post("/timeline", response_model=Timeline, responses=error_responses(503))
async def timeline(body: TimelineRequest) -> Response:
    """Several imports of one engagement on one clock (each with its time zone): summed per
    interval, the busy windows found on the sum, a workload per import with its load in those
    windows, and the coincident peak beside the sum of each import's peak."""
    return await json_in_lane(ENGINE_LANE["timeline"], lambda: host_stats.timeline(body))


@router.post("/observed", response_model=ObservedComparison, responses=error_responses(503))
async def observed(body: ObservedRequest, ctx: SizingContextDep) -> Response:
    """What you have now: the configuration the statistics came from, evaluated at the loads the
    host observed, beside the latency the host saw in each window."""
    return await json_in_lane(ENGINE_LANE["observed"], lambda: host_stats.observed(body, ctx))


@router.post("/observed/fit", response_model=SiteFit, responses=error_responses(503))
async def observed_fit(body: ObservedRequest, ctx: SizingContextDep) -> Response:
    """Calibrate from your own array: the controller's CPU costs and the observed phases' working
    sets fitted (least squares on ln(predicted / observed)) to the latency the host saw in each
    window; the fitted controller is a record to keep (status fitted (site)), the fitted workloads
    the ones to size a successor with."""
    return await json_in_lane(ENGINE_LANE["fit"], lambda: host_stats.site_fit(body, ctx))
