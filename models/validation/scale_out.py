"""Validation handler: published all-flash and scale-out measurements (``kind: flash_scale_out``).

A record names catalog hardware (array, drive), the nodes, drives per node and cores per node of
the tested cluster, and a list of measurements: a workload (read share, I/O size, random share,
copies kept on other nodes or an erasure-coded ``ec: [data, parity]`` stripe) and what the
cluster sustained (``iops``, or a throughput in ``gb_s`` or ``gib_s``). The engine predicts the
saturation throughput, the load at which the busiest resource reaches 100%
(:func:`models.curves.saturation_scale` on :func:`models.evaluate.evaluate`), and names the
resource that binds there.

A measurement may name its own ``nodes`` (a scaling series on one record's hardware). A record
states the tested configuration only: nodes, drives per node, the client-facing ``ports``
(``{type, per_node}``) and the data size. The node is the catalog array's controller, or, for
hardware the catalog does not carry, a named custom controller record (``model.controller``, in
``fixtures/calibration/custom_hardware.yaml``: the catalog node with the tested cores and cluster
network, as a user would enter it). Nothing else changes a figure.

Per-I/O CPU costs come from the shipped fixtures only. ``make calibrate`` fits them
(``fixtures/calibration/scale_out_fit.yaml``: which rows, the values, residuals and date) and writes
them into the catalog record or custom record; the rows named there are in-sample, every other row
is out of sample (gated at the record's ``iops_tolerance_pct``), and the cross-validated rows refit
a fit without one publication's rows and predict that publication's fitted rows
(leave one source out; reported, not gated: they measure a refit the product never ships). An
out-of-sample row that misses its gate with the shipped values says so in ``known_failure`` (why):
it prints as KNOWN and is listed by the tests, never hidden by a wider tolerance. A measurement the
catalog node's own ceiling (``max_iops``) was read off says ``ceiling_source: true``: in-sample too. A measurement with ``not_gated`` (the reason: what the engine does not
represent about that test) is printed with its error and binding resource but not gated.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy.optimize import least_squares

from models.catalog import build_configuration
from models.configuration import Configuration
from models.controller import ControllerSpec
from models.curves import saturation_scale
from models.evaluate import evaluate
from models.parameters import EngineParameters
from models.ports import PortGroup, PortType
from models.provenance import classify
from models.raid import RaidLayout, RaidScheme
from models.validation import (
    CROSS_VALIDATED,
    IN_SAMPLE,
    OUT_OF_SAMPLE,
    Row,
    ValidationContext,
    cross_validator,
    handler,
)
from models.workload import Phase, Workload

_BASE_IOPS = 1000.0
_BYTES_PER_KIB = 1024.0
_THROUGHPUT_UNITS = {"gb_s": 1e9, "gib_s": 2.0**30}
"""Bytes per second of one unit of each published throughput field."""


def measurement_workload(m: dict[str, Any], capacity_tb: float, name: str = "fio") -> list[Workload]:
    """One published measurement (``id``, ``read_pct``, ``random_pct``, ``size_kib``) as a workload
    of :data:`_BASE_IOPS` in window ``test``, to be scaled to saturation."""
    phase = Phase(
        name=m["id"],
        window="test",
        iops=_BASE_IOPS,
        read_pct=m["read_pct"],
        random_pct=m.get("random_pct", 100),
        io_size_kib=m["size_kib"],
    )
    # fio over RBD images spread across the cluster: no working set a cache could hold
    return [Workload(name=name, capacity_tb=capacity_tb, phases=[phase])]


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


Override = tuple[str, dict[str, float]]
"""A fit's target (``catalog:<array id>`` or ``custom:<record id>``) and CPU costs tried for it
(``make calibrate`` and the leave-one-source-out refits); None everywhere else: shipped values."""

HARDWARE_FIELDS = frozenset(
    {
        "cores",
        "core_ghz",
        "cluster_network_mb_s",
        "cluster_network_shared",
        "dram_cache_gb",
        "nvram_mb",
        "max_iops",
        "max_mb_s",
    }
)
"""What a custom record may state about the tested node: its published hardware."""
FITTED_COSTS = ("cpu_us_read_miss", "cpu_us_write", "cpu_us_per_kib_written")
"""The CPU costs ``make calibrate`` may fit (per read miss, per write, per KiB written)."""


def custom_records(ctx: ValidationContext) -> dict[str, dict[str, Any]]:
    """``custom_hardware.yaml``'s records by id, each checked: a known catalog base, hardware
    fields only, fitted costs only in ``software``."""
    doc = ctx.calibration.get("custom_hardware") or {}
    out: dict[str, dict[str, Any]] = {}
    for rec in doc.get("records", []):
        rid = rec["id"]
        if ctx.catalog is None or rec["base"] not in ctx.catalog.arrays:
            raise ValueError(f"custom_hardware.yaml {rid}: unknown catalog array {rec['base']!r}")
        bad = set(rec.get("hardware", {})) - HARDWARE_FIELDS
        if bad:
            raise ValueError(
                f"custom_hardware.yaml {rid}: hardware may state only {sorted(HARDWARE_FIELDS)}, not {sorted(bad)}"
            )
        bad = set(rec.get("software", {})) - set(FITTED_COSTS)
        if bad:
            raise ValueError(
                f"custom_hardware.yaml {rid}: software may hold only fitted costs, not {sorted(bad)}"
            )
        out[rid] = rec
    return out


def node_controller(
    record: dict[str, Any], ctx: ValidationContext, override: Override | None = None
) -> ControllerSpec:
    """The node a record is predicted on: the catalog array's controller, or the named custom record
    (the catalog node, its hardware, then its fitted software costs). ``override`` replaces the
    costs of a fit's target (a catalog array's node, or a custom record's software)."""
    model = record["model"]
    cat = ctx.catalog
    if cat is None:
        raise SystemExit("scale-out validation needs the catalog (fixtures/catalog)")
    name = model.get("controller")
    custom = None if name is None else custom_records(ctx).get(name)
    if name is not None and custom is None:
        raise ValueError(f"{record['id']}: unknown custom controller {name!r} (custom_hardware.yaml)")
    base_id = model["array"] if custom is None else custom["base"]
    if custom is not None and base_id != model["array"]:
        raise ValueError(
            f"{record['id']}: custom controller {name!r} is based on {base_id}, not {model['array']}"
        )
    ctrl = cat.arrays[base_id].controller
    if override is not None and override[0] == f"catalog:{base_id}":
        ctrl = ctrl.model_copy(update=override[1])
    if custom is not None:
        ctrl = ctrl.model_copy(update={**custom.get("hardware", {}), **custom.get("software", {})})
        if override is not None and override[0] == f"custom:{name}":
            ctrl = ctrl.model_copy(update=override[1])
    return ctrl


def _config(
    record: dict[str, Any], m: dict[str, Any], ctx: ValidationContext, override: Override | None = None
) -> Configuration:
    model = record["model"]
    cat = ctx.catalog
    if cat is None:
        raise SystemExit("scale-out validation needs the catalog (fixtures/catalog)")
    array = cat.arrays[model["array"]]
    drive = cat.drives[model["drive"]]
    nodes = int(m.get("nodes", model["nodes"]))
    ctrl = node_controller(record, ctx, override)
    # the tested drive, as a hypothetical configuration would take it
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
    record: dict[str, Any], m: dict[str, Any], ctx: ValidationContext, override: Override | None = None
) -> tuple[float, str]:
    """(saturation IOPS, the resource that binds there) of measurement ``m`` of ``record``."""
    cfg = _config(record, m, ctx, override)
    wl = measurement_workload(m, record["model"]["capacity_tb"])
    params = EngineParameters()
    scale = saturation_scale(wl, cfg, "test", params=params)
    at = evaluate(wl, cfg, params=params, load_scale=scale * 0.999, cold_cache=False)
    return _BASE_IOPS * scale, binding_resource(at.windows[0].checks)


def system_class(record: dict[str, Any], m: dict[str, Any], ctx: ValidationContext) -> str:
    """The class of system measurement ``m`` belongs to (:func:`models.provenance.classify` of the
    configuration and load it is predicted on: the 4 MiB streams are ``streaming``)."""
    return classify(_config(record, m, ctx), measurement_workload(m, record["model"]["capacity_tb"])).value


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


_BOUNDS_US = {
    "cpu_us_read_miss": (0.5, 20000.0),
    "cpu_us_write": (0.5, 20000.0),
    "cpu_us_per_kib_written": (0.001, 100.0),
}
"""Search interval of each fitted cost [us]."""


class FitError(ValueError):
    """A fit names an unknown target, row or parameter, or does not converge (the message names it)."""


def fits(ctx: ValidationContext) -> list[dict[str, Any]]:
    """``scale_out_fit.yaml``'s fits (empty when the file is absent)."""
    return list((ctx.calibration.get("scale_out_fit") or {}).get("fits") or [])


def fitted_rows(ctx: ValidationContext) -> set[str]:
    """Every ``record/measurement`` a shipped fit was fitted to: the in-sample rows."""
    return {row for f in fits(ctx) for p in f["parameters"].values() for row in p["rows"]}


def _find(records: dict[str, dict[str, Any]], row: str) -> tuple[dict[str, Any], dict[str, Any]]:
    rid, _, mid = row.partition("/")
    rec = records.get(rid)
    m = None if rec is None else next((x for x in rec["measurements"] if x["id"] == mid), None)
    if rec is None or m is None:
        raise FitError(f"fit row {row!r}: no such validation record/measurement")
    return rec, m


def _known_hardware(target: str, row: str, record: dict[str, Any], ctx: ValidationContext) -> None:
    """A fit's row names the catalog array and drive it is predicted on; else :class:`FitError`
    naming the fit, the row and the record."""
    model = record["model"]
    catalog = ctx.catalog
    for kind, key, known in (
        ("catalog array", "array", {} if catalog is None else catalog.arrays),
        ("drive", "drive", {} if catalog is None else catalog.drives),
    ):
        if model.get(key) not in known:
            raise FitError(
                f"fit {target!r}: row {row!r}: record {record['id']!r} names unknown {kind} {model.get(key)!r}"
            )


def fit_costs(
    fit: dict[str, Any],
    records: dict[str, dict[str, Any]],
    ctx: ValidationContext,
    leave_out: frozenset[str] = frozenset(),
) -> tuple[dict[str, float], dict[str, float]]:
    """(fitted costs, residuals in % by row) of ``fit``: least squares of log(predicted / measured)
    over its rows, every row predicted as ``make validate`` predicts it with the costs tried on the
    fit's target. Rows of the records in ``leave_out`` are left out (a parameter left without rows
    takes its ``prior``). Raises :class:`FitError` naming the fit when it does not converge."""
    target = fit["target"]
    kind, _, name = target.partition(":")
    known = (kind == "catalog" and ctx.catalog is not None and name in ctx.catalog.arrays) or (
        kind == "custom" and name in custom_records(ctx)
    )
    if not known:
        raise FitError(
            f"fit {target!r}: unknown {'catalog array' if kind == 'catalog' else 'custom record'} {name!r}"
        )
    unknown = set(fit["parameters"]) - set(FITTED_COSTS)
    if unknown:
        raise FitError(
            f"fit {target!r}: unknown parameters {sorted(unknown)} (fittable: {list(FITTED_COSTS)})"
        )
    rows_of = {
        p: [r for r in spec["rows"] if r.partition("/")[0] not in leave_out]
        for p, spec in fit["parameters"].items()
    }
    free = [p for p, rows in rows_of.items() if rows]
    fixed = {p: float(fit["parameters"][p]["prior"]) for p in rows_of if p not in free}
    rows = list(dict.fromkeys(r for p in free for r in rows_of[p]))
    cases = [(row, *_find(records, row)) for row in rows]
    for row, rec, _ in cases:
        _known_hardware(target, row, rec, ctx)
    if not free:
        return fixed, {}

    def costs_of(x: np.ndarray) -> dict[str, float]:
        return {**fixed, **{p: float(math.exp(v)) for p, v in zip(free, x, strict=True)}}

    def residuals(x: np.ndarray) -> np.ndarray:
        costs = costs_of(x)
        return np.array(
            [math.log(predict(rec, m, ctx, (target, costs))[0] / measured_iops(m)) for _, rec, m in cases]
        )

    x0 = [math.log(float(fit["parameters"][p]["prior"])) for p in free]
    lo = [math.log(_BOUNDS_US[p][0]) for p in free]
    hi = [math.log(_BOUNDS_US[p][1]) for p in free]
    try:
        res = least_squares(
            residuals, x0=x0, bounds=(lo, hi), method="trf", diff_step=1e-3, xtol=1e-6, ftol=1e-8
        )
    except (ValueError, ArithmeticError) as exc:  # a prediction that is not a positive number
        raise FitError(f"fit {target!r}: least squares did not converge ({exc})") from exc
    if not res.success or not np.all(np.isfinite(res.fun)):
        raise FitError(f"fit {target!r}: least squares did not converge ({res.message})")
    costs = costs_of(res.x)
    return costs, {
        row: round((math.exp(r) - 1.0) * 100.0, 1) for (row, _, _), r in zip(cases, res.fun, strict=True)
    }


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
    """Every measurement predicted from the shipped values: in-sample when a shipped fit used it."""
    if "fit" in record or "cores_per_node" in record["model"]:
        raise ValueError(
            f"{record['id']}: validation predicts from shipped values only (no fit, no node overrides)"
        )
    fitted = fitted_rows(ctx)
    return [r for m in record["measurements"] for r in _rows(record, m, ctx, None, "", fitted)]


def _rows(
    record: dict[str, Any],
    m: dict[str, Any],
    ctx: ValidationContext,
    override: Override | None,
    refit_note: str,
    fitted: set[str],
) -> list[Row]:
    tol = record.get("iops_tolerance_pct", 25)
    iops, binding = predict(record, m, ctx, override)
    was_fitted = f"{record['id']}/{m['id']}" in fitted
    in_sample = was_fitted or bool(m.get("ceiling_source"))
    basis = CROSS_VALIDATED if override is not None else (IN_SAMPLE if in_sample else OUT_OF_SAMPLE)
    source_note = "; fitted to (make calibrate)" if was_fitted else "; the catalog node's ceiling"
    note = f"binds: {binding}" + (f"; {refit_note}" if refit_note else source_note if in_sample else "")
    unit, predicted, measured = _as_published(m, iops)
    why_not = m.get("not_gated")
    # cross-validated rows measure the fitting procedure (refits the product never ships): reported
    gated = basis == OUT_OF_SAMPLE and why_not is None
    cls = system_class(record, m, ctx)
    rows = [
        Row(
            record["id"],
            f"{m['id']} {unit}",
            predicted,
            measured,
            gate=gated,
            tolerance_pct=tol if basis == IN_SAMPLE or gated else None,
            note=note if why_not is None else f"{note}; not gated: {why_not}",
            basis=basis,
            system_class=cls,
            known_failure=m.get("known_failure") if gated else None,
        )
    ]
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
                system_class=cls,
            )
        )
    return rows


@cross_validator("flash_scale_out")
def leave_one_source_out(records: list[dict[str, Any]], ctx: ValidationContext) -> list[Row]:
    """Each shipped fit refitted without one publication's rows, that publication's fitted rows
    then predicted (a fit to one publication alone has no cross-validated rows)."""
    by_id = {r["id"]: r for r in records}
    fitted = fitted_rows(ctx)
    out: list[Row] = []
    for fit in fits(ctx):
        rows = list(dict.fromkeys(r for p in fit["parameters"].values() for r in p["rows"]))
        sources = list(dict.fromkeys(r.partition("/")[0] for r in rows))
        if len(sources) < 2:
            continue
        for source in sources:
            costs, _ = fit_costs(fit, by_id, ctx, leave_out=frozenset({source}))
            text = ", ".join(f"{k} {v:.3g}" for k, v in costs.items())
            note = f"refit without {source}: {text}"
            for row in rows:
                if row.partition("/")[0] != source:
                    continue
                rec, m = _find(by_id, row)
                out += _rows(rec, m, ctx, (fit["target"], costs), note, fitted)
    return out
