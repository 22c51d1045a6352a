"""Plan services: resolve configurations, call one engine function, map its errors to fields."""

from __future__ import annotations

from backend.app.core.errors import InvalidInput
from backend.app.engine.context import SizingContext
from backend.app.engine.inputs import CatalogReference
from backend.app.hardware.schemas import DriveRecord
from backend.app.plan.schemas import (
    ConsolidateRequest,
    ExpandRequest,
    QuoteCheckRequest,
    RefreshRequest,
    ReplicationRequest,
)
from models.drives import DriveSpec
from models.plan import consolidate as consolidating
from models.plan import expand as expanding
from models.plan import quote as quoting
from models.plan import refresh as refreshing
from models.plan import replication as replicating
from models.plan.quote_text import read_quote
from models.provenance import as_custom


def replication(body: ReplicationRequest, ctx: SizingContext) -> replicating.ReplicationResult:
    primary = None if body.primary is None else ctx.configuration(body.primary, ("body", "primary"))
    dr = None if body.dr is None else ctx.configuration(body.dr, ("body", "dr"), count="family")
    return ctx.run(
        lambda: replicating.replication(
            body.workloads,
            body.plan,
            primary=primary,
            dr_family=dr,
            params=ctx.params,
            margining=ctx.margining(body.calibration_margin),
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
                drives[drive_id] = as_custom(record.spec)
    return drives


def expand(body: ExpandRequest, ctx: SizingContext) -> expanding.ExpansionResult:
    config = ctx.configuration(body.configuration, ("body", "configuration"))
    array = ctx.known_array(config.array_id)
    drives = _drives(ctx, [g.drive_id for g in body.expansion.groups])
    return ctx.run(
        lambda: expanding.expand(
            body.workloads,
            config,
            body.expansion,
            drives=drives,
            array=array,
            params=ctx.params,
            margining=ctx.margining(body.calibration_margin),
        )
    )


def quote_check(body: QuoteCheckRequest, ctx: SizingContext) -> quoting.QuoteCheck:
    if body.text is not None:
        text = body.text
        catalog = ctx.catalog.get()
        quote = ctx.run(lambda: read_quote(text, catalog.arrays, catalog.drives))
        loc: tuple[str, ...] = ("body", "text")
    else:
        assert body.quote is not None
        quote = body.quote
        loc = ("body", "quote")
    array = ctx.known_array(quote.array_id)
    if quote.array_id is not None and array is None:
        raise InvalidInput.at(
            loc + ("array_id",), f"unknown array {quote.array_id!r}: leave it null to estimate the model"
        )
    drive = _drives(ctx, [quote.drive_id]).get(quote.drive_id)
    generic = ctx.known_array(quoting.GENERIC_ARRAY)
    parts = ctx.run(lambda: quoting.quote_parts(quote, array, drive, generic))
    reference = CatalogReference(
        array_id=parts.array_id,
        drive_id=quote.drive_id,
        raid_scheme=quote.raid_scheme,
        group_width=quote.group_width,
        drive_count=parts.drive_count,
        flash_cache_gb=quote.flash_cache_gb,
        hypothetical=parts.hypothetical,
        name=f"{quote.model} as quoted",
    )
    config = ctx.configuration(reference, loc)
    margining = ctx.margining(body.calibration_margin)
    return ctx.run(
        lambda: quoting.quote_check(
            body.workloads, config, quote, parts, params=ctx.params, margining=margining
        )
    )


def consolidate(body: ConsolidateRequest, ctx: SizingContext) -> consolidating.Consolidation:
    candidates = [
        ctx.configuration(c, ("body", "candidates", i), count="family") for i, c in enumerate(body.candidates)
    ]
    fixed = [ctx.configuration(c, ("body", "fixed", i)) for i, c in enumerate(body.fixed)]
    return ctx.run(
        lambda: consolidating.consolidate(
            body.workloads,
            candidates,
            fixed=fixed,
            options=body.options,
            params=ctx.params,
            margining=ctx.margining(body.calibration_margin),
        )
    )


def refresh(body: RefreshRequest, ctx: SizingContext) -> refreshing.RefreshResult:
    current = ctx.configuration(body.current, ("body", "current"))
    successor = ctx.configuration(body.successor, ("body", "successor"), count="family")
    margining = ctx.margining(body.calibration_margin)
    return ctx.run(
        lambda: refreshing.refresh(body.workloads, current, successor, params=ctx.params, margining=margining)
    )
