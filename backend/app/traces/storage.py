"""Where trace uploads live: a directory of any fsspec filesystem, shared by every API process and
every Dask worker.

``TRACES_URL`` names it (``s3://bucket/traces``, ``gcs://...``, ``file:///srv/traces``, or any
protocol fsspec knows, with its package installed); unset, it is the local ``TRACES_DIR``. Each
job has a folder ``<root>/<job id>/`` holding its upload; other folders of the root are left
alone (the start-up sweep removes only job folders without a job). A trace already in the store can be
analysed without uploading it again: :meth:`TraceStore.resolve` accepts a URL inside the root.

A URL from a client is checked as text before fsspec sees it (:meth:`TraceStore.path_of`): the
store's own scheme only (``file://`` for a local store, ``s3://`` for ``s3://bucket/...``), no
chained URL (``zip://x::file:///dev/zero``), no query, credentials or port, no ``..`` segment,
the path under the store's root. Any other protocol fsspec knows (``ftp://``, ``http(s)://``,
``github://``, ``memory://``, ...) is refused without being opened or connected to; a local store
also refuses a symbolic link leading out of it, and anything but a regular file.
"""

from __future__ import annotations

import contextlib
import logging
import os
import posixpath
import re
from typing import Any, BinaryIO, cast
from urllib.parse import urlsplit

import fsspec
from fsspec.core import url_to_fs

logger = logging.getLogger(__name__)

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
        except Exception as exc:  # every filesystem raises its own errors; they name server paths
            logger.warning("trace storage %s is unavailable: %s", self.url, exc)
            raise StorageUnavailable(f"the trace storage is unavailable ({type(exc).__name__})") from exc

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

    @property
    def local(self) -> bool:
        return "file" in _protocols(self.fs)

    def scheme(self) -> str:
        """The scheme a client's URL must have: the store's (``file`` for a local store)."""
        protocol = self.fs.protocol
        return protocol if isinstance(protocol, str) else protocol[0]

    def path_of(self, url: str) -> str:
        """The path in this store's filesystem that ``url`` names, checked as text only (nothing
        is opened, fsspec never sees the URL); ValueError saying why it is refused."""
        where = f"the trace storage takes {self.scheme()}:// URLs under {self.full_url(self.root)} only"
        if "::" in url:
            raise ValueError(f"chained URLs ('::') are not accepted: {where}")
        if any(ord(c) < 0x20 or c in "\\\x7f" for c in url):
            raise ValueError("the URL may not contain control characters or backslashes")
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError as exc:
            raise ValueError(f"not a URL ({exc}): {where}") from None
        if parts.scheme.lower() not in _protocols(self.fs):
            named = f"{parts.scheme}://" if parts.scheme else "a URL without a scheme"
            raise ValueError(f"{named} is not accepted: {where}")
        if parts.query or parts.fragment or parts.username or parts.password or port is not None:
            raise ValueError(f"a query, fragment, user, password or port is not accepted: {where}")
        if self.local:
            if parts.netloc not in ("", "localhost"):
                raise ValueError(f"a file:// URL names no host: {where}")
            path = parts.path
        else:
            path = parts.netloc + parts.path
        if ".." in path.split("/"):
            raise ValueError(f"'..' is not accepted in the path: {where}")
        inside = posixpath.normpath("/" + path).lstrip("/")  # the root likewise, whatever its form
        root = self.root.strip("/")
        if not inside.startswith(root + "/" if root else ""):
            raise ValueError(f"the URL must name an object under the trace storage: {where}")
        return posixpath.join(self.root, inside[len(root) :].lstrip("/"))

    def resolve(self, url: str) -> tuple[str, int]:
        """``(url, size in bytes)`` of an object named by a URL inside the root (checked first by
        :meth:`path_of`, then looked up in this store only); ValueError saying why when it is
        refused, missing or not a file."""
        path = self.path_of(url)
        if self.local:
            real, root = os.path.realpath(path), os.path.realpath(self.root)
            if not real.startswith(root.rstrip("/") + "/"):
                raise ValueError("the URL names a link leading out of the trace storage")
            path = real
        try:
            info = self.fs.info(path)
        except FileNotFoundError as exc:
            raise ValueError(f"no such object in the trace storage: {url}") from exc
        if info.get("type") != "file":
            raise ValueError(f"not a file: {url}")
        return self.full_url(path), int(info.get("size") or 0)


def _protocols(fs: fsspec.AbstractFileSystem) -> set[str]:
    protocol = fs.protocol
    return {protocol} if isinstance(protocol, str) else set(protocol)


def open_url(url: str) -> BinaryIO:
    """An object of any store, by URL, for reading (workers open uploads this way)."""
    return cast(BinaryIO, fsspec.open(url, "rb").open())
