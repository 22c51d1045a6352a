"""Autotiering: how much fast tier the hot data needs when whole chunks move, and who serves the I/O.

Tiering moves whole chunks, so hot blocks drag their cold neighbours into the fast tier: the
bigger the chunk, the more fast capacity a given share of the I/O needs. Published guidance:
a 7.5 MB chunk may need as little as 3-5% of capacity on the fastest tier, a 1 GB chunk 10-15%
(storage vendor engineer's blog on autotiering, [vendor-blog-sizing]). No published curve exists, so the spatial
locality of hot data is modelled explicitly.

The b-model (Wang, Madhyastha, Chan, Papadimitriou, Faloutsos, "Data mining meets performance
evaluation: fast algorithms for modeling bursty traffic", ICDE 2002; applied to disk addresses
with PQRS in Wang, Ailamaki, Faloutsos, "Capturing the spatio-temporal behavior of real traffic
data", Performance 2002; CMU PDL; [wang-2002-bmodel]) splits an address extent in two halves that receive shares b
and 1 - b of the I/O, and recurses. At depth k (chunk = extent / 2^k) a chunk
that took the b branch j times carries ``b^j (1 - b)^(k - j)`` of the I/O, and ``C(k, j)`` chunks
have that weight. The hottest chunks first::

    I/O of the chunks with j' >= j     = P(Binomial(k, b)   >= j)
    capacity of those chunks           = P(Binomial(k, 1/2) >= j)

Units: capacities in decimal GB; chunk sizes in MiB as vendors quote them (7.5 MB = 10 x 768 KiB
= 7.5 MiB; "1 GB" = 1,024 MiB).

Kept as one module (about 600 lines): the skew-to-I/O curve, the chunk inflation and the
tier split are the steps of one calculation.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from pydantic import Field
from scipy.optimize import minimize_scalar
from scipy.special import gammaln

from models.base import InputError, Output
from models.configuration import Configuration
from models.explain import explained, fmt
from models.results import TieringResult, TierLoad
from models.units import GB, MB, MIB
from models.workload import Skew

FloatArray = npt.NDArray[np.float64]

# ---- vendor relocation units [MiB] ---------------------------------------------------------------

SYMMETRIX_FAST_VP_EXTENT_GROUP_MB = 7.5
"""EMC Symmetrix VMAX FAST VP: extent group of 10 x 768 KiB extents (12 x 64 KiB tracks)
[vjswami-autotiering]."""
HDS_VSP_HDT_PAGE_MB = 42.0
"""Hitachi USP-V/VSP Dynamic Provisioning / Dynamic Tiering page [hds-hdp-42mb]."""
VNX_FAST_VP_SLICE_MB = 1024.0
"""EMC CLARiiON CX4 / VNX1 FAST VP slice, 1 GiB (analysed hourly, relocated daily)
[vjswami-autotiering][storagefreak-fast-vp]."""
DS8000_EASY_TIER_EXTENT_MB = 1024.0
"""IBM DS8000 Easy Tier large extent, 1 GiB (small FB extents are 16 MiB) [ibm-ds8000-easy-tier]."""
THREEPAR_AO_REGION_MB = 128.0
"""HP 3PAR Adaptive Optimization region, 128 MiB [3par-ao-regions]."""
COMPELLENT_PAGE_MB = 2.0
"""Dell Compellent Data Progression page, 2 MiB default (512 KiB / 4 MiB options)
[compellent-data-progression]."""
VNX2_UNITY_SLICE_MB = 256.0
"""EMC VNX2 (MCx) / Unity FAST VP slice, 256 MiB [faststorage-fast-vp]."""
FLASH_POOL_BLOCK_MB = 4.0 / 1024.0
"""NetApp Flash Pool: WAFL 4 KiB blocks (a cache, not a tier; not confirmed in a NetApp doc)
[netapp-ontap-flash-pool-policies]."""

VENDOR_CHUNK_MB: dict[str, float] = {
    "symmetrix-fast-vp": SYMMETRIX_FAST_VP_EXTENT_GROUP_MB,
    "hds-vsp-hdt": HDS_VSP_HDT_PAGE_MB,
    "vnx-fast-vp": VNX_FAST_VP_SLICE_MB,
    "ds8000-easy-tier": DS8000_EASY_TIER_EXTENT_MB,
    "3par-ao": THREEPAR_AO_REGION_MB,
    "compellent": COMPELLENT_PAGE_MB,
    "vnx2-unity": VNX2_UNITY_SLICE_MB,
    "flash-pool": FLASH_POOL_BLOCK_MB,
}
"""Relocation unit per product [MiB]; sources: the keys above (docs/sources.md)."""

# ---- calibrated defaults (must equal fixtures/calibration/tiering.yaml; a test checks) ---------

DEFAULT_B = 0.8
"""b-model bias, fitted to the chunk-size guidance (3-5% at 7.5 MB, 10-15% at 1 GB, 80% of I/O)."""
DEFAULT_EXTENT_GB = 1000.0
"""Address extent the b-model cascade starts from [GB]: 1 TB, a LUN or volume of the guidance's era (assumed)."""
DEFAULT_FLOOR_FRACTION = 0.02
"""True hot fraction at block granularity: no chunk size needs less (assumed, not fitted)."""
DEFAULT_IO_CAPTURE = 0.8
"""Share of the I/O the fast tier is sized to serve."""

_MAX_DEPTH = 64
_SOURCE = "b-model (Wang et al., CMU PDL, ICDE 2002), calibrated to published chunk-size guidance"


# ---- argument checks ---------------------------------------------------------------------------


def _finite(field: str, x: float) -> float:
    x = float(x)
    if not math.isfinite(x):
        raise InputError(field, f"must be a finite number, got {x}")
    return x


def _positive(field: str, x: float) -> float:
    x = _finite(field, x)
    if x <= 0:
        raise InputError(field, f"must be > 0, got {x:g}")
    return x


def _check_model(b: float, io_capture: float, floor_fraction: float, extent_gb: float) -> None:
    b = _finite("b", b)
    if not 0.5 <= b < 1.0:
        raise InputError("b", f"b-model bias must be in [0.5, 1), got {b:g}")
    x = _finite("io_capture", io_capture)
    if not 0.0 < x <= 1.0:
        raise InputError("io_capture", f"must be in (0, 1], got {x:g}")
    f = _finite("floor_fraction", floor_fraction)
    if not 0.0 <= f <= 1.0:
        raise InputError("floor_fraction", f"must be in [0, 1], got {f:g}")
    _positive("extent_gb", extent_gb)


def _check_measured(measured_fraction: float | None) -> float | None:
    if measured_fraction is None:
        return None
    m = _finite("measured_fraction", measured_fraction)
    if not 0.0 < m <= 1.0:
        raise InputError("measured_fraction", f"must be in (0, 1], got {m:g}")
    return m


# ---- the b-model ------------------------------------------------------------------------------


def chunk_depth(capacity_gb: float, chunk_mb: float, extent_gb: float = DEFAULT_EXTENT_GB) -> float:
    """b-model depth: ``k = log2(min(capacity, extent) / chunk)``, 0 when one chunk holds it all.

    Above ``extent_gb`` the capacity is many extents with the same locality, so the fractions
    depend only on the extent (the guidance quotes percentages regardless of size). Capped at
    64 (2^64 chunks, finer than any relocation unit).
    """
    cap = _positive("capacity_gb", capacity_gb)
    chunk = _positive("chunk_mb", chunk_mb)
    top = min(cap, _positive("extent_gb", extent_gb)) * GB
    return min(float(_MAX_DEPTH), max(0.0, math.log2(top / (chunk * MIB))))


class _Table:
    """b-model weight classes for integer depths 0..K, hottest class first in each row.

    Row k, column r: the ``C(k, r)`` chunks that took the b branch ``j = k - r`` times, each with
    I/O weight ``w = b^j (1-b)^r``. ``cum_io`` and ``cum_cap`` are cumulative over the columns:
    ``P(Binomial(k, b) >= j)`` and ``P(Binomial(k, 1/2) >= j)``.
    """

    def __init__(self, max_depth: int, b: float) -> None:
        depths = np.arange(max_depth + 1, dtype=np.float64)
        k, r = depths[:, None], depths[None, :]
        j = np.maximum(k - r, 0.0)
        ln_fact = gammaln(depths + 1.0)  # ln n!
        log_m = ln_fact[:, None] - gammaln(j + 1.0) - ln_fact[None, :]
        log_w = j * math.log(b) + r * math.log1p(-b)
        valid = r <= k
        self.max_depth = max_depth
        self.depths = depths
        self.w = np.exp(log_w)
        self.cum_io = np.cumsum(np.exp(log_m + log_w) * valid, axis=1)
        self.cum_cap = np.cumsum(np.exp(log_m - k * math.log(2.0)) * valid, axis=1)

    def needed(self, io_capture: float) -> FloatArray:
        """Smallest capacity share of whole chunks carrying ``io_capture`` of the I/O, per depth.

        Whole classes hottest first; in the class where the cumulative I/O reaches
        ``io_capture``, ``ceil(missing I/O / chunk weight)`` chunks of ``2^-k`` capacity each.
        """
        k = np.arange(self.max_depth + 1)
        # I/O shares within 1e-9 count as equal: the binomial sums carry ~1e-11 of round-off
        reached = self.cum_io >= io_capture - 1e-9
        idx = np.minimum(np.where(reached[:, -1], reached.argmax(axis=1), k), k)
        prev = np.maximum(idx - 1, 0)
        before = idx > 0
        io_before = self.cum_io[k, prev] * before
        cap_before = self.cum_cap[k, prev] * before
        missing = np.maximum(0.0, io_capture - 1e-9 - io_before)
        chunks = np.ceil(missing / self.w[k, idx])
        out = np.minimum(1.0, cap_before + chunks * np.exp2(-self.depths))
        out[0] = 1.0  # depth 0: one chunk, held whole
        return out

    def breakpoints(self, k: int) -> tuple[FloatArray, FloatArray]:
        """(cumulative I/O, cumulative capacity) at the class boundaries of depth k, from (0, 0) to (1, 1)."""
        io = np.concatenate([[0.0], self.cum_io[k, : k + 1]])
        cap = np.concatenate([[0.0], self.cum_cap[k, : k + 1]])
        io[-1] = cap[-1] = 1.0
        return io, cap


def _at_depth(values: FloatArray, k: float) -> float:
    """Linear interpolation of per-integer-depth ``values`` at fractional depth ``k``."""
    k0 = min(math.floor(k), values.size - 1)
    if k0 + 1 >= values.size:
        return float(values[k0])
    theta = k - k0
    return float((1.0 - theta) * values[k0] + theta * values[k0 + 1])


def _depth_where(needed: FloatArray, target: float) -> float:
    """Fractional depth where the interpolated needed share falls to ``target`` (last depth if never)."""
    below = np.nonzero(needed <= target)[0]
    if below.size == 0:
        return float(needed.size - 1)
    d = int(below[0])
    if d == 0:
        return 0.0
    hi, lo = float(needed[d - 1]), float(needed[d])
    return (d - 1) + (hi - target) / (hi - lo) if hi > lo else float(d)


def _io_share_curve(table: _Table, depth: float, x: FloatArray) -> FloatArray:
    """I/O carried by the hottest capacity shares ``x`` at (fractional) ``depth``.

    At an integer depth, capacity needed for I/O share y is piecewise linear through the class
    boundaries (chunks of one class are interchangeable); between depths that capacity is
    interpolated linearly in depth, like the needed fraction, and the curve is its inverse. So
    a tier holding :func:`needed_fast_fraction` of the data serves at least ``io_capture``.
    """
    k0 = min(math.floor(depth), table.max_depth)
    theta = depth - k0
    io0, cap0 = table.breakpoints(k0)
    if theta == 0.0 or k0 + 1 > table.max_depth:
        return np.asarray(np.interp(x, cap0, io0), dtype=np.float64)
    io1, cap1 = table.breakpoints(k0 + 1)
    ys = np.sort(np.concatenate([io0, io1]))
    caps = (1.0 - theta) * np.interp(ys, io0, cap0) + theta * np.interp(ys, io1, cap1)
    return np.asarray(np.interp(x, caps, ys), dtype=np.float64)


def _floored(needed_by_depth: FloatArray, k: float, floor_fraction: float) -> float:
    return min(1.0, max(_at_depth(needed_by_depth, k), floor_fraction))


def needed_fast_fraction(
    capacity_gb: float,
    chunk_mb: float,
    io_capture: float = DEFAULT_IO_CAPTURE,
    b: float = DEFAULT_B,
    floor_fraction: float = DEFAULT_FLOOR_FRACTION,
    extent_gb: float = DEFAULT_EXTENT_GB,
    measured_fraction: float | None = None,
) -> float:
    """Smallest share of capacity whose chunks carry ``io_capture`` of the I/O [0..1].

    b-model at depth ``k = log2(min(capacity, extent) / chunk)`` (:func:`chunk_depth`): take
    whole chunks hottest first (weight ``b^j (1-b)^(k-j)``, ``C(k, j)`` of each) until their
    I/O reaches ``io_capture``; the share is chunks / 2^k (1 when k = 0: one chunk holds it all).
    Between integer depths the share is interpolated linearly in k. Then
    ``max(share, floor_fraction)``: hot data is not infinitely concentrated, so no chunk needs
    less than the block-level hot fraction. Never falls as the chunk grows (splitting every chunk
    in two can only help). ``measured_fraction`` (from a trace, for this chunk size and
    io_capture) replaces the model when given.

    ``capacity_gb`` used capacity [GB], ``chunk_mb`` relocation unit [MiB], ``b`` in [0.5, 1)
    (0.5 = no locality), ``extent_gb`` [GB]. Defaults fitted so that 7.5 MB -> 3.9% and
    1 GB -> 12.9% (guidance: 3-5% and 10-15%); see ``fixtures/calibration/tiering.yaml``.
    """
    _check_model(b, io_capture, floor_fraction, extent_gb)
    k = chunk_depth(capacity_gb, chunk_mb, extent_gb)
    measured = _check_measured(measured_fraction)
    if measured is not None:
        return measured
    return _floored(_Table(math.floor(k) + 1, b).needed(io_capture), k, floor_fraction)


class TierShare(Output):
    """One tier of a split: its capacity, the data placed on it and the I/O it serves."""

    tier: int = Field(description="0 = fastest")
    capacity_gb: float = Field(description="capacity available for data [GB]")
    data_gb: float = Field(description="data placed on the tier, hottest chunks first [GB]")
    io_share: float = Field(description="share of all I/O served by the tier, 0..1")


class TierSplit(Output):
    """I/O per tier when the hottest chunks fill the fastest tier, then the next."""

    chunk_mb: float
    depth: float = Field(description="b-model depth used (after the floor or a measured override)")
    needed_fast_fraction: float = Field(description="capacity share the fast tier needs for io_capture")
    io_capture: float
    tiers: list[TierShare]
    spill: list[str] = Field(default_factory=list, description="undersized tiers, in words")
    source: str


def tier_split(
    tier_capacities_gb: list[float],
    capacity_used_gb: float,
    chunk_mb: float,
    b: float = DEFAULT_B,
    io_capture: float = DEFAULT_IO_CAPTURE,
    floor_fraction: float = DEFAULT_FLOOR_FRACTION,
    extent_gb: float = DEFAULT_EXTENT_GB,
    measured_fraction: float | None = None,
    free_reserve_pct: float = 0.0,
) -> TierSplit:
    """Share of the I/O served by each tier, fastest first; the shares sum to 1.

    The hottest chunks fill tier 0 (up to its capacity less ``free_reserve_pct``; VNX2 keeps
    10% free per tier), then tier 1, and so on. With ``G(x)`` the I/O carried by the hottest
    share x of the data (b-model, see :func:`needed_fast_fraction`)::

        x_i = (data on tiers 0..i) / capacity_used        io_i = G(x_i) - G(x_{i-1})

    The b-model depth is capped where the needed fraction meets ``floor_fraction`` (so G agrees
    with the floored :func:`needed_fast_fraction`), or set so that the needed fraction equals
    ``measured_fraction`` when a trace-derived one is given. A fast tier smaller than the needed
    fraction spills I/O to the next tier and ``spill`` says so. Raises InputError if the tiers
    cannot hold ``capacity_used_gb``. Capacities [GB], chunk [MiB].
    """
    if not tier_capacities_gb:
        raise InputError("tier_capacities_gb", "give at least one tier")
    caps = [_finite(f"tier_capacities_gb[{i}]", c) for i, c in enumerate(tier_capacities_gb)]
    for i, c in enumerate(caps):
        if c < 0:
            raise InputError(f"tier_capacities_gb[{i}]", f"must be >= 0, got {c:g}")
    used = _positive("capacity_used_gb", capacity_used_gb)
    _check_model(b, io_capture, floor_fraction, extent_gb)
    reserve = _finite("free_reserve_pct", free_reserve_pct)
    if not 0.0 <= reserve < 100.0:
        raise InputError("free_reserve_pct", f"must be in [0, 100), got {reserve:g}")
    usable = [c * (1.0 - reserve / 100.0) for c in caps]
    if sum(usable) < used * (1.0 - 1e-9):
        raise InputError(
            "tier_capacities_gb",
            f"tiers hold {sum(usable):,.0f} GB for data (after a {reserve:g}% free reserve), "
            f"less than the {used:,.0f} GB used",
        )
    measured = _check_measured(measured_fraction)
    k = chunk_depth(used, chunk_mb, extent_gb)
    if measured is not None:
        table = _Table(_MAX_DEPTH, b)
        needed = measured
        depth = _depth_where(table.needed(io_capture), measured)
        source = f"measured needed fraction {measured:g} (trace), b-model shape with b = {b:g}"
    else:
        table = _Table(math.floor(k) + 1, b)
        by_depth = table.needed(io_capture)
        needed = _floored(by_depth, k, floor_fraction)
        # the floor caps the depth where the needed fraction meets it (never beyond k)
        depth = min(k, _depth_where(by_depth, floor_fraction))
        source = _SOURCE
    placed, cum, left = [], [], used
    for u in usable:
        take = min(u, left)
        placed.append(take)
        left -= take
        cum.append((used - left) / used)
    g = _io_share_curve(table, depth, np.array(cum)).tolist()
    g[-1] = 1.0
    shares, prev_g = [], 0.0
    for gi in g:  # non-decreasing by construction; clamp guards round-off
        gi = min(1.0, max(prev_g, gi))
        shares.append(gi - prev_g)
        prev_g = gi
    tiers = [
        TierShare(tier=i, capacity_gb=caps[i], data_gb=placed[i], io_share=shares[i])
        for i in range(len(caps))
    ]
    spill: list[str] = []
    if len(caps) > 1 and placed[0] < needed * used * (1.0 - 1e-9):
        lost = max(0.0, io_capture - float(shares[0]))
        spill.append(
            f"tier 0 holds {placed[0]:,.0f} GB ({placed[0] / used:.1%} of {used:,.0f} GB used); the hottest "
            f"{chunk_mb:g} MiB chunks need {needed * used:,.0f} GB ({needed:.1%}) to serve {io_capture:.0%} of "
            f"the I/O, so {lost:.1%} of the I/O spills to tier 1"
        )
    return TierSplit(
        chunk_mb=float(chunk_mb),
        depth=float(depth),
        needed_fast_fraction=needed,
        io_capture=float(io_capture),
        tiers=tiers,
        spill=spill,
        source=source,
    )


# ---- locality from the workload's skew ---------------------------------------------------------

BLOCK_KIB = 4.0
"""Block the skew describes [KiB]: the finest unit a hot set can be counted in."""


def hot_fraction(skew: Skew, capacity_gb: float, io_capture: float = DEFAULT_IO_CAPTURE) -> float:
    """Share of the blocks that carries ``io_capture`` of the I/O, hottest first, from the skew [0..1].

    Uniform: ``io_capture``. "x% of I/O to y% of data": linear within each of the two classes.
    Zipf alpha over N = capacity / 4 KiB blocks: the rank r whose partial sum of ``i^-alpha``
    reaches ``io_capture`` of the total, with the sums taken as ``1 + integral_1^r x^-alpha dx``.
    """
    cap = _positive("capacity_gb", capacity_gb)
    y = _finite("io_capture", io_capture)
    if skew.io_pct is not None and skew.data_pct is not None:
        p, d = skew.io_pct / 100.0, skew.data_pct / 100.0
        return d * y / p if y <= p else d + (1.0 - d) * (y - p) / (1.0 - p)
    alpha = skew.zipf_alpha or 0.0
    if alpha == 0.0:
        return y
    n = max(2.0, cap * GB / (BLOCK_KIB * 1024.0))

    def partial(r: float) -> float:
        if abs(alpha - 1.0) < 1e-12:
            return 1.0 + math.log(r)
        return 1.0 + (r ** (1.0 - alpha) - 1.0) / (1.0 - alpha)

    total = partial(n)
    lo, hi = 0.0, math.log(n)  # bisection on ln r: the partial sum rises with r
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if partial(math.exp(mid)) < y * total:
            lo = mid
        else:
            hi = mid
    return min(1.0, math.exp(hi) / n)


def b_for_skew(
    skew: Skew,
    capacity_gb: float,
    io_capture: float = DEFAULT_IO_CAPTURE,
    extent_gb: float = DEFAULT_EXTENT_GB,
) -> tuple[float, float]:
    """(b, block-level hot fraction): the b-model bias whose block-level concentration is the skew's.

    At block depth ``k = log2(min(capacity, extent) / 4 KiB)`` the b-model's needed fraction for
    ``io_capture`` falls as b rises (0.5: none, a uniform workload); b is the root of
    ``needed(b) = hot_fraction(skew)`` (bisection). The same b then spreads the hot blocks over
    larger chunks, so a skew concentrated at block level loses concentration with chunk size,
    and a uniform workload needs fast capacity in proportion to the I/O it serves.
    """
    target = hot_fraction(skew, capacity_gb, io_capture)
    depth = chunk_depth(capacity_gb, BLOCK_KIB / 1024.0, extent_gb)
    k = math.floor(depth) + 1

    def needed(b: float) -> float:
        return _at_depth(_Table(k, b).needed(io_capture), depth)

    if needed(0.5) <= target:
        return 0.5, target
    lo, hi = 0.5, 0.999
    if needed(hi) > target:
        return hi, target
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if needed(mid) > target:
            lo = mid
        else:
            hi = mid
    return hi, target


# ---- overheads ---------------------------------------------------------------------------------


def metadata_ram_bytes(capacity_gb: float, chunk_mb: float, bytes_per_chunk: float = 64.0) -> float:
    """Controller RAM for per-chunk heat statistics and maps [bytes].

    ``ceil(capacity * 10^9 / (chunk * 2^20)) * bytes_per_chunk``: falls as the chunk grows,
    the reason vendors chose large chunks. ``bytes_per_chunk`` (default 64, an assumption; no
    vendor publishes it) covers the map entry and the access counters. Capacity [GB], chunk [MiB].
    """
    cap = _finite("capacity_gb", capacity_gb)
    if cap < 0:
        raise InputError("capacity_gb", f"must be >= 0, got {cap:g}")
    chunk = _positive("chunk_mb", chunk_mb)
    per = _finite("bytes_per_chunk", bytes_per_chunk)
    if per < 0:
        raise InputError("bytes_per_chunk", f"must be >= 0, got {per:g}")
    return math.ceil(cap * GB / (chunk * MIB) - 1e-9) * per


def migration_mb_per_s(chunks_moved_per_window: float, chunk_mb: float, window_h: float) -> float:
    """Mean relocation rate [MB/s, decimal]: ``chunks * chunk * 2^20 / 10^6 / (window_h * 3600)``.

    Each moved chunk is read from its source tier and written to its destination, so the
    back-end load is this rate read on one tier plus the same rate written on the other (plus
    the destination's RAID write cost). Spread over ``window_h`` hours (the relocation window, or
    the interval between runs when moves are continuous).
    """
    n = _finite("chunks_moved_per_window", chunks_moved_per_window)
    if n < 0:
        raise InputError("chunks_moved_per_window", f"must be >= 0, got {n:g}")
    chunk = _positive("chunk_mb", chunk_mb)
    hours = _positive("window_h", window_h)
    return n * chunk * MIB / MB / (hours * 3600.0)


def fit_b(
    targets: list[tuple[float, float]],
    capacity_gb: float = DEFAULT_EXTENT_GB,
    io_capture: float = DEFAULT_IO_CAPTURE,
    extent_gb: float = DEFAULT_EXTENT_GB,
) -> float:
    """Fit the b-model bias to ``[(chunk_mb, needed fraction), ...]`` (least squares in log).

    Minimises ``sum (ln f(chunk; b) - ln target)^2`` over b in (0.55, 0.95), without the floor
    (the floor is a separate, assumed parameter). Used for ``fixtures/calibration/tiering.yaml``.
    """
    if not targets:
        raise InputError("targets", "give at least one (chunk_mb, fraction) pair")
    for chunk, frac in targets:
        _positive("targets.chunk_mb", chunk)
        if not 0.0 < frac <= 1.0:
            raise InputError("targets.fraction", f"must be in (0, 1], got {frac:g}")

    def loss(b: float) -> float:
        return sum(
            (math.log(needed_fast_fraction(capacity_gb, c, io_capture, b, 0.0, extent_gb)) - math.log(f)) ** 2
            for c, f in targets
        )

    res = minimize_scalar(loss, bounds=(0.55, 0.95), method="bounded", options={"xatol": 1e-5})
    return float(res.x)


def tier_plan(
    cfg: Configuration, used_gb: float, usable_gb: dict[str, float], skews: list[Skew] | None = None
) -> TieringResult:
    """Tier split of the autotiered pool set: hottest chunks on the fastest tier, then the next.

    The b-model's bias comes from the tiering configuration when it states one, else from the
    tiered workloads' skew (:func:`b_for_skew`, the least concentrated of them: conservative), with
    the block-level hot fraction as the floor; a measured fraction (a trace) overrides both.
    """
    tc = cfg.tiering
    assert tc is not None
    caps = [usable_gb[t] for t in tc.tiers]
    used = min(used_gb, sum(caps)) if sum(caps) > 0 else used_gb
    floor = DEFAULT_FLOOR_FRACTION
    if tc.locality_b is not None:
        b = tc.locality_b
    elif skews:
        fitted = [b_for_skew(sk, max(used, 1e-9)) for sk in skews]
        b, floor = min(fitted)
    else:
        b = DEFAULT_B
    split = tier_split(
        caps, used, tc.chunk_mb, b=b, floor_fraction=floor, measured_fraction=tc.fast_tier_fraction
    )
    need = split.needed_fast_fraction
    meta = metadata_ram_bytes(sum(caps), tc.chunk_mb, tc.metadata_bytes_per_chunk) / 1e9
    fast_data = split.tiers[0].data_gb
    moved_gb = fast_data * tc.hot_set_change_pct / 100.0
    mig = moved_gb * 1000.0 / (tc.relocation_window_h * 3600.0)
    tiers = [
        TierLoad(pool=name, capacity_gb=t.capacity_gb, data_gb=t.data_gb, io_share_pct=100.0 * t.io_share)
        for name, t in zip(tc.tiers, split.tiers, strict=True)
    ]
    share_text = ", ".join(f"{t.pool} {fmt(t.io_share_pct)}% of I/O on {fmt(t.data_gb)} GB" for t in tiers)
    return TieringResult(
        chunk_mb=tc.chunk_mb,
        needed_fast_fraction_pct=explained(
            100.0 * need,
            "%",
            "needed = smallest share of capacity whose chunks carry 80% of I/O (b-model)",
            f"needed fast tier = {fmt(100 * need)}% of {fmt(used)} GB with {fmt(tc.chunk_mb)} MB chunks"
            + (
                " (measured from a trace)"
                if tc.fast_tier_fraction is not None
                else f" (b = {fmt(b)}"
                + (", from the workloads' skew" if tc.locality_b is None and skews else "")
                + f"; block-level hot set {fmt(100 * floor)}%)"
            )
            + f"; split: {share_text}",
            source=split.source,
            chunk_mb=tc.chunk_mb,
            b=b,
            used_gb=used,
        ),
        tiers=tiers,
        metadata_ram_gb=explained(
            meta,
            "GB",
            "RAM = capacity / chunk x bytes per chunk",
            f"RAM = {fmt(sum(caps))} GB / {fmt(tc.chunk_mb)} MB x {fmt(tc.metadata_bytes_per_chunk)} B = {fmt(meta)} GB",
        ),
        migration_mb_s=explained(
            mig,
            "MB/s",
            "migration = fast-tier data x change share / relocation window",
            f"migration = {fmt(fast_data)} GB x {fmt(tc.hot_set_change_pct)}% / {fmt(tc.relocation_window_h)} h "
            f"= {fmt(mig)} MB/s (read from the slower tier, written to the faster)",
        ),
        spill=split.spill,
    )


def migration_streams(cfg: Configuration, tiering: TieringResult | None) -> dict[str, tuple[float, float]]:
    """Background relocation I/O per pool [KiB/s] (read, write): up from tier 1 into tier 0."""
    if tiering is None or cfg.tiering is None:
        return {}
    kib = (tiering.migration_mb_s.value or 0.0) * 1e6 / 1024.0
    fast, slow = cfg.tiering.tiers[0], cfg.tiering.tiers[1]
    return {fast: (0.0, kib), slow: (kib, 0.0)}
