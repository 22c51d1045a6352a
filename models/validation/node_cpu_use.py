"""Validation handler: processor cores a published cluster used (``kind: node_cpu_use``).

A record names catalog hardware and a tested cluster like a ``flash_scale_out`` record (array,
drive, nodes, drives per node; the node a custom record of custom_hardware.yaml when the catalog lacks it) and measurements of a workload at a stated throughput with
the cores the storage software used there (``cores_used``: a number or a ``[low, high]`` range over
the whole cluster). The engine evaluates the workload at that throughput with the shipped catalog
node's per-I/O costs (no cost is fitted to these rows) and predicts the cores it keeps busy::

    cores = U_controllers x cores_per_node x nodes

(:func:`models.controller.controller_utilization`: every read, write, copy, chunk and KiB at its
catalog cost). Rows are out of sample and gated at ``tolerance_pct``; a measurement the engine
does not represent says ``not_gated`` (why).
"""

from __future__ import annotations

from typing import Any

from models.evaluate import evaluate
from models.parameters import EngineParameters
from models.validation import OUT_OF_SAMPLE, Row, ValidationContext, handler
from models.validation.scale_out import _BASE_IOPS, _config, measurement_workload, node_controller


def predicted_cores(record: dict[str, Any], m: dict[str, Any], ctx: ValidationContext) -> float:
    """Cores the engine keeps busy over the cluster at measurement ``m``'s throughput."""
    model = record["model"]
    if "cores_per_node" in model or "shared_ports" in model:
        raise ValueError(
            f"{record['id']}: validation predicts from shipped values only (name a custom node record)"
        )
    cfg = _config(record, m, ctx)
    wl = measurement_workload(m, model["capacity_tb"])
    at = evaluate(
        wl, cfg, params=EngineParameters(), load_scale=float(m["iops"]) / _BASE_IOPS, cold_cache=False
    )
    (busy,) = [c.value for c in at.windows[0].checks if c.name == "controllers"]
    if busy is None:
        raise SystemExit(f"{record['id']}/{m['id']}: the engine gave no controller utilization")
    nodes = int(m.get("nodes", model["nodes"]))
    return float(busy) / 100.0 * float(node_controller(record, ctx).cores) * nodes


@handler("node_cpu_use")
def node_cpu_use_rows(record: dict[str, Any], ctx: ValidationContext) -> list[Row]:
    rows = []
    for m in record["measurements"]:
        used = m["cores_used"]
        measured: float | tuple[float, float] = (
            (float(used[0]), float(used[1])) if isinstance(used, list) else float(used)
        )
        why_not = m.get("not_gated")
        rows.append(
            Row(
                record["id"],
                f"{m['id']} cores used at {m['iops']:,.0f} IOPS",
                predicted_cores(record, m, ctx),
                measured,
                gate=why_not is None,
                tolerance_pct=record.get("tolerance_pct") if why_not is None else None,
                note="catalog node costs, none fitted here" + (f"; not gated: {why_not}" if why_not else ""),
                basis=OUT_OF_SAMPLE,
            )
        )
    return rows
