"""``source_url`` by allow-list: only the trace storage's own scheme under its root, checked as text
before fsspec sees the URL; every other protocol family, chained URLs, escapes and links are a 422
at ``query.source_url`` with nothing opened, nothing connected to and no job created (issue #34:
``zip://x::file:///dev/zero`` once read /dev/zero inside the request, ``ftp://`` made the server
connect anywhere)."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import fsspec
import fsspec.core
import pytest
from sqlalchemy.orm import Session

from backend.app.core.config import Settings
from backend.app.db import create_db_engine
from backend.app.main import create_app
from backend.app.tables import TraceJob
from backend.app.traces import storage
from backend.app.traces.storage import TraceStore
from backend.tests.conftest import serve


def refused_urls(store: Path) -> list[str]:
    """One URL of each fsspec protocol family and each way out of a local store at ``store``."""
    return [
        "zip://x::file:///dev/zero",
        f"zip://x::file://{store}/trace.zip",
        f"simplecache::file://{store}/trace.csv",
        f"file://{store}/trace.csv::file:///dev/zero",
        "ftp://127.0.0.1:21/trace.csv",
        "FTP://127.0.0.1/trace.csv",
        "sftp://127.0.0.1/trace.csv",
        "http://127.0.0.1:9/trace.csv",
        "https://example.com/trace.csv",
        "github://owner:repo@main/trace.csv",
        "gist://0123456789abcdef/trace.csv",
        "memory://trace.csv",
        "s3://bucket/trace.csv",
        "gcs://bucket/trace.csv",
        "hdfs://namenode/trace.csv",
        "webdav://127.0.0.1/trace.csv",
        "dask://127.0.0.1:8786/trace.csv",
        "reference://x",
        "data:text/plain;base64,AAAA",
        "file:///etc/passwd",
        "file:///dev/zero",
        "/etc/passwd",
        f"{store}/trace.csv",  # a path, not a URL of the store
        f"file://{store}/../../etc/passwd",
        f"file://{store}/a/../../outside.csv",
        f"file://{store}-other/trace.csv",  # the root's name as a prefix, not a folder
        f"file://{store}",  # the root itself
        f"file://example.com{store}/trace.csv",
        f"file://localhost:21{store}/trace.csv",
        f"file://user:pw@localhost{store}/trace.csv",
        f"file://{store}/trace.csv?x=1",
        f"file://{store}/trace.csv#frag",
        f"file://{store}/trace\\..\\..\\etc\\passwd",
        f"file://{store}/trace\x01.csv",
        f"file://{store}/to-dev-zero",  # a link leading out of the store
        f"file://{store}/to-etc",  # a folder link leading out of the store
        f"file://{store}/fifo",  # not a regular file
    ]


@pytest.fixture
def store(tmp_path: Path) -> Path:
    root = tmp_path / "store"
    root.mkdir()
    (root / "to-dev-zero").symlink_to("/dev/zero")
    (root / "to-etc").symlink_to("/etc")
    os.mkfifo(root / "fifo")
    return root


class Opened(AssertionError):
    """Something opened a URL or a connection it should not have."""


def forbid_opening(monkeypatch: pytest.MonkeyPatch, seen: list[str]) -> None:
    """fsspec's entry points and Python sockets record their argument and fail (psycopg connects
    to PostgreSQL through libpq, not through Python sockets)."""

    def refuse(name: str) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            seen.append(f"{name}{args[:1]}")
            raise Opened(name)

        return call

    for module, names in (
        (fsspec, ["open", "open_files", "filesystem", "get_filesystem_class"]),
        (fsspec.core, ["open", "open_files", "url_to_fs", "filesystem", "get_filesystem_class"]),
        (storage, ["url_to_fs", "open_url"]),
    ):
        for name in names:
            monkeypatch.setattr(module, name, refuse(f"{module.__name__}.{name}"))
    monkeypatch.setattr(socket.socket, "connect", refuse("socket.connect"))
    monkeypatch.setattr(socket, "create_connection", refuse("socket.create_connection"))


def test_every_other_protocol_chained_url_and_escape_is_a_422_at_source_url_opening_nothing(
    migrated_db_url: str, make_settings: Callable[..., Settings], store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = make_settings(
        database_url=migrated_db_url, traces_url=f"file://{store}", rate_limits_enabled=False
    )
    seen: list[str] = []
    with serve(create_app(settings)) as client:
        assert client.delete("/api/v1/traces/none").status_code == 404  # the store is set up
        forbid_opening(monkeypatch, seen)
        answers = {
            url: client.post("/api/v1/traces", params={"source_url": url}) for url in refused_urls(store)
        }
        monkeypatch.undo()

    wrong = {
        url: (r.status_code, r.text)
        for url, r in answers.items()
        if r.status_code != 422 or [e["loc"] for e in r.json()["detail"]] != [["query", "source_url"]]
    }
    assert wrong == {}
    assert seen == []
    engine = create_db_engine(settings.database_url)
    with Session(engine) as session:
        assert session.query(TraceJob).count() == 0
    engine.dispose()


def test_the_answer_says_which_urls_the_storage_takes(
    migrated_db_url: str, make_settings: Callable[..., Settings], store: Path
) -> None:
    settings = make_settings(database_url=migrated_db_url, traces_url=f"file://{store}")
    with serve(create_app(settings)) as client:
        chained = client.post("/api/v1/traces", params={"source_url": "zip://x::file:///dev/zero"})
        ftp = client.post("/api/v1/traces", params={"source_url": "ftp://127.0.0.1/x"})

    assert chained.json()["detail"][0]["msg"] == (
        f"chained URLs ('::') are not accepted: the trace storage takes file:// URLs under file://{store} only"
    )
    assert ftp.json()["detail"][0]["msg"].startswith("ftp:// is not accepted: ")


def test_a_refused_url_is_a_422_even_when_the_queue_is_full(
    migrated_db_url: str, make_settings: Callable[..., Settings], store: Path
) -> None:
    settings = make_settings(database_url=migrated_db_url, traces_url=f"file://{store}", trace_queue_max=1)
    engine = create_db_engine(settings.database_url)
    with Session(engine) as session:
        session.add(TraceJob(id="busy", status="running", filename="x", size_bytes=1, options={}))
        session.commit()
    engine.dispose()
    with serve(create_app(settings)) as client:
        response = client.post("/api/v1/traces", params={"source_url": "ftp://127.0.0.1/x"})

    assert response.status_code == 422


@pytest.mark.parametrize(
    ("root", "url", "path"),
    [
        ("s3://bucket/traces", "s3://bucket/traces/a.csv", "bucket/traces/a.csv"),
        ("s3://bucket/traces", "s3a://bucket/traces/x/b.csv.gz", "bucket/traces/x/b.csv.gz"),
        ("s3://bucket/traces", "s3://bucket/traces//a.csv", "bucket/traces/a.csv"),
        ("memory://store", "memory://store/a.csv", "/store/a.csv"),
        ("/srv/traces", "file:///srv/traces/a.csv", "/srv/traces/a.csv"),
        ("/srv/traces", "FILE://localhost/srv/traces/a.csv", "/srv/traces/a.csv"),
    ],
)
def test_a_url_of_the_store_names_its_path(root: str, url: str, path: str) -> None:
    assert TraceStore(root).path_of(url) == path


@pytest.mark.parametrize(
    "url",
    [
        "s3://other/traces/a.csv",  # another bucket
        "s3://bucket/tracesX/a.csv",  # a sibling prefix
        "s3://bucket/traces/../private/a.csv",
        "s3://key:secret@bucket/traces/a.csv",
        "s3://bucket/traces/a.csv?versionId=1",
        "s3://bucket/traces/a.csv::s3://bucket/traces/b.csv",
        "gcs://bucket/traces/a.csv",
        "file:///bucket/traces/a.csv",
        "https://bucket.s3.amazonaws.com/traces/a.csv",
    ],
)
def test_an_s3_store_takes_its_own_bucket_and_prefix_only(url: str) -> None:
    with pytest.raises(ValueError):
        TraceStore("s3://bucket/traces").path_of(url)
