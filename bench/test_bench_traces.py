"""Trace analysis speed and memory (reported, never asserted). Run: ``make bench`` or
``.venv/bin/pytest -q bench/test_bench_traces.py --benchmark-only -s``.

Targets: parse + profile >= 3 million MSR records/s on a dense trace (2 million 4 KiB blocks,
8 GiB) and on a sparse one (26 million blocks, 100 GiB); LRU miss-ratio curve of a 10-million-
request trace <= 10 s with mean absolute error <= 0.01 against exact LRU (asserted on a smaller
trace in ``models/tests/test_traces.py``); exact LRU (all sizes from one stack-distance pass) at
least as fast as libCacheSim's LRU replayed at each size; a default analysis (LRU curve; ARC and
S3-FIFO are opt-in) of 10 million records under 6 s with a peak memory <= 400 MiB (in a fresh
process: :mod:`bench.trace_memory`).

Wall-clock rates depend on what else the machine runs; the CPU time of the process is printed
beside them (on a busy machine the wall clock can be twice the CPU time).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from bench.trace_memory import write as write_msr_trace
from models.traces.builder import ProfileBuilder
from models.traces.mrc import ShardsSampler, cache_sizes, lru_curve, mean_absolute_error, policy_curve
from models.traces.parse import TraceReader
from models.traces.records import TraceFormat
from models.traces.synthetic import SyntheticSpec, generate, write_trace, zipf_block_keys

ROOT = Path(__file__).resolve().parents[1]


DENSE_BLOCKS = 2_000_000
"""4 KiB blocks the dense trace addresses (8 GiB)."""
SPARSE_BLOCKS = 26_214_400
"""4 KiB blocks the sparse trace addresses (100 GiB): keys too spread to count in arrays."""


def _msr_bytes(n: int, n_blocks: int) -> bytes:
    buf = io.BytesIO()
    write_trace(
        generate(SyntheticSpec(requests=n, n_blocks=n_blocks, iops=5000.0, latency_ms=2.0)),
        TraceFormat.MSR,
        buf,
    )
    return buf.getvalue()


@pytest.mark.parametrize("n_blocks", [DENSE_BLOCKS, SPARSE_BLOCKS], ids=["dense", "sparse"])
def test_parse_and_profile_records_per_second(benchmark, n_blocks: int):
    data = _msr_bytes(1_000_000, n_blocks)

    def run() -> int:
        builder = ProfileBuilder(interval_s=60.0)
        for chunk in TraceReader(io.BytesIO(data)):
            builder.add(chunk)
        builder.profile(streams=1)
        return builder.records

    run()  # warm up (imports, allocator)
    t, cpu = time.perf_counter(), time.process_time()
    n = benchmark.pedantic(run, rounds=3, iterations=1)
    elapsed, cpu = (time.perf_counter() - t) / 3, (time.process_time() - cpu) / 3
    kind = "dense" if n_blocks == DENSE_BLOCKS else "sparse"
    print(
        f"\nparse + profile ({kind} keys, {n_blocks * 4096 / 2**30:.0f} GiB): {n:,} MSR records in "
        f"{elapsed:.2f} s = {n / elapsed / 1e6:.2f} million records/s (CPU {cpu:.2f} s = "
        f"{n / cpu / 1e6:.2f} million records/s)"
    )


def test_lru_mrc_of_ten_million_requests(benchmark, tmp_path):
    n, blocks = 10_000_000, 2_000_000
    keys = zipf_block_keys(n, blocks, 1.8, seed=0)

    def run():
        sampler = ShardsSampler()
        for a in range(0, n, 1_000_000):
            k = keys[a : a + 1_000_000]
            sampler.add(k, np.full(k.size, 4096, np.int64), np.ones(k.size, dtype=bool))
        sample = sampler.sample()
        sizes = cache_sizes(int(np.unique(keys).size), 25)
        return sample, sizes, lru_curve(sample, sizes, 4096)

    t = time.perf_counter()
    sample, sizes, curve = benchmark.pedantic(run, rounds=1, iterations=1)
    elapsed = time.perf_counter() - t
    # exact LRU on the whole stream: libCacheSim (C replay) at every fifth size
    full = ShardsSampler(max_samples=n + 1)
    full.add(keys, np.full(n, 4096, np.int64), np.ones(n, dtype=bool))
    exact = policy_curve("lru", full.sample(), sizes[::5], 4096, scratch_dir=tmp_path)
    mae = mean_absolute_error(curve.request_miss_ratio[::5], exact.request_miss_ratio)
    print(
        f"\nLRU MRC, 10,000,000 requests: {elapsed:.2f} s (SHARDS R = {sample.rate:.4g}, "
        f"{sample.keys.size:,} sampled); MAE vs exact LRU (libCacheSim) = {mae:.4f}"
    )


def test_exact_lru_against_libcachesim_unsampled_lru(benchmark, tmp_path):
    n = 1_000_000
    keys = zipf_block_keys(n, 2_000_000, 1.2, seed=0)
    full = ShardsSampler(max_samples=n + 1)
    full.add(keys, np.full(n, 4096, np.int64), np.ones(n, dtype=bool))
    sample = full.sample()
    sizes = cache_sizes(int(np.unique(keys).size), 25)

    t = time.perf_counter()
    ours = benchmark.pedantic(lambda: lru_curve(sample, sizes, 4096), rounds=1, iterations=1)
    ours_s = time.perf_counter() - t
    t = time.perf_counter()
    lcs = policy_curve("lru", sample, sizes, 4096, scratch_dir=tmp_path)
    lcs_s = time.perf_counter() - t
    mae = mean_absolute_error(ours.request_miss_ratio, lcs.request_miss_ratio)
    print(
        f"\nexact LRU, {n:,} requests, {sizes.size} sizes: stack distances {ours_s:.2f} s, libCacheSim "
        f"LRU replays {lcs_s:.2f} s (ours {lcs_s / ours_s:.2f}x as fast); MAE between them {mae:.1e}"
    )


def test_peak_memory_for_ten_million_records(benchmark, tmp_path):
    path = tmp_path / "msr-10m.csv"
    write_msr_trace(path, 10_000_000)  # generated and written a million records at a time

    def run() -> dict[str, float]:
        out = subprocess.run(
            [sys.executable, "-m", "bench.trace_memory", "analyze", str(path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(out.stdout)

    r = benchmark.pedantic(run, rounds=1, iterations=1)
    size_mb = path.stat().st_size / 1e6
    path.unlink()  # 0.5 GB: pytest keeps its last three temporary directories
    print(
        f"\ndefault analysis (LRU curve) of 10,000,000 MSR records ({size_mb:,.0f} MB) in a fresh process: "
        f"peak RSS {r['peak_rss_mib']:.0f} MiB (after imports: {r['baseline_rss_mib']:.0f} MiB; "
        f"ru_maxrss, inherited from this process: {r['ru_maxrss_mib']:.0f} MiB); "
        f"{r['seconds']:.1f} s, CPU {r['cpu_seconds']:.1f} s; parse + profile "
        f"{r['records_per_s'] / 1e6:.2f} million records/s; footprint {r['footprint_blocks']:,} blocks, "
        f"SHARDS R = {r['sampling_rate']:.4g}"
    )
