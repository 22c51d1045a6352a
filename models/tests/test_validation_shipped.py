"""Every validation file predicts from what ships (issue #30): a record states which shipped records
it runs on (catalog arrays and drives, custom_hardware.yaml records, calibrated layouts and host
set-ups) and the test's own configuration (counts, ports, queue depths, fill, cache sizes); never a
figure the engine would otherwise take from the fixtures. A key outside these lists fails here,
naming the file, the record and the key: a value the engine uses belongs in fixtures/catalog or
fixtures/calibration (``make calibrate`` when it is fitted), where every user gets it too.

flash_scale_out.yaml has its own, stricter test (test_validation_scale_out: the node each row
runs on equals the shipped one).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from models.catalog import load_catalog
from models.validation import ValidationContext
from models.validation.queue_depth_curves import predict_curve
from models.validation.runner import load_yaml_dir

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
VALIDATION = FIXTURES / "validation"

META = {"id", "source", "system_class", "status", "setup", "published", "lesson", "source_context", "label"}
"""What any record may say about itself (where it comes from, in words)."""

GATES = {"tolerance_pct", "iops_tolerance_pct", "gates", "gate_window_pct", "gate_min_ratio", "not_gated"}
"""Acceptance gates: how close a prediction must come, never an input."""

ALLOWED: dict[str, dict[str, set[str]]] = {
    # kind: {"record": keys, "model": keys of record["model"], "setup": keys of a setup mapping,
    #        "measurement": keys of each measurement}
    "array_saturation": {
        "record": {"array", "controller", "storage_efficiency", "measurements"},
        "measurement": {"id", "iops", "read_pct", "size_kib", "ceiling_source", "cost_source", "not_gated"},
    },
    "building_blocks": {
        "record": {"model", "basis", "measured"},
        "model": {
            "array",
            "drive",
            "drives_per_block",
            "group_width",
            "name",
            "rack_units",
            "raid",
            "streams",
        },
    },
    "cache_and_tiering": {
        "record": {"case", "figures", "measured", "upper_bounds"},
        "setup": {
            "access",
            "block_kib",
            "cache_gb",
            "capacity_gb",
            "dedupe_footprint_reduction_pct",
            "dram_dedupe_aware",
            "dram_gb",
            "flash_cache_gb",
            "flash_dedupe_aware",
            "host_read_gb",
            "working_set_gb",
        },
    },
    "drive_queue_depth": {"record": {"drive", "fit_for", "points"}},
    "flash_scale_out": {
        "record": {"model", "measurements"},
        "model": {"array", "capacity_tb", "controller", "drive", "drives_per_node", "nodes", "ports"},
        "measurement": {
            "id",
            "binding",
            "ceiling_source",
            "copies",
            "ec",
            "gb_s",
            "gib_s",
            "iops",
            "known_failure",
            "nodes",
            "not_gated",
            "random_pct",
            "read_pct",
            "size_kib",
        },
    },
    "node_cpu_use": {
        "record": {"model", "measurements"},
        "model": {"array", "capacity_tb", "controller", "drive", "drives_per_node", "nodes"},
        "measurement": {"id", "copies", "cores_used", "iops", "not_gated", "read_pct", "size_kib"},
    },
    "queue_depth_curves": {
        # cpu_cost_prior: where a leave-one-out refit starts (make validate's own prediction never
        # reads it: test_a_refits_prior_never_reaches_the_shipped_prediction)
        "record": {"model", "columns", "rows", "cpu_cost_prior"},
        "model": {
            "array",
            "capacity_tb",
            "controllers_serving",
            "drive",
            "drive_count",
            "group_width",
            "host_setup",
            "io_mix",
            "layout",
            "layout_measure",
            "ports",
            "raid",
            "working_set_gb",
        },
    },
    "rebuild_times": {
        "record": {
            "capacity_gb",
            "drive",
            "drives_read",
            "measured_hours",
            "measured_ratio",
            "metric",
            "pool_drives",
            "rebuild_priority_pct",
            "sparing",
        }
    },
    "standard_method": {
        # busy_pct and the write penalties are the textbook method's, the column the product is set beside
        "record": {
            "array",
            "busy_pct",
            "drives",
            "info_only",
            "raid",
            "read_pct",
            "workload",
            "known_shortfall",
        },
    },
}


def _files() -> list[Path]:
    return sorted(VALIDATION.glob("*.yaml"))


def _doc(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def ctx() -> ValidationContext:
    return ValidationContext(
        calibration=load_yaml_dir(FIXTURES / "calibration"), catalog=load_catalog(FIXTURES)
    )


def test_every_validation_file_is_of_a_kind_this_test_knows() -> None:
    kinds = {path.name: _doc(path)["kind"] for path in _files()}
    assert set(kinds.values()) <= set(ALLOWED), {n: k for n, k in kinds.items() if k not in ALLOWED}


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_a_record_states_only_shipped_records_and_the_tests_configuration(path: Path) -> None:
    doc = _doc(path)
    allowed = ALLOWED[doc["kind"]]
    extra = []
    for record in doc["records"]:
        rid = record["id"]
        extra += [f"{rid}: {k}" for k in set(record) - META - GATES - allowed["record"]]
        for part in ("model", "setup"):
            if isinstance(record.get(part), dict):
                extra += [f"{rid}.{part}: {k}" for k in set(record[part]) - allowed.get(part, set())]
        for m in record.get("measurements") or []:
            extra += [f"{rid}/{m.get('id')}: {k}" for k in set(m) - GATES - allowed.get("measurement", set())]
    assert extra == [], f"{path.name}: values not from the shipped fixtures: {sorted(extra)}"


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_every_record_it_names_ships(path: Path, ctx: ValidationContext) -> None:
    assert ctx.catalog is not None
    customs = {r["id"] for r in (ctx.calibration.get("custom_hardware") or {}).get("records", [])}
    engine = ctx.calibration.get("engine") or {}
    unknown = []
    for record in _doc(path)["records"]:
        model = record.get("model") if isinstance(record.get("model"), dict) else record
        refs = {
            "array": (model.get("array"), ctx.catalog.arrays),
            "drive": (model.get("drive"), ctx.catalog.drives),
            "controller": (model.get("controller", record.get("controller")), customs),
            "host_setup": (model.get("host_setup"), engine.get("setups") or {}),
            "layout": (model.get("layout"), engine.get("layouts") or {}),
        }
        for field, (name, shipped) in refs.items():
            if isinstance(name, str) and name not in shipped:
                unknown.append(f"{record['id']}: {field} {name!r}")
        drives = record.get("drives")
        for label, drive in drives.items() if isinstance(drives, dict) else []:
            if drive not in ctx.catalog.drives:
                unknown.append(f"{record['id']}: drive {label} {drive!r}")
    assert unknown == [], f"{path.name}: names records that do not ship: {unknown}"


def test_a_refits_prior_never_reaches_the_shipped_prediction(ctx: ValidationContext) -> None:
    # make validate predicts a queue-depth curve from the catalog's controller; the record's
    # cpu_cost_prior is where a leave-one-out refit starts, so changing it changes nothing here
    records = _doc(VALIDATION / "queue_depth_curves.yaml")["records"]
    record = next(r for r in records if r.get("cpu_cost_prior"))
    other = copy.deepcopy(record)
    other["cpu_cost_prior"] = {k: 10 * float(v) for k, v in record["cpu_cost_prior"].items()}

    shipped = [p.iops for p in predict_curve(record, ctx).points]
    assert [p.iops for p in predict_curve(other, ctx).points] == shipped
