"""Recommend: the WAFL layout from the calibration, then the engine over the whole catalog."""

from __future__ import annotations

from backend.app.calibration import Calibration, Layout
from backend.app.core.errors import InvalidInput
from backend.app.engine.context import SizingContext
from backend.app.engine.money import MONEY
from backend.app.recommend.schemas import RecommendRequest
from models.base import InputError
from models.provenance import assess
from models.recommend import Recommendation, RecommendedConfiguration
from models.recommend import recommend as engine_recommend
from models.tco import price_recommendation


def wafl_layout(calibration: Calibration, layout: Layout | None) -> tuple[float | None, float]:
    """(full-stripe share, scatter) of RAID-DP/RAID-TEC families: the named age, else the calibrated
    default; engine defaults (None, 0) without a calibration."""
    age = layout or calibration.default_layout
    if age is None:
        return None, 0.0
    calibrated = calibration.layouts.get(age)
    if calibrated is None:
        have = ", ".join(sorted(calibration.layouts)) or "none"
        raise InvalidInput.at(
            ("body", "layout"),
            f"layout {age.value!r} is not calibrated (fixtures/calibration/engine.yaml has: {have})",
        )
    return calibrated.full_stripe_share, calibrated.scatter


def recommend(body: RecommendRequest, ctx: SizingContext) -> Recommendation:
    catalog = ctx.catalog.get()
    share, scatter = wafl_layout(ctx.calibration, body.layout)
    found = ctx.run(
        lambda: engine_recommend(
            body.workloads,
            catalog,
            body.constraints,
            limit=body.limit,
            one_per=body.one_per,
            pareto=body.pareto,
            pareto_limit=body.pareto_limit,
            params=ctx.params,
            wafl_full_stripe_share=share,
            wafl_scatter=scatter,
        )
    )
    try:
        priced = price_recommendation(found, body.workloads, catalog, body.money)
    except InputError as exc:
        raise InvalidInput.at(MONEY + (exc.field,), exc.reason) from exc

    def assessed(rc: RecommendedConfiguration) -> RecommendedConfiguration:
        a = assess(rc.configuration, body.workloads, ctx.model_errors)
        return rc.model_copy(update={"calibration": a.calibration, "model_error": a.model_error})

    return priced.model_copy(
        update={
            "configurations": [assessed(rc) for rc in priced.configurations],
            "pareto_front": [assessed(rc) for rc in priced.pareto_front],
        }
    )
