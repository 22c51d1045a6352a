"""Command line: size or evaluate a catalog array for workloads in a YAML or JSON file.

    python -m backend.cli size workload.yaml --array fas3270 --raid raid-dp [--drive ID] [--json]
    python -m backend.cli evaluate workload.yaml --array fas3270 --raid raid-dp --drives 48

The workload file holds one workload, a list of them, ``workloads: [...]``, or a catalog template
(``workload: {...}``). ``--array`` takes a catalog id or any unambiguous part of one (``fas3270``
for ``netapp-fas3270``). It runs the engine and catalog in-process with the engine's dependencies
only (no web framework, no server, no database), with the same calibration and catalog
resolution as the API (:func:`models.catalog.load_calibration`, :func:`models.catalog.resolve_reference`). Exit status: 0 when every window meets
its targets, 1 when not (or the family cannot be sized), 2 for bad input.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

import yaml
from pydantic import TypeAdapter, ValidationError

from models.base import InputError
from models.cases import Relaxation
from models.catalog import (
    CalibrationError,
    CatalogError,
    CatalogReference,
    Layout,
    load_calibration,
    load_catalog,
    resolve_reference,
)
from models.evaluate import DegradedMode, EvaluationResult
from models.explain import fmt
from models.raid import RaidScheme
from models.size import SizingResult, size
from models.tco import MoneyInputs, tco
from models.verdict import evaluate_judged
from models.workload import Workload

REPO_ROOT = Path(__file__).resolve().parents[1]


class CliError(Exception):
    """Bad input: printed as ``error: ...``, exit status 2."""


def read_workloads(path: Path) -> list[Workload]:
    """Workloads from a YAML/JSON file: one, a list, ``workloads: [...]`` or a template's ``workload``."""
    try:
        raw: Any = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise CliError(f"{path}: {exc}") from exc
    if isinstance(raw, dict) and "workloads" in raw:
        raw = raw["workloads"]
    elif isinstance(raw, dict) and "workload" in raw:
        raw = raw["workload"]
    items = raw if isinstance(raw, list) else [raw]
    try:
        return TypeAdapter(list[Workload]).validate_python(items)
    except ValidationError as exc:
        raise CliError(f"{path}: {exc}") from exc


def find_array(ids: list[str], wanted: str) -> str:
    """The catalog id ``wanted`` names: itself, the one ending in ``-wanted``, or the one containing it."""
    if wanted in ids:
        return wanted
    for matches in ([i for i in ids if i.endswith(f"-{wanted}")], [i for i in ids if wanted in i]):
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise CliError(f"--array {wanted!r} is ambiguous: {', '.join(sorted(matches))}")
    raise CliError(f"--array {wanted!r} matches no catalog array (known: {', '.join(sorted(ids))})")


def _yes(passed: bool) -> str:
    return "yes" if passed else "NO"


def table(rows: list[list[str]]) -> str:
    """Columns padded to their widest cell, numbers right-aligned."""
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]

    def cell(text: str, c: int, header: bool) -> str:
        numeric = not header and text[:1].isdigit() or text in ("-", "∞")
        return text.rjust(widths[c]) if numeric and c > 0 else text.ljust(widths[c])

    return "\n".join(
        "  ".join(cell(t, c, i == 0) for c, t in enumerate(r)).rstrip() for i, r in enumerate(rows)
    )


def render_evaluation(result: EvaluationResult) -> str:
    bill, cap = result.bill, result.capacity
    cost = f"${fmt(bill.cost_usd)}" if bill.cost_usd is not None else "unknown"
    lines = [
        result.configuration,
        f"{bill.drives} drives + {bill.spares} spares, {bill.shelves} shelves, {fmt(bill.rack_units)} U, "
        f"list cost {cost}",
        f"capacity: {fmt(cap.usable_tb)} TB usable, {fmt(cap.needed_tb.value)} TB needed "
        f"({fmt(cap.fill_pct)}% full, limit {fmt(cap.max_fill_pct)}%)",
        "",
    ]
    rows = [
        [
            "window",
            "IOPS",
            "MB/s",
            "read ms",
            "write ms",
            "ctrl %",
            "drives %",
            "ports %",
            "bottleneck",
            "pass",
        ]
    ]
    for w in result.windows:
        drives = max((p.drive_utilization_pct.value or 0.0) for p in w.pools) if w.pools else 0.0
        rows.append(
            [
                w.window,
                fmt(w.frontend_iops),
                fmt(w.frontend_mb_s),
                fmt(w.read_latency_ms),
                fmt(w.write_latency_ms),
                fmt(w.controller_utilization_pct.value),
                fmt(drives),
                fmt(w.port_utilization_pct.value),
                w.bottleneck,
                _yes(w.passed),
            ]
        )
    lines.append(table(rows))
    lines += ["", f"meets every target: {_yes(result.passed)} (bottleneck: {result.bottleneck})"]
    if result.verdict is not None:
        lines += [result.verdict.headline]
        lines += [f"  {c.case} fails: {c.text}" for c in result.verdict.cases if c.status == "fails"][:5]
    lines += [f"warning: {w}" for w in result.warnings]
    return "\n".join(lines)


def render_sizing(sized: SizingResult) -> str:
    head = [
        f"sized: {sized.drive_count} drives in {sized.groups} groups; feasible: {_yes(sized.feasible)}",
        sized.explanation,
    ]
    head += [f"  {r}" for r in sized.reasons[:5]]
    return "\n".join([*head, "", render_evaluation(sized.result)])


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m backend.cli", description=__doc__.split("\n\n")[0])
    commands = p.add_subparsers(dest="command", required=True)
    for name, text in (
        ("size", "fewest drives that meet every window"),
        ("evaluate", "evaluate a drive count"),
    ):
        c = commands.add_parser(name, help=text)
        c.add_argument("workloads", type=Path, help="YAML or JSON file with the workload(s)")
        c.add_argument("--array", required=True, help="catalog array id, or an unambiguous part of one")
        c.add_argument("--raid", type=RaidScheme, help="RAID scheme (default: the array's)")
        c.add_argument("--drive", help="catalog drive id (default: the array's)")
        c.add_argument("--width", type=int, help="RAID group width (default: the scheme's on this array)")
        c.add_argument("--flash-cache", type=float, default=0.0, metavar="GB", help="flash read cache [GB]")
        c.add_argument("--layout", type=Layout, help="WAFL layout age: fresh, moderate, aged")
        c.add_argument(
            "--degraded", type=DegradedMode, default=DegradedMode.NONE, help="failure to evaluate in"
        )
        c.add_argument(
            "--relax",
            action="append",
            default=[],
            metavar="CASE[:WINDOW]",
            help="a case the design need not meet (drive-failed, rebuilding, failover, cold-cache, "
            "horizon), in every window or the one named; repeatable (default: none, every case decides)",
        )
        c.add_argument("--fixtures", type=Path, help="fixtures folder (default: FIXTURES_DIR or ./fixtures)")
        c.add_argument("--json", action="store_true", help="print the engine result as JSON")
        if name == "evaluate":
            c.add_argument(
                "--drives", type=int, help="drives excl. spares (default: the entry configuration)"
            )
        else:
            c.add_argument("--max-drives", type=int, help="largest drive count to try")
    return p


def _relaxations(given: list[str]) -> list[Relaxation]:
    """``--relax CASE[:WINDOW]`` arguments as the request's relaxations."""
    out = []
    for text in given:
        case, _, window = text.partition(":")
        out.append(Relaxation.model_validate({"case": case, "window": window or None}))
    return out


def run(args: argparse.Namespace) -> tuple[EvaluationResult | SizingResult, bool]:
    fixtures = args.fixtures or Path(os.environ.get("FIXTURES_DIR") or REPO_ROOT / "fixtures")
    try:
        catalog = load_catalog(fixtures)
        calibration = load_calibration(fixtures)
    except (CalibrationError, CatalogError, OSError) as exc:
        raise CliError(str(exc)) from exc
    array_id = find_array(list(catalog.arrays), args.array)
    params = calibration.parameters
    try:
        reference = CatalogReference(
            array_id=array_id,
            drive_id=args.drive,
            raid_scheme=args.raid,
            group_width=args.width,
            drive_count=getattr(args, "drives", None),
            flash_cache_gb=args.flash_cache,
            layout=args.layout,
        )
        relax = _relaxations(args.relax)
    except ValidationError as exc:
        raise CliError(str(exc)) from exc
    workloads = read_workloads(args.workloads)
    sizing = args.command == "size"
    try:
        config = resolve_reference(reference, catalog, calibration, "family" if sizing else "entry")
    except InputError as exc:
        raise CliError(f"configuration.{exc.field}: {exc.reason}" if exc.field else exc.reason) from exc
    try:
        if sizing:
            sized = size(
                workloads,
                config,
                params=params,
                degraded=args.degraded,
                max_drives=args.max_drives,
                relax=relax,
            )
            index = next(i for i, p in enumerate(sized.configuration.pools) if p.name == sized.pool)
            commercial = catalog.arrays[array_id].commercial
            money = tco(workloads, sized.configuration, MoneyInputs(), commercial, pool_index=index)
            sized = sized.model_copy(update={"tco": money})
            return sized, sized.feasible and sized.result.passed
        evaluated = evaluate_judged(workloads, config, params=params, degraded=args.degraded, relax=relax)
        return evaluated, evaluated.passed
    except InputError as exc:
        raise CliError(f"{exc.field or 'input'}: {exc.reason}") from exc
    except (ValueError, ArithmeticError) as exc:  # incl. a non-finite figure on extreme inputs
        raise CliError(f"the engine cannot evaluate these inputs ({exc}); check for extreme values") from exc


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        result, passed = run(args)
    except CliError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.model_dump(mode="json"), indent=2, ensure_ascii=False))
    elif isinstance(result, SizingResult):
        print(render_sizing(result))
    else:
        print(render_evaluation(result))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
