"""CSV export of a saved snapshot: one row per window x component figure.

Columns: ``configuration, window, component, figure, value, unit``. Capacity and bill-of-materials
figures use the window ``(all)``. The export reads the stored JSON (not the current schemas), so a
report saved by an older engine still exports. Text cells that a spreadsheet would run as a formula
(starting with ``= + - @``, tab or CR) get a leading apostrophe.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

COLUMNS = ["configuration", "window", "component", "figure", "value", "unit"]
ALL = "(all)"

Row = tuple[str, str, str, str, Any, str]


def value_of(x: Any) -> Any:
    """An ``Explained`` figure's value, or the value itself."""
    return x.get("value") if isinstance(x, dict) else x


def _cell(x: Any) -> str:
    if x is None:
        return ""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int | float):
        return repr(x)
    text = str(x)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def evaluation_rows(result: dict[str, Any]) -> Iterator[Row]:
    cfg = str(result.get("configuration", ""))
    for w in result.get("windows", []):
        win = str(w.get("window", ""))
        for figure, unit in (
            ("frontend_iops", "IOPS"),
            ("frontend_mb_s", "MB/s"),
            ("read_pct", "%"),
            ("read_latency_ms", "ms"),
            ("write_latency_ms", "ms"),
            ("avg_latency_ms", "ms"),
            ("passed", ""),
            ("bottleneck", ""),
        ):
            yield cfg, win, "window", figure, w.get(figure), unit
        yield cfg, win, "controllers", "utilization_pct", value_of(w.get("controller_utilization_pct")), "%"
        if w.get("failover_utilization_pct") is not None:
            yield (
                cfg,
                win,
                "controllers",
                "failover_utilization_pct",
                value_of(w["failover_utilization_pct"]),
                "%",
            )
        yield cfg, win, "ports", "utilization_pct", value_of(w.get("port_utilization_pct")), "%"
        # every other resource that binds, where the configuration has it
        if w.get("backend_bus_utilization_pct") is not None:
            yield cfg, win, "back-end bus", "utilization_pct", value_of(w["backend_bus_utilization_pct"]), "%"
        if w.get("cluster_network_utilization_pct") is not None:
            yield (
                cfg,
                win,
                "cluster network",
                "utilization_pct",
                value_of(w["cluster_network_utilization_pct"]),
                "%",
            )
        for p in w.get("pools", []):
            component = f"pool {p.get('pool', '')}"
            yield cfg, win, component, "backend_iops", value_of(p.get("backend_iops")), "IOPS"
            yield cfg, win, component, "drive_utilization_pct", value_of(p.get("drive_utilization_pct")), "%"
            if p.get("parity_utilization_pct") is not None:
                yield (
                    cfg,
                    win,
                    component,
                    "parity_utilization_pct",
                    value_of(p["parity_utilization_pct"]),
                    "%",
                )
            wear = p.get("endurance")
            if wear:
                yield (
                    cfg,
                    win,
                    component,
                    "years_to_wear_out",
                    value_of(wear.get("years_to_wear_out")),
                    "years",
                )
            yield cfg, win, component, "read_miss_latency_ms", value_of(p.get("read_miss_latency_ms")), "ms"
            yield cfg, win, component, "queue_per_drive", p.get("queue_per_drive"), ""
        for ph in w.get("phases", []):
            component = f"phase {ph.get('workload', '')}/{ph.get('phase', '')}"
            yield cfg, win, component, "iops", ph.get("iops"), "IOPS"
            yield cfg, win, component, "dram_hit_pct", value_of(ph.get("dram_hit_pct")), "%"
            yield cfg, win, component, "flash_hit_pct", value_of(ph.get("flash_hit_pct")), "%"
            yield cfg, win, component, "read_latency_ms", value_of(ph.get("read_latency_ms")), "ms"
            yield cfg, win, component, "write_latency_ms", value_of(ph.get("write_latency_ms")), "ms"
            yield cfg, win, component, "passed", ph.get("passed"), ""
    cap = result.get("capacity", {})
    for figure in ("raw_tb", "usable_tb"):
        yield cfg, ALL, "capacity", figure, cap.get(figure), "TB"
    yield cfg, ALL, "capacity", "needed_tb", value_of(cap.get("needed_tb")), "TB"
    yield cfg, ALL, "capacity", "fill_pct", cap.get("fill_pct"), "%"
    bill = result.get("bill", {})
    for figure, unit in (
        ("drives", ""),
        ("spares", ""),
        ("shelves", ""),
        ("rack_units", "U"),
        ("power_w", "W"),
        ("cost_usd", "USD"),
        ("flash_cache_gb", "GB"),
    ):
        yield cfg, ALL, "bill", figure, bill.get(figure), unit
    yield cfg, ALL, "verdict", "passed", result.get("passed"), ""
    yield cfg, ALL, "verdict", "bottleneck", result.get("bottleneck"), ""


def sizing_rows(cfg: str, sizing: dict[str, Any]) -> Iterator[Row]:
    for figure in ("feasible", "drive_count", "groups", "binding_constraint", "chosen_flash_cache_gb"):
        yield cfg, ALL, "sizing", figure, sizing.get(figure), "GB" if figure.endswith("_gb") else ""


def curves_rows(result: dict[str, Any]) -> Iterator[Row]:
    win = str(result.get("window", ""))
    lvl = result.get("latency_vs_load") or {}
    for pt in lvl.get("points", []):
        component = f"latency vs load at {pt.get('load_pct', 0):.0f}%"
        yield "", win, component, "iops", pt.get("iops"), "IOPS"
        yield "", win, component, "read_latency_ms", pt.get("read_latency_ms"), "ms"
        yield "", win, component, "avg_latency_ms", pt.get("avg_latency_ms"), "ms"
    if lvl:
        yield "", win, "latency vs load", "saturation_iops", lvl.get("saturation_iops"), "IOPS"
    for pt in (result.get("queue_depth") or {}).get("points", []):
        component = f"queue depth {pt.get('queue_depth')}"
        yield "", win, component, "iops", pt.get("iops"), "IOPS"
        yield "", win, component, "avg_response_ms", pt.get("avg_response_ms"), "ms"
    hit = result.get("hit_ratio") or {}
    for pt in hit.get("points", []):
        yield "", win, f"cache {pt.get('cache_gb', 0):.6g} GB", "hit_pct", pt.get("hit_pct"), "%"
    if hit:
        yield "", win, "configured cache", "hit_pct", hit.get("configured_hit_pct"), "%"


def rows(snapshot: dict[str, Any]) -> Iterator[Row]:
    kind = snapshot.get("kind")
    result = snapshot.get("result") or {}
    if kind == "evaluate":
        yield from evaluation_rows(result)
    elif kind == "size":
        inner = result.get("result") or {}
        yield from sizing_rows(str(inner.get("configuration", "")), result)
        yield from evaluation_rows(inner)
    elif kind == "compare":
        for item in result.get("items", []):
            inner = item.get("result") or {}
            if item.get("sizing"):
                yield from sizing_rows(str(inner.get("configuration", "")), item["sizing"])
            yield from evaluation_rows(inner)
    elif kind == "curves":
        yield from curves_rows(result)
    else:
        yield from plan_rows(kind, result)


def plan_rows(kind: Any, result: dict[str, Any]) -> Iterator[Row]:
    """The installed-base plans (``models.plan``): their own figures, then the evaluations they hold."""
    if kind == "replication":
        for w in result.get("windows", []):
            win = str(w.get("window", ""))
            yield "", win, "replication", "write_mb_s", value_of(w.get("write_mb_s")), "MB/s"
            yield "", win, "replication", "bandwidth_mbit_s", value_of(w.get("bandwidth_mbit_s")), "Mbit/s"
            yield "", win, "replication", "lag_minutes", value_of(w.get("lag_minutes")), "min"
        yield "", ALL, "replication", "sync_write_ms", value_of(result.get("sync_write_ms")), "ms"
    elif kind == "expand":
        for figure, unit in (
            ("drives_added", ""),
            ("shelves_added", ""),
            ("usable_tb_added", "TB"),
            ("cost_added_usd", "USD"),
        ):
            yield "", ALL, "expansion", figure, value_of(result.get(figure)), unit
        yield from evaluation_rows(result.get("after") or {})
    elif kind == "quote-check":
        for f in result.get("findings", []):
            yield (
                "",
                ALL,
                f"finding {f.get('area', '')}",
                str(f.get("verdict", "")),
                f.get("amount"),
                str(f.get("unit", "")),
            )
        yield from evaluation_rows(result.get("evaluation") or {})
    elif kind == "consolidate":
        for a in result.get("arrays", []):
            name = str(a.get("name", ""))
            yield name, ALL, "placement", "workloads", " ".join(a.get("workloads", [])), ""
            yield name, ALL, "placement", "cost_usd", a.get("cost_usd"), "USD"
            yield (
                name,
                str(a.get("busiest_window", "")),
                "placement",
                "headroom_used_pct",
                a.get("headroom_used_pct"),
                "%",
            )
    elif kind == "refresh":
        for c in result.get("side_by_side", []):
            yield "current", ALL, "bill", str(c.get("figure", "")), c.get("before"), ""
            yield "successor", ALL, "bill", str(c.get("figure", "")), c.get("after"), ""


def to_csv(snapshot: dict[str, Any]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for row in rows(snapshot):
        writer.writerow([_cell(x) for x in row])
    return out.getvalue()


def priced(snapshot: dict[str, Any]) -> list[dict[str, Any]]:
    """The money (``Tco``) of each configuration a report priced, in the order the report shows them:
    a sizing's, each compared or recommended configuration's, or the report's own list for kinds
    whose result carries none. Empty for reports saved before money existed."""
    kind = snapshot.get("kind")
    result = snapshot.get("result") or {}
    found: list[Any]
    if kind == "size":
        found = [result.get("tco")]
    elif kind == "compare":
        found = [item.get("tco") for item in result.get("items", [])]
    elif kind == "recommend":
        found = [item.get("tco") for item in result.get("configurations", [])]
    else:
        found = list(snapshot.get("tco") or [])
    return [t for t in found if isinstance(t, dict)]
