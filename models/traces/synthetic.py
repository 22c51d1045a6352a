"""Synthetic block traces with known parameters, written in any supported format (tests, demos).

Each I/O: with probability ``sequential_pct`` it continues its stream's previous I/O (starts at
its end); otherwise it goes to a block drawn from a Zipf popularity over ``n_blocks`` blocks of
``block_kib`` (rank i chosen with probability ``i^-alpha / sum_j j^-alpha``; ranks are scattered
over the address space by a fixed random permutation unless ``scatter`` is False). Reads with
probability ``read_pct``; sizes from ``size_mix``; Poisson arrivals at ``iops``; optional
exponential response times with mean ``latency_ms``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

import numpy as np
from pydantic import Field, model_validator

from models.base import Frozen, InputError
from models.traces.formats.blkparse import SECTOR_BYTES
from models.traces.formats.msr import FILETIME_TICKS_PER_S
from models.traces.records import Records, TraceFormat
from models.units import KIB

MSR_EPOCH_TICKS = 128_166_372_000_000_000
"""Filetime of the MSR-Cambridge traces' first day (2007-02-22), where synthetic MSR files start."""
UNIX_EPOCH_S = 1_577_808_000
"""2019-12-31 16:00 UTC [s since 1970]: where synthetic Alibaba and Tencent files start."""


class SyntheticSpec(Frozen):
    requests: int = Field(default=100_000, ge=1, le=200_000_000)
    n_blocks: int = Field(default=100_000, ge=1, description="addressable blocks per stream")
    block_kib: float = Field(default=4.0, gt=0.0, description="Zipf block and offset alignment [KiB]")
    zipf_alpha: float = Field(default=0.9, ge=0.0, le=3.0)
    read_pct: float = Field(default=70.0, ge=0.0, le=100.0)
    sequential_pct: float = Field(default=20.0, ge=0.0, le=100.0)
    size_mix: list[tuple[float, float]] = Field(
        default_factory=lambda: [(4.0, 60.0), (8.0, 30.0), (64.0, 10.0)], description="(size KiB, % of I/Os)"
    )
    iops: float = Field(default=1000.0, gt=0.0)
    streams: int = Field(default=1, ge=1, le=64)
    latency_ms: float | None = Field(default=None, gt=0.0)
    scatter: bool = True
    seed: int = 0

    @model_validator(mode="after")
    def _mix(self) -> SyntheticSpec:
        if not self.size_mix or abs(sum(p for _, p in self.size_mix) - 100.0) > 1e-6:
            raise ValueError("size_mix percentages must sum to 100")
        if any(s * KIB % SECTOR_BYTES for s, _ in self.size_mix):
            raise ValueError("sizes must be whole 512-byte sectors")
        return self


def _zipf_ranks(rng: np.random.Generator, n: int, items: int, alpha: float) -> np.ndarray:
    """``n`` ranks in [0, items) with P(rank i) ~ (i+1)^-alpha (inverse CDF on the exact weights)."""
    if alpha == 0.0:
        return rng.integers(0, items, n)
    cdf = np.cumsum(np.arange(1, items + 1, dtype=np.float64) ** -alpha)
    cdf /= cdf[-1]
    return np.minimum(np.searchsorted(cdf, rng.random(n), side="right"), items - 1)


def generate(spec: SyntheticSpec) -> Records:
    """The synthetic trace as one :class:`Records` (time-ordered, t from 0)."""
    rng = np.random.default_rng(spec.seed)
    n = spec.requests
    t = np.cumsum(rng.exponential(1.0 / spec.iops, n))
    t -= t[0]
    sizes_kib = np.array([s for s, _ in spec.size_mix])
    probs = np.array([p for _, p in spec.size_mix]) / 100.0
    size = (sizes_kib[rng.choice(sizes_kib.size, n, p=probs)] * KIB).astype(np.int64)
    read = rng.random(n) < spec.read_pct / 100.0
    stream = rng.integers(0, spec.streams, n).astype(np.int64)
    block_bytes = int(round(spec.block_kib * KIB))
    ranks = _zipf_ranks(rng, n, spec.n_blocks, spec.zipf_alpha)
    where = rng.permutation(spec.n_blocks)[ranks] if spec.scatter else ranks
    rand_off = where.astype(np.int64) * block_bytes
    seq = rng.random(n) < spec.sequential_pct / 100.0
    offset = np.empty(n, dtype=np.int64)
    for s in range(spec.streams):
        idx = np.flatnonzero(stream == s)
        if idx.size == 0:
            continue
        sq = seq[idx].copy()
        sq[0] = False
        run = np.cumsum(~sq) - 1  # run id: each non-sequential I/O starts a run
        starts = np.flatnonzero(~sq)
        sz = size[idx]
        before = np.cumsum(sz) - sz
        offset[idx] = rand_off[idx][starts][run] + before - before[starts][run]
        seq[idx] = sq
    latency = None
    if spec.latency_ms is not None:
        latency = rng.exponential(spec.latency_ms / 1000.0, n)
    return Records(t=t, read=read, offset=offset, size=size, stream=stream, latency=latency)


def _lines(records: Records, fmt: TraceFormat, chunk: int) -> Iterator[str]:
    n = len(records)
    if fmt == TraceFormat.FIO_IOLOG:
        names = [f"/dev/sd{chr(ord('a') + s)}" for s in range(int(records.stream.max()) + 1)]
        yield "fio version 3 iolog\n"
        yield "".join(f"0 {name} add\n0 {name} open\n" for name in names)
    if fmt == TraceFormat.CSV:
        yield "time_s,op,offset,size" + (",latency_ms" if records.latency is not None else "") + "\n"
    last_us = 0
    for a in range(0, n, chunk):
        r = records.take(np.arange(a, min(n, a + chunk)))
        t = r.t.tolist()
        rd = r.read.tolist()
        off = r.offset.tolist()
        sz = r.size.tolist()
        st = r.stream.tolist()
        lat = r.latency.tolist() if r.latency is not None else None
        if fmt == TraceFormat.MSR:
            ticks = (MSR_EPOCH_TICKS + np.round(r.t * FILETIME_TICKS_PER_S)).astype(np.int64).tolist()
            resp = (
                np.round(r.latency * FILETIME_TICKS_PER_S).astype(np.int64).tolist()
                if r.latency is not None
                else [0] * len(t)
            )
            yield "".join(
                f"{k},synth,{s},{'Read' if x else 'Write'},{o},{z},{q}\n"
                for k, s, x, o, z, q in zip(ticks, st, rd, off, sz, resp, strict=True)
            )
        elif fmt == TraceFormat.CSV:
            if lat is None:
                yield "".join(
                    f"{tt:.6f},{'R' if x else 'W'},{o},{z}\n"
                    for tt, x, o, z in zip(t, rd, off, sz, strict=True)
                )
            else:
                yield "".join(
                    f"{tt:.6f},{'R' if x else 'W'},{o},{z},{q * 1000:.4f}\n"
                    for tt, x, o, z, q in zip(t, rd, off, sz, lat, strict=True)
                )
        elif fmt == TraceFormat.BLKPARSE:
            yield "".join(
                f"  8,{16 * s:<3d} 0 {a + i + 1:8d} {tt:14.9f} {1000 + s:5d}  Q {'R' if x else 'WS'} "
                f"{o // SECTOR_BYTES} + {z // SECTOR_BYTES} [synth]\n"
                for i, (tt, s, x, o, z) in enumerate(zip(t, st, rd, off, sz, strict=True))
            )
        elif fmt == TraceFormat.ALIBABA:
            us = (UNIX_EPOCH_S * 1_000_000 + np.round(r.t * 1e6)).astype(np.int64).tolist()
            yield "".join(
                f"{s},{'R' if x else 'W'},{o},{z},{u}\n"
                for u, s, x, o, z in zip(us, st, rd, off, sz, strict=True)
            )
        elif fmt == TraceFormat.TENCENT:
            secs = (UNIX_EPOCH_S + np.floor(r.t)).astype(np.int64).tolist()
            yield "".join(
                f"{u},{o // SECTOR_BYTES},{z // SECTOR_BYTES},{0 if x else 1},{1000 + s}\n"
                for u, s, x, o, z in zip(secs, st, rd, off, sz, strict=True)
            )
        elif fmt == TraceFormat.SPC:
            yield "".join(
                f"{s},{o // SECTOR_BYTES},{z},{'r' if x else 'w'},{tt:.6f}\n"
                for tt, s, x, o, z in zip(t, st, rd, off, sz, strict=True)
            )
        else:
            us = np.round(r.t * 1e6).astype(np.int64).tolist()
            last_us = us[-1] if us else last_us
            yield "".join(
                f"{u} {names[s]} {'read' if x else 'write'} {o} {z}\n"
                for u, s, x, o, z in zip(us, st, rd, off, sz, strict=True)
            )
    if fmt == TraceFormat.FIO_IOLOG:
        yield "".join(f"{last_us} {name} close\n" for name in names)


def write_trace(records: Records, fmt: TraceFormat, out: BinaryIO, chunk: int = 100_000) -> int:
    """Write ``records`` in ``fmt`` (fio: version 3) to a binary stream; returns bytes written.

    Offsets and sizes must be whole 512-byte sectors for blkparse, Tencent and SPC; Tencent times
    are whole seconds. Wrap ``out`` in
    ``gzip.GzipFile`` for a compressed file.
    """
    if fmt in (TraceFormat.BLKPARSE, TraceFormat.TENCENT, TraceFormat.SPC) and (
        np.any(records.offset % SECTOR_BYTES) or np.any(records.size % SECTOR_BYTES)
    ):
        raise InputError(
            "records", f"{fmt.value} traces address 512-byte sectors: offsets and sizes must be multiples"
        )
    written = 0
    for text in _lines(records, fmt, chunk):
        data = text.encode()
        out.write(data)
        written += len(data)
    return written


def zipf_block_keys(requests: int, n_blocks: int, alpha: float, seed: int = 0) -> np.ndarray:
    """``requests`` block keys in [0, n_blocks) with Zipf(``alpha``) popularity (numpy's sampler,
    ranks beyond the last block folded onto it), ranks scattered by a random permutation: the
    miss-ratio curve scenario of the trace benchmark and its test."""
    rng = np.random.default_rng(seed)
    ranks = np.minimum(rng.zipf(alpha, requests) - 1, n_blocks - 1)
    return rng.permutation(n_blocks)[ranks].astype(np.int64)
