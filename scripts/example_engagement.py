"""Write an example engagement, built from the documented layouts (no customer data), into a folder:

* ``LiveOptics_project.xlsx``: a Live Optics vSphere project of two VMs, a day at 10-minute
  samples, busy 10:00-11:00 (600 and 660 I/O per s), a nightly batch 02:00-03:00;
* ``RVTools_export_all.xlsx``: an RVTools inventory of three VMs in clusters Prod and Test;
* ``iostat-reporting.txt``: a day of ``iostat -x -t`` of a reporting host busy 14:00-15:00
  (1,000 reads per s), so the engagement's coincident peak is less than the sum of its peaks.

    .venv/bin/python scripts/example_engagement.py var/engagement
"""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path

from models.importers.synthetic import write_iostat
from models.importers.synthetic_exports import afternoon_load, live_optics_workbook, rvtools_workbook

DAY = datetime(2024, 1, 15)
VMS = [
    ("app1", "Prod", 204800.0, 102400.0),
    ("app2", "Prod", 102400.0, 51200.0),
    ("test1", "Test", 51200.0, 10240.0),
]


def main(folder: str) -> None:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    with (out / "LiveOptics_project.xlsx").open("wb") as f:
        live_optics_workbook(f, ["vm1", "vm2"], DAY, 600, 144)
    with (out / "RVTools_export_all.xlsx").open("wb") as f:
        rvtools_workbook(f, VMS)
    text = "".join(write_iostat(["sda"], DAY, 600, 144, host="reporting01", load=afternoon_load))
    (out / "iostat-reporting.txt").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "var/engagement")
