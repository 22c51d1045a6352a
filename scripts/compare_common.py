"""What ``compare_evaluate.py`` and ``compare_searches.py`` share: one result as text, every leaf
with its type and repr, so that two checkouts' outputs compare byte for byte."""

from pydantic import BaseModel


def walk(x: object) -> str:
    """Every leaf with its type and repr (types and exact values)."""
    if isinstance(x, BaseModel):
        return "{" + ",".join(f"{k}={walk(getattr(x, k))}" for k in type(x).model_fields) + "}"
    if isinstance(x, (list, tuple)):
        return "[" + ",".join(walk(v) for v in x) + "]"
    if isinstance(x, dict):
        return "{" + ",".join(f"{k!r}:{walk(v)}" for k, v in x.items()) + "}"
    return f"{type(x).__name__}:{x!r}"
