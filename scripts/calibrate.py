"""``make calibrate``: fit the per-I/O CPU costs of software-defined nodes and ship them.

    python scripts/calibrate.py            fit, then write the values into the fixtures
    python scripts/calibrate.py --check    fit and print; exit 1 when the shipped values differ

Each fit of ``fixtures/calibration/scale_out_fit.yaml`` names a target (``catalog:<array id>``: that
catalog array's node; ``custom:<id>``: a record of ``custom_hardware.yaml``), the parameters and the
published rows (``record/measurement`` of ``fixtures/validation/flash_scale_out.yaml``) each is fitted
to. The fit is least squares of log(predicted / measured) with every row predicted exactly as
``make validate`` predicts it (:func:`models.validation.scale_out.fit_costs`). Fits run in file order
and each sees the values of the ones before it. When every fit has converged, the script writes:

* into ``scale_out_fit.yaml``: ``values``, ``residuals_pct`` (by row) and ``date``;
* into the target: the catalog record's controller figures and its ``calibration.controller`` (the
  fitted figures ``fitted`` with the publications' keys), or the custom record's ``software``.

A target naming an unknown array or record, an unknown row, or a fit that does not converge stops
the script with the fit named and writes nothing. The queue-depth curves' engine parameters
(``engine.yaml``) have their own fit: ``scripts/fit_engine_calibration.py``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import sys
from pathlib import Path

import yaml

from models.catalog import load_catalog
from models.validation import ValidationContext
from models.validation.runner import load_yaml_dir
from models.validation.scale_out import FitError, fit_costs, fits

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
FIT_FILE = FIXTURES / "calibration" / "scale_out_fit.yaml"
CUSTOM_FILE = FIXTURES / "calibration" / "custom_hardware.yaml"
_KEY = re.compile(r"\[([a-z0-9]+(?:-[a-z0-9]+)+)\]")


def _fmt(value: float) -> str:
    return f"{value:.4g}"


def _record_block(text: str, record_id: str, indent: str = "  ") -> tuple[int, int]:
    """Start and end offsets of the YAML list item ``- id: <record_id>`` at ``indent``."""
    m = re.search(rf"^{indent}- id: {re.escape(record_id)}\s*$", text, re.M)
    if m is None:
        raise FitError(f"no record {record_id!r} found to write")
    nxt = re.search(rf"^{indent}- id: ", text[m.end() :], re.M)
    return m.start(), (m.end() + nxt.start()) if nxt else len(text)


def _set_controller(text: str, array_id: str, values: dict[str, float], keys: list[str], note: str) -> str:
    """``text`` (a catalog file) with the array's controller figures set and its controller part's
    calibration saying which figures are fitted, to what."""
    start, end = _record_block(text, array_id)
    block = text[start:end]
    for field, value in values.items():
        block, n = re.subn(
            rf"^(      {field}: )[0-9.eE+-]+", rf"\g<1>{_fmt(value)}", block, count=1, flags=re.M
        )
        if n == 0:  # not stated yet: after the record's last per-I/O cost
            block = re.sub(
                r"^(      cpu_us_write: .*)$",
                rf"\g<1>\n      {field}: {_fmt(value)}",
                block,
                count=1,
                flags=re.M,
            )
    kept = ""  # figures the fit does not own (a stated ceiling) keep their own status and sources
    current = re.search(r"^      controller: \{status: .*$", block, re.M)
    if current is not None:
        others = [
            m.group(0)
            for m in re.finditer(r"(\w+): \{status: [^{}]*\}", current.group(0))
            if m.group(1) not in values
        ]
        kept = "".join(f", {o}" for o in others)
    figures = ", ".join(f"{f}: {{status: fitted, sources: [{', '.join(keys)}]}}" for f in values) + kept
    line = f'      controller: {{status: estimate, sources: [{", ".join(keys)}], note: "{note}", figures: {{{figures}}}}}'
    block, n = re.subn(r"^      controller: \{status: .*$", lambda _: line, block, count=1, flags=re.M)
    if n == 0:
        raise FitError(f"catalog record {array_id!r} states no calibration.controller to update")
    return text[:start] + block + text[end:]


def _set_software(text: str, record_id: str, values: dict[str, float]) -> str:
    start, end = _record_block(text, record_id)
    block = text[start:end]
    inner = ", ".join(f"{k}: {_fmt(v)}" for k, v in values.items())
    block, n = re.subn(r"^    software: \{.*\}$", f"    software: {{{inner}}}", block, count=1, flags=re.M)
    if n == 0:
        block = block.rstrip("\n") + f"\n    software: {{{inner}}}\n"
    return text[:start] + block + text[end:]


def _catalog_file(array_id: str) -> Path:
    for path in sorted((FIXTURES / "catalog").glob("*.yaml")):
        if re.search(rf"^  - id: {re.escape(array_id)}\s*$", path.read_text(encoding="utf-8"), re.M):
            return path
    raise FitError(f"catalog array {array_id!r} is in no file of fixtures/catalog")


def run(check: bool) -> int:
    catalog = load_catalog(FIXTURES)
    calibration = load_yaml_dir(FIXTURES / "calibration")
    ctx = ValidationContext(calibration=calibration, catalog=catalog)
    records = {
        r["id"]: r
        for r in yaml.safe_load((FIXTURES / "validation" / "flash_scale_out.yaml").read_text())["records"]
    }
    spec = yaml.safe_load(FIT_FILE.read_text(encoding="utf-8"))
    today = dt.date.today().isoformat()
    writes: dict[Path, str] = {}
    differs = []
    for i, fit in enumerate(fits(ctx)):
        values, residuals = fit_costs(fit, records, ctx)
        target = fit["target"]
        kind, _, name = target.partition(":")
        print(f"{target}: " + ", ".join(f"{k} {_fmt(v)} us" for k, v in values.items()))
        for row, r in residuals.items():
            print(f"  {row}: {r:+.1f}%")
        shipped = spec["fits"][i].get("values") or {}
        if {k: _fmt(v) for k, v in values.items()} != {k: _fmt(float(v)) for k, v in shipped.items()}:
            differs.append(target)
        spec["fits"][i].update(
            {
                "values": {k: float(_fmt(v)) for k, v in values.items()},
                "residuals_pct": residuals,
                "date": today,
            }
        )
        sources = sorted({r.partition("/")[0] for p in fit["parameters"].values() for r in p["rows"]})
        keys = list(dict.fromkeys(k for s in sources for k in _KEY.findall(records[s]["source"])))
        if kind == "catalog":
            path = _catalog_file(name)
            text = writes.get(path, path.read_text(encoding="utf-8"))
            n = len(residuals)
            note = (
                f"{', '.join(values)} fitted by make calibrate to {n} published rows ({today}, residuals in "
                "fixtures/calibration/scale_out_fit.yaml); the other CPU costs: placeholders (uncalibrated)"
            )
            writes[path] = _set_controller(text, name, values, keys, note)
            array = catalog.arrays[name]
            ctrl = array.controller.model_copy(update=values)
            catalog = catalog.model_copy(
                update={"arrays": {**catalog.arrays, name: array.model_copy(update={"controller": ctrl})}}
            )
        else:
            text = writes.get(CUSTOM_FILE, CUSTOM_FILE.read_text(encoding="utf-8"))
            writes[CUSTOM_FILE] = _set_software(text, name, values)
            for rec in calibration["custom_hardware"]["records"]:
                if rec["id"] == name:
                    rec["software"] = dict(values)
        ctx = ValidationContext(calibration=calibration, catalog=catalog)  # the next fit sees these values
    if check:
        if differs:
            print(f"shipped values differ from a fit now: {', '.join(differs)} (run make calibrate)")
        return 1 if differs else 0
    header = FIT_FILE.read_text(encoding="utf-8").split("fits:", 1)[0]
    writes[FIT_FILE] = header + yaml.safe_dump({"fits": spec["fits"]}, sort_keys=False, width=200)
    for path, text in writes.items():  # every fit converged: now write, each file whole
        tmp = path.with_suffix(".yaml.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument(
        "--check", action="store_true", help="fit and compare with the shipped values; write nothing"
    )
    args = ap.parse_args(argv)
    try:
        return run(args.check)
    except (FitError, KeyError, ValueError) as exc:
        print(f"make calibrate: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
