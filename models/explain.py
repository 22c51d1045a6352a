"""Explained figures: every number the engine reports carries the formula and inputs behind it."""

from __future__ import annotations

from contextvars import ContextVar

from pydantic import Field

from models.base import Output, validator_of
from models.kept import FORMATTED_KEPT, active

_FIGURES_ONLY: ContextVar[bool] = ContextVar("figures_only", default=False)


class Explained(Output):
    """A figure with its unit, symbolic formula, the same formula with numbers, and the inputs."""

    value: float | None = Field(description="the figure; null when unbounded (a saturated resource)")
    unit: str
    formula: str = Field(description="symbolic formula, names as in docs/nomenclature.md")
    text: str = Field(description="the formula with the numbers filled in")
    inputs: dict[str, float | str | None] = Field(default_factory=dict)
    source: str | None = Field(default=None, description="model reference or published source")


class figures_only:  # noqa: N801 (used as a function: ``with figures_only():``)
    """Within this block, explanations carry their figure but neither text nor inputs: :func:`fmt`
    answers ``""`` and :func:`explained` leaves ``text`` empty and ``inputs`` out. For a pass whose
    explanations are thrown away (the cold-cache pass of a window keeps figures and check verdicts
    only), so no number is formatted and no inputs validated for nothing. Check texts
    (:func:`models.results.check`) use :func:`number` and stay whole. A class rather than a
    ``contextmanager`` generator: entered once per window, at a third of the cost.
    """

    def __enter__(self) -> None:
        self._token = _FIGURES_ONLY.set(True)

    def __exit__(self, *exc: object) -> None:
        _FIGURES_ONLY.reset(self._token)


def fmt(x: float | None, digits: int = 3) -> str:
    """Human format: thousands separators, ``digits`` significant decimals, 'inf' for None
    (``""`` within :func:`figures_only`)."""
    if _FIGURES_ONLY.get():
        return ""
    return number(x, digits)


def number(x: float | None, digits: int = 3) -> str:
    """:func:`fmt` whatever the context: for texts that are kept in a figures-only pass. A float
    at 3 digits is remembered in the memo in force (:attr:`models.kept.Kept.formatted`, at most
    :data:`models.kept.FORMATTED_KEPT`): exact, equal floats format alike (0.0 and -0.0 both as
    "0", every NaN as "nan")."""
    if type(x) is float and digits == 3:
        memo = active()
        if memo is not None:
            kept = memo.formatted
            text = kept.get(x)
            if text is None:
                if len(kept) >= FORMATTED_KEPT:
                    kept.clear()
                text = kept[x] = _formatted(x, 3)
            return text
    return _formatted(x, digits)


def _formatted(x: float | None, digits: int) -> str:
    """The text of :func:`number`, formatted."""
    if x is None:
        return "∞"
    ax = abs(x)
    if ax >= 1000:
        return f"{x:,.0f}"
    # printf-style: the same digits as format(x, ".1f") / format(x, ".3g"), at a third of the cost
    if ax >= 100:
        return ("%.1f" % x).rstrip("0").rstrip(".")  # noqa: UP031 (speed, see above)
    if ax == 0:
        return "0"
    return "%.*g" % (digits, x)  # noqa: UP031 (speed, see above)


def explained(
    value: float | None,
    unit: str,
    formula: str,
    text: str,
    source: str | None = None,
    **inputs: float | str | None,
) -> Explained:
    """Build an :class:`Explained`; ``text`` should read like ``"BE = 8,000 x (1 - 0.42) + ..."``."""
    if _FIGURES_ONLY.get():
        # the figure alone (validated as the model would: finite or None, as a float)
        return _EXPLAINED({"value": value, "unit": unit, "formula": formula, "text": "", "source": source})
    return _EXPLAINED(
        {"value": value, "unit": unit, "formula": formula, "text": text, "inputs": inputs, "source": source}
    )


_EXPLAINED = validator_of(Explained)
