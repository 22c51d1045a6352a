"""Peak memory of a trace analysis, measured in a fresh process.

Two steps, so that the measured process holds nothing but the analysis::

    python -m bench.trace_memory write PATH [--records N] [--blocks B]  # synthetic MSR trace, in chunks
    python -m bench.trace_memory analyze PATH [--policies]  # prints one JSON line

``analyze`` reports ``peak_rss_mib``: the high-water mark of the process's resident memory
(``VmHWM`` in ``/proc/self/status``; the import of numpy, scipy and pydantic included),
``baseline_rss_mib`` (the same after those imports, before reading) and the analysis's seconds.
It also gives ``ru_maxrss_mib`` (``getrusage``), which Linux carries over ``fork`` and
``execve``: started from a big parent (pytest after writing the trace), it shows the parent's
size, not the analysis's. ``bench/test_bench_traces.py`` runs both steps for 10 million records.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

CHUNK_RECORDS = 1_000_000


def write(path: Path, records: int, seed: int = 0, n_blocks: int = 2_000_000) -> int:
    """A synthetic MSR-Cambridge trace of ``records`` I/Os over ``n_blocks`` 4 KiB blocks (8 GiB by
    default), generated and written a million at a time (so the writer never holds the whole
    trace); returns the bytes written."""
    from models.traces.records import TraceFormat
    from models.traces.synthetic import SyntheticSpec, generate, write_trace

    written = 0
    t0 = 0.0
    with path.open("wb") as out:
        for i, a in enumerate(range(0, records, CHUNK_RECORDS)):
            n = min(CHUNK_RECORDS, records - a)
            spec = SyntheticSpec(
                requests=n,
                n_blocks=n_blocks,
                iops=20_000.0,
                latency_ms=2.0,
                size_mix=[(4.0, 70.0), (8.0, 30.0)],
                seed=seed + i,
            )
            rec = generate(spec)
            rec.t += t0
            t0 = float(rec.t[-1]) + 1.0 / spec.iops
            written += write_trace(rec, TraceFormat.MSR, out)
    return written


def high_water_mib() -> float:
    """Peak resident memory of this process [MiB] (Linux ``VmHWM``; ``ru_maxrss`` elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024  # kB
    except OSError:  # pragma: no cover - not Linux
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def analyze(path: Path, policies: bool) -> dict[str, float]:
    from models.traces import TraceOptions, analyze_trace

    baseline = high_water_mib()
    before = resource.getrusage(resource.RUSAGE_SELF)
    options = TraceOptions(policies=["arc", "s3fifo"] if policies else [])
    started = time.perf_counter()
    with path.open("rb") as stream:
        result = analyze_trace(stream, options, total_bytes=path.stat().st_size, scratch_dir=path.parent)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "records": result.profile.records,
        "seconds": elapsed,
        "cpu_seconds": after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
        "parse_and_profile_s": result.seconds["parse_and_profile"],
        "records_per_s": result.profile.records / result.seconds["parse_and_profile"],
        "baseline_rss_mib": baseline,
        "peak_rss_mib": high_water_mib(),
        "ru_maxrss_mib": after.ru_maxrss / 1024,  # KiB on Linux
        "footprint_blocks": result.profile.footprint_blocks,
        "sampling_rate": result.mrc[0].sampling_rate,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write")
    w.add_argument("path", type=Path)
    w.add_argument("--records", type=int, default=10_000_000)
    w.add_argument(
        "--blocks",
        type=int,
        default=2_000_000,
        help="4 KiB blocks addressed: 2,000,000 (8 GiB) is the dense trace, 26,214,400 (100 GiB) the sparse one",
    )
    a = sub.add_parser("analyze")
    a.add_argument("path", type=Path)
    a.add_argument("--policies", action="store_true", help="also ARC and S3-FIFO (libCacheSim)")
    args = parser.parse_args(argv)
    if args.command == "write":
        print(json.dumps({"bytes": write(args.path, args.records, n_blocks=args.blocks)}))
    else:
        print(json.dumps(analyze(args.path, args.policies)))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
