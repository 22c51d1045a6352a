"""What an engine call needs besides its inputs: catalog, calibration and custom hardware.

:class:`SizingContext` resolves a :class:`CatalogReference` into an engine :class:`Configuration`
(``build_configuration`` with the calibrated layout), runs engine functions with their errors
mapped to request field paths, and remembers which configurations and custom hardware records a
request used (a saved report keeps copies of them).

Engine errors become 422s: ``InputError(field, reason)`` at the request path its ``field`` names
(``pools.0.drive_count`` under the configuration, ``workloads.1.pool`` under the workloads); a
numerical failure on extreme inputs (overflow, a non-finite figure) at the body, with a message;
the error handler then places it at the most extreme number the client sent
(``core.errors.invalid_input``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Literal, Protocol, TypeVar

from pydantic import BaseModel

from backend.app.calibration import Calibration, Layout
from backend.app.catalog.service import CatalogStore
from backend.app.core.errors import ENGINE_ERROR, CatalogUnavailable, InvalidInput, Loc
from backend.app.engine.inputs import CatalogReference
from backend.app.hardware.schemas import ArrayRecord, ControllerRecord, DriveRecord, HardwareRecord
from models.base import InputError
from models.catalog import ArrayModel, build_configuration, raid_scheme_records
from models.cluster import node_label
from models.configuration import Configuration
from models.drives import DriveSpec
from models.naming import configuration_name
from models.parameters import EngineParameters
from models.provenance import ModelErrorTable, assess, user_estimate
from models.raid import WAFL_SCHEMES, RaidLayout, RaidScheme
from models.support import as_hypothetical, check_offered, offering_array
from models.workload import Phase, Workload

logger = logging.getLogger(__name__)

T = TypeVar("T")
R = TypeVar("R", bound=BaseModel)

BODY: Loc = ("body",)

WAFL = WAFL_SCHEMES
"""Write-anywhere with parity: the layout age sets the full-stripe share and the scatter."""

CountMode = Literal["entry", "family", "either"]
"""What ``drive_count: null`` in a catalog reference means: the array's entry configuration
(evaluate, curves), the count to find (size; a given count is an error), or either (compare)."""

_CONFIGURATION_FIELDS = frozenset(Configuration.model_fields)
_BODY_FIELDS = frozenset({"workloads", "window", "degraded", "flash_cache_options_gb", "max_drives"})
_WORKLOAD_FIELDS = frozenset(Workload.model_fields) | frozenset(Phase.model_fields)
_REFERENCE_FIELD = {"drive": "drive_id", "ports": "port_option", "raid_scheme": "raid_scheme"}


class HardwareSource(Protocol):
    def get(self, record_id: str) -> HardwareRecord | None: ...


def _parts(field: str) -> Loc:
    return tuple(int(p) if p.isdigit() else p for p in field.split(".") if p)


def engine_loc(field: str, configuration: Loc | None = None, *, reference: bool = False) -> Loc:
    """Request path of an engine ``InputError.field``.

    ``workloads.1.pool`` and request fields (``window``, ``degraded``) are body fields; a workload
    or phase field the engine names without an index goes to ``workloads``. Configuration fields
    go under ``configuration``: inside a full configuration at their own path, inside a catalog
    reference at the reference field they come from (``drive_count``, ``group_width``), else at
    the reference itself.
    """
    parts = _parts(field)
    head = parts[0] if parts else None
    if head is None or head in _BODY_FIELDS:
        return BODY + parts
    if head in _WORKLOAD_FIELDS:
        return BODY + ("workloads",)
    if configuration is None:
        return BODY + parts
    if reference:
        return configuration + (head,) if head in CatalogReference.model_fields else configuration
    return configuration + parts if head in _CONFIGURATION_FIELDS else configuration


_PYDANTIC_LINE = re.compile(r"^\s+(?:Value error, )?(?P<msg>.+?)(?: \[type=.*)?$")


def readable(reason: str) -> str:
    """An engine reason in one line: a pydantic error report keeps just its messages."""
    if "validation error" not in reason.split("\n", 1)[0]:
        return reason
    messages = [
        m.group("msg")
        for line in reason.splitlines()[1:]
        if line.startswith("  ") and not line.startswith("    ") and (m := _PYDANTIC_LINE.match(line))
    ]
    return "; ".join(messages) or reason


def numerical_failure(exc: Exception) -> InvalidInput:
    logger.warning("engine failed on extreme inputs: %s: %s", type(exc).__name__, exc, exc_info=exc)
    first_line = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else type(exc).__name__
    return InvalidInput.at(
        BODY,
        f"the engine cannot evaluate these inputs ({first_line}); check for extreme values",
        ENGINE_ERROR,
    )


_DERIVED_MAX = 1024  # configurations remembered per loaded catalog


class SizingContext:
    """Catalog + calibration + custom hardware for one request (or one CLI run)."""

    def __init__(
        self,
        catalog: CatalogStore,
        calibration: Calibration,
        hardware: HardwareSource,
        model_errors: ModelErrorTable | None = None,
    ) -> None:
        self.catalog = catalog
        self.calibration = calibration
        self.hardware = hardware
        self.model_errors = model_errors
        self.used_hardware: dict[str, HardwareRecord] = {}
        self.configurations: list[Configuration] = []
        self._record_lookups = 0

    @property
    def params(self) -> EngineParameters:
        return self.calibration.parameters

    def assessed(self, result: R, configuration: Configuration, workloads: list[Workload]) -> R:
        """``result`` with what it rests on and how far off it may be (:func:`models.provenance.assess`)."""
        found = assess(configuration, workloads, self.model_errors)
        return result.model_copy(update={"calibration": found.calibration, "model_error": found.model_error})

    # ---- running the engine

    def run(self, call: Callable[[], T], configuration: Loc | None = None, *, reference: bool = False) -> T:
        """``call()`` with engine errors raised as :class:`InvalidInput` at request paths."""
        try:
            return call()
        except InputError as exc:
            raise InvalidInput.at(
                engine_loc(exc.field, configuration, reference=reference), readable(exc.reason)
            ) from exc
        except (ValueError, ArithmeticError) as exc:  # incl. pydantic ValidationError of a non-finite output
            raise numerical_failure(exc) from exc

    def catalog_array(self, array_id: str | None) -> ArrayModel | None:
        """The catalog array ``array_id`` names, if any (None, not an error, when the catalog is down)."""
        if array_id is None:
            return None
        try:
            return self.catalog.get().arrays.get(array_id)
        except CatalogUnavailable:
            return None

    # ---- resolving configurations

    def configuration(
        self,
        value: Configuration | CatalogReference,
        loc: Loc,
        count: CountMode = "entry",
        scheme_loc: Loc | None = None,
    ) -> Configuration:
        """The engine configuration for ``value`` (recorded in :attr:`configurations`).

        A full configuration gets the support checks a catalog reference gets from its array
        (drive, RAID scheme, group width: a 422 at the pool field) unless it is marked
        ``hypothetical``, which then says so in its name.
        """
        config = self.resolve(value, loc, count, scheme_loc)
        self.configurations.append(config)
        return config

    def resolve(
        self,
        value: Configuration | CatalogReference,
        loc: Loc,
        count: CountMode = "entry",
        scheme_loc: Loc | None = None,
    ) -> Configuration:
        """:meth:`configuration` without recording it (a base that other configurations derive from)."""
        if isinstance(value, Configuration):
            return self.offered(value, loc)
        return self._built(value, loc, count, scheme_loc)

    def drive_id(self, drive: DriveSpec) -> str | None:
        """The id under which the catalog or a custom drive record knows ``drive`` (None if neither)."""
        if drive.id in self.catalog.get().drives or self._record(drive.id) is not None:
            return drive.id
        return None

    def known_array(self, array_id: str | None) -> ArrayModel | None:
        """The catalog or custom array ``array_id`` names; None when it names none (or is None)."""
        if array_id is None:
            return None
        array = self.catalog_array(array_id)
        if array is not None:
            return array
        record = self._record(array_id)
        return record.spec if isinstance(record, ArrayRecord) else None

    def offered(self, config: Configuration, loc: Loc) -> Configuration:
        """``config`` if its array offers it; labelled when it is a hypothetical; else a 422 at the pool field."""
        array = self.known_array(config.array_id)
        if array is None:
            return config
        if config.hypothetical:
            return as_hypothetical(config.model_copy(update={"hypothetical": False}), array)
        try:
            check_offered(array, config)
        except InputError as exc:
            raise InvalidInput.at(loc + _parts(exc.field), exc.reason) from exc
        return config

    def _built(
        self, ref: CatalogReference, loc: Loc, count: CountMode, scheme_loc: Loc | None
    ) -> Configuration:
        """:meth:`_build`, remembered per loaded catalog when only catalog records were used.

        A configuration is a pure function of the reference, the catalog and the calibration;
        custom hardware can change between requests, so those are never remembered. ``loc`` and
        ``scheme_loc`` only place error messages, and errors are never remembered.
        """
        derived = self.catalog.derived
        key = ("configuration", ref, count)
        hit = derived.get(key)
        if isinstance(hit, tuple) and hit[0] is self.calibration:
            config: Configuration = hit[1]
            return config
        lookups = self._record_lookups
        config = self._build(ref, loc, count, scheme_loc)
        if self._record_lookups == lookups:
            if len(derived) >= _DERIVED_MAX:
                derived.clear()
            derived[key] = (self.calibration, config)
        return config

    def _record(self, record_id: str) -> HardwareRecord | None:
        self._record_lookups += 1
        record = self.hardware.get(record_id)
        if record is not None:
            self.used_hardware[record.id] = record
        return record

    def _array(self, array_id: str, loc: Loc) -> ArrayModel:
        array = self.catalog.get().arrays.get(array_id)
        if array is not None:
            return array
        record = self._record(array_id)
        if isinstance(record, ArrayRecord):
            return record.spec
        raise InvalidInput.at(loc, f"unknown array {array_id!r} (not in the catalog or custom arrays)")

    def _drive(self, drive_id: str, loc: Loc) -> DriveSpec:
        drive = self.catalog.get().drives.get(drive_id)
        if drive is not None:
            return drive
        record = self._record(drive_id)
        if isinstance(record, DriveRecord):
            return record.spec
        raise InvalidInput.at(loc, f"unknown drive {drive_id!r} (not in the catalog or custom drives)")

    def _layout(
        self, layout: Layout | None, scheme: RaidScheme, loc: Loc
    ) -> tuple[Layout | None, float | None, float]:
        """(layout age, full-stripe share, scatter) for ``scheme``.

        WAFL schemes get the named age, else the calibration's default age; other schemes, and
        WAFL without any calibration, get the engine defaults (None, 0).
        """
        if scheme not in WAFL:
            return None, None, 0.0
        age = layout or self.calibration.default_layout
        if age is None:
            return None, None, 0.0
        calibrated = self.calibration.layouts.get(age)
        if calibrated is None:
            have = ", ".join(sorted(self.calibration.layouts)) or "none"
            raise InvalidInput.at(
                loc, f"layout {age.value!r} is not calibrated (fixtures/calibration/engine.yaml has: {have})"
            )
        return age, calibrated.full_stripe_share, calibrated.scatter

    def _build(
        self, ref: CatalogReference, loc: Loc, count: CountMode, scheme_loc: Loc | None
    ) -> Configuration:
        if count == "family" and ref.drive_count is not None:
            raise InvalidInput.at(
                loc + ("drive_count",),
                "must be null: sizing finds the drive count (use /evaluate for a given count)",
            )
        offered = self._array(ref.array_id, loc + ("array_id",))
        array = offered
        drive_id = ref.drive_id or array.default_drive or (array.drives[0] if array.drives else None)
        if drive_id is None:
            raise InvalidInput.at(
                loc + ("drive_id",), f"array {array.id!r} has no default drive: give drive_id"
            )
        drive = self._drive(drive_id, loc + ("drive_id",))
        if ref.controller_id is not None:
            record = self._record(ref.controller_id)
            if not isinstance(record, ControllerRecord):
                raise InvalidInput.at(
                    loc + ("controller_id",), f"unknown custom controller {ref.controller_id!r}"
                )
            # a custom controller states its own calibration, or is estimate (user)
            spec = record.spec
            if spec.calibration is None:
                spec = spec.model_copy(update={"calibration": user_estimate()})
            array = array.model_copy(update={"controller": spec})
        scheme = ref.raid_scheme or array.default_raid
        if ref.hypothetical:
            array = offering_array(array, scheme, drive)
        age, share, scatter = self._layout(ref.layout, scheme, loc + ("layout",))

        def field_loc(field: str) -> Loc:
            name = _REFERENCE_FIELD.get(field, field)
            if name == "raid_scheme" and scheme_loc is not None:
                return scheme_loc
            return loc + (name,) if name in CatalogReference.model_fields else loc

        try:
            config = build_configuration(
                array,
                drive,
                scheme,
                group_width=ref.group_width,
                drive_count=ref.drive_count,
                flash_cache_gb=ref.flash_cache_gb,
                layout_full_stripe_share=share,
                port_option=ref.port_option,
                nodes=ref.nodes,
            )
        except InputError as exc:
            raise InvalidInput.at(field_loc(exc.field), readable(exc.reason)) from exc
        except (ValueError, ArithmeticError) as exc:
            raise numerical_failure(exc) from exc

        pool = config.pools[0]
        layout = pool.raid.model_copy(update={"scatter": scatter}) if scatter else pool.raid
        family = ref.drive_count is None and count != "entry"
        model = array.model
        if config.cluster is not None:
            model += f", {node_label(config.cluster, config.cluster.nodes)}"
        name = ref.name or configuration_name(
            model,
            drive.name,
            layout,
            None if family else pool.drive_count,
            age.value if age is not None else None,
        )
        pool = pool.model_copy(
            update={
                "raid": layout,
                "drive_count": None if family else pool.drive_count,
                "drive_fraction_used": ref.drive_fraction_used,
                "planned_fill_pct": ref.planned_fill_pct,
            }
        )
        update: dict[str, object] = {"pools": [pool], "name": name}
        if ref.headroom is not None:
            update["headroom"] = ref.headroom
        built = config.model_copy(update=update)
        return as_hypothetical(built, offered) if ref.hypothetical else built


def layout_for_scheme(scheme: RaidScheme, old: RaidLayout, array: ArrayModel | None) -> RaidLayout:
    """``old`` switched to ``scheme``: the array's default width for it, else the engine's typical one.

    The layout age (full-stripe share and scatter) carries over between WAFL schemes only.
    """
    option = None
    if array is not None:
        option = next((r for r in array.raid if r.scheme is scheme), None)
    share = old.full_stripe_share if scheme in WAFL and old.scheme in WAFL else None
    scatter = old.scatter if scheme in WAFL and old.scheme in WAFL else 0.0
    if option is not None:
        layout = option.layout(option.default_width, share)
    else:
        typical = raid_scheme_records()[scheme].typical_width
        if scheme is RaidScheme.ERASURE:
            layout = RaidLayout(
                scheme=scheme, group_width=typical, ec_data=typical - 2, ec_parity=2, full_stripe_share=share
            )
        else:
            layout = RaidLayout(scheme=scheme, group_width=typical, full_stripe_share=share)
    return layout.model_copy(update={"scatter": scatter})
