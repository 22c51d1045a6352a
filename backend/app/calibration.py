"""Engine calibration: fitted :class:`EngineParameters` and the write-anywhere layout ages.

Read once at start from ``<fixtures>/calibration/engine.yaml`` when that file exists::

    version: 2026-11-21
    parameters:          # EngineParameters fields (fitted values; the rest keep their defaults)
      ncq_q_half: 6.43
    layouts:             # WAFL layout ages, selectable as ``layout`` in a catalog reference
      fresh:    {full_stripe_share: 0.906, scatter: 0.374}
      moderate: {full_stripe_share: 0.802, scatter: 0.412}
      aged:     {full_stripe_share: 0.656, scatter: 0.527}
    default_layout: moderate   # what a RAID-DP/RAID-TEC configuration gets when it names none

Other top-level keys (``setups``: host set-ups of published tests, used by ``make validate``) are
not the API's. A malformed file stops the app at start (fail fast); a missing file means engine
defaults and no layout ages.
"""

from __future__ import annotations

import hashlib
from enum import StrEnum
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

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
