"""Common base for the engine's value objects and shared field types.

Every input and output is a frozen Pydantic model: the same classes are the API schemas, so there
is one source of truth. NaN and infinity are rejected everywhere (``allow_inf_nan=False``) and
unknown fields are an error (``extra="forbid"``), so a typo in a request never passes silently.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field


class Frozen(BaseModel):
    """Immutable value object; invalid input raises ``pydantic.ValidationError`` naming the field."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


class Output(BaseModel):
    """Immutable result object (extra fields are not expected, but results are never re-validated)."""

    model_config = ConfigDict(frozen=True, allow_inf_nan=False)


Pct = Annotated[float, Field(ge=0.0, le=100.0, description="percentage [%], 0-100")]
PositiveFloat = Annotated[float, Field(gt=0.0)]
NonNegFloat = Annotated[float, Field(ge=0.0)]
Ratio = Annotated[float, Field(ge=1.0, le=100.0, description="reduction ratio, e.g. 2.0 for 2:1")]

GIVEN: dict[str, Any] = {"not": {"type": "null"}}
"""JSON Schema, inside an ``if``/``then``/``else`` rule, of an optional field that is given (not
``null``). The rule narrows the field's own ``anyOf [<type>, null]`` and never restates a
``type``: documentation renderers (ReDoc) merge each branch into the field as ``allOf``, and a
``type`` beside the field's ``null`` branch is an "incompatible types" warning per field, per
branch and per place the model is used (1,319 of them, and 10-30 s of rendering, before)."""
ABSENT: dict[str, Any] = {"enum": [None]}
"""JSON Schema, inside an ``if``/``then``/``else`` rule, of an optional field that is left out or
``null`` (no ``type``, as :data:`GIVEN`; not ``const: null``, which FastAPI drops from the document
as it leaves out every ``None``)."""


class InputError(ValueError):
    """Invalid argument to an engine function; ``field`` names it, the message says why."""

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {reason}")


_M = TypeVar("_M", bound=BaseModel)


def validator_of(cls: type[_M]) -> Callable[[dict[str, Any]], _M]:
    """``cls(**fields)`` as ``build(fields)``: the model's own validator, called on the dict of
    field values as ``BaseModel.__init__`` calls it (and as ``cls.model_validate`` does), without
    ``__init__``'s Python frame (a quarter of building a small result, which an evaluation does a
    hundred times). The instance, its fields set and any validation error are the same."""
    return cls.__pydantic_validator__.validate_python  # type: ignore[no-any-return]
