"""CPU instructions per evaluate(), counted by valgrind's callgrind: a figure that does not move
with the machine's speed or load (timings on a shared machine drift by 2x between sessions).

Modes (the same cases as the timed benchmarks):

- ``warm``: 3 workloads x 3 windows evaluated again on the same objects
  (:func:`bench.test_bench_engine.three_workloads` on RAID-DP, 16-drive groups, 96 drives),
  with the memo the caller holds (:class:`models.memo.EvaluationMemo`);
- ``cold``: distinct three-window workloads, each evaluated with a memo of its own
  (:func:`bench.test_bench_cold.cold_cases`).

The count is the difference between two runs of the same process that differ only by ``--calls``
more evaluations, divided by ``--calls``: start-up, imports and the first (memo-filling) calls
cancel out. Instructions are not time (a cache miss costs more than an add), but within one engine
they track CPU time closely: between deab68b and 5aa773b the warm count fell 13% and the timed
figure 12-15%. Run (needs valgrind; a run takes 2-3 minutes)::

    python -m bench.instructions warm
    python -m bench.instructions cold --calls 100
    python -m bench.instructions warm --root /path/to/other/checkout   # the same count there
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

_NO_ASLR = ["setarch", "-R"] if shutil.which("setarch") else []
"""Addresses fixed run to run (identity-keyed memos and id-ordered sets then repeat exactly)."""

_WARMUP = 60
"""Evaluations both runs make first (memos filled, first-call costs paid)."""


def _child(mode: str, n: int) -> None:
    """The measured process: ``n`` evaluations of ``mode``'s cases."""
    from bench.test_bench_cold import cold_cases
    from bench.test_bench_engine import three_workloads
    from models.evaluate import evaluate
    from models.memo import EvaluationMemo
    from models.tests.conftest import hdd15k, make_config

    drive = hdd15k.__wrapped__()  # type: ignore[attr-defined]  # the fixture's own function
    cfg = make_config(drive, "raid-dp", 16, 96)
    if mode == "warm":
        wls = three_workloads()
        memo = EvaluationMemo()
        for _ in range(n):
            evaluate(wls, cfg, memo=memo)
        return
    for case in cold_cases(n):
        evaluate(case, cfg)


def _instructions(mode: str, n: int, root: str) -> int:
    """Instructions callgrind counts in a whole child process making ``n`` evaluations of the
    engine in ``root`` (a checkout; hash seed fixed so that runs repeat)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        run = subprocess.run(
            [
                *_NO_ASLR,
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                "--child",
                mode,
                "--calls",
                str(n),
            ],
            capture_output=True,
            text=True,
            check=True,
            cwd=root,
            env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": root},
        )
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no total:\n{run.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=["warm", "cold"])
    ap.add_argument("--calls", type=int, default=200, help="evaluations counted (default 200)")
    ap.add_argument("--root", default=".", help="checkout whose engine is counted (default: .)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        _child(args.mode, args.calls)
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    # cold cases differ from each other: the first _WARMUP of both runs are the same cases
    root = str(Path(args.root).resolve())
    low = _instructions(args.mode, _WARMUP, root)
    high = _instructions(args.mode, _WARMUP + args.calls, root)
    per_call = (high - low) / args.calls
    print(
        f"{args.mode} evaluate(): {per_call / 1e6:.3f} M instructions per call ({args.calls} calls counted)"
    )


if __name__ == "__main__":
    main()
