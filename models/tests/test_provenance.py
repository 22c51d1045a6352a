"""Calibration status per part: the schema's rules, and every catalog record stating it honestly."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic import ValidationError

from models.catalog import Catalog, build_configuration, calibration_gaps, load_catalog
from models.controller import ControllerSpec
from models.provenance import (
    MIN_CLASS_ROWS,
    CalibrationStatus,
    ClassErrors,
    ErrorSummary,
    FigureCalibration,
    ModelErrorTable,
    PartCalibration,
    SystemClass,
    classify,
    is_streaming,
    load_model_error_table,
    margin_band,
    user_estimate,
    weakest,
    with_margins,
    without_margins,
)
from models.tests.conftest import oltp
from models.validation import ValidationContext
from models.validation.array_saturation import predicted_saturation

ROOT = Path(__file__).resolve().parents[2]
SOURCES = set(re.findall(r"^- \*\*\[([a-z0-9-]+)\]\*\*", (ROOT / "docs" / "sources.md").read_text(), re.M))


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(ROOT / "fixtures")


def test_every_catalog_record_states_status_and_known_source_keys_per_part(catalog: Catalog) -> None:
    assert calibration_gaps(catalog, SOURCES) == []


def test_a_record_without_calibration_is_named_with_its_field(catalog: Catalog) -> None:
    x70 = catalog.arrays["pure-flasharray-x70"]
    bare = x70.model_copy(update={"calibration": None})
    drive = catalog.drives["nvme-cm6v-12800"].model_copy(update={"calibration": None})
    broken = catalog.model_copy(
        update={"arrays": {**catalog.arrays, x70.id: bare}, "drives": {**catalog.drives, drive.id: drive}}
    )
    gaps = calibration_gaps(broken, SOURCES)
    assert gaps == [
        "drives[nvme-cm6v-12800].calibration: missing (status and source keys of the drive's service-time figures)",
        "arrays[pure-flasharray-x70].calibration: missing (controller, cache and ports: status and source keys)",
    ]


def test_an_unknown_source_key_is_named_with_record_and_field(catalog: Catalog) -> None:
    x70 = catalog.arrays["pure-flasharray-x70"]
    assert x70.calibration is not None
    cal = x70.calibration.model_copy(
        update={"cache": PartCalibration(status=CalibrationStatus.DATASHEET, sources=["no-such-paper-2031"])}
    )
    broken = catalog.model_copy(
        update={"arrays": {**catalog.arrays, x70.id: x70.model_copy(update={"calibration": cal})}}
    )
    assert calibration_gaps(broken, SOURCES) == [
        "arrays[pure-flasharray-x70].calibration.cache.sources: unknown source key 'no-such-paper-2031' "
        "(not in docs/sources.md)"
    ]


def _with_c60_controller_figures(
    catalog: Catalog, change: Callable[[dict[str, FigureCalibration]], dict[str, FigureCalibration]]
) -> Catalog:
    """The catalog with the //C60's ``calibration.controller.figures`` replaced by ``change(figures)``."""
    c60 = catalog.arrays["pure-flasharray-c60"]
    assert c60.calibration is not None
    part = c60.calibration.controller.model_copy(
        update={"figures": change(dict(c60.calibration.controller.figures))}
    )
    cal = c60.calibration.model_copy(update={"controller": part})
    return catalog.model_copy(
        update={"arrays": {**catalog.arrays, c60.id: c60.model_copy(update={"calibration": cal})}}
    )


def test_a_ceiling_without_its_own_status_and_sources_is_named_with_record_and_field(
    catalog: Catalog,
) -> None:
    # the //C60 states its 84,000 IOPS / 2,752.5 MB/s ceilings as datasheet figures; strip them
    broken = _with_c60_controller_figures(catalog, lambda figs: {})
    assert calibration_gaps(broken, SOURCES) == [
        "arrays[pure-flasharray-c60].calibration.controller.figures.max_iops: missing "
        "(the ceiling controller.max_iops states no status and source keys of its own)",
        "arrays[pure-flasharray-c60].calibration.controller.figures.max_mb_s: missing "
        "(the ceiling controller.max_mb_s states no status and source keys of its own)",
    ]


def test_a_figure_naming_no_field_of_its_record_is_named(catalog: Catalog) -> None:
    # "max_iop" for max_iops: the status would describe nothing, and the real ceiling none of its own
    broken = _with_c60_controller_figures(
        catalog, lambda figs: {"max_iop" if k == "max_iops" else k: v for k, v in figs.items()}
    )
    assert calibration_gaps(broken, SOURCES) == [
        "arrays[pure-flasharray-c60].calibration.controller.figures.max_iop: not a figure of the record "
        "(no field 'max_iop')",
        "arrays[pure-flasharray-c60].calibration.controller.figures.max_iops: missing "
        "(the ceiling controller.max_iops states no status and source keys of its own)",
    ]


def test_a_datasheet_ceiling_cites_the_vendor_figure(catalog: Catalog) -> None:
    c60 = catalog.arrays["pure-flasharray-c60"]
    assert c60.calibration is not None
    figs = c60.calibration.controller.figures
    assert (c60.controller.max_iops, c60.controller.max_mb_s) == (84000, 2752.5)  # 84,000 x 32 KiB
    assert figs["max_iops"].status is CalibrationStatus.DATASHEET
    assert figs["max_iops"].sources == ["pure-kb-c60-vs-x50r3"]


@pytest.mark.parametrize("status", ["measured", "fitted", "datasheet"])
def test_a_founded_status_without_a_source_key_is_refused(status: str) -> None:
    with pytest.raises(ValidationError, match="needs at least one source key"):
        PartCalibration(status=CalibrationStatus(status), sources=[])


@pytest.mark.parametrize("status", ["estimate", "estimate (user)", "fitted (site)"])
def test_estimates_and_site_fits_need_no_published_source(status: str) -> None:
    assert PartCalibration(status=CalibrationStatus(status)).sources == []


def test_a_source_key_must_look_like_a_bibliography_key() -> None:
    with pytest.raises(ValidationError, match="not keys of docs/sources.md"):
        PartCalibration(status=CalibrationStatus.DATASHEET, sources=["[netapp-tr3838]"])


def test_a_figure_may_be_better_founded_than_its_part_never_worse() -> None:
    part = PartCalibration.model_validate(
        {
            "status": "estimate",
            "figures": {"cpu_us_per_kib_written": {"status": "fitted", "sources": ["a-b"]}},
        }
    )
    assert part.figures["cpu_us_per_kib_written"].status is CalibrationStatus.FITTED
    with pytest.raises(ValidationError, match="less calibrated than the part"):
        PartCalibration.model_validate(
            {"status": "datasheet", "sources": ["a-b"], "figures": {"cores": {"status": "estimate"}}}
        )


CURRENT_ARRAYS = (
    "netapp-aff-a400",
    "netapp-aff-a800",
    "netapp-aff-c250",
    "dell-powerstore-3200t",
    "dell-powermax-8500",
    "pure-flasharray-x70",
    "pure-flasharray-c60",
    "ibm-flashsystem-7300",
    "hpe-alletra-9060",
    "hitachi-vsp-e990",
    "ceph-nvme-reference",
    "vsan-esa-reference",
)


def test_no_current_array_keeps_the_placeholder_cpu_costs(catalog: Catalog) -> None:
    # 5/15/25 us per cached read / read miss / write were placeholders that never let a current
    # controller bind (issue #31); each current array now states fitted or pessimistic-class costs
    placeholders = [
        a.id
        for a in catalog.arrays.values()
        if a.id in CURRENT_ARRAYS
        and (a.controller.cpu_us_read_hit, a.controller.cpu_us_read_miss, a.controller.cpu_us_write)
        == (5, 15, 25)
    ]
    assert placeholders == []


ONTAP_ARRAYS = ("netapp-aff-a400", "netapp-aff-a800", "netapp-aff-c250")
DATASHEET_DERIVED = ("pure-flasharray-c60",)
"""Current arrays whose CPU costs are derived from a vendor's ceiling (the class's costs scaled)."""


def test_current_arrays_without_published_costs_are_estimates_citing_the_class_anchor(
    catalog: Catalog,
) -> None:
    # the pessimistic end of current controllers (docs/nomenclature.md): 71/71/177 us, 3.0 us per KiB written;
    # the Ceph node's own costs are make calibrate's (scale_out_fit.yaml; test_validation_scale_out)
    for aid in CURRENT_ARRAYS:
        if aid in (*ONTAP_ARRAYS, *DATASHEET_DERIVED) or aid == "ceph-nvme-reference":
            continue
        a = catalog.arrays[aid]
        c = a.controller
        assert (c.cpu_us_read_hit, c.cpu_us_read_miss, c.cpu_us_write, c.cpu_us_per_kib_written) == (
            71,
            71,
            177,
            3.0,
        ), aid
        assert a.calibration is not None
        assert a.calibration.controller.status is CalibrationStatus.ESTIMATE, aid
        assert "clyso-ceph-1tibps-2024" in a.calibration.controller.sources, aid


SHARED_COSTS = {
    (
        "netapp-aff-a400",
        "netapp-aff-a800",
        "netapp-aff-c250",
    ): "ONTAP's per-core costs from NetApp's ONTAP Select measurements",
    (
        "dell-powermax-8500",
        "dell-powerstore-3200t",
        "hitachi-vsp-e990",
        "hpe-alletra-9060",
        "ibm-flashsystem-7300",
        "pure-flasharray-x70",
        "vsan-esa-reference",
    ): "no published figure: the class's pessimistic end (issue #31's rule; open)",
}
"""Current arrays that share one set of per-I/O costs, and why. Any other sharing fails the test."""


def test_current_arrays_share_per_io_costs_only_for_a_stated_reason(catalog: Catalog) -> None:
    def costs(aid: str) -> tuple[float | None, ...]:
        c = catalog.arrays[aid].controller
        return (
            c.cpu_us_read_hit,
            c.cpu_us_read_miss,
            c.cpu_us_write,
            c.cpu_us_per_kib,
            c.cpu_us_per_kib_written,
        )

    groups: dict[tuple[float | None, ...], list[str]] = {}
    for aid in CURRENT_ARRAYS:
        groups.setdefault(costs(aid), []).append(aid)
    shared = {tuple(sorted(ids)) for ids in groups.values() if len(ids) > 1}
    assert shared == set(SHARED_COSTS)


def test_c60_costs_are_the_class_costs_scaled_to_saturate_at_the_vendor_figure(catalog: Catalog) -> None:
    # Pure: 84,000 IOPS at 70/30 32 KiB, one of two controllers (32 cores) serving: 32e6 / 84,000 =
    # 381.0 core-us per I/O; the class's costs give 139.4 there, so every cost x 381.0 / 139.4 = 2.733
    c = catalog.arrays["pure-flasharray-c60"].controller
    assert round(32e6 / 84000, 1) == 381.0 and round(381.0 / 139.4, 3) == 2.733
    assert (c.cpu_us_read_hit, c.cpu_us_read_miss, c.cpu_us_write) == (194, 194, 484)  # 71, 71, 177 x 2.733
    assert (c.cpu_us_per_kib, c.cpu_us_per_kib_written, c.cpu_us_per_backend_io) == (0.137, 8.2, 13.7)
    # without its ceilings the controller alone saturates at the vendor's point (within 0.1%)
    bare = catalog.arrays["pure-flasharray-c60"].model_copy(
        update={"controller": c.model_copy(update={"max_iops": None, "max_mb_s": None})}
    )
    ctx = ValidationContext(
        calibration={}, catalog=catalog.model_copy(update={"arrays": {**catalog.arrays, bare.id: bare}})
    )
    iops, binding = predicted_saturation({"array": bare.id}, {"id": "x", "read_pct": 70, "size_kib": 32}, ctx)
    assert binding == "controllers" and iops == pytest.approx(84000, rel=1e-3)
    # and no other current vendor array shares its costs
    x70 = catalog.arrays["pure-flasharray-x70"].controller
    assert (x70.cpu_us_read_miss, x70.cpu_us_write) != (c.cpu_us_read_miss, c.cpu_us_write)


def test_ontap_records_reproduce_the_published_ontap_select_per_core_costs(catalog: Catalog) -> None:
    # NetApp publishes one ONTAP Select 9.6 medium node (8 cores) at 677 MiB/s of 8 KiB random
    # reads and 335 MiB/s of 8 KiB random writes: 8e6 / (677 x 128) = 92.3 and
    # 8e6 / (335 x 128) = 186.6 core-us per I/O. Every AFF record, storage efficiency off as in
    # that test, saturates its cores at that cost per I/O (within 2%: its RAID width differs)
    read_us, write_us = 8e6 / (677 * 128), 8e6 / (335 * 128)
    assert (round(read_us, 1), round(write_us, 1)) == (92.3, 186.6)
    for aid in ONTAP_ARRAYS:
        a = catalog.arrays[aid]
        assert a.calibration is not None
        assert "netapp-ontap-select-perf-96" in a.calibration.controller.sources, aid
        arrays = {
            **catalog.arrays,
            aid: a.model_copy(update={"inline_dedupe": False, "inline_compression": False}),
        }
        ctx = ValidationContext(calibration={}, catalog=catalog.model_copy(update={"arrays": arrays}))
        cores = a.controller.count * a.controller.cores
        for read_pct, per_io_us in ((100, read_us), (0, write_us)):
            iops, binding = predicted_saturation(
                {"array": aid}, {"id": "x", "read_pct": read_pct, "size_kib": 8}, ctx
            )
            assert binding == "controllers", aid
            assert cores * 1e6 / iops == pytest.approx(per_io_us, rel=0.02), (aid, read_pct)


def test_only_the_fas2050_controller_costs_are_fitted_today(catalog: Catalog) -> None:
    fitted = [
        a.id for a in catalog.arrays.values() if a.calibration and a.calibration.controller.status == "fitted"
    ]
    assert fitted == ["netapp-fas2050"]  # fitted to fas2050_fileserver_cpu_bound; every other one an estimate


def test_a_custom_part_without_a_source_is_a_user_estimate() -> None:
    assert user_estimate().status is CalibrationStatus.ESTIMATE_USER
    assert ControllerSpec(model="custom").calibration is None  # read as estimate (user) by the result


def test_weakest_status_orders_estimates_last() -> None:
    parts = [
        PartCalibration(status=CalibrationStatus.MEASURED, sources=["a-b"]),
        PartCalibration(status=CalibrationStatus.ESTIMATE),
        PartCalibration(status=CalibrationStatus.DATASHEET, sources=["a-b"]),
    ]
    assert weakest(parts) is CalibrationStatus.ESTIMATE
    assert weakest([*parts, user_estimate()]) is CalibrationStatus.ESTIMATE_USER


# ---- conservative by default: estimated parts at the pessimistic end of their class's band ---------


def _table(hdd_p90: float | None, overall_p90: float) -> ModelErrorTable:
    def summary(p90: float | None) -> ErrorSummary:
        return (
            ErrorSummary(rows=0)
            if p90 is None
            else ErrorSummary(rows=10, median_pct=p90 / 2, p90_pct=p90, max_pct=p90 * 2)
        )

    empty = ClassErrors(
        in_sample=summary(None),
        cross_validated=summary(None),
        out_of_sample=summary(None),
        expected=summary(None),
    )
    classes = {c: empty for c in SystemClass}
    classes[SystemClass.HDD] = empty.model_copy(update={"expected": summary(hdd_p90)})
    return ModelErrorTable(
        generated_by="test", inputs_sha256="-", classes=classes, overall=summary(overall_p90)
    )


def _hdd_config(catalog: Catalog):
    from models.catalog import build_configuration

    array = catalog.arrays["netapp-fas3170"]
    return build_configuration(
        array, catalog.drives[array.default_drive or array.drives[0]], "raid-dp", drive_count=28
    )


def _oltp():
    from models.workload import Phase, Workload

    return [
        Workload(
            name="w",
            capacity_tb=2,
            phases=[Phase(name="p", window="day", iops=1000, read_pct=70, io_size_kib=8)],
        )
    ]


def test_estimated_controller_and_drives_take_the_pessimistic_end_of_the_band(catalog: Catalog) -> None:
    cfg = _hdd_config(catalog)
    assert cfg.calibration is not None and cfg.calibration.controller.status is CalibrationStatus.ESTIMATE
    margined, margins = with_margins(cfg, _oltp(), _table(hdd_p90=20.0, overall_p90=50.0))
    # p90 20% -> f = 1.2: CPU costs x 1.2, seeks x 1.2, media rate / 1.2
    c0, c1 = cfg.controller, margined.controller
    assert c1.cpu_us_read_miss == pytest.approx(c0.cpu_us_read_miss * 1.2)
    assert c1.cpu_us_write == pytest.approx(c0.cpu_us_write * 1.2)
    d0, d1 = cfg.pools[0].drive, margined.pools[0].drive
    assert [m.part for m in margins] == (
        ["controller", "drives"] if cfg.calibration.drives.status.is_estimate else ["controller"]
    )
    if cfg.calibration.drives.status.is_estimate:
        assert d1.avg_read_seek_ms == pytest.approx(d0.avg_read_seek_ms * 1.2)
        assert d1.media_rate_mb_s == pytest.approx(d0.media_rate_mb_s / 1.2)
    assert all(m.factor == 1.2 and m.band_pct == 20.0 for m in margins)
    assert "the 90th percentile of 10 HDD arrays rows" in margins[0].text
    # what the user buys is read back as its records state it
    back = without_margins(margined, cfg)
    assert back.controller == cfg.controller and back.pools[0].drive == cfg.pools[0].drive


def test_a_class_no_row_tests_takes_every_classs_pooled_band(catalog: Catalog) -> None:
    from models.catalog import build_configuration

    x70 = catalog.arrays["pure-flasharray-x70"]
    cfg = build_configuration(x70, catalog.drives["nvme-cm6v-12800"], "raid6")
    _, margins = with_margins(cfg, _oltp(), _table(hdd_p90=20.0, overall_p90=50.0))
    assert margins[0].factor == 1.5 and "no published row tests dual-controller all-flash" in margins[0].basis


def test_a_fitted_part_keeps_its_figures(catalog: Catalog) -> None:
    from models.catalog import build_configuration

    fas2050 = catalog.arrays["netapp-fas2050"]  # controller costs fitted (fas2050_fileserver_cpu_bound)
    cfg = build_configuration(fas2050, catalog.drives[fas2050.default_drive or fas2050.drives[0]], "raid-dp")
    margined, margins = with_margins(cfg, _oltp(), _table(hdd_p90=20.0, overall_p90=50.0))
    assert margined.controller == cfg.controller
    assert "controller" not in [m.part for m in margins]


def test_a_cluster_of_dual_controller_appliances_is_judged_by_its_drives_not_as_scale_out(
    catalog: Catalog,
) -> None:
    # a PowerStore cluster grows in appliances of two controllers, an AFF one in HA pairs: the class is
    # that of their drives (all-flash); Ceph grows in single nodes and keeps copies on other nodes
    w = [oltp()]  # random 8 KiB: not a streaming load
    for array_id, drive_id, scheme, expected in (
        ("dell-powerstore-3200t", "nvme-7450-pro-7680", "raid5", SystemClass.ALL_FLASH),
        ("netapp-aff-a400", "nvme-7450-pro-7680", "raid-dp", SystemClass.ALL_FLASH),
        ("ceph-nvme-reference", None, None, SystemClass.SCALE_OUT),
    ):
        array = catalog.arrays[array_id]
        drive = catalog.drives[drive_id] if drive_id else catalog.drives_for(array)[0]
        cfg = build_configuration(array, drive, scheme or array.raid[0].scheme)
        assert classify(cfg, w) is expected, array_id


def test_a_load_is_streaming_only_when_its_streams_carry_most_bytes_and_most_ios(catalog: Catalog) -> None:
    # the OLTP template's nightly export moves most of its bytes in 256 KiB+ streams, but random 8 KiB
    # I/O makes most of its requests: it is sized by the random I/O, and its class is the drives'
    template = catalog.templates["oltp-database"].workload
    assert not is_streaming([template])
    # the export alone is a stream
    export = [p for p in template.phases if p.random_pct <= 20.0 and p.mean_size_kib >= 64.0]
    assert export and is_streaming([template.model_copy(update={"phases": export})])


def test_a_class_with_few_rows_is_sized_at_no_less_than_every_classs_band() -> None:
    table = load_model_error_table(ROOT / "fixtures" / "calibration" / "model_error.yaml")
    assert table is not None
    pooled = table.overall
    assert pooled is not None and pooled.p90_pct is not None
    hybrid = table.classes[SystemClass.HYBRID].expected
    # the shipped hybrid rows are two that agree (0% error): no evidence of a small error
    assert hybrid.rows < MIN_CLASS_ROWS and (hybrid.p90_pct or 0.0) < pooled.p90_pct
    band = margin_band(SystemClass.HYBRID, table)
    assert band is not None and band[0] == pooled.p90_pct and "only 2 hybrid" in band[1]
    # few all-flash rows that are worse than every class's: their own, larger band (a table whose
    # all-flash class has 4 rows 20 points above the pooled 90th percentile; the shipped one has more)
    shipped = table.classes[SystemClass.ALL_FLASH]
    few = ErrorSummary(rows=4, median_pct=50.0, p90_pct=pooled.p90_pct + 20.0, max_pct=pooled.p90_pct + 25.0)
    few_flash = table.model_copy(
        update={
            "classes": {**table.classes, SystemClass.ALL_FLASH: shipped.model_copy(update={"expected": few})}
        }
    )
    assert margin_band(SystemClass.ALL_FLASH, few_flash) == (
        pooled.p90_pct + 20.0,
        "the 90th percentile of 4 dual-controller all-flash rows (above every class's)",
    )
    # enough rows: the class's own
    hdd = table.classes[SystemClass.HDD].expected
    assert hdd.rows >= MIN_CLASS_ROWS
    assert margin_band(SystemClass.HDD, table) == (
        hdd.p90_pct,
        f"the 90th percentile of {hdd.rows} HDD arrays rows",
    )
