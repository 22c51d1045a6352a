"""``make calibrate`` (scripts/calibrate.py) refuses a calibration it cannot fit, naming what is
wrong, and writes nothing then: every fixture file is byte for byte as it was (issue #30)."""

from __future__ import annotations

import hashlib
import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def _script(root: Path) -> ModuleType:
    """scripts/calibrate.py with its paths on the fixtures copied under ``root``."""
    spec = importlib.util.spec_from_file_location("calibrate_under_test", ROOT / "scripts" / "calibrate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fixtures = root / "fixtures"
    paths = {
        "ROOT": root,
        "FIXTURES": fixtures,
        "FIT_FILE": fixtures / "calibration" / "scale_out_fit.yaml",
        "CUSTOM_FILE": fixtures / "calibration" / "custom_hardware.yaml",
    }
    for name, path in paths.items():
        setattr(module, name, path)
    return module


def _digests(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _unknown_fit_target(fixtures: Path) -> None:
    # after the shipped fits (which converge and would write the catalog and the fit file), a fit
    # whose target the catalog lacks
    path = fixtures / "calibration" / "scale_out_fit.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text + "- target: catalog:no-such-array\n  parameters:\n    cpu_us_write:\n"
        "      rows: [micron_9200max_ceph_rhcs3/rand_write_4k_2x]\n      prior: 300.0\n",
        encoding="utf-8",
    )


def _unknown_drive(fixtures: Path) -> None:
    # a validation record a fit's rows come from names a drive the catalog lacks
    path = fixtures / "validation" / "flash_scale_out.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    record = next(r for r in doc["records"] if r["id"] == "micron_9200max_ceph_rhcs3")
    record["model"]["drive"] = "no-such-drive"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")


@pytest.mark.parametrize(
    ("broken", "named"),
    [
        (_unknown_fit_target, "fit 'catalog:no-such-array': unknown catalog array 'no-such-array'"),
        (_unknown_drive, "record 'micron_9200max_ceph_rhcs3' names unknown drive 'no-such-drive'"),
    ],
)
def test_make_calibrate_names_what_it_cannot_fit_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], broken, named: str
) -> None:
    fixtures = tmp_path / "fixtures"
    shutil.copytree(ROOT / "fixtures", fixtures)
    broken(fixtures)
    before = _digests(fixtures)

    code = _script(tmp_path).main([])

    assert code == 1
    assert named in capsys.readouterr().err
    assert _digests(fixtures) == before  # nothing half-written, no temporary file left
