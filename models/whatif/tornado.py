"""Sensitivity (a tornado): each input moved down and up by a stated step, one at a time, ranked by
the swing of headroom used; the cache size that gives a read hit ratio."""

from __future__ import annotations

from pydantic import Field
from scipy.optimize import brentq

from models.base import Frozen, InputError, Output
from models.configuration import Configuration
from models.evaluate import (
    DegradedMode,
    EvaluationResult,
)
from models.explain import fmt
from models.memo import holds_memo
from models.parameters import EngineParameters
from models.whatif.changes import (
    cache_gb,
    window_only,
    with_cache,
    with_drive_groups,
    with_full_stripe,
    with_hot_data,
    with_read_pct,
    with_total_cache,
    with_working_set,
    with_zipf,
)
from models.whatif.core import (
    Outcome,
    Run,
    TornadoBar,
    Variant,
    outcome,
    rank_bars,
    swing_text,
    tornado_bar,
)
from models.workload import Workload, windows_of


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
) -> Variant:
    wl, c1 = with_zipf(workloads, alpha_d)
    wl, c2 = with_hot_data(wl, hot_f)
    return Variant(text, wl, cfg, changed=c1 or c2)


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
    only = window_only(workloads, window)
    if not only:
        raise InputError("window", f"no phase runs in window {window!r}")
    run = Run(params, degraded)
    top = max(sum(w.working_set_for(ph) for w in only for ph in w.phases), sum(cache_gb(configuration)))
    target = hit_pct / 100.0

    def hit(total_gb: float) -> float:
        return window_hit_ratio(only, run.evaluate(only, with_total_cache(configuration, total_gb)), window)

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
    run: Run,
) -> tuple[Variant, Variant]:
    """The cache sizes that move the read hit ratio of the binding window by -/+ ``points``."""
    wins = windows_of(workloads)
    window = base.binding.split(": ", 1)[0] if ": " in base.binding else wins[0]
    if window not in wins or _random_reads(workloads, window) <= 0:
        window = max(wins, key=lambda w: _random_reads(workloads, w))
    if _random_reads(workloads, window) <= 0:
        same = Variant("no random reads", workloads, cfg, changed=False)
        return same, same
    total0 = sum(cache_gb(cfg))
    h0 = 100.0 * window_hit_ratio(workloads, base_res, window)
    out: list[Variant] = []
    for sign in (-1, 1):
        target = min(100.0, max(0.0, h0 + sign * points))
        gb = cache_for_hit_ratio(workloads, cfg, window, target, params=run.params, degraded=run.degraded)
        if (sign < 0 and gb >= total0) or (sign > 0 and gb <= total0):
            out.append(Variant(f"read hit ratio {fmt(h0)}% (cannot move)", workloads, cfg, changed=False))
            continue
        text = (
            f"read hit ratio {fmt(h0)}% -> {fmt(target)}% in {window} (cache {fmt(total0)} -> {fmt(gb)} GB)"
        )
        out.append(Variant(text, workloads, with_total_cache(cfg, gb)))
    return out[0], out[1]


@holds_memo
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
    run = Run(params, degraded)
    cfg = configuration
    base_res = run.evaluate(workloads, cfg)
    base = outcome(base_res)
    i, w, ws, c = s.iops_pct / 100, s.write_pct_points, s.working_set_pct / 100, s.cache_pct / 100
    d_lo, d_lo_ok, d_lo_text = with_drive_groups(cfg, s.drive_count_pct, -1)
    d_hi, d_hi_ok, d_hi_text = with_drive_groups(cfg, s.drive_count_pct, 1)
    f_lo, f_lo_ok = with_full_stripe(cfg, -s.full_stripe_share)
    f_hi, f_hi_ok = with_full_stripe(cfg, s.full_stripe_share)
    h = s.hot_data_pct / 100
    specs: list[tuple[str, str, Variant, Variant]] = [
        (
            "iops",
            f"front-end IOPS +/-{fmt(s.iops_pct)}%",
            Variant(f"IOPS x {fmt(1 - i)}", workloads, cfg, 1 - i),
            Variant(f"IOPS x {fmt(1 + i)}", workloads, cfg, 1 + i),
        ),
        (
            "write_pct",
            f"write share +/-{fmt(w)} points",
            Variant(f"writes -{fmt(w)} points", with_read_pct(workloads, -w), cfg),
            Variant(f"writes +{fmt(w)} points", with_read_pct(workloads, w), cfg),
        ),
        (
            "working_set",
            f"working set +/-{fmt(s.working_set_pct)}%",
            Variant(f"working set x {fmt(1 - ws)}", with_working_set(workloads, 1 - ws), cfg),
            Variant(f"working set x {fmt(1 + ws)}", with_working_set(workloads, 1 + ws), cfg),
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
            Variant(
                f"cache x {fmt(1 - c)}", workloads, with_cache(cfg, 1 - c), changed=sum(cache_gb(cfg)) > 0
            ),
            Variant(
                f"cache x {fmt(1 + c)}", workloads, with_cache(cfg, 1 + c), changed=sum(cache_gb(cfg)) > 0
            ),
        ),
        (
            "drive_count",
            f"drive count +/-{fmt(s.drive_count_pct)}% (whole RAID groups)",
            Variant(d_lo_text, workloads, d_lo, changed=d_lo_ok),
            Variant(d_hi_text, workloads, d_hi, changed=d_hi_ok),
        ),
        (
            "layout_aging",
            f"full-stripe share +/-{fmt(s.full_stripe_share)} (layout aging)",
            Variant(
                f"full-stripe share -{fmt(s.full_stripe_share)} (more aged)", workloads, f_lo, changed=f_lo_ok
            ),
            Variant(
                f"full-stripe share +{fmt(s.full_stripe_share)} (fresher)", workloads, f_hi, changed=f_hi_ok
            ),
        ),
    ]
    hit_lo, hit_hi = _hit_variants(workloads, cfg, base_res, base, s.hit_ratio_points, run)
    specs.append(("hit_ratio", f"read hit ratio +/-{fmt(s.hit_ratio_points)} points", hit_lo, hit_hi))
    bars = rank_bars([tornado_bar(name, label, base, lo, hi, run)[0] for name, label, lo, hi in specs])
    top = bars[0]
    text = (
        f"Base: {base.binding} at {fmt(base.headroom_used_pct)}% of its limit. "
        f"Most influential: {swing_text(top)}"
        + (f"; then {swing_text(bars[1])}." if len(bars) > 1 and bars[1].applicable else ".")
    )
    return SensitivityResult(base=base, steps=s, bars=bars, most_influential=top.input, text=text)
