"""The README as a user reads it: its CLI example runs verbatim, its validation figures are what
`make validate` prints now."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys

from backend.tests.conftest import REPO_ROOT

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
sys.path.insert(0, str(REPO_ROOT / "scripts"))
import readme_figures  # noqa: E402

SHELL_BLOCK = re.compile(r"^```(?:sh|bash|shell)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def cli_examples() -> list[str]:
    """Every command in the README's shell blocks that runs the CLI (``python -m <package>.cli``)."""
    lines = (line.strip() for block in SHELL_BLOCK.findall(README) for line in block.splitlines())
    return [line for line in lines if re.search(r"python\S* -m [\w.]+\.cli\b", line)]


def test_the_readme_cli_example_runs_verbatim() -> None:
    examples = cli_examples()

    assert examples, "the README shows no CLI command in a shell block"
    for command in examples:
        words = shlex.split(command)
        array = words[words.index("--array") + 1]
        done = subprocess.run(command, shell=True, cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)

        assert done.returncode == 0, f"{command}\n{done.stderr[-2000:]}"
        assert array.upper() in done.stdout.upper()  # the array it was asked for, e.g. FAS3270
        for window in ("business hours", "nightly export", "month-end batch"):  # the template's windows
            assert window in done.stdout


def test_the_readme_validation_figures_are_what_validate_prints_now() -> None:
    printed = readme_figures.validate_output()

    assert readme_figures.section(README) == readme_figures.render(printed), (
        "README.md's validation figures are stale: run `make readme-figures`"
    )


def printed_table(title: str, rows: list[tuple[str, ...]], summary: str) -> str:
    """A table as `make validate` prints it: columns padded to their widest cell, two spaces apart."""
    head = ("record", "metric", "predicted", "measured", "error %", "tolerance", "gate", "result", "note")
    lines = [head, *rows]
    widths = [max(len(row[i]) for row in lines) for i in range(len(head))]
    text = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in lines]
    text.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join([title, "=" * len(title), *text, summary])


def test_the_figures_section_is_made_from_the_printed_summary_lines_and_rows() -> None:
    printed = "\n\n".join(
        [
            printed_table(
                "In-sample rows: fitted",
                [
                    ("a", "iops", "110", "100", "+10.0", "±20%", "gate", "ok", ""),
                    ("a", "rt", "1", "1", "-2.0", "±30%", "gate", "ok", ""),
                    ("b", "x", "True", "True", "", "must match", "", "ok", ""),
                ],
                "3 rows: median |error| 6.0%, max |error| 10.0% (2 numeric rows); 2 gates, 0 failed",
            ),
            printed_table(
                "Cross-validated rows: refitted",
                [("a", "iops", "130", "100", "+30.0", "±45%", "gate", "ok", "")],
                "1 rows: median |error| 30.0%, max |error| 30.0% (1 numeric rows); 1 gates, 0 failed",
            ),
            printed_table(
                "Out-of-sample rows: never fitted",
                [("c d", "iops", "95", "100", "-5.0", "report", "", "ok", "a note with  two spaces")],
                "1 rows: median |error| 5.0%, max |error| 5.0% (1 numeric rows); 0 gates, 0 failed",
            ),
        ]
    )
    classes = "\n".join(
        [
            "Per class of system: rows: median / p90 / max |error|",
            "=====================================================",
            "class       in-sample                cross-validated  out-of-sample            expected (CV + out-of-sample)",
            "----------  -----------------------  ---------------  -----------------------  -----------------------------",
            "HDD arrays  2: 6.0% / 9.2% / 10.0%   -                1: 5.0% / 5.0% / 5.0%    1: 5.0% / 5.0% / 5.0%",
        ]
    )
    section = readme_figures.render(printed + "\n\n" + classes)

    # the per-class table as printed, cell by cell
    assert (
        "| HDD arrays | 2: 6.0% / 9.2% / 10.0% | - | 1: 5.0% / 5.0% / 5.0% | 1: 5.0% / 5.0% / 5.0% |"
        in section
    )
    assert "| in-sample | 3 | 6.0% | 10.0% | 2 | 0 |" in section
    assert "| cross-validated | 1 | 30.0% | 30.0% | 1 | 0 |" in section
    assert "| out-of-sample | 1 | 5.0% | 5.0% | 0 | 0 |" in section
    # record a in-sample: |+10.0| and |-2.0| -> median (10 + 2) / 2 = 6.0, max 10.0; b has no numeric row
    assert "| in-sample | `a` | 2 | 6.0% | 10.0% |" in section
    assert "`b`" not in section
    assert "| out-of-sample | `c d` | 1 | 5.0% | 5.0% |" in section
