"""Evaluate, size, compare and curves: resolve the configuration, run the engine, shape the answer."""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from backend.app.core.errors import InvalidInput, Loc
from backend.app.engine.context import SizingContext, layout_for_scheme
from backend.app.engine.inputs import CatalogReference
from backend.app.sizing.schemas import (
    CURVE_NAMES,
    CompareConfigurations,
    CompareItem,
    CompareRequest,
    CompareResult,
    CurvesRequest,
    CurvesResult,
    EvaluateRequest,
    SizeRequest,
    SizingSummary,
)
from models import compare as compare_model
from models.base import InputError
from models.configuration import Configuration
from models.curves import (
    HitRatioCurve,
    LatencyCurve,
    QueueDepthCurve,
    hit_ratio_vs_cache,
    latency_vs_load,
    queue_depth_sweep,
)
from models.evaluate import DegradedMode, EvaluationResult
from models.evaluate import evaluate as engine_evaluate
from models.raid import RaidScheme
from models.size import SizingResult
from models.size import size as engine_size
from models.workload import Workload, windows_of

logger = logging.getLogger(__name__)

T = TypeVar("T")

CONFIGURATION: Loc = ("body", "configuration")
HIT_RATIO_POINTS = 40


def evaluate(body: EvaluateRequest, ctx: SizingContext) -> EvaluationResult:
    config = ctx.configuration(body.configuration, CONFIGURATION)
    reference = isinstance(body.configuration, CatalogReference)
    return ctx.run(
        lambda: engine_evaluate(body.workloads, config, params=ctx.params, degraded=body.degraded),
        CONFIGURATION,
        reference=reference,
    )


def size(body: SizeRequest, ctx: SizingContext) -> SizingResult:
    config = ctx.configuration(body.configuration, CONFIGURATION, count="family")
    reference = isinstance(body.configuration, CatalogReference)
    return ctx.run(
        lambda: engine_size(
            body.workloads,
            config,
            flash_cache_options_gb=body.flash_cache_options_gb,
            params=ctx.params,
            degraded=body.degraded,
            max_drives=body.max_drives,
        ),
        CONFIGURATION,
        reference=reference,
    )


def _evaluate_or_size(
    workloads: list[Workload],
    config: Configuration,
    degraded: DegradedMode,
    ctx: SizingContext,
    loc: Loc,
    reference: bool,
) -> CompareItem:
    if any(pool.drive_count is None for pool in config.pools):
        sized = ctx.run(
            lambda: engine_size(workloads, config, params=ctx.params, degraded=degraded),
            loc,
            reference=reference,
        )
        return CompareItem(
            configuration=sized.configuration, result=sized.result, sizing=SizingSummary.of(sized)
        )
    result = ctx.run(
        lambda: engine_evaluate(workloads, config, params=ctx.params, degraded=degraded),
        loc,
        reference=reference,
    )
    return CompareItem(configuration=config, result=result, sizing=None)


def _scheme_configurations(
    base: Configuration | CatalogReference, schemes: list[RaidScheme], ctx: SizingContext
) -> list[tuple[Configuration, Loc, bool]]:
    """The base configuration once per RAID scheme, each at its default group width."""
    loc: Loc = ("body", "base")
    out: list[tuple[Configuration, Loc, bool]] = []
    for i, scheme in enumerate(schemes):
        if isinstance(base, CatalogReference):
            ref = base.model_copy(
                update={
                    "raid_scheme": scheme,
                    "group_width": base.group_width if base.raid_scheme is scheme else None,
                    "name": f"{base.name} ({scheme.value})"[:120] if base.name else None,
                }
            )
            config = ctx.configuration(ref, loc, count="either", scheme_loc=("body", "schemes", i))
            out.append((config, loc, True))
            continue
        array = ctx.catalog_array(base.array_id)
        pools = []
        for pool in base.pools:
            raid = ctx.run(partial(layout_for_scheme, scheme, pool.raid, array))
            pools.append(pool.model_copy(update={"raid": raid}))
        config = base.model_copy(update={"pools": pools, "name": f"{base.name} ({scheme.value})"[:120]})
        out.append((ctx.configuration(config, loc), loc, False))
    return out


def compare(body: CompareRequest, ctx: SizingContext) -> CompareResult:
    if isinstance(body, CompareConfigurations):
        entries = []
        for i, value in enumerate(body.configurations):
            loc: Loc = ("body", "configurations", i)
            entries.append(
                (ctx.configuration(value, loc, count="either"), loc, isinstance(value, CatalogReference))
            )
    else:
        entries = _scheme_configurations(body.base, body.schemes, ctx)
    items = [
        _evaluate_or_size(body.workloads, config, body.degraded, ctx, loc, reference)
        for config, loc, reference in entries
    ]
    comparison = ctx.run(lambda: compare_model.compare([item.result for item in items]))
    return CompareResult(comparison=comparison, items=items)


def hit_ratio_curve(workloads: list[Workload], config: Configuration, window: str) -> HitRatioCurve:
    return hit_ratio_vs_cache(workloads, config, window=window, points=HIT_RATIO_POINTS)


def _curve(name: str, call: Callable[[], T], notes: list[str]) -> T | None:
    """``call()``, or None with a note saying why the curve does not exist for these inputs."""
    try:
        return call()
    except InputError as exc:
        notes.append(f"{name}: {exc.reason}")
    except (ValueError, ArithmeticError) as exc:
        logger.warning("%s failed: %s: %s", name, type(exc).__name__, exc)
        notes.append(f"{name}: the engine cannot compute it for these inputs ({type(exc).__name__})")
    return None


def curves(body: CurvesRequest, ctx: SizingContext) -> CurvesResult:
    """The curves ``body.curves`` names (latency vs load, IOPS vs queue depth, hit ratio vs cache
    size) for one window; the others are None.

    Inputs are checked by one evaluation first (errors are 422s); a curve the window cannot have
    (an idle window has no saturation point) is left out with a note.
    """
    config = ctx.configuration(body.configuration, CONFIGURATION)
    reference = isinstance(body.configuration, CatalogReference)
    windows = windows_of(body.workloads)
    window = body.window or windows[0]
    if window not in windows:
        raise InvalidInput.at(
            ("body", "window"), f"no phase runs in window {window!r} (windows: {', '.join(windows)})"
        )
    ctx.run(
        lambda: engine_evaluate(body.workloads, config, params=ctx.params), CONFIGURATION, reference=reference
    )

    wanted = set(body.curves or CURVE_NAMES)
    notes: list[str] = []
    lvl: LatencyCurve | None = None
    qd: QueueDepthCurve | None = None
    hit: HitRatioCurve | None = None
    if "latency_vs_load" in wanted:
        lvl = _curve(
            "latency vs load",
            lambda: latency_vs_load(body.workloads, config, window=window, params=ctx.params),
            notes,
        )
    if "queue_depth" in wanted:
        qd = _curve(
            "queue depth",
            lambda: queue_depth_sweep(body.workloads, config, window=window, params=ctx.params),
            notes,
        )
    if "hit_ratio" in wanted:
        hit = _curve("hit ratio", lambda: hit_ratio_curve(body.workloads, config, window), notes)
    return CurvesResult(window=window, latency_vs_load=lvl, queue_depth=qd, hit_ratio=hit, notes=notes)


__all__ = ["compare", "curves", "evaluate", "hit_ratio_curve", "size"]
