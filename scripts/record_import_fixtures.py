"""Record the UI tests' answers of the engagement imports from the real backend (SQLite, in process):
a Live Optics workbook and an RVTools workbook built from the documented layouts, and the timeline
of the Live Optics series with the RVTools capacity. Writes frontend/src/testing/fixtures/import-*.json.

    .venv/bin/python scripts/record_import_fixtures.py
"""

from __future__ import annotations

import io
import json
import tempfile
from datetime import datetime
from pathlib import Path

from fastapi.testclient import TestClient

from backend.app.core.config import Settings
from backend.app.main import create_app
from models.importers.synthetic_exports import live_optics_workbook, rvtools_workbook

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "frontend" / "src" / "testing" / "fixtures"


def main() -> None:
    lo, rv = io.BytesIO(), io.BytesIO()
    live_optics_workbook(lo, ["vm1", "vm2"], datetime(2024, 1, 15), 3600, 24)
    rvtools_workbook(rv, [("app1", "Prod", 204800.0, 102400.0), ("test1", "Test", 51200.0, 10240.0)])
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_url=f"sqlite:///{tmp}/fixtures.db", rate_limits_enabled=False)
        from backend.app.db import create_db_engine
        from backend.app.tables import Base

        Base.metadata.create_all(create_db_engine(settings.database_url, None))
        with TestClient(create_app(settings)) as client:
            headers = {"x-filename": "project.xlsx"}
            lo_answer = client.post(
                "/api/v1/import/live-optics", content=lo.getvalue(), headers=headers
            ).json()
            headers = {"x-filename": "RVTools_export_all.xlsx"}
            rv_answer = client.post("/api/v1/import/rvtools", content=rv.getvalue(), headers=headers).json()
            body = {
                "layers": [{"series": lo_answer["series"], "time_zone": "Europe/Berlin"}],
                "capacity": rv_answer["capacity_sources"],
            }
            timeline = client.post("/api/v1/import/timeline", json=body).json()
    for name, answer in (("live-optics", lo_answer), ("rvtools", rv_answer), ("timeline", timeline)):
        (OUT / f"import-{name}.json").write_text(json.dumps(answer, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
