"""Evaluate, size, compare and curves: resolve the configuration, run the engine, shape the answer."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection
from functools import partial
from typing import TypeVar

from backend.app.core.errors import InvalidInput, Loc
from backend.app.engine.context import SizingContext, layout_for_scheme
from backend.app.engine.inputs import CatalogReference
from backend.app.engine.money import tco_for
from backend.app.sizing.curves_cache import CURVES
from backend.app.sizing.schemas import (
    CURVE_NAMES,
    CompareConfigurations,
    CompareItem,
    CompareRequest,
    CompareResult,
    CompareSchemes,
    CurveName,
    CurvesRequest,
    CurvesResult,
    EvaluateAnswer,
    EvaluateRequest,
    RaidGridRequest,
    SizeAnswer,
    SizeRequest,
    SizingSummary,
)
from models import compare as compare_model
from models.adjust import adjust_configuration, adjust_workloads
from models.base import InputError
from models.cases import Relaxation
from models.catalog import ArrayModel
from models.compare import differences
from models.confidence import size_to_confidence
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
from models.headroom import HeadroomMark, headroom_mark
from models.naming import configuration_name
from models.provenance import CalibrationMargin, Margin, assess
from models.raid import RaidScheme
from models.raid_grid import RaidGrid
from models.raid_grid import raid_grid as engine_raid_grid
from models.size import SizingResult
from models.size import size as engine_size
from models.support import scheme_name, unsupported_scheme
from models.tco import MoneyInputs, ratio_flip
from models.verdict import evaluate_judged
from models.workload import Workload, windows_of

logger = logging.getLogger(__name__)

T = TypeVar("T")

CONFIGURATION: Loc = ("body", "configuration")
HIT_RATIO_POINTS = 40


def _adjusted(
    body: EvaluateRequest | CurvesRequest, ctx: SizingContext
) -> tuple[list[Workload], Configuration]:
    """The request's workloads and configuration with its what-if dials (``adjust``) applied."""
    config = ctx.configuration(body.configuration, CONFIGURATION)
    if body.adjust is None:
        return body.workloads, config
    adjustments = body.adjust
    array = ctx.known_array(config.array_id)
    offered = array.flash_cache if array is not None else []
    try:
        adjusted = adjust_configuration(config, adjustments, offered)
    except InputError as exc:
        raise InvalidInput.at(("body", "adjust", exc.field), exc.reason) from exc
    return adjust_workloads(body.workloads, adjustments), adjusted


def evaluate(body: EvaluateRequest, ctx: SizingContext) -> EvaluationResult:
    return _evaluated(body, ctx)[0]


def _evaluated(
    body: EvaluateRequest, ctx: SizingContext
) -> tuple[EvaluationResult, list[Workload], Configuration]:
    """The evaluation (estimated parts at the pessimistic end unless the request says as_stated),
    the workloads, and the configuration it was computed on (its margins in; the answer's
    calibration reads the configuration as the request states it)."""
    workloads, config = _adjusted(body, ctx)
    reference = isinstance(body.configuration, CatalogReference)
    run_config, margins = ctx.margined(config, workloads, body.calibration_margin)
    result = ctx.run(
        lambda: judged(workloads, run_config, ctx, body.degraded, body.relax),
        CONFIGURATION,
        reference=reference,
    )
    return ctx.margining().assessed(result, config, workloads, margins), workloads, run_config


def judged(
    workloads: list[Workload],
    config: Configuration,
    ctx: SizingContext,
    degraded: DegradedMode = DegradedMode.NONE,
    relax: list[Relaxation] | None = None,
) -> EvaluationResult:
    """The evaluation of ``config``; in normal operation with its verdict over every case
    (:func:`models.verdict.evaluate_judged`), whose ``passed`` it carries."""
    return evaluate_judged(workloads, config, params=ctx.params, degraded=degraded, relax=relax)


def size(body: SizeRequest, ctx: SizingContext) -> SizingResult:
    """The sized family, with the money of the configuration it found (``tco``)."""
    return _sized(body, ctx)[0]


def _sized(body: SizeRequest, ctx: SizingContext) -> tuple[SizingResult, Configuration]:
    """The sized family (its configuration as the records state it) and the configuration its
    verdict was computed on (the margins in, unless as_stated or sized to a confidence)."""
    config = ctx.configuration(body.configuration, CONFIGURATION, count="family")
    reference = isinstance(body.configuration, CatalogReference)

    def sized_as(family: Configuration) -> SizingResult:
        return ctx.run(
            lambda: engine_size(
                body.workloads,
                family,
                flash_cache_options_gb=body.flash_cache_options_gb,
                params=ctx.params,
                degraded=body.degraded,
                max_drives=body.max_drives,
                relax=body.relax,
            ),
            CONFIGURATION,
            reference=reference,
        )

    if body.confidence_pct is not None:
        confident = _size_to_confidence(body, ctx, config, reference)
        return confident, confident.configuration
    # with the margins unless as_stated, answered as stated with what they cost (models.margins)
    sized, computed_on = ctx.margining(body.calibration_margin).sized(config, body.workloads, sized_as)
    index = next(i for i, p in enumerate(sized.configuration.pools) if p.name == sized.pool)
    money = tco_for(ctx, body.workloads, sized.configuration, body.money, pool_index=index)
    return sized.model_copy(update={"tco": money}), computed_on


def _size_to_confidence(
    body: SizeRequest, ctx: SizingContext, family: Configuration, reference: bool
) -> SizingResult:
    """The family sized to ``body.confidence_pct`` (:func:`models.confidence.size_to_confidence`), as
    stated: the model's own error is in the samples (its band for this class of system)."""
    target = body.confidence_pct
    assert target is not None
    if body.degraded is not DegradedMode.NONE:
        raise InvalidInput.at(
            ("body", "confidence_pct"), "sizing to a confidence judges every case: degraded must be none"
        )
    if body.flash_cache_options_gb:
        raise InvalidInput.at(
            ("body", "confidence_pct"),
            "size to a confidence with one flash-cache size (no flash_cache_options_gb)",
        )
    uncertainty = ctx.uncertainty(family, body.workloads)
    sized = ctx.run(
        lambda: size_to_confidence(
            body.workloads,
            family,
            target,
            uncertainty,
            params=ctx.params,
            relax=body.relax,
            max_drives=body.max_drives,
        ),
        CONFIGURATION,
        reference=reference,
    )
    index = next(i for i, p in enumerate(sized.configuration.pools) if p.name == sized.pool)
    money = tco_for(ctx, body.workloads, sized.configuration, body.money, pool_index=index)
    result = ctx.margining().assessed(sized.result, sized.configuration, body.workloads)
    return sized.model_copy(update={"tco": money, "result": result})


def _evaluate_or_size(
    workloads: list[Workload],
    config: Configuration,
    degraded: DegradedMode,
    ctx: SizingContext,
    loc: Loc,
    reference: bool,
    money: MoneyInputs,
    relax: list[Relaxation] | None = None,
    margin: CalibrationMargin = CalibrationMargin.PESSIMISTIC,
) -> CompareItem:
    margining = ctx.margining(margin)
    if any(pool.drive_count is None for pool in config.pools):
        sized, _ = margining.sized(
            config,
            workloads,
            lambda family: ctx.run(
                lambda: engine_size(workloads, family, params=ctx.params, degraded=degraded, relax=relax),
                loc,
                reference=reference,
            ),
        )
        index = next(i for i, p in enumerate(sized.configuration.pools) if p.name == sized.pool)
        return CompareItem(
            configuration=sized.configuration,
            result=sized.result,
            sizing=SizingSummary.of(sized),
            tco=tco_for(ctx, workloads, sized.configuration, money, pool_index=index),
        )
    run_config, margins = margining.run_on(config, workloads)
    result = ctx.run(lambda: judged(workloads, run_config, ctx, degraded, relax), loc, reference=reference)
    return CompareItem(
        configuration=config,
        result=margining.assessed(result, config, workloads, margins),
        sizing=None,
        tco=tco_for(ctx, workloads, config, money),
    )


Entry = tuple[Configuration, Loc, bool, str | None]
"""A configuration to compare: (configuration, request path of its errors, from a reference, note)."""


def _scheme_variant(
    base: Configuration | CatalogReference, scheme: RaidScheme, hypothetical: bool, ctx: SizingContext, i: int
) -> Entry:
    """``base`` in ``scheme`` at the array's default width for it (named for the scheme it has)."""
    loc: Loc = ("body", "base")
    if isinstance(base, CatalogReference):
        ref = base.model_copy(
            update={
                "raid_scheme": scheme,
                "group_width": base.group_width if base.raid_scheme is scheme else None,
                "name": f"{base.name} ({scheme.value})"[:120] if base.name else None,
                "hypothetical": base.hypothetical or hypothetical,
            }
        )
        config = ctx.configuration(ref, loc, count="either", scheme_loc=("body", "schemes", i))
        return config, loc, True, None
    array = ctx.known_array(base.array_id)
    pools = []
    for pool in base.pools:
        raid = ctx.run(partial(layout_for_scheme, scheme, pool.raid, array))
        pools.append(pool.model_copy(update={"raid": raid}))
    first = pools[0]
    name = configuration_name(
        array.model if array is not None else base.name.split(",")[0],
        first.drive.name,
        first.raid,
        first.drive_count,
    )
    config = base.model_copy(
        update={"pools": pools, "name": name, "hypothetical": base.hypothetical or hypothetical}
    )
    return ctx.configuration(config, loc), loc, False, None


def _peer_variant(
    base: Configuration, array: ArrayModel, scheme: RaidScheme, peer_id: str, ctx: SizingContext, i: int
) -> Entry:
    """The base in ``scheme`` on the peer array, like for like: the same drives (and drive count),
    flash cache (the peer's nearest size), front-end ports, nodes and headroom; every other
    difference (:func:`models.compare.differences`) is listed in the column's note."""
    peer_loc: Loc = ("body", "peer_array_id")
    drive = base.pools[0].drive
    drive_id = ctx.drive_id(drive)
    if drive_id is None:
        raise InvalidInput.at(
            ("body", "schemes", i),
            f"the {array.model} does not offer {scheme_name(scheme)}, and its drive {drive.name} is not in the "
            "catalog, so no peer array can take it; ask for a hypothetical instead",
        )
    peer = ctx.known_array(peer_id)
    if peer is None:
        raise InvalidInput.at(peer_loc, f"unknown array {peer_id!r} (not in the catalog or custom arrays)")
    if all(r.scheme is not scheme for r in peer.raid):
        raise InvalidInput.at(peer_loc, unsupported_scheme(peer, scheme).reason)
    kept: list[str] = [f"drives ({drive.name.split(' (')[0]})", "headroom"]
    flash_gb = base.cache.flash_cache_gb
    if flash_gb > 0:
        option = next((f for f in peer.flash_cache if f.kind is base.cache.flash_kind), None)
        option = option or (peer.flash_cache[0] if peer.flash_cache else None)
        flash_gb = option.nearest(flash_gb) if option is not None else 0.0
        kept.append("flash cache" if flash_gb == base.cache.flash_cache_gb else "flash cache (nearest size)")
    nodes = None
    if base.cluster is not None and peer.scale_out is not None:
        nodes = min(max(base.cluster.nodes, peer.scale_out.min_nodes), peer.scale_out.max_nodes)
        kept.append("nodes")
    ref = CatalogReference(
        array_id=peer_id,
        drive_id=drive_id,
        raid_scheme=scheme,
        drive_count=base.pools[0].drive_count,
        headroom=base.headroom,
        flash_cache_gb=flash_gb,
        nodes=nodes,
    )
    config = ctx.configuration(ref, peer_loc, count="either", scheme_loc=("body", "schemes", i))
    peer_ports = {pt for opt in peer.port_options for pg in opt.ports for pt in [pg.type]}
    if peer.scale_out is None and all(pg.type in peer_ports for pg in base.ports):
        config = config.model_copy(update={"ports": base.ports})  # the same front end
        kept.append("ports")
    other = differences(base, config, compared=frozenset({"pools.0.raid", "pools.0.drive_count"}))
    note = (
        f"The {array.model} does not offer {scheme_name(scheme)}: this column puts the same "
        f"{', '.join(kept)} in the {peer.model}, which does. Every other difference: "
        + ("; ".join(other) if other else "none")
        + "."
    )
    return config, peer_loc, True, note


def _scheme_configurations(body: CompareSchemes, ctx: SizingContext) -> list[Entry]:
    """The base configuration once per RAID scheme, each at its default group width.

    A scheme the base's array does not offer follows ``body.unsupported``: a 422 at
    ``schemes.i``, a labelled hypothetical on the same array, or the same drives on a peer array.
    """
    base = ctx.resolve(body.base, ("body", "base"), count="either")
    array = ctx.known_array(base.array_id)
    out: list[Entry] = []
    for i, scheme in enumerate(body.schemes):
        offered = array is None or any(r.scheme is scheme for r in array.raid)
        if offered or body.unsupported == "hypothetical":
            out.append(_scheme_variant(body.base, scheme, not offered, ctx, i))
        elif body.unsupported == "peer":
            assert array is not None
            out.append(_peer_variant(base, array, scheme, body.peer_array_id, ctx, i))
        else:
            assert array is not None
            raise InvalidInput.at(("body", "schemes", i), unsupported_scheme(array, scheme).reason)
    return out


def compare(body: CompareRequest, ctx: SizingContext) -> CompareResult:
    if isinstance(body, CompareConfigurations):
        entries: list[Entry] = []
        for i, value in enumerate(body.configurations):
            loc: Loc = ("body", "configurations", i)
            entries.append(
                (
                    ctx.configuration(value, loc, count="either"),
                    loc,
                    isinstance(value, CatalogReference),
                    None,
                )
            )
    else:
        entries = _scheme_configurations(body, ctx)
    items = [
        _evaluate_or_size(
            body.workloads,
            config,
            body.degraded,
            ctx,
            loc,
            reference,
            body.money,
            body.relax,
            body.calibration_margin,
        ).model_copy(update={"note": note})
        for config, loc, reference, note in entries
    ]
    comparison = ctx.run(lambda: compare_model.compare([item.result for item in items]))
    flip = ratio_flip([item.tco for item in items if item.tco is not None])
    return CompareResult(comparison=comparison, items=items, ratio_flip=flip)


def raid_grid(body: RaidGridRequest, ctx: SizingContext) -> RaidGrid:
    """The configuration's drive in every scheme its array offers, each at the array's default width, sized."""
    loc: Loc = ("body", "configuration")
    value = body.configuration
    if isinstance(value, CatalogReference):
        value = value.model_copy(update={"drive_count": None, "group_width": None, "name": None})
    else:
        value = value.model_copy(
            update={"pools": [p.model_copy(update={"drive_count": None}) for p in value.pools]}
        )
    base = ctx.resolve(value, loc, count="family")
    array = ctx.known_array(base.array_id)
    if array is None:
        raise InvalidInput.at(
            loc, "the RAID grid needs the array's record (a catalog or custom array) to know its schemes"
        )
    families = []
    margins: list[Margin] = []
    for i, option in enumerate(array.raid):
        config, _, _, _ = _scheme_variant(value, option.scheme, False, ctx, i)
        # each scheme sized as /size sizes it: estimated parts at the pessimistic end unless as_stated
        family, margins = ctx.margined(config, body.workloads, body.calibration_margin)
        families.append(family)
    reference = isinstance(body.configuration, CatalogReference)
    grid = ctx.run(
        lambda: engine_raid_grid(body.workloads, families, params=ctx.params), loc, reference=reference
    )
    # the schemes share the array, drives and load, so their class and margins
    return ctx.margining().assessed(grid, base, body.workloads, margins)


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


def curves(body: CurvesRequest, ctx: SizingContext, *, checked: bool = False) -> CurvesResult:
    """The curves ``body.curves`` names (latency vs load, IOPS vs queue depth, hit ratio vs cache
    size) for one window; the others are None.

    Inputs are checked by one evaluation first (errors are 422s), unless ``checked`` says an
    evaluation of these same inputs just ran (a report's analysis); a curve the window cannot have
    (an idle window has no saturation point) is left out with a note.
    """
    workloads, config = _adjusted(body, ctx)
    reference = isinstance(body.configuration, CatalogReference)
    windows = windows_of(workloads)
    window = body.window or windows[0]
    if window not in windows:
        raise InvalidInput.at(
            ("body", "window"), f"no phase runs in window {window!r} (windows: {', '.join(windows)})"
        )
    # the curves of what the verdict computes: estimated parts at the pessimistic end unless as_stated
    run_config, _ = ctx.margined(config, workloads, body.calibration_margin)
    if not checked:
        ctx.run(
            lambda: engine_evaluate(workloads, run_config, params=ctx.params),
            CONFIGURATION,
            reference=reference,
        )
    return curves_of(workloads, run_config, window, body.curves or CURVE_NAMES, ctx)


def curves_of(
    workloads: list[Workload],
    config: Configuration,
    window: str,
    wanted: Collection[CurveName],
    ctx: SizingContext,
) -> CurvesResult:
    """The curves ``wanted`` of ``window`` for a configuration already evaluated without error
    (computed once per process for the same inputs: :mod:`backend.app.sizing.curves_cache`)."""
    return CURVES.get(
        workloads,
        config,
        window,
        wanted,
        (ctx.params, ctx.model_errors),
        lambda: _computed_curves(workloads, config, window, wanted, ctx),
    )


def _computed_curves(
    workloads: list[Workload],
    config: Configuration,
    window: str,
    wanted: Collection[CurveName],
    ctx: SizingContext,
) -> CurvesResult:
    notes: list[str] = []
    lvl: LatencyCurve | None = None
    qd: QueueDepthCurve | None = None
    hit: HitRatioCurve | None = None
    if "latency_vs_load" in wanted:
        lvl = _curve(
            "latency vs load",
            lambda: latency_vs_load(workloads, config, window=window, params=ctx.params),
            notes,
        )
    if "queue_depth" in wanted:
        qd = _curve(
            "queue depth",
            lambda: queue_depth_sweep(workloads, config, window=window, params=ctx.params),
            notes,
        )
    if "hit_ratio" in wanted:
        hit = _curve("hit ratio", lambda: hit_ratio_curve(workloads, config, window), notes)
    mark: HeadroomMark | None = None
    if "headroom" in wanted and lvl is not None:
        saturation = lvl.saturation_iops
        mark = _curve(
            "headroom",
            lambda: headroom_mark(workloads, config, window, saturation, params=ctx.params),
            notes,
        )
    found = assess(config, workloads, ctx.model_errors)
    return CurvesResult(
        window=window,
        latency_vs_load=lvl,
        queue_depth=qd,
        hit_ratio=hit,
        headroom=mark,
        notes=notes,
        calibration=found.calibration,
        model_error=found.model_error,
    )


def evaluate_answer(
    body: EvaluateRequest, ctx: SizingContext, with_curves: bool
) -> EvaluationResult | EvaluateAnswer:
    """:func:`evaluate`, and with ``with_curves`` every curve of the first window (one request for a
    results page instead of an evaluation and then its curves). Without it the answer is the
    evaluation alone, byte for byte what it was before ``curves`` existed (``curves`` is optional)."""
    result, workloads, computed_on = _evaluated(body, ctx)
    if not with_curves:
        return result
    # the curves of the verdict's own figures (its margins computed once, in _evaluated)
    first = curves_of(workloads, computed_on, result.windows[0].window, CURVE_NAMES, ctx)
    return EvaluateAnswer.model_construct(**dict(result), curves=first)


def size_answer(body: SizeRequest, ctx: SizingContext, with_curves: bool) -> SizingResult | SizeAnswer:
    """:func:`size`, and with ``with_curves`` every curve of the first window for the sized
    configuration (null when the family could not be sized: there is nothing to draw)."""
    sized, computed_on = _sized(body, ctx)
    if not with_curves:
        return sized
    first = None
    if sized.feasible:
        # the curves of the configuration the sizing found, with the margins it was found with
        window = sized.result.windows[0].window
        first = curves_of(body.workloads, computed_on, window, CURVE_NAMES, ctx)
    return SizeAnswer.model_construct(**dict(sized), curves=first)


__all__ = [
    "compare",
    "curves",
    "curves_of",
    "evaluate",
    "evaluate_answer",
    "hit_ratio_curve",
    "raid_grid",
    "size",
    "size_answer",
]
