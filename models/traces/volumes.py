"""Volumes of a trace: which to keep (a filter by name), and a summary of each to choose from.

A trace's streams are its volumes: an MSR/SNIA disk ``host/disk``, a blkparse device, a fio
file, an Alibaba or Tencent volume id, an SPC application storage unit. A filter names volumes;
a name matches a volume exactly, or every volume of a host (``usr`` matches ``usr/0``,
``usr/1``, ...). The summary counts every volume, kept or not, so a user sees what else the
trace holds::

    IOPS      records of the volume / the trace's length (first record to last, all volumes)
    read %    reads / records x 100
    GB        bytes moved [GB, decimal]
    span GB   highest byte addressed [GB]
"""

from __future__ import annotations

import numpy as np
from pydantic import Field

from models.base import Output
from models.traces.builder import top_of
from models.traces.records import BoolArray, ParseState, Records, TraceError
from models.units import GB


class VolumeSummary(Output):
    """One volume (stream) of the trace."""

    name: str
    records: int
    read_pct: float
    gb_moved: float = Field(description="bytes read and written [GB]")
    span_gb: float = Field(description="highest byte addressed [GB]")
    mean_iops: float = Field(description="records / the whole trace's length")
    selected: bool = Field(description="kept by the volume filter (all are without one)")


def matches(name: str, wanted: list[str]) -> bool:
    """Whether volume ``name`` is one of ``wanted``, or of a host in it (``host`` for ``host/disk``)."""
    return any(name == w or name.startswith(w + "/") for w in wanted)


class VolumeCounter:
    """Per-volume counts of the records read, and the filter applied to them."""

    def __init__(self, wanted: list[str] | None = None) -> None:
        self.wanted = wanted
        self.records = np.zeros(0, np.int64)
        self.reads = np.zeros(0, np.int64)
        self.bytes = np.zeros(0, np.float64)
        self.span = np.zeros(0, np.int64)
        self.selected = np.zeros(0, dtype=bool)
        self.t_first: float | None = None
        self.t_last = 0.0

    def _grow(self, state: ParseState) -> None:
        n = len(state.stream_names)
        if n <= self.records.size:
            return
        names = list(state.stream_names)
        extra = n - self.records.size
        self.records = np.concatenate([self.records, np.zeros(extra, np.int64)])
        self.reads = np.concatenate([self.reads, np.zeros(extra, np.int64)])
        self.bytes = np.concatenate([self.bytes, np.zeros(extra)])
        self.span = np.concatenate([self.span, np.zeros(extra, np.int64)])
        new = [
            self.wanted is None or matches(k.decode("utf-8", "replace"), self.wanted)
            for k in names[self.selected.size :]
        ]
        self.selected = np.concatenate([self.selected, np.asarray(new, dtype=bool)])

    def add(self, rec: Records, state: ParseState) -> Records:
        """Count a chunk per volume; the records of the selected volumes."""
        if len(rec) == 0:
            return rec
        self._grow(state)
        n = self.records.size
        self.records += np.bincount(rec.stream, minlength=n)
        self.reads += np.bincount(rec.stream[rec.read], minlength=n)
        self.bytes += np.bincount(rec.stream, weights=rec.size.astype(np.float64), minlength=n)
        top_of(self.span, rec.stream, rec.offset + rec.size)
        if self.t_first is None:
            self.t_first = float(rec.t.min())
        self.t_last = max(self.t_last, float(rec.t.max()))
        if self.wanted is None:
            return rec
        keep: BoolArray = self.selected[rec.stream]
        return rec if keep.all() else rec.take(keep)

    def check(self, state: ParseState) -> None:
        """TraceError listing the volumes when the filter kept none of them."""
        self._grow(state)
        if self.wanted is not None and not self.selected.any():
            raise TraceError(no_match_message(self.wanted, names(state)))

    def summary(self, state: ParseState) -> list[VolumeSummary]:
        self._grow(state)
        duration = self.t_last - (self.t_first or 0.0)
        out = []
        for i, name in enumerate(names(state)):
            n = int(self.records[i])
            out.append(
                VolumeSummary(
                    name=name,
                    records=n,
                    read_pct=100.0 * int(self.reads[i]) / n if n else 0.0,
                    gb_moved=float(self.bytes[i]) / GB,
                    span_gb=int(self.span[i]) / GB,
                    mean_iops=n / duration if duration > 0 else 0.0,
                    selected=bool(self.selected[i]),
                )
            )
        return out


def names(state: ParseState) -> list[str]:
    return [k.decode("utf-8", "replace") for k in state.stream_names]


def no_match_message(wanted: list[str], present: list[str], limit: int = 50) -> str:
    shown = ", ".join(present[:limit]) + (
        f" and {len(present) - limit:,} more" if len(present) > limit else ""
    )
    return (
        f"the volume filter {', '.join(wanted)} matches none of the volumes in the trace: {shown or 'none'}"
    )
