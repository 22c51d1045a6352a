"""What-if analysis around :func:`models.evaluate.evaluate`: growth, sensitivity, capability, ranges.

Every analysis re-runs the engine on changed inputs (:mod:`models.whatif.changes`) and reduces
each evaluation to the same few figures (:mod:`models.whatif.core`: :class:`Outcome`, per window
:class:`WindowOutcome`):

* **busiest utilization**: the highest busy share of any component in a window (drives of each
  pool, controllers, ports, a degraded RAID group) [%];
* **headroom used**: ``100 x value / limit`` of the check nearest (or furthest past) its limit,
  counting every utilization check of every window including "controllers after failover";
  above 100 a headroom limit is broken. The check is the *binding* one;
* **read latency**: the IOPS-weighted read latency of a window, the worst window's for a whole
  evaluation [ms] (null = saturated, i.e. unbounded).

Analyses, one module each (each function pure, every parameter a documented argument):

* :func:`growth_projection` (:mod:`~models.whatif.growth`): month by month over the horizon,
  capacity, IOPS and working sets grow at ``growth_pct_per_year`` (compound, ``x (1 + g)^(m / 12)``
  at month m); the first month each window breaks its latency target or a headroom limit, and
  when capacity runs out.
* :func:`sensitivity` (:mod:`~models.whatif.tornado`): a tornado. Each input is moved down and up
  by a stated step (:class:`SensitivitySteps`) one at a time; bars are ranked by the swing of
  headroom used.
* :func:`max_workload` (:mod:`~models.whatif.capability`): the largest load scale each window's
  mix sustains within its latency targets and headroom limits (a safeguarded secant search on
  ``load_scale``), and what binds just above it.
* :func:`ranges` (:mod:`~models.whatif.uncertainty`): uncertain inputs (skew, working set, layout
  aging, cache, tiering locality, scale-out efficiency) each over a plausible range
  (:class:`Uncertainty`); a low / expected / high band from the ends of the ranges or a seeded
  Monte Carlo, the capability band, and which uncertainty matters most (the same tornado at the
  ends of each range).
* :func:`degraded_modes` (:mod:`~models.whatif.degraded`): normal, drive failed, rebuilding
  (hours and exposure to a further failure) and controller / node down, side by side.

Every evaluated figure is monotone in load in the engine (more IOPS, a bigger working set, less
cache never make a component less busy), which the searches and the growth break rely on.
"""

from models.whatif.capability import MaxWorkloadResult, WindowCapability, max_workload, window_capability
from models.whatif.changes import grow_workload, scaled_out
from models.whatif.core import Outcome, TornadoBar, WindowOutcome, outcome, window_outcome
from models.whatif.degraded import (
    DegradedComparison,
    ModeResult,
    RebuildExposure,
    degraded_modes,
    rebuild_exposure,
)
from models.whatif.growth import GrowthPoint, GrowthProjection, WindowBreak, growth_projection
from models.whatif.tornado import (
    SensitivityResult,
    SensitivitySteps,
    cache_for_hit_ratio,
    sensitivity,
    window_hit_ratio,
)
from models.whatif.uncertainty import (
    UNCERTAIN_INPUTS,
    Band,
    BandMethod,
    Range,
    RangesResult,
    Uncertainty,
    WindowBand,
    calibrated_uncertainty,
    ranges,
)

__all__ = [
    "calibrated_uncertainty",
    "UNCERTAIN_INPUTS",
    "Band",
    "BandMethod",
    "DegradedComparison",
    "GrowthPoint",
    "GrowthProjection",
    "MaxWorkloadResult",
    "ModeResult",
    "Outcome",
    "Range",
    "RangesResult",
    "RebuildExposure",
    "SensitivityResult",
    "SensitivitySteps",
    "TornadoBar",
    "Uncertainty",
    "WindowBand",
    "WindowBreak",
    "WindowCapability",
    "WindowOutcome",
    "cache_for_hit_ratio",
    "degraded_modes",
    "grow_workload",
    "growth_projection",
    "max_workload",
    "outcome",
    "ranges",
    "rebuild_exposure",
    "scaled_out",
    "sensitivity",
    "window_capability",
    "window_hit_ratio",
    "window_outcome",
]
