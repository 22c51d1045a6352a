"""``python -m models.validation fixtures/validation``: predicted vs measured, gates enforced."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

from models.validation.runner import (
    MODEL_ERROR_FILE,
    class_errors,
    dump_model_error_table,
    format_class_table,
    format_report,
    model_error_table,
    rebuild_errors,
    run_all,
)


def _catalog_version(fixtures: Path) -> str | None:
    index = fixtures / "catalog" / "catalog.yaml"
    if not index.is_file():
        return None
    return str(yaml.safe_load(index.read_text(encoding="utf-8")).get("catalog_version"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.validation", description=__doc__)
    ap.add_argument("directory", type=Path, help="folder of validation records (YAML)")
    ap.add_argument(
        "--calibration", type=Path, default=None, help="calibration folder (default: ../calibration)"
    )
    ap.add_argument("--catalog", type=Path, default=None, help="catalog folder (default: ../catalog)")
    ap.add_argument(
        "--write-model-error",
        action="store_true",
        help="write the per-class errors to <fixtures>/calibration/model_error.yaml (the API's model_error)",
    )
    args = ap.parse_args(argv)
    rows = run_all(args.directory, args.calibration, args.catalog)
    print(format_report(rows))
    classes = class_errors(rows)
    print()
    print(format_class_table(classes, rebuild_errors(rows)))
    if args.write_model_error:
        fixtures = args.directory.parent
        table = model_error_table(rows, fixtures, _catalog_version(fixtures))
        (fixtures / MODEL_ERROR_FILE).write_text(dump_model_error_table(table), encoding="utf-8")
        print(f"\nwrote {fixtures / MODEL_ERROR_FILE}")
    failed = [r for r in rows if r.failed]
    gates = sum(1 for r in rows if r.gate)
    print(f"\nAll tables: {len(rows)} rows, {gates} gates, {len(failed)} gates failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
