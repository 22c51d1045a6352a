"""Maximum workload: the largest load scale each window's mix sustains within its latency targets
and headroom limits, and what binds just above it."""

from __future__ import annotations

import math

from pydantic import Field, computed_field

from models.base import InputError, Output
from models.checks import check_words
from models.configuration import Configuration
from models.evaluate import (
    Check,
    DegradedMode,
    EvaluationResult,
    WindowResult,
)
from models.explain import Explained, fmt, number
from models.memo import holds_memo
from models.parameters import EngineParameters
from models.provenance import Assessed
from models.whatif.changes import (
    window_only,
)
from models.whatif.core import (
    Run,
    check_ratio,
)
from models.workload import Workload, windows_of

MAX_SCALE = 1e6
"""Largest load scale :func:`max_workload` tries: a window still passing there never binds."""

MIN_SCALE = 1e-6
"""Below this load scale a window that still fails is reported as sustaining no load (scale 0)."""


class WindowCapability(Output):
    """The largest load a window's mix sustains within its latency targets and headroom limits."""

    window: str
    base_iops: float
    max_scale: float | None = Field(description="largest load_scale that passes; null for an idle window")
    max_iops: float | None
    max_mb_s: float | None
    headroom_pct: float | None = Field(description="(max_scale - 1) x 100: load the window can still add [%]")
    binding: str = Field(description="check that fails just above max_scale")
    binding_words: str = Field(description="that check in words (models.checks.check_words)")
    binding_text: str
    evaluations: int

    @computed_field(description="max_iops with its formula and inputs")  # type: ignore[prop-decorator]
    @property
    def max_iops_explained(self) -> Explained:
        """``max IOPS = IOPS today x max scale`` with its numbers (worked out when read)."""
        return Explained(
            value=self.max_iops,
            unit="IOPS",
            formula="max IOPS = IOPS today x max scale",
            text="idle window: nothing to scale"
            if self.max_scale is None
            else f"max IOPS = {number(self.base_iops)} x {number(self.max_scale)} = {number(self.max_iops)}",
            inputs={
                "IOPS today": self.base_iops,
                "max scale": self.max_scale,
                "evaluations": self.evaluations,
            },
            source="bisection on the load scale until a latency target or headroom limit fails",
        )


class MaxWorkloadResult(Assessed):
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
    return max(bad, key=check_ratio)


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
    run = Run(params, degraded)
    only = window_only(workloads, window)
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
            binding_words=check_words("none"),
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
        r = max((check_ratio(c) for c in wr.checks), default=0.0)
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
                    binding_words=check_words("none"),
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
        binding_words=check_words(bind.name, len(configuration.pools)),
        binding_text=f"at {fmt(hi)} x the load: {bind.text}",
        evaluations=n,
    )


@holds_memo
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
