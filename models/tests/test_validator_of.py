"""Results built through their model's validator (:func:`models.base.validator_of`) are the
results ``Model(**fields)`` builds: the same values of the same types, the same fields set (so
``exclude_unset`` dumps agree), equality, JSON, pickling and validation errors."""

from __future__ import annotations

import math
import pickle
import random
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from models.base import validator_of
from models.drives import DriveSpec
from models.evaluate import evaluate
from models.explain import Explained
from models.results import Check, DegradedMode
from models.tests.conftest import make_config
from models.workload import Phase, Skew, Workload


def same(a: Any, b: Any) -> None:
    """``a`` and ``b`` hold the same values of the same types, recursively; models agree on their
    fields set, extra and private parts, equality, repr, JSON (whole and ``exclude_unset``) and a
    pickle round trip."""
    assert type(a) is type(b)
    if isinstance(a, BaseModel):
        assert a.model_fields_set == b.model_fields_set
        assert a.__pydantic_extra__ == b.__pydantic_extra__
        assert a.__pydantic_private__ == b.__pydantic_private__
        assert list(a.__dict__) == list(b.__dict__)
        for k in a.__dict__:
            same(a.__dict__[k], b.__dict__[k])
        assert a == b
        assert repr(a) == repr(b)
        assert a.model_dump_json() == b.model_dump_json()
        assert a.model_dump_json(exclude_unset=True) == b.model_dump_json(exclude_unset=True)
        c = pickle.loads(pickle.dumps(a))
        assert c == a and c.model_fields_set == a.model_fields_set
    elif isinstance(a, dict):
        assert list(a) == list(b)
        for k in a:
            same(a[k], b[k])
    elif isinstance(a, list | tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            same(x, y)
    elif isinstance(a, float) and math.isnan(a):
        assert math.isnan(b)
    else:
        assert a == b and repr(a) == repr(b)


def every_model(x: Any) -> Any:
    if isinstance(x, BaseModel):
        yield x
        for v in x.__dict__.values():
            yield from every_model(v)
    elif isinstance(x, dict):
        for v in x.values():
            yield from every_model(v)
    elif isinstance(x, list | tuple):
        for v in x:
            yield from every_model(v)


def test_evaluations_equal_their_rebuild_through_init(hdd15k: DriveSpec, ssd: DriveSpec) -> None:
    rng = random.Random(18)
    configs = [make_config(hdd15k, "raid-dp", 16, 96), make_config(ssd, "raid10", 8, 24)]
    kinds: set[str] = set()
    for k in range(24):
        wl = Workload(
            name="w",
            capacity_tb=round(rng.uniform(0.5, 10), 3),
            working_set_pct=round(rng.uniform(2, 30), 3),
            skew=Skew(zipf_alpha=round(rng.uniform(0.5, 1.3), 4)),
            phases=[
                Phase(
                    name=f"p{i}",
                    window=window,
                    iops=round(rng.uniform(500, 40_000), 1),
                    read_pct=round(rng.uniform(10, 95), 2),
                    random_pct=round(rng.uniform(20, 100), 2),
                    io_size_kib=rng.choice([4, 8, 64]),
                    read_latency_target_ms=rng.choice([None, 5.0]),
                )
                for i, window in enumerate(["day", "night"])
            ],
        )
        res = evaluate([wl], configs[k % 2], degraded=list(DegradedMode)[k % 4])
        for m in every_model(res):
            # rebuilt through __init__ from the fields it was given (nested models kept as they are)
            same(m, type(m)(**{f: getattr(m, f) for f in m.model_fields_set}))
            kinds.add(type(m).__name__)
    assert {"Explained", "Check", "PoolLoad", "PhaseResult", "WindowResult", "ColdCacheResult"} <= kinds


@pytest.mark.parametrize(
    ("model", "fields"),
    [
        (Explained, {"value": math.inf, "unit": "%", "formula": "f", "text": "t"}),
        (Explained, {"value": 1, "unit": "%", "formula": "f", "text": "t", "inputs": {"a": 2, "b": "x"}}),
        (Explained, {"value": None, "unit": 3, "formula": "f", "text": "t"}),
        (Check, {"name": "c", "value": 1, "limit": 2, "unit": "%", "margin": 1, "passed": 1, "text": "t"}),
        (Check, {"name": "c", "value": math.nan, "limit": 2.0, "unit": "%", "margin": None, "passed": False}),
    ],
)
def test_validator_of_validates_as_init(model: type[BaseModel], fields: dict[str, Any]) -> None:
    try:
        expected: Any = model(**fields)
    except ValidationError as e:
        with pytest.raises(ValidationError) as got:
            validator_of(model)(dict(fields))
        assert got.value.errors() == e.errors() and got.value.title == e.title
        return
    same(validator_of(model)(dict(fields)), expected)
