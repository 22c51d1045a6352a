"""Model parameters that are not properties of a product: curve shapes and engine assumptions.

Defaults are documented here; values fitted to published measurements live in
``fixtures/calibration/engine.yaml`` with a note on what they were fitted to, and callers (the API,
``make validate``) pass them in. Nothing in the engine reads them from a file.
"""

from __future__ import annotations

from pydantic import Field

from models.base import Frozen


class EngineParameters(Frozen):
    """Engine-wide model parameters (every one a documented argument, no hidden constants)."""

    ncq_gain_max: float = Field(
        default=1.0,
        ge=0.0,
        le=3.0,
        description="max positioning-time gain from command queuing (1.0 halves it)",
    )
    ncq_q_half: float = Field(
        default=8.0, gt=0.0, le=256.0, description="queue at which half the NCQ gain is reached"
    )
    drive_service_scv: float = Field(
        default=0.5,
        ge=0.0,
        le=4.0,
        description="squared coefficient of variation of drive service time (M/G/1)",
    )
    sequential_run_kib: float = Field(
        default=1024.0,
        gt=0.0,
        le=65536.0,
        description="sequential data moved per positioning on one drive [KiB]",
    )
    stripe_run_kib: float = Field(
        default=256.0,
        gt=0.0,
        le=65536.0,
        description="full-stripe write data per drive per positioning [KiB]",
    )
    rebuild_rate_mb_s: float = Field(
        default=60.0, gt=0.0, le=5000.0, description="rebuild rate on an idle group [MB/s]"
    )
    rebuild_min_rate_mb_s: float = Field(
        default=10.0, gt=0.0, le=5000.0, description="rebuild rate the array guarantees under load [MB/s]"
    )
    min_span_fraction: float = Field(
        default=0.005,
        gt=0.0,
        le=1.0,
        description="floor of the seek span (metadata and neighbours are touched too)",
    )
    host_overhead_ms: float = Field(
        default=0.0, ge=0.0, le=100.0, description="host stack + fabric time per I/O outside the array [ms]"
    )
