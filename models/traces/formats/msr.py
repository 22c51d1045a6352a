"""SNIA IOTTA / MSR-Cambridge CSV: ``Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime``.

Timestamp and ResponseTime are Windows filetime ticks (100 ns); Type is Read or Write; Offset and
Size are bytes. Each (Hostname, DiskNumber) is a stream (a volume).
"""

from __future__ import annotations

import numpy as np

from models.traces.formats.base import BlockReader, in_line_order
from models.traces.records import BoolArray, IntArray, ParseState, Records, TraceFormat, concat_records
from models.traces.tokenize import (
    Lines,
    StreamTable,
    U8Array,
    blank_lines,
    comma_fields,
    op_from_first_byte,
    parse_uint,
    token_key,
)

FILETIME_TICKS_PER_S = 10_000_000
"""Windows filetime: 100 ns ticks (MSR-Cambridge Timestamp and ResponseTime)."""


def _slow_msr(text: str) -> tuple[int, str, bool, int, int, int] | None:
    parts = [p.strip().strip('"') for p in text.split(",")]
    if len(parts) != 7:
        return None
    try:
        ticks = int(parts[0])
        name = f"{parts[1]}/{int(parts[2])}"
        op = parts[3].lower()
        if not op or op[0] not in "rw":
            return None
        offset, size, resp = int(parts[4]), int(parts[5]), int(parts[6])
    except ValueError:
        return None
    if offset < 0 or size < 0 or resp < 0:
        return None
    return ticks, name, op[0] == "r", offset, size, resp


def looks_like(row: str) -> bool:
    """Seven comma-separated fields, the first a filetime (>= 10^15), the fourth Read/Write."""
    fields = [p.strip() for p in row.split(",")]
    return (
        len(fields) == 7
        and fields[0].isdigit()
        and int(fields[0]) >= 10**15
        and fields[3][:1].lower() in "rw"
    )


class MsrReader(BlockReader):
    format = TraceFormat.MSR
    comma_separated = True

    def __init__(self, state: ParseState) -> None:
        super().__init__(state)
        self.t0: int | None = None
        self.streams = StreamTable(state)

    def _stream_ids(self, arr: U8Array, host: tuple[IntArray, IntArray], disk: IntArray) -> IntArray:
        key = token_key(arr, *host) * np.uint64(1000003) + disk.astype(np.uint64)

        def name(i: int) -> bytes:
            return bytes(arr[host[0][i] : host[1][i]]) + b"/" + str(int(disk[i])).encode()

        return self.streams.lookup(key, name)

    def parse(self, lines: Lines) -> Records:
        arr = lines.arr
        n = lines.start.size
        blank = blank_lines(lines)
        shaped, f = comma_fields(lines, 7)
        ticks, ok = parse_uint(arr, *f[0])
        disk, ok_disk = parse_uint(arr, *f[2], max_len=9)
        is_read, ok_op = op_from_first_byte(arr, *f[3])
        off, ok_off = parse_uint(arr, *f[4])
        size, ok_size = parse_uint(arr, *f[5])
        resp, ok_resp = parse_uint(arr, *f[6])
        ok &= ok_disk & ok_op & ok_off & ok_size & ok_resp
        idx = np.flatnonzero(shaped)[ok]
        good: BoolArray | slice = slice(None) if idx.size == n else ok  # every line read: no copies
        streams = self._stream_ids(arr, (f[1][0][good], f[1][1][good]), disk[good])
        fast = Records(
            t=np.zeros(idx.size),
            read=is_read[good],
            offset=off[good],
            size=size[good],
            stream=streams,
            latency=resp[good] / FILETIME_TICKS_PER_S,
            line=lines.numbers if idx.size == n else lines.numbers[idx],
        )
        fast_ticks = ticks[good]
        done = blank.copy()
        done[idx] = True
        rows, bad = self.irregular(lines, ~done, _slow_msr)
        slow_ticks = np.array([r[0] for r in rows], dtype=np.int64)
        slow = Records(
            t=np.zeros(len(rows)),
            read=np.array([r[2] for r in rows], dtype=bool),
            offset=np.array([r[3] for r in rows], dtype=np.int64),
            size=np.array([r[4] for r in rows], dtype=np.int64),
            stream=np.array([self.state.stream_id(r[1].encode()) for r in rows], dtype=np.int64),
            latency=np.array([r[5] for r in rows], dtype=np.float64) / FILETIME_TICKS_PER_S,
            line=np.array([r[6] for r in rows], dtype=np.int64),
        )
        all_ticks = np.concatenate([fast_ticks, slow_ticks])
        out = concat_records([fast, slow])
        if all_ticks.size:
            if self.t0 is None:
                self.t0 = int(all_ticks.min())
            out.t = (all_ticks - self.t0) / FILETIME_TICKS_PER_S
            self.state.has_latency = True
        self.state.ignored += int(blank.sum())
        self.reject(lines, bad)
        return in_line_order(out) if rows else out  # the fast path's lines are in order
