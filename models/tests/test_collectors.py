"""What an engagement starts with: Live Optics and RVTools workbooks, array exports (ONTAP, PowerStore,
the generic CSV), and several of them lined up on one clock.

Every file is built here from the documented layouts (models.importers.synthetic_exports) with
the known day of models.importers.synthetic.office_load, each object scaled by 1 + object/10:
  base          100 reads + 50 writes per s (8 KiB), 5 / 2 ms
  10:00-11:00   400 reads + 200 writes per s (8 KiB), 12 / 4 ms          (peak hour)
  02:00-03:00   50 reads of 64 KiB + 300 writes of 256 KiB per s, 6 / 9 ms (nightly batch)
so two objects carry 600 x (1.0 + 1.1) = 1,260 I/O per s in the peak hour.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest

from models.base import InputError
from models.importers.arraystats import (
    ArrayFormat,
    ArrayStatsOptions,
    detect_array_format,
    import_array_stats,
)
from models.importers.common import ParseError
from models.importers.liveoptics import import_live_optics
from models.importers.rvtools import GroupBy, import_rvtools
from models.importers.synthetic import office_load
from models.importers.synthetic_exports import (
    afternoon_load,
    live_optics_workbook,
    rvtools_workbook,
    write_generic_csv,
    write_ontap_qos,
    write_ontap_statistics,
    write_powerstore_csv,
)
from models.importers.timeline import CapacitySource, LoadSeries, TimelineLayer, line_up, parse_zone
from models.importers.windows import DetectedWindow, WindowKind
from models.importers.workbook import WorkbookError, open_workbook
from models.importers.xlsx_writer import write_xlsx

DAY = datetime(2024, 1, 15)
TB_PER_MIB = 1024**2 / 1e12


def xlsx(write, *args, **kwargs) -> bytes:  # noqa: ANN001
    out = io.BytesIO()
    write(out, *args, **kwargs)
    return out.getvalue()


def peak(windows: list[DetectedWindow]) -> DetectedWindow:
    return next(w for w in windows if w.kind == WindowKind.PEAK_HOUR)


# ---- workbooks: what an upload named .xlsx may really be ----------------------------------------


def test_a_text_file_named_xlsx_is_not_a_workbook() -> None:
    with pytest.raises(WorkbookError, match="not an xlsx workbook .*zip archive"):
        open_workbook(b"timestamp,object,read_iops\n2024-01-15,vol1,5\n")


def test_an_encrypted_workbook_is_refused_saying_so() -> None:
    # Office encryption wraps the package in an OLE2 compound file with an EncryptedPackage stream
    cfb = (
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504) + "EncryptedPackage".encode("utf-16-le") + bytes(64)
    )
    with pytest.raises(WorkbookError, match="encrypted .*without a password"):
        open_workbook(cfb)


def test_a_legacy_xls_is_refused_asking_for_xlsx() -> None:
    cfb = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504) + "Workbook".encode("utf-16-le") + bytes(64)
    with pytest.raises(WorkbookError, match=r"Excel 97-2003 workbook \(.xls\)"):
        open_workbook(cfb)


def test_a_zip_that_is_no_workbook_is_refused() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("readme.txt", "hello")
    with pytest.raises(WorkbookError, match="without xl/workbook.xml"):
        open_workbook(out.getvalue())


def zip_bomb(sheet_bytes: int) -> bytes:
    """A real workbook whose sheet carries ``sheet_bytes`` of blanks: it packs about 1,000:1."""
    good = xlsx(write_xlsx, {"vInfo": [["VM", "In Use MiB"], ["a", 1.0]]})
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(good)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename.endswith("sheet1.xml"):
                data = data.replace(b"<sheetData>", b"<sheetData>" + b" " * sheet_bytes)
            dst.writestr(item.filename, data)
    return out.getvalue()


def test_a_zip_bomb_is_refused_before_it_is_unpacked() -> None:
    bomb = zip_bomb(64 * 1024**2)  # 64 MiB of blanks in a file of about 64 kB
    assert len(bomb) < 200_000
    with pytest.raises(WorkbookError, match="zip bomb"):
        open_workbook(bomb).table("vInfo")


def test_the_unpacked_budget_bounds_a_large_workbook() -> None:
    wb = xlsx(write_xlsx, {"vInfo": [["VM", "In Use MiB"]] + [[f"vm{i}", float(i)] for i in range(5000)]})
    with pytest.raises(WorkbookError, match="more than the 100,000 allowed"):
        open_workbook(wb, max_unpacked_bytes=100_000).table("vInfo")


def test_a_cell_that_is_no_number_is_named_by_sheet_row_and_column() -> None:
    vms = [("vm1", "A", 2048.0, 1024.0), ("vm2", "A", 2048.0, 1024.0)]
    wb = xlsx(rvtools_workbook, vms)
    bad = xlsx(
        write_xlsx,
        {"vInfo": [["VM", "Provisioned MiB", "In Use MiB", "Cluster"], ["vm1", 10.0, "lots", "A"]]},
    )
    assert import_rvtools(wb).vms == 2
    with pytest.raises(WorkbookError) as err:
        import_rvtools(bad)
    assert str(err.value) == "sheet 'vInfo', row 2, column 'In Use MiB': not a number: 'lots'"


# ---- Live Optics ----------------------------------------------------------------------------------


def test_live_optics_time_series_becomes_windows_with_the_peak_hour() -> None:
    wb = xlsx(live_optics_workbook, ["vm1", "vm2"], DAY, 600, 144)

    result = import_live_optics(wb)

    assert result.performance == "time series" and result.stats_sheet == "Performance"
    assert result.stats is not None
    w = peak(result.stats.windows)
    assert (w.start, w.end) == ("2024-01-15 10:00", "2024-01-15 11:00")
    # 600 x (1.0 + 1.1) = 1,260 I/O per s in every 10-minute interval of the hour
    assert w.load.iops.value == pytest.approx(1260.0)
    assert w.load.iops.source == (
        "sheet 'Performance', columns 'Read IOPS', 'Write IOPS', 'Read MB/s', 'Write MB/s', "
        "'Read Latency (ms)', 'Write Latency (ms)', 'Queue Depth'"
    )
    # reads 12 ms in the hour, I/O-weighted over both VMs
    assert w.load.read_latency_ms == pytest.approx(12.0)
    workload = result.workloads[0]
    assert workload.name == "Synthetic engagement"
    assert [p.name for p in workload.phases] == ["peak hour", "nightly batch"]
    # the VMs sheet: 2 x 500 GiB in use = 1,024,000 MiB = 1.073741824 TB (servers are the VMs)
    assert workload.capacity_tb == pytest.approx(1_024_000 * TB_PER_MIB)
    assert result.capacity_tb is not None
    assert result.capacity_tb.source == "sheet 'VMs', column 'Virtual Disk Used (MiB)'"
    assert result.series is not None and result.series.interval_s == 600.0


def test_live_optics_without_a_time_series_sizes_the_sum_of_each_vms_peak() -> None:
    wb = xlsx(live_optics_workbook, ["vm1", "vm2"], DAY, 600, 144, series=False)

    result = import_live_optics(wb)

    assert result.performance == "summary" and result.series is None
    phases = {p.name: p for p in result.workloads[0].phases}
    # Peak Read IOPS (400, peak hour) + Peak Write IOPS (300, nightly batch) per VM, x (1.0 + 1.1):
    # (400 + 300) x 2.1 = 1,470, more than any interval carried (conservative, and said so)
    assert phases["peak"].iops == pytest.approx(1470.0)
    peak_figure = next(f for f in result.figures if f.formula.startswith("IOPS_peak"))
    assert peak_figure.source == "sheet 'VM Performance', columns 'Peak Read IOPS', 'Peak Write IOPS'"
    assert "95th percentile" in phases
    assert any("overstates the coincident peak" in n for n in result.notes)


def test_live_optics_missing_column_and_sheet_are_named() -> None:
    no_column = xlsx(live_optics_workbook, ["vm1"], DAY, 600, 6, drop=("VMs", "Virtual Disk Used (MiB)"))
    with pytest.raises(WorkbookError, match="^sheet 'VMs', row 1: no column 'Virtual Disk Used \\(MiB\\)'"):
        import_live_optics(no_column)
    no_perf = xlsx(live_optics_workbook, ["vm1"], DAY, 600, 6, series=False, drop=("VM Performance", ""))
    with pytest.raises(WorkbookError, match="no performance in the workbook"):
        import_live_optics(no_perf)


def test_an_rvtools_workbook_given_as_live_optics_says_which_it_is() -> None:
    with pytest.raises(WorkbookError, match="RVTools workbook"):
        import_live_optics(xlsx(rvtools_workbook, [("vm1", "A", 10.0, 5.0)]))


# ---- RVTools ---------------------------------------------------------------------------------------

VMS = [
    ("app1", "Prod", 204800.0, 102400.0),
    ("app2", "Prod", 102400.0, 51200.0),
    ("test1", "Test", 51200.0, 10240.0),
]


def test_rvtools_groups_capacity_by_cluster_from_vinfo() -> None:
    result = import_rvtools(xlsx(rvtools_workbook, VMS), GroupBy.CLUSTER)

    groups = {g.name: g for g in result.groups}
    # Prod: 102,400 + 51,200 = 153,600 MiB in use = 161.06 GB; provisioned 307,200 MiB
    assert groups["Prod"].in_use_gb == pytest.approx(153600 * 1024**2 / 1e9, abs=1e-3)
    assert groups["Prod"].vms == 2
    assert groups["Prod"].capacity_tb.value == pytest.approx(153600 * TB_PER_MIB)
    assert groups["Prod"].capacity_tb.source == "sheet 'vInfo', column 'In Use MiB'"
    assert groups["Prod"].growth_to_provisioned_pct == pytest.approx(100.0)  # 307,200 / 153,600 - 1
    assert result.vms == 3 and result.vms_without_performance == ["app1", "app2", "test1"]
    assert result.in_use_tb.value == pytest.approx(163840 * TB_PER_MIB)
    assert [s.name for s in result.capacity_sources] == ["Prod", "Test"]


def test_rvtools_by_datastore_reads_vdatastore() -> None:
    result = import_rvtools(xlsx(rvtools_workbook, VMS), GroupBy.DATASTORE)

    prod = next(g for g in result.groups if g.name == "ds-Prod")
    assert prod.in_use_gb == pytest.approx(153600 * 1024**2 / 1e9, abs=1e-3)
    # capacity is twice the provisioned 307,200 MiB; free = capacity - in use
    assert prod.free_gb == pytest.approx((614400 - 153600) * 1024**2 / 1e9, abs=1e-3)
    assert prod.capacity_tb.source == "sheet 'vDatastore', column 'In Use MiB'"


def test_rvtools_older_mb_columns_are_read_and_missing_ones_named() -> None:
    old = xlsx(
        write_xlsx,
        {"vInfo": [["VM", "Provisioned MB", "In Use MB", "Cluster"], ["vm1", 2048.0, 1024.0, "A"]]},
    )
    assert import_rvtools(old).groups[0].capacity_tb.value == pytest.approx(1024 * TB_PER_MIB)
    missing = xlsx(rvtools_workbook, VMS, drop=("vInfo", "In Use MiB"))
    with pytest.raises(WorkbookError, match="^sheet 'vInfo', row 1: no column 'In Use MiB' or 'In Use MB'"):
        import_rvtools(missing)
    with pytest.raises(WorkbookError, match="no sheet 'vDatastore'"):
        import_rvtools(xlsx(rvtools_workbook, VMS, drop=("vDatastore", "")), GroupBy.DATASTORE)


# ---- array exports ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "lines", "options"),
    [
        (ArrayFormat.GENERIC_CSV, lambda: write_generic_csv(["v1", "v2"], DAY, 300, 288), None),
        (ArrayFormat.POWERSTORE, lambda: write_powerstore_csv(["v1", "v2"], DAY, 300, 288), None),
        (ArrayFormat.ONTAP_STATISTICS, lambda: write_ontap_statistics(["v1", "v2"], DAY, 300, 288), None),
        (
            ArrayFormat.ONTAP_QOS,
            lambda: write_ontap_qos(["v1", "v2"], 300, 288),
            ArrayStatsOptions(interval_s=300),
        ),
    ],
)
def test_each_array_export_finds_the_peak_hour(fmt, lines, options) -> None:  # noqa: ANN001
    result = import_array_stats(lines(), None, options)

    assert result.format == fmt
    w = peak(result.windows)
    assert w.start.endswith("10:00:00" if fmt == ArrayFormat.ONTAP_QOS else "2024-01-15 10:00")
    assert w.load.iops.value == pytest.approx(1260.0, rel=2e-3)  # qos rounds IOPS to whole numbers
    # reads 400 of 600: 66.7 % (qos: the characteristics table rounds it to 67 %)
    assert w.load.read_pct == pytest.approx(66.67, abs=0.4)


def test_array_units_are_converted_as_documented() -> None:
    ontap = import_array_stats(write_ontap_statistics(["v1"], DAY, 300, 288))
    # read_data 3.13MB (400 x 8 KiB = 3,276,800 B/s = 3.125 MiB, printed with 2 decimals), 12000us
    w = peak(ontap.windows)
    assert w.load.read_size_kib == pytest.approx(8.0, rel=2e-3)
    assert w.load.read_latency_ms == pytest.approx(12.0)
    power = import_array_stats(write_powerstore_csv(["v1"], DAY, 300, 288))
    # avg_read_latency 12000.0 us = 12 ms; read_bandwidth 3,276,800 B/s / 400 = 8 KiB
    assert peak(power.windows).load.read_latency_ms == pytest.approx(12.0)
    assert peak(power.windows).load.read_size_kib == pytest.approx(8.0)
    assert power.series is not None and power.series.zone == "UTC"


def test_generic_csv_with_offsets_is_placed_on_utc() -> None:
    result = import_array_stats(write_generic_csv(["v1"], DAY, 300, 288, offset="+01:00"))
    # 10:00 at +01:00 is 09:00 UTC
    assert peak(result.windows).start == "2024-01-15 09:00"
    assert result.series is not None and result.series.zone == "UTC"


def test_generic_csv_mixing_clocks_names_the_row() -> None:
    lines = list(write_generic_csv(["v1"], DAY, 300, 4, offset="Z"))
    lines[3] = lines[3].replace("Z,", ",", 1)
    with pytest.raises(ParseError) as err:
        import_array_stats(lines)
    assert str(err.value).startswith("line 4, column 1 (timestamp): '2024-01-15T00:15:00' has no UTC offset")


def test_qos_without_a_read_share_or_interval_asks_for_it() -> None:
    perf_only = list(write_ontap_qos(["v1"], 300, 12, characteristics=False))
    with pytest.raises(InputError, match="^interval_s: qos statistics output has no timestamps"):
        import_array_stats(perf_only)
    with pytest.raises(InputError, match="^read_pct: qos performance tables give total IOPS only"):
        import_array_stats(perf_only, None, ArrayStatsOptions(interval_s=300))
    split = import_array_stats(perf_only, None, ArrayStatsOptions(interval_s=300, read_pct=70))
    assert split.windows[0].load.read_pct == pytest.approx(70.0)


def test_detect_array_format_and_its_refusal() -> None:
    assert detect_array_format(list(write_generic_csv(["v"], DAY, 60, 1))) == ArrayFormat.GENERIC_CSV
    assert detect_array_format(list(write_powerstore_csv(["v"], DAY, 60, 1))) == ArrayFormat.POWERSTORE
    with pytest.raises(ParseError, match="not an array export"):
        detect_array_format(["Device r/s w/s\n"])


# ---- one timeline ----------------------------------------------------------------------------------


def series_of(lines: Iterator[str], name: str) -> LoadSeries:
    result = import_array_stats(lines, None, ArrayStatsOptions(workload_name=name))
    assert result.series is not None
    return result.series


def test_the_coincident_peak_is_less_than_the_sum_of_peaks() -> None:
    office = series_of(write_generic_csv(["v1"], DAY, 300, 288), "office")
    batch = series_of(write_generic_csv(["b1"], DAY, 300, 288, load=afternoon_load), "afternoon")

    tl = line_up(
        [
            TimelineLayer(series=office, time_zone="Europe/Berlin"),
            TimelineLayer(series=batch, time_zone="+01:00"),
        ]
    )

    # office peaks at 600 (10:00), afternoon at 1,000 (14:00): P_sum = 1,600; together the busiest
    # interval is 14:00 with 150 + 1,000 = 1,150 I/O per s; D = 1,600 / 1,150 = 1.391
    assert tl.sum_of_peaks.value == pytest.approx(1600.0)
    assert tl.coincident_peak.value == pytest.approx(1150.0)
    assert tl.coincident_peak_at == "2024-01-15 14:00"
    assert tl.diversity.value == pytest.approx(1600.0 / 1150.0)
    assert tl.clock == "UTC+01:00" and tl.interval_s == 300.0
    busiest = peak(tl.windows)
    assert (busiest.start, busiest.end) == ("2024-01-15 14:00", "2024-01-15 15:00")
    share = next(s for s in tl.shares if s.window == busiest.name)
    assert share.layers == {"office": pytest.approx(150.0), "afternoon": pytest.approx(1000.0)}
    assert share.together == ["afternoon"]
    assert [w.name for w in tl.workloads] == ["office", "afternoon"]
    assert [p.iops for p in tl.workloads[0].phases][0] == pytest.approx(150.0)
    # the office's own peak hour is another time: sized too, with the afternoon load at its base
    own = next(w for w in tl.windows if w.kind == WindowKind.IMPORT_PEAK)
    assert (own.name, own.start, own.offered) == ("office peak", "2024-01-15 10:00", True)
    assert own.load.iops.value == pytest.approx(700.0)  # 600 + 100
    office_phases = {p.window: p.iops for p in tl.workloads[0].phases}
    assert office_phases["office peak"] == pytest.approx(600.0)


def test_zones_shift_series_onto_one_clock() -> None:
    berlin = series_of(write_generic_csv(["v1"], DAY, 300, 288), "berlin")
    london = series_of(write_generic_csv(["v1"], DAY, 300, 288), "london")

    tl = line_up(
        [
            TimelineLayer(series=berlin, time_zone="Europe/Berlin"),
            TimelineLayer(series=london, time_zone="UTC"),
        ]
    )

    # both peak at 10:00 local: 09:00 and 10:00 UTC, one hour apart: never together
    assert tl.coincident_peak.value == pytest.approx(600.0 + 150.0)
    assert tl.sum_of_peaks.value == pytest.approx(1200.0)
    assert any("only the span every import covers" in n for n in tl.notes)


def test_a_stated_zone_that_disagrees_with_the_file_is_refused() -> None:
    utc = series_of(write_powerstore_csv(["v1"], DAY, 300, 24), "array")
    assert line_up([TimelineLayer(series=utc, time_zone="UTC")]).clock == "UTC+00:00"
    with pytest.raises(InputError) as err:
        line_up([TimelineLayer(series=utc, time_zone="America/New_York")])
    assert err.value.field == "layers.0.time_zone"
    assert "states its times in UTC; the zone given, America/New_York, disagrees" in err.value.reason


def test_local_times_the_clock_went_through_twice_cannot_be_placed() -> None:
    # 27 October 2024: Berlin's clocks went back from 03:00 to 02:00
    dst = series_of(write_generic_csv(["v1"], datetime(2024, 10, 26, 12), 300, 288), "host")
    with pytest.raises(InputError) as err:
        line_up([TimelineLayer(series=dst, time_zone="Europe/Berlin")])
    assert err.value.field == "layers.0.time_zone"
    assert "2024-10-27 02:00, a local time that Europe/Berlin went through twice" in err.value.reason
    assert line_up([TimelineLayer(series=dst, time_zone="+02:00")]).interval_s == 300.0


def test_a_missing_zone_and_series_that_never_overlap_are_named() -> None:
    local = series_of(write_generic_csv(["v1"], DAY, 300, 24), "host")
    with pytest.raises(InputError, match="does not say which time zone"):
        line_up([TimelineLayer(series=local)])
    later = series_of(write_generic_csv(["v1"], DAY + timedelta(days=3), 300, 24), "later")
    with pytest.raises(
        InputError, match="do not overlap in time .*host: 2024-01-14 23:00 to 2024-01-15 01:00 UTC"
    ):
        line_up(
            [TimelineLayer(series=local, time_zone="+01:00"), TimelineLayer(series=later, time_zone="+01:00")]
        )
    with pytest.raises(ValueError, match="not a time zone"):
        parse_zone("Mars/Olympus")


def test_capacity_without_performance_replaces_the_imports_own() -> None:
    office = series_of(write_generic_csv(["v1"], DAY, 300, 288), "office")
    other = series_of(write_generic_csv(["v2"], DAY, 300, 288), "other")
    office = office.model_copy(update={"capacity_tb": 3.0})
    other = other.model_copy(update={"capacity_tb": 1.0})

    tl = line_up(
        [TimelineLayer(series=office, time_zone="UTC"), TimelineLayer(series=other, time_zone="UTC")],
        [
            CapacitySource(name="Prod", capacity_tb=6.0, source="RVTools"),
            CapacitySource(name="Test", capacity_tb=2.0, source="RVTools"),
        ],
    )

    # 8 TB in use, split 3:1 as the imports' own figures are
    assert tl.capacity_tb.value == pytest.approx(8.0)
    assert [w.capacity_tb for w in tl.workloads] == [pytest.approx(6.0), pytest.approx(2.0)]


def test_live_optics_rvtools_and_iostat_line_up() -> None:
    from models.importers import import_host_stats
    from models.importers.synthetic import write_iostat

    lo = import_live_optics(xlsx(live_optics_workbook, ["vm1", "vm2"], DAY, 600, 144))
    rv = import_rvtools(xlsx(rvtools_workbook, VMS))
    host = import_host_stats(write_iostat(["sda"], DAY, 60, 24 * 60))
    assert lo.series is not None and host.series is not None

    tl = line_up(
        [
            TimelineLayer(series=lo.series, time_zone="Europe/Berlin"),
            TimelineLayer(series=host.series, time_zone="Europe/Berlin"),
        ],
        rv.capacity_sources,
    )

    # both peak 10:00-11:00: 1,260 + 600 = 1,860 at once, as much as the sum of peaks
    assert tl.coincident_peak.value == pytest.approx(1860.0)
    assert tl.sum_of_peaks.value == pytest.approx(1860.0)
    assert tl.interval_s == 600.0  # the Live Optics samples are 10 minutes
    assert sum(w.capacity_tb for w in tl.workloads) == pytest.approx(163840 * TB_PER_MIB)
    assert office_load(DAY, 0).iops == 150.0
