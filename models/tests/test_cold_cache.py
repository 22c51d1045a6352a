"""Cold and warm: every window answers for caches refilling after a restart or failover."""

from __future__ import annotations

import contextlib
import math

import pytest

import models.evaluate as evaluate_module
from models.cow_metadata import metadata_words
from models.evaluate import evaluate
from models.tests.conftest import make_config, oltp
from models.workload import Skew


def test_a_cold_cache_hits_less_so_the_drives_work_harder_and_reads_wait_longer(hdd15k):
    # 16 GB of DRAM (2 x 8) over a 200 GB Zipf working set: warm LRU hits exceed a first pass's
    wl = oltp(iops=1500, read_pct=80, ws_gb=200, skew=Skew(zipf_alpha=0.9))
    window = evaluate([wl], make_config(hdd15k, "raid-dp", 20, 40)).windows[0]
    cold = window.cold_cache
    assert cold is not None
    ph = cold.phases[0]
    assert ph.hit_pct < ph.warm_hit_pct
    # RAID-DP is copy-on-write: the first pass's misses also read their indirect blocks (m per miss)
    first = (window.phases[0].cold_hit_pct.value or 0.0) / 100
    assert ph.hit_pct == pytest.approx(100 * (1 - (1 - first) * (1 + ph.metadata_reads_per_miss)), rel=1e-12)
    assert ph.metadata_reads_per_miss == pytest.approx(8 / ((1 - first) * 4096), rel=1e-12)
    assert (cold.drive_utilization_pct["aggr0"] or 0) > (window.pools[0].drive_utilization_pct.value or 0)
    assert (cold.read_latency_ms or 0) > (window.read_latency_ms or 0)
    assert (cold.read_p99_latency_ms or 0) >= (window.read_p99_latency_ms or 0)


def test_without_a_cache_the_cold_case_is_the_warm_one(hdd15k):
    cfg = make_config(hdd15k, "raid-dp", 20, 40, ctrl={"dram_cache_gb": 0})
    assert evaluate([oltp(iops=1500)], cfg).windows[0].cold_cache is None


def test_sizing_searches_may_leave_the_cold_case_out(hdd15k):
    result = evaluate([oltp(iops=1500)], make_config(hdd15k, "raid-dp", 20, 40), cold_cache=False)
    assert all(w.cold_cache is None for w in result.windows)


def test_a_cold_window_that_overloads_the_drives_says_so_without_failing_the_warm_verdict(hdd15k):
    # 16 GB of DRAM holds the whole 12 GB working set warm (uniform access): the drives see only
    # writes; cold, 4,500 reads/s hit only e^-1 = 36.8% over the first pass, the rest go to 18
    # data drives
    wl = oltp(iops=5000, read_pct=90, ws_gb=12, capacity_tb=1.0)
    result = evaluate([wl], make_config(hdd15k, "raid-dp", 20, 20))
    window = result.windows[0]
    cold = window.cold_cache
    assert cold is not None
    assert window.passed
    # first pass e^-1; WAFL's indirect blocks add m = 8 / ((1 - e^-1) x 4,096) misses per miss:
    # 1 - (1 - e^-1)(1 + m) = e^-1 - 8 / 4,096
    assert cold.phases[0].hit_pct == pytest.approx(100 * (math.exp(-1) - 8 / 4096))
    assert not cold.passed
    assert "cold caches" in cold.verdict and "drives" in cold.verdict


@pytest.mark.parametrize("iops,read_pct,ws_gb", [(1500, 80, 200), (5000, 90, 12), (9000, 60, 60)])
def test_the_figures_only_cold_pass_keeps_every_figure_and_verdict(
    hdd15k, monkeypatch, iops, read_pct, ws_gb
):
    # the cold pass formats no explanation (explain.figures_only); served with every text built,
    # its result is the same, figures and the check texts in its verdict alike
    wl = oltp(iops=iops, read_pct=read_pct, ws_gb=ws_gb, skew=Skew(zipf_alpha=0.9), capacity_tb=1.0)
    cfg = make_config(hdd15k, "raid-dp", 20, 20)
    quick = evaluate([wl], cfg).windows[0].cold_cache
    monkeypatch.setattr(evaluate_module, "figures_only", contextlib.nullcontext)
    whole = evaluate([wl], cfg).windows[0].cold_cache
    assert quick is not None and whole is not None
    assert quick == whole
    assert quick.verdict.count("%") == whole.verdict.count("%")


def test_figures_only_leaves_text_and_inputs_out_and_restores_them_after():
    from models.explain import explained, figures_only, fmt

    with figures_only():
        quiet = explained(12.5, "%", "U = a / b", f"U = {fmt(1.0)} / {fmt(8.0)}", a=1.0, b=8.0)
    loud = explained(12.5, "%", "U = a / b", f"U = {fmt(1.0)} / {fmt(8.0)}", a=1.0, b=8.0)
    assert (quiet.value, quiet.text, quiet.inputs) == (12.5, "", {})
    assert (loud.text, loud.inputs) == ("U = 1 / 8", {"a": 1.0, "b": 8.0})


def _cold_cache_explained(window, members, hits, warm, routes, tiering, setup):
    """The cold-cache case the slow way, as it was first built: the whole explained window
    (:func:`models.evaluate._serve`) served at the cold hit ratios, its figures read back."""
    from models.results import ColdCacheResult, ColdPhase

    got = evaluate_module.cold_hits_of(members, hits, warm.phases, routes, setup)
    if got is None:
        return None
    cold_hits, meta = got
    _, ws_list, dram_share, both_share = evaluate_module.window_hit_ratios(
        members, setup.dram_total, setup.flash_total, setup.cfg.cache
    )
    shares = (ws_list, dram_share, both_share)
    served = evaluate_module._serve(members, cold_hits, shares, routes, tiering, setup)
    passed, bottleneck, _ = evaluate_module._verdict(window, served.checks)
    failing = [c.text for c in served.checks if not c.passed]
    return ColdCacheResult(
        phases=[
            ColdPhase(
                workload=w.name,
                phase=ph.name,
                hit_pct=100.0 * (h_d + h_f),
                warm_hit_pct=100.0 * (wd + wf),
                read_latency_ms=r.read_latency_ms.value,
                read_p99_latency_ms=None if r.read_p99_latency_ms is None else r.read_p99_latency_ms.value,
                metadata_reads_per_miss=m,
            )
            for (w, ph), (h_d, h_f), (wd, wf), r, m in zip(
                members, cold_hits, hits, served.phases, meta, strict=True
            )
        ],
        drive_utilization_pct={pl.pool: pl.drive_utilization_pct.value for pl in served.pool_loads},
        controller_utilization_pct=served.ctrl_exp.value,
        read_latency_ms=served.read_lat,
        read_p95_latency_ms=served.read_p95,
        read_p99_latency_ms=served.read_p99,
        bottleneck=bottleneck,
        passed=passed,
        verdict=(
            f"{window} with cold caches: meets every target; busiest is "
            f"{next(c.text for c in served.checks if c.name == bottleneck)}."
            if passed
            else f"{window} with cold caches (after a restart or failover, until the working set is read "
            "once): fails: " + "; ".join(failing[:3]) + "."
        )
        + metadata_words(max(meta)),
    )


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("degraded", ["none", "drive-failed", "rebuilding", "controller-failed"])
def test_the_numbers_only_cold_pass_equals_the_explained_window_served_cold(
    hdd15k, ssd, monkeypatch, seed, degraded
):
    # the cold pass computes its figures without explanations (evaluate._figures); served the
    # slow way, through every explained result model, the whole evaluation is equal
    import random

    from bench.test_bench_cold import WINDOWS, random_workload
    from models.results import DegradedMode

    rng = random.Random(seed)
    wls = [random_workload(rng, f"w{i}", WINDOWS[:3]) for i in range(1 + seed % 3)]
    flash = ssd.model_copy(update={"endurance_dwpd": 1.0})
    configs = [
        make_config(hdd15k, "raid-dp", 16, 32),
        make_config(hdd15k, "raid10", 2, 24, ctrl={"backend_mb_s": 2000}),
        make_config(flash, "raid5", 8, 16),
    ]
    mode = DegradedMode(degraded)
    quick = [evaluate(wls, cfg, degraded=mode) for cfg in configs]
    monkeypatch.setattr(evaluate_module, "_cold_cache", _cold_cache_explained)
    slow = [evaluate(wls, cfg, degraded=mode) for cfg in configs]
    assert any(w.cold_cache is not None for r in quick for w in r.windows)
    assert quick == slow
    assert [r.model_dump_json() for r in quick] == [r.model_dump_json() for r in slow]
