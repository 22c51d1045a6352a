"""The package's metadata and locks: supported Pythons, optional extras, runtime locks without test
packages, and an engine, API and CLI that run with none of the extras installed."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from importlib.metadata import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from backend.tests.conftest import REPO_ROOT

PYPROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
EXTRAS = {"policies": {"libcachesim"}, "distributed": {"dask"}, "s3": {"s3fs"}}
EXTRA_MODULES = ("libcachesim", "dask", "distributed", "s3fs", "polars")
NOT_AT_RUNTIME = {"pytest", "pybind11", "boto3", "hypothesis", "schemathesis", "ruff", "mypy", "polars", "uv"}
"""Test, build and lint packages, and polars (a few lines of numpy do its work): never in a runtime lock."""


def locked(name: str) -> dict[str, str]:
    """{package: version} of a lock file."""
    pins = re.findall(r"^([a-z0-9][a-z0-9._-]*)==([^\s;]+)", (REPO_ROOT / name).read_text(), re.MULTILINE)
    return dict(pins)


def names(requirements: list[str]) -> set[str]:
    return {Requirement(r).name.lower() for r in requirements}


def test_python_3_11_to_3_13_are_supported_and_the_metadata_says_so() -> None:
    project = PYPROJECT["project"]
    supported = SpecifierSet(project["requires-python"])

    assert [v for v in ("3.10", "3.11", "3.12", "3.13", "3.14") if v in supported] == ["3.11", "3.12", "3.13"]
    classified = {
        c.rsplit(" :: ", 1)[1]
        for c in project["classifiers"]
        if c.startswith("Programming Language :: Python :: 3.")
    }
    assert classified == {"3.11", "3.12", "3.13"}
    # the installed distribution was built from this pyproject (`make install` reinstalls on a change)
    assert SpecifierSet(metadata("sizer")["Requires-Python"]) == supported
    assert f"{sys.version_info.major}.{sys.version_info.minor}" in supported


def test_opt_in_features_are_extras_and_the_core_needs_none_of_them() -> None:
    project = PYPROJECT["project"]
    extras = project["optional-dependencies"]

    for extra, packages in EXTRAS.items():
        assert names(extras[extra]) == packages
    assert not names(project["dependencies"]) & (set().union(*EXTRAS.values()) | NOT_AT_RUNTIME)


def test_the_runtime_locks_hold_no_test_build_or_lint_package() -> None:
    runtime, full, dev = (
        locked("requirements.lock"),
        locked("requirements-full.lock"),
        locked("requirements-dev.lock"),
    )

    assert not set(runtime) & NOT_AT_RUNTIME
    assert not set(full) & NOT_AT_RUNTIME
    assert not set(runtime) & {"libcachesim", "dask", "distributed", "s3fs"}  # extras only in the full lock
    assert {"libcachesim", "dask", "distributed", "s3fs"} <= set(full)
    assert {"pytest", "pytest-xdist", "uv"} <= set(dev)
    # one version of each package in every lock: the dev lock constrains the runtime ones
    assert {p: v for p, v in dev.items() if p in full} == full
    assert set(runtime) <= set(full)


BLOCK_EXTRAS = f"""
import importlib.abc, sys

class NoExtras(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {EXTRA_MODULES!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, NoExtras())
"""

WITHOUT_EXTRAS = (
    BLOCK_EXTRAS
    + """
import json
from pathlib import Path

import numpy as np
from pydantic import ValidationError

import models
from models.traces import TraceOptions, analyze_trace
from models.traces.mrc import policy_curve
from backend.app.core.config import Settings
from backend.app.main import create_app
from backend.cli import main as cli
from fastapi.testclient import TestClient

out = {"extras_loaded": sorted(m for m in sys.modules if m.split(".")[0] in """
    + repr(EXTRA_MODULES)
    + """)}
trace = Path(sys.argv[1])
trace.write_text("".join(f"{i / 1000},R,{(i * 7919) % 512 * 4096},4096\\n" for i in range(4000)))
with trace.open("rb") as stream:
    analysis = analyze_trace(stream, TraceOptions(policies=["arc"]))
out["curves"] = analysis.curves_computed
out["skipped"] = analysis.curves_skipped
try:
    policy_curve("arc", None, np.array([1]), 4096)
except RuntimeError as exc:
    out["policy_error"] = str(exc)
try:
    Settings(dask_scheduler_address="tcp://127.0.0.1:8786")
except ValidationError as exc:
    out["dask_error"] = exc.errors()[0]["msg"]
with TestClient(create_app(Settings(database_url=f"sqlite:///{trace.parent / 'x.db'}"))) as client:
    out["openapi"] = client.get("/openapi.json").status_code
out["cli"] = cli(["size", sys.argv[2], "--array", "fas3270", "--raid", "raid-dp", "--relax", "horizon", "--json"])
out["extras_loaded_after"] = sorted(m for m in sys.modules if m.split(".")[0] in """
    + repr(EXTRA_MODULES)
    + """)
print("RESULT " + json.dumps(out))
"""
)


def test_without_the_extras_the_engine_api_and_cli_run_and_each_feature_names_its_extra(
    tmp_path: Path,
) -> None:
    template = REPO_ROOT / "fixtures" / "templates" / "oltp-database.yaml"
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_EXTRAS, str(tmp_path / "trace.csv"), str(template)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )

    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.split("RESULT ", 1)[1])
    assert out["extras_loaded"] == [] and out["extras_loaded_after"] == []
    assert out["curves"] == ["lru"]  # LRU is the engine's own; ARC needs libCacheSim
    assert "[policies]" in out["skipped"]["arc"]
    assert "[policies]" in out["policy_error"]
    assert "[distributed]" in out["dask_error"] and "DASK_SCHEDULER_ADDRESS" in out["dask_error"]
    assert out["openapi"] == 200
    assert out["cli"] == 0
