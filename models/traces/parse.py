"""Streaming, vectorized readers for block I/O traces (MSR/SNIA CSV, blkparse, fio iolog, plain CSV).

The stream is read in blocks of complete lines (``block_bytes``, default 4 MiB of text; gzip is
recognised by its magic bytes ``1f 8b`` and inflated on the fly, multi-member files included),
so memory stays bounded whatever the file size. Each block is tokenized with numpy (delimiter
positions, then each numeric column parsed eight digits at a time from 64-bit words: see
:func:`_digits`); the few lines the fast path cannot read (quoted fields, exponents, stray
spaces) go through a per-line Python parser, and what that cannot read either is counted as
malformed with its line number.

blkparse response times pair each queued I/O with the next completion of its device and sector
(:func:`pair_completions`); a record waits for its completion (up to :data:`COMPLETION_WAIT_S`
of trace time) before it is handed on, so the records still come out in line order.

A file whose lines are more than half malformed raises :class:`MalformedTraceError` (a
``ValueError``) naming the format and a sample of the bad line numbers. Blank lines, comments,
headers and the summary that ``blkparse`` prints at the end are *ignored*, not malformed.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

from models.traces.records import (
    BoolArray,
    FloatArray,
    IntArray,
    MalformedTraceError,
    ParseState,
    Records,
    TraceError,
    TraceFormat,
    concat_records,
)

U8Array = npt.NDArray[np.uint8]

DEFAULT_BLOCK_BYTES = 4 * 1024 * 1024
"""Text read per block [B]: ~60,000 MSR lines; numpy temporaries stay near 10 MB."""
DEFAULT_CHUNK_RECORDS = 1 << 16
"""Records handed on at once: about one block of MSR text; small enough that the profile's
per-record temporaries (~20 arrays of this length) stay in the CPU caches and the heap."""
MAX_LINE_BYTES = 64 * 1024
"""A 'line' longer than this is cut and counted as malformed (binary input has no newlines)."""
MALFORMED_LIMIT = 0.5
"""Share of (non-blank) lines that may be malformed before the file is rejected."""

FILETIME_TICKS_PER_S = 10_000_000
"""Windows filetime: 100 ns ticks (MSR-Cambridge Timestamp and ResponseTime)."""
SECTOR_BYTES = 512
"""blkparse sectors [B]."""

_NL, _COMMA, _DOT = 10, 44, 46


# ---- byte blocks -------------------------------------------------------------------------------


LinePart = bytes | memoryview


def iter_line_blocks(
    stream: BinaryIO,
    block_bytes: int = DEFAULT_BLOCK_BYTES,
    on_raw: Callable[[int], None] | None = None,
) -> Iterator[bytes]:
    """Blocks of whole lines (each ends with ``\\n``) from a binary stream, gzip or plain.

    ``on_raw(n)`` is told the number of raw (compressed) bytes read so far, for progress.
    """
    for head, body in _line_parts(stream, block_bytes, on_raw):
        yield head + bytes(body)


def _line_parts(
    stream: BinaryIO, block_bytes: int, on_raw: Callable[[int], None] | None
) -> Iterator[tuple[bytes, LinePart]]:
    """As :func:`iter_line_blocks`, each block in two parts (the end of the previous piece read,
    a view of this one), so that the block is copied only once, by :func:`_split_lines`."""
    raw_total = 0
    first = stream.read(block_bytes)
    raw_total += len(first)
    if on_raw:
        on_raw(raw_total)
    gz = first[:2] == b"\x1f\x8b"

    def raw_blocks() -> Iterator[bytes]:
        nonlocal raw_total
        data = first
        while data:
            yield data
            data = stream.read(block_bytes)
            raw_total += len(data)
            if on_raw:
                on_raw(raw_total)

    def text_pieces() -> Iterator[bytes]:
        if not gz:
            yield from raw_blocks()
            return
        inflater = zlib.decompressobj(31)
        for raw in raw_blocks():
            data = raw
            while data:
                piece = inflater.decompress(data, block_bytes)
                if piece:
                    yield piece
                if inflater.eof:  # next gzip member, if any
                    data = inflater.unused_data
                    inflater = zlib.decompressobj(31)
                    continue
                data = inflater.unconsumed_tail
        tail = inflater.flush()
        if tail:
            yield tail

    carry = b""
    for piece in text_pieces():
        cut = piece.rfind(b"\n")
        if cut < 0:
            carry += piece
            if len(carry) > MAX_LINE_BYTES:  # no newline in sight: cut it (it will be malformed)
                yield carry, b"\n"
                carry = b""
            continue
        yield carry, memoryview(piece)[: cut + 1]
        carry = piece[cut + 1 :]
    if carry:
        yield carry, b"\n"


# ---- vectorized field parsing ------------------------------------------------------------------


_POW10 = 10 ** np.arange(19, dtype=np.int64)  # 10^0 ... 10^18

# SWAR ("SIMD within a register") constants: eight ASCII digits read as one little-endian 64-bit word
_ZEROS = np.uint64(0x3030303030303030)  # "00000000"
_HIGH = np.uint64(0x8080808080808080)
_OVER9 = np.uint64(0x7676767676767676)  # + 0x76 sets a byte's high bit iff the byte is > 9
_PAIR_MASK = np.uint64(0x000000FF000000FF)
_PAIR_MUL1 = np.uint64(100 + (1_000_000 << 32))
_PAIR_MUL2 = np.uint64(1 + (10_000 << 32))
_EIGHT_DIGITS = np.array([10 ** (8 * p) for p in range(3)], dtype=np.uint64)


def _words(arr: U8Array) -> npt.NDArray[np.uint64]:
    """Every 8-byte window of ``arr`` as one little-endian uint64 (``words[i]`` = bytes i..i+7), a view."""
    return np.ndarray((arr.size - 7,), dtype="<u8", buffer=arr, strides=(1,))


def _field_words(arr: U8Array, end: IntArray, n_words: int) -> npt.NDArray[np.uint64]:
    """The ``n_words`` 8-byte little-endian words ending at each ``end`` (row p: the word ending
    at ``end - 8p``), from one gather of ``8 n_words``-byte items (unaligned 8-byte loads cost
    about the same as the wider ones)."""
    width = 8 * n_words
    items = np.ndarray((arr.size - width + 1,), dtype=f"V{width}", buffer=arr, strides=(1,))
    words = items[end - width].view("<u8").reshape(-1, n_words)
    return words[:, ::-1].T.copy() if n_words > 1 else words.T


def _digits(
    arr: U8Array, start: IntArray, end: IntArray, width: int
) -> tuple[npt.NDArray[np.uint64], BoolArray]:
    """Decimal value of the digits in ``arr[start:end]`` (at most ``width`` <= 24 of them), and
    whether every byte there is a digit. An empty field is 0 and all digits.

    Eight bytes at a time, from the right: the word ending at ``end - 8p`` loses the bytes before
    the field (shifted out: they become leading zeros), then three multiplications turn its
    eight digits into a number (Lemire, "Faster number parsing without SIMD", 2022:
    ``v = 10 v + (v >> 8)`` pairs digits, one multiply-add of the pairs gives the 8-digit value).
    The buffer must have ``8 ceil(width / 8)`` bytes of padding before its first field (see
    :func:`_split_lines`).
    """
    length = end - start
    shortest = int(length.min()) if length.size else 0
    n_words = (width + 7) // 8
    words = _field_words(arr, end, n_words)
    value = np.zeros(0, dtype=np.uint64)
    bad_bits = np.zeros(start.size, dtype=np.uint64)
    tmp = np.empty(start.size, dtype=np.uint64)
    for p in range(n_words):
        d = words[p]
        d ^= _ZEROS
        if shortest < 8 * (p + 1):  # some fields do not fill this word: shift out the bytes before them
            before = np.maximum(8 * (p + 1) - length, 0)  # bytes of the word before the field, 0..8+
            before <<= 3
            bits = before.view(np.uint64)  # shifts of 64 bits and more give 0
            d >>= bits
            d <<= bits
        np.add(d, _OVER9, out=tmp)
        tmp |= d
        bad_bits |= tmp
        np.right_shift(d, np.uint64(8), out=tmp)
        d *= np.uint64(10)
        d += tmp
        np.right_shift(d, np.uint64(16), out=tmp)
        tmp &= _PAIR_MASK
        tmp *= _PAIR_MUL2
        d &= _PAIR_MASK
        d *= _PAIR_MUL1
        d += tmp
        d >>= np.uint64(32)
        if p:
            d *= _EIGHT_DIGITS[p]
            value += d
        else:
            value = d
    return value, (bad_bits & _HIGH) == 0


def _uint(arr: U8Array, start: IntArray, end: IntArray, max_len: int = 18) -> tuple[IntArray, BoolArray]:
    """Unsigned decimal integers (1 to ``max_len`` <= 18 digits) in ``arr[start:end]``, and validity."""
    length = end - start
    ok = (length >= 1) & (length <= max_len)
    if start.size == 0:
        return np.zeros(0, dtype=np.int64), ok
    width = max(1, min(int(length.max()), max_len))
    if width == 1:  # one digit each (disk numbers)
        d = arr[start].astype(np.int64) - 48
        return d, ok & (d >= 0) & (d <= 9)
    value, digits = _digits(arr, start, end, width)
    return value.view(np.int64), ok & digits


def _decimal(arr: U8Array, start: IntArray, end: IntArray, max_len: int = 18) -> tuple[FloatArray, BoolArray]:
    """Non-negative decimals ``123``, ``123.456``, ``5.`` or ``.5`` (up to 17 digits) in
    ``arr[start:end]``, and validity.

    The digits before and after the dot are read as integers ``a`` and ``b`` (``f`` digits after
    the dot); the value is ``(a 10^f + b) / 10^f``.
    """
    length = end - start
    ok = (length >= 1) & (length <= max_len)
    if start.size == 0:
        return np.zeros(0), ok
    dots = np.flatnonzero(arr == _DOT)
    i = np.searchsorted(dots, start)
    first = dots[np.minimum(i, max(dots.size - 1, 0))] if dots.size else np.zeros(start.size, np.int64)
    second = dots[np.minimum(i + 1, max(dots.size - 1, 0))] if dots.size else first
    has_dot = (i < dots.size) & (first < end)
    ok &= ~(has_dot & (i + 1 < dots.size) & (second < end))
    int_end = np.where(has_dot, first, end)
    frac_start = np.where(has_dot, first + 1, end)
    frac = end - frac_start
    ok &= (int_end > start) | (frac > 0)
    width = max(1, min(int(length.max()), max_len))
    a, ok_a = _digits(arr, start, int_end, width)
    b, ok_b = _digits(arr, frac_start, end, width)
    frac = np.minimum(frac, 18)
    value = a.astype(np.int64) * _POW10[frac] + b.astype(np.int64)
    return value / np.power(10.0, frac), ok & ok_a & ok_b


def _token_key(arr: U8Array, start: IntArray, end: IntArray, max_len: int = 64) -> npt.NDArray[np.uint64]:
    """A 64-bit hash of each token's bytes (the first ``max_len``), to tell streams apart by name.

    Eight bytes at a time: ``h = (h ^ word) * prime``, mixed after each word. The buffer must have
    8 bytes of padding after its last line (see :func:`_split_lines`).
    """
    length = np.minimum(end - start, max_len)
    h = np.full(start.size, 1469598103934665603, dtype=np.uint64)
    if start.size == 0:
        return h
    words = _words(arr)
    top = words.size - 1
    prime = np.uint64(1099511628211)
    for p in range((int(length.max()) + 7) // 8):
        w = words[np.minimum(start + 8 * p, top)]
        after = np.maximum(8 * (p + 1) - length, 0)  # bytes of the word after the token, 0..8+
        after <<= 3
        bits = after.view(np.uint64)  # keep the first bytes: shifts of 64 bits and more give 0
        w <<= bits
        w >>= bits
        h = (h ^ w) * prime
        h ^= h >> np.uint64(29)
    return h ^ length.astype(np.uint64)


class _StreamTable:
    """Stream ids by token hash: known hashes looked up in a sorted table, new names registered
    (in order of first appearance) with :meth:`ParseState.stream_id`."""

    def __init__(self, state: ParseState) -> None:
        self.state = state
        self.keys = np.zeros(0, dtype=np.uint64)
        self.ids = np.zeros(0, dtype=np.int64)

    def lookup(self, key: npt.NDArray[np.uint64], name: Callable[[int], bytes]) -> IntArray:
        """Stream id of each hash; ``name(i)`` gives the name of record i (called for new streams)."""
        if key.size == 0:
            return np.zeros(0, dtype=np.int64)
        pos, hit = self._find(key)
        if not hit.all():
            new = np.flatnonzero(~hit)
            uniq, first = np.unique(key[new], return_index=True)
            order = np.argsort(first, kind="stable")
            ids = [self.state.stream_id(name(int(new[first[j]]))) for j in order.tolist()]
            keys = np.concatenate([self.keys, uniq[order]])
            all_ids = np.concatenate([self.ids, np.asarray(ids, dtype=np.int64)])
            sort = np.argsort(keys, kind="stable")
            self.keys, self.ids = keys[sort], all_ids[sort]
            pos, hit = self._find(key)
        return self.ids[pos]

    def _find(self, key: npt.NDArray[np.uint64]) -> tuple[npt.NDArray[np.intp], BoolArray]:
        if self.keys.size == 0:
            return np.zeros(key.size, dtype=np.intp), np.zeros(key.size, dtype=bool)
        if self.keys.size == 1:
            return np.zeros(key.size, dtype=np.intp), key == self.keys[0]
        pos = np.minimum(np.searchsorted(self.keys, key), self.keys.size - 1)
        return pos, self.keys[pos] == key


def _byte_at(arr: U8Array, pos: IntArray, valid: BoolArray) -> IntArray:
    out = arr[np.clip(pos, 0, arr.size - 1)].astype(np.int64)
    return np.where(valid, out, -1)


@dataclass
class _Lines:
    """Line boundaries of a block: ``start[i]:end[i]`` without the newline or a trailing ``\\r``.

    Split as comma-separated text (:func:`_split_lines`), it also has the positions of its commas
    and, when every line has the same number of fields and no byte below ``,`` but its commas and
    newline (the usual case), ``grid``: row i holds line i's commas and then its newline.
    """

    arr: U8Array
    start: IntArray
    end: IntArray
    first_number: int
    commas: IntArray | None = None
    grid: IntArray | None = None

    @property
    def numbers(self) -> IntArray:
        return self.first_number + np.arange(self.start.size, dtype=np.int64)

    def text(self, i: int) -> str:
        return bytes(self.arr[self.start[i] : self.end[i]]).decode("utf-8", "replace")


_PAD = 32
"""Bytes of padding before a block (newlines), so the 8-byte words ending at a field never start
before the buffer."""
_TAIL = b"\0" * 8
"""Padding after a block, so the 8-byte word starting at any field ends inside the buffer."""


def _split_lines(parts: tuple[LinePart, ...], first_number: int, commas: bool = False) -> _Lines:
    """The lines of a block given in parts, copied once into a buffer padded on both sides.

    With ``commas``, one scan finds every byte up to ``,`` (newlines, commas, and the carriage
    returns, spaces, tabs and quotes of irregular lines), which gives both the newlines and the
    commas, and the :attr:`_Lines.grid` of a regular block.
    """
    size = sum(len(part) for part in parts)
    arr = np.empty(_PAD + size + len(_TAIL), dtype=np.uint8)
    arr[:_PAD] = _NL
    arr[_PAD + size :] = 0
    at = _PAD
    for part in parts:
        arr[at : at + len(part)] = np.frombuffer(part, dtype=np.uint8)
        at += len(part)
    body = arr[_PAD : _PAD + size]
    comma_at: IntArray | None = None
    grid: IntArray | None = None
    if commas:
        low = np.flatnonzero(body <= _COMMA).astype(np.int64, copy=False)
        low += _PAD
        low_byte = arr[low]
        is_nl = low_byte == _NL
        is_comma = low_byte == _COMMA
        n = int(np.count_nonzero(is_nl))
        per_line = low.size // n if n else 0
        if (
            per_line >= 2
            and low.size == n * per_line
            and is_nl[per_line - 1 :: per_line].all()
            and int(np.count_nonzero(is_comma)) == n * (per_line - 1)
        ):  # each line: per_line - 1 commas, then its newline (and no other byte up to ",")
            grid = low.reshape(n, per_line)
            nl = grid[:, -1].copy()
        else:
            nl, comma_at = low[is_nl], low[is_comma]
    else:
        nl = np.flatnonzero(body == _NL).astype(np.int64) + _PAD
    start = np.concatenate([[_PAD], nl[:-1] + 1]).astype(np.int64)
    end = nl.copy()
    if grid is None:  # no carriage return in a regular block
        cr = (end > start) & (arr[np.maximum(end - 1, 0)] == 13)
        end -= cr
    return _Lines(arr, start, end, first_number, comma_at, grid)


def _blank(lines: _Lines) -> BoolArray:
    """Lines with nothing but spaces and tabs (only lines starting with one are looked at)."""
    arr = lines.arr
    length = lines.end - lines.start
    blank = length == 0
    for i in np.flatnonzero(~blank & (arr[lines.start] <= 32)).tolist():
        blank[i] = not bytes(arr[lines.start[i] : lines.end[i]]).strip()
    return blank


@dataclass
class _Tokens:
    """Whitespace-separated tokens of a block, grouped by line."""

    start: IntArray
    end: IntArray
    count: IntArray  # tokens per line
    first: IntArray  # index of each line's first token

    def column(self, line_idx: IntArray, k: int) -> tuple[IntArray, IntArray]:
        """(start, end) of token ``k`` of the given lines (which must have more than k tokens)."""
        i = self.first[line_idx] + k
        return self.start[i], self.end[i]


def _whitespace_tokens(lines: _Lines) -> _Tokens:
    arr = lines.arr
    space = arr <= 32
    prev_space = np.concatenate([[True], space[:-1]])
    next_space = np.concatenate([space[1:], [True]])
    start = np.flatnonzero(~space & prev_space).astype(np.int64)
    end = (np.flatnonzero(~space & next_space) + 1).astype(np.int64)
    line_of = np.searchsorted(lines.end, start, side="left")
    count = np.bincount(line_of, minlength=lines.start.size).astype(np.int64)
    first = np.concatenate([[0], np.cumsum(count)[:-1]]).astype(np.int64)
    return _Tokens(start, end, count, first)


def _comma_fields(lines: _Lines, k: int) -> tuple[BoolArray, list[tuple[IntArray, IntArray]]]:
    """Lines with exactly ``k`` comma-separated fields, and (start, end) of each field for them."""
    arr = lines.arr
    n = lines.start.size
    if lines.grid is not None:  # every line has the same number of fields
        if lines.grid.shape[1] != k:
            empty = np.zeros(0, dtype=np.int64)
            return np.zeros(n, dtype=bool), [(empty, empty)] * k
        cols = lines.grid.T.copy()  # one contiguous row of positions per separator
        return np.ones(n, dtype=bool), [
            (lines.start if i == 0 else cols[i - 1] + 1, cols[i]) for i in range(k)
        ]
    commas = lines.commas if lines.commas is not None else np.flatnonzero(arr == _COMMA)
    if k > 1 and commas.size == n * (k - 1):  # the usual case: every line has k fields
        sel = commas.reshape(n, k - 1)
        shaped = (sel[:, 0] > lines.start) & (sel[:, -1] < lines.end)
        if n == 0 or (shaped.all() and np.all(sel[1:, 0] > lines.end[:-1])):
            cols = sel.T.copy()  # one contiguous row of comma positions per field
            return np.ones(n, dtype=bool), [
                (lines.start if i == 0 else cols[i - 1] + 1, lines.end if i == k - 1 else cols[i])
                for i in range(k)
            ]
    upto = np.searchsorted(commas, lines.end)  # commas before each line's end
    per_line = np.diff(upto, prepend=0)
    line_of = np.repeat(np.arange(n), per_line)
    shaped = per_line == k - 1
    sel = commas[shaped[line_of]].reshape(-1, k - 1) if k > 1 else np.zeros((int(shaped.sum()), 0), np.int64)
    starts = lines.start[shaped]
    ends = lines.end[shaped]
    fields: list[tuple[IntArray, IntArray]] = []
    for i in range(k):
        s = starts if i == 0 else sel[:, i - 1] + 1
        e = ends if i == k - 1 else sel[:, i]
        fields.append((s, e))
    return shaped, fields


def _op_from_first_byte(arr: U8Array, start: IntArray, end: IntArray) -> tuple[BoolArray, BoolArray]:
    """(is_read, valid) from a Read/Write/R/W/read/write field (first byte, case-insensitive)."""
    b = _byte_at(arr, start, end > start) | 32  # lower case
    return b == ord("r"), (b == ord("r")) | (b == ord("w"))


# ---- per-line slow paths (rare lines only) -----------------------------------------------------


def _number(text: str) -> int:
    """An integer written plainly (exact at any size) or as a float (``4e3``, ``4096.0``)."""
    return int(text) if text.isdigit() else int(float(text))


def _slow_csv(text: str) -> tuple[float, bool, int, int, float] | None:
    parts = [p.strip().strip('"') for p in text.split(",")]
    if len(parts) not in (4, 5):
        return None
    try:
        t = float(parts[0])
        op = parts[1].lower()
        if not op or op[0] not in "rw":
            return None
        offset, size = _number(parts[2]), _number(parts[3])
        lat = float(parts[4]) / 1000.0 if len(parts) == 5 and parts[4] else float("nan")
    except (ValueError, OverflowError):  # "nan" and "inf" offsets or sizes
        return None
    if t != t or offset < 0 or size < 0:
        return None
    return t, op[0] == "r", offset, size, lat


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


# ---- formats -----------------------------------------------------------------------------------


class _Reader:
    """Base of the per-format block readers: counts lines, rejects, samples."""

    format: TraceFormat

    def __init__(self, state: ParseState) -> None:
        self.state = state

    comma_separated = False
    """Whether lines are comma-separated fields (see :func:`_split_lines`)."""

    def read_block(self, parts: tuple[LinePart, ...], first_number: int) -> Records:
        lines = _split_lines(parts, first_number, self.comma_separated)
        self.state.lines += lines.start.size
        records = self.parse(lines)
        self.state.records += len(records)
        return records

    def parse(self, lines: _Lines) -> Records:
        raise NotImplementedError

    def finish(self) -> Records:
        """Records held back until the end of the trace (blkparse: awaiting their completion)."""
        return Records.empty()

    def _bad(self, lines: _Lines, mask: BoolArray) -> None:
        idx = np.flatnonzero(mask)
        room = max(0, self.state.max_samples - len(self.state.samples))
        self.state.bad(lines.numbers[idx], [lines.text(int(i)) for i in idx[:room]])


class _CsvReader(_Reader):
    format = TraceFormat.CSV
    comma_separated = True

    def __init__(self, state: ParseState) -> None:
        super().__init__(state)
        self.stream = state.stream_id(b"csv")

    def parse(self, lines: _Lines) -> Records:
        arr = lines.arr
        n = lines.start.size
        blank = _blank(lines)
        done = blank.copy()
        parts: list[Records] = []
        has_lat = False
        for k in (4, 5):
            shaped, f = _comma_fields(lines, k)
            t, ok_t = _decimal(arr, *f[0])
            is_read, ok_op = _op_from_first_byte(arr, *f[1])
            off, ok_off = _uint(arr, *f[2])
            size, ok_size = _uint(arr, *f[3])
            ok = ok_t & ok_op & ok_off & ok_size
            lat = np.full(t.size, np.nan)
            if k == 5:
                lat_ms, ok_lat = _decimal(arr, *f[4])
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
        slow = np.flatnonzero(~done)
        rows: list[tuple[float, bool, int, int, float, int]] = []
        bad = np.zeros(n, dtype=bool)
        for i in slow.tolist():
            text = lines.text(i)
            got = _slow_csv(text)
            if got is None:
                if lines.first_number + i == 1 or text.lstrip().startswith("#"):
                    self.state.ignored += 1  # header or comment
                else:
                    bad[i] = True
                continue
            has_lat = has_lat or got[4] == got[4]
            rows.append((*got, lines.first_number + i))
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
        self._bad(lines, bad)
        self.state.has_latency |= has_lat
        return _in_line_order(concat_records(parts))


class _MsrReader(_Reader):
    format = TraceFormat.MSR
    comma_separated = True

    def __init__(self, state: ParseState) -> None:
        super().__init__(state)
        self.t0: int | None = None
        self.streams = _StreamTable(state)

    def _stream_ids(self, arr: U8Array, host: tuple[IntArray, IntArray], disk: IntArray) -> IntArray:
        key = _token_key(arr, *host) * np.uint64(1000003) + disk.astype(np.uint64)

        def name(i: int) -> bytes:
            return bytes(arr[host[0][i] : host[1][i]]) + b"/" + str(int(disk[i])).encode()

        return self.streams.lookup(key, name)

    def parse(self, lines: _Lines) -> Records:
        arr = lines.arr
        n = lines.start.size
        blank = _blank(lines)
        shaped, f = _comma_fields(lines, 7)
        ticks, ok = _uint(arr, *f[0])
        disk, ok_disk = _uint(arr, *f[2], max_len=9)
        is_read, ok_op = _op_from_first_byte(arr, *f[3])
        off, ok_off = _uint(arr, *f[4])
        size, ok_size = _uint(arr, *f[5])
        resp, ok_resp = _uint(arr, *f[6])
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
            line=lines.numbers[idx],
        )
        fast_ticks = ticks[good]
        done = blank.copy()
        done[idx] = True
        bad = np.zeros(n, dtype=bool)
        rows = []
        for i in np.flatnonzero(~done).tolist():
            text = lines.text(i)
            got = _slow_msr(text)
            if got is None:
                if lines.first_number + i == 1 or text.lstrip().startswith("#"):
                    self.state.ignored += 1
                else:
                    bad[i] = True
                continue
            rows.append(got + (lines.first_number + i,))
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
        self._bad(lines, bad)
        return _in_line_order(out)


_BLK_ACTIONS = frozenset(b"QCDGIMPSUXABFRTmT")
COMPLETION_WAIT_S = 10.0
"""blkparse: trace time a queued I/O waits for its C line before it is given no response time."""
MAX_WAITING = 1 << 20
"""blkparse: records waiting for their completion at most (the oldest go on without one)."""


def _no_records() -> Records:
    empty = Records.empty()
    empty.latency, empty.line = np.zeros(0), np.zeros(0, dtype=np.int64)
    return empty


class _BlkparseReader(_Reader):
    format = TraceFormat.BLKPARSE

    def __init__(self, state: ParseState) -> None:
        super().__init__(state)
        self.action: int | None = None
        self.streams = _StreamTable(state)
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

    def parse(self, lines: _Lines) -> Records:
        arr = lines.arr
        n = lines.start.size
        tok = _whitespace_tokens(lines)
        blank = tok.count == 0
        # event lines: "maj,min cpu seq time pid action ..."
        ev = np.flatnonzero(tok.count >= 6)
        d0, d1 = tok.column(ev, 0)
        _, ok_dev = _dev_token(arr, d0, d1)
        a0, a1 = tok.column(ev, 5)
        act = _byte_at(arr, a0, a1 > a0)
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
        plus = (p1 - p0 == 1) & (_byte_at(arr, p0, p1 > p0) == ord("+"))
        has_r, has_w, _ = _rwbs(arr, r0, r1)
        t0_, t1_ = tok.column(full, 3)
        t, ok_t = _decimal(arr, t0_, t1_)
        s0, s1 = tok.column(full, 7)
        sector, ok_s = _uint(arr, s0, s1)
        c0, c1 = tok.column(full, 9)
        count, ok_c = _uint(arr, c0, c1)
        data = has_r | has_w
        ok = plus & ok_t & ok_s & ok_c
        rec = ok & data & (count > 0)
        idx = full[rec]
        dev0, dev1 = tok.column(idx, 0)
        dev = _token_key(arr, dev0, dev1)
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
        self._bad(lines, bad)
        return released

    def _complete(
        self,
        lines: _Lines,
        tok: _Tokens,
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
        c_t, ok_t = _decimal(arr, *tok.column(done, 3))
        c_sector, ok_s = _uint(arr, *tok.column(done, 7))
        p0, p1 = tok.column(done, 8)
        ok = ok_t & ok_s & (p1 - p0 == 1) & (_byte_at(arr, p0, p1 > p0) == ord("+"))
        done, c_t, c_sector = done[ok], c_t[ok], c_sector[ok]
        assert out.latency is not None  # set by parse
        held = concat_records([self.held, out])
        latency = np.concatenate([self.held_latency, out.latency])
        q_dev = np.concatenate([self.held_dev, dev])
        q_sector = np.concatenate([self.held_sector, sector])
        q_line = np.concatenate([self.held_line, lines.numbers[out_lines]])
        waiting = np.flatnonzero(np.isnan(latency))
        c_dev = _token_key(arr, *tok.column(done, 0))
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
        is_comma = b == _COMMA
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


class _FioReader(_Reader):
    format = TraceFormat.FIO_IOLOG

    def __init__(self, state: ParseState) -> None:
        super().__init__(state)
        self.version: int | None = None
        self.wait_us = 0
        self.saw_wait = False
        self.streams = _StreamTable(state)

    def parse(self, lines: _Lines) -> Records:
        arr = lines.arr
        n = lines.start.size
        tok = _whitespace_tokens(lines)
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
        b0 = _byte_at(arr, a0, alen > 0)
        b1 = _byte_at(arr, a0 + 1, alen > 1)
        is_read = (alen == 4) & (b0 == ord("r")) & (b1 == ord("e"))
        is_write = (alen == 5) & (b0 == ord("w")) & (b1 == ord("r"))
        is_wait = (alen == 4) & (b0 == ord("w")) & (b1 == ord("a"))
        known_other = np.isin(alen, [4, 8]) & np.isin(
            b0, [ord("t"), ord("s"), ord("d")]
        )  # trim, sync, datasync
        o0, o1 = tok.column(io, base + 2)
        off, ok_off = _uint(arr, o0, o1)
        l0, l1 = tok.column(io, base + 3)
        length, ok_len = _uint(arr, l0, l1)
        if v3:
            ts0, ts1 = tok.column(io, 0)
            t_us, ok_t = _uint(arr, ts0, ts1)
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
        self._bad(lines, bad)
        if not v3 and not self.saw_wait:
            self.state.has_timing = False
        return out

    def _stream_ids(self, arr: U8Array, start: IntArray, end: IntArray) -> IntArray:
        return self.streams.lookup(_token_key(arr, start, end), lambda i: bytes(arr[start[i] : end[i]]))


_READERS: dict[TraceFormat, type[_Reader]] = {
    TraceFormat.CSV: _CsvReader,
    TraceFormat.MSR: _MsrReader,
    TraceFormat.BLKPARSE: _BlkparseReader,
    TraceFormat.FIO_IOLOG: _FioReader,
}


def _in_line_order(records: Records) -> Records:
    if records.line is None or len(records) < 2 or np.all(np.diff(records.line) > 0):
        return records
    return records.take(np.argsort(records.line, kind="stable"))


# ---- detection and the reading loop -------------------------------------------------------------


def detect_format(head: bytes) -> TraceFormat:
    """The format of a trace from its first (decompressed) bytes; TraceError if none fits.

    fio: a ``fio version 2|3 iolog`` first line. blkparse: lines starting ``maj,min cpu seq time``.
    MSR: 7 comma-separated fields, the first a filetime (>= 10^15), the fourth Read/Write. CSV:
    4-5 comma-separated fields, the second R/W/read/write (a header line is allowed).
    """
    text = head.decode("utf-8", "replace")
    rows = [r.strip() for r in text.splitlines()[:200] if r.strip() and not r.lstrip().startswith("#")]
    if not rows:
        raise TraceError("the trace is empty")
    if rows[0].startswith("fio version"):
        return TraceFormat.FIO_IOLOG
    votes = {f: 0 for f in TraceFormat}
    for row in rows[:100]:
        parts = row.split()
        if len(parts) >= 6 and parts[0].count(",") == 1 and parts[0].replace(",", "").isdigit():
            votes[TraceFormat.BLKPARSE] += 1
            continue
        fields = [p.strip() for p in row.split(",")]
        if (
            len(fields) == 7
            and fields[0].isdigit()
            and int(fields[0]) >= 10**15
            and fields[3][:1].lower() in "rw"
        ):
            votes[TraceFormat.MSR] += 1
        elif len(fields) in (4, 5) and fields[1][:1].lower() in ("r", "w") and fields[1].isalpha():
            votes[TraceFormat.CSV] += 1
    best = max(votes, key=lambda f: votes[f])
    if votes[best] == 0 or votes[best] < 0.5 * min(len(rows), 100) - 1:
        raise TraceError(
            "cannot tell the trace format from its first lines (expected MSR/SNIA CSV, blkparse text, "
            "fio iolog v2/v3 or plain CSV time_s,op,offset,size)"
        )
    return best


class TraceReader:
    """Reads a trace stream into :class:`Records` chunks of about ``chunk_records`` rows.

    ``fmt`` None means detect from the first block. ``on_raw(n)`` receives the raw bytes read.
    After iteration, :meth:`report` tells what was read; :meth:`check` raises
    :class:`MalformedTraceError` when more than half of the (non-blank) lines were malformed.
    """

    def __init__(
        self,
        stream: BinaryIO,
        fmt: TraceFormat | None = None,
        block_bytes: int = DEFAULT_BLOCK_BYTES,
        chunk_records: int = DEFAULT_CHUNK_RECORDS,
        max_samples: int = 20,
        on_raw: Callable[[int], None] | None = None,
    ) -> None:
        self.stream = stream
        self.fmt = fmt
        self.block_bytes = block_bytes
        self.chunk_records = chunk_records
        self.max_samples = max_samples
        self.on_raw = on_raw
        self.state: ParseState | None = None

    def __iter__(self) -> Iterator[Records]:
        blocks = _line_parts(self.stream, self.block_bytes, self.on_raw)
        line_no = 1
        pending: list[Records] = []
        pending_n = 0
        reader: _Reader | None = None
        for buf in blocks:
            if reader is None:
                fmt = self.fmt or detect_format(buf[0][:65536] + bytes(buf[1][:65536]))
                self.state = ParseState(format=fmt, max_samples=self.max_samples)
                reader = _READERS[fmt](self.state)
            records = reader.read_block(buf, line_no)
            line_no = reader.state.lines + 1
            if len(records):
                pending.append(records)
                pending_n += len(records)
            if pending_n >= self.chunk_records:
                yield concat_records(pending)
                pending, pending_n = [], 0
        if reader is None:
            raise TraceError("the trace is empty")
        rest = reader.finish()
        reader.state.records += len(rest)
        if len(rest):
            pending.append(rest)
        if pending:
            yield concat_records(pending)

    def report(self) -> ParseState:
        if self.state is None:
            raise TraceError("the trace has not been read")
        return self.state

    def check(self) -> None:
        """MalformedTraceError if more than half of the lines were malformed (or none was a record)."""
        state = self.report()
        if state.malformed > MALFORMED_LIMIT * max(state.lines, 1) or (
            state.records == 0 and state.malformed
        ):
            raise MalformedTraceError(state.format, state.malformed, state.lines, state.samples)
        if state.records == 0:
            raise TraceError(f"no I/O records in the {state.format.value} trace")


def read_all(stream: BinaryIO, fmt: TraceFormat | None = None, **kwargs: Any) -> tuple[Records, ParseState]:
    """The whole trace as one :class:`Records` (for tests and small files) and the parse state."""
    reader = TraceReader(stream, fmt, **kwargs)
    records = concat_records(list(reader))
    reader.check()
    return records, reader.report()


def sniff(head: bytes, fmt: TraceFormat | None = None, max_samples: int = 10) -> ParseState:
    """Parse the first bytes of a trace (whole lines only) and apply the malformed-line rule.

    Lets an upload be refused at once; raises TraceError / MalformedTraceError like a full read.
    """
    import io

    data = head
    if head[:2] == b"\x1f\x8b":
        data = zlib.decompressobj(31).decompress(head, 8 * len(head) + 65536)
    cut = data.rfind(b"\n")
    text = data[: cut + 1] if cut >= 0 else data
    reader = TraceReader(io.BytesIO(text), fmt, max_samples=max_samples)
    for _ in reader:
        pass
    reader.check()
    return reader.report()
