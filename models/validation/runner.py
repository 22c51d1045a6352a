"""Load validation records and calibration, run every registered handler, format the tables."""

from __future__ import annotations

import hashlib
import importlib
import pkgutil
import statistics
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

import models.validation as pkg
from models.explain import fmt
from models.provenance import (
    MODEL_ERROR_FILE,
    ClassErrors,
    ErrorSummary,
    ModelErrorTable,
    SystemClass,
    summarize_errors,
)
from models.validation import (
    BASES,
    CROSS_VALIDATED,
    CROSS_VALIDATORS,
    HANDLERS,
    IN_SAMPLE,
    OUT_OF_SAMPLE,
    REBUILD_CLASS,
    STANDARD_METHOD,
    Row,
    ValidationContext,
)

TITLES = {
    IN_SAMPLE: "In-sample rows: these measurements were used to fit the parameters the prediction uses",
    CROSS_VALIDATED: (
        "Cross-validated rows: every fitted parameter refitted without the row's curve, then the curve"
        " predicted (leave one curve out)"
    ),
    OUT_OF_SAMPLE: "Out-of-sample rows: measurements never used to fit anything",
    STANDARD_METHOD: "Standard method: the product's drive count next to the textbook count",
}


def _load_handlers() -> None:
    for mod in pkgutil.iter_modules(pkg.__path__):
        if mod.name not in {"runner", "__main__"}:
            importlib.import_module(f"{pkg.__name__}.{mod.name}")


def load_yaml_dir(directory: Path) -> dict[str, Any]:
    """Merge the top-level mappings of every ``*.yaml`` in ``directory`` (file stem -> content)."""
    out: dict[str, Any] = {}
    for f in sorted(directory.glob("*.yaml")):
        with f.open(encoding="utf-8") as fh:
            out[f.stem] = yaml.safe_load(fh)
    return out


def run_all(
    directory: Path, calibration_dir: Path | None = None, catalog_dir: Path | None = None
) -> list[Row]:
    """Run every record in ``directory`` through the handler for its file's ``kind``."""
    _load_handlers()
    calibration_dir = calibration_dir or directory.parent / "calibration"
    calibration = load_yaml_dir(calibration_dir) if calibration_dir.is_dir() else {}
    catalog = None
    catalog_dir = catalog_dir or directory.parent / "catalog"
    if catalog_dir.is_dir():
        try:
            from models.catalog import load_catalog  # the catalog is optional for validation
        except ImportError:  # pragma: no cover - during bootstrap only
            load_catalog = None  # type: ignore[assignment]
        if load_catalog is not None:
            catalog = load_catalog(catalog_dir.parent)
    ctx = ValidationContext(calibration=calibration, catalog=catalog)
    rows: list[Row] = []
    for name, doc in load_yaml_dir(directory).items():
        kind = doc.get("kind")
        if kind not in HANDLERS:
            raise SystemExit(f"{directory / name}.yaml: no handler for kind {kind!r}")
        records = doc.get("records", [])
        found: list[Row] = []
        for record in records:
            found.extend(HANDLERS[kind](record, ctx))
        if kind in CROSS_VALIDATORS:
            found.extend(CROSS_VALIDATORS[kind](records, ctx))
        # a row's class of system: the handler's (from the configuration it evaluated), else the record's
        classes = {r["id"]: str(r.get("system_class", "")) for r in records}
        rows.extend(
            r if r.system_class else replace(r, system_class=classes.get(r.record, "")) for r in found
        )
    return rows


CLASS_BASES = (IN_SAMPLE, CROSS_VALIDATED, OUT_OF_SAMPLE)
"""The bases summarized per class of system (the standard method compares no measurement)."""


def _numeric_errors(rows: list[Row]) -> list[float]:
    return [e for r in rows if r.expect is None and (e := r.error_pct) is not None]


def class_errors(rows: list[Row]) -> dict[SystemClass, ClassErrors]:
    """Per class of system: the error summary of each basis and the expected error (cross-validated
    and out-of-sample rows pooled: the rows no shipped value was fitted to)."""
    unknown = (
        {r.system_class for r in rows if r.basis in CLASS_BASES}
        - {c.value for c in SystemClass}
        - {REBUILD_CLASS}
    )
    if unknown:
        missing = sorted({r.record for r in rows if r.system_class in unknown and r.basis in CLASS_BASES})
        raise ValueError(f"validation rows without a known system_class {sorted(unknown)}: records {missing}")
    out: dict[SystemClass, ClassErrors] = {}
    for cls in SystemClass:
        mine = [r for r in rows if r.system_class == cls.value and r.basis in CLASS_BASES]
        by = {b: [r for r in mine if r.basis == b] for b in CLASS_BASES}
        held_out = by[CROSS_VALIDATED] + by[OUT_OF_SAMPLE]
        out[cls] = ClassErrors(
            in_sample=summarize_errors(_numeric_errors(by[IN_SAMPLE])),
            cross_validated=summarize_errors(_numeric_errors(by[CROSS_VALIDATED])),
            out_of_sample=summarize_errors(_numeric_errors(by[OUT_OF_SAMPLE])),
            expected=summarize_errors(_numeric_errors(held_out)),
            records=sorted({r.record for r in held_out if r.expect is None and r.error_pct is not None}),
        )
    return out


def overall_errors(rows: list[Row]) -> ErrorSummary:
    """Every class's cross-validated and out-of-sample rows pooled (the band of a class no row tests;
    rebuild-time rows left out, :data:`models.validation.REBUILD_CLASS`)."""
    return summarize_errors(
        _numeric_errors(
            [
                r
                for r in rows
                if r.basis in (CROSS_VALIDATED, OUT_OF_SAMPLE) and r.system_class != REBUILD_CLASS
            ]
        )
    )


def rebuild_errors(rows: list[Row]) -> ErrorSummary:
    """The rebuild-time rows' |error| summary (:data:`models.validation.REBUILD_CLASS`), reported apart."""
    return summarize_errors(_numeric_errors([r for r in rows if r.system_class == REBUILD_CLASS]))


def _cell(e: ErrorSummary) -> str:
    if not e.rows:
        return "-"
    return f"{e.rows}: {e.median_pct:.1f}% / {e.p90_pct:.1f}% / {e.max_pct:.1f}%"


def format_class_table(classes: dict[SystemClass, ClassErrors], rebuild: ErrorSummary | None = None) -> str:
    """One line per class: rows, median / 90th percentile / max |error| of each basis; with
    ``rebuild``, the rebuild-time rows on a line of their own (in no class's band)."""
    title = "Per class of system: rows: median / p90 / max |error|"
    head = ("class", "in-sample", "cross-validated", "out-of-sample", "expected (CV + out-of-sample)")
    lines: list[tuple[str, ...]] = [head]
    for cls, c in classes.items():
        cells = (c.in_sample, c.cross_validated, c.out_of_sample, c.expected)
        lines.append((cls.label, *(_cell(e) for e in cells)))
    if rebuild is not None and rebuild.rows:
        lines.append(("rebuild times (apart)", "-", "-", _cell(rebuild), "-"))
    widths = [max(len(row[i]) for row in lines) for i in range(len(head))]
    body = []
    for i, row in enumerate(lines):
        body.append("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
        if i == 0:
            body.append("  ".join("-" * w for w in widths))
    return f"{title}\n{'=' * len(title)}\n" + "\n".join(body)


def inputs_digest(paths: list[Path]) -> str:
    """sha256 over the named files' paths and bytes, in sorted order."""
    h = hashlib.sha256()
    for p in sorted(paths):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def model_error_table(rows: list[Row], fixtures_dir: Path, catalog_version: str | None) -> ModelErrorTable:
    """The shipped model-error fixture: per-class errors of ``rows`` and what they were computed from
    (validation records, calibration and catalog files; the model-error file itself left out)."""
    files = [
        p
        for sub in ("validation", "calibration", "catalog")
        for p in (fixtures_dir / sub).glob("*.yaml")
        if p.name != MODEL_ERROR_FILE.name
    ]
    return ModelErrorTable(
        generated_by="make validate (python -m models.validation fixtures/validation --write-model-error)",
        catalog_version=catalog_version,
        inputs_sha256=inputs_digest(files),
        classes=class_errors(rows),
        overall=overall_errors(rows),
    )


def dump_model_error_table(table: ModelErrorTable) -> str:
    """The fixture's YAML text (a header saying how it is made, then the table)."""
    head = (
        "# Expected error of the model per class of system, from make validate's tables (median, 90th\n"
        "# percentile and maximum |error| of the rows of each basis; 'expected' pools the cross-validated\n"
        "# and out-of-sample rows). Written by make validate; do not edit (a test compares it with what\n"
        "# the validation computes now).\n"
    )
    data = table.model_dump(mode="json")
    return head + yaml.safe_dump(data, sort_keys=False, width=120)


def _gates_text(rows: list[Row]) -> str:
    """``N gates, F failed[, K known failures]`` of ``rows``."""
    gates = [r for r in rows if r.gate]
    failed = sum(1 for r in gates if r.failed)
    known = sum(1 for r in gates if not r.passed and r.known_failure is not None)
    return f"{len(gates)} gates, {failed} failed" + (f", {known} known failures" if known else "")


def summary(rows: list[Row]) -> str:
    """One line: rows, median and max absolute % error of the numeric rows, gates and failures."""
    errs = [abs(e) for r in rows if r.expect is None and (e := r.error_pct) is not None]
    err = (
        f"median |error| {statistics.median(errs):.1f}%, max |error| {max(errs):.1f}%"
        if errs
        else "no errors"
    )
    return f"{len(rows)} rows: {err} ({len(errs)} numeric rows); {_gates_text(rows)}"


def ratio_summary(rows: list[Row]) -> str:
    """Standard-method summary: lowest and median product/textbook ratio of the gated cases."""
    ratios = sorted(r.predicted for r in rows if r.gate and r.expect is None)
    text = (
        f"default cases: product/textbook drives min {ratios[0]:.2f}x, median {statistics.median(ratios):.2f}x"
        if ratios
        else "no gated cases"
    )
    return f"{len(rows)} rows: {text}; {_gates_text(rows)}"


def format_report(rows: list[Row]) -> str:
    """The rows in one table per basis (in-sample, cross-validated, out-of-sample, standard
    method), each with its title and a summary line."""
    unknown = {r.basis for r in rows} - set(BASES)
    if unknown:
        raise ValueError(f"rows with an unknown basis: {sorted(unknown)}")
    parts = []
    for basis in BASES:
        part = [r for r in rows if r.basis == basis]
        if not part:
            continue
        title = TITLES[basis]
        tail = ratio_summary(part) if basis == STANDARD_METHOD else summary(part)
        parts.append(f"{title}\n{'=' * len(title)}\n{format_table(part)}\n{tail}")
    return "\n\n".join(parts)


def format_table(rows: list[Row]) -> str:
    head = ("record", "metric", "predicted", "measured", "error %", "tolerance", "gate", "result", "note")
    lines = [head]
    for r in rows:
        if isinstance(r.measured, tuple) and r.measured[1] == float("inf"):
            measured = f">= {fmt(r.measured[0])}"
        elif isinstance(r.measured, tuple):
            measured = f"{fmt(r.measured[0])}-{fmt(r.measured[1])}"
        else:
            measured = fmt(r.measured)
        if r.expect is not None:
            pred, measured, err, tol = str(bool(r.predicted)), str(r.expect), "", "must match"
        else:
            pred = fmt(r.predicted)
            e = r.error_pct
            err = "" if e is None else f"{e:+.1f}"
            tol = (
                f"x/{r.factor:g}..x{r.factor:g}"
                if r.factor
                else (
                    f"±{r.tolerance_pct:g}%"
                    if r.tolerance_pct is not None
                    else "in range"
                    if isinstance(r.measured, tuple)
                    else "report"
                )
            )
        lines.append(
            (
                r.record,
                r.metric,
                pred,
                measured,
                err,
                tol,
                "gate" if r.gate else "",
                "ok" if r.passed else ("KNOWN" if r.known_failure else "FAIL"),
                r.note,
            )
        )
    widths = [max(len(str(row[i])) for row in lines) for i in range(len(head))]
    out = []
    for i, row in enumerate(lines):
        out.append("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
        if i == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)
