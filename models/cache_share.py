"""How the workloads of one window share the controllers' DRAM and flash cache, and their hit ratios.

A shared LRU cache is split among workloads by a joint characteristic-time (Che) solve
(:func:`cache_shares_gb`); each workload's levels then come from
:func:`models.cache.level_hit_ratios` over its share (:func:`window_hit_ratios`). The level and
cold solves are memoized in the caller's memo (:mod:`models.kept`): they are pure functions of
frozen inputs that sizing and what-if sweeps call again and again.
"""

from __future__ import annotations

import math

from scipy.optimize import brentq

from models import cache as cache_model
from models.configuration import CacheConfig
from models.explain import Explained, explained, fmt
from models.kept import kept_by_value
from models.workload import Phase, Skew, Workload


def cache_shares_gb(cache_gb: float, working_sets_gb: list[float], read_rates: list[float]) -> list[float]:
    """Split a shared LRU cache among workloads (uniform-class Che solve).

    Each workload w is a class of N_w = ws_w items read at rate r_w in total. Under LRU with a
    common characteristic time t (Che), class w keeps ``N_w (1 - exp(-r_w / N_w t))`` of the
    cache; t solves ``sum_w N_w (1 - exp(-r_w t / N_w)) = C``. Returns each class's share
    (whole cache to each if it covers every working set).
    """
    total_ws = sum(working_sets_gb)
    if cache_gb <= 0 or not working_sets_gb:
        return [0.0 for _ in working_sets_gb]
    if cache_gb >= total_ws:
        return list(working_sets_gb)
    active = [(ws, r) for ws, r in zip(working_sets_gb, read_rates, strict=True)]
    if sum(r for _, r in active) <= 0:
        return [cache_gb * ws / total_ws for ws in working_sets_gb]
    readers = [ws for ws, r in active if ws > 0 and r > 0]
    if len(readers) == 1 and cache_gb < readers[0]:
        # one class reads: N (1 - exp(-r t / N)) = C has a root and the reader keeps all of C
        return [cache_gb if ws > 0 and r > 0 else 0.0 for ws, r in active]

    def occupied(t: float) -> float:
        return sum(ws * (1.0 - math.exp(-r * t / ws)) for ws, r in active if ws > 0) - cache_gb

    hi = 1.0
    while occupied(hi) < 0:
        hi *= 4.0
        if hi > 1e30:
            # read rates too small to separate the classes: share by working set
            return [cache_gb * ws / total_ws for ws in working_sets_gb]
    t = brentq(occupied, 0.0, hi, xtol=1e-12 * hi)
    return [ws * (1.0 - math.exp(-r * t / ws)) if ws > 0 else 0.0 for ws, r in active]


@kept_by_value(8192)
def level_hit_ratios(
    dram_gb: float,
    flash_gb: float,
    working_set_gb: float,
    skew: Skew,
    *,
    exclusive: bool,
    dedupe_ratio: float,
    dram_dedupe_aware: bool,
    flash_dedupe_aware: bool,
) -> tuple[float, float]:
    """:func:`models.cache.level_hit_ratios`, memoized: a pure function of hashable frozen inputs
    that sizing and what-if sweeps call again and again with the same cache and working set."""
    return cache_model.level_hit_ratios(
        dram_gb,
        flash_gb,
        working_set_gb,
        skew,
        exclusive=exclusive,
        dedupe_ratio=dedupe_ratio,
        dram_dedupe_aware=dram_dedupe_aware,
        flash_dedupe_aware=flash_dedupe_aware,
    )


@kept_by_value(8192)
def cold_hit_ratio(cache_gb: float, working_set_gb: float, skew: Skew) -> float:
    """:func:`models.cache.cold_hit_ratio`, memoized (pure)."""
    return cache_model.cold_hit_ratio(cache_gb, working_set_gb, skew)


@kept_by_value(8192)
def shared_cache_gb(
    cache_gb: float, working_sets_gb: tuple[float, ...], read_rates: tuple[float, ...]
) -> tuple[float, ...]:
    """:func:`cache_shares_gb`, memoized (pure): the joint solve of a window with several readers
    (a ``brentq`` of about seven steps) is otherwise solved again on every evaluation of the same
    workloads, twice a window (DRAM, DRAM + flash): 5% of evaluating three workloads x three
    windows again."""
    return tuple(cache_shares_gb(cache_gb, list(working_sets_gb), list(read_rates)))


def window_hit_ratios(
    members: list[tuple[Workload, Phase]], dram_total_gb: float, flash_total_gb: float, cache: CacheConfig
) -> tuple[list[tuple[float, float]], list[float], list[float], list[float]]:
    """Read-hit ratios (DRAM, flash) of each workload phase running together in one window.

    The DRAM and the DRAM + flash capacity are split among the phases by :func:`cache_shares_gb`
    (by random read rate and working set), then each phase's levels come from
    :func:`models.cache.level_hit_ratios`. Returns (hits, working sets, DRAM shares, DRAM + flash
    shares) in the order of ``members``.
    """
    ws_list = [w.working_set_for(ph) for w, ph in members]
    rr = [ph.effective_iops * ph.read_pct / 100.0 * ph.random_pct / 100.0 for _, ph in members]
    ws_key, rr_key = tuple(ws_list), tuple(rr)
    dram_share = list(shared_cache_gb(dram_total_gb, ws_key, rr_key))
    both_share = list(shared_cache_gb(dram_total_gb + flash_total_gb, ws_key, rr_key))
    hits: list[tuple[float, float]] = []
    for (w, _ph), ws, d_gb, b_gb in zip(members, ws_list, dram_share, both_share, strict=True):
        if ws <= 0:
            hits.append((0.0, 0.0))
            continue
        hits.append(
            level_hit_ratios(
                d_gb,
                max(0.0, b_gb - d_gb),
                ws,
                w.skew,
                exclusive=cache.exclusive,
                dedupe_ratio=w.dedupe_ratio,
                dram_dedupe_aware=cache.dram_dedupe_aware,
                flash_dedupe_aware=cache.dedupe_aware,
            )
        )
    return hits, ws_list, dram_share, both_share


def cold_hit_explained(cache_gb: float, ws: float, w: Workload, warm: float) -> Explained:
    """Cold (first-pass) hit ratio of the whole cache over one working set's worth of reads."""
    cold = cold_hit_ratio(cache_gb, ws, w.skew) if cache_gb > 0 and ws > 0 else 0.0
    return explained(
        100.0 * cold,
        "%",
        "cold = 1 - misses(first pass) / reads; misses = distinct blocks until the cache fills, then 1 - H",
        f"cold hit = {fmt(100 * cold)}% over the first {fmt(ws)} GB read into {fmt(cache_gb)} GB of empty cache "
        f"(warm: {fmt(100 * warm)}%)",
        source="Che approximation from a cold start",
        cache_gb=cache_gb,
        working_set_gb=ws,
    )


def skew_text(w: Workload) -> str:
    """The workload's access skew in words."""
    s = w.skew
    if s.zipf_alpha:
        return f"Zipf alpha {fmt(s.zipf_alpha)}"
    if s.io_pct is not None:
        return f"{fmt(s.io_pct)}% of I/O to {fmt(s.data_pct)}% of data"
    return "uniform access"
