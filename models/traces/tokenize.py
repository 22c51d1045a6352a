"""Byte-level tokenizing of trace text: blocks of whole lines, fields, numbers, stream names.

The stream is read in blocks of complete lines (``block_bytes``, default 4 MiB of text; gzip is
recognised by its magic bytes ``1f 8b`` and inflated on the fly, multi-member files included),
so memory stays bounded whatever the file size. Each block is tokenized with numpy (delimiter
positions, then each numeric column parsed eight digits at a time from 64-bit words: see
:func:`_digits`). The per-format readers (:mod:`models.traces.formats`) build on these pieces;
the few lines the fast path cannot read go through their per-line Python parsers.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

import numpy as np
import numpy.typing as npt

from models.traces.records import BoolArray, FloatArray, IntArray, ParseState

U8Array = npt.NDArray[np.uint8]

DEFAULT_BLOCK_BYTES = 4 * 1024 * 1024
"""Text read per block [B]: ~60,000 MSR lines; numpy temporaries stay near 10 MB."""
MAX_LINE_BYTES = 64 * 1024
"""A 'line' longer than this is cut and counted as malformed (binary input has no newlines)."""

_NL, _DOT = 10, 46
COMMA = 44
"""The byte ``,``."""


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
    for head, body in line_parts(stream, block_bytes, on_raw):
        yield head + bytes(body)


def line_parts(
    stream: BinaryIO, block_bytes: int, on_raw: Callable[[int], None] | None
) -> Iterator[tuple[bytes, LinePart]]:
    """As :func:`iter_line_blocks`, each block in two parts (the end of the previous piece read,
    a view of this one), so that the block is copied only once, by :func:`split_lines`."""
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
    :func:`split_lines`).
    """
    length = end - start
    shortest = int(length.min()) if length.size else 0
    same_length = length.size == 0 or shortest == int(length.max())
    n_words = (width + 7) // 8
    words = _field_words(arr, end, n_words)
    value = np.zeros(0, dtype=np.uint64)
    bad_bits = np.zeros(start.size, dtype=np.uint64)
    tmp = np.empty(start.size, dtype=np.uint64)
    for p in range(n_words):
        d = words[p]
        d ^= _ZEROS
        if shortest < 8 * (p + 1):  # some fields do not fill this word: shift out the bytes before them
            if same_length:  # fields of one length (timestamps, sizes): one shift for all
                bits: np.uint64 | npt.NDArray[np.uint64] = np.uint64(8 * (8 * (p + 1) - shortest))
            else:
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


def parse_uint(arr: U8Array, start: IntArray, end: IntArray, max_len: int = 18) -> tuple[IntArray, BoolArray]:
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


def parse_decimal(
    arr: U8Array, start: IntArray, end: IntArray, max_len: int = 18
) -> tuple[FloatArray, BoolArray]:
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


def token_key(arr: U8Array, start: IntArray, end: IntArray, max_len: int = 64) -> npt.NDArray[np.uint64]:
    """A 64-bit hash of each token's bytes (the first ``max_len``), to tell streams apart by name.

    Eight bytes at a time: ``h = (h ^ word) * prime``, mixed after each word. The buffer must have
    8 bytes of padding after its last line (see :func:`split_lines`).
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


class StreamTable:
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


def byte_at(arr: U8Array, pos: IntArray, valid: BoolArray) -> IntArray:
    out = arr[np.clip(pos, 0, arr.size - 1)].astype(np.int64)
    return np.where(valid, out, -1)


@dataclass
class Lines:
    """Line boundaries of a block: ``start[i]:end[i]`` without the newline or a trailing ``\\r``.

    Split as comma-separated text (:func:`split_lines`), it also has the positions of its commas
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


def split_lines(parts: tuple[LinePart, ...], first_number: int, commas: bool = False) -> Lines:
    """The lines of a block given in parts, copied once into a buffer padded on both sides.

    With ``commas``, one scan finds every byte up to ``,`` (newlines, commas, and the carriage
    returns, spaces, tabs and quotes of irregular lines), which gives both the newlines and the
    commas, and the :attr:`Lines.grid` of a regular block.
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
        low = np.flatnonzero(body <= COMMA).astype(np.int64, copy=False)
        low += _PAD
        low_byte = arr[low]
        is_nl = low_byte == _NL
        is_comma = low_byte == COMMA
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
    return Lines(arr, start, end, first_number, comma_at, grid)


def blank_lines(lines: Lines) -> BoolArray:
    """Lines with nothing but spaces and tabs (only lines starting with one are looked at)."""
    arr = lines.arr
    length = lines.end - lines.start
    blank = length == 0
    for i in np.flatnonzero(~blank & (arr[lines.start] <= 32)).tolist():
        blank[i] = not bytes(arr[lines.start[i] : lines.end[i]]).strip()
    return blank


@dataclass
class Tokens:
    """Whitespace-separated tokens of a block, grouped by line."""

    start: IntArray
    end: IntArray
    count: IntArray  # tokens per line
    first: IntArray  # index of each line's first token

    def column(self, line_idx: IntArray, k: int) -> tuple[IntArray, IntArray]:
        """(start, end) of token ``k`` of the given lines (which must have more than k tokens)."""
        i = self.first[line_idx] + k
        return self.start[i], self.end[i]


def whitespace_tokens(lines: Lines) -> Tokens:
    arr = lines.arr
    space = arr <= 32
    prev_space = np.concatenate([[True], space[:-1]])
    next_space = np.concatenate([space[1:], [True]])
    start = np.flatnonzero(~space & prev_space).astype(np.int64)
    end = (np.flatnonzero(~space & next_space) + 1).astype(np.int64)
    line_of = np.searchsorted(lines.end, start, side="left")
    count = np.bincount(line_of, minlength=lines.start.size).astype(np.int64)
    first = np.concatenate([[0], np.cumsum(count)[:-1]]).astype(np.int64)
    return Tokens(start, end, count, first)


def comma_fields(lines: Lines, k: int) -> tuple[BoolArray, list[tuple[IntArray, IntArray]]]:
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
    commas = lines.commas if lines.commas is not None else np.flatnonzero(arr == COMMA)
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


def op_from_first_byte(arr: U8Array, start: IntArray, end: IntArray) -> tuple[BoolArray, BoolArray]:
    """(is_read, valid) from a Read/Write/R/W/read/write field (first byte, case-insensitive)."""
    b = byte_at(arr, start, end > start) | 32  # lower case
    return b == ord("r"), (b == ord("r")) | (b == ord("w"))


# ---- per-line slow paths (rare lines only) -----------------------------------------------------


def plain_number(text: str) -> int:
    """An integer written plainly (exact at any size) or as a float (``4e3``, ``4096.0``)."""
    return int(text) if text.isdigit() else int(float(text))
