"""How calibrated each part of a system is: status and source keys, per part.

Every figure the engine uses comes from a record (catalog or custom hardware). Each record says,
part by part, how far its figures can be trusted::

    status        meaning                                                        sources
    measured      read off a published measurement of this very hardware          >= 1 key
    fitted        fitted (``make calibrate``) to published measurements           >= 1 key
    fitted (site) fitted to the user's own measurements (``/import/observed``)    none needed
    datasheet     a vendor's published figure, read and cited                      >= 1 key
    estimate      era-typical, recalled or derived (x / 1.5 of another record)     optional
    estimate (user) a custom record without a stated source                        none

Source keys are keys of ``docs/sources.md`` (without brackets). A part's status is that of its
*least* calibrated figure the engine uses (a controller whose core count is from a datasheet but
whose CPU costs per I/O are placeholders is ``estimate``); ``figures`` may state single figures
more precisely (``cpu_us_per_kib_written: fitted [clyso-ceph-1tibps-2024]``).

Parts (:data:`PARTS`):

* ``drives``      the drive record's service-time figures (seek, rotation, media rate, IOPS, latency)
* ``controller``  controllers or nodes: cores, CPU costs per I/O and per KiB, throughput ceilings
* ``cache``       DRAM/NVRAM sizes, acknowledgement and hit times, flash cache options
* ``ports``       front-end ports and, for scale-out systems, the cluster network

Catalog arrays state ``controller``, ``cache`` and ``ports`` in ``calibration`` (:class:`ArrayCalibration`);
drive records state their own (:class:`PartCalibration`); a custom controller record may state its
own ``calibration``, which then replaces the array's ``controller`` part. A custom record that states
none is ``estimate (user)`` throughout (:func:`user_estimate`).
"""

from __future__ import annotations

import re
import statistics
from enum import StrEnum
from pathlib import Path
from typing import Any, Self

import yaml
from pydantic import Field, model_validator

from models.base import Frozen, Output

PARTS = ("drives", "controller", "cache", "ports")
"""The parts a result's calibration reports, in order."""

SOURCE_KEY = r"^[a-z0-9]+(?:-[a-z0-9]+)+$"
"""A key of ``docs/sources.md``: lowercase words joined by hyphens (``netapp-tr3838``)."""


class CalibrationStatus(StrEnum):
    """How a figure was obtained (best first; see the module docstring)."""

    MEASURED = "measured"
    FITTED_SITE = "fitted (site)"
    FITTED = "fitted"
    DATASHEET = "datasheet"
    ESTIMATE = "estimate"
    ESTIMATE_USER = "estimate (user)"

    @property
    def rank(self) -> int:
        """0 for the best-founded status, larger for weaker ones (:func:`weakest`)."""
        return _RANK[self]

    @property
    def needs_source(self) -> bool:
        """``measured``, ``fitted`` and ``datasheet`` must name at least one source key."""
        return self in (CalibrationStatus.MEASURED, CalibrationStatus.FITTED, CalibrationStatus.DATASHEET)

    @property
    def is_estimate(self) -> bool:
        return self in (CalibrationStatus.ESTIMATE, CalibrationStatus.ESTIMATE_USER)


_RANK = {status: i for i, status in enumerate(CalibrationStatus)}
"""Each status's place in the order of :class:`CalibrationStatus` (its ``rank``)."""


class FigureCalibration(Frozen):
    """One figure's status and sources, where it differs from its part's."""

    status: CalibrationStatus
    sources: list[str] = Field(default_factory=list, max_length=16)

    @model_validator(mode="after")
    def _check(self) -> Self:
        _check_sources(self.status, self.sources)
        return self


class PartCalibration(Frozen):
    """One part's status (its least calibrated figure), the source keys behind it and a short note."""

    status: CalibrationStatus
    sources: list[str] = Field(
        default_factory=list, max_length=16, description="keys of docs/sources.md, e.g. netapp-tr3838"
    )
    note: str | None = Field(
        default=None, max_length=400, description="what is estimated, what fitted to what"
    )
    figures: dict[str, FigureCalibration] = Field(
        default_factory=dict, max_length=32, description="single figures stated more precisely than the part"
    )

    @model_validator(mode="after")
    def _check(self) -> Self:
        _check_sources(self.status, self.sources)
        # the part's status is its least calibrated figure's: a figure may be better, never worse
        worse = [n for n, f in self.figures.items() if f.status.rank > self.status.rank]
        if worse:
            raise ValueError(
                f"figures {', '.join(sorted(worse))} are less calibrated than the part's status "
                f"{self.status.value!r}; the part's status is its least calibrated figure's"
            )
        return self


class ArrayCalibration(Frozen):
    """An array record's parts other than its drives (each drive record states its own)."""

    controller: PartCalibration
    cache: PartCalibration
    ports: PartCalibration


def _check_sources(status: CalibrationStatus, sources: list[str]) -> None:
    bad = [s for s in sources if not re.match(SOURCE_KEY, s)]
    if bad:
        raise ValueError(f"source keys {bad} are not keys of docs/sources.md (lowercase-words-with-hyphens)")
    if len(set(sources)) != len(sources):
        raise ValueError("source keys must be distinct")
    if status.needs_source and not sources:
        raise ValueError(f"status {status.value!r} needs at least one source key (docs/sources.md)")


def user_estimate(note: str = "custom record without a stated source") -> PartCalibration:
    """The calibration of a custom part that states none: ``estimate (user)``, no sources."""
    return PartCalibration(status=CalibrationStatus.ESTIMATE_USER, note=note)


def weakest(parts: list[PartCalibration]) -> CalibrationStatus:
    """The least calibrated status among ``parts``."""
    return max((p.status for p in parts), key=lambda s: s.rank)


class ConfigurationCalibration(Frozen):
    """Every part of one configuration: its status and sources (``build_configuration`` fills it
    from the catalog or custom records; a configuration given whole states it or is
    ``estimate (user)`` throughout). ``drives`` is the least calibrated of the pools' drives."""

    drives: PartCalibration
    controller: PartCalibration
    cache: PartCalibration
    ports: PartCalibration

    def part(self, name: str) -> PartCalibration:
        return getattr(self, name)  # type: ignore[no-any-return]


def configuration_calibration(
    array: ArrayCalibration | None,
    drives: list[PartCalibration | None],
    controller: PartCalibration | None = None,
) -> ConfigurationCalibration:
    """The parts of a configuration built from an array record, its drives and (when a custom
    controller record replaces the array's) that controller's own calibration. A record that states
    none is ``estimate (user)``."""
    drive_parts = [d if d is not None else user_estimate() for d in drives] or [user_estimate()]
    worst = max(drive_parts, key=lambda p: p.status.rank)
    sources = list(dict.fromkeys(k for p in drive_parts for k in p.sources))
    return ConfigurationCalibration(
        drives=worst.model_copy(update={"sources": sources}),
        controller=controller if controller is not None else (array.controller if array else user_estimate()),
        cache=array.cache if array else user_estimate(),
        ports=array.ports if array else user_estimate(),
    )


# ---- how far off a class of system has been: make validate's tables, shipped as a fixture ---------


class SystemClass(StrEnum):
    """Classes of system the validation tables summarize (:func:`classify`)."""

    HDD = "hdd"
    HYBRID = "hybrid"
    ALL_FLASH = "all_flash"
    SCALE_OUT = "scale_out"
    STREAMING = "streaming"

    @property
    def label(self) -> str:
        return _CLASS_LABELS[self]


_CLASS_LABELS = {
    SystemClass.HDD: "HDD arrays",
    SystemClass.HYBRID: "hybrid (flash cache or tiering)",
    SystemClass.ALL_FLASH: "dual-controller all-flash",
    SystemClass.SCALE_OUT: "scale-out and software-defined",
    SystemClass.STREAMING: "streaming",
}

STREAMING_MIN_KIB = 64.0
"""A phase streams when its I/Os are mostly sequential (random share <= 20%) and at least this
large on average [KiB]."""


def classify(configuration: Any, workloads: list[Any]) -> SystemClass:
    """The class of system whose validation errors apply to this configuration and load.

    ``streaming`` when streaming phases (:data:`STREAMING_MIN_KIB`, random share <= 20%) carry
    at least half the front-end bytes and half the I/Os (:func:`is_streaming`); else ``scale_out`` for a cluster that grows in single nodes
    (one controller per node: Ceph, vSAN, SolidFire, 3PAR nodes) or keeps copies on other nodes (a
    cluster of dual-controller appliances or HA pairs, PowerStore or AFF, is judged by its drives); else by the drives: every pool flash and no flash cache is
    ``all_flash``, any flash (a pool, a flash cache, tiering) beside disks ``hybrid``, else ``hdd``.
    """
    cluster, arch = configuration.cluster, configuration.architecture
    return classify_parts(
        streaming=is_streaming(workloads),
        scale_out=(cluster is not None and cluster.unit == "node" and cluster.controllers_per_node == 1)
        or (arch is not None and arch.copies > 1),
        flash_pools=[p.drive.kind != "hdd" for p in configuration.pools],
        flash_cached=configuration.cache.flash_cache_gb > 0 or configuration.tiering is not None,
    )


def is_streaming(workloads: list[Any]) -> bool:
    """Streaming phases (:data:`STREAMING_MIN_KIB`, random share <= 20%) carry half the bytes or
    more, and half the I/Os or more: a load whose streams move most of the bytes while random I/O
    makes most of the requests (an OLTP database with a nightly export) is sized by its random I/O,
    whose class's error applies."""
    total = streamed = ios = streamed_ios = 0.0
    for w in workloads:
        for p in w.phases:
            mb, iops = p.effective_mb_s, p.effective_iops
            total += mb
            ios += iops
            if p.random_pct <= 20.0 and p.mean_size_kib >= STREAMING_MIN_KIB:
                streamed += mb
                streamed_ios += iops
    return total > 0 and streamed >= 0.5 * total and streamed_ios >= 0.5 * ios


def classify_parts(
    *, streaming: bool, scale_out: bool, flash_pools: list[bool], flash_cached: bool
) -> SystemClass:
    """:func:`classify` from its facts (streaming load, single-node cluster or copies on other
    nodes, which pools are flash, a flash cache or tiering)."""
    if streaming:
        return SystemClass.STREAMING
    if scale_out:
        return SystemClass.SCALE_OUT
    if flash_pools and all(flash_pools):
        return SystemClass.ALL_FLASH
    if any(flash_pools) or flash_cached:
        return SystemClass.HYBRID
    return SystemClass.HDD


class ErrorSummary(Frozen):
    """|predicted - measured| / measured of a set of validation rows [%]."""

    rows: int = Field(ge=0)
    median_pct: float | None = None
    p90_pct: float | None = None
    max_pct: float | None = None


class ClassErrors(Frozen):
    """One class of system in the validation tables: each basis, and the expected error (the
    cross-validated and out-of-sample rows pooled; none when the class has no such rows)."""

    in_sample: ErrorSummary
    cross_validated: ErrorSummary
    out_of_sample: ErrorSummary
    expected: ErrorSummary
    records: list[str] = Field(default_factory=list, description="validation records behind the rows")


class ModelErrorTable(Frozen):
    """``fixtures/calibration/model_error.yaml``: written by ``make validate``, read by the API."""

    generated_by: str
    catalog_version: str | None = None
    inputs_sha256: str = Field(description="digest of the validation, calibration and catalog files used")
    classes: dict[SystemClass, ClassErrors]
    overall: ErrorSummary | None = Field(
        default=None, description="every class's cross-validated and out-of-sample rows pooled"
    )


class ModelError(Output):
    """How far off this class of system has been in the validation tables (``make validate``)."""

    system_class: SystemClass
    label: str
    median_pct: float | None = Field(
        description="median |error| of cross-validated and out-of-sample rows [%]"
    )
    p90_pct: float | None = Field(description="90th percentile |error| of those rows [%]")
    rows: int
    basis: str
    text: str


class ResultCalibration(Output):
    """What a result rests on: every part's status and sources, and which parts are estimates."""

    parts: ConfigurationCalibration
    estimated: list[str] = Field(description="parts whose status is an estimate")
    text: str
    margins: list[Margin] = Field(
        default_factory=list,
        description="estimated parts taken at the pessimistic end of their class's error band (calibration_margin)",
    )
    margin_cost: str | None = Field(
        default=None, description="what the margins cost (sizing: the drives they add)"
    )


def summarize_errors(errors: list[float]) -> ErrorSummary:
    """Median, 90th percentile (linear interpolation) and maximum of absolute errors [%]."""
    if not errors:
        return ErrorSummary(rows=0)
    a = sorted(abs(e) for e in errors)
    pos = 0.9 * (len(a) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(a) - 1)
    p90 = a[lo] + (a[hi] - a[lo]) * (pos - lo)
    return ErrorSummary(
        rows=len(a), median_pct=round(statistics.median(a), 1), p90_pct=round(p90, 1), max_pct=round(a[-1], 1)
    )


def model_error(system_class: SystemClass, table: ModelErrorTable | None) -> ModelError:
    """The expected error of ``system_class`` from the shipped table (none: stated as unknown)."""
    entry = None if table is None else table.classes.get(system_class)
    label = system_class.label
    if entry is None or entry.expected.rows == 0:
        return ModelError(
            system_class=system_class,
            label=label,
            median_pct=None,
            p90_pct=None,
            rows=0,
            basis="no cross-validated or out-of-sample validation row of this class",
            text=f"{label}: no published measurement of this class has been predicted out of sample; "
            "how far off the model is here is unknown",
        )
    e = entry.expected
    basis = (
        f"make validate: {e.rows} cross-validated and out-of-sample rows "
        f"({entry.cross_validated.rows} + {entry.out_of_sample.rows}) from {', '.join(entry.records)}"
    )
    return ModelError(
        system_class=system_class,
        label=label,
        median_pct=e.median_pct,
        p90_pct=e.p90_pct,
        rows=e.rows,
        basis=basis,
        text=f"{label}: predictions of published measurements were off by {e.median_pct:g}% (median) and "
        f"{e.p90_pct:g}% (90th percentile) over {e.rows} rows not fitted to",
    )


def result_calibration(configuration: Any) -> ResultCalibration:
    """The configuration's parts (``estimate (user)`` throughout when it states none) and a line."""
    parts: ConfigurationCalibration | None = configuration.calibration
    if parts is None:
        u = user_estimate("configuration given whole, without a calibration")
        parts = ConfigurationCalibration(drives=u, controller=u, cache=u, ports=u)
    estimated = [n for n in PARTS if parts.part(n).status.is_estimate]
    words = []
    for n in PARTS:
        p = parts.part(n)
        keys = "".join(f" [{k}]" for k in p.sources)
        words.append(f"{n}: {p.status.value}{keys}")
    return ResultCalibration(parts=parts, estimated=estimated, text="; ".join(words))


class Assessment(Output):
    """What a result rests on and how far off it may be."""

    calibration: ResultCalibration
    model_error: ModelError


def assess(configuration: Any, workloads: list[Any], table: ModelErrorTable | None) -> Assessment:
    """The calibration of ``configuration``'s parts and the expected error of its class of system."""
    return Assessment(
        calibration=result_calibration(configuration),
        model_error=model_error(classify(configuration, workloads), table),
    )


MODEL_ERROR_FILE = Path("calibration") / "model_error.yaml"
"""Where the model-error table ships, relative to the fixtures folder (written by ``make model-error``)."""


def load_model_error_table(path: Path) -> ModelErrorTable | None:
    """The shipped table at ``path`` (``fixtures/calibration/model_error.yaml``); None when absent.
    A malformed file raises ``ValueError`` naming it (the API fails at start)."""
    if not path.is_file():
        return None
    try:
        return ModelErrorTable.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    except (ValueError, yaml.YAMLError) as exc:
        raise ValueError(f"{path}: {exc}") from exc


# ---- conservative by default: estimated parts at the pessimistic end of their class's band --------


class CalibrationMargin(StrEnum):
    """How estimated parts are sized: at the pessimistic end of their class's error band (the
    default), or as their records state them."""

    PESSIMISTIC = "pessimistic"
    AS_STATED = "as_stated"


class Margin(Output):
    """One estimated part taken at the pessimistic end of its class's error band."""

    part: str
    status: CalibrationStatus
    factor: float = Field(description="its costs and times multiplied, its rates divided, by this")
    band_pct: float = Field(description="the 90th-percentile |error| the factor comes from [%]")
    basis: str
    text: str


CONTROLLER_COSTS = (
    "cpu_us_read_hit",
    "cpu_us_read_miss",
    "cpu_us_write",
    "cpu_us_per_kib",
    "cpu_us_per_backend_io",
)
CONTROLLER_RATES = ("max_iops", "max_mb_s", "backend_mb_s")
DRIVE_TIMES = (
    "avg_read_seek_ms",
    "avg_write_seek_ms",
    "track_to_track_ms",
    "read_latency_us",
    "write_latency_us",
)
DRIVE_RATES = ("media_rate_mb_s", "read_iops_4k", "write_iops_4k", "steady_write_iops_4k", "seq_write_mb_s")


def scaled_controller(ctrl: Any, f: float) -> Any:
    """A controller whose CPU costs are ``f`` times, and throughput ceilings ``1 / f`` times, its own."""
    changes = {k: getattr(ctrl, k) * f for k in CONTROLLER_COSTS}
    if ctrl.cpu_us_per_kib_written is not None:
        changes["cpu_us_per_kib_written"] = ctrl.cpu_us_per_kib_written * f
    changes.update({k: getattr(ctrl, k) / f for k in CONTROLLER_RATES if getattr(ctrl, k) is not None})
    return ctrl.model_copy(update=changes)


def scaled_drive(drive: Any, f: float) -> Any:
    """A drive whose seek and latency times are ``f`` times, and rates ``1 / f`` times, its own."""
    changes = {k: getattr(drive, k) * f for k in DRIVE_TIMES if getattr(drive, k) is not None}
    changes.update({k: getattr(drive, k) / f for k in DRIVE_RATES if getattr(drive, k) is not None})
    return drive.model_copy(update=changes)


def with_model_error(configuration: Any, f: float) -> Any:
    """Every controller and drive figure the model's error moves, moved by ``f`` (costs and times x f,
    rates / f): the uncertainty analyses' ``model_error_factor``."""
    if f == 1.0:
        return configuration
    return configuration.model_copy(
        update={
            "controller": scaled_controller(configuration.controller, f),
            "pools": [p.model_copy(update={"drive": scaled_drive(p.drive, f)}) for p in configuration.pools],
        }
    )


MIN_CLASS_ROWS = 5
"""Fewer cross-validated and out-of-sample rows than this do not found a class's band alone."""


def margin_band(system_class: SystemClass, table: ModelErrorTable | None) -> tuple[float, str] | None:
    """The 90th-percentile |error| [%] estimated parts of ``system_class`` are sized at, and its
    basis: the class's own cross-validated and out-of-sample rows when there are at least
    :data:`MIN_CLASS_ROWS`; with fewer, the larger of their 90th percentile and every class's rows
    pooled (two rows that happened to agree are no evidence of a small error); with none, the
    pooled rows. None without a table."""
    if table is None:
        return None
    own = table.classes.get(system_class)
    pooled = table.overall
    has_pooled = pooled is not None and bool(pooled.rows) and pooled.p90_pct is not None
    if own is not None and own.expected.rows and own.expected.p90_pct is not None:
        rows, p90 = own.expected.rows, own.expected.p90_pct
        if rows >= MIN_CLASS_ROWS or not has_pooled:
            return p90, f"the 90th percentile of {rows} {system_class.label} rows"
        assert pooled is not None and pooled.p90_pct is not None
        if p90 >= pooled.p90_pct:
            return p90, f"the 90th percentile of {rows} {system_class.label} rows (above every class's)"
        return pooled.p90_pct, (
            f"only {rows} {system_class.label} rows (90th percentile {p90:g}%): the 90th percentile of all "
            f"{pooled.rows} rows of every class"
        )
    if not has_pooled:
        return None
    assert pooled is not None and pooled.p90_pct is not None
    return pooled.p90_pct, (
        f"no published row tests {system_class.label}: the 90th percentile of all {pooled.rows} rows of every class"
    )


def band_factor(band_pct: float) -> float:
    """The factor an estimated part is sized at: ``1 + p90 / 100`` of its class's band [%]."""
    return 1.0 + band_pct / 100.0


def margin_parts(
    configuration: Any, workloads: list[Any], table: ModelErrorTable | None
) -> tuple[float, str, dict[str, CalibrationStatus]] | None:
    """The band [%] and its basis the estimated parts of ``configuration`` are sized at
    (:func:`margin_band` of its class), and which parts are estimated (``controller``, ``drives``)
    with their status; None without a band."""
    band = margin_band(classify(configuration, workloads), table)
    if band is None:
        return None
    parts = result_calibration(configuration).parts
    estimated = {
        name: part.status
        for name, part in (("controller", parts.controller), ("drives", parts.drives))
        if part.status.is_estimate
    }
    return band[0], band[1], estimated


def with_margins(
    configuration: Any, workloads: list[Any], table: ModelErrorTable | None
) -> tuple[Any, list[Margin]]:
    """``configuration`` with each estimated controller and drive part at the pessimistic end of
    its class's band: CPU costs and drive times x f, throughput ceilings and drive rates / f, with
    ``f = 1 + p90 / 100`` (:func:`margin_band`). Caches and ports are left as stated (a port count is
    what is bought; the cache's hit ratio has its own uncertainty analysis). The configuration's
    ``calibration`` is kept, so its parts still read as the records state them."""
    got = margin_parts(configuration, workloads, table)
    if got is None:
        return configuration, []
    pct, basis, estimated = got
    f = band_factor(pct)
    margins: list[Margin] = []
    update: dict[str, Any] = {}
    if "controller" in estimated:
        update["controller"] = scaled_controller(configuration.controller, f)
        margins.append(
            Margin(
                part="controller",
                status=estimated["controller"],
                factor=round(f, 4),
                band_pct=pct,
                basis=basis,
                text=f"controller ({estimated['controller'].value}): CPU costs x {f:.3g} and throughput ceilings / {f:.3g}, "
                f"the pessimistic end of the model's error ({basis}: {pct:g}%)",
            )
        )
    if "drives" in estimated:
        update["pools"] = [
            p.model_copy(update={"drive": scaled_drive(p.drive, f)}) for p in configuration.pools
        ]
        margins.append(
            Margin(
                part="drives",
                status=estimated["drives"],
                factor=round(f, 4),
                band_pct=pct,
                basis=basis,
                text=f"drives ({estimated['drives'].value}): seek and latency x {f:.3g}, media rates and IOPS "
                f"ratings / {f:.3g}, the pessimistic end of the model's error ({basis}: {pct:g}%)",
            )
        )
    return (configuration.model_copy(update=update) if update else configuration), margins


ResultCalibration.model_rebuild()
Assessment.model_rebuild()


def without_margins(sized: Any, original: Any) -> Any:
    """A configuration sized with margins, with the original's controller and drive figures back
    (its counts, nodes and cache as sized): what the user buys, read as its records state it."""
    ctrl_fields = (*CONTROLLER_COSTS, *CONTROLLER_RATES, "cpu_us_per_kib_written")
    ctrl = sized.controller.model_copy(update={k: getattr(original.controller, k) for k in ctrl_fields})
    pools = [
        p.model_copy(update={"drive": o.drive}) if p.name == o.name else p
        for p, o in zip(sized.pools, original.pools, strict=False)
    ]
    return sized.model_copy(update={"controller": ctrl, "pools": pools})
