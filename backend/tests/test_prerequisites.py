"""A missing prerequisite stops `make` at once with one line naming it: a Python outside 3.11-3.13,
no Node.js (or one older than 20.19), no PostgreSQL for the tests."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from backend.tests.conftest import REPO_ROOT

MAKE = "/usr/bin/make"


def make(*args: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    # A make of its own, as a user types it: not a sub-make of the `make test` that runs this file.
    env = {key: value for key, value in os.environ.items() if key not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS")}
    if path is not None:
        env["PATH"] = path
    return subprocess.run(
        [MAKE, "--no-print-directory", "-C", str(REPO_ROOT), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def executable(path: Path, text: str) -> Path:
    path.write_text(text)
    path.chmod(0o755)
    return path


def one_line(stderr: str) -> str:
    """make's message without make's own closing ``make: *** [...] Error 1`` line (``make[N]: ***`` in a sub-make)."""
    lines = [line for line in stderr.splitlines() if not re.match(r"make(\[\d+\])?: \*\*\*", line)]
    assert len(lines) == 1, stderr
    return lines[0]


def old_python(tmp_path: Path) -> Path:
    """This interpreter, reporting itself as Python 3.10.14."""
    return executable(
        tmp_path / "python3.10",
        f"""#!/bin/sh
exec {sys.executable} -c 'import runpy, sys; sys.version_info = (3, 10, 14, "final", 0); sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name="__main__")' "$@"
""",
    )


def test_make_test_stops_first_thing_on_a_python_outside_3_11_to_3_13(tmp_path: Path) -> None:
    venv = tmp_path / "no-venv"
    done = make("test", f"PY={old_python(tmp_path)}", f"VENV={venv}")

    assert done.returncode != 0
    line = one_line(done.stderr)
    assert "Python 3.11-3.13 is required" in line and "3.10" in line
    assert not venv.exists()  # stopped before installing anything


def test_make_install_names_a_python_that_is_not_there(tmp_path: Path) -> None:
    done = make("install", "PY=python3.99", f"VENV={tmp_path / 'v'}")

    assert done.returncode != 0
    assert "'python3.99' was not found" in one_line(done.stderr)


def test_make_names_a_missing_node(tmp_path: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    done = make("check-node", f"PY={sys.executable}", path=str(empty))

    assert done.returncode != 0
    assert "Node.js is required" in one_line(done.stderr)


def test_make_names_a_node_older_than_20_19(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    executable(bin_dir / "node", "#!/bin/sh\necho v20.11.1\n")
    executable(bin_dir / "npm", "#!/bin/sh\necho 10.2.4\n")
    done = make("check-node", f"PY={sys.executable}", path=f"{bin_dir}:/usr/bin:/bin")

    assert done.returncode != 0
    assert "Node.js >= 20.19 is required" in (line := one_line(done.stderr)) and "v20.11.1" in line


def test_make_test_names_postgresql_when_no_server_listens() -> None:
    done = make("check-postgres", "TEST_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:1/test")

    assert done.returncode != 0
    line = one_line(done.stderr)
    assert "PostgreSQL is required for the tests" in line and "127.0.0.1:1" in line


def test_the_checks_pass_quietly_on_this_machine() -> None:
    done = make("check-python", "check-node", "check-postgres")

    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
