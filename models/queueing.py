"""Queueing models: open (utilization -> response time) and closed (Mean Value Analysis).

Open model, used for sizing: each resource is a single-server queue fed by Poisson arrivals.

* M/M/1:  R = S / (1 - U)
* M/G/1 (Pollaczek-Khinchine [kleinrock-1975]):  R = S + U S (1 + c^2) / (2 (1 - U)), with c^2 the squared
  coefficient of variation of the service time (1 for exponential, ~0.3-0.6 for disk service)

Closed model, used for queue-depth sweeps (N outstanding I/Os, the shape Iometer and fio
report): exact single-class Mean Value Analysis (Reiser & Lavenberg 1980 [reiser-lavenberg-1980];
Lazowska et al., "Quantitative System Performance", 1984, ch. 6 [lazowska-1984]):

    R_k(n) = D_k (1 + Q_k(n-1))      queueing station
    R_k(n) = D_k                     delay station
    X(n)   = n / sum_k m_k R_k(n)    (m_k identical replicas of station k)
    Q_k(n) = X(n) R_k(n)

Extensions, both standard: (a) an open background class (e.g. write destage) that uses U_bg of a
station inflates the closed demand to D / (1 - U_bg) (Lazowska ch. 7, mixed networks); as U_bg
depends on throughput, it is solved by fixed-point iteration at each population; where the
background class alone would saturate a station, throughput stops at that station's capacity
and the jobs beyond wait for it (writes acknowledged from NVRAM wait for destage once it is
full), so the response time is ``N / X`` by Little's law; (b) a load-dependent service demand
(disk command queuing) evaluated at the queue an arrival sees.
A station of c parallel servers is approximated after Seidmann et al. (1987) [seidmann-1987]: a queueing station
with demand D/c in series with a delay of D (c - 1)/c.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from scipy.optimize import brentq

from models.base import InputError


def mm1_response_ms(service_ms: float, utilization: float) -> float | None:
    """M/M/1 response time ``S / (1 - U)`` [ms]; None when ``U >= 1`` (unbounded)."""
    if service_ms < 0:
        raise InputError("service_ms", "must be >= 0")
    if utilization < 0:
        raise InputError("utilization", "must be >= 0")
    if utilization >= 1.0:
        return None
    return service_ms / (1.0 - utilization)


def mg1_wait_ms(mean_service_ms: float, utilization: float, scv: float = 1.0) -> float | None:
    """Pollaczek-Khinchine mean wait in queue ``U S (1 + c^2) / (2 (1 - U))`` [ms]; None if U >= 1."""
    if mean_service_ms < 0:
        raise InputError("mean_service_ms", "must be >= 0")
    if scv < 0:
        raise InputError("scv", "must be >= 0")
    if utilization < 0:
        raise InputError("utilization", "must be >= 0")
    if utilization >= 1.0:
        return None
    return utilization * mean_service_ms * (1.0 + scv) / (2.0 * (1.0 - utilization))


def mg1_wait_moments(mean_service_ms: float, utilization: float, scv: float = 1.0) -> tuple[float, float]:
    """First two moments of the M/G/1 wait in queue, ``(E[W] [ms], E[W^2] [ms^2])``; inf when U >= 1.

    Takacs' recursion [kleinrock-1975] with gamma-distributed service (mean S, squared
    coefficient of variation c^2: ``E[S^2] = S^2 (1 + c^2)``, ``E[S^3] = S^3 (1 + c^2)(1 + 2 c^2)``)::

        E[W]   = U S (1 + c^2) / (2 (1 - U))                       (Pollaczek-Khinchine)
        E[W^2] = 2 E[W]^2 + U S^2 (1 + c^2)(1 + 2 c^2) / (3 (1 - U))

    (M/M/1, c^2 = 1: ``E[W^2] = 2 U S^2 / (1 - U)^2``.)
    """
    if mean_service_ms < 0 or scv < 0 or utilization < 0:
        raise InputError("mean_service_ms", "service, utilization and scv must be >= 0")
    if utilization >= 1.0:
        return math.inf, math.inf
    s, u = mean_service_ms, utilization
    w1 = u * s * (1.0 + scv) / (2.0 * (1.0 - u))
    w2 = 2.0 * w1 * w1 + u * s * s * (1.0 + scv) * (1.0 + 2.0 * scv) / (3.0 * (1.0 - u))
    return w1, w2


def mg1_response_ms(service_ms: float, utilization: float, scv: float = 1.0) -> float | None:
    """M/G/1 response time ``S + U S (1 + c^2) / (2 (1 - U))`` [ms]; equals M/M/1 at c^2 = 1."""
    w = mg1_wait_ms(service_ms, utilization, scv)
    return None if w is None else service_ms + w


@dataclass(frozen=True)
class Station:
    """One resource of a closed network.

    ``demand_ms``: service demand per job visit-weighted [ms]. ``replicas``: identical copies
    the load spreads over evenly (e.g. 18 data drives; give the per-replica demand). ``delay``:
    an infinite-server station (no queueing: host think time, cache hits). ``background_ms``:
    per-job demand of an open background class at each replica (e.g. write destage), whose
    utilization ``X * background_ms / 1000`` inflates the closed demand. ``demand_at_queue``:
    optional load-dependent demand as a function of the mean queue at the replica.
    """

    name: str
    demand_ms: float
    replicas: int = 1
    delay: bool = False
    background_ms: float = 0.0
    demand_at_queue: Callable[[float], float] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class MvaPoint:
    population: int
    throughput_per_s: float
    response_ms: float
    utilization: dict[str, float]
    queue: dict[str, float]


def _throughput(
    base: list[float], reps: list[float], bg: list[float], target: float, hi: float, tol: float
) -> float:
    """Solve ``x * sum_k m_k b_k / (1 - x g_k) = target`` for x in (0, hi].

    With one background level (the usual case: identical drives) it is a quadratic,
    ``-S0 g x^2 + (S0 + Sb + T g) x - T = 0``, solved in closed form; otherwise a bracketed
    root search.
    """
    levels = {g for g in bg if g > 0}
    if not levels:
        return hi
    if len(levels) == 1:
        g = levels.pop()
        s0 = sum(b * m for b, m, gk in zip(base, reps, bg, strict=True) if gk == 0)
        sb = sum(b * m for b, m, gk in zip(base, reps, bg, strict=True) if gk > 0)
        a, bq, c = s0 * g, -(s0 + sb + target * g), target
        if a == 0:
            return min(hi, -c / bq)
        disc = max(bq * bq - 4 * a * c, 0.0)
        # numerically stable smaller root
        return min(hi, (2 * c) / (-bq + math.sqrt(disc)))

    def excess(xv: float) -> float:
        return xv * sum(b * m / (1.0 - xv * g) for b, m, g in zip(base, reps, bg, strict=True)) - target

    if excess(hi) <= 0:
        return hi
    return float(brentq(excess, 0.0, hi, xtol=tol * max(hi, 1.0)))


def mva(
    stations: Sequence[Station], max_population: int, *, tol: float = 1e-10, report: set[int] | None = None
) -> list[MvaPoint]:
    """Exact single-class MVA for populations 1..N with the two extensions in the module doc.

    Returns one :class:`MvaPoint` per population (only those in ``report`` when given). Utilization counts both classes (closed work
    plus open background). Throughput in jobs per second, response in ms.
    """
    if max_population < 1:
        raise InputError("max_population", "must be >= 1")
    if not stations:
        raise InputError("stations", "at least one station is needed")
    for s in stations:
        if s.demand_ms < 0 or s.background_ms < 0:
            raise InputError(f"stations.{s.name}", "demands must be >= 0")
        if s.replicas < 1:
            raise InputError(f"stations.{s.name}.replicas", "must be >= 1")
    k = len(stations)
    q = [0.0] * k
    points: list[MvaPoint] = []
    bg = [0.0 if s.delay else s.background_ms / 1000.0 for s in stations]
    reps = [float(s.replicas) for s in stations]
    # throughput at which some station's background class alone would saturate it
    x_cap = min((1.0 / b for b in bg if b > 0), default=math.inf)
    for n in range(1, max_population + 1):
        d = [
            s.demand_at_queue(q[i] + 1.0) if s.demand_at_queue is not None else s.demand_ms
            for i, s in enumerate(stations)
        ]
        base = [d[i] if s.delay else d[i] * (1.0 + q[i]) for i, s in enumerate(stations)]
        total0 = sum(b * m for b, m in zip(base, reps, strict=True))
        if total0 <= 0:
            raise InputError("stations", "all demands are zero: throughput is unbounded")
        target = n * 1000.0
        hi = target / total0
        if x_cap < math.inf:
            hi = min(hi, x_cap * (1.0 - 1e-12))
        x = _throughput(base, reps, bg, target, hi, tol)
        r = [b / (1.0 - x * g) for b, g in zip(base, bg, strict=True)]
        q = [x * ri / 1000.0 for ri in r]
        if report is not None and n not in report:
            continue
        total_ms = sum(ri * m for ri, m in zip(r, reps, strict=True))
        if x * total_ms < target * (1.0 - 1e-9):
            # throughput held at a station the background class saturates (write destage): the
            # jobs beyond wait for it (writes for NVRAM space), R = N / X (Little's law)
            total_ms = target / x
        util = {
            s.name: 0.0 if s.delay else x * (d[i] + s.background_ms) / 1000.0 for i, s in enumerate(stations)
        }
        points.append(
            MvaPoint(
                population=n,
                throughput_per_s=x,
                response_ms=total_ms,
                utilization=util,
                queue={s.name: q[i] for i, s in enumerate(stations)},
            )
        )
    return points


def multi_server(name: str, demand_ms: float, servers: int) -> list[Station]:
    """Seidmann's approximation of a c-server station: queue D/c plus delay D (c-1)/c."""
    if servers < 1:
        raise InputError("servers", "must be >= 1")
    out = [Station(name=name, demand_ms=demand_ms / servers)]
    if servers > 1:
        out.append(
            Station(name=f"{name} (parallel)", demand_ms=demand_ms * (servers - 1) / servers, delay=True)
        )
    return out
