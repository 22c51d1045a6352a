"""Plain CSV: ``time_s,op,offset,size[,latency_ms]`` (op R/W or read/write; a header line is allowed)."""

from __future__ import annotations

import numpy as np

from models.traces.formats.base import BlockReader, in_line_order
from models.traces.records import ParseState, Records, TraceFormat, concat_records
from models.traces.tokenize import (
    Lines,
    blank_lines,
    comma_fields,
    op_from_first_byte,
    parse_decimal,
    parse_uint,
    plain_number,
)


def _slow_csv(text: str) -> tuple[float, bool, int, int, float] | None:
    parts = [p.strip().strip('"') for p in text.split(",")]
    if len(parts) not in (4, 5):
        return None
    try:
        t = float(parts[0])
        op = parts[1].lower()
        if not op or op[0] not in "rw":
            return None
        offset, size = plain_number(parts[2]), plain_number(parts[3])
        lat = float(parts[4]) / 1000.0 if len(parts) == 5 and parts[4] else float("nan")
    except (ValueError, OverflowError):  # "nan" and "inf" offsets or sizes
        return None
    if t != t or offset < 0 or size < 0:
        return None
    return t, op[0] == "r", offset, size, lat


def looks_like(row: str) -> bool:
    """Four or five comma-separated fields, the second R/W/read/write (a header line is allowed)."""
    fields = [p.strip() for p in row.split(",")]
    return len(fields) in (4, 5) and fields[1][:1].lower() in ("r", "w") and fields[1].isalpha()


class CsvReader(BlockReader):
    format = TraceFormat.CSV
    comma_separated = True

    def __init__(self, state: ParseState) -> None:
        super().__init__(state)
        self.stream = state.stream_id(b"csv")

    def parse(self, lines: Lines) -> Records:
        arr = lines.arr
        blank = blank_lines(lines)
        done = blank.copy()
        parts: list[Records] = []
        has_lat = False
        for k in (4, 5):
            shaped, f = comma_fields(lines, k)
            t, ok_t = parse_decimal(arr, *f[0])
            is_read, ok_op = op_from_first_byte(arr, *f[1])
            off, ok_off = parse_uint(arr, *f[2])
            size, ok_size = parse_uint(arr, *f[3])
            ok = ok_t & ok_op & ok_off & ok_size
            lat = np.full(t.size, np.nan)
            if k == 5:
                lat_ms, ok_lat = parse_decimal(arr, *f[4])
                empty = f[4][1] == f[4][0]
                ok &= ok_lat | empty
                lat = np.where(empty, np.nan, lat_ms / 1000.0)
            idx = np.flatnonzero(shaped)[ok]
            if idx.size and k == 5:
                has_lat = True
            done[idx] = True
            parts.append(
                Records(
                    t=t[ok],
                    read=is_read[ok],
                    offset=off[ok],
                    size=size[ok],
                    stream=np.full(idx.size, self.stream, dtype=np.int64),
                    latency=lat[ok],
                    line=lines.numbers[idx],
                )
            )
        rows, bad = self.irregular(lines, ~done, _slow_csv)
        has_lat = has_lat or any(r[4] == r[4] for r in rows)
        if rows:
            cols = list(zip(*rows, strict=True))
            parts.append(
                Records(
                    t=np.array(cols[0], dtype=np.float64),
                    read=np.array(cols[1], dtype=bool),
                    offset=np.array(cols[2], dtype=np.int64),
                    size=np.array(cols[3], dtype=np.int64),
                    stream=np.full(len(rows), self.stream, dtype=np.int64),
                    latency=np.array(cols[4], dtype=np.float64),
                    line=np.array(cols[5], dtype=np.int64),
                )
            )
        self.state.ignored += int(blank.sum())
        self.reject(lines, bad)
        self.state.has_latency |= has_lat
        return in_line_order(concat_records(parts))
