"""Default ``blkparse`` text output: ``maj,min cpu seq time pid action rwbs sector + count [process]``."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from models.traces.formats.base import BlockReader
from models.traces.records import BoolArray, IntArray, ParseState, Records, TraceFormat, concat_records
from models.traces.tokenize import (
    COMMA,
    Lines,
    StreamTable,
    Tokens,
    U8Array,
    byte_at,
    parse_decimal,
    parse_uint,
    token_key,
    whitespace_tokens,
)

SECTOR_BYTES = 512
"""blkparse sectors [B]."""

_BLK_ACTIONS = frozenset(b"QCDGIMPSUXABFRTmT")
COMPLETION_WAIT_S = 10.0
"""blkparse: trace time a queued I/O waits for its C line before it is given no response time."""
MAX_WAITING = 1 << 20
"""blkparse: records waiting for their completion at most (the oldest go on without one)."""


def looks_like(row: str) -> bool:
    """A line starting ``maj,min`` followed by at least five more tokens."""
    parts = row.split()
    return len(parts) >= 6 and parts[0].count(",") == 1 and parts[0].replace(",", "").isdigit()


def _no_records() -> Records:
    empty = Records.empty()
    empty.latency, empty.line = np.zeros(0), np.zeros(0, dtype=np.int64)
    return empty


class BlkparseReader(BlockReader):
    format = TraceFormat.BLKPARSE

    def __init__(self, state: ParseState) -> None:
        super().__init__(state)
        self.action: int | None = None
        self.streams = StreamTable(state)
        self.held = _no_records()
        """Records waiting for their completion (with device hash, sector, latency, line)."""
        self.held_dev = np.zeros(0, dtype=np.uint64)
        self.held_sector = np.zeros(0, dtype=np.int64)
        self.held_latency = np.zeros(0)
        self.held_line = np.zeros(0, dtype=np.int64)
        self.saw_completion = False
        self.t_now = 0.0

    def finish(self) -> Records:
        held, self.held = self.held, _no_records()
        return held

    def parse(self, lines: Lines) -> Records:
        arr = lines.arr
        n = lines.start.size
        tok = whitespace_tokens(lines)
        blank = tok.count == 0
        # event lines: "maj,min cpu seq time pid action ..."
        ev = np.flatnonzero(tok.count >= 6)
        d0, d1 = tok.column(ev, 0)
        _, ok_dev = _dev_token(arr, d0, d1)
        a0, a1 = tok.column(ev, 5)
        act = byte_at(arr, a0, a1 > a0)
        is_event = ok_dev & (a1 - a0 <= 2) & np.isin(act, list(_BLK_ACTIONS))
        event_lines = ev[is_event]
        event_act = act[is_event]
        if self.action is None:
            for a in (ord("Q"), ord("D"), ord("C")):
                if np.any(event_act == a):
                    self.action = a
                    self.state.notes.append(f"blkparse: I/Os taken from the {chr(a)} lines")
                    break
        e0, e1 = tok.column(event_lines, 5)
        chosen = event_lines[(event_act == (self.action or -1)) & (e1 - e0 == 1)]
        # records need: rwbs sector + count
        full = chosen[tok.count[chosen] >= 10]
        r0, r1 = tok.column(full, 6)
        p0, p1 = tok.column(full, 8)
        plus = (p1 - p0 == 1) & (byte_at(arr, p0, p1 > p0) == ord("+"))
        has_r, has_w, _ = _rwbs(arr, r0, r1)
        t0_, t1_ = tok.column(full, 3)
        t, ok_t = parse_decimal(arr, t0_, t1_)
        s0, s1 = tok.column(full, 7)
        sector, ok_s = parse_uint(arr, s0, s1)
        c0, c1 = tok.column(full, 9)
        count, ok_c = parse_uint(arr, c0, c1)
        data = has_r | has_w
        ok = plus & ok_t & ok_s & ok_c
        rec = ok & data & (count > 0)
        idx = full[rec]
        dev0, dev1 = tok.column(idx, 0)
        dev = token_key(arr, dev0, dev1)
        out = Records(
            t=t[rec],
            read=has_r[rec],
            offset=sector[rec] * SECTOR_BYTES,
            size=count[rec] * SECTOR_BYTES,
            stream=self.streams.lookup(dev, lambda i: bytes(arr[dev0[i] : dev1[i]])),
            latency=np.full(idx.size, np.nan),
            line=lines.numbers[idx],
        )
        released = out
        if self.action != ord("C"):
            done = event_lines[(event_act == ord("C")) & (e1 - e0 == 1) & (tok.count[event_lines] >= 10)]
            released = self._complete(lines, tok, done, out, idx, dev, sector[rec])
        # chosen-action lines that are not data I/O (flush, discard, zero-length) are ignored;
        # chosen-action lines with R/W but a broken "sector + count" are malformed
        handled = np.zeros(n, dtype=bool)
        handled[event_lines] = True
        bad = np.zeros(n, dtype=bool)
        bad[full[data & ~ok]] = True
        short = chosen[tok.count[chosen] < 10]
        if short.size:
            sr0, sr1 = tok.column(short, 6)
            sh_r, sh_w, sh_f = _rwbs(arr, sr0, sr1)
            bad[short[(sh_r | sh_w) & ~sh_f]] = True  # a flush carries no sector range
        # non-event lines: blank, or the summary blkparse prints at the end ("CPU0 (8,0):", "Reads
        # Queued: ...", "Throughput (R/W): ...") are ignored; anything else is malformed
        rest = np.flatnonzero(~handled & ~blank)
        colon = np.zeros(n, dtype=bool)
        if rest.size:
            has_colon = np.zeros(n + 1, dtype=np.int64)
            c_lines = np.searchsorted(lines.end, np.flatnonzero(arr == ord(":")), side="left")
            np.add.at(has_colon, c_lines, 1)
            colon = has_colon[:n] > 0
        bad[rest[~colon[rest]]] = True
        self.state.ignored += n - len(out) - int(bad.sum())
        self.reject(lines, bad)
        return released

    def _complete(
        self,
        lines: Lines,
        tok: Tokens,
        done: IntArray,
        out: Records,
        out_lines: IntArray,
        dev: npt.NDArray[np.uint64],
        sector: IntArray,
    ) -> Records:
        """Response times from the C (complete) lines: each record still waiting (held from
        earlier blocks, or new) takes the time to the completion of its device and sector
        (:func:`pair_completions`). Returns the records that may go: the longest prefix, in line
        order, of records paired or waiting for more than :data:`COMPLETION_WAIT_S` of trace
        time (those get no response time), and all of them while no C line has been seen."""
        arr = lines.arr
        c_t, ok_t = parse_decimal(arr, *tok.column(done, 3))
        c_sector, ok_s = parse_uint(arr, *tok.column(done, 7))
        p0, p1 = tok.column(done, 8)
        ok = ok_t & ok_s & (p1 - p0 == 1) & (byte_at(arr, p0, p1 > p0) == ord("+"))
        done, c_t, c_sector = done[ok], c_t[ok], c_sector[ok]
        assert out.latency is not None  # set by parse
        held = concat_records([self.held, out])
        latency = np.concatenate([self.held_latency, out.latency])
        q_dev = np.concatenate([self.held_dev, dev])
        q_sector = np.concatenate([self.held_sector, sector])
        q_line = np.concatenate([self.held_line, lines.numbers[out_lines]])
        waiting = np.flatnonzero(np.isnan(latency))
        c_dev = token_key(arr, *tok.column(done, 0))
        qi, ci = pair_completions(
            q_dev[waiting], q_sector[waiting], q_line[waiting], c_dev, c_sector, lines.numbers[done]
        )
        if qi.size:
            latency[waiting[qi]] = c_t[ci] - held.t[waiting[qi]]
            self.state.has_latency = True
        self.saw_completion |= bool(done.size)
        if held.t.size:
            self.t_now = max(self.t_now, float(held.t.max()), float(c_t.max()) if c_t.size else 0.0)
        go = ~np.isnan(latency) | (held.t < self.t_now - COMPLETION_WAIT_S) | (not self.saw_completion)
        keep = int(np.argmin(go)) if not go.all() else go.size
        keep = max(keep, go.size - MAX_WAITING)
        held.latency = latency
        released = held.take(slice(0, keep))
        self.held = held.take(slice(keep, None))
        self.held_latency, self.held_dev = latency[keep:], q_dev[keep:]
        self.held_sector, self.held_line = q_sector[keep:], q_line[keep:]
        return released


def pair_completions(
    q_dev: npt.NDArray[np.uint64],
    q_sector: IntArray,
    q_line: IntArray,
    c_dev: npt.NDArray[np.uint64],
    c_sector: IntArray,
    c_line: IntArray,
) -> tuple[IntArray, IntArray]:
    """Pairs ``(queue event index, completion index)``: per (device, sector), in line order, a
    completion completes the earliest queue event not completed yet (FIFO); a completion with no
    such queue event before it (its I/O was queued before the trace began) pairs with nothing.

    Vectorized: the events of each (device, sector) in line order count ``+1`` per queue event
    and ``-1`` per completion; the count floored at zero (``run - min(0, running minimum)``) is
    the number of queue events waiting, so a completion pairs iff it is positive just before it,
    and the k-th completion that pairs takes the k-th queue event of its (device, sector).
    """
    nq = q_line.size
    if nq == 0 or c_line.size == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    dev = np.concatenate([q_dev, c_dev])
    sector = np.concatenate([q_sector, c_sector])
    order = np.lexsort((np.concatenate([q_line, c_line]), sector, dev))
    d, s = dev[order], sector[order]
    n = order.size
    is_q = order < nq
    start = np.ones(n, dtype=bool)
    start[1:] = (d[1:] != d[:-1]) | (s[1:] != s[:-1])
    group = np.cumsum(start) - 1
    step = np.where(is_q, 1, -1)
    total = np.cumsum(step)
    run = total - (total - step)[start][group]  # running sum within the group
    big = 2 * n + 2  # offsets keep each group's running minimum to itself
    low = np.minimum.accumulate(run - big * group) + big * group
    waiting = run - np.minimum(low, 0)
    waiting_before = np.empty(n, dtype=np.int64)
    waiting_before[0] = 0
    waiting_before[1:] = waiting[:-1]
    waiting_before[start] = 0
    paired = ~is_q & (waiting_before > 0)
    q_count = is_q.astype(np.int64)
    c_count = paired.astype(np.int64)
    q_before_group: IntArray = (np.cumsum(q_count) - q_count)[start]
    c_before_group: IntArray = (np.cumsum(c_count) - c_count)[start]
    c_pos = np.flatnonzero(paired)
    c_rank = np.arange(c_pos.size) - c_before_group[group[c_pos]]
    q_pos = np.flatnonzero(is_q)
    q_idx = q_pos[q_before_group[group[c_pos]] + c_rank]
    return order[q_idx], order[c_pos] - nq


def _dev_token(arr: U8Array, start: IntArray, end: IntArray) -> tuple[IntArray, BoolArray]:
    """``maj,min`` device tokens: validity (digits and exactly one comma)."""
    length = end - start
    ok = (length >= 3) & (length <= 12)
    commas = np.zeros(start.size, dtype=np.int64)
    top = arr.size - 1
    for c in range(min(int(length.max()) if start.size else 0, 12)):
        inside = c < length
        b = arr[np.minimum(start + c, top)].astype(np.int64)
        is_comma = b == COMMA
        ok &= ~inside | is_comma | ((b >= 48) & (b <= 57))
        commas += inside & is_comma
    return commas, ok & (commas == 1)


def _rwbs(arr: U8Array, start: IntArray, end: IntArray) -> tuple[BoolArray, BoolArray, BoolArray]:
    """(has R, has W, has F) in blkparse RWBS fields such as ``R``, ``WS``, ``FWFS``, ``RA``."""
    length = end - start
    has_r = np.zeros(start.size, dtype=bool)
    has_w = np.zeros(start.size, dtype=bool)
    has_f = np.zeros(start.size, dtype=bool)
    top = arr.size - 1
    for c in range(min(int(length.max()) if start.size else 0, 8)):
        inside = c < length
        b = arr[np.minimum(start + c, top)]
        has_r |= inside & (b == ord("R"))
        has_w |= inside & (b == ord("W"))
        has_f |= inside & (b == ord("F"))
    return has_r, has_w, has_f
