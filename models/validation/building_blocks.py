"""Validation handler: building blocks per rack (models.blocks) against published E-Series figures.

A record names catalog hardware (array, drive, RAID), optionally overrides the block's drives
and rack units, and lists published per-block and per-rack figures. The engine derives the
block (:func:`models.blocks.block_from_array`) and fills a rack with it
(:func:`models.blocks.size_blocks`); ``gates`` gives the % tolerance of each gated metric, the
others are reported. A record's ``basis`` says whether its figures went into the catalog records
it uses (``in-sample``) or not (``out-of-sample``); without one it counts as in-sample.
"""

from __future__ import annotations

from typing import Any

from models.blocks import DEFAULT_SCALING_EFFICIENCY, BlockStreams, BlockTarget, block_from_array, size_blocks
from models.validation import BASES, IN_SAMPLE, Row, ValidationContext, handler


def predict(record: dict[str, Any], ctx: ValidationContext) -> dict[str, float]:
    """Per-block and per-rack figures the engine predicts for a record."""
    model = record["model"]
    cat = ctx.catalog
    if cat is None:
        raise SystemExit("building-block validation needs the catalog (fixtures/catalog)")
    derived = block_from_array(
        cat.arrays[model["array"]],
        cat.drives[model["drive"]],
        raid_scheme=model.get("raid"),
        group_width=model.get("group_width"),
        drives=model.get("drives_per_block"),
        rack_units=model.get("rack_units"),
        name=model.get("name"),
        streams=BlockStreams(**model["streams"]) if "streams" in model else None,
    )
    block = derived.block
    eff = model.get("scaling_efficiency", DEFAULT_SCALING_EFFICIENCY)
    # one full rack: as much raw capacity as a rack of blocks holds
    sizing = size_blocks(block, BlockTarget(read_gb_s=block.read_gb_s), scaling_efficiency=eff)
    per_rack = sizing.blocks_per_rack
    rack = size_blocks(block, BlockTarget(raw_pb=per_rack * block.raw_tb / 1000.0), scaling_efficiency=eff)
    return {
        "read_gb_s_per_block": block.read_gb_s,
        "write_gb_s_per_block": block.write_gb_s,
        "drives_per_rack": float(rack.drives),
        "raw_pb_per_rack": rack.raw_pb,
        "raw_tb_per_rack": rack.raw_pb * 1000.0,
        "read_gb_s_per_rack": rack.read_gb_s.value or 0.0,
        "write_gb_s_per_rack": rack.write_gb_s.value or 0.0,
        "gb_s_per_rack_unit": rack.gb_s_per_rack_unit.value or 0.0,
    }


@handler("building_blocks")
def building_block_rows(record: dict[str, Any], ctx: ValidationContext) -> list[Row]:
    predicted = predict(record, ctx)
    gates = record.get("gates") or {}
    basis = record.get("basis", IN_SAMPLE)
    if basis not in BASES:
        raise ValueError(f"{record['id']}: unknown basis {basis!r}")
    rows = []
    for metric, measured in record["measured"].items():
        gated = metric in gates
        rows.append(
            Row(
                record["id"],
                metric,
                predicted[metric],
                float(measured),
                gate=gated,
                tolerance_pct=gates.get(metric),
                note="" if gated else "reported (assumed packaging)",
                basis=basis,
            )
        )
    return rows
