"""What-if analysis around :func:`models.evaluate.evaluate`: growth, sensitivity, capability, ranges.

Every function here re-runs the engine on changed inputs and reduces each evaluation to the
same few figures (:class:`Outcome`, per window :class:`WindowOutcome`):

* **busiest utilization**: the highest busy share of any component in a window (drives of each
  pool, controllers, ports, a degraded RAID group) [%];
* **headroom used**: ``100 x value / limit`` of the check nearest (or furthest past) its limit,
  counting every utilization check of every window including "controllers after failover";
  above 100 a headroom limit is broken. The check is the *binding* one;
* **read latency**: the IOPS-weighted read latency of a window, the worst window's for a whole
  evaluation [ms] (null = saturated, i.e. unbounded).

Functions (each pure, every parameter a documented argument):

* :func:`growth_projection`: month by month over the horizon, capacity, IOPS and working sets grow
  at ``growth_pct_per_year`` (compound, ``x (1 + g)^(m / 12)`` at month m); the first month each
  window breaks its latency target or a headroom limit, and when capacity runs out.
* :func:`sensitivity`: a tornado. Each input is moved down and up by a stated step
  (:class:`SensitivitySteps`) one at a time; bars are ranked by the swing of headroom used.
* :func:`max_workload`: the largest load scale each window's mix sustains within its latency
  targets and headroom limits (bisection on ``load_scale``), and what binds just above it.
* :func:`ranges`: uncertain inputs (skew, working set, layout aging, cache, tiering locality,
  scale-out efficiency) each over a plausible range (:class:`Uncertainty`); a low / expected /
  high band from the ends of the ranges or a seeded Monte Carlo, the capability band, and which
  uncertainty matters most (the same tornado at the ends of each range).
* :func:`degraded_modes`: normal, drive failed, rebuilding (hours and exposure to a further
  failure) and controller / node down, side by side.

Every evaluated figure is monotone in load in the engine (more IOPS, a bigger working set, less
cache never make a component less busy), which the bisections and the growth break rely on.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Self

import numpy as np
from pydantic import Field, model_validator
from scipy.optimize import brentq

from models import tiering as tiering_model
from models.base import Frozen, InputError, Output
from models.configuration import Configuration
from models.controller import HaMode
from models.evaluate import (
    Check,
    DegradedMode,
    EvaluationResult,
    WindowResult,
    evaluate,
    pool_drive_counts,
    write_fill,
)
from models.explain import Explained, explained, fmt
from models.parameters import EngineParameters
from models.raid import RaidScheme, full_stripe_share, tolerated_failures
from models.workload import Skew, Workload, windows_of

HOURS_PER_YEAR = 8766.0
"""Mean hours in a year (365.25 days)."""

DEFAULT_HORIZON_MONTHS = 36
"""Growth horizon when no workload states one [months]."""

FAILOVER_CHECK = "controllers after failover"
"""A what-if check (one controller carrying everything): a headroom limit, not a busy share."""

_FULL_STRIPE_SCHEMES = {RaidScheme.RAID_DP, RaidScheme.RAID_TEC, RaidScheme.ERASURE}
"""Schemes whose write cost depends on the full-stripe share (layout aging); RAID-Z always writes full stripes."""

MAX_SCALE = 1e6
"""Largest load scale :func:`max_workload` tries: a window still passing there never binds."""

MIN_SCALE = 1e-6
"""Below this load scale a window that still fails is reported as sustaining no load (scale 0)."""


# ---- reducing an evaluation ---------------------------------------------------------------------


class WindowOutcome(Output):
    """One window of an evaluation reduced to its headline figures."""

    window: str
    passed: bool
    busiest: str = Field(description="component with the highest busy share")
    max_utilization_pct: float | None = Field(
        description="busy share of the busiest component [%]; null = saturated"
    )
    binding: str = Field(description="check nearest (or furthest past) its limit")
    headroom_used_pct: float | None = Field(
        description="100 x value / limit of the binding check [%]; above 100 fails; null = saturated"
    )
    read_latency_ms: float | None = Field(description="IOPS-weighted read latency [ms]; null = saturated")


class Outcome(Output):
    """An evaluation reduced to what a what-if compares (see the module docstring)."""

    passed: bool
    binding: str = Field(description="'window: check' nearest (or furthest past) its limit")
    headroom_used_pct: float | None = Field(description="of the binding check [%]; null = saturated")
    binding_value: float | None = Field(
        description="the binding check's value (its unit below); null = saturated"
    )
    binding_unit: str = Field(description="% for a utilization, ms for a latency target")
    max_utilization_pct: float | None = Field(description="busiest component of any window [%]")
    read_latency_ms: float | None = Field(description="worst window's read latency [ms]; null = saturated")
    fill_pct: float | None = Field(description="capacity needed over usable [%]")
    windows: list[WindowOutcome]


def _ratio(c: Check) -> float:
    """``value / limit`` of a check; infinity when saturated (value None)."""
    if c.value is None:
        return math.inf
    if c.limit <= 0:
        return math.inf if c.value > 0 else 0.0
    return c.value / c.limit


def _finite_or_none(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _inf(x: float | None) -> float:
    """None (saturated) as infinity, for ordering."""
    return math.inf if x is None else x


def window_outcome(w: WindowResult) -> WindowOutcome:
    """Busiest component, binding check and read latency of one evaluated window."""
    util = [c for c in w.checks if c.unit == "%"]
    busy = [c for c in util if c.name != FAILOVER_CHECK] or util
    if busy:
        top = max(busy, key=lambda c: _inf(c.value))
        busiest, max_util = top.name, top.value
    else:
        busiest, max_util = "none", 0.0
    if w.checks:
        bind = max(w.checks, key=_ratio)
        binding, used = bind.name, _finite_or_none(100.0 * _ratio(bind))
    else:
        binding, used = "none", 0.0
    return WindowOutcome(
        window=w.window,
        passed=w.passed,
        busiest=busiest,
        max_utilization_pct=max_util,
        binding=binding,
        headroom_used_pct=used,
        read_latency_ms=w.read_latency_ms,
    )


def outcome(result: EvaluationResult) -> Outcome:
    """The headline of an evaluation: binding check over every window, busiest part, worst latency.

    Latency checks count for the binding check too (``latency / target``), so a window that
    misses its latency target with idle drives still binds on latency.
    """
    windows = [window_outcome(w) for w in result.windows]
    best: tuple[float, str, Check] | None = None
    for w in result.windows:
        for c in w.checks:
            r = _ratio(c)
            if best is None or r > best[0]:
                best = (r, w.window, c)
    used: float | None = 0.0
    value: float | None = None
    binding, unit = "none", "%"
    if best is not None:
        binding, used = f"{best[1]}: {best[2].name}", _finite_or_none(100.0 * best[0])
        value, unit = best[2].value, best[2].unit
    max_util = max((_inf(w.max_utilization_pct) for w in windows), default=0.0)
    lat = max((_inf(w.read_latency_ms) for w in windows), default=0.0)
    return Outcome(
        passed=result.passed,
        binding=binding,
        headroom_used_pct=used,
        binding_value=value,
        binding_unit=unit,
        max_utilization_pct=_finite_or_none(max_util),
        read_latency_ms=_finite_or_none(lat),
        fill_pct=result.capacity.fill_pct,
        windows=windows,
    )


# ---- changing inputs ----------------------------------------------------------------------------


def _window_only(workloads: list[Workload], window: str) -> list[Workload]:
    """The workloads with only their phases in ``window`` (workloads idle in it left out)."""
    return [
        w.model_copy(update={"phases": [ph for ph in w.phases if ph.window == window]})
        for w in workloads
        if any(ph.window == window for ph in w.phases)
    ]


def grow_workload(workload: Workload, factor: float, grow_working_set: bool = True) -> Workload:
    """``workload`` with capacity, IOPS (and MB/s) and working sets times ``factor``, horizon 0.

    The grown capacity is today's need, so the horizon is cleared (capacity is checked at the
    month projected, not compounded again). A working set given as a share of capacity grows
    with it whatever ``grow_working_set`` says.
    """
    ws = grow_working_set
    phases = [
        ph.model_copy(
            update={
                "iops": ph.iops * factor,
                "mb_per_s": ph.mb_per_s * factor if ph.mb_per_s else ph.mb_per_s,
                "working_set_gb": ph.working_set_gb * factor
                if ws and ph.working_set_gb
                else ph.working_set_gb,
            }
        )
        for ph in workload.phases
    ]
    return workload.model_copy(
        update={
            "capacity_tb": workload.capacity_tb * factor,
            "horizon_years": 0.0,
            "working_set_gb": workload.working_set_gb * factor
            if ws and workload.working_set_gb
            else workload.working_set_gb,
            "phases": phases,
        }
    )


def _with_read_pct(workloads: list[Workload], write_delta_points: float) -> list[Workload]:
    """Every phase's write share moved by ``write_delta_points`` (read share the other way), clamped to 0-100."""
    return [
        w.model_copy(
            update={
                "phases": [
                    ph.model_copy(update={"read_pct": min(100.0, max(0.0, ph.read_pct - write_delta_points))})
                    for ph in w.phases
                ]
            }
        )
        for w in workloads
    ]


def _with_working_set(workloads: list[Workload], factor: float) -> list[Workload]:
    """Working sets times ``factor``, never beyond the workload's capacity (hot data is data)."""
    out = []
    for w in workloads:
        cap_gb = w.capacity_tb * 1000.0
        phases = [
            ph.model_copy(update={"working_set_gb": min(cap_gb, ph.working_set_gb * factor)})
            if ph.working_set_gb is not None
            else ph
            for ph in w.phases
        ]
        update: dict[str, object] = {"phases": phases}
        if w.working_set_gb is not None:
            update["working_set_gb"] = min(cap_gb, w.working_set_gb * factor)
        elif w.working_set_pct is not None:
            update["working_set_pct"] = min(100.0, w.working_set_pct * factor)
        else:
            update["working_set_gb"] = min(cap_gb, cap_gb * factor)
        out.append(w.model_copy(update=update))
    return out


def _is_rule(skew: Skew) -> bool:
    return skew.io_pct is not None and skew.data_pct is not None


def _with_zipf(workloads: list[Workload], alpha_delta: float) -> tuple[list[Workload], bool]:
    """Zipf exponents moved by ``alpha_delta`` (uniform counts as alpha 0), clamped to 0-3.

    Skews given as a rule ("x% of I/O to y% of data") are left alone. Returns whether anything changed.
    """
    out, changed = [], False
    for w in workloads:
        if _is_rule(w.skew):
            out.append(w)
            continue
        alpha = w.skew.zipf_alpha or 0.0
        new = min(3.0, max(0.0, alpha + alpha_delta))
        changed = changed or new != alpha
        out.append(
            w.model_copy(update={"skew": w.skew.model_copy(update={"zipf_alpha": new if new > 0 else None})})
        )
    return out, changed


def _with_hot_data(workloads: list[Workload], factor: float) -> tuple[list[Workload], bool]:
    """Rule skews with the hot data share times ``factor`` (kept above 0, at most the I/O share)."""
    out, changed = [], False
    for w in workloads:
        s = w.skew
        if not _is_rule(s):
            out.append(w)
            continue
        assert s.io_pct is not None and s.data_pct is not None
        new = min(s.io_pct, max(0.01, s.data_pct * factor))
        changed = changed or new != s.data_pct
        out.append(w.model_copy(update={"skew": s.model_copy(update={"data_pct": new})}))
    return out, changed


def _cache_gb(cfg: Configuration) -> tuple[float, float]:
    """(DRAM of the serving controllers, flash cache) [GB]."""
    return cfg.controller.dram_cache_gb * cfg.controller.serving, cfg.cache.flash_cache_gb


def _with_cache(cfg: Configuration, factor: float) -> Configuration:
    """DRAM read cache and flash cache both times ``factor``."""
    return cfg.model_copy(
        update={
            "controller": cfg.controller.model_copy(
                update={"dram_cache_gb": cfg.controller.dram_cache_gb * factor}
            ),
            "cache": cfg.cache.model_copy(update={"flash_cache_gb": cfg.cache.flash_cache_gb * factor}),
        }
    )


def _with_total_cache(cfg: Configuration, total_gb: float) -> Configuration:
    """Cache levels rescaled to ``total_gb`` (DRAM of the serving controllers + flash), keeping their split."""
    dram, flash = _cache_gb(cfg)
    if dram + flash > 0:
        return _with_cache(cfg, total_gb / (dram + flash))
    return cfg.model_copy(
        update={
            "controller": cfg.controller.model_copy(
                update={"dram_cache_gb": total_gb / max(cfg.controller.serving, 1)}
            )
        }
    )


def _full_stripe(cfg: Configuration, delta: float) -> tuple[Configuration, bool]:
    """Full-stripe share of WAFL and erasure-coded pools moved by ``delta`` (layout aging), 0-1."""
    pools, changed = [], False
    for p in cfg.pools:
        if p.raid.scheme not in _FULL_STRIPE_SCHEMES:
            pools.append(p)
            continue
        base = full_stripe_share(p.raid, write_fill(p, cfg))
        new = min(1.0, max(0.0, base + delta))
        changed = changed or new != base
        pools.append(p.model_copy(update={"raid": p.raid.model_copy(update={"full_stripe_share": new})}))
    return cfg.model_copy(update={"pools": pools}), changed


def _locality(cfg: Configuration, delta: float) -> tuple[Configuration, bool]:
    """Tiering b-model bias moved by ``delta`` (kept in [0.51, 0.99]); no effect without modelled tiering."""
    tc = cfg.tiering
    if tc is None or tc.fast_tier_fraction is not None:
        return cfg, False
    base = tc.locality_b if tc.locality_b is not None else tiering_model.DEFAULT_B
    new = min(0.99, max(0.51, base + delta))
    return cfg.model_copy(update={"tiering": tc.model_copy(update={"locality_b": new})}), new != base


def scaled_out(cfg: Configuration) -> bool:
    """Whether the controllers are scale-out nodes sharing the load (efficiency applies)."""
    return cfg.controller.ha_mode == HaMode.SCALE_OUT and cfg.controller.count > 1


def _efficiency(cfg: Configuration, efficiency: float) -> tuple[Configuration, bool]:
    """Each scale-out node delivering ``efficiency`` of its standalone throughput.

    Cores, and the IOPS and MB/s ceilings per node, times the efficiency (cluster traffic,
    imperfect balance). Dual controllers and single systems are left alone.
    """
    if not scaled_out(cfg) or efficiency == 1.0:
        return cfg, False
    c = cfg.controller
    return (
        cfg.model_copy(
            update={
                "controller": c.model_copy(
                    update={
                        "cores": c.cores * efficiency,
                        "max_iops": c.max_iops * efficiency if c.max_iops else c.max_iops,
                        "max_mb_s": c.max_mb_s * efficiency if c.max_mb_s else c.max_mb_s,
                    }
                )
            }
        ),
        True,
    )


def _drive_groups(cfg: Configuration, pct: float, sign: int) -> tuple[Configuration, bool, str]:
    """Each pool's drive count moved by ``pct`` % in whole RAID groups (at least one group).

    Replicated pools move by single drives. A pool that cannot shrink (one group) is left alone.
    Controllers are unchanged (a scale-out cluster keeps its node count).
    """
    counts = pool_drive_counts(cfg)
    pools, changed, texts = [], False, []
    for p in cfg.pools:
        n = counts[p.name]
        unit = 1 if p.raid.scheme is RaidScheme.REPLICA else p.raid.group_width
        least = p.raid.copies if p.raid.scheme is RaidScheme.REPLICA else p.raid.group_width
        groups = n // unit
        step = max(1, round(groups * pct / 100.0))
        new = n + sign * step * unit
        if new < least:
            pools.append(p)
            texts.append(f"{p.name} {n} drives (cannot shrink)")
            continue
        changed = True
        pools.append(p.model_copy(update={"drive_count": new}))
        texts.append(f"{p.name} {n} -> {new} drives")
    return cfg.model_copy(update={"pools": pools}), changed, "; ".join(texts)


# ---- the engine call ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Run:
    """What one what-if evaluation needs (kept together so helpers pass one thing)."""

    params: EngineParameters | None
    degraded: DegradedMode

    def evaluate(self, workloads: list[Workload], cfg: Configuration, scale: float = 1.0) -> EvaluationResult:
        return evaluate(workloads, cfg, params=self.params, degraded=self.degraded, load_scale=scale)


# ---- growth -------------------------------------------------------------------------------------


class GrowthPoint(Output):
    """One month of a growth projection (chart-ready)."""

    month: int
    factors: dict[str, float] = Field(description="growth factor of each workload since month 0")
    capacity_needed_tb: float | None
    fill_pct: float | None = Field(description="capacity needed over usable [%]")
    windows: list[WindowOutcome]


class WindowBreak(Output):
    """When a window first breaks a limit as the workloads grow (null = not within the horizon)."""

    window: str
    break_month: int | None = Field(description="first month failing a latency target or a headroom limit")
    latency_break_month: int | None
    headroom_break_month: int | None
    binding: str | None = Field(description="what fails first")
    text: str


class GrowthProjection(Output):
    months: int
    step_months: int
    degraded: DegradedMode
    points: list[GrowthPoint]
    windows: list[WindowBreak]
    capacity_break_month: int | None = Field(
        description="first month the capacity needed exceeds the allowed fill"
    )
    first_break_month: int | None = Field(description="earliest break of any window or of capacity")
    first_break: str | None
    formula: str = Field(description="how each workload grows, with its rate")
    notes: list[str]
    text: str


def _horizon_months(workloads: list[Workload], months: int | None, notes: list[str]) -> int:
    if months is not None:
        if not 0 <= months <= 240:
            raise InputError("months", "must be between 0 and 240")
        return months
    years = max(w.horizon_years for w in workloads)
    if years <= 0:
        notes.append(f"no workload states a horizon: projected over {DEFAULT_HORIZON_MONTHS} months")
        return DEFAULT_HORIZON_MONTHS
    return math.ceil(years * 12 - 1e-9)


def growth_projection(
    workloads: list[Workload],
    configuration: Configuration,
    *,
    months: int | None = None,
    step_months: int = 1,
    grow_working_set: bool = True,
    params: EngineParameters | None = None,
    degraded: DegradedMode = DegradedMode.NONE,
) -> GrowthProjection:
    """Month-by-month projection as every workload grows at its ``growth_pct_per_year``.

    At month m workload i is scaled by ``f_i(m) = (1 + g_i / 100)^(m / 12)``: capacity, IOPS and
    MB/s, and (with ``grow_working_set``) its working set, since hot data grows with the data.
    ``months`` defaults to the longest horizon of the workloads (``horizon_years x 12``), or
    :data:`DEFAULT_HORIZON_MONTHS` when none states one; months are projected every
    ``step_months`` (and the last). A window breaks in the first projected month one of its checks
    fails: a read-latency target (latency break) or a utilization limit (headroom
    break); capacity breaks when the need exceeds the allowed fill. More growth never breaks
    later (the engine is monotone in load).
    """
    if not workloads:
        raise InputError("workloads", "at least one workload is needed")
    if not 1 <= step_months <= 120:
        raise InputError("step_months", "must be between 1 and 120")
    notes: list[str] = []
    horizon = _horizon_months(workloads, months, notes)
    run = _Run(params, degraded)
    month_list = list(range(0, horizon + 1, step_months))
    if month_list[-1] != horizon:
        month_list.append(horizon)
    points: list[GrowthPoint] = []
    state: dict[str, tuple[int, str, str]] = {}
    for m in month_list:
        factors = {w.name: (1.0 + w.growth_pct_per_year / 100.0) ** (m / 12.0) for w in workloads}
        grown = [grow_workload(w, factors[w.name], grow_working_set) for w in workloads]
        res = run.evaluate(grown, configuration)
        points.append(
            GrowthPoint(
                month=m,
                factors=factors,
                capacity_needed_tb=res.capacity.needed_tb.value,
                fill_pct=res.capacity.fill_pct,
                windows=[window_outcome(w) for w in res.windows],
            )
        )
        _record_breaks(state, m, res)
    capacity_break = state.get("capacity")
    window_breaks: list[WindowBreak] = []
    for name in windows_of(workloads):
        lat = state.get(f"{name}|latency")
        head = state.get(f"{name}|headroom")
        first = min((x for x in (lat, head) if x is not None), key=lambda x: x[0], default=None)
        if first is None:
            text = f"{name}: within its latency targets and headroom limits through month {horizon}."
        else:
            text = f"{name}: breaks in month {first[0]}: {first[1]}."
        window_breaks.append(
            WindowBreak(
                window=name,
                break_month=first[0] if first else None,
                latency_break_month=lat[0] if lat else None,
                headroom_break_month=head[0] if head else None,
                binding=first[2] if first else None,
                text=text,
            )
        )
    candidates = [
        (b.break_month, f"{b.window}: {b.binding}") for b in window_breaks if b.break_month is not None
    ]
    if capacity_break is not None:
        candidates.append((capacity_break[0], "capacity"))
    first_all = min(candidates, key=lambda x: x[0], default=None)
    if first_all is None:
        text = f"Meets every target and limit for all {horizon} months projected."
    else:
        text = f"First break in month {first_all[0]}: {first_all[1]}."
        if capacity_break is not None and capacity_break[0] != first_all[0]:
            text += f" Capacity runs out in month {capacity_break[0]}."
    rates = ", ".join(f"{w.name} {fmt(w.growth_pct_per_year)}%/year" for w in workloads)
    return GrowthProjection(
        months=horizon,
        step_months=step_months,
        degraded=degraded,
        points=points,
        windows=window_breaks,
        capacity_break_month=capacity_break[0] if capacity_break else None,
        first_break_month=first_all[0] if first_all else None,
        first_break=first_all[1] if first_all else None,
        formula=f"f(m) = (1 + g / 100)^(m / 12) per workload ({rates}); capacity, IOPS, MB/s"
        + (" and working sets" if grow_working_set else "")
        + " grow by f(m)",
        notes=notes,
        text=text,
    )


def _record_breaks(state: dict[str, tuple[int, str, str]], month: int, res: EvaluationResult) -> None:
    """First failing month per window and kind (latency / headroom), and of capacity: the worst
    failing check of that month (largest value over limit)."""
    for w in res.windows:
        for kind, unit_is_ms in (("latency", True), ("headroom", False)):
            key = f"{w.window}|{kind}"
            failing = [c for c in w.checks if not c.passed and (c.unit == "ms") == unit_is_ms]
            if key not in state and failing:
                worst = max(failing, key=_ratio)
                state[key] = (month, worst.text, worst.name)
    failing = [c for c in res.checks if not c.passed]
    if "capacity" not in state and failing:
        worst = max(failing, key=_ratio)
        state["capacity"] = (month, worst.text, worst.name)


# ---- tornado machinery --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Variant:
    """One changed input: its description, the changed inputs, and whether anything changed."""

    text: str
    workloads: list[Workload]
    configuration: Configuration
    scale: float = 1.0
    changed: bool = True


class TornadoBar(Output):
    """One input moved down and up (one at a time), and what that does to the result.

    Deltas are against the base; headroom deltas are percentage points of headroom used (the
    binding check's value over its limit). ``swing_pts`` is ``|high - low|`` of headroom used,
    null when one end saturates (ranked first).
    """

    input: str
    label: str
    low_setting: str
    high_setting: str
    applicable: bool
    low: Outcome
    high: Outcome
    headroom_low_delta_pts: float | None
    headroom_high_delta_pts: float | None
    latency_low_delta_ms: float | None
    latency_high_delta_ms: float | None
    swing_pts: float | None
    latency_swing_ms: float | None
    rank: int = 0


def _delta(x: float | None, base: float | None) -> float | None:
    if x is None or base is None:
        return None
    return x - base


def _swing(a: float | None, b: float | None) -> float | None:
    if a is None and b is None:
        return 0.0
    if a is None or b is None:
        return None
    return abs(b - a)


def _bar(
    name: str, label: str, base: Outcome, low: _Variant, high: _Variant, run: _Run
) -> tuple[TornadoBar, Outcome, Outcome]:
    def out(v: _Variant) -> Outcome:
        if not v.changed:
            return base
        return outcome(run.evaluate(v.workloads, v.configuration, v.scale))

    lo, hi = out(low), out(high)
    bar = TornadoBar(
        input=name,
        label=label,
        low_setting=low.text,
        high_setting=high.text,
        applicable=low.changed or high.changed,
        low=lo,
        high=hi,
        headroom_low_delta_pts=_delta(lo.headroom_used_pct, base.headroom_used_pct),
        headroom_high_delta_pts=_delta(hi.headroom_used_pct, base.headroom_used_pct),
        latency_low_delta_ms=_delta(lo.read_latency_ms, base.read_latency_ms),
        latency_high_delta_ms=_delta(hi.read_latency_ms, base.read_latency_ms),
        swing_pts=_swing(lo.headroom_used_pct, hi.headroom_used_pct),
        latency_swing_ms=_swing(lo.read_latency_ms, hi.read_latency_ms),
    )
    return bar, lo, hi


def _rank(bars: list[TornadoBar]) -> list[TornadoBar]:
    """Biggest headroom swing first (a saturating end counts as infinite), then latency swing."""
    ordered = sorted(
        bars, key=lambda b: (not b.applicable, -_inf(b.swing_pts), -_inf(b.latency_swing_ms), b.input)
    )
    return [b.model_copy(update={"rank": i + 1}) for i, b in enumerate(ordered)]


def _swing_text(b: TornadoBar) -> str:
    if b.swing_pts is None:
        return f"{b.label} saturates a component at one end"
    return f"{b.label} moves headroom used by {fmt(b.swing_pts)} points"


# ---- sensitivity --------------------------------------------------------------------------------


class SensitivitySteps(Frozen):
    """How far each input of a tornado is moved down and up."""

    iops_pct: float = Field(default=10.0, gt=0.0, le=90.0, description="front-end IOPS +/- [%]")
    write_pct_points: float = Field(
        default=10.0, gt=0.0, le=50.0, description="write share of every phase +/- [points]"
    )
    working_set_pct: float = Field(default=25.0, gt=0.0, le=90.0, description="working sets +/- [%]")
    skew_alpha: float = Field(default=0.1, gt=0.0, le=1.0, description="Zipf alpha +/- (uniform counts as 0)")
    hot_data_pct: float = Field(
        default=25.0,
        gt=0.0,
        le=90.0,
        description="hot data share of rule skews (x% of I/O to y% of data) -/+ [%]",
    )
    cache_pct: float = Field(default=25.0, gt=0.0, le=90.0, description="DRAM and flash cache +/- [%]")
    drive_count_pct: float = Field(
        default=10.0, gt=0.0, le=90.0, description="drives +/- [%], in whole RAID groups (at least one)"
    )
    full_stripe_share: float = Field(
        default=0.1,
        gt=0.0,
        le=0.5,
        description="full-stripe share of WAFL / erasure pools +/- (layout aging)",
    )
    hit_ratio_points: float = Field(
        default=5.0, gt=0.0, le=50.0, description="read hit ratio +/- [points], via the cache size giving it"
    )


class SensitivityResult(Output):
    base: Outcome
    steps: SensitivitySteps
    bars: list[TornadoBar] = Field(description="ranked: the input that moves the result most first")
    most_influential: str
    text: str


def _skew_variant(
    workloads: list[Workload], cfg: Configuration, alpha_d: float, hot_f: float, text: str
) -> _Variant:
    wl, c1 = _with_zipf(workloads, alpha_d)
    wl, c2 = _with_hot_data(wl, hot_f)
    return _Variant(text, wl, cfg, changed=c1 or c2)


def _random_reads(workloads: list[Workload], window: str) -> float:
    return sum(
        ph.effective_iops * ph.read_pct / 100 * ph.random_pct / 100
        for w in workloads
        for ph in w.phases
        if ph.window == window
    )


def window_hit_ratio(workloads: list[Workload], result: EvaluationResult, window: str) -> float:
    """Random-read-weighted read hit ratio (DRAM + flash) of ``window`` in ``result`` (0..1).

    ``H = sum_i R_i rnd_i (h_DRAM,i + h_flash,i) / sum_i R_i rnd_i`` over the window's phases.
    """
    rnd = {(w.name, ph.name): ph.random_pct / 100 for w in workloads for ph in w.phases}
    wr = next(x for x in result.windows if x.window == window)
    num = den = 0.0
    for ph in wr.phases:
        weight = ph.iops * ph.read_pct / 100 * rnd.get((ph.workload, ph.phase), 1.0)
        num += weight * ((ph.dram_hit_pct.value or 0.0) + (ph.flash_hit_pct.value or 0.0)) / 100
        den += weight
    return num / den if den > 0 else 0.0


def cache_for_hit_ratio(
    workloads: list[Workload],
    configuration: Configuration,
    window: str,
    hit_pct: float,
    *,
    params: EngineParameters | None = None,
    degraded: DegradedMode = DegradedMode.NONE,
) -> float:
    """Cache [GB, DRAM of the serving controllers + flash] giving ``window`` a read hit ratio of ``hit_pct``.

    The engine derives hit ratios from cache size, working set and skew, so a hit ratio is set
    through the cache size that gives it: Brent's method on :func:`window_hit_ratio`, which
    rises with the cache, between 0 and the window's total working set (DRAM and flash kept in
    proportion). A ratio beyond reach returns the nearest end.
    """
    if not 0.0 <= hit_pct <= 100.0:
        raise InputError("hit_pct", "must be between 0 and 100")
    only = _window_only(workloads, window)
    if not only:
        raise InputError("window", f"no phase runs in window {window!r}")
    run = _Run(params, degraded)
    top = max(sum(w.working_set_for(ph) for w in only for ph in w.phases), sum(_cache_gb(configuration)))
    target = hit_pct / 100.0

    def hit(total_gb: float) -> float:
        return window_hit_ratio(only, run.evaluate(only, _with_total_cache(configuration, total_gb)), window)

    if target <= hit(0.0):
        return 0.0
    if target >= hit(top):
        return top
    return float(brentq(lambda x: hit(x) - target, 0.0, top, xtol=1e-4 * top, rtol=1e-6))


def _hit_variants(
    workloads: list[Workload],
    cfg: Configuration,
    base_res: EvaluationResult,
    base: Outcome,
    points: float,
    run: _Run,
) -> tuple[_Variant, _Variant]:
    """The cache sizes that move the read hit ratio of the binding window by -/+ ``points``."""
    wins = windows_of(workloads)
    window = base.binding.split(": ", 1)[0] if ": " in base.binding else wins[0]
    if window not in wins or _random_reads(workloads, window) <= 0:
        window = max(wins, key=lambda w: _random_reads(workloads, w))
    if _random_reads(workloads, window) <= 0:
        same = _Variant("no random reads", workloads, cfg, changed=False)
        return same, same
    total0 = sum(_cache_gb(cfg))
    h0 = 100.0 * window_hit_ratio(workloads, base_res, window)
    out: list[_Variant] = []
    for sign in (-1, 1):
        target = min(100.0, max(0.0, h0 + sign * points))
        gb = cache_for_hit_ratio(workloads, cfg, window, target, params=run.params, degraded=run.degraded)
        if (sign < 0 and gb >= total0) or (sign > 0 and gb <= total0):
            out.append(_Variant(f"read hit ratio {fmt(h0)}% (cannot move)", workloads, cfg, changed=False))
            continue
        text = (
            f"read hit ratio {fmt(h0)}% -> {fmt(target)}% in {window} (cache {fmt(total0)} -> {fmt(gb)} GB)"
        )
        out.append(_Variant(text, workloads, _with_total_cache(cfg, gb)))
    return out[0], out[1]


def sensitivity(
    workloads: list[Workload],
    configuration: Configuration,
    *,
    steps: SensitivitySteps | None = None,
    params: EngineParameters | None = None,
    degraded: DegradedMode = DegradedMode.NONE,
) -> SensitivityResult:
    """Tornado: each input moved down and up by its step, one at a time, ranked by the swing.

    Inputs: front-end IOPS, write share, working set, access skew (Zipf alpha, or the hot data
    share of a rule skew), cache size, drive count (whole RAID groups), layout aging (the
    full-stripe share of WAFL / erasure-coded pools) and the read hit ratio (via the cache size
    that gives it). For each: headroom used (binding utilization over its limit) and worst read
    latency at both ends, their change from the base, and the rank by swing.
    """
    s = steps or SensitivitySteps()
    run = _Run(params, degraded)
    cfg = configuration
    base_res = run.evaluate(workloads, cfg)
    base = outcome(base_res)
    i, w, ws, c = s.iops_pct / 100, s.write_pct_points, s.working_set_pct / 100, s.cache_pct / 100
    d_lo, d_lo_ok, d_lo_text = _drive_groups(cfg, s.drive_count_pct, -1)
    d_hi, d_hi_ok, d_hi_text = _drive_groups(cfg, s.drive_count_pct, 1)
    f_lo, f_lo_ok = _full_stripe(cfg, -s.full_stripe_share)
    f_hi, f_hi_ok = _full_stripe(cfg, s.full_stripe_share)
    h = s.hot_data_pct / 100
    specs: list[tuple[str, str, _Variant, _Variant]] = [
        (
            "iops",
            f"front-end IOPS +/-{fmt(s.iops_pct)}%",
            _Variant(f"IOPS x {fmt(1 - i)}", workloads, cfg, 1 - i),
            _Variant(f"IOPS x {fmt(1 + i)}", workloads, cfg, 1 + i),
        ),
        (
            "write_pct",
            f"write share +/-{fmt(w)} points",
            _Variant(f"writes -{fmt(w)} points", _with_read_pct(workloads, -w), cfg),
            _Variant(f"writes +{fmt(w)} points", _with_read_pct(workloads, w), cfg),
        ),
        (
            "working_set",
            f"working set +/-{fmt(s.working_set_pct)}%",
            _Variant(f"working set x {fmt(1 - ws)}", _with_working_set(workloads, 1 - ws), cfg),
            _Variant(f"working set x {fmt(1 + ws)}", _with_working_set(workloads, 1 + ws), cfg),
        ),
        (
            "skew",
            f"access skew (Zipf alpha +/-{fmt(s.skew_alpha)}, hot data share -/+{fmt(s.hot_data_pct)}%)",
            _skew_variant(workloads, cfg, -s.skew_alpha, 1 + h, f"less skewed (alpha -{fmt(s.skew_alpha)})"),
            _skew_variant(workloads, cfg, s.skew_alpha, 1 - h, f"more skewed (alpha +{fmt(s.skew_alpha)})"),
        ),
        (
            "cache",
            f"cache size +/-{fmt(s.cache_pct)}%",
            _Variant(
                f"cache x {fmt(1 - c)}", workloads, _with_cache(cfg, 1 - c), changed=sum(_cache_gb(cfg)) > 0
            ),
            _Variant(
                f"cache x {fmt(1 + c)}", workloads, _with_cache(cfg, 1 + c), changed=sum(_cache_gb(cfg)) > 0
            ),
        ),
        (
            "drive_count",
            f"drive count +/-{fmt(s.drive_count_pct)}% (whole RAID groups)",
            _Variant(d_lo_text, workloads, d_lo, changed=d_lo_ok),
            _Variant(d_hi_text, workloads, d_hi, changed=d_hi_ok),
        ),
        (
            "layout_aging",
            f"full-stripe share +/-{fmt(s.full_stripe_share)} (layout aging)",
            _Variant(
                f"full-stripe share -{fmt(s.full_stripe_share)} (more aged)", workloads, f_lo, changed=f_lo_ok
            ),
            _Variant(
                f"full-stripe share +{fmt(s.full_stripe_share)} (fresher)", workloads, f_hi, changed=f_hi_ok
            ),
        ),
    ]
    hit_lo, hit_hi = _hit_variants(workloads, cfg, base_res, base, s.hit_ratio_points, run)
    specs.append(("hit_ratio", f"read hit ratio +/-{fmt(s.hit_ratio_points)} points", hit_lo, hit_hi))
    bars = _rank([_bar(name, label, base, lo, hi, run)[0] for name, label, lo, hi in specs])
    top = bars[0]
    text = (
        f"Base: {base.binding} at {fmt(base.headroom_used_pct)}% of its limit. "
        f"Most influential: {_swing_text(top)}"
        + (f"; then {_swing_text(bars[1])}." if len(bars) > 1 and bars[1].applicable else ".")
    )
    return SensitivityResult(base=base, steps=s, bars=bars, most_influential=top.input, text=text)


# ---- maximum workload ---------------------------------------------------------------------------


class WindowCapability(Output):
    """The largest load a window's mix sustains within its latency targets and headroom limits."""

    window: str
    base_iops: float
    max_scale: float | None = Field(description="largest load_scale that passes; null for an idle window")
    max_iops: float | None
    max_mb_s: float | None
    headroom_pct: float | None = Field(description="(max_scale - 1) x 100: load the window can still add [%]")
    binding: str = Field(description="check that fails just above max_scale")
    binding_text: str
    evaluations: int


class MaxWorkloadResult(Output):
    degraded: DegradedMode
    windows: list[WindowCapability]
    max_scale: float | None = Field(description="smallest max_scale over the windows: the system's")
    binding_window: str | None
    tolerance: float
    text: str


def _window_passes(res: EvaluationResult, window: str) -> tuple[bool, WindowResult]:
    w = next(x for x in res.windows if x.window == window)
    return w.passed, w


def _failing(w: WindowResult) -> Check:
    bad = [c for c in w.checks if not c.passed] or list(w.checks)
    return max(bad, key=_ratio)


def window_capability(
    workloads: list[Workload],
    configuration: Configuration,
    window: str,
    *,
    params: EngineParameters | None = None,
    degraded: DegradedMode = DegradedMode.NONE,
    tolerance: float = 1e-4,
) -> WindowCapability:
    """Bisection on ``load_scale`` for one window (its phases only; capacity is not a load limit).

    Safeguarded secant search: the binding check's ``value / limit`` is smooth and nearly linear
    in load, so the scale where it reaches 1 is estimated by a secant through the two probes
    nearest 1 and probed just below and above; when that does not halve the bracket, one doubling (no failure found
    yet) or bisection step follows. It stops when ``hi - lo <= tolerance x hi``: ``lo`` passes and
    ``lo x (1 + tolerance)`` fails (pass / fail is monotone in load).
    """
    if not 0 < tolerance <= 0.01:
        raise InputError("tolerance", "must be in (0, 0.01]")
    run = _Run(params, degraded)
    only = _window_only(workloads, window)
    if not only:
        raise InputError("window", f"no phase runs in window {window!r}")
    base_iops = sum(ph.effective_iops for w in only for ph in w.phases)
    base_mb = sum(ph.effective_mb_s for w in only for ph in w.phases)
    n = 0

    def check(scale: float) -> tuple[bool, WindowResult]:
        nonlocal n
        n += 1
        return _window_passes(run.evaluate(only, configuration, scale), window)

    if base_iops <= 0:
        return WindowCapability(
            window=window,
            base_iops=0.0,
            max_scale=None,
            max_iops=None,
            max_mb_s=None,
            headroom_pct=None,
            binding="none",
            binding_text=f"{window} has no load to scale",
            evaluations=0,
        )
    # largest scale known to pass and smallest known to fail; every (scale, binding ratio) seen
    lo, hi = 0.0, math.inf
    seen: list[tuple[float, float]] = []
    fail_w: WindowResult | None = None

    def probe(scale: float) -> None:
        nonlocal lo, hi, fail_w
        ok, wr = check(scale)
        r = max((_ratio(c) for c in wr.checks), default=0.0)
        if math.isfinite(r):
            seen.append((scale, r))
        if ok:
            lo = max(lo, scale)
        elif scale < hi:
            hi, fail_w = scale, wr

    def estimate() -> float | None:
        """Where the binding ratio reaches 1: secant through the two probes nearest it (or the origin)."""
        near = sorted(seen, key=lambda p: abs(p[1] - 1.0))[:2]
        if len(near) == 1:
            (s1, r1) = near[0]
            return s1 / r1 if r1 > 0 else None
        if not near:
            return None
        (s1, r1), (s2, r2) = near
        if s1 == s2 or r1 == r2:
            return None
        slope = (r2 - r1) / (s2 - s1)
        return s1 + (1.0 - r1) / slope if slope > 0 else None

    def tight() -> bool:
        return not math.isinf(hi) and (hi - lo <= tolerance * hi or (lo == 0.0 and hi < MIN_SCALE))

    probe(1.0)
    while not tight():
        width = hi - lo
        x = estimate()
        if x is not None and lo < x < hi and MIN_SCALE < x < MAX_SCALE:
            for s in (x * (1.0 - tolerance / 2), x * (1.0 + tolerance / 2)):
                if lo < s < hi:
                    probe(s)
            if tight() or hi - lo <= 0.5 * width:
                continue
        if math.isinf(hi):
            step = max(2.0 * lo, 1.0)
            if step > MAX_SCALE:
                return WindowCapability(
                    window=window,
                    base_iops=base_iops,
                    max_scale=lo,
                    max_iops=base_iops * lo,
                    max_mb_s=base_mb * lo,
                    headroom_pct=100.0 * (lo - 1.0),
                    binding="none",
                    binding_text=f"{window} still passes at {fmt(lo)} x its load: nothing binds",
                    evaluations=n,
                )
            probe(step)
        else:
            probe(0.5 * (lo + hi))
    assert fail_w is not None
    bind = _failing(fail_w)
    return WindowCapability(
        window=window,
        base_iops=base_iops,
        max_scale=lo,
        max_iops=base_iops * lo,
        max_mb_s=base_mb * lo,
        headroom_pct=100.0 * (lo - 1.0),
        binding=bind.name,
        binding_text=f"at {fmt(hi)} x the load: {bind.text}",
        evaluations=n,
    )


def max_workload(
    workloads: list[Workload],
    configuration: Configuration,
    *,
    params: EngineParameters | None = None,
    degraded: DegradedMode = DegradedMode.NONE,
    tolerance: float = 1e-4,
) -> MaxWorkloadResult:
    """The highest IOPS scale each window's mix sustains, and what binds (see :func:`window_capability`).

    The system's maximum is the smallest over the windows. The phases of a window keep their mix
    (IOPS of each scaled together); working sets and capacity stay as they are.
    """
    if not workloads:
        raise InputError("workloads", "at least one workload is needed")
    caps = [
        window_capability(
            workloads, configuration, win, params=params, degraded=degraded, tolerance=tolerance
        )
        for win in windows_of(workloads)
    ]
    loaded = [c for c in caps if c.max_scale is not None]
    worst = min(loaded, key=lambda c: c.max_scale or 0.0, default=None)
    if worst is None:
        text = "No window has load to scale."
    else:
        text = (
            f"The configuration sustains {fmt(worst.max_scale)} x today's load "
            f"({fmt(worst.max_iops)} IOPS in {worst.window}); above it {worst.binding_text}."
        )
    return MaxWorkloadResult(
        degraded=degraded,
        windows=caps,
        max_scale=worst.max_scale if worst else None,
        binding_window=worst.window if worst else None,
        tolerance=tolerance,
        text=text,
    )


# ---- ranges, not points -------------------------------------------------------------------------


class Range(Frozen):
    """A plausible range of an uncertain input: its low end, the expected value and its high end."""

    low: float
    expected: float
    high: float

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if not self.low <= self.expected <= self.high:
            raise ValueError("need low <= expected <= high")
        return self


class Uncertainty(Frozen):
    """Plausible ranges of the inputs nobody measures well (deltas and factors on the given values).

    Defaults: Zipf alpha +/-0.2; rule skews' hot data share x0.5..x2; working set x0.5..x2;
    full-stripe share -0.15..+0.10 (the calibrated aged and fresh WAFL layouts around the
    moderate one: 0.656 / 0.802 / 0.906); effective cache x0.75..x1.25 (metadata and dirty data
    take cache; the hit rate follows); tiering b-model bias +/-0.08; scale-out nodes deliver
    80-100% of their standalone throughput. Each applies only where it means something (a
    uniform workload has alpha 0; layout aging only WAFL / erasure pools; b only modelled tiering;
    efficiency only scale-out clusters).
    """

    skew_alpha_delta: Range = Field(
        default=Range(low=-0.2, expected=0.0, high=0.2), description="added to each Zipf alpha (uniform = 0)"
    )
    hot_data_factor: Range = Field(
        default=Range(low=0.5, expected=1.0, high=2.0),
        description="multiplies the hot data share of rule skews (x% of I/O to y% of data)",
    )
    working_set_factor: Range = Field(
        default=Range(low=0.5, expected=1.0, high=2.0), description="multiplies every working set"
    )
    full_stripe_share_delta: Range = Field(
        default=Range(low=-0.15, expected=0.0, high=0.1),
        description="added to the full-stripe share of WAFL / erasure pools (layout aging)",
    )
    cache_factor: Range = Field(
        default=Range(low=0.75, expected=1.0, high=1.25),
        description="multiplies DRAM and flash cache (hit rate via cache size)",
    )
    locality_b_delta: Range = Field(
        default=Range(low=-0.08, expected=0.0, high=0.08), description="added to the tiering b-model bias"
    )
    scaling_efficiency: Range = Field(
        default=Range(low=0.8, expected=1.0, high=1.0),
        description="share of standalone throughput each scale-out node delivers",
    )

    @model_validator(mode="after")
    def _check(self) -> Self:
        for name in ("hot_data_factor", "working_set_factor", "cache_factor"):
            if getattr(self, name).low <= 0:
                raise ValueError(f"{name}: a factor range must stay above 0")
        e = self.scaling_efficiency
        if e.low <= 0 or e.high > 1:
            raise ValueError("scaling_efficiency: must lie in (0, 1]")
        return self


UNCERTAIN_INPUTS: dict[str, str] = {
    "skew_alpha_delta": "access skew (Zipf alpha)",
    "hot_data_factor": "access skew (hot data share)",
    "working_set_factor": "working set",
    "full_stripe_share_delta": "layout aging (full-stripe share)",
    "cache_factor": "effective cache (hit rate)",
    "locality_b_delta": "tiering locality (b-model bias)",
    "scaling_efficiency": "scale-out efficiency",
}
"""Uncertain inputs in a fixed order (the Monte Carlo draws them in this order)."""


def _apply_uncertain(
    workloads: list[Workload], cfg: Configuration, values: dict[str, float]
) -> tuple[list[Workload], Configuration, bool]:
    """Workloads and configuration with every uncertain input at ``values``; whether anything changed."""
    changed = False
    wl, c = _with_zipf(workloads, values["skew_alpha_delta"])
    changed |= c
    wl, c = _with_hot_data(wl, values["hot_data_factor"])
    changed |= c
    if values["working_set_factor"] != 1.0:
        wl, changed = _with_working_set(wl, values["working_set_factor"]), True
    out, c = (
        _full_stripe(cfg, values["full_stripe_share_delta"])
        if values["full_stripe_share_delta"]
        else (cfg, False)
    )
    changed |= c
    if values["cache_factor"] != 1.0 and sum(_cache_gb(out)) > 0:
        out, changed = _with_cache(out, values["cache_factor"]), True
    if values["locality_b_delta"]:
        out, c = _locality(out, values["locality_b_delta"])
        changed |= c
    out, c = _efficiency(out, values["scaling_efficiency"])
    changed |= c
    return wl, out, changed


def _setting_text(name: str, x: float) -> str:
    if name.endswith("_delta"):
        return f"{UNCERTAIN_INPUTS[name]} {'+' if x >= 0 else ''}{fmt(x)}"
    if name == "scaling_efficiency":
        return f"{UNCERTAIN_INPUTS[name]} {fmt(100 * x)}%"
    return f"{UNCERTAIN_INPUTS[name]} x {fmt(x)}"


class BandMethod(StrEnum):
    ENDS = "ends"
    MONTE_CARLO = "monte-carlo"


class Band(Output):
    """A figure as a band: ``low <= high`` numerically; null = unbounded (saturated)."""

    low: float | None
    expected: float | None
    high: float | None
    unit: str


class WindowBand(Output):
    window: str
    headroom_used_pct: Band
    max_utilization_pct: Band
    read_latency_ms: Band


class RangesResult(Output):
    method: BandMethod
    samples: int = Field(description="evaluations in the band (3 for the ends of the ranges)")
    seed: int | None
    coverage_pct: float = Field(description="Monte Carlo: share of samples between low and high [%]")
    uncertainty: Uncertainty
    expected: Outcome
    pessimistic: Outcome = Field(description="every input at the end that uses more headroom")
    optimistic: Outcome = Field(description="every input at the end that uses less headroom")
    headroom_used_pct: Band
    max_utilization_pct: Band
    read_latency_ms: Band
    windows: list[WindowBand]
    capability_scale: Band | None = Field(
        description="max_workload scale at the pessimistic, expected and optimistic ends (null if not asked)"
    )
    pass_probability: float | None = Field(description="Monte Carlo: share of samples meeting everything")
    ranking: list[TornadoBar] = Field(description="each uncertainty at the ends of its range, ranked")
    most_influential: str
    text: str


def _band(
    values: Sequence[float | None], expected: float | None, unit: str, q: tuple[float, float] | None
) -> Band:
    arr = np.array([_inf(v) for v in values], dtype=float)
    if q is None:
        lo, hi = float(np.min(arr)), float(np.max(arr))
    else:
        # order statistics, no interpolation: conservative, and saturated (infinite) samples stay infinite
        lo = float(np.quantile(arr, q[0], method="lower"))
        hi = float(np.quantile(arr, q[1], method="higher"))
    return Band(low=_finite_or_none(lo), expected=expected, high=_finite_or_none(hi), unit=unit)


def _bands(
    outcomes: list[Outcome], expected: Outcome, q: tuple[float, float] | None
) -> tuple[Band, Band, Band, list[WindowBand]]:
    head = _band([o.headroom_used_pct for o in outcomes], expected.headroom_used_pct, "%", q)
    util = _band([o.max_utilization_pct for o in outcomes], expected.max_utilization_pct, "%", q)
    lat = _band([o.read_latency_ms for o in outcomes], expected.read_latency_ms, "ms", q)
    windows = []
    for i, ew in enumerate(expected.windows):
        ws = [o.windows[i] for o in outcomes]
        windows.append(
            WindowBand(
                window=ew.window,
                headroom_used_pct=_band([w.headroom_used_pct for w in ws], ew.headroom_used_pct, "%", q),
                max_utilization_pct=_band(
                    [w.max_utilization_pct for w in ws], ew.max_utilization_pct, "%", q
                ),
                read_latency_ms=_band([w.read_latency_ms for w in ws], ew.read_latency_ms, "ms", q),
            )
        )
    return head, util, lat, windows


def _system_scale(workloads: list[Workload], cfg: Configuration, run: _Run, tolerance: float) -> float | None:
    return max_workload(
        workloads, cfg, params=run.params, degraded=run.degraded, tolerance=tolerance
    ).max_scale


def ranges(
    workloads: list[Workload],
    configuration: Configuration,
    *,
    uncertainty: Uncertainty | None = None,
    method: BandMethod = BandMethod.ENDS,
    samples: int = 64,
    seed: int = 0,
    coverage_pct: float = 90.0,
    capability: bool = True,
    params: EngineParameters | None = None,
    degraded: DegradedMode = DegradedMode.NONE,
) -> RangesResult:
    """Low / expected / high bands of an evaluation over the plausible ranges of uncertain inputs.

    1. Expected: every input at its expected value.
    2. Ranking: each input alone at the low and at the high end of its range (a tornado).
    3. Pessimistic / optimistic: every input at the end that uses more / less headroom.
    4. Band: ``ends``: min and max over expected, pessimistic and optimistic. ``monte-carlo``:
       ``samples`` draws (numpy ``default_rng(seed)``, a triangular distribution per input over
       (low, expected, high), inputs drawn in :data:`UNCERTAIN_INPUTS` order), the band the
       central ``coverage_pct`` of them (order statistics, no interpolation), and the share that passes.
    5. Capability (``capability``): :func:`max_workload` at the pessimistic, expected and
       optimistic settings (skew alone can move it several-fold).
    """
    if not workloads:
        raise InputError("workloads", "at least one workload is needed")
    if not 1 <= samples <= 1024:
        raise InputError("samples", "must be between 1 and 1024")
    if not 0 < coverage_pct <= 100:
        raise InputError("coverage_pct", "must be in (0, 100]")
    u = uncertainty or Uncertainty()
    run = _Run(params, degraded)
    rng_spec: dict[str, Range] = {name: getattr(u, name) for name in UNCERTAIN_INPUTS}
    expected_values = {k: r.expected for k, r in rng_spec.items()}
    wl_e, cfg_e, _ = _apply_uncertain(workloads, configuration, expected_values)
    expected = outcome(run.evaluate(wl_e, cfg_e))

    bars: list[TornadoBar] = []
    pess_values, opt_values = dict(expected_values), dict(expected_values)
    for name, r in rng_spec.items():
        ends = []
        for x in (r.low, r.high):
            wl, cfg, changed = _apply_uncertain(workloads, configuration, {**expected_values, name: x})
            changed = changed and x != r.expected
            ends.append(_Variant(_setting_text(name, x), wl, cfg, changed=changed))
        bar, lo, hi = _bar(name, UNCERTAIN_INPUTS[name], expected, ends[0], ends[1], run)
        bars.append(bar)
        if _inf(hi.headroom_used_pct) >= _inf(lo.headroom_used_pct):
            pess_values[name], opt_values[name] = r.high, r.low
        else:
            pess_values[name], opt_values[name] = r.low, r.high
        if not bar.applicable:
            pess_values[name] = opt_values[name] = r.expected
    ranking = _rank(bars)

    wl_p, cfg_p, _ = _apply_uncertain(workloads, configuration, pess_values)
    wl_o, cfg_o, _ = _apply_uncertain(workloads, configuration, opt_values)
    pess = outcome(run.evaluate(wl_p, cfg_p))
    opt = outcome(run.evaluate(wl_o, cfg_o))

    pass_prob: float | None = None
    if method is BandMethod.ENDS:
        pool = [opt, expected, pess]
        q = None
        n = 3
    else:
        rng = np.random.default_rng(seed)
        draws: dict[str, np.ndarray] = {}
        for name, r in rng_spec.items():
            if r.high > r.low:
                draws[name] = rng.triangular(r.low, r.expected, r.high, size=samples)
            else:
                draws[name] = np.full(samples, r.expected)
        pool = []
        for k in range(samples):
            values = {name: float(draws[name][k]) for name in rng_spec}
            wl, cfg, _ = _apply_uncertain(workloads, configuration, values)
            pool.append(outcome(run.evaluate(wl, cfg)))
        tail = (1.0 - coverage_pct / 100.0) / 2.0
        q = (tail, 1.0 - tail)
        n = samples
        pass_prob = sum(o.passed for o in pool) / samples
    head, util, lat, wbands = _bands(pool, expected, q)

    cap_band: Band | None = None
    if capability:
        tol = 1e-3
        scales = [_system_scale(w, c, run, tol) for w, c in ((wl_p, cfg_p), (wl_e, cfg_e), (wl_o, cfg_o))]
        finite = [s for s in scales if s is not None]
        cap_band = Band(
            low=min(finite) if finite else None,
            expected=scales[1],
            high=max(finite) if finite else None,
            unit="x load",
        )
    top = ranking[0]
    text = (
        f"Headroom used {fmt(head.low)}-{fmt(head.high)}% (expected {fmt(head.expected)}%), "
        f"read latency {fmt(lat.low)}-{fmt(lat.high)} ms (expected {fmt(lat.expected)} ms)"
    )
    if cap_band is not None:
        text += f"; sustains {fmt(cap_band.low)}-{fmt(cap_band.high)} x today's load"
    text += f". The uncertainty that matters most: {_swing_text(top)}."
    return RangesResult(
        method=method,
        samples=n,
        seed=seed if method is BandMethod.MONTE_CARLO else None,
        coverage_pct=coverage_pct if method is BandMethod.MONTE_CARLO else 100.0,
        uncertainty=u,
        expected=expected,
        pessimistic=pess,
        optimistic=opt,
        headroom_used_pct=head,
        max_utilization_pct=util,
        read_latency_ms=lat,
        windows=wbands,
        capability_scale=cap_band,
        pass_probability=pass_prob,
        ranking=ranking,
        most_influential=top.input,
        text=text,
    )


# ---- degraded modes side by side ----------------------------------------------------------------


class RebuildExposure(Output):
    """One pool during a rebuild: how long, and the risk of losing data meanwhile."""

    pool: str
    rebuild_hours: Explained
    failures_tolerated_during_rebuild: int
    further_failure_pct: Explained = Field(description="another drive at risk fails during the rebuild [%]")
    unreadable_sector_pct: Explained | None = Field(
        description="an unrecoverable read error while reading the survivors, when no redundancy is left [%]"
    )
    text: str


class ModeResult(Output):
    mode: DegradedMode
    available: bool
    note: str | None
    outcome: Outcome | None
    result: EvaluationResult | None
    rebuild: list[RebuildExposure]


class DegradedComparison(Output):
    modes: list[ModeResult] = Field(description="normal, drive failed, rebuilding, controller / node down")
    worst_mode: DegradedMode
    text: str


def rebuild_exposure(
    result: EvaluationResult,
    configuration: Configuration,
    *,
    afr_pct: float = 2.0,
    ure_per_bit: float = 1e-15,
) -> list[RebuildExposure]:
    """Exposure of each rebuilding pool, from a ``rebuilding`` evaluation (the slowest window's rebuild).

    ``k`` drives share the failed drive's data (the rest of its group; a mirror's partner; for
    replication every other drive), each failing at ``AFR`` per year::

        P(further failure) = 1 - exp(-k x AFR x hours / 8,766)
        P(unreadable sector) = 1 - exp(-k x C x 8e9 bits x URE)   (only when no redundancy is left)
    """
    if not 0 < afr_pct <= 100:
        raise InputError("afr_pct", "must be in (0, 100]")
    if not 0 < ure_per_bit < 1e-6:
        raise InputError("ure_per_bit", "must be in (0, 1e-6)")
    counts = pool_drive_counts(configuration)
    out = []
    for pool in configuration.pools:
        loads = [p for w in result.windows for p in w.pools if p.pool == pool.name and p.rebuild_hours]
        if not loads:
            continue
        worst = max(loads, key=lambda p: _inf(p.rebuild_hours.value if p.rebuild_hours else None))
        assert worst.rebuild_hours is not None
        hours = worst.rebuild_hours.value
        layout = pool.raid
        s = layout.scheme
        if s is RaidScheme.REPLICA:
            k = counts[pool.name] - 1
        elif s in (RaidScheme.RAID1, RaidScheme.RAID10):
            k = 1
        else:
            k = layout.group_width - 1
        left = max(0, tolerated_failures(layout) - 1)
        afr = afr_pct / 100.0
        p_fail = None if hours is None else 1.0 - math.exp(-k * afr * hours / HOURS_PER_YEAR)
        fail = explained(
            None if p_fail is None else 100.0 * p_fail,
            "%",
            "P = 1 - exp(-k x AFR x hours / 8766)",
            f"P = 1 - exp(-{k} x {fmt(afr_pct)}% x {fmt(hours)} h / 8,766 h) = "
            f"{fmt(None if p_fail is None else 100 * p_fail)}%",
            drives_at_risk=k,
            afr_pct=afr_pct,
            hours=hours,
        )
        ure: Explained | None = None
        if left == 0:
            bits = k * pool.drive.capacity_gb * 8e9
            p_ure = 1.0 - math.exp(-bits * ure_per_bit)
            ure = explained(
                100.0 * p_ure,
                "%",
                "P = 1 - exp(-k x C x 8e9 x URE)",
                f"P = 1 - exp(-{k} x {fmt(pool.drive.capacity_gb)} GB x 8e9 bits x {ure_per_bit:g}) = {fmt(100 * p_ure)}%",
                drives_read=k,
                ure_per_bit=ure_per_bit,
            )
        consequence = "loses data" if left == 0 else f"leaves {left} more failure(s) tolerated"
        text = (
            f"{pool.name}: rebuild {fmt(hours)} h; a further failure among {k} drive(s) ({fmt(fail.value)}%) {consequence}"
            + (f"; an unreadable sector during the rebuild: {fmt(ure.value)}%" if ure is not None else "")
            + "."
        )
        out.append(
            RebuildExposure(
                pool=pool.name,
                rebuild_hours=worst.rebuild_hours,
                failures_tolerated_during_rebuild=left,
                further_failure_pct=fail,
                unreadable_sector_pct=ure,
                text=text,
            )
        )
    return out


def degraded_modes(
    workloads: list[Workload],
    configuration: Configuration,
    *,
    params: EngineParameters | None = None,
    afr_pct: float = 2.0,
    ure_per_bit: float = 1e-15,
) -> DegradedComparison:
    """The configuration in every :class:`DegradedMode`, side by side, with rebuild exposure.

    A mode the configuration cannot be in (a controller failure with a single controller) is
    marked unavailable with the reason.
    """
    modes: list[ModeResult] = []
    for mode in DegradedMode:
        try:
            res = evaluate(workloads, configuration, params=params, degraded=mode)
        except InputError as exc:
            if exc.field != "degraded":
                raise
            modes.append(
                ModeResult(mode=mode, available=False, note=exc.reason, outcome=None, result=None, rebuild=[])
            )
            continue
        rebuild = (
            rebuild_exposure(res, configuration, afr_pct=afr_pct, ure_per_bit=ure_per_bit)
            if mode is DegradedMode.REBUILDING
            else []
        )
        modes.append(
            ModeResult(
                mode=mode, available=True, note=None, outcome=outcome(res), result=res, rebuild=rebuild
            )
        )
    ok = [m for m in modes if m.outcome is not None]
    worst = max(ok, key=lambda m: _inf(m.outcome.headroom_used_pct if m.outcome else None))
    parts = []
    for m in ok:
        assert m.outcome is not None
        verdict = "passes" if m.outcome.passed else "fails"
        parts.append(f"{m.mode.value}: {verdict}, {m.outcome.binding} at {fmt(m.outcome.headroom_used_pct)}%")
    text = "; ".join(parts) + f". Worst: {worst.mode.value}."
    for m in modes:
        for r in m.rebuild:
            text += " " + r.text
    return DegradedComparison(modes=modes, worst_mode=worst.mode, text=text)


__all__ = [
    "Band",
    "BandMethod",
    "DegradedComparison",
    "GrowthProjection",
    "MaxWorkloadResult",
    "Outcome",
    "Range",
    "RangesResult",
    "SensitivityResult",
    "SensitivitySteps",
    "Uncertainty",
    "WindowCapability",
    "cache_for_hit_ratio",
    "degraded_modes",
    "growth_projection",
    "max_workload",
    "outcome",
    "ranges",
    "rebuild_exposure",
    "sensitivity",
    "window_capability",
    "window_hit_ratio",
]
