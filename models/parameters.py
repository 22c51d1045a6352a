"""Model parameters that are not properties of a product: curve shapes and engine assumptions.

Defaults are documented here; values fitted to published measurements live in
``fixtures/calibration/engine.yaml`` with a note on what they were fitted to, and callers (the API,
``make validate``) pass them in. Nothing in the engine reads them from a file.
"""

from __future__ import annotations

from pydantic import Field

from models.base import Frozen
from models.drives import CommandQueuing, DriveClass, DriveSpec, drive_class


class CommandQueuingByClass(Frozen):
    """Command-queuing gain per drive class (:class:`models.drives.DriveClass`).

    Defaults are provisional and conservative; the fitted values, with what each was fitted to,
    are in ``fixtures/calibration/engine.yaml`` (``parameters.command_queuing``).
    """

    sata: CommandQueuing = Field(
        default=CommandQueuing(gain_max=1.0, q_half=8.0, queue_limit=32.0),
        description="SATA NCQ (at most 32 queued commands)",
    )
    nl_sas: CommandQueuing = Field(
        default=CommandQueuing(gain_max=1.0, q_half=8.0, queue_limit=256.0),
        description="7,200 rpm SAS/FC (NL-SAS)",
    )
    sas_fc: CommandQueuing = Field(
        default=CommandQueuing(gain_max=1.0, q_half=8.0, queue_limit=256.0),
        description="10K/15K rpm SAS/FC tagged command queuing",
    )
    ssd: CommandQueuing = Field(
        default=CommandQueuing(gain_max=0.0, q_half=1.0, queue_limit=65536.0),
        description="SSD/NVMe: no positioning to reorder",
    )

    def for_class(self, cls: DriveClass) -> CommandQueuing:
        """The parameters of drive class ``cls``."""
        return getattr(self, cls.value)  # type: ignore[no-any-return]

    def for_drive(self, drive: DriveSpec) -> CommandQueuing:
        """The parameters of the class of ``drive`` (:func:`models.drives.drive_class`)."""
        return self.for_class(drive_class(drive))


class EngineParameters(Frozen):
    """Engine-wide model parameters (every one a documented argument, no hidden constants)."""

    command_queuing: CommandQueuingByClass = Field(
        default_factory=CommandQueuingByClass,
        description="command-queuing gain per drive class (models.drives.queued_positioning_ms)",
    )
    drive_service_scv: float = Field(
        default=0.5,
        ge=0.0,
        le=4.0,
        description="squared coefficient of variation of drive service time (M/G/1)",
    )
    readahead_kib: float = Field(
        default=1024.0,
        gt=0.0,
        le=65536.0,
        description="readahead (and write-behind) request of one sequential stream [KiB]",
    )
    prefetch_multiplier: float = Field(
        default=2.0,
        ge=1.0,
        le=64.0,
        description="a stream request covers at least this many of the stream's I/Os (2 = the I/O and "
        "the next: the least readahead that reads ahead at all; arrays' variable prefetch uses multiples)",
    )  # [huawei-variable-prefetch]: prefetch as a multiple of the read length; 2 is an estimate
    stripe_run_kib: float = Field(
        default=256.0,
        gt=0.0,
        le=65536.0,
        description="full-stripe write data per drive per positioning [KiB]",
    )
    rebuild_rate_mb_s: float | None = Field(
        default=None,
        gt=0.0,
        le=20000.0,
        description="the array's stated rebuild rate on an idle group [MB/s of rebuilt data]; None = from the "
        "drives' sequential rates, the sparing style and the rebuild priority (models.rebuild)",
    )
    rebuild_priority_pct: float = Field(
        default=30.0,
        gt=0.0,
        le=100.0,
        description="largest share of each drive's time the array lets a rebuild take [%] (conservative: a "
        "low-to-medium rebuild priority; the rebuild gets at most the idle share left by the load)",
    )
    annual_failure_rate_pct: float = Field(
        default=2.0,
        gt=0.0,
        le=100.0,
        description="annualized failure rate of one drive [%], for the chance of a further failure while "
        "rebuilding (conservative: above the 1.4-1.7% of Backblaze's fleet, [backblaze-drive-stats])",
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
    ure_warning_pct: float = Field(
        default=1.0,
        ge=0.0,
        le=100.0,
        description="warn when a rebuild's chance of an unrecoverable read error exceeds this [%]",
    )
    host_overhead_ms: float = Field(
        default=0.0, ge=0.0, le=100.0, description="host stack + fabric time per I/O outside the array [ms]"
    )
