"""Latency percentiles (p95, p99) from the queueing model: a mixture of the paths an I/O takes.

Every I/O of a phase takes one path: a sequential read or a DRAM hit, a flash-cache hit, a read
miss at a pool's drives, or a write acknowledged from NVRAM. Approximation, stated:

* the front end (host and fabric, controller CPU, port) and the cache and acknowledgement times
  are their means (their spread is small beside a drive's);
* a read miss adds the drive's sojourn ``S + W``: the access's service S (mean S_r, squared
  coefficient of variation c^2, independent of the wait) and the M/G/1 wait W of the pool, whose
  first two moments come from Takacs' recursion (:func:`models.queueing.mg1_wait_moments`);
* ``S + W`` is fitted by a gamma distribution with the same mean and variance (two-moment fit),
  shifted by the path's constant part; where several miss paths meet (misses split over tiers, a
  window's phases) they are pooled into one gamma of the same mean and variance.

The phase's latency is the mixture of its paths weighted by their shares of I/O; a percentile
is where the mixture's distribution function reaches p (:func:`mixture_quantile`). A window
mixes its phases by their I/O rates.
"""

from __future__ import annotations

import math
import struct
from itertools import chain
from typing import NamedTuple

# scipy.special.cython_special.gammaincinv is the ufunc scipy.special.gammaincinv's own scalar
# kernel, called directly on two floats and answering a float: the same bits, at less than half
# the cost of a ufunc call on scalars (a window's percentiles invert the gamma a dozen times)
from scipy.special.cython_special import gammaincinv

from models.base import InputError
from models.kept import QUANTILES_KEPT, active


class Path(NamedTuple):
    """One path an I/O takes: its share of the I/Os, a constant time, and a gamma-distributed
    part (shape ``k``, scale ``theta`` [ms]; ``k = 0``: none)."""

    weight: float
    const_ms: float
    k: float = 0.0
    theta_ms: float = 0.0

    @property
    def mean_ms(self) -> float:
        return self.const_ms + self.k * self.theta_ms


def gamma_path(weight: float, const_ms: float, mean_ms: float, var_ms2: float) -> Path:
    """A path of ``const_ms`` plus a gamma part of mean ``mean_ms`` and variance ``var_ms2``
    (``k = m^2 / v``, ``theta = v / m``; a point mass at ``const + m`` when ``v = 0``)."""
    if mean_ms <= 0 or var_ms2 <= 0:
        return Path(weight, const_ms + max(mean_ms, 0.0))
    return Path(weight, const_ms, mean_ms * mean_ms / var_ms2, var_ms2 / mean_ms)


def sojourn_moments(
    service_ms: float, service_scv: float, wait_ms: float, wait_sq_ms2: float
) -> tuple[float, float]:
    """(mean [ms], variance [ms^2]) of ``S + W`` with S of mean ``service_ms`` and squared
    coefficient of variation ``service_scv``, W with moments ``wait_ms``, ``wait_sq_ms2``
    (independent)."""
    var = service_scv * service_ms * service_ms + max(0.0, wait_sq_ms2 - wait_ms * wait_ms)
    return service_ms + wait_ms, var


def pooled_gamma(gammas: list[Path]) -> Path:
    """Gamma paths pooled into one of the same weight, mean and variance, shifted to the earliest
    constant (several pools behind one phase, or a window's phases on one pool)."""
    w = sum(p.weight for p in gammas)
    c0 = min(p.const_ms for p in gammas)
    m1 = m2 = 0.0
    for p in gammas:
        mean = p.const_ms - c0 + p.k * p.theta_ms
        m1 += p.weight * mean
        m2 += p.weight * (p.k * p.theta_ms * p.theta_ms + mean * mean)
    m1, m2 = m1 / w, m2 / w
    return gamma_path(w, c0, m1, max(m2 - m1 * m1, 0.0))


def mixture_quantiles(paths: list[Path], qs: tuple[float, ...]) -> list[float]:
    """The ``q``-quantiles [ms] of a mixture of paths: for each q the least t with
    ``sum_i w_i F_i(t) >= q``.

    Weights are normalized. Point masses and one gamma path are inverted exactly, interval by
    interval between the point masses (between consecutive positions the distribution is
    ``A + w_g G(t)``, inverted with the regularized incomplete gamma function); several gamma paths
    are first pooled into one of the same mean and variance (:func:`pooled_gamma`).
    """
    for q in qs:  # loops and locals, not generators and attributes: a window asks four times
        if not 0.0 < q < 1.0:
            raise InputError("q", "a quantile lies strictly between 0 and 1")
    points: list[tuple[float, float]] = []  # (position, weight)
    gammas: list[Path] = []
    total = 0.0
    # weights relative to the largest: a mixture of vanishing weights (denormal shares) keeps its
    # proportions instead of losing them to rounding
    top = max([p[0] for p in paths], default=0.0)
    for weight, const_ms, k, theta_ms in paths:
        if weight <= 0:
            continue
        w = weight / top
        total += w
        if k > 0:
            gammas.append(Path(w, const_ms, k, theta_ms))
        else:
            points.append((const_ms, w))  # a point mass needs no Path
    if total <= 0:
        raise InputError("paths", "no path carries any I/O")
    g = None
    if gammas:
        g = gammas[0] if len(gammas) == 1 else pooled_gamma(gammas)
        if g.k <= 0:  # pooled into a point mass
            points.append((g.const_ms, g.weight))
            g = None
    points.sort()
    points.append((math.inf, 0.0))
    g_weight, g_const_ms, g_k, g_theta_ms = g if g is not None else (0.0, 0.0, 0.0, 0.0)
    out = []
    for q in qs:
        need_total = q * total  # work in unnormalized weights
        acc, prev, found = 0.0, -math.inf, None
        for pos, w in points:
            need = need_total - acc
            if need <= 0:
                found = prev
                break
            if g is not None and need < g_weight:
                t = g_const_ms + g_theta_ms * gammaincinv(g_k, need / g_weight)
                if t <= prev:
                    found = prev
                    break
                if t < pos:
                    found = t
                    break
            acc += w
            prev = pos
        out.append(prev if found is None else found)
    return out


def mixture_quantile(paths: list[Path], q: float) -> float:
    """The ``q``-quantile [ms] of a mixture of paths (:func:`mixture_quantiles`)."""
    return mixture_quantiles(paths, (q,))[0]


def quantiles_or_none(paths: list[Path], qs: tuple[float, ...]) -> list[float | None]:
    """:func:`mixture_quantiles`, ``None`` each when a path is unbounded (a saturated resource), none
    carries I/O, or the quantile is not finite.

    Remembered for the very same inputs (their exact bits: a sweep or a page evaluating the same
    workloads again meets them) in the memo in force (:attr:`models.kept.Kept.quantiles`, at most
    :data:`models.kept.QUANTILES_KEPT` of them)."""
    memo = active()
    if memo is None:
        return _quantiles_or_none(paths, qs)
    n = 4 * len(paths) + len(qs)  # a Path is 4 floats
    packer = _PACKERS.get(n)
    if packer is None:
        if len(_PACKERS) >= 256:  # bounded for a server fed any mixtures
            _PACKERS.clear()
        packer = _PACKERS[n] = struct.Struct(f"{n}d")
    key = packer.pack(*chain.from_iterable(paths), *qs)
    kept = memo.quantiles
    got = kept.get(key)
    if got is None:
        if len(kept) >= QUANTILES_KEPT:
            kept.clear()
        got = kept[key] = tuple(_quantiles_or_none(paths, qs))
    return list(got)


_PACKERS: dict[int, struct.Struct] = {}
"""The compiled ``struct`` format of each key length (a window's mixtures have a few lengths): a
compiled format, as ``re`` keeps its compiled patterns, not an answer."""


def _quantiles_or_none(paths: list[Path], qs: tuple[float, ...]) -> list[float | None]:
    live = [p for p in paths if p.weight > 0]
    if not live or any(not (math.isfinite(p.const_ms) and math.isfinite(p.theta_ms)) for p in live):
        return [None for _ in qs]
    return [t if math.isfinite(t) else None for t in mixture_quantiles(live, qs)]
