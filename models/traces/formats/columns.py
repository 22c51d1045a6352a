"""Readers of the public block-trace corpora whose lines are comma-separated numbers.

Each has a fixed number of fields, a numbered volume per line (its stream, named by the number),
a time, an operation, an offset and a size; they differ in the order and the units:

====================  ==========================================  ======================================
format                fields                                      units
====================  ==========================================  ======================================
Alibaba Cloud block   ``device_id,opcode,offset,length,timestamp``  opcode R/W; bytes; timestamp [us]
(``alibaba``)                                                     since the epoch [alibaba-block-2020]
Tencent CBS           ``timestamp,offset,size,io_type,volume_id``   timestamp [s]; offset and size in
(``tencent``)                                                     512 B sectors; io_type 0 read,
                                                                  1 write [tencent-cbs-2020]
SNIA IOTTA SPC        ``asu,lba,size,opcode,timestamp[,...]``       lba in 512 B sectors; size [B];
(``spc``, UMass)                                                  opcode r/R/w/W; timestamp [s]
                                                                  [umass-spc-2002]
====================  ==========================================  ======================================

Times are made relative to the first record's (exactly, in the format's integer unit, before
the conversion to seconds). Lines the vectorized path cannot read go through a per-line parser;
what that cannot read either is malformed (a first line that is not a record is a header).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from models.traces.formats.base import BlockReader, in_line_order
from models.traces.records import BoolArray, FloatArray, IntArray, ParseState, Records, TraceFormat
from models.traces.tokenize import (
    Lines,
    StreamTable,
    U8Array,
    blank_lines,
    byte_at,
    comma_fields,
    op_from_first_byte,
    parse_decimal,
    parse_uint,
)

SECTOR_BYTES = 512
"""Sectors of the Tencent and SPC traces [B]."""

Fields = list[tuple[IntArray, IntArray]]
Row = tuple[float, bool, int, int, int]
"""(time in the format's unit, is read, offset [B], size [B], volume number) of one line."""


class ColumnsReader(BlockReader):
    """A numeric comma-separated format: :meth:`columns` reads the fields of a block, :meth:`row`
    one irregular line; ``ticks_per_s`` converts the format's time unit to seconds."""

    comma_separated = True
    fields: int
    """Fields per line (SPC: at least this many)."""
    ticks_per_s: float = 1.0

    def __init__(self, state: ParseState) -> None:
        super().__init__(state)
        self.t0: float | None = None
        self.volumes = StreamTable(state)

    def columns(
        self, arr: U8Array, f: Fields
    ) -> tuple[FloatArray, BoolArray, IntArray, IntArray, IntArray, BoolArray]:
        """(time, is read, offset [B], size [B], volume number, valid) of the lines' fields."""
        raise NotImplementedError

    def row(self, parts: Sequence[str]) -> Row | None:
        raise NotImplementedError

    def parse(self, lines: Lines) -> Records:
        arr = lines.arr
        blank = blank_lines(lines)
        shaped, f = comma_fields(lines, self.fields)
        t, is_read, off, size, vol, ok = self.columns(arr, f)
        idx = np.flatnonzero(shaped)[ok]
        done = blank.copy()
        done[idx] = True
        rows, bad = self.irregular(
            lines, ~done, lambda text: self.row([p.strip().strip('"') for p in text.split(",")])
        )
        times = np.concatenate([t[ok], np.array([r[0] for r in rows], dtype=np.float64)])
        volumes = np.concatenate([vol[ok], np.array([r[4] for r in rows], dtype=np.int64)])
        if times.size and self.t0 is None:
            self.t0 = float(times.min())
        out = Records(
            t=(times - (self.t0 or 0.0)) / self.ticks_per_s,
            read=np.concatenate([is_read[ok], np.array([r[1] for r in rows], dtype=bool)]),
            offset=np.concatenate([off[ok], np.array([r[2] for r in rows], dtype=np.int64)]),
            size=np.concatenate([size[ok], np.array([r[3] for r in rows], dtype=np.int64)]),
            stream=self.volumes.lookup(volumes.astype(np.uint64), lambda i: str(int(volumes[i])).encode()),
            line=np.concatenate([lines.numbers[idx], np.array([r[5] for r in rows], dtype=np.int64)]),
        )
        self.state.ignored += int(blank.sum())
        self.reject(lines, bad)
        return in_line_order(out)


def _int(text: str) -> int | None:
    return int(text) if text.isdigit() else None


def _op(text: str) -> bool | None:
    """True for a read, False for a write, None for neither (R/W/r/w/Read/Write)."""
    c = text[:1].lower()
    return True if c == "r" else False if c == "w" else None


class AlibabaReader(ColumnsReader):
    """``device_id,opcode,offset,length,timestamp`` (timestamp in microseconds)."""

    format = TraceFormat.ALIBABA
    fields = 5
    ticks_per_s = 1e6

    def columns(
        self, arr: U8Array, f: Fields
    ) -> tuple[FloatArray, BoolArray, IntArray, IntArray, IntArray, BoolArray]:
        vol, ok = parse_uint(arr, *f[0], max_len=12)
        is_read, ok_op = op_from_first_byte(arr, *f[1])
        off, ok_off = parse_uint(arr, *f[2])
        size, ok_size = parse_uint(arr, *f[3])
        ts, ok_t = parse_uint(arr, *f[4])
        ok &= ok_op & ok_off & ok_size & ok_t & (f[1][1] - f[1][0] == 1)
        return ts.astype(np.float64), is_read, off, size, vol, ok

    def row(self, parts: Sequence[str]) -> Row | None:
        if len(parts) != 5:
            return None
        vol, off, size, ts, op = _int(parts[0]), _int(parts[2]), _int(parts[3]), _int(parts[4]), _op(parts[1])
        if vol is None or off is None or size is None or ts is None or op is None:
            return None
        return float(ts), op, off, size, vol


class TencentReader(ColumnsReader):
    """``timestamp,offset,size,io_type,volume_id`` (seconds; sectors; 0 read, 1 write)."""

    format = TraceFormat.TENCENT
    fields = 5

    def columns(
        self, arr: U8Array, f: Fields
    ) -> tuple[FloatArray, BoolArray, IntArray, IntArray, IntArray, BoolArray]:
        ts, ok = parse_uint(arr, *f[0])
        off, ok_off = parse_uint(arr, *f[1])
        size, ok_size = parse_uint(arr, *f[2])
        op = byte_at(arr, f[3][0], f[3][1] > f[3][0])
        vol, ok_vol = parse_uint(arr, *f[4], max_len=12)
        ok &= ok_off & ok_size & ok_vol & (f[3][1] - f[3][0] == 1) & ((op == ord("0")) | (op == ord("1")))
        return ts.astype(np.float64), op == ord("0"), off * SECTOR_BYTES, size * SECTOR_BYTES, vol, ok

    def row(self, parts: Sequence[str]) -> Row | None:
        if len(parts) != 5 or parts[3] not in ("0", "1"):
            return None
        ts, off, size, vol = _int(parts[0]), _int(parts[1]), _int(parts[2]), _int(parts[4])
        if ts is None or off is None or size is None or vol is None:
            return None
        return float(ts), parts[3] == "0", off * SECTOR_BYTES, size * SECTOR_BYTES, vol


class SpcReader(ColumnsReader):
    """``asu,lba,size,opcode,timestamp`` (sectors; bytes; r/w; seconds), further fields ignored."""

    format = TraceFormat.SPC
    fields = 5

    def columns(
        self, arr: U8Array, f: Fields
    ) -> tuple[FloatArray, BoolArray, IntArray, IntArray, IntArray, BoolArray]:
        vol, ok = parse_uint(arr, *f[0], max_len=12)
        lba, ok_lba = parse_uint(arr, *f[1])
        size, ok_size = parse_uint(arr, *f[2])
        is_read, ok_op = op_from_first_byte(arr, *f[3])
        ts, ok_t = parse_decimal(arr, *f[4])
        ok &= ok_lba & ok_size & ok_op & ok_t & (f[3][1] - f[3][0] == 1)
        return ts, is_read, lba * SECTOR_BYTES, size, vol, ok

    def row(self, parts: Sequence[str]) -> Row | None:
        if len(parts) < 5:
            return None
        vol, lba, size, op = _int(parts[0]), _int(parts[1]), _int(parts[2]), _op(parts[3])
        try:
            ts = float(parts[4])
        except ValueError:
            return None
        if vol is None or lba is None or size is None or op is None or ts != ts:
            return None
        return ts, op, lba * SECTOR_BYTES, size, vol


def alibaba_looks_like(row: str) -> bool:
    """Five fields: a device number, R or W, two integers, a timestamp in microseconds (>= 10^12)."""
    f = [p.strip() for p in row.split(",")]
    return (
        len(f) == 5
        and f[0].isdigit()
        and f[1] in ("R", "W", "r", "w")
        and f[2].isdigit()
        and f[3].isdigit()
        and f[4].isdigit()
        and int(f[4]) >= 10**12
    )


def tencent_looks_like(row: str) -> bool:
    """Five integers: a Unix time in seconds (>= 10^9), offset, size, 0 or 1, a volume number."""
    f = [p.strip() for p in row.split(",")]
    return len(f) == 5 and all(x.isdigit() for x in f) and 10**9 <= int(f[0]) < 10**11 and f[3] in ("0", "1")


def spc_looks_like(row: str) -> bool:
    """At least five fields: ASU, LBA and size integers, r/R/w/W, a time in seconds."""
    f = [p.strip() for p in row.split(",")]
    if (
        len(f) < 5
        or not (f[0].isdigit() and f[1].isdigit() and f[2].isdigit())
        or f[3] not in ("r", "R", "w", "W")
    ):
        return False
    try:
        float(f[4])
    except ValueError:
        return False
    return True
