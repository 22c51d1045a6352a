"""The all-flash / scale-out validation handler (``kind: flash_scale_out``, issue #15)."""

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from models.catalog import load_catalog
from models.raid import RaidScheme
from models.validation import IN_SAMPLE, OUT_OF_SAMPLE, ValidationContext
from models.validation.scale_out import (
    _layout,
    binding_resource,
    fit_costs,
    measured_iops,
    predict,
    scale_out_rows,
)

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(scope="module")
def ctx() -> ValidationContext:
    return ValidationContext(calibration={}, catalog=load_catalog(FIXTURES))


def _record(measurements: list[dict], fit: dict[str, str]) -> dict:
    """A write-only test cluster: 4 nodes of 6 SATA SSDs, 32 cores and one 25GbE each."""
    return {
        "id": "synthetic",
        "model": {
            "array": "ceph-nvme-reference",
            "drive": "ssd-sata-s4510-3840",
            "nodes": 4,
            "drives_per_node": 6,
            "cores_per_node": 32,
            "ports": {"type": "25gbe", "per_node": 1},
            "cluster_network_mb_s": 2900,
            "capacity_tb": 3.2,
        },
        "fit": fit,
        "iops_tolerance_pct": 25,
        "measurements": measurements,
    }


def test_throughput_figures_convert_to_iops_at_the_io_size():
    # 63 GiB/s of 4 MiB I/Os: 63 x 2^30 / 2^22 = 63 x 256 = 16,128 IOPS
    assert measured_iops({"id": "r", "size_kib": 4096, "gib_s": 63}) == pytest.approx(16128.0, rel=1e-12)
    # 13.13 GB/s (decimal) of 4 MiB I/Os: 13.13e9 / 4,194,304 = 3,130.436 IOPS
    assert measured_iops({"id": "r", "size_kib": 4096, "gb_s": 13.13}) == pytest.approx(3130.436, rel=1e-6)
    assert measured_iops({"id": "r", "size_kib": 4, "iops": 248000}) == 248000.0
    with pytest.raises(ValueError, match="iops, gb_s or gib_s"):
        measured_iops({"id": "r", "size_kib": 4})


def test_an_erasure_coded_measurement_is_a_k_plus_m_stripe_kept_once():
    layout, copies = _layout({"id": "ec", "ec": [2, 1]}, 24)
    assert layout.scheme is RaidScheme.ERASURE
    assert (layout.group_width, layout.ec_data, layout.ec_parity, copies) == (3, 2, 1, 1)
    layout, copies = _layout({"id": "r3", "copies": 3}, 24)
    assert (layout.scheme, layout.copies, copies) == (RaidScheme.REPLICA, 3, 3)
    with pytest.raises(ValueError, match="no 4\\+2 stripe"):
        _layout({"id": "ec", "ec": [4, 2]}, 4)


def test_the_binding_resource_is_the_busiest_utilization_not_a_failover_what_if_or_wear():
    checks = [
        SimpleNamespace(name="drives:pool", value=40.0, unit="%"),
        SimpleNamespace(name="controllers", value=99.9, unit="%"),
        SimpleNamespace(name="controllers after failover", value=133.2, unit="%"),
        SimpleNamespace(name="endurance:pool", value=250.0, unit="DWPD"),
        SimpleNamespace(name="ports", value=None, unit="%"),
    ]
    assert binding_resource(checks) == "controllers"
    assert binding_resource([]) == "none"


def test_a_cpu_bound_write_costs_every_copy_so_three_copies_give_two_thirds_of_two(ctx):
    # CPU per front-end write = copies x (c_write + KiB x c_KiB + back-end I/O x c_BE): with the
    # cores the binding resource, 3 copies sustain exactly 2/3 of the IOPS of 2 copies
    m2 = {"id": "w2", "copies": 2, "read_pct": 0, "size_kib": 4, "iops": 90000}
    m3 = {"id": "w3", "copies": 3, "read_pct": 0, "size_kib": 4, "iops": 1}
    record = _record([m2, m3], {"cpu_us_write": "w2"})
    costs = fit_costs(record, ctx)
    assert set(costs) == {"cpu_us_write"}  # the read-miss cost is not fitted: the catalog's stays
    iops2, bind2 = predict(record, m2, ctx, costs)
    iops3, bind3 = predict(record, m3, ctx, costs)
    assert iops2 == pytest.approx(90000.0, rel=1e-5)
    assert iops3 == pytest.approx(60000.0, rel=1e-5)
    assert bind2 == bind3 == "controllers"


def test_the_catalog_nodes_iops_ceiling_is_not_carried_to_a_records_own_hardware(ctx):
    # the catalog Ceph node states the published per-node wall (600,000 4 KiB reads per node);
    # a record describes other nodes (its cores, drives, ports): 4 NVMe nodes fitted to 2.8M reads (700K per node)
    # stay CPU-bound at 2.8M, where the catalog's ceiling would cap them at 4 x 600K = 2.4M
    assert ctx.catalog.arrays["ceph-nvme-reference"].controller.max_iops == 600000
    m = {"id": "r", "copies": 3, "read_pct": 100, "size_kib": 4, "iops": 2800000}
    record = _record([m], {"cpu_us_read_miss": "r"})
    record["model"] |= {
        "drive": "nvme-cm6r-30720",
        "drives_per_node": 10,
        "cores_per_node": 48,
        "ports": {"type": "100gbe", "per_node": 2},
        "cluster_network_mb_s": 23000,
    }
    costs = fit_costs(record, ctx)
    iops, binding = predict(record, m, ctx, costs)
    assert iops == pytest.approx(2800000.0, rel=1e-5)
    assert binding == "controllers"


def test_a_fit_naming_an_unknown_cost_is_refused(ctx):
    record = _record(
        [{"id": "w2", "copies": 2, "read_pct": 0, "size_kib": 4, "iops": 90000}], {"cpu_us_hit": "w2"}
    )
    with pytest.raises(ValueError, match="unknown costs"):
        fit_costs(record, ctx)


def test_a_not_gated_measurement_is_reported_with_its_error_binding_and_reason(ctx):
    m2 = {"id": "w2", "copies": 2, "read_pct": 0, "size_kib": 4, "iops": 90000}
    m3 = {"id": "w3", "copies": 3, "read_pct": 0, "size_kib": 4, "iops": 50000, "not_gated": "a stated gap"}
    m3g = {"id": "w3g", "copies": 3, "read_pct": 0, "size_kib": 4, "iops": 50000}
    rows = {r.metric: r for r in scale_out_rows(_record([m2, m3, m3g], {"cpu_us_write": "w2"}), ctx)}
    fitted, reported, gated = rows["w2 IOPS"], rows["w3 IOPS"], rows["w3g IOPS"]
    assert fitted.basis == IN_SAMPLE and not fitted.gate
    assert reported.basis == OUT_OF_SAMPLE and not reported.gate and reported.tolerance_pct is None
    assert "not gated: a stated gap" in reported.note and "binds: controllers" in reported.note
    # predicted 60,000 against 50,000 measured: +20%, inside the record's 25% when gated
    assert reported.error_pct == pytest.approx(20.0, rel=1e-4)
    assert gated.gate and gated.tolerance_pct == 25 and gated.passed


def test_issue_15_out_of_sample_flash_rows_from_three_sources_each_name_what_binds(ctx):
    doc = yaml.safe_load((FIXTURES / "validation" / "flash_scale_out.yaml").read_text())
    rows, sources = [], set()
    for record in doc["records"]:
        numeric = [r for r in scale_out_rows(record, ctx) if r.basis == OUT_OF_SAMPLE and r.expect is None]
        rows += numeric
        if numeric:
            sources.add(re.match(r"\[([^\]]+)\]", record["source"]).group(1))
    assert len(rows) >= 8
    assert len(sources) >= 3
    assert all(re.search(r"binds: \S", r.note) for r in rows)
    assert all(r.error_pct is not None for r in rows)
