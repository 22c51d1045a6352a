"""Importers: Iometer access specifications, fio job files and fio JSON results -> phases."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from models.importers import (
    ImportedPhase,
    ParseError,
    parse_fio_job,
    parse_fio_json,
    parse_iometer_spec,
    to_iometer_spec,
)
from models.workload import Phase

# [iometer-file-server] file-server access specification, iometer_spec_lines (a YAML block scalar,
# so the text ends with a newline)
PUBLISHED_SPEC = (
    "'size,% of size,% reads,% random,delay,burst,align,reply\n"
    "512,10,80,100,0,1,0,0\n"
    "1024,5,80,100,0,1,0,0\n"
    "2048,5,80,100,0,1,0,0\n"
    "4096,60,80,100,0,1,0,0\n"
    "8192,2,80,100,0,1,0,0\n"
    "16384,4,80,100,0,1,0,0\n"
    "32768,4,80,100,0,1,0,0\n"
    "65536,10,80,100,0,1,0,0\n"
)


# ---- Iometer ------------------------------------------------------------------------------------


def test_published_iometer_spec_round_trips_exactly() -> None:
    imported = parse_iometer_spec(PUBLISHED_SPEC)
    assert to_iometer_spec(imported) == PUBLISHED_SPEC


def test_published_iometer_spec_round_trips_through_a_phase() -> None:
    phase = parse_iometer_spec(PUBLISHED_SPEC).to_phase("business hours", iops=3000)
    assert isinstance(phase, Phase)
    assert to_iometer_spec(phase) == PUBLISHED_SPEC


def test_published_iometer_spec_is_the_file_server_mix() -> None:
    p = parse_iometer_spec(PUBLISHED_SPEC)
    assert (p.read_pct, p.random_pct) == (80, 100)
    assert [(s.size_kib, s.pct) for s in p.io_sizes] == [
        (0.5, 10),
        (1, 5),
        (2, 5),
        (4, 60),
        (8, 2),
        (16, 4),
        (32, 4),
        (64, 10),
    ]
    # mean = 0.05 + 0.05 + 0.1 + 2.4 + 0.16 + 0.64 + 1.28 + 6.4 = 11.08 KiB
    assert p.mean_size_kib == pytest.approx(11.08)
    assert p.warnings == [] and p.source_format == "iometer"


def test_read_and_random_shares_are_weighted_by_size_share() -> None:
    text = "# two sizes\n4096,75,100,100,0,1,0,0\n65536,25,0,0,0,1,0,0\n"
    p = parse_iometer_spec(text)
    # read = (75 x 100 + 25 x 0) / 100 = 75; random likewise 75
    assert (p.read_pct, p.random_pct) == (75, 75)
    assert any("read % differs by size" in w for w in p.warnings)


def test_unquoted_header_comments_and_blank_lines_are_accepted() -> None:
    text = "size,% of size,% reads,% random,delay,burst,align,reply\n\n// comment\n8192,100,70,100,0,1,0,0\n"
    p = parse_iometer_spec(text)
    assert (p.read_pct, p.io_sizes[0].size_kib) == (70, 8)


def test_a_bad_iometer_line_reports_its_line_number() -> None:
    text = PUBLISHED_SPEC.replace("2048,5,80,100,0,1,0,0", "2048,5,80,100,0,1,0")
    with pytest.raises(ParseError, match="line 4: expected 8 comma-separated fields") as exc:
        parse_iometer_spec(text)
    assert exc.value.line == 4


def test_a_non_numeric_iometer_field_reports_its_line_number() -> None:
    text = PUBLISHED_SPEC.replace("8192,2,80", "8192,two,80")
    with pytest.raises(ParseError, match="line 6: '% of size' must be a number, got 'two'") as exc:
        parse_iometer_spec(text)
    assert exc.value.line == 6


def test_an_iometer_percentage_over_100_is_rejected() -> None:
    with pytest.raises(ParseError, match="line 1: '% reads' must be 0-100, got 150"):
        parse_iometer_spec("4096,100,150,100,0,1,0,0\n")


def test_size_shares_must_sum_to_100() -> None:
    with pytest.raises(ParseError, match="must sum to 100 over all lines, got 90") as exc:
        parse_iometer_spec("4096,50,80,100,0,1,0,0\n8192,40,80,100,0,1,0,0\n")
    assert exc.value.line is None


def test_an_empty_spec_is_rejected() -> None:
    with pytest.raises(ParseError, match="no access-specification lines"):
        parse_iometer_spec("'just a header\n")


def test_iometer_delay_and_reply_are_warned_about() -> None:
    p = parse_iometer_spec("4096,100,80,100,5,1,0,512\n")
    assert any("delay 5 ms ignored" in w for w in p.warnings)
    assert any("reply size 512 ignored" in w for w in p.warnings)


def test_a_phase_with_a_fractional_byte_size_cannot_be_written_for_iometer() -> None:
    phase = Phase(name="x", window="w", read_pct=50, io_size_kib=1.0001)
    with pytest.raises(ValueError, match="not a whole number of bytes"):
        to_iometer_spec(phase)


def test_imported_phase_is_frozen() -> None:
    p = parse_iometer_spec(PUBLISHED_SPEC)
    with pytest.raises(ValidationError):
        p.read_pct = 10  # type: ignore[misc]


# ---- fio job files ------------------------------------------------------------------------------

FIO_OLTP = """\
; an OLTP-like fio job
[global]
ioengine=libaio
direct=1
bs=8k
iodepth=16
group_reporting

[oltp]
rw=randrw
rwmixread=70
rate_iops=700
numjobs=2
size=10g
"""


def test_fio_job_mix_rate_depth_and_working_set() -> None:
    p = parse_fio_job(FIO_OLTP)
    assert p.name == "oltp" and p.source_format == "fio-job"
    assert (p.read_pct, p.random_pct) == (70, 100)
    assert [(s.size_kib, s.pct) for s in p.io_sizes] == [(8, 100)]
    # rate_iops=700 caps reads; reads are 70% of I/O -> 700 / 0.7 = 1,000 IOPS per job, x 2 jobs
    assert p.iops == pytest.approx(2000)
    assert p.queue_depth == 32  # iodepth 16 x numjobs 2
    # size=10g per job = 10 x 2^30 bytes, two jobs -> 21.47 GB (decimal)
    assert p.working_set_gb == pytest.approx(2 * 10 * 2**30 / 1e9)
    assert p.ignored_keys == ["direct", "group_reporting", "ioengine"]
    assert any("caps each direction" in w for w in p.warnings)


def test_fio_bssplit_with_a_blank_share_takes_the_remainder() -> None:
    p = parse_fio_job("[scan]\nrw=randread\nbssplit=4k/50:64k/\nrate_iops=1000\n")
    assert (p.read_pct, p.random_pct, p.iops) == (100, 100, 1000)
    assert [(s.size_kib, s.pct) for s in p.io_sizes] == [(4, 50), (64, 50)]


def test_fio_read_and_write_block_sizes_mix_by_the_read_share() -> None:
    p = parse_fio_job("[mixed]\nrw=rw\nrwmixread=75\nbs=4k,64k\n")
    assert (p.read_pct, p.random_pct) == (75, 0)  # rw = sequential mixed
    assert [(s.size_kib, s.pct) for s in p.io_sizes] == [(4, 75), (64, 25)]
    assert any("read and write sizes differ" in w for w in p.warnings)
    assert p.iops == 0 and p.mb_per_s is None
    assert any("no rate_iops or rate" in w for w in p.warnings)


def test_fio_jobs_are_combined_by_their_rates() -> None:
    text = "[reads]\nrw=randread\nbs=4k\nrate_iops=3000\n\n[writes]\nrw=write\nbs=1m\nrate_iops=1000\n"
    p = parse_fio_job(text)
    # weights 3000 : 1000 -> read = 75%, random = (3000 x 100 + 1000 x 0) / 4000 = 75%
    assert (p.read_pct, p.random_pct, p.iops) == (75, 75, 4000)
    assert [(s.size_kib, s.pct) for s in p.io_sizes] == [(4, 75), (1024, 25)]
    assert any("2 jobs combined" in w for w in p.warnings)


def test_fio_bandwidth_rate_becomes_mb_per_s() -> None:
    # rate=100m with kb_base 1024 = 100 x 2^20 B/s = 104.8576 MB/s
    p = parse_fio_job("[stream]\nrw=write\nbs=1m\nrate=100m\n")
    assert p.mb_per_s == pytest.approx(104.8576)
    assert p.to_phase("night").effective_mb_s == pytest.approx(104.8576)


def test_fio_percentage_random_and_kb_base() -> None:
    p = parse_fio_job("[j]\nrw=randread\npercentage_random=40\nkb_base=1000\nbs=4k\n")
    assert p.random_pct == 40
    assert p.io_sizes[0].size_kib == pytest.approx(4000 / 1024)


def test_fio_unknown_rw_mode_reports_the_job_line() -> None:
    with pytest.raises(ParseError, match="unknown rw mode 'sideways'") as exc:
        parse_fio_job("[global]\nbs=4k\n\n[bad]\nrw=sideways\n")
    assert exc.value.line == 4


def test_fio_option_outside_a_section_reports_its_line() -> None:
    with pytest.raises(ParseError, match="line 2: option outside a \\[section\\]"):
        parse_fio_job("; comment\nrw=read\n")


def test_fio_bad_size_reports_the_job() -> None:
    with pytest.raises(ParseError, match=r"line 1: \[j\]: unknown size unit"):
        parse_fio_job("[j]\nrw=read\nbs=4q\n")


# ---- fio JSON results ---------------------------------------------------------------------------


def _fio3_result() -> str:
    # 60 s run: 3,000 read IOPS of 4 KiB (180,000 I/Os), 1,000 write IOPS of 8 KiB (60,000 I/Os)
    return "fio: note: both iodepth >= 1 and synchronous I/O engine are selected\n" + json.dumps(
        {
            "fio version": "fio-3.28",
            "global options": {"ioengine": "libaio", "iodepth": "8"},
            "jobs": [
                {
                    "jobname": "oltp",
                    "job options": {"rw": "randrw", "rwmixread": "75", "bs": "4k"},
                    "read": {
                        "io_bytes": 180000 * 4096,
                        "total_ios": 180000,
                        "iops": 3000.0,
                        "bw": 12000,
                        "bw_bytes": 12288000,
                        "runtime": 60000,
                        "clat_ns": {"mean": 1900000.0},
                        "lat_ns": {"mean": 2000000.0},
                    },
                    "write": {
                        "io_bytes": 60000 * 8192,
                        "total_ios": 60000,
                        "iops": 1000.0,
                        "bw": 8000,
                        "bw_bytes": 8192000,
                        "runtime": 60000,
                        "lat_ns": {"mean": 500000.0},
                    },
                    "trim": {"iops": 0.0},
                }
            ],
        }
    )


def test_fio_json_gives_measured_rate_mix_and_latencies() -> None:
    p = parse_fio_json(_fio3_result())
    assert p.name == "oltp" and p.source_format == "fio-json"
    assert p.iops == 4000  # 3,000 reads + 1,000 writes
    assert p.read_pct == 75  # 3,000 / 4,000
    assert [(s.size_kib, s.pct) for s in p.io_sizes] == [(4, 75), (8, 25)]
    # (3,000 x 4,096 + 1,000 x 8,192) B/s = 20.48 MB/s
    assert p.mb_per_s == pytest.approx(20.48)
    assert p.measured_read_latency_ms == pytest.approx(2.0)  # lat_ns 2,000,000 ns
    assert p.measured_write_latency_ms == pytest.approx(0.5)
    assert p.random_pct == 100 and p.queue_depth == 8
    phase = p.to_phase("business hours")
    assert (phase.iops, phase.mb_per_s) == (4000, None)
    assert phase.effective_mb_s == pytest.approx(20.48)


def test_fio2_json_uses_microsecond_latencies_and_kib_bandwidth() -> None:
    doc = {
        "jobs": [
            {
                "jobname": "old",
                "read": {"iops": 500, "bw": 2000, "lat": {"mean": 1500.0}},
                "write": {"iops": 0},
            }
        ]
    }
    p = parse_fio_json(json.dumps(doc))
    # 2,000 KiB/s / 500 IOPS = 4 KiB per read; 1,500 us = 1.5 ms
    assert p.io_sizes[0].size_kib == pytest.approx(4)
    assert p.measured_read_latency_ms == pytest.approx(1.5)
    assert p.measured_write_latency_ms is None
    assert p.read_pct == 100
    assert any("random % assumed 100" in w for w in p.warnings)


def test_fio_json_errors() -> None:
    with pytest.raises(ParseError, match="no JSON object"):
        parse_fio_json("fio: error")
    with pytest.raises(ParseError, match="invalid JSON") as exc:
        parse_fio_json('{\n"jobs": [,]\n}')
    assert exc.value.line == 2
    with pytest.raises(ParseError, match="no 'jobs'"):
        parse_fio_json('{"jobs": []}')
    with pytest.raises(ParseError, match="no read or write I/O"):
        parse_fio_json('{"jobs": [{"read": {"iops": 0}, "write": {"iops": 0}}]}')


def test_to_phase_overrides_the_rate_and_window() -> None:
    imported: ImportedPhase = parse_fio_job(FIO_OLTP)
    phase = imported.to_phase("month-end batch", name="batch", iops=500, read_latency_target_ms=5)
    assert (phase.name, phase.window, phase.iops, phase.read_latency_target_ms) == (
        "batch",
        "month-end batch",
        500,
        5,
    )
    assert phase.working_set_gb == imported.working_set_gb
