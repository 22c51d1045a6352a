"""fio iolog version 2 (``file action offset length``, time from ``wait`` lines [us]) or version 3
(``time_us file action offset length``).
"""

from __future__ import annotations

import numpy as np

from models.traces.formats.base import BlockReader
from models.traces.records import IntArray, ParseState, Records, TraceError, TraceFormat
from models.traces.tokenize import (
    Lines,
    StreamTable,
    U8Array,
    byte_at,
    parse_uint,
    token_key,
    whitespace_tokens,
)


class FioReader(BlockReader):
    format = TraceFormat.FIO_IOLOG

    def __init__(self, state: ParseState) -> None:
        super().__init__(state)
        self.version: int | None = None
        self.wait_us = 0
        self.saw_wait = False
        self.streams = StreamTable(state)

    def parse(self, lines: Lines) -> Records:
        arr = lines.arr
        n = lines.start.size
        tok = whitespace_tokens(lines)
        handled = tok.count == 0
        if self.version is None and n:
            head = lines.text(0).strip()
            if head.startswith("fio version 2 iolog"):
                self.version = 2
            elif head.startswith("fio version 3 iolog"):
                self.version = 3
            else:
                raise TraceError(
                    "fio iolog: the first line must be 'fio version 2 iolog' or 'fio version 3 iolog'"
                )
            handled[0] = True
        v3 = self.version == 3
        io_tokens = 5 if v3 else 4
        base = 1 if v3 else 0
        io = np.flatnonzero((tok.count == io_tokens) & ~handled)
        a0, a1 = tok.column(io, base + 1)
        alen = a1 - a0
        b0 = byte_at(arr, a0, alen > 0)
        b1 = byte_at(arr, a0 + 1, alen > 1)
        is_read = (alen == 4) & (b0 == ord("r")) & (b1 == ord("e"))
        is_write = (alen == 5) & (b0 == ord("w")) & (b1 == ord("r"))
        is_wait = (alen == 4) & (b0 == ord("w")) & (b1 == ord("a"))
        known_other = np.isin(alen, [4, 8]) & np.isin(
            b0, [ord("t"), ord("s"), ord("d")]
        )  # trim, sync, datasync
        o0, o1 = tok.column(io, base + 2)
        off, ok_off = parse_uint(arr, o0, o1)
        l0, l1 = tok.column(io, base + 3)
        length, ok_len = parse_uint(arr, l0, l1)
        if v3:
            ts0, ts1 = tok.column(io, 0)
            t_us, ok_t = parse_uint(arr, ts0, ts1)
        else:
            ok_t = np.ones(io.size, dtype=bool)
            # v2: time advances by the "wait" delays [us] (the offset field of a wait line)
            wait = np.where(is_wait & ok_off, off, 0)
            t_us = self.wait_us + np.cumsum(wait) - wait
            if wait.size:
                self.wait_us = int(t_us[-1] + wait[-1])
            self.saw_wait |= bool(np.any(is_wait))
        data = is_read | is_write
        rec = data & ok_off & ok_len & ok_t & (length > 0)
        idx = io[rec]
        f0, f1 = tok.column(idx, base)
        out = Records(
            t=t_us[rec] / 1e6,
            read=is_read[rec],
            offset=off[rec],
            size=length[rec],
            stream=self._stream_ids(arr, f0, f1),
            line=lines.numbers[idx],
        )
        handled[io[rec | is_wait | known_other | (data & (length == 0))]] = True
        file_act = np.flatnonzero((tok.count == (3 if v3 else 2)) & ~handled)
        handled[file_act] = True
        bad = ~handled
        bad[io[data & ~rec & ~(length == 0)]] = True
        self.state.ignored += n - len(out) - int(bad.sum())
        self.reject(lines, bad)
        if not v3 and not self.saw_wait:
            self.state.has_timing = False
        return out

    def _stream_ids(self, arr: U8Array, start: IntArray, end: IntArray) -> IntArray:
        return self.streams.lookup(token_key(arr, start, end), lambda i: bytes(arr[start[i] : end[i]]))


def looks_like(row: str) -> bool:
    """The first line of an iolog: ``fio version 2 iolog`` or ``fio version 3 iolog``."""
    return row.startswith("fio version")
