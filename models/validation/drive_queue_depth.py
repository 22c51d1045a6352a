"""Validation handler: published drive-level IOPS at queue depths (``kind: drive_queue_depth``).

A record names a catalog drive and published 4 KiB random-read IOPS at one or more queue depths
(the whole drive as the span). The engine predicts each point from the shipped catalog record and
the command-queuing parameters of the drive's class in ``fixtures/calibration/engine.yaml``::

    IOPS(q) = 1000 / t_service(q),   t_service(q) = t_overhead + t_xfer + t_pos(1) f(q)

(:func:`models.drives.hdd_service_ms`, :func:`models.drives.command_queuing_factor`): with ``q``
commands always outstanding the drive is never idle, so throughput is the reciprocal of the mean
service time. A record whose ``fit_for`` names its drive's class is what that class's ``gain_max``
was fitted to (``scripts/fit_drive_queuing.py``): its rows are in-sample; every other point is
predicted out of sample and gated at its record's ``tolerance_pct`` unless it says ``not_gated`` (the reason).
"""

from __future__ import annotations

from typing import Any

from models.calibration import QueueCurve
from models.drives import DriveSpec, drive_class, drive_times, hdd_service_ms, positioning_units
from models.parameters import EngineParameters
from models.validation import IN_SAMPLE, OUT_OF_SAMPLE, Row, ValidationContext, handler

SIZE_KIB = 4.0
"""I/O size of every published drive-level figure here [KiB]."""


def engine_parameters(ctx: ValidationContext) -> EngineParameters:
    """EngineParameters as shipped (``fixtures/calibration/engine.yaml``; the defaults without it)."""
    eng = ctx.calibration.get("engine") or {}
    return EngineParameters(**(eng.get("parameters") or {}))


def catalog_drive(record: dict[str, Any], ctx: ValidationContext) -> DriveSpec:
    """The catalog drive a record names (a clear error naming the record when it is missing)."""
    if ctx.catalog is None:
        raise SystemExit("drive queue-depth validation needs the catalog (fixtures/catalog)")
    try:
        return ctx.catalog.drives[record["drive"]]
    except KeyError:
        raise SystemExit(f"{record['id']}: drive {record['drive']!r} is not in the catalog") from None


def queue_curve(record: dict[str, Any], ctx: ValidationContext) -> QueueCurve:
    """The record as a :class:`models.calibration.QueueCurve`: the gated points (those without
    ``not_gated``), with the catalog drive's unqueued full-stroke positioning and its fixed time
    (overhead + transfer of 4 KiB), so a fit sees the engine's own unqueued service time."""
    drive = catalog_drive(record, ctx)
    t = drive_times(drive)
    points = [p for p in record["points"] if "not_gated" not in p]
    return QueueCurve(
        name=record["id"],
        queue_depths=tuple(float(p["queue_depth"]) for p in points),
        iops=tuple(float(p["iops"]) for p in points),
        fixed_ms=t.overhead_ms + SIZE_KIB * t.random_read_ms_per_kib,
        positioning_ms=t.read_pos_a + t.read_pos_b,
    )


def predicted_iops(drive: DriveSpec, queue_depth: float, params: EngineParameters) -> float:
    """Random 4 KiB read IOPS of ``drive`` kept busy by ``queue_depth`` commands over its whole span:
    ``units x 1000 / service`` with the commands spread over its positioning units (a dual-actuator
    drive's two halves each hold half of them, :func:`models.drives.positioning_units`)."""
    units = positioning_units(drive)
    service = hdd_service_ms(
        drive,
        SIZE_KIB,
        is_read=True,
        span_fraction=1.0,
        queue_depth=queue_depth / units,
        queuing=params.command_queuing.for_drive(drive),
    )
    return units * 1000.0 / service


@handler("drive_queue_depth")
def drive_queue_depth_rows(record: dict[str, Any], ctx: ValidationContext) -> list[Row]:
    drive = catalog_drive(record, ctx)
    cls = drive_class(drive)
    params = engine_parameters(ctx)
    cq = params.command_queuing.for_class(cls)
    basis = IN_SAMPLE if cls.value in record.get("fit_for", []) else OUT_OF_SAMPLE
    rows = []
    for p in record["points"]:
        q = float(p["queue_depth"])
        why_not = p.get("not_gated")
        gated = basis == OUT_OF_SAMPLE and why_not is None
        note = (
            f"class {cls.value}: gain_max {cq.gain_max:.3g}, q_half {cq.q_half:.3g}, "
            f"limit {cq.queue_limit:.0f}; {record['status']}"
        )
        rows.append(
            Row(
                record["id"],
                f"{drive.id} 4K random read IOPS at QD{q:.0f}",
                predicted_iops(drive, q, params),
                float(p["iops"]),
                gate=gated,
                tolerance_pct=record.get("tolerance_pct") if why_not is None else None,
                note=note if why_not is None else f"{note}; not gated: {why_not}",
                basis=basis,
            )
        )
    return rows
