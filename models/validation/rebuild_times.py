"""Validation handler: published rebuild times and rebuild scaling (``kind: rebuild_times``).

A record names a catalog drive (optionally at another capacity, ``capacity_gb``), the layout
rebuilt (``drives_read``: 1 for a copy, the stripe's data drives for parity), the sparing style,
the pool's drives and the rebuild priority the measurement ran at (``rebuild_priority_pct``; the
shipped default when the source does not say). The engine predicts the rebuild on idle drives with
:func:`models.rebuild.rebuild_hours`, the function every failure result uses. ``metric: hours``
compares the time; ``metric: ratio`` compares the dedicated-spare time over the distributed one
(a documented scaling, the drive's rates cancel).
"""

from __future__ import annotations

from typing import Any

from models.rebuild import Sparing, rebuild_hours
from models.validation import OUT_OF_SAMPLE, Row, ValidationContext, handler
from models.validation.drive_queue_depth import catalog_drive, engine_parameters


def _hours(record: dict[str, Any], ctx: ValidationContext, sparing: Sparing) -> float:
    drive = catalog_drive(record, ctx)
    params = engine_parameters(ctx)
    priority = float(record.get("rebuild_priority_pct", params.rebuild_priority_pct)) / 100.0
    return float(
        rebuild_hours(
            float(record.get("capacity_gb", drive.capacity_gb)),
            drive.media_rate_mb_s,
            drive.seq_write_mb_s or drive.media_rate_mb_s,
            sparing=sparing,
            drives_read=int(record["drives_read"]),
            pool_drives=int(record.get("pool_drives", 2)),
            priority=priority,
            foreground_utilization=0.0,
            min_rate_mb_s=params.rebuild_min_rate_mb_s,
        )
    )


@handler("rebuild_times")
def rebuild_time_rows(record: dict[str, Any], ctx: ValidationContext) -> list[Row]:
    why_not = record.get("not_gated")
    note = record["status"] + ("" if why_not is None else f"; not gated: {why_not}")
    if record["metric"] == "ratio":
        predicted = _hours(record, ctx, Sparing.DEDICATED) / _hours(record, ctx, Sparing.DISTRIBUTED)
        metric = f"rebuild time, dedicated spare / distributed over {record['pool_drives']} drives"
        measured = float(record["measured_ratio"])
    else:
        predicted = _hours(record, ctx, Sparing(record.get("sparing", "dedicated")))
        metric = f"rebuild hours, {record['label']}"
        measured = float(record["measured_hours"])
    return [
        Row(
            record["id"],
            metric,
            predicted,
            measured,
            gate=why_not is None,
            tolerance_pct=record.get("tolerance_pct") if why_not is None else None,
            note=note,
            basis=OUT_OF_SAMPLE,
        )
    ]
