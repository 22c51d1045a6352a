"""A 50 MB Live Optics workbook imported (reported, never asserted). Run: ``make bench`` or
``.venv/bin/pytest -q bench/test_bench_xlsx.py --benchmark-only -s``.

Target: a 50 MB workbook (862,000 time-series rows of 100 servers) imports in seconds, in a
fresh process so the peak memory is the import's own (``bench/xlsx_import.py``). The rows-only
read with python-calamine is printed beside openpyxl's read-only mode when openpyxl is installed
(the measurement behind the choice of python-calamine).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest


def _step(*args: str) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-m", "bench.xlsx_import", *args], check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def workbook_50mb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("xlsx") / "liveoptics-50mb.xlsx"
    print("\nwrite:", _step("write", str(path), "--mb", "50"))
    return path


def test_bench_live_optics_50mb(benchmark, workbook_50mb: Path) -> None:  # type: ignore[no-untyped-def]
    result = benchmark.pedantic(lambda: _step("import", str(workbook_50mb)), rounds=1, iterations=1)
    print("\nimport:", result)
    assert result["rows"] == 862_000


@pytest.mark.parametrize("reader", ["calamine", "openpyxl"])
def test_bench_rows_only(benchmark, workbook_50mb: Path, reader: str) -> None:  # type: ignore[no-untyped-def]
    if reader == "openpyxl" and importlib.util.find_spec("openpyxl") is None:
        pytest.skip("openpyxl is not installed (not a dependency): pip install openpyxl to compare")
    result = benchmark.pedantic(
        lambda: _step("rows", str(workbook_50mb), "--reader", reader), rounds=1, iterations=1
    )
    print(f"\nrows ({reader}):", result)
    assert result["rows"] == 862_001
