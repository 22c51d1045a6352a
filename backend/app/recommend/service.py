"""Recommend: the WAFL layout from the calibration, then the engine over the whole catalog."""

from __future__ import annotations

from backend.app.core.collector import collector_paused
from backend.app.core.errors import InvalidInput
from backend.app.engine.context import SizingContext
from backend.app.engine.money import MONEY
from backend.app.recommend.schemas import RecommendRequest
from models.base import InputError
from models.provenance import CalibrationMargin
from models.recommend import Recommendation, RecommendedConfiguration
from models.recommend import recommend as engine_recommend
from models.tco import price_recommendation


def recommend(body: RecommendRequest, ctx: SizingContext) -> Recommendation:
    catalog = ctx.catalog.get()
    try:
        _age, share, scatter = ctx.calibration.wafl_layout(body.layout)
    except InputError as exc:
        raise InvalidInput.at(("body", exc.field), exc.reason) from exc
    found = collector_paused(
        lambda: ctx.run(
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
                model_errors=None
                if body.calibration_margin is CalibrationMargin.AS_STATED
                else ctx.model_errors,
            )
        )
    )
    try:
        priced = price_recommendation(found, body.workloads, catalog, body.money)
    except InputError as exc:
        raise InvalidInput.at(MONEY + (exc.field,), exc.reason) from exc

    def assessed(rc: RecommendedConfiguration) -> RecommendedConfiguration:
        # the margins it was found with: with_margins on the configuration as its records state it
        _, margins = ctx.margined(rc.configuration, body.workloads, body.calibration_margin)
        return ctx.margining().assessed(rc, rc.configuration, body.workloads, margins)

    return priced.model_copy(
        update={
            "configurations": [assessed(rc) for rc in priced.configurations],
            "pareto_front": [assessed(rc) for rc in priced.pareto_front],
        }
    )
