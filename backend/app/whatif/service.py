"""What-if services: resolve the configuration, call one engine function, map its errors to fields."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from backend.app.core.errors import InvalidInput, Loc
from backend.app.engine.context import SizingContext
from backend.app.engine.inputs import CatalogReference
from backend.app.hardware.schemas import ArrayRecord, DriveRecord
from backend.app.whatif.schemas import (
    BuildingBlocksRequest,
    BuildingBlocksResult,
    CatalogBlock,
    ConfidenceRequest,
    DegradedRequest,
    GrowthRequest,
    MaxWorkloadRequest,
    RaidConversionRequest,
    RangesRequest,
    SensitivityRequest,
    WhatIfRequest,
)
from models import whatif
from models.base import InputError
from models.blocks import DerivedBlock, block_assessment, block_from_array, size_blocks
from models.catalog import ArrayModel
from models.confidence import confidence as engine_confidence
from models.configuration import Configuration
from models.conversion import RaidConversion, convert_raid
from models.drives import DriveSpec
from models.provenance import Assessed, as_custom
from models.whatif.uncertainty import Confidence, Uncertainty

CONFIGURATION: Loc = ("body", "configuration")


A = TypeVar("A", bound=Assessed)


def _analysed(
    body: WhatIfRequest | DegradedRequest, ctx: SizingContext, analysis: Callable[[Configuration], A]
) -> A:
    """``analysis`` of the configuration with estimated parts at the pessimistic end of their class's
    band, as /evaluate runs it, unless the request says as_stated (:meth:`SizingContext.margined`);
    the answer says what the configuration as stated rests on and the margins it was computed with."""
    config = ctx.configuration(body.configuration, CONFIGURATION)
    margined, margins = ctx.margined(config, body.workloads, body.calibration_margin)
    reference = isinstance(body.configuration, CatalogReference)
    result = ctx.run(lambda: analysis(margined), CONFIGURATION, reference=reference)
    return ctx.margining().assessed(result, config, body.workloads, margins)


def _uncertainty(
    body: RangesRequest | ConfidenceRequest, config: Configuration, ctx: SizingContext
) -> Uncertainty:
    """The request's ranges, or the defaults; either way with the model's own error for this class of
    system unless the request states ``model_error_factor`` itself (conservative by default)."""
    banded = ctx.uncertainty(config, body.workloads)
    if body.uncertainty is None:
        return banded
    if "model_error_factor" in body.uncertainty.model_fields_set:
        return body.uncertainty
    return body.uncertainty.model_copy(update={"model_error_factor": banded.model_error_factor})


def growth(body: GrowthRequest, ctx: SizingContext) -> whatif.GrowthProjection:
    return _analysed(
        body,
        ctx,
        lambda config: whatif.growth_projection(
            body.workloads,
            config,
            months=body.months,
            step_months=body.step_months,
            grow_working_set=body.grow_working_set,
            params=ctx.params,
            degraded=body.degraded,
        ),
    )


def sensitivity(body: SensitivityRequest, ctx: SizingContext) -> whatif.SensitivityResult:
    return _analysed(
        body,
        ctx,
        lambda config: whatif.sensitivity(
            body.workloads, config, steps=body.steps, params=ctx.params, degraded=body.degraded
        ),
    )


def max_workload(body: MaxWorkloadRequest, ctx: SizingContext) -> whatif.MaxWorkloadResult:
    return _analysed(
        body,
        ctx,
        lambda config: whatif.max_workload(body.workloads, config, params=ctx.params, degraded=body.degraded),
    )


def ranges(body: RangesRequest, ctx: SizingContext) -> whatif.RangesResult:
    # as stated: the band's own model_error_factor takes the model's error (no margin on top of it)
    config = ctx.configuration(body.configuration, CONFIGURATION)
    reference = isinstance(body.configuration, CatalogReference)
    uncertainty = _uncertainty(body, config, ctx)
    result = ctx.run(
        lambda: whatif.ranges(
            body.workloads,
            config,
            uncertainty=uncertainty,
            method=body.method,
            samples=body.samples,
            seed=body.seed,
            coverage_pct=body.coverage_pct,
            capability=body.capability,
            params=ctx.params,
            degraded=body.degraded,
        ),
        CONFIGURATION,
        reference=reference,
    )
    return ctx.margining().assessed(result, config, body.workloads)


def confidence(body: ConfidenceRequest, ctx: SizingContext) -> Confidence:
    """The chance of meeting every case judged (as stated: the band includes the model's own error)."""
    config = ctx.configuration(body.configuration, CONFIGURATION)
    reference = isinstance(body.configuration, CatalogReference)
    uncertainty = _uncertainty(body, config, ctx)
    result = ctx.run(
        lambda: engine_confidence(
            body.workloads,
            config,
            uncertainty,
            samples=body.samples,
            seed=body.seed,
            relax=body.relax,
            params=ctx.params,
        ),
        CONFIGURATION,
        reference=reference,
    )
    return ctx.margining().assessed(result, config, body.workloads)


def degraded(body: DegradedRequest, ctx: SizingContext) -> whatif.DegradedComparison:
    return _analysed(
        body,
        ctx,
        lambda config: whatif.degraded_modes(
            body.workloads, config, params=ctx.params, afr_pct=body.afr_pct, ure_per_bit=body.ure_per_bit
        ),
    )


def raid_conversion(body: RaidConversionRequest, ctx: SizingContext) -> RaidConversion:
    return ctx.run(
        lambda: convert_raid(
            body.measured_iops,
            body.read_pct,
            body.from_raid,
            body.to_raid,
            read_hit_pct=body.read_hit_pct,
            from_drives=body.from_drives,
            to_drives=body.to_drives,
            size_kib=body.size_kib,
            fill=body.fill_pct / 100.0,
        )
    )


_BLOCK_FIELDS = {"drive_id", "raid_scheme", "group_width", "drives", "rack_units"}


def _catalog_block(ref: CatalogBlock, ctx: SizingContext) -> tuple[DerivedBlock, ArrayModel, DriveSpec]:
    loc: Loc = ("body", "catalog")
    catalog = ctx.catalog.get()
    array: ArrayModel | None = catalog.arrays.get(ref.array_id)
    if array is None:
        record = ctx.hardware.get(ref.array_id)
        if not isinstance(record, ArrayRecord):
            raise InvalidInput.at(loc + ("array_id",), f"unknown array {ref.array_id!r}")
        array = as_custom(record.spec)
    drive_id = ref.drive_id or array.default_drive or (array.drives[0] if array.drives else None)
    if drive_id is None:
        raise InvalidInput.at(loc + ("drive_id",), f"array {array.id!r} has no default drive: give drive_id")
    drive: DriveSpec | None = catalog.drives.get(drive_id)
    if drive is None:
        record = ctx.hardware.get(drive_id)
        if not isinstance(record, DriveRecord):
            raise InvalidInput.at(loc + ("drive_id",), f"unknown drive {drive_id!r}")
        drive = as_custom(record.spec)
    try:
        ports = array.port_option(ref.port_option).ports if ref.port_option else None
        derived = block_from_array(
            array,
            drive,
            raid_scheme=ref.raid_scheme,
            group_width=ref.group_width,
            drives=ref.drives,
            rack_units=ref.rack_units,
            ports=ports,
            name=ref.name,
            streams=ref.streams,
            params=ctx.params,
        )
        return derived, array, drive
    except InputError as exc:
        field = "port_option" if exc.field == "ports" else exc.field
        raise InvalidInput.at(
            loc + ((field,) if field in _BLOCK_FIELDS | {"port_option"} else ()), exc.reason
        ) from exc


def building_blocks(body: BuildingBlocksRequest, ctx: SizingContext) -> BuildingBlocksResult:
    records = _catalog_block(body.catalog, ctx) if body.catalog is not None else None
    derived = records[0] if records is not None else None
    block = derived.block if derived is not None else body.block
    assert block is not None
    found = block_assessment(
        block,
        body.target,
        ctx.model_errors,
        array=records[1] if records is not None else None,
        drive=records[2] if records is not None else None,
    )
    try:
        sizing = ctx.run(
            lambda: size_blocks(
                block,
                body.target,
                scaling_efficiency=body.scaling_efficiency,
                rack_units_per_rack=body.rack_units_per_rack,
                reserved_rack_units=body.reserved_rack_units,
            )
        )
    except InvalidInput as exc:
        if derived is None:
            raise
        # the block came from the catalog reference: point at it
        moved = exc
        for field in ("drives", "rack_units"):
            moved = moved.moved(("body", "block", field), ("body", "catalog", field))
        for error in moved.errors:
            if tuple(error["loc"][:2]) == ("body", "block"):
                error["loc"] = ["body", "catalog"]
        raise moved from exc
    return BuildingBlocksResult(
        derived=derived, sizing=sizing, calibration=found.calibration, model_error=found.model_error
    )


__all__ = [
    "building_blocks",
    "confidence",
    "degraded",
    "growth",
    "max_workload",
    "ranges",
    "raid_conversion",
    "sensitivity",
]
