"""Every analysis is a report: saved, shared, recomputed, diffed, and exported as the proposal (PDF,
read back with poppler) and the BOM workbook (XLSX, read back with openpyxl); money inputs refused
with the field named."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openpyxl import load_workbook
from sqlalchemy.orm import Session

from backend.app.core.config import Settings
from backend.app.db import create_db_engine
from backend.app.main import create_app
from backend.app.tables import Report
from backend.tests.conftest import FAS3270, error_locs, phase, serve, workload

FIXED = {**FAS3270, "drive_count": 48}
TWO_WINDOWS = [phase(), phase(name="night", window="nightly export", iops=2000, read_pct=90, io_size_kib=64)]

KINDS: dict[str, dict[str, Any]] = {
    "recommend": {"workloads": [workload()], "limit": 2, "constraints": {"vendors": ["NetApp"]}},
    "raid-grid": {"workloads": [workload()], "configuration": FAS3270},
    "compare": {
        "workloads": [workload()],
        "configurations": [FAS3270, {"array_id": "emc-vnx7500", "raid_scheme": "raid5"}],
    },
    "growth": {"workloads": [workload(growth_pct_per_year=40, horizon_years=2)], "configuration": FIXED},
    "sensitivity": {"workloads": [workload()], "configuration": FIXED},
    "ranges": {"workloads": [workload()], "configuration": FIXED},
    "degraded": {"workloads": [workload()], "configuration": FIXED},
    "building-blocks": {
        "catalog": {"array_id": "netapp-e5400", "drive_id": "hdd-7k2-nlsas-3000"},
        "target": {"read_gb_s": 20},
    },
}


def save(client: TestClient, kind: str, inputs: dict[str, Any], **extra: Any) -> dict[str, Any]:
    response = client.post(
        "/api/v1/reports", json={"name": f"Proposal ({kind})", "kind": kind, "inputs": inputs, **extra}
    )
    assert response.status_code == 201, response.text
    return response.json()


def export(client: TestClient, report_id: str, fmt: str) -> Any:
    response = client.get(f"/api/v1/reports/{report_id}/export", params={"format": fmt})
    assert response.status_code == 200, response.text[:500]
    return response


def pdf_text(pdf: bytes, tmp_path: Path) -> tuple[int, str]:
    """(pages, text) of a PDF, read back with poppler: every page rendered by pdftoppm, the text by
    pdftotext."""
    path = tmp_path / "proposal.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "30", "-png", str(path), str(tmp_path / "page")], check=True)
    pages = sorted(tmp_path.glob("page-*.png"))
    assert pages and all(p.stat().st_size > 1000 for p in pages)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True).stdout
    return len(pages), text.decode()


def raster_images(pdf: bytes, tmp_path: Path) -> int:
    """Raster images in the PDF (pdfimages -list): charts drawn as vectors add none."""
    path = tmp_path / "images.pdf"
    path.write_bytes(pdf)
    listing = subprocess.run(
        ["pdfimages", "-list", str(path)], check=True, capture_output=True
    ).stdout.decode()
    return len(listing.strip().splitlines()) - 2  # two header lines


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_analysis_is_saved_byte_exact_shared_recomputed_and_exported(
    client: TestClient, kind: str
) -> None:
    created = save(client, kind, KINDS[kind])
    url = f"/api/v1/reports/{created['id']}"

    first, again = client.get(url), client.get(url)
    as_json = export(client, created["id"], "json")
    csv_rows = export(client, created["id"], "csv").text.splitlines()
    book = load_workbook(io.BytesIO(export(client, created["id"], "xlsx").content))
    recomputed = client.post(f"{url}/recompute")

    snapshot = first.json()
    assert created["share_url"] == f"/r/{created['id']}"
    assert first.content == again.content == as_json.content
    assert snapshot["kind"] == kind and snapshot["headline"] and snapshot["inputs"]
    assert csv_rows[0] == "configuration,window,component,figure,value,unit"
    assert book.sheetnames[0] == "Summary"
    assert book["Summary"]["A1"].value == f"Proposal ({kind})"
    assert recomputed.status_code == 201, recomputed.text
    assert recomputed.json()["recomputed_from"] == created["id"]
    assert recomputed.json()["changes"] and not any(c["changed"] for c in recomputed.json()["changes"])
    assert client.get(url).content == first.content  # the original is untouched


def test_a_size_report_exports_a_proposal_a_person_reads_without_the_app(
    client: TestClient, tmp_path: Path
) -> None:
    body = {
        "workloads": [workload(phases=TWO_WINDOWS)],
        "configuration": FAS3270,
        "money": {"currency": "EUR", "discount_pct": 30},
    }
    created = save(client, "size", body)
    snapshot = client.get(f"/api/v1/reports/{created['id']}").json()

    response = export(client, created["id"], "pdf")
    pages, text = pdf_text(response.content, tmp_path)

    tco = snapshot["result"]["tco"]
    assert response.headers["content-type"] == "application/pdf"
    assert response.headers["content-disposition"] == f'attachment; filename="report-{created["id"]}.pdf"'
    assert pages >= 5
    words = " ".join(text.split())
    # the verdict, the bill and its money, busy figures, failure and growth cases, curves, the math
    assert "Verdict" in words and snapshot["result"]["explanation"].split(";")[0] in words
    assert "Money over time" in words and "Cost at three data-reduction ratios" in words
    assert "TCO over" in words and tco["total"]["text"].split(" = ")[-1] in words
    assert "pessimistic (no reduction), 1:1" in words and "expected (mixed), 2:1" in words
    assert "Busy figures against headroom" in words and "drives busy" in words
    assert "Failure cases" in words and "Capacity and growth" in words
    assert "Latency against load" in words and "Read-hit ratio against cache size" in words
    assert "Appendix: the math behind each figure" in words
    assert snapshot["result"]["result"]["bill"]["explain"]["shelves"]["text"] in words
    assert "Calibration" in words and "Inputs" in words and "Money assumptions" in words
    assert f"/r/{created['id']}" in words and f"page 1 of {pages}" in words
    assert raster_images(response.content, tmp_path) == 0  # the charts are vectors


def test_the_bom_workbook_reads_back_line_by_line(client: TestClient) -> None:
    body = {
        "workloads": [workload()],
        "configurations": [
            {"array_id": "netapp-aff-a400", "raid_scheme": "raid-dp"},
            {"array_id": "emc-vnx7500", "raid_scheme": "raid5"},
        ],
        "money": {"discount_pct": 20, "line_discount_pct": {"drives": 40}, "support_years": 5},
    }
    created = save(client, "compare", body)
    snapshot = client.get(f"/api/v1/reports/{created['id']}").json()

    book = load_workbook(io.BytesIO(export(client, created["id"], "xlsx").content))

    items = snapshot["result"]["items"]
    assert len(book.sheetnames) == 1 + len(items)
    for sheet_name, item in zip(book.sheetnames[1:], items, strict=True):
        tco = item["tco"]
        rows = list(book[sheet_name].iter_rows(values_only=True))
        header = rows[3]
        assert header[:8] == (
            "Kind",
            "Item",
            "Quantity",
            "Unit",
            "Unit list price (USD)",
            "List price (USD)",
            "Discount (%)",
            "Net price (USD)",
        )
        lines = rows[4 : 4 + len(tco["lines"])]
        total = rows[4 + len(tco["lines"])]
        kinds = [line[0] for line in lines]
        assert {"controllers", "drives", "ports", "licences"} <= set(kinds)
        for row, line in zip(lines, tco["lines"], strict=True):
            assert row[1] == line["description"] and row[2] == line["quantity"]
            assert row[6] == (0 if line["included"] else 40 if line["kind"] == "drives" else 20)
            assert row[9] == (0 if line["included"] else 5)  # support years
        # list price of the hardware lines = the evaluation's bill; licences come on top
        hardware = sum(row[5] or 0 for row in lines if row[0] != "licences")
        assert hardware == pytest.approx(item["result"]["bill"]["cost_usd"])
        assert total[0] == "total" and total[7] == pytest.approx(tco["capital"]["value"])
        assert total[11] == pytest.approx(item["result"]["bill"]["power_w"])
        assert total[12] == pytest.approx(item["result"]["bill"]["rack_units"])
        ratio_rows = [
            r for r in rows if r[0] and str(r[0]).startswith(("pessimistic", "expected", "vendor-claimed"))
        ]
        assert [r[6] for r in ratio_rows] == [pytest.approx(c["tco"]["value"]) for c in tco["ratios"]]
    summary = list(book["Summary"].iter_rows(values_only=True))
    assert any(row[0] == snapshot["result"]["ratio_flip"]["words"] for row in summary)


def test_size_compare_and_recommend_carry_tco_and_the_three_ratio_table(client: TestClient) -> None:
    sized = client.post("/api/v1/size", json={"workloads": [workload()], "configuration": FAS3270}).json()
    compared = client.post("/api/v1/compare", json=KINDS["compare"]).json()
    recommended = client.post("/api/v1/recommend", json=KINDS["recommend"]).json()

    tco = sized["tco"]
    assert tco["currency"] == "USD" and tco["years"] == 5
    assert tco["list_usd"] == pytest.approx(sized["result"]["bill"]["cost_usd"])  # FAS3270: no licences
    assert [c["case"] for c in tco["ratios"]] == ["pessimistic", "expected", "claimed"]
    assert all(item["tco"]["ratios"] for item in compared["items"])
    assert compared["ratio_flip"]["cheapest"]["claimed"] in {
        i["tco"]["configuration"] for i in compared["items"]
    }
    assert all(c["tco"]["total"]["value"] > 0 for c in recommended["configurations"])
    assert recommended["ratio_flip"] is not None


@pytest.mark.parametrize(
    ("money", "field"),
    [
        ({"discount_pct": -5}, "discount_pct"),
        ({"line_discount_pct": {"drives": -10}}, "line_discount_pct"),
        ({"currency": "XAU"}, "currency"),
        ({"support_years": 8}, "support_years"),  # the catalog sells support for at most 5 years
    ],
)
def test_bad_money_is_a_422_naming_the_field(client: TestClient, money: dict[str, Any], field: str) -> None:
    size = client.post(
        "/api/v1/size", json={"workloads": [workload()], "configuration": FAS3270, "money": money}
    )
    report = client.post(
        "/api/v1/reports",
        json={
            "name": "x",
            "kind": "evaluate",
            "inputs": {"workloads": [workload()], "configuration": FIXED},
            "money": money,
        },
    )

    assert [loc[:3] for loc in error_locs(size)] == [["body", "money", field]]
    assert [loc[:3] for loc in error_locs(report)] == [["body", "money", field]]
    if field == "currency":
        assert "no exchange rate for XAU" in size.json()["detail"][0]["msg"]
    if field == "support_years":
        assert "at most 5 years" in size.json()["detail"][0]["msg"]


def test_two_reports_diff_side_by_side(client: TestClient) -> None:
    small = save(client, "size", {"workloads": [workload()], "configuration": FAS3270})
    big = save(client, "size", {"workloads": [workload(phases=[phase(iops=9000)])], "configuration": FAS3270})

    diff = client.get(f"/api/v1/reports/{small['id']}/diff/{big['id']}").json()
    missing = client.get(f"/api/v1/reports/{small['id']}/diff/no-such-report")

    drives = next(c for c in diff["changes"] if c["figure"] == "drive_count")
    assert (diff["before"], diff["after"]) == (small["id"], big["id"])
    assert diff["before_kind"] == diff["after_kind"] == "size"
    assert drives["changed"] and drives["after"] > drives["before"]
    assert drives["delta"] == drives["after"] - drives["before"]
    assert diff["changed"] == sum(1 for c in diff["changes"] if c["changed"]) > 0
    assert missing.status_code == 404


def test_reports_saved_before_money_still_export(
    client: TestClient, migrated_db_url: str, tmp_path: Path
) -> None:
    created = save(client, "evaluate", {"workloads": [workload()], "configuration": FIXED})
    engine = create_db_engine(migrated_db_url)
    try:
        with Session(engine) as session:
            row = session.get(Report, created["id"])
            assert row is not None
            old = json.loads(row.snapshot_json)
            for key in ("money", "tco", "curves"):
                old.pop(key)
            row.snapshot_json = json.dumps(old)
            session.commit()
    finally:
        engine.dispose()

    book = load_workbook(io.BytesIO(export(client, created["id"], "xlsx").content))
    _, text = pdf_text(export(client, created["id"], "pdf").content, tmp_path)

    assert book.sheetnames == ["Summary"]
    assert "Windows" in text and "Money over time" not in text


def test_pdf_without_chromium_is_a_503_that_says_what_to_install(
    migrated_db_url: str, make_settings: Callable[..., Settings]
) -> None:
    settings = make_settings(database_url=migrated_db_url, chromium_path="no-such-chromium")
    with serve(create_app(settings)) as client:
        created = save(client, "evaluate", {"workloads": [workload()], "configuration": FIXED})
        response = client.get(f"/api/v1/reports/{created['id']}/export", params={"format": "pdf"})
        workbook = client.get(f"/api/v1/reports/{created['id']}/export", params={"format": "xlsx"})

    assert response.status_code == 503
    assert "needs Chromium" in response.json()["detail"] and "make chromium" in response.json()["detail"]
    assert workbook.status_code == 200


def test_poppler_and_chromium_are_installed_for_these_tests() -> None:
    # make test installs both (make chromium, make poppler); a missing one is a failure, never a skip
    assert shutil.which("pdftoppm") and shutil.which("pdftotext") and shutil.which("chromium")
