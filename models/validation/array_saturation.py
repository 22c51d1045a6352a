"""Validation handler: published saturation throughput of catalog arrays (``kind: array_saturation``).

A record names a catalog array (and optionally its drive and drive count; else the record's
defaults) and published figures: a random workload (read share, I/O size) and the IOPS the vendor
or a test states the array sustains. A record measured on other hardware running the array's
software states what differs, and only that: ``controller``, a custom controller record of
``fixtures/calibration/custom_hardware.yaml`` based on the same array (the tested cores, as a user
would create it through ``/hardware``; never an inline figure), and ``storage_efficiency: false``
(inline deduplication and compression off, as in the test: a setting a user states). The engine predicts the saturation throughput of the shipped
catalog configuration (:func:`models.curves.saturation_scale`: the load at which the busiest
resource reaches 100%) and names the resource that binds there. A figure the catalog record's
ceilings were read off says ``ceiling_source: true``, one its per-I/O costs were derived from
``cost_source: true``: its row is in-sample (the catalog reproduces it by construction); every
other figure is out of sample, gated at the record's ``tolerance_pct`` unless it states why not
(``not_gated``: reported with its reason).
"""

from __future__ import annotations

from typing import Any

from models.catalog import build_configuration
from models.curves import saturation_scale
from models.evaluate import evaluate
from models.parameters import EngineParameters
from models.validation import IN_SAMPLE, OUT_OF_SAMPLE, Row, ValidationContext, handler
from models.validation.scale_out import _BASE_IOPS, binding_resource, custom_records, measurement_workload


def predicted_saturation(
    record: dict[str, Any], m: dict[str, Any], ctx: ValidationContext
) -> tuple[float, str]:
    """(saturation IOPS, binding resource) of measurement ``m`` on the record's catalog array."""
    cat = ctx.catalog
    if cat is None:
        raise SystemExit("array saturation validation needs the catalog (fixtures/catalog)")
    array = cat.arrays[record["array"]]
    if "controller" in record:
        name = record["controller"]
        custom = custom_records(ctx).get(name)
        if custom is None or custom["base"] != array.id:
            raise ValueError(
                f"{record['id']}: controller {name!r} is no custom_hardware.yaml record based on {array.id}"
            )
        update = {**custom.get("hardware", {}), **custom.get("software", {})}
        array = array.model_copy(update={"controller": array.controller.model_copy(update=update)})
    if record.get("storage_efficiency") is False:
        array = array.model_copy(update={"inline_dedupe": False, "inline_compression": False})
    drive = cat.drives[record.get("drive") or array.default_drive]
    cfg = build_configuration(array, drive, array.default_raid, drive_count=record.get("drive_count"))
    wl = measurement_workload(m, record.get("capacity_tb", 20.0), name="published")
    params = EngineParameters()
    scale = saturation_scale(wl, cfg, "test", params=params)
    at = evaluate(wl, cfg, params=params, load_scale=scale * 0.999, cold_cache=False)
    return _BASE_IOPS * scale, binding_resource(at.windows[0].checks)


@handler("array_saturation")
def array_saturation_rows(record: dict[str, Any], ctx: ValidationContext) -> list[Row]:
    rows = []
    for m in record["measurements"]:
        iops, binding = predicted_saturation(record, m, ctx)
        source = (
            "the catalog's ceilings and per-I/O costs were derived from this figure"
            if m.get("ceiling_source") and m.get("cost_source")
            else "the catalog's ceilings were read off this figure"
            if m.get("ceiling_source")
            else "the catalog's per-I/O costs were derived from this figure"
            if m.get("cost_source")
            else None
        )
        basis = IN_SAMPLE if source else OUT_OF_SAMPLE
        note = f"binds: {binding}" + (f"; {source}" if source else "")
        if basis == OUT_OF_SAMPLE and m.get("not_gated"):
            note += f"; not gated: {m['not_gated']}"
        rows.append(
            Row(
                record["id"],
                f"{m['id']} IOPS",
                iops,
                float(m["iops"]),
                gate=basis == OUT_OF_SAMPLE and not m.get("not_gated"),
                tolerance_pct=record.get("tolerance_pct", 25),
                note=note,
                basis=basis,
            )
        )
    return rows
