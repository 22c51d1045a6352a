"""A 50 MB Live Optics workbook imported, in a fresh process: seconds and peak memory.

Three steps, so that the measured process holds nothing but the import::

    python -m bench.xlsx_import write PATH [--mb 50]     # a Live Optics workbook of about 50 MB
    python -m bench.xlsx_import import PATH              # import_live_optics: one JSON line
    python -m bench.xlsx_import rows PATH --reader R     # R = calamine | openpyxl: rows only

The workbook has the documented sheets (Details, VMs, VM Performance...) and a time series of
100 servers at 10-minute intervals (timestamp, server and seven figures a row), as many days as
make the size: about 870,000 rows for 50 MB. ``import`` reports the wall-clock and CPU seconds of
:func:`~models.importers.liveoptics.import_live_optics` (checks, unpacking, reading every row,
the series, windows and workloads), ``peak_rss_mib`` (``VmHWM``: the high-water mark of the
process, imports of numpy and pydantic included) and ``baseline_rss_mib`` before reading.
``rows`` reads the time-series sheet's rows with one library and nothing else, to compare
python-calamine with openpyxl's read-only mode (openpyxl is not a dependency: install it to run
that comparison). ``bench/test_bench_xlsx.py`` runs the steps.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

from bench.trace_memory import high_water_mib

SERVERS = 100
ROW_BYTES = 54.0
"""Packed bytes per time-series row (measured on this writer's output)."""


def _series(rows: int, seed: int = 1) -> Iterator[list[object]]:
    from models.importers.synthetic import office_load
    from models.importers.synthetic_exports import LIVE_OPTICS_SERIES_COLUMNS

    rnd = random.Random(seed)
    start = datetime(2024, 1, 1)
    yield list(LIVE_OPTICS_SERIES_COLUMNS)
    for i in range(rows):
        t = start + timedelta(minutes=10 * (i // SERVERS + 1))
        device = i % SERVERS
        x = office_load(t, device)
        jitter = rnd.uniform(0.9, 1.1)
        yield [
            t,
            f"srv{device:03d}",
            round(x.r_iops * jitter, 2),
            round(x.w_iops * jitter, 2),
            round(x.r_iops * x.r_kib * 1.024e-3 * jitter, 3),
            round(x.w_iops * x.w_kib * 1.024e-3 * jitter, 3),
            round(x.r_lat_ms * jitter, 3),
            round(x.w_lat_ms * jitter, 3),
            round(x.queue * jitter, 2),
        ]


def write(path: Path, megabytes: float) -> dict[str, float]:
    from models.importers.xlsx_writer import write_xlsx

    rows = int(megabytes * 1e6 / ROW_BYTES) // SERVERS * SERVERS
    vms = [["VM Name", "Power State", "Cluster", "Virtual Disk Size (MiB)", "Virtual Disk Used (MiB)"]] + [
        [f"srv{i:03d}", "poweredOn", "Cluster A", 1024.0 * 1024, 512.0 * 1024] for i in range(SERVERS)
    ]
    started = time.perf_counter()
    with path.open("wb") as out:
        write_xlsx(
            out,
            {
                "Details": [["Project Name", "Benchmark"], ["Collector", "built by bench/xlsx_import.py"]],
                "VMs": vms,
                "Performance": _series(rows),
            },
        )
    return {"rows": rows, "bytes": path.stat().st_size, "seconds": round(time.perf_counter() - started, 1)}


def run_import(path: Path) -> dict[str, float | int | str]:
    from models.importers.liveoptics import import_live_optics

    baseline = high_water_mib()
    wall, cpu = time.perf_counter(), time.process_time()
    with path.open("rb") as f:
        result = import_live_optics(f)
    assert result.stats is not None
    return {
        "file_mb": round(path.stat().st_size / 1e6, 1),
        "rows": result.stats.lines,
        "seconds": round(time.perf_counter() - wall, 2),
        "cpu_seconds": round(time.process_time() - cpu, 2),
        "peak_rss_mib": round(high_water_mib(), 1),
        "baseline_rss_mib": round(baseline, 1),
        "windows_offered": sum(w.offered for w in result.stats.windows),
        "resolution_s": result.stats.resolution_s,
    }


def read_rows(path: Path, reader: str) -> dict[str, float | int | str]:
    baseline = high_water_mib()
    wall = time.perf_counter()
    n = 0
    if reader == "openpyxl":
        from openpyxl import load_workbook  # not a dependency: the comparison only

        book = load_workbook(path, read_only=True, data_only=True)
        for _ in book["Performance"].iter_rows(values_only=True):
            n += 1
        book.close()
    else:
        from python_calamine import CalamineWorkbook

        with path.open("rb") as f:
            sheet = CalamineWorkbook.from_filelike(f).get_sheet_by_name("Performance")
            for _ in sheet.iter_rows():
                n += 1
    return {
        "reader": reader,
        "rows": n,
        "seconds": round(time.perf_counter() - wall, 2),
        "peak_rss_mib": round(high_water_mib(), 1),
        "baseline_rss_mib": round(baseline, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="step", required=True)
    w = sub.add_parser("write")
    w.add_argument("path", type=Path)
    w.add_argument("--mb", type=float, default=50.0)
    i = sub.add_parser("import")
    i.add_argument("path", type=Path)
    r = sub.add_parser("rows")
    r.add_argument("path", type=Path)
    r.add_argument("--reader", choices=["calamine", "openpyxl"], default="calamine")
    args = parser.parse_args()
    if args.step == "write":
        print(json.dumps(write(args.path, args.mb)))
    elif args.step == "import":
        print(json.dumps(run_import(args.path)))
    else:
        print(json.dumps(read_rows(args.path, args.reader)))


if __name__ == "__main__":
    main()
