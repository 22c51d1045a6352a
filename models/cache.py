"""Read caches: hit ratios from working sets and access skew, cache levels, dedupe, warm and cold.

Nomenclature (sizes in decimal GB, blocks in binary KiB)::

    C    cache size [GB]                      W    working set: data the reads touch [GB]
    N    items in the working set, W / block  q(n) probability that a request asks for item n
    t_C  Che's characteristic time [requests] H    request hit ratio, 0..1

Models
------
* Uniform access: ``H = min(1, C / W)``. Published check: a 16 GB read cache over random 4 KB
  reads of a 100 GB file measured 15-17% hits (FAS3170 over NFS, 2009, [consultancy-fas3170-2009]).
* LRU under the independent reference model (IRM), Che's approximation (Che, Tung, Wang, IEEE
  JSAC 20(7), 2002 [che-2002]; accuracy explained by Fricker, Robert, Roberts, arXiv:1202.3974,
  2012 [fricker-2012])::

      hit(n) = 1 - exp(-q(n) t_C)          sum_n (1 - exp(-q(n) t_C)) = C      H = sum_n q(n) hit(n)

  Popularity ``q`` comes from :class:`~models.workload.Skew`: Zipf ``q(i) ~ i^-alpha`` over N
  items (items aggregated into log-spaced rank bins, so N may be 10^10), or "io_pct % of the
  I/O goes to data_pct % of the data" (two uniform classes), or uniform (exactly C / W).
* Two levels (DRAM, then flash) and dedupe-aware caches: :func:`level_hit_ratios`,
  :func:`effective_cache_working_set_gb`.
* Warm (steady state) vs cold (the first reads after a boot, failover or cache flush):
  :func:`cold_hit_ratio`, :func:`warm_and_cold_hit_ratios`.
* A burst of identical-image reads (VM boot storm) with deduplication: :func:`burst_disk_read_gb`.

A cache at least as large as the data it caches is not an error: the hit ratio is 1 (the caller
may warn that the cache is oversized). Bad arguments raise :class:`~models.base.InputError`
naming the argument.

Kept as one module (about 720 lines): the popularity tables, the characteristic-time solve and
the DRAM/flash level split are one model of a read cache; the memoized solves (kept in the caller's
memo, :mod:`models.kept`) are shared by the warm and cold cases, which must stay together to share
them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from pydantic import Field
from scipy.special import exprel

from models.base import Frozen, InputError, NonNegFloat, Output
from models.kept import kept_by_value
from models.units import GB, KIB
from models.workload import Phase, Skew

FloatArray = npt.NDArray[np.float64]

DEFAULT_BLOCK_KIB = 4.0
"""Cache block [KiB]: 4 KiB is the WAFL block and the common random-read size."""

DEFAULT_BINS = 256
"""Rank bins for a Zipf popularity: hit ratios within ~1e-5 of the exact sum (checked for N = 2*10^6)."""

DEFAULT_READAHEAD_AMPLIFICATION = 1.37
"""Disk data read per GB of cache misses in a boot storm; see ``fixtures/calibration/cache.yaml``."""

DEFAULT_BURST_CONCURRENCY = 0.42
"""Share of the physical footprint in play at once in a boot storm; see ``fixtures/calibration/cache.yaml``."""

_MAX_EXPONENT = 500.0  # exp(-500) ~ 1e-217: clipping avoids slow subnormal arithmetic, changes nothing


# ---- argument checks ---------------------------------------------------------------------------


def _finite(field: str, x: float) -> float:
    x = float(x)
    if not math.isfinite(x):
        raise InputError(field, f"must be a finite number, got {x}")
    return x


def _non_negative(field: str, x: float) -> float:
    x = _finite(field, x)
    if x < 0:
        raise InputError(field, f"must be >= 0, got {x:g}")
    return x


def _positive(field: str, x: float) -> float:
    x = _finite(field, x)
    if x <= 0:
        raise InputError(field, f"must be > 0, got {x:g}")
    return x


def _check_skew(skew: Skew) -> None:
    """Re-check the skew domain (a Skew built with ``model_construct`` skips its validators)."""
    if skew.zipf_alpha is not None and not 0.0 <= skew.zipf_alpha <= 3.0:
        raise InputError("skew.zipf_alpha", f"must be between 0 and 3, got {skew.zipf_alpha:g}")
    if (skew.io_pct is None) != (skew.data_pct is None):
        raise InputError("skew.io_pct", "give both io_pct and data_pct")
    if skew.io_pct is not None and skew.data_pct is not None:
        if skew.zipf_alpha is not None:
            raise InputError("skew", "give either zipf_alpha or io_pct/data_pct, not both")
        if not 0.0 < skew.data_pct < 100.0:
            raise InputError("skew.data_pct", f"must be strictly between 0 and 100, got {skew.data_pct:g}")
        if not skew.data_pct <= skew.io_pct < 100.0:
            raise InputError("skew.io_pct", f"must be >= data_pct and < 100, got {skew.io_pct:g}")


def _check_common(working_set_gb: float, block_kib: float, bins: int) -> None:
    _positive("working_set_gb", working_set_gb)
    _positive("block_kib", block_kib)
    if int(bins) != bins or bins < 16:
        raise InputError("bins", f"must be an integer >= 16, got {bins}")


def _items(gb: float, block_kib: float) -> float:
    """Blocks of ``block_kib`` [KiB] in ``gb`` [GB]: ``gb * 10^9 / (block * 1024)``."""
    return gb * GB / (block_kib * KIB)


# ---- popularity ----------------------------------------------------------------------------------


def _power_integral(a: FloatArray, b: FloatArray, alpha: float) -> FloatArray:
    """``integral_a^b x^-alpha dx`` = ``a^(1-alpha) ln(b/a) exprel((1-alpha) ln(b/a))``, exact at alpha = 1."""
    s = 1.0 - alpha
    log_ratio = np.log(b / a)
    return np.asarray(a**s * log_ratio * exprel(s * log_ratio), dtype=np.float64)


def _popularity(n_items: float, skew: Skew, bins: int) -> tuple[FloatArray, FloatArray]:
    """Popularity classes: ``(m, q)``, ``m[b]`` items each requested with probability ``q[b]``.

    ``sum(m) = N`` and ``sum(m * q) = 1``. Zipf: up to ``4 * bins`` items exactly; beyond, the
    first ``bins // 8`` ranks exactly and the rest in log-spaced rank bins whose mass is
    ``integral x^-alpha dx`` over the bin (midpoint rule for the sum; error ~ alpha a^(-alpha-2)).
    The arrays are read-only: they are shared by every solve over the same catalog (memoized
    per catalog size, skew and bin count, see :func:`_popularity_table`).
    """
    table = _popularity_table(n_items, skew.zipf_alpha, skew.io_pct, skew.data_pct, bins)
    return table.m, table.q


class _Popularity(NamedTuple):
    """A catalog's popularity classes (read-only arrays) and the sums every Che solve needs."""

    m: FloatArray  # items per class
    q: FloatArray  # request probability of each item of the class
    mq: FloatArray  # m * q: share of requests per class (sums to 1)
    n: float  # sum(m): items in the catalog
    q_min: float  # the rarest item's probability
    key: tuple[float, float | None, float | None, float | None, int]


def _read_only(a: FloatArray) -> FloatArray:
    a.flags.writeable = False
    return a


@kept_by_value(1024)  # a table is <= 3 x 1,024 floats: <= 25 MB per memo
def _popularity_table(
    n_items: float, zipf_alpha: float | None, io_pct: float | None, data_pct: float | None, bins: int
) -> _Popularity:
    """:func:`_popularity` for one catalog, memoized: a pure function of hashable numbers that the
    level, cold and shared-cache solves over one working set ask for again and again."""
    m, q = _build_popularity(n_items, zipf_alpha, io_pct, data_pct, bins)
    return _Popularity(
        _read_only(m),
        _read_only(q),
        _read_only(m * q),
        float(m.sum()),
        float(q.min()),
        (n_items, zipf_alpha, io_pct, data_pct, bins),
    )


def _build_popularity(
    n_items: float, zipf_alpha: float | None, io_pct: float | None, data_pct: float | None, bins: int
) -> tuple[FloatArray, FloatArray]:
    if io_pct is not None and data_pct is not None:
        d, p = data_pct / 100.0, io_pct / 100.0
        m = np.array([n_items * d, n_items * (1.0 - d)])
        return m, np.array([p / m[0], (1.0 - p) / m[1]])
    alpha = zipf_alpha or 0.0
    if alpha == 0.0:
        return np.array([n_items]), np.array([1.0 / n_items])
    if n_items <= 4 * bins:
        n = max(1, round(n_items))
        weights = np.arange(1, n + 1, dtype=np.float64) ** -alpha
        return np.ones(n), weights / weights.sum()
    head = bins // 8
    head_mass = np.arange(1, head + 1, dtype=np.float64) ** -alpha
    # log-spaced edges (as np.geomspace, whose checks cost 5x the arithmetic), ends exact
    edges = np.exp(np.linspace(math.log(head + 0.5), math.log(n_items + 0.5), bins - head + 1))
    edges[0], edges[-1] = head + 0.5, n_items + 0.5
    tail_mass = _power_integral(edges[:-1], edges[1:], alpha)
    m = np.concatenate([np.ones(head), np.diff(edges)])
    mass = np.concatenate([head_mass, tail_mass])
    return m, mass / m / mass.sum()


def _catalog(working_set_gb: float, skew: Skew, block_kib: float, bins: int) -> tuple[FloatArray, FloatArray]:
    return _popularity(_items(working_set_gb, block_kib), skew, bins)


def _table(working_set_gb: float, skew: Skew, block_kib: float, bins: int) -> _Popularity:
    return _popularity_table(
        _items(working_set_gb, block_kib), skew.zipf_alpha, skew.io_pct, skew.data_pct, bins
    )


# ---- Che's approximation ---------------------------------------------------------------------


def _occupancy(t: float, m: FloatArray, q: FloatArray) -> float:
    """Expected distinct items requested in ``t`` requests: ``sum m (1 - exp(-q t))``."""
    return float(m @ -np.expm1(-np.minimum(q * t, _MAX_EXPONENT)))


def _request_hits(t: float, m: FloatArray, q: FloatArray) -> float:
    """``H(t) = sum m q (1 - exp(-q t))``: request hit ratio of an LRU with characteristic time t."""
    return float((m * q) @ -np.expm1(-np.minimum(q * t, _MAX_EXPONENT)))


def _decay(t: FloatArray, q: FloatArray) -> FloatArray:
    """``exp(-q t)`` for every (t, class) pair, shape (len(t), len(q)), computed in place."""
    x = np.outer(t, q)
    np.minimum(x, _MAX_EXPONENT, out=x)
    np.negative(x, out=x)
    return np.exp(x, out=x)


_CHE_XTOL = 1e-12
"""Absolute tolerance on ln t of the Che solve (plus ``_CHE_RTOL |ln t|``)."""
_CHE_RTOL = 1e-13


def _che_solve(c_items: float, pop: _Popularity) -> tuple[float, float]:
    """``(t_C, H(t_C))``: solve ``sum m (1 - exp(-q t)) = C`` for t, and the request hit ratio there.

    Newton's method on ln t kept inside a bracket (a bisection step whenever Newton would leave it
    or not halve the step, as ``rtsafe`` in Numerical Recipes), to ``|d ln t| < 1e-12 + 1e-13 |ln t|``.
    The slope is free: ``d occupancy / d ln t = t sum m q exp(-q t) = t (1 - H(t))``.
    Bracket: ``t >= C`` (since ``1 - e^-x <= x`` and ``sum m q = 1``) and
    ``t <= -ln(1 - C/N) / q_min`` (every item at least as popular as the rarest), 0 < C < N.
    """
    m, q, mq = pop.m, pop.q, pop.mq
    lo = math.log(c_items)
    hi = math.log(-math.log1p(-c_items / pop.n) / pop.q_min)
    if hi <= lo:
        return _che_at(math.exp(hi), pop)
    # both ends at once: occupancy and hit ratio at t = e^lo and e^hi
    ends = np.exp(np.array([lo, hi]))
    x = np.multiply.outer(ends, -q)
    np.maximum(x, -_MAX_EXPONENT, out=x)
    np.expm1(x, out=x)
    occ_lo, occ_hi = -(x @ m)
    h_lo, h_hi = -(x @ mq)
    t_lo, t_hi = float(ends[0]), float(ends[1])
    # near-uniform popularity, or a cache tiny against the hottest item, puts the root at an end
    # of the bracket where round-off can flip the sign: the end is then the root
    if occ_hi - c_items <= 0.0:
        return t_hi, min(1.0, float(h_hi))
    f_lo = float(occ_lo) - c_items
    if f_lo >= 0.0:
        return t_lo, min(1.0, float(h_lo))
    f_hi = float(occ_hi) - c_items
    # start from the end nearer the root (by |excess|)
    if -f_lo < f_hi:
        u, f, t, h = lo, f_lo, t_lo, float(h_lo)
    else:
        u, f, t, h = hi, f_hi, t_hi, float(h_hi)
    slope = t * (1.0 - h)
    step_before = step = hi - lo
    for _ in range(200):
        if ((u - hi) * slope - f) * ((u - lo) * slope - f) > 0.0 or abs(2.0 * f) > abs(step_before * slope):
            step_before, step = step, 0.5 * (hi - lo)
            u_next = lo + step
        else:
            step_before, step = step, f / slope
            u_next = u - step
        if abs(step) < _CHE_XTOL + _CHE_RTOL * abs(u_next) or u_next == u:
            return t, min(1.0, h)
        u = u_next
        t = math.exp(u)
        y = q * -t
        np.maximum(y, -_MAX_EXPONENT, out=y)
        np.expm1(y, out=y)
        # ndarray.dot: the same BLAS dot product as the @ operator, without the matmul dispatch
        # (half the cost on these 256 floats, twice a step)
        f = -float(y.dot(m)) - c_items
        h = -float(y.dot(mq))
        if f == 0.0:
            break
        if f > 0.0:
            hi = u
        else:
            lo = u
        slope = t * (1.0 - h)
    return t, min(1.0, h)


def _che_at(t: float, pop: _Popularity) -> tuple[float, float]:
    return t, min(1.0, _request_hits(t, pop.m, pop.q))


@kept_by_value(16384)
def _che_solution(
    key: tuple[float, float | None, float | None, float | None, int], c_items: float
) -> tuple[float, float]:
    """:func:`_che_solve` memoized per catalog and cache size: the warm level solve of the whole
    cache and the cold solve over the same working set ask for the same root."""
    return _che_solve(c_items, _popularity_table(*key))


def uniform_hit_ratio(cache_gb: float, working_set_gb: float) -> float:
    """Hit ratio of a cache under uniform random reads: ``H = min(1, C / W)`` [0..1].

    ``cache_gb`` C [GB], ``working_set_gb`` W [GB]. Any replacement policy gives this in steady
    state when every block is equally likely. Published check: 16 GB over a 100 GB uniform random
    working set -> 16%; measured 15-17% (FAS3170, NFS, client caching off, 2009).
    """
    c = _non_negative("cache_gb", cache_gb)
    w = _positive("working_set_gb", working_set_gb)
    return min(1.0, c / w)


def che_hit_ratio(
    cache_gb: float,
    working_set_gb: float,
    skew: Skew,
    block_kib: float = DEFAULT_BLOCK_KIB,
    bins: int = DEFAULT_BINS,
) -> float:
    """Steady-state request hit ratio of an LRU cache (Che's approximation) [0..1].

    ::

        N = W * 10^9 / (block * 1024)          C = cache * 10^9 / (block * 1024)   [items]
        hit(n) = 1 - exp(-q(n) t_C),   t_C solves  sum_n (1 - exp(-q(n) t_C)) = C
        H = sum_n q(n) hit(n)

    ``cache_gb`` C [GB], ``working_set_gb`` W [GB], ``skew`` the popularity law (Zipf alpha,
    "x% of I/O to y% of data", or uniform -> exactly C / W), ``block_kib`` the cache block [KiB],
    ``bins`` rank bins for a Zipf law (log-spaced; hit ratio within ~1e-5 of the exact sum).
    t_C is found by bracketed Newton steps on ln t (see :func:`_che_solve`). A cache >= W gives 1.

    Source: Che, Tung, Wang, "Hierarchical Web caching systems: modeling, design and experimental
    results", IEEE JSAC 20(7), 2002; Fricker, Robert, Roberts, "A versatile and accurate
    approximation for LRU cache performance", arXiv:1202.3974, 2012.
    """
    c = _non_negative("cache_gb", cache_gb)
    _check_common(working_set_gb, block_kib, bins)
    _check_skew(skew)
    if skew.uniform:
        return uniform_hit_ratio(c, working_set_gb)
    if c >= working_set_gb:
        return 1.0
    if c == 0.0:
        return 0.0
    pop = _table(working_set_gb, skew, block_kib, bins)
    c_items = c / working_set_gb * pop.n  # keeps C/W exact when small catalogs round N
    return _che_solution(pop.key, c_items)[1]


_NEWTON_STEPS = 64
"""Most Newton steps of :func:`hit_ratio_curve` (a vanishing cache with a steep Zipf law takes a
dozen; eight sufficed for every other size tried)."""


def hit_ratio_curve(
    cache_sizes_gb: npt.ArrayLike,
    working_set_gb: float,
    skew: Skew,
    block_kib: float = DEFAULT_BLOCK_KIB,
    bins: int = DEFAULT_BINS,
) -> FloatArray:
    """Che hit ratios for many cache sizes at once (same model as :func:`che_hit_ratio`) [0..1].

    Vectorized: ``sum_n (1 - exp(-q(n) t))`` is tabulated on 256 log-spaced t, interpolated
    for each C to start, then Newton steps on ln t until they move less than 1e-6 (usually two;
    agrees with :func:`che_hit_ratio` to ~1e-10, a few 1e-9 for a vanishing cache; up to
    :data:`_NEWTON_STEPS` for a cache far below the others, which starts from t = C). The result
    is clipped to [0, 1] and made non-decreasing in C (a running maximum over sorted sizes removes
    round-off below 1e-9). 200 points take ~2 ms.
    ``cache_sizes_gb`` [GB], 1-D; other arguments as :func:`che_hit_ratio`. Source: as there.
    """
    sizes = np.asarray(cache_sizes_gb, dtype=np.float64)
    if sizes.ndim != 1:
        raise InputError("cache_sizes_gb", "must be a 1-D sequence of sizes")
    if not np.all(np.isfinite(sizes)):
        raise InputError("cache_sizes_gb", "must be finite")
    if np.any(sizes < 0):
        raise InputError("cache_sizes_gb", f"must be >= 0, got {float(sizes.min()):g}")
    _check_common(working_set_gb, block_kib, bins)
    _check_skew(skew)
    if skew.uniform:
        return np.asarray(np.minimum(1.0, sizes / working_set_gb), dtype=np.float64)
    out = np.where(sizes >= working_set_gb, 1.0, 0.0)
    inside = (sizes > 0) & (sizes < working_set_gb)
    if not np.any(inside):
        return out
    m, q = _catalog(working_set_gb, skew, block_kib, bins)
    n = float(m.sum())
    c = sizes[inside] / working_set_gb * n
    # table of occupancy against ln t from C (small t: occupancy ~ t) to -ln(1 - C/N) / q_min
    u_lo = math.log(max(float(c.min()), 1e-8 * float(c.max())))
    u_grid = np.linspace(u_lo, math.log(-math.log1p(-float(c.max()) / n) / float(q.min())), 256)
    occ = -np.expm1(-np.minimum(np.outer(np.exp(u_grid), q), _MAX_EXPONENT)) @ m  # exact when tiny
    log_c = np.log(c)
    u = np.where(log_c < u_lo, log_c, np.interp(log_c, np.log(occ), u_grid))
    mq = m * q
    mqq = mq * q  # d H / d ln t = t sum_n m q^2 e(n)
    for step in range(_NEWTON_STEPS):  # Newton on ln t; two steps from the table's guess usually suffice
        t = np.exp(u)
        e = _decay(t, q)
        hit_n = 1.0 - e  # absolute error 1e-16 per item: at most N * 1e-16 items of occupancy
        slope = t * (e @ mq)  # d occupancy / d ln t > 0
        du = np.divide(c - hit_n @ m, slope, out=np.zeros_like(c), where=slope > 0)
        settled = np.abs(du) < 1e-6  # then |H error| ~ du^2 < 1e-12
        done = bool(np.all(settled))
        dh = None  # H's first-order change over the remaining step
        if not done and step >= 7:
            # past eight steps (a cache far below the table's range starts at t = C, far off
            # under a steep Zipf law): a size whose H would move by less than 1e-13 over its
            # remaining step counts as solved (a vanishing cache converges only linearly)
            dh = t * (e @ mqq) * du
            done = bool(np.all(settled | (np.abs(dh) < 1e-13)))
        if done or step == _NEWTON_STEPS - 1:
            # H at this iterate plus its first-order change over the remaining step
            h = hit_n @ mq + (t * (e @ mqq) * du if dh is None else dh)
            break
        u = np.clip(u + du, log_c, u_grid[-1])
    out[inside] = np.clip(h, 0.0, 1.0)
    order = np.argsort(sizes, kind="stable")
    out[order] = np.maximum.accumulate(out[order])
    return out


def level_hit_ratios(
    dram_gb: float,
    flash_gb: float,
    working_set_gb: float,
    skew: Skew,
    exclusive: bool = True,
    block_kib: float = DEFAULT_BLOCK_KIB,
    bins: int = DEFAULT_BINS,
    *,
    dedupe_ratio: float = 1.0,
    dram_dedupe_aware: bool = False,
    flash_dedupe_aware: bool = False,
) -> tuple[float, float]:
    """Share of all reads served by DRAM and by the flash cache behind it: ``(h_dram, h_flash)``.

    ``H(x, W)`` is :func:`che_hit_ratio` for a cache of x [GB] over a working set W [GB]::

        exclusive (victim cache, the default):  h_dram = H(D, W),  h_flash = H(D + F, W) - H(D, W)
        inclusive:                              h_dram = H(D, W),  h_flash = max(0, H(max(D, F), W) - H(D, W))

    Exclusive: the flash cache holds blocks evicted from DRAM (NetApp Flash Cache/PAM, ZFS L2ARC
    fed from the ARC's tail), so the pair behaves like one LRU of D + F (Che et al. 2002 treat
    the filtered miss stream the same way; an approximation, since it is no longer IRM).
    Inclusive: flash also holds what DRAM holds, so it only adds the blocks beyond DRAM's.

    Dedupe (``dedupe_ratio`` R > 1 and a level marked aware): a dedupe-aware level holds one copy
    per physical block, one that is not aware a copy per logical block, so in physical blocks the
    levels count ``D' = D`` or ``D / R`` and ``F' = F`` or ``F / R`` over ``W / R`` (see
    :func:`effective_cache_working_set_gb`): ``h_dram = H(D', W/R)``,
    ``h_flash = H(D' + F', W/R) - h_dram`` (``max(D', F')`` if inclusive). With no level aware
    the logical view ``W`` is used and R changes nothing. The physical blocks are given the
    same popularity law as the logical ones (shared blocks being hotter is ignored, so the gain
    from dedupe is if anything understated).

    ``h_dram + h_flash <= 1``; ``1 - h_dram - h_flash`` of reads go to disk. Sizes [GB]; other
    arguments as :func:`che_hit_ratio`.
    """
    d = _non_negative("dram_gb", dram_gb)
    f = _non_negative("flash_gb", flash_gb)
    ratio = _finite("dedupe_ratio", dedupe_ratio)
    if ratio < 1.0:
        raise InputError("dedupe_ratio", f"must be >= 1 (logical / physical), got {ratio:g}")
    ws = _positive("working_set_gb", working_set_gb)
    if ratio > 1.0 and (dram_dedupe_aware or flash_dedupe_aware):
        ws = ws / ratio
        d = d if dram_dedupe_aware else d / ratio
        f = f if flash_dedupe_aware else f / ratio
    h_dram = che_hit_ratio(d, ws, skew, block_kib, bins)
    both = d + f if exclusive else max(d, f)
    h_both = che_hit_ratio(both, ws, skew, block_kib, bins)
    return h_dram, max(0.0, h_both - h_dram)


def effective_cache_working_set_gb(
    working_set_gb: float, dedupe_ratio: float = 1.0, dedupe_aware: bool = False
) -> float:
    """Working set a cache must hold [GB]: ``W / dedupe_ratio`` if dedupe-aware, else ``W``.

    A dedupe-aware cache (NetApp Flash Cache/PAM, later buffer caches) keys blocks by physical
    address, so one cached copy serves every file or clone sharing it: it "sees" the working set
    shrunk by the dedupe ratio. A cache that is not dedupe-aware spends a slot per logical copy.
    Feed the result to :func:`che_hit_ratio`. ``dedupe_ratio`` >= 1 (e.g. 33 for a 97% footprint
    reduction). Source: published boot-storm lesson (2009): "a cache that holds deduplicated
    blocks serves a working set shrunk by the dedupe ratio".
    """
    w = _positive("working_set_gb", working_set_gb)
    d = _finite("dedupe_ratio", dedupe_ratio)
    if d < 1.0:
        raise InputError("dedupe_ratio", f"must be >= 1 (logical / physical), got {d:g}")
    return w / d if dedupe_aware else w


def flash_cacheable_read_fraction(random_pct: float, cache_sequential: bool = False) -> float:
    """Share of reads a flash read cache may serve [0..1]: ``random_pct / 100``, or 1.

    Flash read caches skip sequential reads by default (NetApp Flash Cache, EMC FAST Cache and
    ZFS L2ARC do not cache streaming reads: disks stream well, and a scan would flush the hot
    set). Multiply the flash hit ratio by this share; DRAM still serves read-ahead.
    ``cache_sequential=True`` (a policy that caches them) gives 1.
    """
    r = _finite("random_pct", random_pct)
    if not 0.0 <= r <= 100.0:
        raise InputError("random_pct", f"must be between 0 and 100, got {r:g}")
    return 1.0 if cache_sequential else r / 100.0


def flash_cache_devices(flash_cache_gb: float, device_gb: float) -> int:
    """Devices (modules or SSDs) a flash cache of ``flash_cache_gb`` is built of: ``ceil(C / C_dev)``
    (0 without a flash cache)."""
    if flash_cache_gb <= 0:
        return 0
    return max(1, math.ceil(flash_cache_gb / _positive("flash_device_gb", device_gb) - 1e-9))


def flash_hit_service_ms(size_kib: float, device_read_iops: float, device_read_mb_s: float) -> float:
    """Device time of one read served from a flash cache [ms]: ``max(1000 / IOPS_4k, KiB x 1.024 /
    MB/s)`` (the 4 KiB random-read rating, or the transfer at the device's read bandwidth; the
    SSD model of :mod:`models.drives`)."""
    return max(1000.0 / device_read_iops, size_kib * KIB / 1e6 / device_read_mb_s * 1000.0)


def flash_reads_served(
    phases: Sequence[Phase], flash_hit_ratios: Sequence[float]
) -> list[tuple[float, float]]:
    """(flash hits per second, KiB each) of each phase: its random reads x its flash hit ratio
    (the share of random reads the flash level serves, as the controller load counts them)."""
    return [
        (ph.effective_iops * ph.read_pct / 100 * ph.random_pct / 100 * hf, ph.mean_size_kib)
        for ph, hf in zip(phases, flash_hit_ratios, strict=True)
    ]


def flash_cache_utilization(
    hits: Sequence[tuple[float, float]], devices: int, device_read_iops: float, device_read_mb_s: float
) -> float:
    """Utilization of a flash cache's devices (0..inf) by the reads it serves, ``hits`` as
    (flash hits per second, KiB each) per phase::

        U_flash = sum(hits/s x t_hit(KiB)) / (1000 x devices)        (:func:`flash_hit_service_ms`)

    A cache serves no more reads than its devices can: at ``U_flash = 1`` they are saturated.
    Fills (reads inserted after a miss) are not counted: the rating is the read rating."""
    if devices <= 0:
        return 0.0
    busy = sum(n * flash_hit_service_ms(kib, device_read_iops, device_read_mb_s) for n, kib in hits)
    return busy / (1000.0 * devices)


# ---- warm vs cold --------------------------------------------------------------------------------


def cold_hit_ratio(
    cache_gb: float,
    working_set_gb: float,
    skew: Skew,
    read_gb: float | None = None,
    block_kib: float = DEFAULT_BLOCK_KIB,
    bins: int = DEFAULT_BINS,
) -> float:
    """Hit ratio over the first ``read_gb`` of reads after the cache starts empty [0..1].

    Che's approximation from a cold start (IRM, LRU). The distinct items requested in R
    requests are ``U(R) = sum_n (1 - exp(-q(n) R))``; every one is a compulsory miss until the
    cache fills, which happens when ``U(R) = C``, i.e. at ``R = t_C``; after that the cache is
    in steady state and misses ``1 - H`` of requests::

        misses(R) = U(R)                          R <= t_C  (or C >= W: never fills)
                  = C + (R - t_C) (1 - H)         R >  t_C
        cold hit ratio = 1 - misses(R) / R

    (Misses before filling: ``integral_0^R (1 - H(s)) ds = U(R)`` since ``dU/ds = 1 - H(s)``.)
    ``read_gb`` defaults to one working set's worth of reads (a "first pass"). As R grows the
    cold ratio rises to the warm (steady-state) :func:`che_hit_ratio`; it is never above it.
    Example: 16 GB over 100 GB uniform, 100 GB read: t_C = -100 ln(0.84) = 17.4 GB,
    misses = 16 + 82.6 x 0.84 = 85.4 GB: 14.6% cold vs 16% warm. Source: as :func:`che_hit_ratio`.
    """
    c = _non_negative("cache_gb", cache_gb)
    _check_common(working_set_gb, block_kib, bins)
    _check_skew(skew)
    r_gb = working_set_gb if read_gb is None else _positive("read_gb", read_gb)
    pop = _table(working_set_gb, skew, block_kib, bins)
    m, q = pop.m, pop.q
    scale = pop.n / working_set_gb  # items per GB of the working set
    r = r_gb * scale
    if c == 0.0:
        return 0.0
    c_items = min(c, working_set_gb) * scale
    if c >= working_set_gb:
        misses = _occupancy(r, m, q)
    else:
        t_c, h_c = _che_solution(pop.key, c_items)
        misses = _occupancy(r, m, q) if r <= t_c else c_items + (r - t_c) * (1.0 - h_c)
    return float(min(1.0, max(0.0, 1.0 - misses / r)))


def warm_and_cold_hit_ratios(
    cache_gb: float,
    working_set_gb: float,
    skew: Skew,
    read_gb: float | None = None,
    block_kib: float = DEFAULT_BLOCK_KIB,
    bins: int = DEFAULT_BINS,
) -> tuple[float, float]:
    """``(warm, cold)``: steady-state :func:`che_hit_ratio` and :func:`cold_hit_ratio` [0..1].

    Size for the warm ratio in normal running; check the cold one after a failover or reboot
    (the cache refills while the load runs). Arguments as :func:`cold_hit_ratio`.
    """
    warm = che_hit_ratio(cache_gb, working_set_gb, skew, block_kib, bins)
    cold = cold_hit_ratio(cache_gb, working_set_gb, skew, read_gb, block_kib, bins)
    return warm, min(cold, warm)


# ---- bursts of identical-image reads (boot storms) ----------------------------------------------


class CacheLevel(Frozen):
    """One read-cache level for :func:`burst_disk_read_gb`, nearest the host first."""

    cache_gb: NonNegFloat = Field(description="capacity available for data [GB]")
    dedupe_aware: bool = Field(default=False, description="one cached copy per physical block")
    name: str = Field(default="cache", min_length=1, max_length=40)


class BurstReads(Output):
    """Disk reads for a burst of identical-image reads, with the figures behind them."""

    host_read_gb: float = Field(description="R: logical data read by all clients [GB]")
    physical_footprint_gb: float = Field(description="P = F / dedupe: distinct physical data read [GB]")
    effective_cache_gb: float = Field(description="c: cache counted in physical blocks [GB]")
    miss_gb: float = Field(description="M = P + (R - P) max(0, 1 - c / (s P)) [GB]")
    disk_read_gb: float = Field(description="a M [GB]")
    formula: str


def burst_disk_read_gb(
    host_read_gb: float,
    dedupe_ratio: float,
    levels: Sequence[CacheLevel],
    footprint_gb: float | None = None,
    readahead_amplification: float = DEFAULT_READAHEAD_AMPLIFICATION,
    concurrency_share: float = DEFAULT_BURST_CONCURRENCY,
    exclusive: bool = True,
) -> BurstReads:
    """Disk data read [GB] when many clients read copies of the same image at once (boot storm).

    ::

        P = F / D                                   physical footprint of the data read [GB]
        c = sum_i C_i / (1 if aware_i else D)       cache counted in physical blocks [GB]
                                                    (max instead of sum for inclusive levels)
        M = P + (R - P) * max(0, 1 - c / (s P))     misses: compulsory + re-references missed
        disk = a * M

    R ``host_read_gb``: logical data the clients read [GB]; F ``footprint_gb``: distinct logical
    data read (default R: a boot reads each block of its image about once); D ``dedupe_ratio``
    (logical / physical, 1 = none; 33 for a 97% footprint reduction); ``levels`` the read caches,
    host side first; a ``readahead_amplification``; s ``concurrency_share``.

    Reasoning. Every physical block must come off disk once (compulsory, P). The other R - P
    references re-read blocks another clone (or the same client) read earlier; with dedupe
    those are the D - 1 other clones of each block. A re-reference hits if its block is still
    cached. Spread the r references of each block uniformly over a window w = s R of the burst
    (s = 1: over the whole burst, as under IRM; s -> 0: clients in lockstep), so s P blocks are
    in play at any time. For an LRU whose blocks stay tau after their last use, a gap between
    two of the r uniform points exceeds tau with probability ``(1 - tau/w)^r``, and the same
    expression sets the occupancy, ``c = s P (1 - (1 - tau/w)^r)``. Eliminating tau, a
    re-reference misses with probability ``1 - c / (s P)``, and never once c >= s P.
    A dedupe-aware level stores one copy per physical block; a level that is not aware stores a
    copy per logical reference, so its C counts C / D physical blocks (equivalently C over the
    logical working set, as in :func:`effective_cache_working_set_gb`). Lookups are assumed to
    find a block cached for another clone in both cases: with none the published no-flash-cache
    dedupe run could not have read 4x less than the run without dedupe. Victim levels add
    (``exclusive``). Disk reads are misses times the read-ahead amplification a (whole read-ahead
    units fetched per missed block; 1 = none).

    Calibration (``fixtures/calibration/cache.yaml``): a = 67/49 from the run without dedupe
    (no re-references, so disk = a R) and s from the dedupe run without flash cache; the run with
    2 x 16 GB of dedupe-aware PAM is then a prediction (published: under 4 GB). Source: 200 VMs
    booted at once from a FAS3170 over NFS, consultancy lab test (2009).
    """
    r = _positive("host_read_gb", host_read_gb)
    d = _finite("dedupe_ratio", dedupe_ratio)
    if d < 1.0:
        raise InputError("dedupe_ratio", f"must be >= 1 (logical / physical), got {d:g}")
    f = r if footprint_gb is None else _positive("footprint_gb", footprint_gb)
    if f > r:
        raise InputError(
            "footprint_gb", f"distinct data read ({f:g} GB) cannot exceed the data read ({r:g} GB)"
        )
    a = _finite("readahead_amplification", readahead_amplification)
    if a < 1.0:
        raise InputError("readahead_amplification", f"must be >= 1, got {a:g}")
    s = _finite("concurrency_share", concurrency_share)
    if not 0.0 < s <= 1.0:
        raise InputError("concurrency_share", f"must be in (0, 1], got {s:g}")
    p = f / d
    physical = [lv.cache_gb / (1.0 if lv.dedupe_aware else d) for lv in levels]
    c = (sum(physical) if exclusive else max(physical)) if physical else 0.0
    miss = p + (r - p) * max(0.0, 1.0 - c / (s * p))
    return BurstReads(
        host_read_gb=r,
        physical_footprint_gb=p,
        effective_cache_gb=c,
        miss_gb=miss,
        disk_read_gb=a * miss,
        formula=(
            f"disk = a (P + (R - P) max(0, 1 - c/(s P))) = {a:g} x ({p:.3g} + ({r:g} - {p:.3g}) x "
            f"max(0, 1 - {c:.3g}/({s:g} x {p:.3g}))) = {a * miss:.3g} GB"
        ),
    )


def fit_burst_parameters(
    host_read_gb: float,
    disk_read_no_dedupe_gb: float,
    disk_read_dedupe_gb: float,
    dedupe_ratio: float,
    levels: Sequence[CacheLevel],
) -> tuple[float, float]:
    """Fit ``(readahead_amplification, concurrency_share)`` of :func:`burst_disk_read_gb`.

    Without dedupe no block is read twice (F = R), so ``disk = a R`` gives a. With dedupe and
    the same caches, invert ``M = P + (R - P)(1 - c/(s P))`` for s with ``M = disk / a``:
    ``s = c / (P (1 - (M - P)/(R - P)))``.
    """
    r = _positive("host_read_gb", host_read_gb)
    a = _positive("disk_read_no_dedupe_gb", disk_read_no_dedupe_gb) / r
    m = _positive("disk_read_dedupe_gb", disk_read_dedupe_gb) / a
    d = _finite("dedupe_ratio", dedupe_ratio)
    if d <= 1.0:
        raise InputError("dedupe_ratio", "must be > 1 to fit the concurrency share")
    p = r / d
    c = sum(lv.cache_gb / (1.0 if lv.dedupe_aware else d) for lv in levels)
    if not p < m < r:
        raise InputError("disk_read_dedupe_gb", "must lie between the compulsory and the no-dedupe reads")
    s = c / (p * (1.0 - (m - p) / (r - p)))
    if not 0.0 < s <= 1.0:
        raise InputError("disk_read_dedupe_gb", f"implies a concurrency share outside (0, 1]: {s:g}")
    return a, s


__all__ = [
    "DEFAULT_BINS",
    "DEFAULT_BLOCK_KIB",
    "DEFAULT_BURST_CONCURRENCY",
    "DEFAULT_READAHEAD_AMPLIFICATION",
    "BurstReads",
    "CacheLevel",
    "burst_disk_read_gb",
    "che_hit_ratio",
    "cold_hit_ratio",
    "effective_cache_working_set_gb",
    "fit_burst_parameters",
    "flash_cache_devices",
    "flash_cache_utilization",
    "flash_cacheable_read_fraction",
    "flash_hit_service_ms",
    "flash_reads_served",
    "hit_ratio_curve",
    "level_hit_ratios",
    "uniform_hit_ratio",
    "warm_and_cold_hit_ratios",
]
