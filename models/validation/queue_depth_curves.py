"""Validation handler: published Iometer queue-depth curves (IOPS and response time vs QD).

A record names catalog hardware (array, drive), the RAID layout and its age, the front-end
link, how many controllers serve the LUN, and the workload (an I/O mix from the record file,
working set, capacity). The engine's closed model (:func:`models.curves.queue_depth_sweep`)
predicts each row; gates compare IOPS and mean response time at the gated depths, and where a
record says so, which resource is the bottleneck at deep queues and the plateau.

Parameters fitted to these curves (:func:`fit_queue_depth_curves`, :class:`CurveFit`): the host
overhead of the test set-up, the command-queuing half-gain queue of 15K FC drives, the WAFL
full-stripe share and hot-block scatter as linear laws of the layout's reallocate measure (the
named ages fresh, moderate and aged are measures 1, 10 and 22), and the FAS2050 controller's
CPU-cost scale over an estimated split. The in-sample rows use ``fixtures/calibration/engine.yaml``
(the fit over all curves); the cross-validated rows (:func:`cross_validated_rows`) refit every
one of these parameters without the curve, then predict it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from scipy.optimize import least_squares

from models.capacity import pool_capacity
from models.catalog import build_configuration
from models.configuration import SparePolicy
from models.curves import queue_depth_sweep
from models.parameters import EngineParameters
from models.ports import PortGroup
from models.validation import (
    CROSS_VALIDATED,
    IN_SAMPLE,
    Row,
    ValidationContext,
    cross_validator,
    handler,
)
from models.workload import IoSize, Phase, Workload


def engine_calibration(ctx: ValidationContext) -> tuple[EngineParameters, dict[str, dict[str, float]]]:
    """EngineParameters and layout ages from ``fixtures/calibration/engine.yaml`` (if present)."""
    eng = ctx.calibration.get("engine") or {}
    params = EngineParameters(**(eng.get("parameters") or {}))
    return params, eng.get("layouts") or {}


def _workload(model: dict[str, Any]) -> Workload:
    mix = model["io_mix"]
    sizes = [IoSize(size_kib=int(b) / 1024, pct=p) for b, p in mix["size_mix_bytes_pct"].items()]
    phase = Phase(
        name="iometer",
        window="test",
        iops=1000,
        read_pct=mix["read_pct"],
        random_pct=mix["random_pct"],
        io_sizes=sizes,
    )
    # the drives hold what the test wrote (the Iometer file), not the LUN's nominal size
    return Workload(
        name="iometer",
        capacity_tb=model["working_set_gb"] / 1000.0,
        working_set_gb=model["working_set_gb"],
        phases=[phase],
    )


@dataclass(frozen=True)
class CurveFit:
    """Parameters fitted to array-level queue-depth curves.

    ``share(m) = share_at_1 + share_per_measure (m - 1)`` and likewise ``scatter(m)``, clamped to
    [0, 1], for a WAFL layout whose ``reallocate`` measure is ``m``. ``cpu_scale`` multiplies a
    record's ``cpu_cost_prior`` (None: not fitted, the prior is used as is).
    """

    host_overhead_ms: float
    q_half: float
    share_at_1: float
    share_per_measure: float
    scatter_at_1: float
    scatter_per_measure: float
    cpu_scale: float | None = None

    def layout(self, measure: float) -> dict[str, float]:
        """``full_stripe_share`` and ``scatter`` of a layout at reallocate measure ``measure``."""

        def clamp(v: float) -> float:
            return min(max(v, 0.0), 1.0)

        return {
            "full_stripe_share": clamp(self.share_at_1 + self.share_per_measure * (measure - 1.0)),
            "scatter": clamp(self.scatter_at_1 + self.scatter_per_measure * (measure - 1.0)),
        }


def predict_curve(record: dict[str, Any], ctx: ValidationContext, fit: CurveFit | None = None):
    """The engine's queue-depth curve for a record (also used by the tests and the fitting script).

    Without ``fit`` the parameters come from the calibration in ``ctx`` (engine.yaml); with it,
    from ``fit`` (the record's layout from the fitted law at its ``layout_measure``).
    """
    model = record["model"]
    params, layouts = engine_calibration(ctx)
    layout = layouts.get(model.get("layout", "moderate"), {})
    setup = ((ctx.calibration.get("engine") or {}).get("setups") or {}).get(model.get("host_setup", ""), {})
    if "host_overhead_ms" in setup:
        params = params.model_copy(update={"host_overhead_ms": setup["host_overhead_ms"]})
    cat = ctx.catalog
    if cat is None:
        raise SystemExit("queue-depth validation needs the catalog (fixtures/catalog)")
    array = cat.arrays[model["array"]]
    if fit is not None:
        params = params.model_copy(
            update={
                "host_overhead_ms": fit.host_overhead_ms,
                "command_queuing": params.command_queuing.model_copy(
                    update={"sas_fc": params.command_queuing.sas_fc.model_copy(update={"q_half": fit.q_half})}
                ),
            }
        )
        layout = fit.layout(float(model["layout_measure"]))
        prior = record.get("cpu_cost_prior")
        if prior:
            scale = 1.0 if fit.cpu_scale is None else fit.cpu_scale
            ctrl = array.controller.model_copy(update={k: float(v) * scale for k, v in prior.items()})
            array = array.model_copy(update={"controller": ctrl})
    cfg = build_configuration(
        array,
        cat.drives[model["drive"]],
        model["raid"],
        group_width=model["group_width"],
        drive_count=model["drive_count"],
        ports=[PortGroup(**p) for p in model["ports"]],
        layout_full_stripe_share=layout.get("full_stripe_share"),
    )
    pool = cfg.pools[0]
    # the test ran with its file on an otherwise empty aggregate: the pool's fill is the file's share
    usable_gb = (pool_capacity(pool, pool.drive_count or 0, cfg.capacity).usable_tb.value or 0.0) * 1000.0
    pool = pool.model_copy(
        update={
            "raid": pool.raid.model_copy(update={"scatter": layout.get("scatter", 0.0)}),
            "spares": SparePolicy(per_drives=None, min_spares=0),  # spares sit idle in a performance test
            "planned_fill_pct": min(100.0, 100.0 * model["working_set_gb"] / usable_gb),
        }
    )
    cfg = cfg.model_copy(update={"pools": [pool]})
    depths = [int(r[0]) for r in record["rows"]]
    return queue_depth_sweep(
        [_workload(model)],
        cfg,
        depths=depths,
        params=params,
        controllers_serving=model.get("controllers_serving"),
    )


RESPONSE_WEIGHT = 0.3
"""Weight of response-time squared log errors against IOPS ones in :func:`fit_queue_depth_curves`."""


def curve_residuals(records: list[dict[str, Any]], ctx: ValidationContext, fit: CurveFit) -> list[float]:
    """Log errors of IOPS and (weighted) response time at every depth of every record."""
    w = math.sqrt(RESPONSE_WEIGHT)
    out: list[float] = []
    for rec in records:
        pts = {p.queue_depth: p for p in predict_curve(rec, ctx, fit).points}
        cols = rec["columns"]
        for raw in rec["rows"]:
            m = dict(zip(cols, raw, strict=True))
            pt = pts[int(m["queue_depth"])]
            out.append(math.log(pt.iops / float(m["iops"])))
            out.append(w * math.log(pt.avg_response_ms / float(m["avg_response_ms"])))
    return out


_START = CurveFit(1.0, 6.0, 0.9, -0.011, 0.37, 0.007, 1.0)
_BOUNDS = {
    "host_overhead_ms": (0.0, 5.0),
    "q_half": (0.5, 64.0),
    "share_at_1": (0.0, 1.0),
    "share_per_measure": (-0.1, 0.1),
    "scatter_at_1": (0.0, 1.0),
    "scatter_per_measure": (-0.1, 0.1),
    "cpu_scale": (0.3, 3.0),
}


def fit_queue_depth_curves(
    records: list[dict[str, Any]], ctx: ValidationContext, start: CurveFit = _START
) -> CurveFit:
    """Least-squares fit of :class:`CurveFit` to array-level queue-depth curves.

    Minimises the squared log errors of IOPS plus ``RESPONSE_WEIGHT`` x those of mean response
    time at every published depth (:func:`curve_residuals`), bounded trust-region reflective
    (scipy ``least_squares``). The CPU-cost scale is fitted only when a record carries a
    ``cpu_cost_prior``; the command-queuing gain ``ncq_gain_max`` is held at its calibrated value.
    """
    names = [n for n in _BOUNDS if n != "cpu_scale" or any(r.get("cpu_cost_prior") for r in records)]
    x0 = [getattr(start, n) if getattr(start, n) is not None else 1.0 for n in names]
    lo = [_BOUNDS[n][0] for n in names]
    hi = [_BOUNDS[n][1] for n in names]
    x0 = [min(max(v, a), b) for v, a, b in zip(x0, lo, hi, strict=True)]

    def unpack(x: np.ndarray) -> CurveFit:
        values = dict(zip(names, (float(v) for v in x), strict=True))
        return replace(start, cpu_scale=values.pop("cpu_scale", None), **values)

    res = least_squares(
        lambda x: np.asarray(curve_residuals(records, ctx, unpack(x))),
        x0=np.asarray(x0),
        bounds=(lo, hi),
        method="trf",
        diff_step=1e-3,
        x_scale=[1.0, 5.0, 0.1, 0.01, 0.1, 0.01, 0.1][: len(names)],
    )
    return unpack(res.x)


def _published(value: float, resolution: float | None) -> float | tuple[float, float]:
    """A published figure, or the interval it stands for when it was rounded to ``resolution``."""
    if not resolution:
        return value
    return (value - resolution / 2, value + resolution / 2)


def _curve_rows(
    record: dict[str, Any], ctx: ValidationContext, fit: CurveFit | None, basis: str, note: str
) -> list[Row]:
    curve = predict_curve(record, ctx, fit)
    by_qd = {p.queue_depth: p for p in curve.points}
    gates = record.get("gates", {})
    gated = set(gates.get("queue_depths", []))
    cv = basis == CROSS_VALIDATED
    iops_tol = gates.get("cv_iops_tolerance_pct" if cv else "iops_tolerance_pct")
    resp_tol = gates.get("cv_response_tolerance_pct" if cv else "response_tolerance_pct")
    cols = record["columns"]
    rows: list[Row] = []
    for raw in record["rows"]:
        m = dict(zip(cols, raw, strict=True))
        qd = int(m["queue_depth"])
        pt = by_qd[qd]
        g = qd in gated
        rows.append(
            Row(
                record["id"],
                f"IOPS @QD{qd}",
                pt.iops,
                float(m["iops"]),
                gate=g,
                tolerance_pct=iops_tol if g else None,
                note=note,
                basis=basis,
            )
        )
        rows.append(
            Row(
                record["id"],
                f"resp ms @QD{qd}",
                pt.avg_response_ms,
                _published(float(m["avg_response_ms"]), gates.get("response_resolution_ms") if g else None),
                gate=g,
                tolerance_pct=resp_tol if g else None,
                note=note,
                basis=basis,
            )
        )
    bott = gates.get("bottleneck")
    if bott:
        for qd in bott["queue_depths"]:
            pt = by_qd[qd]
            is_it = pt.bottleneck.startswith(bott["resource"])
            rows.append(
                Row(
                    record["id"],
                    f"bottleneck @QD{qd} is {bott['resource']} (model: {pt.bottleneck})",
                    1.0 if is_it else 0.0,
                    1.0,
                    gate=True,
                    expect=True,
                    basis=basis,
                )
            )
    plateau = gates.get("plateau")
    if plateau:
        meas = max(float(dict(zip(cols, r, strict=True))["iops"]) for r in record["rows"])
        pred = max(p.iops for p in curve.points)
        tol = plateau.get("cv_tolerance_pct" if cv else "tolerance_pct")
        rows.append(Row(record["id"], "plateau IOPS", pred, meas, gate=True, tolerance_pct=tol, basis=basis))
    return rows


@handler("queue_depth_curves")
def queue_depth_rows(record: dict[str, Any], ctx: ValidationContext) -> list[Row]:
    """In-sample rows: the record predicted with engine.yaml, which was fitted to it."""
    return _curve_rows(record, ctx, None, IN_SAMPLE, "in-sample: engine.yaml was fitted to these curves")


@cross_validator("queue_depth_curves")
def cross_validated_rows(records: list[dict[str, Any]], ctx: ValidationContext) -> list[Row]:
    """Leave one curve out: refit :class:`CurveFit` on the other curves, predict the one left out.

    A parameter no remaining curve informs (the FAS2050 CPU scale when its curve is left out)
    falls back to its unfitted prior.
    """
    rows: list[Row] = []
    for i, rec in enumerate(records):
        rest = records[:i] + records[i + 1 :]
        fit = fit_queue_depth_curves(rest, ctx)
        note = (
            f"refit on the other {len(rest)} curves: host {fit.host_overhead_ms:.2f} ms,"
            f" q_half {fit.q_half:.2f}, share {fit.layout(rec['model']['layout_measure'])['full_stripe_share']:.2f}"
        )
        rows.extend(_curve_rows(rec, ctx, fit, CROSS_VALIDATED, note))
    return rows
