"""Engine calibration: fitted :class:`EngineParameters` and the write-anywhere layout ages.

Read once at start from ``<fixtures>/calibration/engine.yaml`` when that file exists::

    parameters:          # EngineParameters fields (fitted values; the rest keep their defaults)
      ncq_gain_max: 1.0
    layouts:             # write-anywhere layout ages, selectable as ``layout`` in a catalog reference
      fresh:    {full_stripe_share: 0.9, scatter: 0.0}
      moderate: {full_stripe_share: 0.6, scatter: 0.3}
      aged:     {full_stripe_share: 0.3, scatter: 0.7}

Other top-level keys (``description``, ``source``, notes on what was fitted) are documentation. A
malformed file stops the app at start (fail fast); a missing file means engine defaults and no
layout ages.
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
    """Age of a write-anywhere layout (WAFL, ZFS): how well free space still takes full stripes."""

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

    parameters: EngineParameters = Field(default_factory=EngineParameters)
    layouts: dict[Layout, LayoutCalibration] = Field(default_factory=dict)
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
        return Calibration(
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
