"""Host statistics -> workloads: iostat, sar/sadf, perfmon and esxtop files the tests write with a
known load (models.importers.synthetic.office_load), read back into windows and phases.

The known day (every device scaled by 1 + device/10; 8 KiB I/Os unless said):
  base          100 reads + 50 writes per s, 5 / 2 ms
  10:00-11:00   400 reads + 200 writes per s, 12 / 4 ms                      (peak hour)
  02:00-03:00   50 reads of 64 KiB + 300 writes of 256 KiB per s, 6 / 9 ms   (nightly batch)
  14:00-15:00   800 + 400 per s, 20 / 6 ms on the last three days of a month (month-end)
"""

from __future__ import annotations

import itertools
import tracemalloc
from collections.abc import Iterator
from datetime import datetime

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.base import InputError
from models.importers import (
    HostFormat,
    HostStatsOptions,
    ParseError,
    RateStatistic,
    WindowKind,
    detect_format,
    import_host_stats,
)
from models.importers import series as series_module
from models.importers import sysstat as sysstat_module
from models.importers.hoststats import HostStatsResult
from models.importers.pdh import parse_counter_path
from models.importers.series import SeriesBuilder, totals
from models.importers.synthetic import (
    write_esxtop,
    write_iostat,
    write_perfmon,
    write_sar,
)
from models.importers.textutil import Clock, decimal_mark, number
from models.importers.windows import observed_target_ms

MID_MONTH = datetime(2024, 1, 15)  # 15 + 3 days is still January: no month-end
MONTH_END = datetime(2024, 1, 29)  # 29, 30, 31 January are month-end, 1 February is not
DAY_1MIN = 24 * 60


def window(result: HostStatsResult, kind: WindowKind):  # noqa: ANN201 - a DetectedWindow
    return next(w for w in result.windows if w.kind == kind)


def phase(result: HostStatsResult, name: str, workload: int = 0):  # noqa: ANN201 - a Phase
    return next(p for p in result.workloads[workload].phases if p.name == name)


# ---- iostat -------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["9.0", "10", "12.0", "12.5"])
@pytest.mark.parametrize("stamps", ["en_US", "C", "iso", "de"])
def test_iostat_layouts_find_the_peak_hour_and_the_nightly_batch(version: str, stamps: str) -> None:
    lines = write_iostat(["sda", "sdb"], MID_MONTH, 60, DAY_1MIN, version=version, timestamps=stamps)
    result = import_host_stats(lines, HostFormat.IOSTAT)

    peak, night = window(result, WindowKind.PEAK_HOUR), window(result, WindowKind.NIGHTLY)
    assert (peak.start, peak.end) == ("2024-01-15 10:00", "2024-01-15 11:00")
    # (400 + 200) x (1.0 + 1.1) = 1,260 I/O per s, 400 / 600 = 66.67 % reads
    assert peak.load.iops.value == pytest.approx(1260.0)
    assert peak.load.read_pct == pytest.approx(66.6667, abs=1e-3)
    assert (night.start, night.offered) == ("2024-01-15 02:00", True)
    # (50 + 300) x 2.1 = 735; reads 50 / 350 = 14.29 %, 64 KiB reads and 256 KiB writes
    assert night.load.iops.value == pytest.approx(735.0)
    assert night.load.read_pct == pytest.approx(14.2857, abs=1e-3)
    assert (night.load.read_size_kib, night.load.write_size_kib) == (64.0, 256.0)
    assert [p.name for p in result.workloads[0].phases] == ["peak hour", "nightly batch"]


def test_iostat_with_one_await_gives_both_directions_the_io_weighted_mean() -> None:
    result = import_host_stats(write_iostat(["sda"], MID_MONTH, 60, DAY_1MIN, version="9.0"))
    peak = window(result, WindowKind.PEAK_HOUR).load
    # await = (400 x 12 + 200 x 4) / 600 = 9.333 ms (iostat writes 9.33) for reads and writes alike
    assert peak.read_latency_ms == pytest.approx(9.33)
    assert peak.write_latency_ms == pytest.approx(9.33)


def test_iostat_split_awaits_and_queues_travel_with_the_phase_as_evidence() -> None:
    result = import_host_stats(write_iostat(["sda", "sdb"], MID_MONTH, 60, DAY_1MIN, version="12.5"))
    observed = phase(result, "peak hour").observed
    assert observed is not None
    assert (observed.read_latency_ms, observed.write_latency_ms) == (12.0, 4.0)
    # Little's law per device: (400 x 12 + 200 x 4) / 1000 = 5.6, x 1.1 = 6.16: queues add, 11.76
    assert observed.queue_length == pytest.approx(11.76)
    assert observed.iops == pytest.approx(1260.0)
    assert observed.intervals == 60
    # busiest device sdb: 660 I/O per s / 20 = 33 % busy in the writer's model
    assert observed.utilization_pct == pytest.approx(33.0)


def test_iostat_basic_report_splits_transfers_by_bytes_and_says_so() -> None:
    result = import_host_stats(write_iostat(["sda"], MID_MONTH, 60, DAY_1MIN, version="basic", decimal=","))
    night = window(result, WindowKind.NIGHTLY).load
    # no r/s and w/s: reads = tps x read bytes / all bytes = 350 x 3,200 / 80,000 -> 4 % reads
    assert night.read_pct == pytest.approx(4.0)
    assert night.read_latency_ms is None
    assert any("split by the bytes" in n for n in result.notes)
    assert "basic report" in result.variant


def test_iostat_leaves_out_the_since_boot_report_unless_told_otherwise() -> None:
    lines = list(write_iostat(["sda"], MID_MONTH, 60, 30, timestamps="en_US"))
    assert import_host_stats(lines).samples == 30
    assert import_host_stats(lines, options=HostStatsOptions(skip_first=False)).samples == 31


def test_iostat_without_timestamps_places_reports_interval_s_apart() -> None:
    lines = list(write_iostat(["sda"], MID_MONTH, 60, DAY_1MIN, version="10", timestamps=None, cpu=False))
    result = import_host_stats(lines)
    peak = window(result, WindowKind.PEAK_HOUR)
    assert not result.clock
    assert (peak.start_offset_s, peak.start) == (36_000.0, "+10:00:00")
    assert any("no timestamps" in n for n in result.notes)
    assert WindowKind.NIGHTLY not in {w.kind for w in result.windows}  # no clock: no night
    slower = import_host_stats(lines, options=HostStatsOptions(interval_s=120))
    assert window(slower, WindowKind.PEAK_HOUR).start_offset_s == 72_000.0


def test_iostat_uses_whole_disks_by_default_not_partitions_or_stacked_devices() -> None:
    lines = write_iostat(["sda", "sda1", "dm-0", "nvme0n1", "nvme0n1p1", "loop0"], MID_MONTH, 60, 120)
    result = import_host_stats(lines)
    chosen = {d.name for d in result.devices if d.selected}
    assert chosen == {"sda", "nvme0n1"}
    kinds = {d.name: d.kind for d in result.devices}
    assert kinds == {
        "sda": "disk",
        "sda1": "partition",
        "dm-0": "stacked",
        "nvme0n1": "disk",
        "nvme0n1p1": "partition",
        "loop0": "other",
    }


def test_iostat_joins_a_long_device_name_written_on_its_own_line() -> None:
    text = (
        "Linux 3.10.0 (h) \t01/15/2024 \t_x86_64_\t(2 CPU)\n\n"
        "01/15/2024 10:00:00 AM\n"
        "Device:         rrqm/s   wrqm/s     r/s     w/s    rkB/s    wkB/s avgrq-sz avgqu-sz   await  svctm  %util\n"
        "sda               0.00     0.00   10.00   10.00    40.00    40.00     8.00     0.10    5.00   1.00   2.00\n\n"
        "01/15/2024 10:01:00 AM\n"
        "Device:         rrqm/s   wrqm/s     r/s     w/s    rkB/s    wkB/s avgrq-sz avgqu-sz   await  svctm  %util\n"
        "VolGroup00-LogVol00\n"
        "                  0.00     0.00   30.00   10.00   120.00    40.00     8.00     0.10    5.00   1.00   2.00\n\n"
    )
    result = import_host_stats(text.splitlines(keepends=True), options=HostStatsOptions(skip_first=False))
    assert {d.name for d in result.devices} == {"sda", "VolGroup00-LogVol00"}


# ---- sar ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("version", "sadf"), [("10", False), ("12", False), ("12", True)])
def test_sar_and_sadf_find_the_windows_with_a_byte_share_split(version: str, sadf: bool) -> None:
    devices = ["dev8-0", "dev8-16", "dev253-0"]
    result = import_host_stats(write_sar(devices, MID_MONTH, 600, 144, version=version, sadf=sadf))

    assert result.format == HostFormat.SAR and result.interval_s == 600.0
    assert [d.name for d in result.devices if d.selected] == ["dev8-0", "dev8-16"]  # dm: stacked
    peak = window(result, WindowKind.PEAK_HOUR)
    assert (peak.start, peak.load.intervals) == ("2024-01-15 10:00", 6)
    assert peak.load.iops.value == pytest.approx(1260.0, rel=1e-4)
    # sar has no r/s: reads = tps x read bytes / bytes; 400 x 8 / 4,800 -> 66.67 % (sizes equal)
    assert peak.load.read_pct == pytest.approx(66.6667, abs=1e-2)
    # one await for both directions: 9.33 ms written with two decimals
    assert peak.load.read_latency_ms == pytest.approx(9.33)
    night = window(result, WindowKind.NIGHTLY).load
    # 80,000 KiB/s over 350 I/O per s = 228.571 KiB per I/O, 3,200 / 80,000 = 4 % reads
    assert night.read_size_kib == pytest.approx(228.571, abs=1e-3)
    assert night.read_pct == pytest.approx(4.0, abs=1e-3)


def test_sar_text_rolls_over_midnight_without_a_second_banner() -> None:
    lines = [x for x in write_sar(["sda"], MID_MONTH, 600, 288, version="12") if not x.startswith("\nLinux")]
    assert sum(x.startswith("Linux") for x in lines) == 1
    result = import_host_stats(lines)
    assert (result.start, result.end) == ("2024-01-15 00:00", "2024-01-17 00:00")
    days = [w.name for w in result.windows if w.kind == WindowKind.DAILY_PEAK]
    assert days == ["busiest 60 min of 2024-01-15", "busiest 60 min of 2024-01-16"]


def test_sar_skips_the_sections_of_other_activities() -> None:
    lines = list(write_sar(["sda"], MID_MONTH, 600, 6, version="12"))
    cpu = [
        "\n",
        "12:00:01 AM     CPU     %user     %nice   %system   %iowait    %steal     %idle\n",
        "12:10:01 AM     all      3.25      0.00      1.42      0.35      0.00     94.98\n",
    ]
    result = import_host_stats([*lines[:-1], *cpu, lines[-1]])
    assert [d.name for d in result.devices] == ["sda"]
    assert result.samples == 6


def test_sadf_says_its_times_are_utc() -> None:
    result = import_host_stats(write_sar(["sda"], MID_MONTH, 600, 144, sadf=True))
    assert "UTC" in result.variant
    assert any("UTC hours" in n for n in result.notes)


# ---- perfmon ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("decimal", "delimiter", "order"),
    [(".", ",", "mdy"), (",", ",", "dmy"), (",", ";", "dmy"), (".", "\t", "mdy")],
)
def test_perfmon_csv_in_any_locale_gives_the_same_windows(decimal: str, delimiter: str, order: str) -> None:
    lines = write_perfmon(3, MID_MONTH, 60, DAY_1MIN, decimal=decimal, delimiter=delimiter, date_order=order)
    result = import_host_stats(lines)

    assert result.format == HostFormat.PERFMON
    assert f"decimal {'comma' if decimal == ',' else 'point'}" in result.variant
    peak = window(result, WindowKind.PEAK_HOUR)
    assert (peak.start, peak.end) == ("2024-01-15 10:00", "2024-01-15 11:00")
    # 600 x (1.0 + 1.1 + 1.2) = 1,980 I/O per s; Avg. Disk sec/Read 0.012 s = 12 ms
    assert peak.load.iops.value == pytest.approx(1980.0)
    assert peak.load.read_latency_ms == pytest.approx(12.0)
    assert peak.load.write_latency_ms == pytest.approx(4.0)
    # busy = 100 - % Idle Time; the busiest disk (x 1.2) does 720 / 20 = 36 %
    assert peak.load.busiest_utilization_pct == pytest.approx(36.0)
    assert peak.load.busiest_device == "PhysicalDisk(2 E:)"


def test_perfmon_capacity_comes_from_the_volumes_free_space() -> None:
    result = import_host_stats(write_perfmon(2, MID_MONTH, 60, 90))
    # 256,000 MiB free at 25 % free: 1,024,000 MiB = 1,073.742 GB per volume, two volumes
    assert {d.name: d.capacity_gb for d in result.devices if d.selected} == {
        "PhysicalDisk(0 C:)": 1073.742,
        "PhysicalDisk(1 D:)": 1073.742,
    }
    assert result.workloads[0].capacity_tb == pytest.approx(2.147484)


def test_perfmon_lists_the_counters_it_does_not_use() -> None:
    result = import_host_stats(write_perfmon(2, MID_MONTH, 60, 90))
    assert result.unknown_counters == [
        "Memory\\Available MBytes",
        "PhysicalDisk\\Current Disk Queue Length",
        "PhysicalDisk\\Split IO/Sec",
        "Processor\\% Processor Time",
    ]


def test_perfmon_counter_paths_keep_instances_with_parentheses() -> None:
    path = parse_counter_path("\\\\SQL01\\Network Interface(Intel(R) 82574L)\\Bytes Total/sec")
    assert path is not None
    assert (path.machine, path.object, path.instance, path.counter) == (
        "SQL01",
        "Network Interface",
        "Intel(R) 82574L",
        "Bytes Total/sec",
    )
    bare = parse_counter_path("\\Memory\\Available MBytes")
    assert bare is not None and (bare.machine, bare.object, bare.instance) == (None, "Memory", None)


def test_perfmon_names_the_line_column_and_counter_of_a_bad_value() -> None:
    lines = list(write_perfmon(1, MID_MONTH, 60, 5))
    cells = lines[3].rstrip("\n").split('","')
    cells[2] = "n/a"
    lines[3] = '","'.join(cells) + "\n"
    with pytest.raises(ParseError) as info:
        import_host_stats(lines)
    assert (info.value.line, info.value.column) == (4, 3)
    assert info.value.column_name == "\\\\SQL01\\PhysicalDisk(0 C:)\\Disk Writes/sec"
    assert str(info.value).startswith("line 4, column 3 (\\\\SQL01\\PhysicalDisk(0 C:)\\Disk Writes/sec)")


def test_perfmon_tolerates_a_last_line_cut_short_but_not_one_in_the_middle() -> None:
    lines = list(write_perfmon(1, MID_MONTH, 60, 90))
    cut = [*lines[:-1], lines[-1][:40] + "\n"]
    result = import_host_stats(cut)
    assert any("cut short" in n for n in result.notes)
    broken = [*lines[:10], lines[10][:40] + "\n", *lines[11:]]
    with pytest.raises(ParseError) as info:
        import_host_stats(broken)
    assert info.value.line == 11


# ---- esxtop -------------------------------------------------------------------------------------


def test_esxtop_with_hundreds_of_columns_uses_the_scsi_devices_and_driver_latency() -> None:
    lines = list(write_esxtop(4, MID_MONTH, 60, DAY_1MIN, cpus=32, vms=4))
    assert lines[0].count('","') + 1 > 300
    result = import_host_stats(lines)

    assert result.format == HostFormat.ESXTOP
    chosen = [d for d in result.devices if d.selected]
    assert len(chosen) == 4 and all(d.kind == "device" for d in chosen)
    assert {d.kind for d in result.devices} == {"adapter", "device", "vm", "vm-disk"}
    peak = window(result, WindowKind.PEAK_HOUR).load
    # 600 x (1.0 + 1.1 + 1.2 + 1.3) = 2,760 I/O per s; DAVG 12 / 4 ms (GAVG adds 0.05 ms)
    assert peak.iops.value == pytest.approx(2760.0)
    assert (peak.read_latency_ms, peak.write_latency_ms) == (12.0, 4.0)
    assert "driver (DAVG)" in result.variant
    assert "Group Cpu\\% Ready" in result.unknown_counters


def test_esxtop_adapters_carry_the_same_io_as_their_devices() -> None:
    lines = list(write_esxtop(4, MID_MONTH, 60, 180, cpus=4, vms=2))
    devices = import_host_stats(lines)
    names = [d.name for d in devices.devices if d.kind == "adapter"]
    adapters = import_host_stats(lines, options=HostStatsOptions(devices=names))
    a = window(adapters, WindowKind.WHOLE).load
    d = window(devices, WindowKind.WHOLE).load
    assert a.mean_iops == pytest.approx(d.mean_iops, rel=1e-3)


# ---- detection, options, errors -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (write_iostat(["sda"], MID_MONTH, 60, 2), HostFormat.IOSTAT),
        (
            write_iostat(["sda"], MID_MONTH, 60, 2, version="basic", cpu=False, timestamps=None),
            HostFormat.IOSTAT,
        ),
        (write_sar(["sda"], MID_MONTH, 600, 2), HostFormat.SAR),
        (write_sar(["sda"], MID_MONTH, 600, 2, version="10"), HostFormat.SAR),
        (write_sar(["sda"], MID_MONTH, 600, 2, sadf=True), HostFormat.SAR),
        (write_perfmon(1, MID_MONTH, 60, 2), HostFormat.PERFMON),
        (write_perfmon(1, MID_MONTH, 60, 2, delimiter=";", decimal=","), HostFormat.PERFMON),
        (write_esxtop(1, MID_MONTH, 60, 2, cpus=2, vms=1), HostFormat.ESXTOP),
    ],
)
def test_the_format_is_detected_from_the_first_lines(lines: Iterator[str], expected: HostFormat) -> None:
    assert detect_format(list(itertools.islice(lines, 64))) == expected


def test_an_unknown_file_is_refused_at_line_one() -> None:
    with pytest.raises(ParseError) as info:
        import_host_stats(["time,op,offset,size\n", "0.1,R,4096,4096\n"])
    assert info.value.line == 1
    with pytest.raises(ParseError, match="JSON"):
        import_host_stats(['{"sysstat": {"hosts": []}}\n'])


def test_a_bad_iostat_value_names_its_line_and_column() -> None:
    lines = list(write_iostat(["sda"], MID_MONTH, 60, 3, version="10"))
    bad = next(i for i, x in enumerate(lines) if x.startswith("sda") and i > 10)
    tokens = lines[bad].split()
    tokens[4] = "abc"  # the w/s column
    lines[bad] = " ".join(tokens) + "\n"
    with pytest.raises(ParseError) as info:
        import_host_stats(lines)
    assert (info.value.line, info.value.column, info.value.column_name) == (bad + 1, 5, "w/s")


def test_naming_a_device_the_file_lacks_is_an_input_error_on_devices() -> None:
    with pytest.raises(InputError) as info:
        import_host_stats(write_iostat(["sda"], MID_MONTH, 60, 30), options=HostStatsOptions(devices=["sdz"]))
    assert info.value.field == "devices"
    assert "'sdz'" in info.value.reason and "'sda'" in info.value.reason


def test_month_end_is_a_window_of_its_own_and_the_peak_hour_comes_from_other_days() -> None:
    result = import_host_stats(write_sar(["sda"], MONTH_END, 600, 144 * 4))  # 29 Jan - 1 Feb
    month_end = window(result, WindowKind.MONTH_END)
    assert (month_end.offered, month_end.start) == (True, "2024-01-29 14:00")
    assert month_end.load.iops.value == pytest.approx(1200.0, rel=1e-4)
    peak = window(result, WindowKind.PEAK_HOUR)
    assert peak.start == "2024-02-01 10:00"  # the only day that is not month-end
    assert [p.name for p in result.workloads[0].phases] == ["peak hour", "nightly batch", "month-end"]


def test_the_rate_statistic_picks_mean_p95_or_peak_of_the_interval_totals() -> None:
    lines = list(write_iostat(["sda"], MID_MONTH, 60, DAY_1MIN))
    opts = {"window_minutes": 120}  # 10:00-11:00 at 600 and an hour at 150 around it
    rates = {
        r: window(import_host_stats(lines, options=HostStatsOptions(rate=r, **opts)), WindowKind.PEAK_HOUR)
        for r in RateStatistic
    }
    # 60 intervals at 600 and 60 at 150: mean 375, p95 and peak 600
    assert rates[RateStatistic.MEAN].load.iops.value == pytest.approx(375.0)
    assert rates[RateStatistic.P95].load.iops.value == pytest.approx(600.0)
    assert rates[RateStatistic.PEAK].load.iops.value == pytest.approx(600.0)


def test_separate_workloads_share_the_windows_and_add_up_to_the_merged_one() -> None:
    lines = list(write_iostat(["sda", "sdb"], MID_MONTH, 60, DAY_1MIN))
    merged = import_host_stats(lines)
    apart = import_host_stats(lines, options=HostStatsOptions(merge=False, capacity_tb=4))
    assert [w.name for w in apart.workloads] == ["sda", "sdb"]
    assert [p.window for p in apart.workloads[0].phases] == [p.window for p in merged.workloads[0].phases]
    assert phase(apart, "peak hour", 0).iops + phase(apart, "peak hour", 1).iops == pytest.approx(
        phase(merged, "peak hour").iops
    )
    assert [w.capacity_tb for w in apart.workloads] == [2.0, 2.0]


def test_windows_can_be_left_out_of_the_phases() -> None:
    lines = list(write_iostat(["sda"], MID_MONTH, 60, DAY_1MIN))
    result = import_host_stats(lines, options=HostStatsOptions(windows=[WindowKind.NIGHTLY]))
    assert [p.name for p in result.workloads[0].phases] == ["nightly batch"]
    assert "not asked for" in window(result, WindowKind.PEAK_HOUR).reason


# ---- bounded memory -----------------------------------------------------------------------------


def test_a_long_series_is_coarsened_within_the_memory_bound_and_keeps_its_totals() -> None:
    lines = list(write_iostat([f"sd{c}" for c in "abcde"], MID_MONTH, 60, 3 * DAY_1MIN))
    fine = import_host_stats(lines)
    coarse = import_host_stats(lines, options=HostStatsOptions(max_cells=10_000))
    assert coarse.resolution_s == 240.0 and fine.resolution_s == 60.0
    assert any("kept at 240 s" in n for n in coarse.notes)
    for a, b in zip(fine.devices, coarse.devices, strict=True):
        assert b.mean_iops == pytest.approx(a.mean_iops, rel=1e-9)
    # the 60-minute peak is 15 four-minute intervals: still the peak hour
    assert window(coarse, WindowKind.PEAK_HOUR).load.iops.value == pytest.approx(
        window(fine, WindowKind.PEAK_HOUR).load.iops.value
    )


def test_memory_does_not_grow_with_the_length_of_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    # small chunks, so a day already fills several: the peak is the chunks + the buckets
    monkeypatch.setattr(series_module, "FLUSH_SAMPLES", 1024)
    monkeypatch.setattr(sysstat_module, "CHUNK_ROWS", 512)

    def peak_kib(days: int) -> float:
        lines = write_iostat([f"sd{c}" for c in "abcd"], MID_MONTH, 60, days * DAY_1MIN, cpu=False)
        tracemalloc.start()
        import_host_stats(lines, options=HostStatsOptions(max_cells=10_000))
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return peak / 1024

    one, four = peak_kib(1), peak_kib(4)
    assert four < 1.25 * one, (one, four)


@settings(max_examples=40, deadline=None)
@given(
    rates=st.lists(st.tuples(st.floats(0, 5000), st.floats(0, 5000)), min_size=2, max_size=300),
    interval=st.sampled_from([1.0, 5.0, 60.0, 600.0]),
    max_cells=st.sampled_from([10_000, 400_000]),
)
def test_bucketing_keeps_every_io_whatever_the_resolution(
    rates: list[tuple[float, float]], interval: float, max_cells: int
) -> None:
    builder = SeriesBuilder(resolution_s=60.0, max_cells=max_cells, flush_samples=64)
    dev = builder.device("sda")
    for i, (r, w) in enumerate(rates):
        one = np.array([1.0])
        builder.add(
            np.array([1e9 + (i + 1) * interval]),
            np.array([dev]),
            one * r,
            one * w,
            one * r * 4096,
            one * w * 4096,
        )
    series = builder.finish()
    tot = totals(series, [dev])
    seconds = series.acc[0, 0].sum()
    assert seconds == pytest.approx(len(rates) * interval)
    # every bucket's rate x its seconds adds back to the I/Os put in
    per_bucket = series.acc[0, 0]
    assert float((tot.iops * per_bucket).sum()) == pytest.approx(
        sum(r + w for r, w in rates) * interval, rel=1e-9
    )


# ---- numbers and dates --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "decimal", "value"),
    [
        ("12.5", ".", 12.5),
        ("12,5", ",", 12.5),
        ("1,234.5", ".", 1234.5),
        ("1.234,5", ",", 1234.5),
        ("1 234,5", ",", 1234.5),
        ("1\u00a0234,5", ",", 1234.5),
        ("1'234.5", ".", 1234.5),
    ],
)
def test_numbers_in_any_locale(text: str, decimal: str, value: float) -> None:
    assert number(text, decimal) == value


def test_a_blank_value_is_a_missing_sample_and_text_is_an_error() -> None:
    assert np.isnan(number(" ", "."))
    with pytest.raises(ValueError):
        number("n/a", ".")


def test_the_decimal_mark_is_read_from_the_values() -> None:
    assert decimal_mark(["12,5", "0,000000", "3"]) == ","
    assert decimal_mark(["12.5", "1,234.5"]) == "."
    assert decimal_mark(["1.234,5"]) == ","
    assert decimal_mark(["12", "3"]) is None


def test_day_and_month_order_is_learned_from_the_values() -> None:
    us = Clock()
    us.learn(["01/15/2024 09:00:00"])
    # the host's clock as it reads, counted like UTC: 15 January 2024 09:00
    assert (
        us.seconds("01/15/2024 09:00:00") == (datetime(2024, 1, 15, 9) - datetime(1970, 1, 1)).total_seconds()
    )
    eu = Clock()
    eu.learn(["15/01/2024 09:00:00"])
    assert eu.order_of("/") == "dmy"
    midnight = Clock()
    midnight.learn(["02/01/2024 23:59:00", "03/01/2024 00:00:00"])  # the first number changes: the day
    assert midnight.order_of("/") == "dmy"
    unsure = Clock()
    unsure.learn(["02/01/2024 10:00:00"])
    assert unsure.order_of("/") == "mdy" and unsure.note is not None


def test_a_log_without_disk_counters_says_which_objects_it_has() -> None:
    header = (
        '"(PDH-CSV 4.0) (W. Europe Standard Time)(-60)","\\\\SQL01\\Processor(_Total)\\% Processor Time"\n'
    )
    with pytest.raises(ParseError) as info:
        import_host_stats([header, '"01/15/2024 10:00:00.000","12.5"\n'])
    assert info.value.line == 1
    assert "the log has the objects Processor" in str(info.value)


def test_the_read_latency_the_host_saw_is_each_phases_default_target_and_the_notes_say_so() -> None:
    # one await of 9.33 ms (test above): the target is 9.4 ms (rounded up to 0.1 ms, never stricter)
    result = import_host_stats(write_iostat(["sda"], MID_MONTH, 60, DAY_1MIN, version="9.0"))
    assert phase(result, "peak hour").read_latency_target_ms == pytest.approx(9.4)
    assert any("read latency target is the read latency the host saw" in n for n in result.notes)
    # split awaits: reads 12.0 ms exactly -> 12.0
    split = import_host_stats(write_iostat(["sda", "sdb"], MID_MONTH, 60, DAY_1MIN, version="12.5"))
    assert phase(split, "peak hour").read_latency_target_ms == pytest.approx(12.0)
    # latency_target none: no target, no note
    lines = write_iostat(["sda"], MID_MONTH, 60, DAY_1MIN, version="9.0")
    none = import_host_stats(lines, options=HostStatsOptions(latency_target="none"))
    assert phase(none, "peak hour").read_latency_target_ms is None
    assert not any("read latency target" in n for n in none.notes)


@pytest.mark.parametrize(
    ("ms", "target"), [(9.33, 9.4), (12.0, 12.0), (0.04, 0.1), (None, None), (0.0, None)]
)
def test_an_observed_target_is_rounded_up_to_a_tenth_of_a_millisecond(
    ms: float | None, target: float | None
) -> None:
    assert observed_target_ms(ms) == target
