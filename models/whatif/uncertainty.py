"""Ranges, not points: low / expected / high bands of an evaluation over the plausible ranges of
the inputs nobody measures well (the ends of the ranges or a seeded Monte Carlo)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Self

import numpy as np
from pydantic import Field, model_validator

from models.base import Frozen, InputError, Output
from models.catalog.calibration import Calibration, Layout
from models.configuration import Configuration
from models.evaluate import (
    DegradedMode,
)
from models.explain import fmt
from models.memo import holds_memo
from models.parameters import EngineParameters
from models.provenance import with_model_error
from models.whatif.capability import max_workload
from models.whatif.changes import (
    cache_gb,
    with_cache,
    with_efficiency,
    with_full_stripe,
    with_hot_data,
    with_locality,
    with_working_set,
    with_zipf,
)
from models.whatif.core import (
    Outcome,
    Run,
    TornadoBar,
    Variant,
    as_inf,
    finite_or_none,
    outcome,
    rank_bars,
    swing_text,
    tornado_bar,
)
from models.workload import Workload


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
    model_error_factor: Range = Field(
        default=Range(low=1.0, expected=1.0, high=1.0),
        description=(
            "the model's own error: multiplies CPU costs and drive times, divides throughput ceilings and "
            "drive rates (the API sets 1 / (1 + p90) .. 1 + p90 of make validate's band for the class of system)"
        ),
    )

    @model_validator(mode="after")
    def _check(self) -> Self:
        for name in ("hot_data_factor", "working_set_factor", "cache_factor", "model_error_factor"):
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
    "model_error_factor": "the model's own error (make validate)",
}
"""Uncertain inputs in a fixed order (the Monte Carlo draws them in this order)."""


def calibrated_uncertainty(calibration: Calibration) -> Uncertainty:
    """The engine's default ranges, with layout aging spanning the calibrated aged and fresh layouts.

    ``full_stripe_share`` of the aged and fresh layouts minus that of the default age (the
    layout a RAID-DP reference gets unless it names one); the engine default without them.
    """
    default = Uncertainty()
    layouts = calibration.layouts
    age = calibration.default_layout
    if age is None or age not in layouts or Layout.AGED not in layouts or Layout.FRESH not in layouts:
        return default
    mid = layouts[age].full_stripe_share
    low = min(0.0, layouts[Layout.AGED].full_stripe_share - mid)
    high = max(0.0, layouts[Layout.FRESH].full_stripe_share - mid)
    return default.model_copy(update={"full_stripe_share_delta": Range(low=low, expected=0.0, high=high)})


def with_model_error_band(uncertainty: Uncertainty, band_pct: float | None) -> Uncertainty:
    """``uncertainty`` with the model's own error as a range: ``1 / (1 + p90) .. 1 + p90`` around 1
    (``band_pct`` the 90th-percentile |error| of the class of system, :func:`models.provenance.margin_band`)."""
    if band_pct is None or band_pct <= 0:
        return uncertainty
    f = 1.0 + band_pct / 100.0
    return uncertainty.model_copy(update={"model_error_factor": Range(low=1.0 / f, expected=1.0, high=f)})


def apply_uncertain(
    workloads: list[Workload], cfg: Configuration, values: dict[str, float]
) -> tuple[list[Workload], Configuration, bool]:
    """Workloads and configuration with every uncertain input at ``values``; whether anything changed."""
    changed = False
    wl, c = with_zipf(workloads, values["skew_alpha_delta"])
    changed |= c
    wl, c = with_hot_data(wl, values["hot_data_factor"])
    changed |= c
    if values["working_set_factor"] != 1.0:
        wl, changed = with_working_set(wl, values["working_set_factor"]), True
    out, c = (
        with_full_stripe(cfg, values["full_stripe_share_delta"])
        if values["full_stripe_share_delta"]
        else (cfg, False)
    )
    changed |= c
    if values["cache_factor"] != 1.0 and sum(cache_gb(out)) > 0:
        out, changed = with_cache(out, values["cache_factor"]), True
    if values["locality_b_delta"]:
        out, c = with_locality(out, values["locality_b_delta"])
        changed |= c
    out, c = with_efficiency(out, values["scaling_efficiency"])
    changed |= c
    if values["model_error_factor"] != 1.0:
        out, changed = with_model_error(out, values["model_error_factor"]), True
    return wl, out, changed


def draw(uncertainty: Uncertainty, samples: int, seed: int) -> dict[str, np.ndarray]:
    """``samples`` draws of every uncertain input: numpy ``default_rng(seed)``, a triangular
    distribution per input over (low, expected, high), inputs drawn in :data:`UNCERTAIN_INPUTS`
    order (an input whose range is one point stays at it)."""
    rng = np.random.default_rng(seed)
    draws: dict[str, np.ndarray] = {}
    for name in UNCERTAIN_INPUTS:
        r: Range = getattr(uncertainty, name)
        if r.high > r.low:
            draws[name] = rng.triangular(r.low, r.expected, r.high, size=samples)
        else:
            draws[name] = np.full(samples, r.expected)
    return draws


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


class Confidence(Output):
    """The chance of meeting every target in every case judged, over the stated input ranges and
    the model's error band."""

    chance_pct: float = Field(description="share of samples meeting every case judged [%]")
    samples: int
    seed: int
    evaluated: int = Field(
        description="samples the engine judged; the rest decided by comparison with those (monotone inputs)"
    )
    uncertainty: Uncertainty
    inputs: list[str] = Field(description="the uncertain inputs that apply to this design, in words")
    drive_count: int | None = Field(
        default=None, description="the drive count of the pool sized (null: the configuration as given)"
    )
    target_pct: float | None = Field(default=None, description="the confidence sized to (null: not sized)")
    text: str


def _band(
    values: Sequence[float | None], expected: float | None, unit: str, q: tuple[float, float] | None
) -> Band:
    arr = np.array([as_inf(v) for v in values], dtype=float)
    if q is None:
        lo, hi = float(np.min(arr)), float(np.max(arr))
    else:
        # order statistics, no interpolation: conservative, and saturated (infinite) samples stay infinite
        lo = float(np.quantile(arr, q[0], method="lower"))
        hi = float(np.quantile(arr, q[1], method="higher"))
    return Band(low=finite_or_none(lo), expected=expected, high=finite_or_none(hi), unit=unit)


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


def _system_scale(workloads: list[Workload], cfg: Configuration, run: Run, tolerance: float) -> float | None:
    return max_workload(
        workloads, cfg, params=run.params, degraded=run.degraded, tolerance=tolerance
    ).max_scale


@holds_memo
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
    run = Run(params, degraded)
    rng_spec: dict[str, Range] = {name: getattr(u, name) for name in UNCERTAIN_INPUTS}
    expected_values = {k: r.expected for k, r in rng_spec.items()}
    wl_e, cfg_e, _ = apply_uncertain(workloads, configuration, expected_values)
    expected = outcome(run.evaluate(wl_e, cfg_e))

    bars: list[TornadoBar] = []
    pess_values, opt_values = dict(expected_values), dict(expected_values)
    for name, r in rng_spec.items():
        ends = []
        for x in (r.low, r.high):
            wl, cfg, changed = apply_uncertain(workloads, configuration, {**expected_values, name: x})
            changed = changed and x != r.expected
            ends.append(Variant(_setting_text(name, x), wl, cfg, changed=changed))
        bar, lo, hi = tornado_bar(name, UNCERTAIN_INPUTS[name], expected, ends[0], ends[1], run)
        bars.append(bar)
        if as_inf(hi.headroom_used_pct) >= as_inf(lo.headroom_used_pct):
            pess_values[name], opt_values[name] = r.high, r.low
        else:
            pess_values[name], opt_values[name] = r.low, r.high
        if not bar.applicable:
            pess_values[name] = opt_values[name] = r.expected
    ranking = rank_bars(bars)

    wl_p, cfg_p, _ = apply_uncertain(workloads, configuration, pess_values)
    wl_o, cfg_o, _ = apply_uncertain(workloads, configuration, opt_values)
    pess = outcome(run.evaluate(wl_p, cfg_p))
    opt = outcome(run.evaluate(wl_o, cfg_o))

    pass_prob: float | None = None
    if method is BandMethod.ENDS:
        pool = [opt, expected, pess]
        q = None
        n = 3
    else:
        draws = draw(u, samples, seed)
        pool = []
        for k in range(samples):
            values = {name: float(draws[name][k]) for name in rng_spec}
            wl, cfg, _ = apply_uncertain(workloads, configuration, values)
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
    text += f". The uncertainty that matters most: {swing_text(top)}."
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
