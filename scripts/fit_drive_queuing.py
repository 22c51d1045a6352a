"""Fit the command-queuing gain of each drive class to the published drive-level figures.

    .venv/bin/python scripts/fit_drive_queuing.py           # print the fit next to engine.yaml
    .venv/bin/python scripts/fit_drive_queuing.py --write   # and rewrite fixtures/calibration/engine.yaml

For every class that records of ``fixtures/validation/drive_queue_depth.yaml`` name in ``fit_for``,
fits ``gain_max`` (:func:`models.calibration.fit_command_queuing`, ``q_half`` held at the value
engine.yaml ships: each record holds one queued figure, which fixes one parameter) to those
records, each priced with its catalog drive's unqueued full-stroke service time
(:func:`models.validation.drive_queue_depth.queue_curve`). ``--write`` replaces that class's
``gain_max`` in engine.yaml and keeps every other line. A class no record names keeps its values
(``sas_fc``: fitted to the array-level curves by ``scripts/fit_calibration.py``; ``ssd``: no
positioning to reorder, gain 0 by definition).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import yaml

from models.calibration import fit_command_queuing
from models.catalog import load_catalog
from models.validation import ValidationContext
from models.validation.drive_queue_depth import engine_parameters, queue_curve
from models.validation.runner import load_yaml_dir

ROOT = Path(__file__).resolve().parent.parent
ENGINE_YAML = ROOT / "fixtures/calibration/engine.yaml"
RECORDS = ROOT / "fixtures/validation/drive_queue_depth.yaml"


def fit_classes(ctx: ValidationContext) -> dict[str, tuple[float, list[str]]]:
    """``{class: (fitted gain_max, ids of the records fitted to)}`` for every class a record names."""
    records = yaml.safe_load(RECORDS.read_text(encoding="utf-8"))["records"]
    params = engine_parameters(ctx)
    out: dict[str, tuple[float, list[str]]] = {}
    classes = sorted({c for r in records for c in r.get("fit_for", [])})
    for cls in classes:
        members = [r for r in records if cls in r.get("fit_for", [])]
        held = getattr(params.command_queuing, cls)
        fitted = fit_command_queuing(
            [queue_curve(r, ctx) for r in members], held.queue_limit, q_half=held.q_half
        )
        out[cls] = (fitted.gain_max, [r["id"] for r in members])
    return out


def rewrite(text: str, fits: dict[str, tuple[float, list[str]]]) -> str:
    """engine.yaml with each fitted class's ``gain_max`` replaced in place."""
    for cls, (gain, _) in fits.items():
        pattern = rf"^(    {cls}:\s+\{{gain_max: )[0-9.]+"
        text, n = re.subn(pattern, rf"\g<1>{gain:.3g}", text, count=1, flags=re.M)
        if n != 1:
            raise SystemExit(f"engine.yaml: no command_queuing line for class {cls!r}")
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write", action="store_true", help="rewrite fixtures/calibration/engine.yaml")
    args = ap.parse_args(argv)
    ctx = ValidationContext(
        calibration=load_yaml_dir(ROOT / "fixtures/calibration"), catalog=load_catalog(ROOT / "fixtures")
    )
    fits = fit_classes(ctx)
    shipped = engine_parameters(ctx).command_queuing
    for cls, (gain, ids) in fits.items():
        now = getattr(shipped, cls)
        print(
            f"{cls}: gain_max {gain:.3g} (engine.yaml {now.gain_max:.3g}), q_half {now.q_half:.3g} held; fitted to {', '.join(ids)}"
        )
    if args.write:
        ENGINE_YAML.write_text(rewrite(ENGINE_YAML.read_text(encoding="utf-8"), fits), encoding="utf-8")
        print(f"wrote {ENGINE_YAML.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
