"""What every importer shares: the imported phase, the parse error, and small helpers.

Load-generator importers (Iometer, fio) turn a specification or a result into an
:class:`ImportedPhase`; host-statistics importers (iostat, sar, perfmon, esxtop) turn a time series
into workloads (:mod:`models.importers.series`). A file that cannot be read raises
:class:`ParseError`, naming the line (and the column when one is at fault).
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field

from models.base import Frozen, NonNegFloat, Pct, PositiveFloat
from models.workload import IoSize, Phase


class ParseError(ValueError):
    """Input that cannot be imported.

    ``line`` is the 1-based line number when one is at fault; ``column`` the 1-based field number
    in that line and ``column_name`` its header, when one field is. The message reads
    ``line 12, column 5 (r_await): not a number: 'abc'``.
    """

    def __init__(
        self, message: str, line: int | None = None, column: int | None = None, column_name: str | None = None
    ) -> None:
        self.line = line
        self.column = column
        self.column_name = column_name
        self.reason = message
        where = []
        if line is not None:
            where.append(f"line {line}")
        if column is not None:
            where.append(f"column {column}" + (f" ({column_name})" if column_name else ""))
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


class IometerLine(Frozen):
    """One line of an Iometer access specification (``size,% of size,% reads,% random,...``)."""

    size_bytes: int = Field(gt=0, le=16 * 1024 * 1024)
    pct_of_size: Pct
    read_pct: Pct
    random_pct: Pct
    delay: int = Field(default=0, ge=0)
    burst: int = Field(default=1, ge=0)
    align: int = Field(default=0, ge=0)
    reply: int = Field(default=0, ge=0)


class ImportedPhase(Frozen):
    """A phase read from a load generator's specification or result, before it has a window.

    ``iops``/``mb_per_s`` are the rate the source fixed or measured (0 / None when it gave none);
    ``queue_depth`` the outstanding I/Os it kept (fio ``iodepth x numjobs``).
    """

    name: str = Field(min_length=1, max_length=80)
    source_format: Literal["iometer", "fio-job", "fio-json"]
    read_pct: Pct
    random_pct: Pct
    io_sizes: list[IoSize] = Field(min_length=1, max_length=64)
    iops: NonNegFloat = 0.0
    mb_per_s: NonNegFloat | None = None
    working_set_gb: PositiveFloat | None = None
    queue_depth: PositiveFloat | None = None
    measured_read_latency_ms: NonNegFloat | None = None
    measured_write_latency_ms: NonNegFloat | None = None
    iometer_lines: list[IometerLine] = Field(
        default_factory=list, description="Iometer source, for round trips"
    )
    ignored_keys: list[str] = Field(default_factory=list, description="source options that were not used")
    warnings: list[str] = Field(default_factory=list)

    @property
    def mean_size_kib(self) -> float:
        """I/O-weighted mean size [KiB]."""
        return sum(s.size_kib * s.pct for s in self.io_sizes) / 100.0

    def to_phase(
        self,
        window: str,
        *,
        name: str | None = None,
        iops: float | None = None,
        mb_per_s: float | None = None,
        working_set_gb: float | None = None,
        read_latency_target_ms: float | None = None,
    ) -> Phase:
        """A :class:`Phase` in ``window``.

        The rate defaults to the imported one (its IOPS when it has them, else its MB/s); giving
        ``iops`` or ``mb_per_s`` replaces it. The working set defaults to the imported one.
        """
        if iops is not None or mb_per_s is not None:
            rate_iops, rate_mb = iops or 0.0, mb_per_s
        else:
            rate_iops, rate_mb = self.iops, (None if self.iops > 0 else self.mb_per_s)
        return Phase(
            name=name or self.name,
            window=window,
            iops=rate_iops,
            mb_per_s=rate_mb,
            read_pct=self.read_pct,
            random_pct=self.random_pct,
            io_sizes=list(self.io_sizes),
            working_set_gb=self.working_set_gb if working_set_gb is None else working_set_gb,
            read_latency_target_ms=read_latency_target_ms,
        )


# ---- helpers ------------------------------------------------------------------------------------


def plain_number(x: float) -> str:
    """Shortest plain decimal: integers without a point, others up to 6 decimals, no exponent."""
    if math.isclose(x, round(x), abs_tol=1e-9):
        return str(int(round(x)))
    return f"{x:.6f}".rstrip("0").rstrip(".")


def merge_sizes(pairs: list[tuple[float, float]]) -> list[IoSize]:
    """[(size_kib, weight)] -> IoSize list in first-seen order, equal sizes merged, pct summing to 100."""
    merged: dict[float, float] = {}
    for size, w in pairs:
        if w > 0:
            merged[size] = merged.get(size, 0.0) + w
    total = sum(merged.values())
    if total <= 0:
        raise ParseError("no I/O sizes with a positive share")
    items = list(merged.items())
    pcts = [round(w / total * 100.0, 6) for _, w in items]
    pcts[-1] = round(100.0 - sum(pcts[:-1]), 6)  # absorb rounding so the mix sums to 100
    return [IoSize(size_kib=s, pct=p) for (s, _), p in zip(items, pcts, strict=True)]
