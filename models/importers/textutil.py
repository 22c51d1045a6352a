"""Numbers and clock times as statistics tools write them, in any locale.

Numbers: ``12.5``, ``12,5`` (decimal comma), with digit grouping (``1,234.5``, ``1.234,5``,
``1 234,5``, ``1'234.5``). A file uses one decimal mark: :func:`decimal_mark` finds it from sample
values (a field with both marks ends with the decimal one; a field with only commas in a file
without points has a decimal comma), and :func:`number` reads a field with it.

Dates: ``01/15/2024`` (month first, US), ``15/01/2024`` or ``15.01.2024`` (day first),
``2024-01-15`` or ``2024/01/15`` (year first), two-digit years as 20xx; times ``09:00:01``,
``09:00:01.123``, ``09:00:01 AM``. When day and month could be either, :class:`Clock` learns the
order from the values (a first number above 12 is a day; the number that changes at midnight is
the day) and, failing that, takes month first (the US format typeperf and sysstat write by
default) unless the file's decimal comma or dotted dates say otherwise, with a note.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date

from models.importers.common import ParseError

_GROUPING = str.maketrans("", "", " \u00a0\u202f\u2009'")

EPOCH_ORDINAL = date(1970, 1, 1).toordinal()


def number(text: str, decimal: str = ".") -> float:
    """A field as a float with decimal mark ``decimal`` (``.`` or ``,``); blank is NaN.

    Raises ``ValueError`` for anything else.
    """
    try:
        return float(text)
    except ValueError:
        pass
    s = text.strip().translate(_GROUPING)
    if not s:
        return float("nan")
    if decimal == ",":
        s = s.replace(".", "").replace(",", ".")
    else:
        s = s.replace(",", "")
    return float(s)


_BOTH = re.compile(r"^[-+]?[\d.,' \u00a0\u202f]*\d[.,]\d+$")


def decimal_mark(samples: Iterable[str]) -> str | None:
    """``.`` or ``,`` as the sample fields show it, None when they do not tell (integers only)."""
    comma = point = 0
    for s in samples:
        s = s.strip()
        if not s or not _BOTH.match(s):
            continue
        last_comma, last_point = s.rfind(","), s.rfind(".")
        if last_comma > last_point:
            comma += 1
        elif last_point > last_comma:
            point += 1
    if comma == point == 0:
        return None
    return "," if comma > point else "."


_DATE_TIME = re.compile(
    r"^\s*(?P<a>\d{1,4})(?P<sep>[./-])(?P<b>\d{1,2})[./-](?P<c>\d{1,4})"
    r"(?:[ T,]+(?P<H>\d{1,2}):(?P<M>\d{2})(?::(?P<S>\d{2})(?:[.,](?P<f>\d+))?)?"
    r"\s*(?P<ampm>[AaPp]\.?[Mm]\.?)?)?\s*(?P<tz>Z|UTC|GMT|[+-]\d{2}:?\d{2})?\s*$"
)


def split_date_time(text: str) -> tuple[int, int, int, str, float | None] | None:
    """(a, b, c, separator, seconds of the day or None) of ``a/b/c [HH:MM[:SS[.f]] [AM|PM]]``."""
    m = _DATE_TIME.match(text)
    if m is None:
        return None
    seconds = None
    if m.group("H") is not None:
        frac = float("0." + m.group("f")) if m.group("f") else 0.0
        seconds = _seconds_of_day(
            int(m.group("H")), int(m.group("M")), int(m.group("S") or 0), m.group("ampm")
        )
        if seconds is None:
            return None
        seconds += frac
    return int(m.group("a")), int(m.group("b")), int(m.group("c")), m.group("sep"), seconds


def days_since_epoch(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01; ``ValueError`` for a date that does not exist."""
    if year < 100:
        year += 2000
    return date(year, month, day).toordinal() - EPOCH_ORDINAL


class Clock:
    """Reads date-times of one file into seconds since the epoch (the host's local clock).

    ``order`` is ``mdy``, ``dmy``, ``ymd`` or ``auto``. With ``auto``, call :meth:`learn` with
    the first date strings before :meth:`seconds`: dates are told apart by their separator (a
    file may have a ``01/15/2024`` banner and ``15.01.2024`` timestamps), years of four digits
    first are ``ymd``, and the order of each separator is settled from the values.
    ``decimal`` (the file's decimal mark) breaks a tie.
    """

    def __init__(self, order: str = "auto", decimal: str | None = None) -> None:
        self.order = order
        self.decimal = decimal
        self.note: str | None = None
        self.orders: dict[str, str] = {}
        self._days: dict[tuple[int, int, int], int] = {}

    def learn(self, texts: Iterable[str]) -> None:
        """Settle ``auto`` from sample date strings."""
        if self.order != "auto":
            return
        by_sep: dict[str, list[tuple[int, int, int, str, float | None]]] = {}
        for p in (split_date_time(t) for t in texts):
            if p is not None:
                by_sep.setdefault(p[3], []).append(p)
        for sep, parts in by_sep.items():
            self.orders[sep] = self._settle(parts)

    def _settle(self, parts: list[tuple[int, int, int, str, float | None]]) -> str:
        if any(len(str(p[0])) == 4 or p[0] > 31 for p in parts):
            return "ymd"
        first_big = any(p[0] > 12 for p in parts)
        second_big = any(p[1] > 12 for p in parts)
        if first_big != second_big:
            return "dmy" if first_big else "mdy"
        changes_a = len({p[0] for p in parts}) > 1
        changes_b = len({p[1] for p in parts}) > 1
        if changes_a != changes_b:  # the day changes at midnight, the month rarely
            return "dmy" if changes_a else "mdy"
        order = "dmy" if parts[0][3] == "." or self.decimal == "," else "mdy"
        reading = "day/month" if order == "dmy" else "month/day"
        self.note = (
            f"dates such as {parts[0][0]:02d}{parts[0][3]}{parts[0][1]:02d} could be either order: "
            f"read as {reading}; set date_order if that is wrong"
        )
        return order

    def order_of(self, separator: str) -> str:
        """The order used for dates with ``separator``."""
        if self.order != "auto":
            return self.order
        return self.orders.get(separator, "dmy" if separator == "." else "mdy")

    def seconds(self, text: str, line: int | None = None, column: int | None = None) -> float:
        """``text`` as seconds since the epoch; :class:`ParseError` naming the line and column."""
        parts = split_date_time(text)
        if parts is None:
            raise ParseError(f"not a date and time: {text!r}", line, column)
        a, b, c, sep, sod = parts
        order = "ymd" if len(str(a)) == 4 else self.order_of(sep)
        if order == "ymd":
            y, mo, d = a, b, c
        elif order == "dmy":
            y, mo, d = c, b, a
        else:
            y, mo, d = c, a, b
        key = (y, mo, d)
        day = self._days.get(key)
        if day is None:
            try:
                day = days_since_epoch(y, mo, d)
            except ValueError:
                hint = "" if order == "ymd" else f" (read as {order}; set date_order if that is wrong)"
                raise ParseError(f"not a date: {text!r}{hint}", line, column) from None
            self._days[key] = day
        return day * 86400.0 + (sod or 0.0)


_TIME_ONLY = re.compile(r"^\s*(\d{1,2}):(\d{2}):(\d{2})(?:\s*([AaPp][Mm]))?\s*$")


def time_of_day(text: str) -> float | None:
    """``09:00:01`` or ``09:00:01 PM`` as seconds of the day, None when it is not a time."""
    m = _TIME_ONLY.match(text)
    if m is None:
        return None
    return _seconds_of_day(int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4))


def _seconds_of_day(h: int, mi: int, s: int, ampm: str | None) -> float | None:
    """Seconds since midnight of ``h:mi:s`` on a 24-hour clock or with ``AM``/``PM`` (12 AM is 0:00)."""
    half = (ampm or "").replace(".", "").upper()
    if half == "PM" and h < 12:
        h += 12
    elif half == "AM" and h == 12:
        h = 0
    if h > 23 or mi > 59 or s > 60:
        return None
    return float(h * 3600 + mi * 60 + s)
