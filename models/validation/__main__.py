"""``python -m models.validation fixtures/validation``: predicted vs measured, gates enforced."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from models.validation.runner import format_report, run_all


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.validation", description=__doc__)
    ap.add_argument("directory", type=Path, help="folder of validation records (YAML)")
    ap.add_argument(
        "--calibration", type=Path, default=None, help="calibration folder (default: ../calibration)"
    )
    ap.add_argument("--catalog", type=Path, default=None, help="catalog folder (default: ../catalog)")
    args = ap.parse_args(argv)
    rows = run_all(args.directory, args.calibration, args.catalog)
    print(format_report(rows))
    failed = [r for r in rows if r.failed]
    gates = sum(1 for r in rows if r.gate)
    print(f"\nAll tables: {len(rows)} rows, {gates} gates, {len(failed)} gates failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
