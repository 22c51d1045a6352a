"""``/import/live-optics``, ``/import/rvtools``, ``/import/array-stats`` and ``/import/timeline``:
collector workbooks and array exports into workloads, and an engagement lined up on one clock.

Files come from models.importers.synthetic_exports (the documented layouts, the known day of
models.importers.synthetic.office_load: 10:00-11:00 is the peak hour, 600 I/O per s per object
x (1 + object/10)).
"""

from __future__ import annotations

import gzip
import io
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from httpx import Response

from backend.app.core.config import Settings
from backend.app.main import create_app
from backend.tests.conftest import FAS3270, error_locs, serve
from models.importers.synthetic import write_iostat
from models.importers.synthetic_exports import (
    live_optics_workbook,
    rvtools_workbook,
    write_generic_csv,
    write_ontap_qos,
    write_ontap_statistics,
    write_powerstore_csv,
)
from models.tests.test_collectors import DAY, VMS
from models.tests.test_collectors import xlsx as workbook

LIVE_OPTICS = workbook(live_optics_workbook, ["vm1", "vm2"], DAY, 600, 144)
RVTOOLS = workbook(rvtools_workbook, VMS)


def post(client: TestClient, path: str, body: bytes, name: str = "upload", **params: Any) -> Response:
    return client.post(f"/api/v1/import/{path}", content=body, params=params, headers={"x-filename": name})


def msg(response: Response) -> str:
    return str(response.json()["detail"][0]["msg"])


def test_a_live_optics_workbook_becomes_workloads_with_explained_figures(client: TestClient) -> None:
    files = {
        "file": (
            "project.xlsx",
            LIVE_OPTICS,
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        )
    }
    response = client.post("/api/v1/import/live-optics", files=files)

    assert response.status_code == 200, response.text
    result = response.json()
    assert (result["filename"], result["performance"], result["stats_sheet"]) == (
        "project.xlsx",
        "time series",
        "Performance",
    )
    peak = next(w for w in result["stats"]["windows"] if w["kind"] == "peak-hour")
    assert peak["start"] == "2024-01-15 10:00"
    assert peak["load"]["iops"]["value"] == pytest.approx(1260.0)
    assert peak["load"]["iops"]["source"].startswith("sheet 'Performance', columns 'Read IOPS', 'Write IOPS'")
    assert result["capacity_tb"]["source"] == "sheet 'VMs', column 'Virtual Disk Used (MiB)'"
    assert result["workloads"][0]["name"] == "Synthetic engagement"
    assert len(result["series"]["seconds"]) == 144


def test_an_rvtools_workbook_gzip_by_datastore(client: TestClient) -> None:
    response = post(client, "rvtools", gzip.compress(RVTOOLS), "rvtools.xlsx.gz", group_by="datastore")

    assert response.status_code == 200, response.text
    result = response.json()
    prod = next(g for g in result["groups"] if g["name"] == "ds-Prod")
    # 153,600 MiB in use = 161.06 GB
    assert prod["in_use_gb"] == pytest.approx(161.061, abs=1e-3)
    assert result["vms_without_performance"] == ["app1", "app2", "test1"]
    assert [s["name"] for s in result["capacity_sources"]] == ["ds-Prod", "ds-Test"]


@pytest.mark.parametrize(
    ("fmt", "body", "params"),
    [
        ("generic-csv", "".join(write_generic_csv(["v1", "v2"], DAY, 300, 288)), {}),
        ("powerstore", "".join(write_powerstore_csv(["v1", "v2"], DAY, 300, 288)), {}),
        ("ontap-statistics", "".join(write_ontap_statistics(["v1", "v2"], DAY, 300, 288)), {}),
        ("ontap-qos", "".join(write_ontap_qos(["v1", "v2"], 300, 288)), {"interval_s": 300}),
    ],
)
def test_array_exports_are_detected_or_named(
    client: TestClient, fmt: str, body: str, params: dict[str, Any]
) -> None:
    detected = post(client, "array-stats", body.encode(), **params)
    named = post(client, "array-stats", gzip.compress(body.encode()), format=fmt, **params)

    for response in (detected, named):
        assert response.status_code == 200, response.text
        result = response.json()
        assert result["format"] == fmt
        peak = next(w for w in result["windows"] if w["kind"] == "peak-hour")
        assert peak["load"]["iops"]["value"] == pytest.approx(1260.0, rel=2e-3)


def test_array_export_errors_name_the_line_or_the_option(client: TestClient) -> None:
    assert error_locs(post(client, "array-stats", b"Device r/s w/s\nsda 1 2\n")) == [["body", "file"]]
    qos = "".join(write_ontap_qos(["v1"], 300, 12, characteristics=False)).encode()
    assert error_locs(post(client, "array-stats", qos)) == [["query", "interval_s"]]
    assert error_locs(post(client, "array-stats", qos, interval_s=300)) == [["query", "read_pct"]]
    assert post(client, "array-stats", qos, interval_s=300, read_pct=70).status_code == 200
    assert error_locs(post(client, "array-stats", qos, read_pct=101)) == [["query", "read_pct"]]


def test_bad_workbooks_are_a_422_at_the_file_naming_what_is_wrong(client: TestClient) -> None:
    cfb = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504) + "EncryptedPackage".encode("utf-16-le")
    no_column = workbook(rvtools_workbook, VMS, drop=("vInfo", "In Use MiB"))
    no_sheet = workbook(live_optics_workbook, ["vm1"], DAY, 600, 6, series=False, drop=("VM Performance", ""))
    cases = [
        ("live-optics", b"timestamp,object\n1,2\n", "not an xlsx workbook"),
        ("live-optics", cfb, "encrypted"),
        ("rvtools", no_column, "sheet 'vInfo', row 1: no column 'In Use MiB' or 'In Use MB'"),
        ("live-optics", no_sheet, "no performance in the workbook"),
        ("live-optics", RVTOOLS, "this is an RVTools workbook"),
        ("rvtools", b"", "the file is empty"),
    ]
    for path, body, expected in cases:
        response = post(client, path, body)
        assert error_locs(response) == [["body", "file"]], (path, expected)
        assert expected in msg(response)


def test_a_zip_bomb_workbook_is_refused(client: TestClient) -> None:
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(RVTOOLS)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename.endswith("sheet1.xml"):
                data = data.replace(b"<sheetData>", b"<sheetData>" + b" " * (64 * 1024**2))
            dst.writestr(item.filename, data)
    response = post(client, "rvtools", out.getvalue())
    assert error_locs(response) == [["body", "file"]]
    assert "zip bomb" in msg(response)


def test_workbook_uploads_may_be_as_large_as_traces_and_no_larger(
    migrated_db_url: str, make_settings: Callable[..., Settings]
) -> None:
    settings = make_settings(database_url=migrated_db_url, max_body_bytes=1000, max_trace_bytes=200_000)
    with serve(create_app(settings)) as c:
        assert c.post("/api/v1/import/rvtools", content=RVTOOLS).status_code == 200
        assert c.post("/api/v1/import/live-optics", content=b"x" * 200_001).status_code == 413
        assert c.post("/api/v1/import/array-stats", content=b"x" * 200_001).status_code == 413


def test_live_optics_rvtools_and_iostat_line_up_and_size(client: TestClient) -> None:
    lo = post(client, "live-optics", LIVE_OPTICS).json()
    rv = post(client, "rvtools", RVTOOLS).json()
    host = post(client, "host-stats", "".join(write_iostat(["sda"], DAY, 60, 24 * 60)).encode()).json()
    body = {
        "layers": [
            {"series": lo["series"], "time_zone": "Europe/Berlin"},
            {"series": host["series"], "time_zone": "Europe/Berlin"},
        ],
        "capacity": rv["capacity_sources"],
    }

    response = client.post("/api/v1/import/timeline", json=body)

    assert response.status_code == 200, response.text
    tl = response.json()
    # both peak 10:00-11:00: 1,260 + 600 at once
    assert tl["coincident_peak"]["value"] == pytest.approx(1860.0)
    assert tl["sum_of_peaks"]["value"] == pytest.approx(1860.0)
    assert [layer["name"] for layer in tl["layers"]] == ["Synthetic engagement", "dbhost01"]
    assert len(tl["times"]) == len(tl["total_iops"]) == len(tl["layer_iops"][0])
    # RVTools' 160 GiB in use replaces the imports' own capacity
    assert sum(w["capacity_tb"] for w in tl["workloads"]) == pytest.approx(163840 * 1024**2 / 1e12)
    sized = client.post("/api/v1/evaluate", json={"workloads": tl["workloads"], "configuration": FAS3270})
    assert sized.status_code == 200, sized.text
    assert {w["window"] for w in sized.json()["windows"]} >= {"peak hour"}


def test_timeline_zone_errors_name_the_layer(client: TestClient) -> None:
    array = post(client, "array-stats", "".join(write_powerstore_csv(["v1"], DAY, 300, 24)).encode()).json()
    host = post(client, "host-stats", "".join(write_iostat(["sda"], DAY, 60, 60)).encode()).json()

    wrong = client.post(
        "/api/v1/import/timeline", json={"layers": [{"series": array["series"], "time_zone": "Asia/Tokyo"}]}
    )
    missing = client.post("/api/v1/import/timeline", json={"layers": [{"series": host["series"]}]})
    unknown = client.post(
        "/api/v1/import/timeline", json={"layers": [{"series": host["series"], "time_zone": "Mars/Base"}]}
    )

    assert error_locs(wrong) == [["body", "layers", "0", "time_zone"]]
    assert "states its times in UTC" in msg(wrong)
    assert error_locs(missing) == [["body", "layers", "0", "time_zone"]]
    assert error_locs(unknown) == [["body", "layers", "0", "time_zone"]]
    assert "not a time zone: 'Mars/Base'" in msg(unknown)


def test_a_timeline_body_may_carry_many_long_series(
    migrated_db_url: str, make_settings: Callable[..., Settings]
) -> None:
    settings = make_settings(database_url=migrated_db_url, max_body_bytes=1000)
    with serve(create_app(settings)) as c:
        lo = c.post("/api/v1/import/live-optics", content=LIVE_OPTICS).json()
        layers = [{"series": {**lo["series"], "name": f"copy {i}"}, "time_zone": "UTC"} for i in range(8)]
        response = c.post("/api/v1/import/timeline", json={"layers": layers})
        assert response.status_code == 200, response.text
        assert response.json()["coincident_peak"]["value"] == pytest.approx(8 * 1260.0)
