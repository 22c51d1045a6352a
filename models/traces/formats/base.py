"""The base of the per-format block readers: line counting, rejects and their samples."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from models.traces.records import BoolArray, ParseState, Records, TraceFormat
from models.traces.tokenize import LinePart, Lines, split_lines


class BlockReader:
    """Base of the per-format block readers: counts lines, rejects, samples."""

    format: TraceFormat

    def __init__(self, state: ParseState) -> None:
        self.state = state

    comma_separated = False
    """Whether lines are comma-separated fields (see :func:`split_lines`)."""

    def read_block(self, parts: tuple[LinePart, ...], first_number: int) -> Records:
        lines = split_lines(parts, first_number, self.comma_separated)
        self.state.lines += lines.start.size
        records = self.parse(lines)
        self.state.records += len(records)
        return records

    def parse(self, lines: Lines) -> Records:
        raise NotImplementedError

    def finish(self) -> Records:
        """Records held back until the end of the trace (blkparse: awaiting their completion)."""
        return Records.empty()

    def irregular(
        self, lines: Lines, todo: BoolArray, parse: Callable[[str], tuple[Any, ...] | None]
    ) -> tuple[list[tuple[Any, ...]], BoolArray]:
        """The lines the vectorized path left (``todo``) read one by one by ``parse``: the rows it
        read, each with its line number last, and the lines it could not read (malformed, but a
        first line or a comment, which are a header: ignored)."""
        rows: list[tuple[Any, ...]] = []
        bad = np.zeros(lines.start.size, dtype=bool)
        for i in np.flatnonzero(todo).tolist():
            text = lines.text(i)
            got = parse(text)
            if got is not None:
                rows.append((*got, lines.first_number + i))
            elif lines.first_number + i == 1 or text.lstrip().startswith("#"):
                self.state.ignored += 1
            else:
                bad[i] = True
        return rows, bad

    def reject(self, lines: Lines, mask: BoolArray) -> None:
        """Count the masked lines as malformed, keeping samples of their text."""
        idx = np.flatnonzero(mask)
        room = max(0, self.state.max_samples - len(self.state.samples))
        self.state.bad(lines.numbers[idx], [lines.text(int(i)) for i in idx[:room]])


def in_line_order(records: Records) -> Records:
    """The records sorted by line number (fast and slow paths each give a part of a block)."""
    if records.line is None or len(records) < 2 or np.all(np.diff(records.line) > 0):
        return records
    return records.take(np.argsort(records.line, kind="stable"))
