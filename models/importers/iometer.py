"""Iometer access specifications: ``size,% of size,% reads,% random,delay,burst,align,reply`` lines.

Mixes are combined by share of I/Os: with lines ``i`` of I/O share ``s_i`` [%],

    read %   = sum(s_i x read_i) / 100        random % = sum(s_i x random_i) / 100

Sizes are bytes (``size_kib = bytes / 1024``).
"""

from __future__ import annotations

import math

from models.importers.common import ImportedPhase, IometerLine, ParseError, merge_sizes, plain_number
from models.workload import Phase

IOMETER_HEADER = "'size,% of size,% reads,% random,delay,burst,align,reply"
_IOMETER_FIELDS = ("size", "% of size", "% reads", "% random", "delay", "burst", "align", "reply")


def parse_iometer_spec(text: str, name: str = "Iometer access specification") -> ImportedPhase:
    """Read Iometer access-specification lines ``size,% of size,% reads,% random,delay,burst,align,reply``.

    Blank lines and comments (``#``, ``//`` or a leading ``'`` as in Iometer ICF files) are
    skipped; an unquoted header line is accepted too. Sizes are bytes; ``% of size`` must sum to
    100. ``read % = sum(share x read) / 100`` and likewise random %. Non-zero delay, reply or
    burst other than 1 are noted in ``warnings`` (the phase has no think time). Raises
    :class:`ParseError` with the 1-based line number for a bad line.
    """
    lines: list[IometerLine] = []
    warnings: list[str] = []
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(("#", "//", "'")):
            continue
        fields = [f.strip() for f in line.split(",")]
        if not lines and fields and fields[0].lower() == "size":
            continue  # unquoted header
        if len(fields) != len(_IOMETER_FIELDS):
            raise ParseError(
                f"expected {len(_IOMETER_FIELDS)} comma-separated fields ({','.join(_IOMETER_FIELDS)}), got {len(fields)}",
                no,
            )
        values: list[int] = []
        for label, f in zip(_IOMETER_FIELDS, fields, strict=True):
            try:
                v = float(f)
            except ValueError:
                raise ParseError(f"{label!r} must be a number, got {f!r}", no) from None
            if not math.isfinite(v) or v < 0 or v != int(v):
                raise ParseError(f"{label!r} must be a whole number >= 0, got {f!r}", no)
            values.append(int(v))
        size, share, reads, rnd, delay, burst, align, reply = values
        if size <= 0 or size > 16 * 1024 * 1024:
            raise ParseError(f"size must be between 1 byte and 16 MiB, got {size}", no)
        for label, v in (("% of size", share), ("% reads", reads), ("% random", rnd)):
            if v > 100:
                raise ParseError(f"{label!r} must be 0-100, got {v}", no)
        if delay:
            warnings.append(f"line {no}: delay {delay} ms ignored (phases have no think time)")
        if burst != 1:
            warnings.append(f"line {no}: burst length {burst} ignored")
        if reply:
            warnings.append(f"line {no}: reply size {reply} ignored")
        lines.append(
            IometerLine(
                size_bytes=size,
                pct_of_size=share,
                read_pct=reads,
                random_pct=rnd,
                delay=delay,
                burst=burst,
                align=align,
                reply=reply,
            )
        )
    if not lines:
        raise ParseError("no access-specification lines found")
    total = sum(x.pct_of_size for x in lines)
    if total != 100:
        raise ParseError(f"'% of size' must sum to 100 over all lines, got {total:g}")
    read_pct = sum(x.pct_of_size * x.read_pct for x in lines) / 100.0
    random_pct = sum(x.pct_of_size * x.random_pct for x in lines) / 100.0
    mixed_rw = {x.read_pct for x in lines if x.pct_of_size > 0}
    if len(mixed_rw) > 1:
        warnings.append("read % differs by size: the phase uses one read % for every size (weighted mean)")
    return ImportedPhase(
        name=name,
        source_format="iometer",
        read_pct=read_pct,
        random_pct=random_pct,
        io_sizes=merge_sizes([(x.size_bytes / 1024.0, x.pct_of_size) for x in lines]),
        iometer_lines=lines,
        warnings=warnings,
    )


def to_iometer_spec(spec: ImportedPhase | Phase, *, header: bool = True) -> str:
    """Iometer access-specification text for a phase, one line per size, newline-terminated.

    An :class:`ImportedPhase` read from Iometer is written back line for line (an exact round
    trip of :func:`parse_iometer_spec`); otherwise every size gets the phase's read % and random %
    with delay 0, burst 1, align 0, reply 0. Sizes must be whole bytes.
    """
    out = [IOMETER_HEADER] if header else []
    if isinstance(spec, ImportedPhase) and spec.iometer_lines:
        for x in spec.iometer_lines:
            out.append(
                ",".join(
                    str(v)
                    for v in (
                        x.size_bytes,
                        plain_number(x.pct_of_size),
                        plain_number(x.read_pct),
                        plain_number(x.random_pct),
                        x.delay,
                        x.burst,
                        x.align,
                        x.reply,
                    )
                )
            )
    else:
        mix = [(s.size_kib, s.pct) for s in spec.io_sizes] if spec.io_sizes else []
        if not mix:
            assert isinstance(spec, Phase) and spec.io_size_kib is not None
            mix = [(spec.io_size_kib, 100.0)]
        for size_kib, pct in mix:
            size_bytes = size_kib * 1024.0
            if not math.isclose(size_bytes, round(size_bytes), abs_tol=1e-6):
                raise ValueError(f"size {size_kib:g} KiB is not a whole number of bytes")
            out.append(
                f"{int(round(size_bytes))},{plain_number(pct)},{plain_number(spec.read_pct)},{plain_number(spec.random_pct)},0,1,0,0"
            )
    return "\n".join(out) + "\n"
