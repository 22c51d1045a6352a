"""Trace analysis speed and memory (reported, never asserted). Run: ``make bench`` or
``.venv/bin/pytest -q bench/test_bench_traces.py --benchmark-only -s``.

Targets: parse + profile >= 1 million records/s (MSR CSV); LRU miss-ratio curve of a 10-million-
request trace <= 10 s with mean absolute error <= 0.01 against exact LRU; peak memory for
10 million records <= 1 GB.
"""

from __future__ import annotations

import io
import resource
import time

import numpy as np

from models.traces.mrc import ShardsSampler, cache_sizes, lru_curve, mean_absolute_error, policy_curve
from models.traces.parse import TraceReader
from models.traces.profile import ProfileBuilder
from models.traces.records import TraceFormat
from models.traces.synthetic import SyntheticSpec, generate, write_trace


def _msr_bytes(n: int) -> bytes:
    buf = io.BytesIO()
    write_trace(
        generate(SyntheticSpec(requests=n, n_blocks=2_000_000, iops=5000.0, latency_ms=2.0)),
        TraceFormat.MSR,
        buf,
    )
    return buf.getvalue()


def test_parse_and_profile_records_per_second(benchmark):
    data = _msr_bytes(1_000_000)

    def run() -> int:
        builder = ProfileBuilder(interval_s=60.0)
        for chunk in TraceReader(io.BytesIO(data)):
            builder.add(chunk)
        builder.profile(streams=1)
        return builder.records

    t = time.perf_counter()
    n = benchmark.pedantic(run, rounds=1, iterations=1)
    elapsed = time.perf_counter() - t
    print(
        f"\nparse + profile: {n:,} MSR records in {elapsed:.2f} s = {n / elapsed / 1e6:.2f} million records/s"
    )


def test_lru_mrc_of_ten_million_requests(benchmark, tmp_path):
    rng = np.random.default_rng(0)
    n, blocks = 10_000_000, 2_000_000
    ranks = np.minimum(rng.zipf(1.8, n) - 1, blocks - 1)
    keys = rng.permutation(blocks)[ranks].astype(np.int64)

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


def test_peak_memory_for_ten_million_records(benchmark):
    spec = SyntheticSpec(
        requests=10_000_000, n_blocks=2_000_000, iops=20000.0, size_mix=[(4.0, 70.0), (8.0, 30.0)]
    )

    def run() -> int:
        builder = ProfileBuilder(interval_s=60.0)
        rec = generate(spec)
        for a in range(0, len(rec), 1_000_000):
            builder.add(rec.take(np.arange(a, min(len(rec), a + 1_000_000))))
        builder.profile(streams=1)
        return builder.records

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    benchmark.pedantic(run, rounds=1, iterations=1)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        f"\npeak RSS after profiling 10,000,000 records: {after / 1024:.0f} MiB (before: {before / 1024:.0f} MiB)"
    )
