"""Validation handler: published all-flash and scale-out measurements (``kind: flash_scale_out``).

A record names catalog hardware (array, drive), the nodes, drives per node and cores per node of
the tested cluster, and a list of measurements: a workload (read share, I/O size, random share,
copies kept on other nodes or an erasure-coded ``ec: [data, parity]`` stripe) and what the
cluster sustained (``iops``, or a throughput in ``gb_s`` or ``gib_s``). The engine predicts the
saturation throughput, the load at which the busiest resource reaches 100%
(:func:`models.curves.saturation_scale` on :func:`models.evaluate.evaluate`), and names the
resource that binds there.

A measurement may name its own ``nodes`` (a scaling series on one record's hardware). A record
may state the tested network: ``ports`` (``{type, per_node}``: the client-facing links)
and ``cluster_network_mb_s`` (the per-node replication link), or ``shared_ports: true`` when the
client and cluster traffic share the ports (one NIC per node); without them the catalog array's
defaults apply.

Per-I/O CPU costs of a software-defined node are not published: a record's ``fit`` names the
measurements its read-miss, write and/or per-KiB-written costs are fitted to (rows in the
in-sample table; a cost not fitted is the catalog node's); every
other measurement is predicted with those costs and reported out of sample, gated at the record's
``iops_tolerance_pct``. A measurement with ``not_gated`` (the reason: what the engine does not
represent about that test) is printed with its error and binding resource but not gated.
"""

from __future__ import annotations

from typing import Any

from scipy.optimize import brentq

from models.catalog import build_configuration
from models.configuration import Configuration
from models.curves import saturation_scale
from models.evaluate import evaluate
from models.parameters import EngineParameters
from models.ports import PortGroup, PortType
from models.raid import RaidLayout, RaidScheme
from models.validation import IN_SAMPLE, OUT_OF_SAMPLE, Row, ValidationContext, handler
from models.workload import Phase, Workload

_BASE_IOPS = 1000.0
_BYTES_PER_KIB = 1024.0
_THROUGHPUT_UNITS = {"gb_s": 1e9, "gib_s": 2.0**30}
"""Bytes per second of one unit of each published throughput field."""


def _workload(m: dict[str, Any], capacity_tb: float) -> list[Workload]:
    phase = Phase(
        name=m["id"],
        window="test",
        iops=_BASE_IOPS,
        read_pct=m["read_pct"],
        random_pct=m.get("random_pct", 100),
        io_size_kib=m["size_kib"],
    )
    # fio over RBD images spread across the cluster: no working set a cache could hold
    return [Workload(name="fio", capacity_tb=capacity_tb, phases=[phase])]


def _layout(m: dict[str, Any], drive_count: int) -> tuple[RaidLayout, int]:
    """(pool layout, copies the architecture keeps) of measurement ``m``: n-way replication
    (``copies``) or an erasure-coded stripe (``ec: [data, parity]``)."""
    if "ec" in m:
        data, parity = (int(x) for x in m["ec"])
        width = data + parity
        groups = drive_count // width
        if groups < 1:
            raise ValueError(f"{m['id']}: {drive_count} drives hold no {data}+{parity} stripe")
        return RaidLayout(scheme=RaidScheme.ERASURE, group_width=width, ec_data=data, ec_parity=parity), 1
    copies = int(m["copies"])
    return RaidLayout(scheme=RaidScheme.REPLICA, group_width=1, copies=copies), copies


def _config(
    record: dict[str, Any], m: dict[str, Any], ctx: ValidationContext, costs: dict[str, float]
) -> Configuration:
    model = record["model"]
    cat = ctx.catalog
    if cat is None:
        raise SystemExit("scale-out validation needs the catalog (fixtures/catalog)")
    array = cat.arrays[model["array"]]
    drive = cat.drives[model["drive"]]
    nodes = int(m.get("nodes", model["nodes"]))
    # Each record states its own nodes (cores, network): the catalog node's throughput ceilings
    # (max_iops, max_mb_s) are that node's published limits and are not carried to other hardware.
    ctrl_update: dict[str, Any] = {
        "cores": float(model["cores_per_node"]),
        "max_iops": None,
        "max_mb_s": None,
        **costs,
    }
    if "cluster_network_mb_s" in model:
        ctrl_update["cluster_network_mb_s"] = float(model["cluster_network_mb_s"])
    if "shared_ports" in model:
        ctrl_update["cluster_network_shared"] = bool(model["shared_ports"])
    ctrl = array.controller.model_copy(update=ctrl_update)
    array = array.model_copy(update={"controller": ctrl, "drives": [*array.drives, drive.id]})
    ports = None
    if "ports" in model:
        ports = [
            PortGroup(type=PortType(model["ports"]["type"]), count=nodes * int(model["ports"]["per_node"]))
        ]
    drive_count = nodes * int(model["drives_per_node"])
    cfg = build_configuration(array, drive, "replica", drive_count=drive_count, nodes=nodes, ports=ports)
    layout, copies = _layout(m, drive_count)
    pool = cfg.pools[0]
    arch = cfg.architecture
    return cfg.model_copy(
        update={
            "pools": [pool.model_copy(update={"raid": layout})],
            "architecture": None if arch is None else arch.model_copy(update={"copies": copies}),
        }
    )


def measured_iops(m: dict[str, Any]) -> float:
    """The measurement as IOPS: ``iops``, or a throughput over the I/O size
    (``gb_s x 10^9 / (size_kib x 1024)``, ``gib_s x 2^30 / (size_kib x 1024)``)."""
    if "iops" in m:
        return float(m["iops"])
    for field, unit in _THROUGHPUT_UNITS.items():
        if field in m:
            return float(m[field]) * unit / (m["size_kib"] * _BYTES_PER_KIB)
    raise ValueError(f"{m['id']}: a measurement needs iops, gb_s or gib_s")


def predict(
    record: dict[str, Any], m: dict[str, Any], ctx: ValidationContext, costs: dict[str, float]
) -> tuple[float, str]:
    """(saturation IOPS, the resource that binds there) of measurement ``m`` of ``record``."""
    cfg = _config(record, m, ctx, costs)
    wl = _workload(m, record["model"]["capacity_tb"])
    params = EngineParameters()
    scale = saturation_scale(wl, cfg, "test", params=params)
    at = evaluate(wl, cfg, params=params, load_scale=scale * 0.999, cold_cache=False)
    return _BASE_IOPS * scale, binding_resource(at.windows[0].checks)


def binding_resource(checks: list[Any]) -> str:
    """The resource that reaches 100% at saturation: the busiest utilization check (percent), as
    :func:`models.curves.saturation_scale` counts them (a failover's what-if and the DWPD wear
    rate are not throughput limits of the tested cluster)."""
    busy = [
        c
        for c in checks
        if c.unit == "%" and c.value is not None and not c.name.startswith("controllers after")
    ]
    return max(busy, key=lambda c: c.value).name if busy else "none"


FITTED_COSTS = ("cpu_us_read_miss", "cpu_us_write", "cpu_us_per_kib_written")
"""The CPU costs a record may fit (per read miss, per write, per KiB written), in the order they
are fitted."""
_BRACKETS = {
    "cpu_us_read_miss": (1.0, 20000.0),
    "cpu_us_write": (1.0, 20000.0),
    "cpu_us_per_kib_written": (0.0, 100.0),
}
"""Search interval of each fitted cost [us]."""
_FIT_PASSES = 4
"""Rounds of one-at-a-time fits when a record fits several costs (each cost's measurement also
moves a little with the others: a 4 KiB write carries its KiB, a 4 MiB write its write cost);
four rounds settle them to well under the root's tolerance."""


def fit_costs(record: dict[str, Any], ctx: ValidationContext) -> dict[str, float]:
    """CPU microseconds per read miss, per write and per KiB written that make the fitted
    measurements' saturation IOPS match (each a one-dimensional root: saturation falls as the cost
    rises; with several costs, :data:`_FIT_PASSES` rounds of them one at a time). A cost the
    record's ``fit`` does not name keeps the catalog node's value."""
    by_id = {m["id"]: m for m in record["measurements"]}
    costs: dict[str, float] = {}
    unknown = set(record["fit"]) - set(FITTED_COSTS)
    if unknown:
        raise ValueError(f"{record['id']}: fit names unknown costs {sorted(unknown)}")
    fields = [f for f in FITTED_COSTS if f in record["fit"]]  # the others: the catalog node's cost stays
    for _ in range(_FIT_PASSES if len(fields) > 1 else 1):
        for field in fields:
            m = by_id[record["fit"][field]]

            def excess(cost: float, field: str = field, m: dict[str, Any] = m) -> float:
                return predict(record, m, ctx, {**costs, field: cost})[0] / measured_iops(m) - 1.0

            costs[field] = float(brentq(excess, *_BRACKETS[field], rtol=1e-6))
    return costs


def _as_published(m: dict[str, Any], iops: float) -> tuple[str, float, float]:
    """(metric unit, predicted, measured) in the unit the source published."""
    for field, unit in _THROUGHPUT_UNITS.items():
        if field in m:
            per_unit = m["size_kib"] * _BYTES_PER_KIB / unit
            return (
                field.replace("_s", "/s").replace("gib", "GiB").replace("gb", "GB"),
                iops * per_unit,
                float(m[field]),
            )
    return "IOPS", iops, float(m["iops"])


@handler("flash_scale_out")
def scale_out_rows(record: dict[str, Any], ctx: ValidationContext) -> list[Row]:
    costs = fit_costs(record, ctx)
    fitted = set(record["fit"].values())
    tol = record.get("iops_tolerance_pct", 25)
    rows = []
    for m in record["measurements"]:
        iops, binding = predict(record, m, ctx, costs)
        basis = IN_SAMPLE if m["id"] in fitted else OUT_OF_SAMPLE
        fitted_text = ", ".join(f"{f} {v:.3g}" for f, v in costs.items())
        note = f"binds: {binding}" + (f"; fitted {fitted_text}" if m["id"] in fitted else "")
        unit, predicted, measured = _as_published(m, iops)
        why_not = m.get("not_gated")
        gated = basis == OUT_OF_SAMPLE and why_not is None
        rows.append(
            Row(
                record["id"],
                f"{m['id']} {unit}",
                predicted,
                measured,
                gate=gated,
                tolerance_pct=tol if basis == IN_SAMPLE or gated else None,
                note=note if why_not is None else f"{note}; not gated: {why_not}",
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
