"""Validation handler: published Iometer queue-depth curves (IOPS and response time vs QD).

A record names catalog hardware (array, drive), the RAID layout and its age, the front-end
link, how many controllers serve the LUN, and the workload (an I/O mix from the record file,
working set, capacity). The engine's closed model (:func:`models.curves.queue_depth_sweep`)
predicts each row; gates compare IOPS and mean response time at the gated depths, and where a
record says so, which resource is the bottleneck at deep queues and the plateau.
"""

from __future__ import annotations

from typing import Any

from models.catalog import build_configuration
from models.configuration import SparePolicy
from models.curves import queue_depth_sweep
from models.parameters import EngineParameters
from models.ports import PortGroup
from models.validation import Row, ValidationContext, handler
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
    return Workload(
        name="iometer",
        capacity_tb=model["capacity_tb"],
        working_set_gb=model["working_set_gb"],
        phases=[phase],
    )


def predict_curve(record: dict[str, Any], ctx: ValidationContext):
    """The engine's queue-depth curve for a record (also used by the tests and the fitting script)."""
    model = record["model"]
    params, layouts = engine_calibration(ctx)
    layout = layouts.get(model.get("layout", "moderate"), {})
    setup = ((ctx.calibration.get("engine") or {}).get("setups") or {}).get(model.get("host_setup", ""), {})
    if "host_overhead_ms" in setup:
        params = params.model_copy(update={"host_overhead_ms": setup["host_overhead_ms"]})
    cat = ctx.catalog
    if cat is None:
        raise SystemExit("queue-depth validation needs the catalog (fixtures/catalog)")
    cfg = build_configuration(
        cat.arrays[model["array"]],
        cat.drives[model["drive"]],
        model["raid"],
        group_width=model["group_width"],
        drive_count=model["drive_count"],
        ports=[PortGroup(**p) for p in model["ports"]],
        layout_full_stripe_share=layout.get("full_stripe_share"),
    )
    pool = cfg.pools[0]
    pool = pool.model_copy(
        update={
            "raid": pool.raid.model_copy(update={"scatter": layout.get("scatter", 0.0)}),
            "spares": SparePolicy(per_drives=None, min_spares=0),  # spares sit idle in a performance test
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


@handler("queue_depth_curves")
def queue_depth_rows(record: dict[str, Any], ctx: ValidationContext) -> list[Row]:
    curve = predict_curve(record, ctx)
    by_qd = {p.queue_depth: p for p in curve.points}
    gates = record.get("gates", {})
    gated = set(gates.get("queue_depths", []))
    cols = record["columns"]
    rows: list[Row] = []
    note = "in-sample: engine.yaml was fitted to these curves"
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
                tolerance_pct=gates.get("iops_tolerance_pct") if g else None,
                note=note,
            )
        )
        rows.append(
            Row(
                record["id"],
                f"resp ms @QD{qd}",
                pt.avg_response_ms,
                float(m["avg_response_ms"]),
                gate=g,
                tolerance_pct=gates.get("response_tolerance_pct") if g else None,
                note=note,
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
                )
            )
    plateau = gates.get("plateau")
    if plateau:
        meas = max(float(dict(zip(cols, r, strict=True))["iops"]) for r in record["rows"])
        pred = max(p.iops for p in curve.points)
        rows.append(
            Row(record["id"], "plateau IOPS", pred, meas, gate=True, tolerance_pct=plateau["tolerance_pct"])
        )
    return rows
