"""Plan services: resolve configurations, call one engine function, map its errors to fields."""

from __future__ import annotations

from backend.app.engine.context import SizingContext
from backend.app.hardware.schemas import DriveRecord
from backend.app.plan.schemas import ExpandRequest, ReplicationRequest
from models.drives import DriveSpec
from models.plan import expand as expanding
from models.plan import replication as replicating


def replication(body: ReplicationRequest, ctx: SizingContext) -> replicating.ReplicationResult:
    primary = None if body.primary is None else ctx.configuration(body.primary, ("body", "primary"))
    dr = None if body.dr is None else ctx.configuration(body.dr, ("body", "dr"), count="family")
    return ctx.run(
        lambda: replicating.replication(
            body.workloads, body.plan, primary=primary, dr_family=dr, params=ctx.params
        )
    )


def _drives(ctx: SizingContext, ids: list[str]) -> dict[str, DriveSpec]:
    """The catalog's drives and the custom drive records among ``ids`` (an unknown id is the engine's error)."""
    drives = dict(ctx.catalog.get().drives)
    for drive_id in ids:
        if drive_id not in drives:
            record = ctx.hardware.get(drive_id)
            if isinstance(record, DriveRecord):
                ctx.used_hardware[record.id] = record
                drives[drive_id] = record.spec
    return drives


def expand(body: ExpandRequest, ctx: SizingContext) -> expanding.ExpansionResult:
    config = ctx.configuration(body.configuration, ("body", "configuration"))
    array = ctx.known_array(config.array_id)
    drives = _drives(ctx, [g.drive_id for g in body.expansion.groups])
    return ctx.run(
        lambda: expanding.expand(
            body.workloads, config, body.expansion, drives=drives, array=array, params=ctx.params
        )
    )
