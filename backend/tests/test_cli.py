"""``python -m backend.cli``: size and evaluate from a workload file, no server, no database."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from backend.cli import find_array, main
from backend.tests.conftest import REPO_ROOT, phase, workload

TEMPLATE = REPO_ROOT / "fixtures" / "templates" / "oltp-database.yaml"


def write(tmp_path: Path, content: object) -> Path:
    path = tmp_path / "workload.yaml"
    path.write_text(yaml.safe_dump(content))
    return path


def test_size_prints_the_drive_count_and_a_table_of_windows(capsys: pytest.CaptureFixture[str]) -> None:
    # the FAS3270's controllers cannot carry 3 years of 20%/year growth: sized for today's load
    status = main(["size", str(TEMPLATE), "--array", "fas3270", "--raid", "raid-dp", "--relax", "horizon"])

    out = capsys.readouterr().out
    assert status == 0
    assert out.startswith("sized: ")
    assert "; not sized for growth to the horizon." in out
    assert "FAS3270" in out
    for window in ("business hours", "nightly export", "month-end batch"):
        assert window in out
    assert "ctrl %" in out


def test_size_json_is_the_engine_sizing_result(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        [
            "size",
            str(TEMPLATE),
            "--array",
            "netapp-fas3270",
            "--drive",
            "hdd-15k-sas-450",
            "--json",
            "--relax",
            "horizon",
        ]
    )

    sized = json.loads(capsys.readouterr().out)
    assert status == 0
    assert sized["feasible"] is True
    assert sized["configuration"]["pools"][0]["drive"]["id"] == "hdd-15k-sas-450"


def test_evaluate_takes_a_drive_count_and_a_list_of_workloads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    light = [phase(iops=1000)]
    path = write(tmp_path, {"workloads": [workload(phases=light), workload(name="mail", phases=light)]})

    status = main(["evaluate", str(path), "--array", "fas3270", "--drives", "48", "--json"])

    result = json.loads(capsys.readouterr().out)
    assert status == 0
    assert result["bill"]["drives"] == 48
    assert [p["workload"] for p in result["windows"][0]["phases"]] == ["oltp", "mail"]


def test_an_overloaded_evaluation_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, workload(phases=[phase(iops=500000)]))

    assert main(["evaluate", str(path), "--array", "fas3270", "--drives", "16"]) == 1
    assert "NO" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--array", "fas"], "ambiguous"),
        (["--array", "no-such-array"], "matches no catalog array"),
        (["--array", "fas3270", "--raid", "raid10"], "raid_scheme"),
        (["--array", "fas3270", "--drives", "5000"], "drive_count"),
    ],
)
def test_bad_input_exits_2_with_a_message(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["evaluate", str(TEMPLATE), *args]) == 2
    assert message in capsys.readouterr().err


def test_an_invalid_workload_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, workload(phases=[phase(read_pct=120)]))

    assert main(["size", str(path), "--array", "fas3270"]) == 2
    assert "read_pct" in capsys.readouterr().err


def test_array_names_match_by_suffix_then_substring() -> None:
    ids = ["netapp-fas3270", "netapp-fas6240", "emc-vnx5300"]

    assert find_array(ids, "netapp-fas3270") == "netapp-fas3270"
    assert find_array(ids, "fas3270") == "netapp-fas3270"
    assert find_array(ids, "vnx") == "emc-vnx5300"


def test_without_relaxing_growth_the_fas3270_cannot_carry_the_oltp_template(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(["size", str(TEMPLATE), "--array", "fas3270", "--raid", "raid-dp"])
    out = capsys.readouterr().out
    assert status == 1
    assert "feasible: NO" in out and "at month 36" in out


def test_a_relaxation_of_an_unknown_case_is_an_input_error(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["size", str(TEMPLATE), "--array", "fas3270", "--relax", "weekends"])
    assert status == 2
    assert "case" in capsys.readouterr().err


def test_it_runs_as_a_module() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "backend.cli",
            "size",
            str(TEMPLATE),
            "--array",
            "fas3270",
            "--raid",
            "raid-dp",
            "--relax",
            "horizon",
        ],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=60,
    )

    assert done.returncode == 0, done.stderr
    assert "sized:" in done.stdout


def test_the_command_line_imports_no_web_framework_or_database_library() -> None:
    """It runs with the engine's dependencies only (``pip install`` without FastAPI would do)."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import json, sys, backend.cli; print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert done.returncode == 0, done.stderr
    loaded = set(json.loads(done.stdout))
    assert loaded.isdisjoint({"fastapi", "starlette", "sqlalchemy", "pydantic_settings", "uvicorn", "httpx"})
    assert {"models", "numpy", "pydantic"} <= loaded
