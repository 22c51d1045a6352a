"""Engine calibration: fitted :class:`EngineParameters` and the write-anywhere layout ages.

:func:`load_calibration` reads ``<fixtures>/calibration/engine.yaml`` (the caller passes the
fixtures folder, reads it once and holds the :class:`Calibration`; the API at start, the CLI per
run)::

    version: 2026-11-21
    parameters:          # EngineParameters fields (fitted values; the rest keep their defaults)
      ncq_q_half: 6.43
    layouts:             # WAFL layout ages, selectable as ``layout`` in a catalog reference
      fresh:    {full_stripe_share: 0.906, scatter: 0.374}
      moderate: {full_stripe_share: 0.802, scatter: 0.412}
      aged:     {full_stripe_share: 0.656, scatter: 0.527}
    default_layout: moderate   # what a RAID-DP/RAID-TEC configuration gets when it names none

Other top-level keys (``setups``: host set-ups of published tests, used by ``make validate``) are
not the engine's. A malformed file raises :class:`CalibrationError` (the API stops at start: fail
fast); a missing file means engine defaults and no layout ages.
"""

from __future__ import annotations

import hashlib
from enum import StrEnum
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from models.base import InputError
from models.parameters import EngineParameters

CALIBRATION_FILE = Path("calibration") / "engine.yaml"


class Layout(StrEnum):
    """Age of a WAFL layout (RAID-DP/RAID-TEC): how well free space still takes full stripes."""

    FRESH = "fresh"
    MODERATE = "moderate"
    AGED = "aged"


class LayoutCalibration(BaseModel):
    """``RaidLayout.full_stripe_share`` and ``RaidLayout.scatter`` for one layout age."""

    model_config = ConfigDict(frozen=True, extra="ignore", allow_inf_nan=False)

    full_stripe_share: float = Field(ge=0.0, le=1.0)
    scatter: float = Field(ge=0.0, le=1.0)


class Calibration(BaseModel):
    """What the API passes to the engine, and where it came from (stamped on saved reports)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    version: str | None = Field(default=None, description="calibration release")
    parameters: EngineParameters = Field(default_factory=EngineParameters)
    layouts: dict[Layout, LayoutCalibration] = Field(default_factory=dict)
    default_layout: Layout | None = Field(
        default=None, description="layout age of a WAFL pool that names none"
    )
    file: str | None = Field(default=None, description="calibration file, relative to the fixtures folder")
    sha256: str | None = Field(default=None, description="digest of the calibration file")

    def wafl_layout(self, layout: Layout | None) -> tuple[Layout | None, float | None, float]:
        """(layout age, full-stripe share, scatter) of a RAID-DP/RAID-TEC pool that names ``layout``.

        The named age, else the calibrated default age; (None, None, 0) (the engine defaults) when
        neither is set. Raises :class:`InputError` at ``layout`` for an age the file does not have.
        """
        age = layout or self.default_layout
        if age is None:
            return None, None, 0.0
        calibrated = self.layouts.get(age)
        if calibrated is None:
            have = ", ".join(sorted(self.layouts)) or "none"
            raise InputError(
                "layout",
                f"layout {age.value!r} is not calibrated (fixtures/calibration/engine.yaml has: {have})",
            )
        return age, calibrated.full_stripe_share, calibrated.scatter


class CalibrationError(ValueError):
    """The calibration file exists but is not valid; the message names the field."""


def load_calibration(fixtures_dir: Path) -> Calibration:
    """The calibration under ``fixtures_dir``; engine defaults when there is no calibration file."""
    path = fixtures_dir / CALIBRATION_FILE
    if not path.is_file():
        return Calibration()
    raw_bytes = path.read_bytes()
    try:
        raw: Any = yaml.safe_load(raw_bytes)
    except yaml.YAMLError as exc:
        raise CalibrationError(f"{path}: invalid YAML: {exc}") from exc
    if not isinstance(raw, dict):
        raise CalibrationError(f"{path}: expected a mapping with 'parameters' and 'layouts'")
    try:
        version = raw.get("version")
        default = raw.get("default_layout")
        return Calibration(
            version=None if version is None else str(version),  # YAML reads 2026-11-21 as a date
            default_layout=None if default is None else Layout(default),
            parameters=EngineParameters.model_validate(raw.get("parameters") or {}),
            layouts={
                Layout(name): LayoutCalibration.model_validate(entry)
                for name, entry in (raw.get("layouts") or {}).items()
            },
            file=CALIBRATION_FILE.as_posix(),
            sha256=hashlib.sha256(raw_bytes).hexdigest(),
        )
    except (ValidationError, ValueError) as exc:
        raise CalibrationError(f"{path}: {exc}") from exc
