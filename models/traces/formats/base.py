"""The base of the per-format block readers: line counting, rejects and their samples."""

from __future__ import annotations

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
