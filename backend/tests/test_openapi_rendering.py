"""The OpenAPI document renders cleanly in ReDoc: no schema shape ReDoc merges into a conflict.

ReDoc turns ``if``/``then``/``else`` into ``oneOf: [allOf: [schema, if, then], allOf: [schema,
else]]`` and merges each branch's property into the model's own. A branch that restated a
``type`` (``rpm: {type: integer}``) met the field's ``anyOf: [{type: integer}, {type: null}]`` and
logged "Incompatible types in allOf" for the ``null`` branch: 1,319 warnings, once per field,
branch and place the model is used, and 10-30 s of rendering on this machine (issue 36).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import jsonschema_rs

from backend.app.core.config import Settings
from backend.app.main import create_app
from models.base import ABSENT, GIVEN

CONDITIONAL = ("if", "then", "else")


def conditionals(document: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(schema name, schema) of every component schema with an ``if``/``then``/``else`` rule."""
    for name, schema in document["components"]["schemas"].items():
        if any(key in schema for key in CONDITIONAL):
            yield name, schema


def test_conditional_rules_narrow_fields_without_restating_a_type(
    make_settings: Callable[..., Settings],
) -> None:
    document = create_app(make_settings()).openapi()
    rules = dict(conditionals(document))

    assert set(rules) >= {"DriveSpec", "Skew", "Phase", "BuildingBlocksRequest"}
    for name, schema in rules.items():
        for key in CONDITIONAL:
            for field, narrowing in schema.get(key, {}).get("properties", {}).items():
                assert "type" not in narrowing, f"{name}.{key}.{field} restates a type: {narrowing}"
                assert field in schema["properties"], f"{name}.{key}.{field} is not a field of {name}"


def test_given_and_absent_mean_not_null_and_null() -> None:
    for value, given, absent in [
        (7, True, False),
        ("x", True, False),
        ({}, True, False),
        (None, False, True),
    ]:
        assert jsonschema_rs.Draft202012Validator(GIVEN).is_valid(value) is given
        assert jsonschema_rs.Draft202012Validator(ABSENT).is_valid(value) is absent


def test_a_hard_disk_without_its_seek_times_breaks_the_drive_rule(
    make_settings: Callable[..., Settings],
) -> None:
    """The rule still says what it said with types: hdd needs rpm and seeks, flash figures absent."""
    document = create_app(make_settings()).openapi()
    drive = document["components"]["schemas"]["DriveSpec"]
    rule = jsonschema_rs.Draft202012Validator({key: drive[key] for key in CONDITIONAL})
    hdd = {"kind": "hdd", "rpm": 15000, "avg_read_seek_ms": 3.5, "avg_write_seek_ms": 4.0}
    ssd = {
        "kind": "ssd",
        "read_iops_4k": 1e5,
        "write_iops_4k": 5e4,
        "read_latency_us": 90,
        "write_latency_us": 30,
    }

    assert rule.is_valid(hdd) and rule.is_valid(ssd)
    assert not rule.is_valid({**hdd, "rpm": None})
    assert not rule.is_valid({**hdd, "endurance_dwpd": 1.0})  # a hard disk has no flash figures
    assert rule.is_valid({**hdd, "endurance_dwpd": None})
    assert not rule.is_valid({**ssd, "read_latency_us": None})
