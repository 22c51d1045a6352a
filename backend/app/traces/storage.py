"""Where trace uploads live: a directory of any fsspec filesystem, shared by every API process and
every Dask worker.

``TRACES_URL`` names it (``s3://bucket/traces``, ``gcs://...``, ``file:///srv/traces``, or any
protocol fsspec knows, with its package installed); unset, it is the local ``TRACES_DIR``. Each
job has a folder ``<root>/<job id>/`` holding its upload; other folders of the root are left
alone (the start-up sweep removes only job folders without a job). A trace already in the store can be
analysed without uploading it again: :meth:`TraceStore.resolve` accepts a URL inside the root.
"""

from __future__ import annotations

import contextlib
import posixpath
import re
from typing import Any, BinaryIO, cast

import fsspec
from fsspec.core import url_to_fs

UPLOAD_NAME = "upload"
JOB_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
"""A job id (``tables.new_uuid``), the name of a job's folder."""


class StorageUnavailable(Exception):
    """The store cannot be reached or written (-> 503 at submit time)."""


class TraceStore:
    """A folder of an fsspec filesystem: ``root``, with one sub-folder per job."""

    def __init__(self, url: str, **storage_options: Any) -> None:
        self.url = url
        fs, root = url_to_fs(url, **storage_options)
        self.fs: fsspec.AbstractFileSystem = fs
        self.root = root.rstrip("/") or "/"

    def _path(self, *parts: str) -> str:
        return posixpath.join(self.root, *parts)

    def full_url(self, path: str) -> str:
        """``path`` of this filesystem as a URL any process can open (``fsspec.open``)."""
        return str(self.fs.unstrip_protocol(path))

    def upload_url(self, job_id: str) -> str:
        return self.full_url(self._path(job_id, UPLOAD_NAME))

    def check(self) -> None:
        """StorageUnavailable when the root cannot be created or listed."""
        try:
            self.fs.makedirs(self.root, exist_ok=True)
            self.fs.ls(self.root, detail=False)
        except Exception as exc:  # every filesystem raises its own errors
            raise StorageUnavailable(f"trace storage {self.url} is unavailable: {exc}") from exc

    def open_upload(self, job_id: str) -> BinaryIO:
        """A new upload of job ``job_id``, for writing (its folder is created)."""
        self.fs.makedirs(self._path(job_id), exist_ok=True)
        return cast(BinaryIO, self.fs.open(self._path(job_id, UPLOAD_NAME), "wb"))

    def remove(self, job_id: str) -> None:
        """Remove a job's folder (nothing when there is none)."""
        with contextlib.suppress(FileNotFoundError):
            self.fs.rm(self._path(job_id), recursive=True)

    def job_ids(self) -> list[str]:
        """Names of the job folders under the root (folders named as job ids, UUIDs: the root may
        hold other folders, such as traces to be named by URL)."""
        try:
            entries = self.fs.ls(self.root, detail=True)
        except FileNotFoundError:
            return []
        folders = [posixpath.basename(e["name"].rstrip("/")) for e in entries if e.get("type") == "directory"]
        return [name for name in folders if JOB_ID.fullmatch(name)]

    def resolve(self, url: str) -> tuple[str, int]:
        """``(url, size in bytes)`` of an object named by a URL inside the root; ValueError saying
        why when it is outside the store or missing."""
        try:
            fs, path = url_to_fs(url)
        except (ValueError, ImportError) as exc:
            raise ValueError(f"not a storage URL: {exc}") from exc
        path = posixpath.normpath(path)
        if not _protocols(fs) & _protocols(self.fs) or not (path + "/").startswith(
            self.root.rstrip("/") + "/"
        ):
            raise ValueError(f"the URL must name an object under the trace storage {self.url}")
        try:
            info = self.fs.info(path)
        except FileNotFoundError as exc:
            raise ValueError(f"no such object: {url}") from exc
        if info.get("type") != "file":
            raise ValueError(f"not a file: {url}")
        return self.full_url(path), int(info.get("size") or 0)


def _protocols(fs: fsspec.AbstractFileSystem) -> set[str]:
    protocol = fs.protocol
    return {protocol} if isinstance(protocol, str) else set(protocol)


def open_url(url: str) -> BinaryIO:
    """An object of any store, by URL, for reading (workers open uploads this way)."""
    return cast(BinaryIO, fsspec.open(url, "rb").open())
