"""What an engine call needs besides its inputs: catalog, calibration and custom hardware.

:class:`SizingContext` resolves a :class:`CatalogReference` into an engine :class:`Configuration`
(the engine's :func:`models.catalog.resolve_reference`, with custom hardware records), runs engine functions with their errors
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
from typing import Protocol, TypeVar

from backend.app.catalog.service import CatalogStore
from backend.app.core.errors import ENGINE_ERROR, CatalogUnavailable, InvalidInput, Loc
from backend.app.hardware.schemas import ArrayRecord, HardwareRecord
from models.base import InputError
from models.catalog import (
    ArrayModel,
    Calibration,
    CatalogReference,
    CountMode,
    layout_for_scheme,
    resolve_reference,
)
from models.configuration import Configuration
from models.controller import ControllerSpec
from models.drives import DriveSpec
from models.margins import Margining
from models.parameters import EngineParameters
from models.provenance import (
    CalibrationMargin,
    Margin,
    ModelErrorTable,
    as_custom,
    classify,
    margin_band,
)
from models.support import as_hypothetical, check_offered
from models.whatif.uncertainty import Uncertainty, calibrated_uncertainty, with_model_error_band
from models.workload import Phase, Workload

logger = logging.getLogger(__name__)

T = TypeVar("T")

BODY: Loc = ("body",)

_CONFIGURATION_FIELDS = frozenset(Configuration.model_fields)
_BODY_FIELDS = frozenset(
    {
        "workloads",
        "window",
        "degraded",
        "flash_cache_options_gb",
        "max_drives",
        "relax",
        "confidence_pct",
        "samples",
    }
)
_WORKLOAD_FIELDS = frozenset(Workload.model_fields) | frozenset(Phase.model_fields)


class HardwareSource(Protocol):
    def get(self, record_id: str) -> HardwareRecord | None: ...


def _parts(field: str) -> Loc:
    return tuple(int(p) if p.isdigit() else p for p in field.split(".") if p)


def engine_loc(field: str, configuration: Loc | None = None, *, reference: bool = False) -> Loc:
    """Request path of an engine ``InputError.field``.

    ``workloads.1.pool`` and request fields (``window``, ``degraded``) are body fields; a workload
    or phase field the engine names without an index goes to ``workloads``. Configuration fields
    go under ``configuration``: inside a full configuration at their own path, inside a catalog
    reference at the reference field they come from (``drive_count``, ``group_width``; the pool's
    ``pools.0.raid`` is its ``group_width``, ``pools.0.drive_count`` its ``drive_count``), else at
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
        if head == "pools" and len(parts) > 2:  # the one pool a reference builds: its layout, its drives
            head = {"raid": "group_width"}.get(str(parts[2]), str(parts[2]))
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

    def uncertainty(self, configuration: Configuration, workloads: list[Workload]) -> Uncertainty:
        """The engine's default ranges with layout aging from the calibration, and the model's own
        error as the band of this class of system (the ranges and the chance of meeting every target
        take the configuration as stated: the band replaces the pessimistic margin)."""
        band = margin_band(classify(configuration, workloads), self.model_errors)
        return with_model_error_band(
            calibrated_uncertainty(self.calibration), None if band is None else band[0]
        )

    def margined(
        self, configuration: Configuration, workloads: list[Workload], margin: CalibrationMargin
    ) -> tuple[Configuration, list[Margin]]:
        """The configuration to compute with: estimated parts at the pessimistic end of their band
        (:func:`models.provenance.with_margins`) unless ``margin`` is as_stated."""
        return self.margining(margin).run_on(configuration, workloads)

    def margining(self, margin: CalibrationMargin = CalibrationMargin.AS_STATED) -> Margining:
        """How the engine computes for a request's ``calibration_margin`` (:mod:`models.margins`); its
        :meth:`~models.margins.Margining.assessed` says what any answer rests on."""
        return Margining(self.model_errors, margin)

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

    def _custom(self, record_id: str) -> ArrayModel | DriveSpec | ControllerSpec | None:
        """The spec of the custom hardware record ``record_id`` (remembered as used), None if none;
        its parts without a source read as ``estimate (user)`` (:func:`models.provenance.as_custom`)."""
        record = self._record(record_id)
        return None if record is None else as_custom(record.spec)

    def _build(
        self, ref: CatalogReference, loc: Loc, count: CountMode, scheme_loc: Loc | None
    ) -> Configuration:
        """:func:`models.catalog.resolve_reference` with its errors at the reference's fields."""
        try:
            return resolve_reference(ref, self.catalog.get(), self.calibration, count, self._custom)
        except InputError as exc:
            if exc.field == "raid_scheme" and scheme_loc is not None:
                at = scheme_loc
            else:
                at = loc + (exc.field,) if exc.field else loc
            raise InvalidInput.at(at, readable(exc.reason)) from exc
        except (ValueError, ArithmeticError) as exc:
            raise numerical_failure(exc) from exc


__all__ = ["CountMode", "HardwareSource", "SizingContext", "engine_loc", "layout_for_scheme", "readable"]
