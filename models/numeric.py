"""Elementwise helpers for the formulas evaluate shares with the vectorized search.

The pool and drive formulas take plain floats (one configuration, :func:`models.evaluate.evaluate`)
or numpy arrays (many candidates, :mod:`models.batch`). numpy on a lone float costs about a
microsecond a call and turns the result into a numpy scalar that slows every later operation, so
these helpers compute in plain floats when every argument is one, and call numpy otherwise. The
float branch gives bit for bit what numpy gives (IEEE 754 arithmetic; NaN propagates as in numpy).
"""

from __future__ import annotations

from typing import Any

import numpy as np

Num = Any  # a float, or a numpy array over candidates

_SCALAR = (float, int)


def is_scalar(*values: Num) -> bool:
    """Whether every value is a plain number (float, int, or a numpy float scalar), not an array."""
    for v in values:  # noqa: SIM110 (a loop, not all(generator): called several times per pool and window)
        if not isinstance(v, _SCALAR):
            return False
    return True


def maximum(a: Num, b: Num) -> Num:
    """``np.maximum(a, b)``, in plain floats when both are numbers."""
    if isinstance(a, _SCALAR) and isinstance(b, _SCALAR):
        if a >= b:
            return a
        return b if b > a else a + b  # a NaN on either side gives NaN, as numpy does
    return np.maximum(a, b)


def minimum(a: Num, b: Num) -> Num:
    """``np.minimum(a, b)``, in plain floats when both are numbers."""
    if isinstance(a, _SCALAR) and isinstance(b, _SCALAR):
        if a <= b:
            return a
        return b if b < a else a + b
    return np.minimum(a, b)


def every(mask: Num) -> bool:
    """``np.all(mask)``: whether a lone truth value (a bool or a number) is true, or every element
    of an array is."""
    if isinstance(mask, (bool, float, int)):
        return bool(mask)
    return bool(np.all(mask))


def some(mask: Num) -> bool:
    """``np.any(mask)``: whether a lone truth value is true, or any element of an array is."""
    if isinstance(mask, (bool, float, int)):
        return bool(mask)
    return bool(np.any(mask))


__all__ = ["Num", "every", "is_scalar", "maximum", "minimum", "some"]
