"""Run every test suite of the project and print one closing summary line.

Each step runs even when an earlier one failed, so one run shows every failure. Test counts come
from the JUnit XML files the runners write under ``test-results/``; lint and type-check steps
count as one check each. Exit status is non-zero when any step failed.

Everything the steps write goes under ``test-results/`` (JUnit files, screenshots, Playwright
artifacts per end-to-end run) or ``var/`` (the end-to-end databases), both ignored by git: a run
leaves ``git status`` as it found it. ``E2E_PORT`` (default 8765) is the end-to-end server's port,
and the next one the Dask run's; ``PYTEST_WORKERS`` (default ``auto``: one per core) the pytest workers.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "test-results"
BIN = ROOT / ".venv" / "bin"


@dataclass
class Step:
    name: str
    cmd: list[str]
    cwd: Path = ROOT
    junit: Path | None = None
    env: dict[str, str] | None = None


def junit_counts(path: Path) -> tuple[int, int, int]:
    """(passed, failed, skipped) summed over every <testsuite> in a JUnit XML file."""
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    tests = failed = skipped = 0
    for s in suites:
        if any(child.tag == "testsuite" for child in s):
            continue  # counted through its children
        tests += int(s.get("tests", 0))
        failed += int(s.get("failures", 0)) + int(s.get("errors", 0))
        skipped += int(s.get("skipped", 0))
    return tests - failed - skipped, failed, skipped


def main() -> int:
    RESULTS.mkdir(exist_ok=True)
    fe = ROOT / "frontend"
    e2e_port = int(os.environ.get("E2E_PORT", "8765"))
    steps = [
        Step("ruff", [str(BIN / "ruff"), "check", "models", "backend", "bench", "scripts", "migrations"]),
        Step(
            "ruff-format",
            [str(BIN / "ruff"), "format", "--check", "models", "backend", "bench", "scripts", "migrations"],
        ),
        Step("mypy", [str(BIN / "mypy"), "models", "backend"]),
        Step("tsc", ["npm", "run", "-s", "typecheck"], cwd=fe),
        # one worker per core (pytest-xdist); the tests of one Dask cluster share a worker
        # (xdist_group), every database test has its own SQLite file or PostgreSQL schema
        Step(
            "pytest",
            [
                str(BIN / "pytest"),
                "-q",
                "-p",
                "no:cacheprovider",
                "-n",
                os.environ.get("PYTEST_WORKERS", "auto"),
                "--dist",
                "loadgroup",
                "--durations=15",
                "models/tests",
                "backend/tests",
                f"--junitxml={RESULTS / 'pytest.xml'}",
            ],
            junit=RESULTS / "pytest.xml",
        ),
        Step("validate", [str(BIN / "python"), "-m", "models.validation", "fixtures/validation"]),
        Step(
            "vitest",
            [
                "npm",
                "run",
                "-s",
                "test",
                "--",
                "--reporter=default",
                "--reporter=junit",
                f"--outputFile.junit={RESULTS / 'vitest.xml'}",
            ],
            cwd=fe,
            junit=RESULTS / "vitest.xml",
        ),
        Step("build-ui", ["npm", "run", "-s", "build"], cwd=fe),
        Step("e2e", ["npm", "run", "-s", "e2e"], cwd=fe, junit=RESULTS / "e2e.xml"),
        # the trace tests again, with the trace jobs on a Dask cluster (scripts/e2e_server.py), on
        # the next port (the first run's server may still be letting go of its own) and with its
        # own artifacts (test-results/e2e-dask*), so the first run's are kept
        Step(
            "e2e-dask",
            ["npm", "run", "-s", "e2e", "--", "-g", "traces"],
            cwd=fe,
            junit=RESULTS / "e2e-dask.xml",
            env={
                "E2E_DASK": "1",
                "E2E_PORT": str(e2e_port + 1),
                "PLAYWRIGHT_JUNIT_OUTPUT_NAME": str(RESULTS / "e2e-dask.xml"),
            },
        ),
    ]
    env = dict(os.environ, E2E_PORT=str(e2e_port), PLAYWRIGHT_JUNIT_OUTPUT_NAME=str(RESULTS / "e2e.xml"))
    passed = failed = skipped = 0
    failed_steps: list[str] = []
    for step in steps:
        if step.junit and step.junit.exists():
            step.junit.unlink()
        print(f"\n=== {step.name}: {' '.join(step.cmd)}", flush=True)
        t0 = time.monotonic()
        rc = subprocess.call(step.cmd, cwd=step.cwd, env={**env, **(step.env or {})})
        dt = time.monotonic() - t0
        if step.junit and step.junit.exists():
            p, f, s = junit_counts(step.junit)
        else:
            p, f, s = (1, 0, 0) if rc == 0 else (0, 1, 0)
        if rc != 0 and f == 0:
            f = 1  # the runner failed without a failing test (crash, collection error)
        passed, failed, skipped = passed + p, failed + f, skipped + s
        print(f"=== {step.name}: exit {rc}, {p} passed, {f} failed, {s} skipped in {dt:.1f}s", flush=True)
        if rc != 0:
            failed_steps.append(step.name)
    print()
    if failed_steps:
        print("failed steps: " + ", ".join(failed_steps))
    print(f"summary: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed_steps else 0


if __name__ == "__main__":
    sys.exit(main())
