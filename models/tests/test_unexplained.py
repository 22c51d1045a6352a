"""Evaluations without explanation texts (``evaluate(explain=False)``) for searches and what-ifs:
the same figures, checks and verdicts; texts only where a result is shown."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

import models.curves as curves_module
import models.size as size_module
import models.whatif.core as whatif_core
from models.curves import latency_vs_load
from models.evaluate import EvaluationResult, evaluate
from models.explain import Explained
from models.memo import EvaluationMemo
from models.results import DegradedMode
from models.size import size
from models.tests.conftest import make_config, oltp
from models.tests.test_evaluate import tiered_config, tiered_workload
from models.whatif import max_workload, sensitivity
from models.workload import Phase, Skew, Workload


def _pairs(a: object, b: object, path: str = "") -> list[tuple[str, object, object]]:
    """Every leaf of ``a`` beside the same leaf of ``b`` (same shapes), with its path; an
    :class:`Explained` is one leaf."""
    if isinstance(a, Explained):
        return [(path, a, b)]
    if isinstance(a, BaseModel):
        assert type(a) is type(b), path
        out = []
        for name in type(a).model_fields:
            out += _pairs(getattr(a, name), getattr(b, name), f"{path}.{name}")
        return out
    if isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple)) and len(a) == len(b), path
        out = []
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            out += _pairs(x, y, f"{path}[{i}]")
        return out
    if isinstance(a, dict):
        assert isinstance(b, dict) and list(a) == list(b), path
        out = []
        for k in a:
            out += _pairs(a[k], b[k], f"{path}[{k!r}]")
        return out
    return [(path, a, b)]


def assert_same_but_texts(whole: EvaluationResult, quick: EvaluationResult) -> int:
    """``quick`` (explain=False) is ``whole`` with the windows' explanations emptied: every other
    leaf equal (check texts, verdicts, bottlenecks included), every explained figure equal, and
    outside the windows (capacity, bill) the explanations whole. Returns how many were emptied."""
    emptied = 0
    for path, w, q in _pairs(whole, quick):
        if isinstance(w, Explained):
            assert isinstance(q, Explained), path
            assert (q.value, q.unit, q.formula, q.source) == (w.value, w.unit, w.formula, w.source), path
            if path.startswith(".windows"):
                assert (q.text, q.inputs) == ("", {}), path
                emptied += 1
            else:
                assert q == w, path
        else:
            assert q == w, path
            assert type(q) is type(w), path
    return emptied


def test_an_unexplained_evaluation_keeps_every_figure_check_and_verdict(hdd15k):
    wls = [
        oltp(iops=6000, read_pct=70, ws_gb=300, target=8.0),
        oltp(iops=900, name="b", skew=Skew(zipf_alpha=1.1)),
    ]
    cfg = make_config(hdd15k, "raid-dp", 16, 48)
    whole = evaluate(wls, cfg)
    quick = evaluate(wls, cfg, explain=False)
    # per window: 2 phases x 7 explanations, 1 pool x 4, controllers, failover, ports
    assert assert_same_but_texts(whole, quick) >= 20
    assert quick.windows[0].checks and quick.windows[0].checks == whole.windows[0].checks
    assert all(c.text for c in quick.windows[0].checks)  # check texts are whole
    assert quick.windows[0].verdict == whole.windows[0].verdict


@pytest.mark.parametrize("mode", list(DegradedMode))
def test_unexplained_in_every_degraded_mode_and_on_tiers(ssd, hdd15k, mode):
    cfg = tiered_config(ssd, hdd15k)
    wls = [tiered_workload()]
    assert_same_but_texts(evaluate(wls, cfg, degraded=mode), evaluate(wls, cfg, degraded=mode, explain=False))


def test_the_parts_kept_for_a_configuration_stay_explained(hdd15k):
    # the capacities and the bill are kept for the very same configuration object: built whole
    # even by an unexplained evaluation, so the next evaluation of it shows them whole
    memo = EvaluationMemo()
    cfg = make_config(hdd15k, "raid10", 2, 24)
    quick = evaluate([oltp()], cfg, explain=False, memo=memo)
    later = evaluate([oltp()], cfg, memo=memo)
    assert quick.capacity == later.capacity and quick.bill == later.bill
    assert later.bill is quick.bill  # kept
    assert later.capacity.needed_tb.text and later.capacity.needed_tb.inputs
    assert later.windows[0].pools[0].drive_utilization_pct.text.startswith("U = (")
    assert evaluate([oltp()], cfg) == later  # a memo of its own


_workloads = st.lists(
    st.tuples(  # (IOPS, read %, random %, I/O size, working set, Zipf alpha, latency target, window)
        st.floats(100, 30_000),
        st.floats(0, 100),
        st.floats(0, 100),
        st.sampled_from([4, 8, 32, 64]),
        st.floats(5, 2_000),
        st.floats(0.5, 1.3),
        st.none() | st.floats(1, 30),
        st.sampled_from(["day", "night"]),
    ),
    min_size=1,
    max_size=3,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(specs=_workloads, drives=st.sampled_from([16, 32, 96]))
def test_unexplained_is_explained_without_texts_for_any_workload(hdd15k, specs, drives):
    wls = [
        Workload(
            name=f"w{i}",
            capacity_tb=2.0,
            working_set_gb=ws,
            skew=Skew(zipf_alpha=alpha),
            phases=[
                Phase(
                    name="p",
                    window=window,
                    iops=iops,
                    read_pct=read,
                    random_pct=rnd,
                    io_size_kib=size_kib,
                    read_latency_target_ms=target,
                )
            ],
        )
        for i, (iops, read, rnd, size_kib, ws, alpha, target, window) in enumerate(specs)
    ]
    cfg = make_config(hdd15k, "raid-dp", 16, drives)
    assert_same_but_texts(evaluate(wls, cfg), evaluate(wls, cfg, explain=False))


def _always_whole(monkeypatch: pytest.MonkeyPatch, module: object) -> None:
    """``module.evaluate`` as every search called it before: explained, with its cold-cache case."""

    def whole(*args: object, **kwargs: object) -> EvaluationResult:
        kwargs.pop("explain", None)
        kwargs.pop("cold_cache", None)
        return evaluate(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "evaluate", whole)


def test_searches_and_what_ifs_answer_as_with_every_evaluation_explained(hdd15k, monkeypatch):
    # sizing's probes, the what-if runs and the latency curve read figures and checks only: with
    # every evaluation explained (and its cold-cache case) their answers are the same objects
    wls = [oltp(iops=7000, ws_gb=400, target=12.0), oltp(iops=1200, name="b", read_pct=30)]
    family = make_config(hdd15k, "raid-dp", 16, None)
    cfg = make_config(hdd15k, "raid-dp", 16, 48)

    def answers() -> tuple[object, ...]:
        return (
            size(wls, family),
            size(wls, family, flash_cache_options_gb=[0.0, 800.0]),
            sensitivity(wls, cfg),
            max_workload(wls, cfg),
            latency_vs_load(wls, cfg, points=5),
        )

    quick = answers()
    for module in (size_module, whatif_core, curves_module):
        _always_whole(monkeypatch, module)
    whole = answers()
    assert quick == whole
    sized = quick[0]
    assert isinstance(sized, size_module.SizingResult)
    # the answer itself is explained, with its cold-cache case
    assert sized.result.windows[0].pools[0].drive_utilization_pct.text.startswith("U = (")
    assert sized.result.windows[0].cold_cache is not None
