"""Refit the array-level calibration to the published queue-depth curves; optionally rewrite it.

    .venv/bin/python scripts/fit_calibration.py           # print the fit next to engine.yaml
    .venv/bin/python scripts/fit_calibration.py --write   # and rewrite fixtures/calibration/engine.yaml

Fits :class:`models.validation.queue_depth_curves.CurveFit` (host overhead of the test set-up,
command-queuing half-gain queue of 15K FC drives, WAFL full-stripe share and scatter as linear
laws of the reallocate measure, FAS2050 CPU-cost scale) to every curve in
``fixtures/validation/queue_depth_curves.yaml`` with the same procedure ``make validate`` uses
for its cross-validated rows. ``--write`` replaces the fitted values in engine.yaml (``ncq_q_half``,
``command_queuing.sas_fc.q_half``, the three layout ages, the host set-up) and keeps every other
line. The FAS2050 CPU costs live in the catalog (``fixtures/catalog/netapp-fas.yaml``): the
script prints the fitted costs for that record and does not edit the catalog.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import yaml

from models.catalog import load_catalog
from models.validation import ValidationContext
from models.validation.queue_depth_curves import CurveFit, fit_queue_depth_curves
from models.validation.runner import load_yaml_dir

ROOT = Path(__file__).resolve().parent.parent
ENGINE_YAML = ROOT / "fixtures/calibration/engine.yaml"
MEASURES = {"fresh": 1.0, "moderate": 10.0, "aged": 22.0}


def rewrite(text: str, fit: CurveFit) -> str:
    """engine.yaml with the fitted values replaced in place (comments and other keys kept)."""

    def sub(pattern: str, value: str, s: str) -> str:
        out, n = re.subn(pattern, lambda m: m.group(1) + value, s, count=1, flags=re.M)
        if n != 1:
            raise SystemExit(f"engine.yaml: no line matches {pattern!r}")
        return out

    text = sub(r"^(    sas_fc: \{gain_max: [0-9.]+, q_half: )[0-9.]+", f"{fit.q_half:.3g}", text)
    for name, m in MEASURES.items():
        lay = fit.layout(m)
        text = sub(
            rf"^(  {name}:\s+)\{{full_stripe_share: [0-9.]+, scatter: [0-9.]+\}}",
            f"{{full_stripe_share: {lay['full_stripe_share']:.3f}, scatter: {lay['scatter']:.3f}}}",
            text,
        )
    return sub(r"^(    host_overhead_ms: )[0-9.]+", f"{fit.host_overhead_ms:.3g}", text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write", action="store_true", help="rewrite fixtures/calibration/engine.yaml")
    args = ap.parse_args(argv)
    records = yaml.safe_load((ROOT / "fixtures/validation/queue_depth_curves.yaml").read_text())["records"]
    ctx = ValidationContext(
        calibration=load_yaml_dir(ROOT / "fixtures/calibration"), catalog=load_catalog(ROOT / "fixtures")
    )
    fit = fit_queue_depth_curves(records, ctx)
    print(f"host_overhead_ms {fit.host_overhead_ms:.3f}, q_half {fit.q_half:.3f}, cpu_scale {fit.cpu_scale}")
    for name, m in MEASURES.items():
        print(f"layout {name} (measure {m:g}): {fit.layout(m)}")
    prior = next((r.get("cpu_cost_prior") for r in records if r.get("cpu_cost_prior")), None)
    if prior and fit.cpu_scale is not None:
        costs = {k: round(float(v) * fit.cpu_scale, 1) for k, v in prior.items()}
        print(f"netapp-fas2050 controller costs for the catalog: {costs}")
    if args.write:
        ENGINE_YAML.write_text(rewrite(ENGINE_YAML.read_text(), fit))
        print(f"rewrote {ENGINE_YAML.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
