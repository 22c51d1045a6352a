"""Partitioned trace analysis on a Dask cluster: records/s at 1, 2 and 4 partitions, the cost of
merging them, and what a cluster would need for 10^9 and 10^10 records (reported, never
asserted). Run: ``.venv/bin/pytest -q bench/test_bench_trace_partitions.py --benchmark-only -s``.

The cluster is this machine's ``LocalCluster`` (2 worker processes, one thread each). Every
partition reads the whole trace and keeps its share of the block work
(:class:`models.traces.builder.Partition`), so one partition's time per record is
``a + b / P``: ``a`` the reading and per-I/O counting every partition does, ``b`` the block work
split P ways. Both are fitted (least squares) to the partitions' CPU times; a cluster of W
workers running W partitions then needs about ``R (a + b / W)`` seconds for R records, plus the
merge (measured: it grows with the heat map and the samples, which are bounded, not with R).
"""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path

import cloudpickle
import dask
import numpy as np
import pytest
from distributed import Client, LocalCluster

from backend.app.traces.cluster import WORKER_CONFIG
from bench.trace_memory import write as write_msr_trace
from models.traces import TraceOptions
from models.traces.analyze import PartitionResult, combine, profile_partitions
from models.traces.builder import Partition

RECORDS = 2_000_000
PARTITIONS = (1, 2, 4)


def _partition(path: str, index: int, count: int) -> tuple[PartitionResult, float]:
    """One partition of the trace at ``path`` (a Dask task) and the CPU seconds it took (steadier
    than the wall clock on a shared machine: it is what the partition costs a worker's core)."""
    started = time.process_time()
    with open(path, "rb") as stream:
        result = profile_partitions(stream, TraceOptions(), [Partition(index, count)])[0]
    return result, time.process_time() - started


@pytest.mark.parametrize("n_blocks", [2_000_000, 26_214_400], ids=["dense-8GiB", "sparse-100GiB"])
def test_partitions_on_a_local_cluster_and_the_extrapolation(
    benchmark, tmp_path: Path, n_blocks: int
) -> None:
    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import bench/
    path = tmp_path / "msr.csv"
    write_msr_trace(path, RECORDS, n_blocks=n_blocks)
    rows: list[tuple[int, float, float, float, float]] = []
    dask.config.set(WORKER_CONFIG)
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        ) as cluster,
        Client(cluster) as client,
    ):
        client.submit(_partition, str(path), 0, 1).result()  # warm the workers up (imports)

        def run() -> None:
            for count in PARTITIONS:
                started = time.perf_counter()
                futures = [client.submit(_partition, str(path), i, count, pure=False) for i in range(count)]
                done = client.gather(futures)
                read_s = time.perf_counter() - started
                analysis = combine([r for r, _ in done], TraceOptions())
                merge_s = analysis.seconds["merge"]
                total_s = time.perf_counter() - started
                per_partition_s = float(np.mean([s for _, s in done]))
                rows.append((count, read_s, per_partition_s, merge_s, total_s))

        benchmark.pedantic(run, rounds=1, iterations=1)

    counts = np.array([r[0] for r in rows], dtype=np.float64)
    seconds_per_record = np.array([r[2] for r in rows]) / RECORDS
    (a, b), *_ = np.linalg.lstsq(np.stack([np.ones_like(counts), 1 / counts], axis=1), seconds_per_record)
    span = n_blocks * 4096 / 2**30
    print(
        f"\n{RECORDS:,} MSR records over {span:.0f} GiB on a 2-worker LocalCluster (each partition reads all):"
    )
    for count, read_s, per_partition_s, merge_s, total_s in rows:
        print(
            f"  {count} partition(s): {RECORDS / read_s / 1e6:.2f} M records/s through the cluster "
            f"({read_s:.2f} s wall), one partition {per_partition_s:.2f} s CPU = "
            f"{RECORDS / per_partition_s / 1e6:.2f} M/s; "
            f"merge {merge_s * 1000:.0f} ms = {100 * merge_s / total_s:.1f}% of {total_s:.2f} s"
        )
    print(f"  fit: a partition spends {a * 1e9:.0f} ns a record reading + {b * 1e9:.0f} ns / P of block work")
    for records in (1e9, 1e10):
        estimates = ", ".join(
            f"{workers} workers {records * (a + b / workers) / 3600:.2f} h" for workers in (1, 4, 16, 64)
        )
        print(
            f"  {records:.0e} records: {estimates} (floor {records * a / 3600:.2f} h: every partition reads all)"
        )
