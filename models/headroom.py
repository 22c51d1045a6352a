"""Headroom load against saturation load: how far a window's load can grow within its targets.

A utilization of 67.5% at 20,000 IOPS and a latency curve that saturates at 46,000 IOPS are two
different questions. Saturation is where the busiest resource reaches 100%
(:func:`models.curves.saturation_scale`); the *headroom load* is where the first headroom target
is reached (drives 70%, a controller of an HA pair 50%, ports 70%, a latency target), i.e. the
largest load the window sustains while passing every check
(:func:`models.whatif.window_capability`)::

    headroom load   = s_h x IOPS      s_h: largest load scale passing every check of the window
    saturation load = s* x IOPS       s*: load scale at which the busiest resource is 100% busy

The gap between them is the headroom kept on purpose (for failover, bursts, rebuilds).
"""

from __future__ import annotations

from pydantic import Field

from models.base import Output
from models.checks import check_words
from models.configuration import Configuration
from models.explain import Explained, explained, fmt
from models.parameters import EngineParameters
from models.whatif import window_capability
from models.workload import Workload

TOLERANCE = 1e-3
"""Relative precision of the headroom load (a mark on a chart, not a sizing)."""


class HeadroomMark(Output):
    """Where a window's load reaches its first headroom target, against where it saturates."""

    window: str
    operating_iops: float
    headroom_iops: float | None = Field(
        description="largest load within every target [IOPS]; null for an idle window"
    )
    saturation_iops: float
    headroom_load_pct: float | None = Field(description="headroom load over saturation load [%]")
    binding: str = Field(description="what reaches its target first, in words")
    headroom: Explained


def headroom_mark(
    workloads: list[Workload],
    configuration: Configuration,
    window: str,
    saturation_iops: float,
    *,
    params: EngineParameters | None = None,
) -> HeadroomMark:
    """The headroom load of ``window`` beside its saturation load (from the latency curve)."""
    cap = window_capability(workloads, configuration, window, params=params, tolerance=TOLERANCE)
    pools = len(configuration.pools)
    binding = check_words(cap.binding, pools)
    sat = fmt(saturation_iops)
    if cap.max_iops is None:
        text = f"{window} has no load: no headroom load; saturation at {sat} IOPS"
        pct = None
    else:
        pct = 100.0 * cap.max_iops / saturation_iops if saturation_iops > 0 else None
        text = (
            f"headroom load = {fmt(cap.max_scale or 0.0)} x {fmt(cap.base_iops)} IOPS = {fmt(cap.max_iops)} IOPS, limited by "
            f"{binding} at their target; saturation (the busiest part 100% busy) at {sat} IOPS"
            + (f", so the targets keep {fmt(100 - pct)}% of it in reserve" if pct is not None else "")
        )
    return HeadroomMark(
        window=window,
        operating_iops=cap.base_iops,
        headroom_iops=cap.max_iops,
        saturation_iops=saturation_iops,
        headroom_load_pct=pct,
        binding=binding,
        headroom=explained(
            cap.max_iops,
            "IOPS",
            "headroom load = s_h x IOPS (s_h: largest load scale passing every target)",
            text,
            load_scale=cap.max_scale,
            operating_iops=cap.base_iops,
            saturation_iops=saturation_iops,
        ),
    )


__all__ = ["HeadroomMark", "headroom_mark"]
