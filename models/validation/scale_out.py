"""Validation handler: published all-flash and scale-out measurements (``kind: flash_scale_out``).

A record names catalog hardware (array, drive), the nodes, drives per node and cores per node of
the tested cluster, and a list of measurements: a random workload (read share, I/O size, copies
kept on other nodes) and the IOPS the cluster sustained. The engine predicts the saturation
throughput, the load at which the busiest resource reaches 100% (:func:`models.curves.saturation_scale`
on :func:`models.evaluate.evaluate`), and names the resource that binds there.

Per-I/O CPU costs of a software-defined node are not published: a record's ``fit`` names the
measurements its read-miss and write costs are fitted to (rows in the in-sample table); every
other measurement is predicted with those costs and reported out of sample.
"""

from __future__ import annotations

from typing import Any

from scipy.optimize import brentq

from models.catalog import build_configuration
from models.configuration import Configuration
from models.curves import saturation_scale
from models.evaluate import evaluate
from models.parameters import EngineParameters
from models.validation import IN_SAMPLE, OUT_OF_SAMPLE, Row, ValidationContext, handler
from models.workload import Phase, Workload

_BASE_IOPS = 1000.0


def _workload(m: dict[str, Any], capacity_tb: float) -> list[Workload]:
    phase = Phase(
        name=m["id"],
        window="test",
        iops=_BASE_IOPS,
        read_pct=m["read_pct"],
        random_pct=100,
        io_size_kib=m["size_kib"],
    )
    # fio over RBD images spread across the cluster: no working set a cache could hold
    return [Workload(name="fio", capacity_tb=capacity_tb, phases=[phase])]


def _config(
    record: dict[str, Any], ctx: ValidationContext, copies: int, costs: dict[str, float]
) -> Configuration:
    model = record["model"]
    cat = ctx.catalog
    if cat is None:
        raise SystemExit("scale-out validation needs the catalog (fixtures/catalog)")
    array = cat.arrays[model["array"]]
    drive = cat.drives[model["drive"]]
    ctrl = array.controller.model_copy(update={"cores": float(model["cores_per_node"]), **costs})
    array = array.model_copy(update={"controller": ctrl, "drives": [*array.drives, drive.id]})
    cfg = build_configuration(
        array,
        drive,
        "replica",
        drive_count=model["nodes"] * model["drives_per_node"],
        nodes=model["nodes"],
    )
    pool = cfg.pools[0]
    arch = cfg.architecture
    return cfg.model_copy(
        update={
            "pools": [pool.model_copy(update={"raid": pool.raid.model_copy(update={"copies": copies})})],
            "architecture": None if arch is None else arch.model_copy(update={"copies": copies}),
        }
    )


def predict(
    record: dict[str, Any], m: dict[str, Any], ctx: ValidationContext, costs: dict[str, float]
) -> tuple[float, str]:
    """(saturation IOPS, the resource that binds there) of measurement ``m`` of ``record``."""
    cfg = _config(record, ctx, m["copies"], costs)
    wl = _workload(m, record["model"]["capacity_tb"])
    params = EngineParameters()
    scale = saturation_scale(wl, cfg, "test", params=params)
    at = evaluate(wl, cfg, params=params, load_scale=scale * 0.999, cold_cache=False)
    return _BASE_IOPS * scale, at.windows[0].bottleneck


def fit_costs(record: dict[str, Any], ctx: ValidationContext) -> dict[str, float]:
    """CPU microseconds per read miss and per write that make the fitted measurements' saturation
    IOPS match (each a one-dimensional root: saturation falls as the cost rises)."""
    by_id = {m["id"]: m for m in record["measurements"]}
    costs: dict[str, float] = {}
    for field, mid in (
        ("cpu_us_read_miss", record["fit"]["cpu_us_read_miss"]),
        ("cpu_us_write", record["fit"]["cpu_us_write"]),
    ):
        m = by_id[mid]

        def excess(cost: float, field: str = field, m: dict[str, Any] = m) -> float:
            return predict(record, m, ctx, {**costs, field: cost})[0] / m["iops"] - 1.0

        costs[field] = float(brentq(excess, 1.0, 20000.0, rtol=1e-6))
    return costs


@handler("flash_scale_out")
def scale_out_rows(record: dict[str, Any], ctx: ValidationContext) -> list[Row]:
    costs = fit_costs(record, ctx)
    fitted = set(record["fit"].values())
    tol = record.get("iops_tolerance_pct", 25)
    rows = []
    for m in record["measurements"]:
        iops, binding = predict(record, m, ctx, costs)
        basis = IN_SAMPLE if m["id"] in fitted else OUT_OF_SAMPLE
        note = f"binds: {binding}" + (
            f"; fitted c_miss {costs['cpu_us_read_miss']:.0f} us, c_write {costs['cpu_us_write']:.0f} us"
            if m["id"] in fitted
            else ""
        )
        rows.append(
            Row(
                record["id"],
                f"{m['id']} IOPS",
                iops,
                float(m["iops"]),
                gate=basis == OUT_OF_SAMPLE,
                tolerance_pct=tol,
                note=note,
                basis=basis,
            )
        )
        expected = m.get("binding")
        if expected is not None:
            rows.append(
                Row(
                    record["id"],
                    f"{m['id']} binds at {expected}",
                    float(binding.startswith(expected)),
                    1.0,
                    gate=True,
                    expect=True,
                    note=f"model: {binding}",
                    basis=basis,
                )
            )
    return rows
