"""Engine inputs every feature's requests share: workloads and a configuration given in full or by reference.

A configuration is given either in full (an engine :class:`Configuration`, e.g. one returned by
``/size``) or as a :class:`CatalogReference` resolved on the server (:mod:`backend.app.engine.context`);
the two are told apart by the ``controller`` key that only a full configuration has.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, ConfigDict, Discriminator, Field, Tag

from backend.app.calibration import Layout
from backend.app.schemas import Request
from models.configuration import Configuration, HeadroomTargets
from models.raid import RaidScheme
from models.workload import Workload

MAX_WORKLOADS = 32
MAX_PHASES = 128
"""Phases across all workloads of one request: keeps the slowest request (curves) to seconds."""


def _phase_budget(workloads: list[Workload]) -> list[Workload]:
    phases = sum(len(w.phases) for w in workloads)
    if phases > MAX_PHASES:
        raise ValueError(f"at most {MAX_PHASES} phases across all workloads, got {phases}")
    return workloads


Workloads = Annotated[
    list[Workload],
    Field(min_length=1, max_length=MAX_WORKLOADS, description=f"at most {MAX_PHASES} phases in all"),
    AfterValidator(_phase_budget),
]


class CatalogReference(Request):
    """A configuration built from catalog records (or custom hardware record ids).

    Unset fields take the array's defaults: its default drive, RAID scheme and the scheme's group
    width, the default port option, no flash cache, the default headroom targets and (clustered
    arrays) the base system's nodes or as many as the drives need; ports, controllers and packaging
    scale with ``nodes`` whether the port option is named or not. ``drive_count`` null means the
    array's entry configuration for ``/evaluate`` and ``/curves``, and the count to find for
    ``/size`` and ``/compare``. ``layout`` is the age of a WAFL layout (RAID-DP/RAID-TEC: calibrated
    full-stripe share and scatter; null = the calibration's default age) and is ignored for other
    schemes. A drive or RAID scheme the array does not offer is a 422 at its field unless
    ``hypothetical`` is set: then it is computed and its name says "hypothetical: not offered by
    this array".
    """

    model_config = ConfigDict(title="CatalogReference")

    array_id: str = Field(
        min_length=1, max_length=80, description="catalog array id or custom array record id"
    )
    drive_id: str | None = Field(
        default=None, min_length=1, max_length=80, description="catalog drive id or custom drive record id"
    )
    raid_scheme: RaidScheme | None = None
    group_width: int | None = Field(default=None, ge=1, le=64, description="drives per RAID group")
    drive_count: int | None = Field(default=None, ge=1, le=100000, description="drives excl. spares")
    flash_cache_gb: float = Field(default=0.0, ge=0.0, le=1e6, description="flash read cache [GB, system]")
    port_option: str | None = Field(
        default=None, min_length=1, max_length=80, description="array port option name"
    )
    nodes: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description="nodes (HA pairs where the family grows in pairs) of a clustered or scale-out "
        "array, within its range; null = the base system, or as many as the drives need",
    )
    controller_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="custom controller record replacing the array's",
    )
    layout: Layout | None = Field(
        default=None, description="WAFL layout age (RAID-DP/RAID-TEC only); null = the calibrated default"
    )
    drive_fraction_used: float | None = Field(
        default=None,
        gt=0.0,
        le=1.0,
        description="short-stroking: fraction of each drive used; null = all of it (full stroke)",
    )
    planned_fill_pct: float | None = Field(
        default=None,
        gt=0.0,
        le=100.0,
        description="fill the pool will run at [% of usable]; null = the capacity fill target",
    )
    headroom: HeadroomTargets | None = Field(
        default=None, description="how busy each part may be; null = the defaults"
    )
    hypothetical: bool = Field(
        default=False,
        description="compute a drive or RAID scheme the array does not offer (labelled as such)",
    )
    name: str | None = Field(
        default=None, min_length=1, max_length=120, description="null = named by the server from its parts"
    )


def _configuration_kind(value: Any) -> str | None:
    if isinstance(value, Configuration):
        return "configuration"
    if isinstance(value, CatalogReference):
        return "catalog"
    if isinstance(value, dict):
        return "configuration" if "controller" in value else "catalog"
    return None


ConfigurationInput = Annotated[
    Annotated[Configuration, Tag("configuration")] | Annotated[CatalogReference, Tag("catalog")],
    Discriminator(_configuration_kind),
]
