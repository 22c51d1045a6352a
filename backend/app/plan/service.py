"""Plan services: resolve configurations, call one engine function, map its errors to fields."""

from __future__ import annotations

from backend.app.engine.context import SizingContext
from backend.app.plan.schemas import ReplicationRequest
from models.plan import replication as replicating


def replication(body: ReplicationRequest, ctx: SizingContext) -> replicating.ReplicationResult:
    primary = None if body.primary is None else ctx.configuration(body.primary, ("body", "primary"))
    dr = None if body.dr is None else ctx.configuration(body.dr, ("body", "dr"), count="family")
    return ctx.run(
        lambda: replicating.replication(
            body.workloads, body.plan, primary=primary, dr_family=dr, params=ctx.params
        )
    )
