"""Latency percentiles (p95, p99) from the queueing model: a mixture of the paths an I/O takes.

Every I/O of a phase takes one path: a sequential read or a DRAM hit, a flash-cache hit, a read
miss at a pool's drives, or a write acknowledged from NVRAM. Approximation, stated:

* the front end (host and fabric, controller CPU, port) and the cache and acknowledgement times
  are their means (their spread is small beside a drive's);
* a read miss adds the drive's sojourn ``S + W``: the access's service S (mean S_r, squared
  coefficient of variation c^2, independent of the wait) and the M/G/1 wait W of the pool, whose
  first two moments come from Takacs' recursion (:func:`models.queueing.mg1_wait_moments`);
* ``S + W`` is fitted by a gamma distribution with the same mean and variance (two-moment fit),
  shifted by the path's constant part.

The phase's latency is the mixture of its paths weighted by their shares of I/O; a percentile
is where the mixture's distribution function reaches p (:func:`mixture_quantile`). A window
mixes its phases by their I/O rates.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from scipy.optimize import brentq
from scipy.special import gammainc, gammaincinv

from models.base import InputError


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


def _own_quantile(p: Path, q: float) -> float:
    return p.const_ms if p.k <= 0 else p.const_ms + p.theta_ms * float(gammaincinv(p.k, q))


def _one_gamma_quantile(points: list[Path], g: Path, q: float) -> float:
    """Exact quantile of point masses plus one gamma path: between consecutive point positions the
    distribution is ``A + w_g G(t)``, inverted with the regularized incomplete gamma function."""
    acc, prev = 0.0, -math.inf
    for b in [*sorted(points, key=lambda p: p.const_ms), Path(0.0, math.inf)]:
        need = q - acc
        if need <= 0:
            return prev
        if need < g.weight:
            t = g.const_ms + g.theta_ms * float(gammaincinv(g.k, need / g.weight))
            if t <= prev:
                return prev
            if t < b.const_ms:
                return t
        acc += b.weight
        prev = b.const_ms
    return prev


def mixture_quantile(paths: list[Path], q: float, bracket: tuple[float, float] | None = None) -> float:
    """The ``q``-quantile [ms] of a mixture of paths: the least t with ``sum_i w_i F_i(t) >= q``.

    Weights are normalized. With at most one gamma path the answer is exact (interval by interval
    between the point masses); otherwise it lies between the least and the largest of the paths'
    own q-quantiles (every ``F_i`` is at most q at the first and at least q at the second), where a
    root search finds it to 1e-7 (at a point mass's position when the distribution jumps there).
    ``bracket`` gives tighter bounds known to the caller (e.g. the quantiles of groups of paths).
    """
    if not 0.0 < q < 1.0:
        raise InputError("q", "a quantile lies strictly between 0 and 1")
    live = [p for p in paths if p.weight > 0]
    if not live:
        raise InputError("paths", "no path carries any I/O")
    total = sum(p.weight for p in live)
    live = [p._replace(weight=p.weight / total) for p in live]
    gammas = [p for p in live if p.k > 0]
    points = [p for p in live if p.k <= 0]
    if not gammas:
        return _one_gamma_quantile(points, Path(0.0, 0.0, 1.0, 1.0), q)
    if len(gammas) == 1:
        return _one_gamma_quantile(points, gammas[0], q)
    if bracket is None:
        own = [_own_quantile(p, q) for p in live]
        lo, hi = min(own), max(own)
    else:
        lo, hi = bracket
    if hi - lo <= 1e-12 * max(hi, 1e-12):
        return hi
    pos = np.asarray(sorted(p.const_ms for p in points))
    acc = np.cumsum([p.weight for p in sorted(points, key=lambda p: p.const_ms)]) if points else np.zeros(0)
    w = np.asarray([p.weight for p in gammas])
    c = np.asarray([p.const_ms for p in gammas])
    k = np.asarray([p.k for p in gammas])
    th = np.asarray([p.theta_ms for p in gammas])

    def cdf(t: float) -> float:
        i = int(np.searchsorted(pos, t, side="right"))
        mass = float(acc[i - 1]) if i > 0 else 0.0
        return mass + float(np.dot(w, gammainc(k, np.maximum(t - c, 0.0) / th)))

    if cdf(lo) >= q:
        return lo
    return float(brentq(lambda t: cdf(t) - q, lo, hi, xtol=1e-7 * hi, rtol=1e-7))


def quantile_or_none(paths: list[Path], q: float, bracket: tuple[float, float] | None = None) -> float | None:
    """:func:`mixture_quantile`, ``None`` when a path is unbounded (a saturated resource) or none
    carries I/O."""
    live = [p for p in paths if p.weight > 0]
    if not live or any(not (math.isfinite(p.const_ms) and math.isfinite(p.theta_ms)) for p in live):
        return None
    return mixture_quantile(live, q, bracket)
