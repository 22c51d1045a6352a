"""The vectorized evaluation (models.batch) against scalar evaluate() and size()."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.base import InputError
from models.batch import (
    BatchEvaluation,
    CandidateSpace,
    Family,
    _SegmentPlans,
    candidate_space,
    evaluate_batch,
    family_configuration,
    family_counts,
    level_hit_ratios_many,
)
from models.cache import level_hit_ratios
from models.capacity import spare_count
from models.cases import HEALTHY_ONLY
from models.catalog import Catalog, load_calibration, load_catalog
from models.configuration import HeadroomTargets
from models.evaluate import evaluate
from models.pool import RoleWork, pool_work
from models.recommend import RecommendConstraints, catalog_families
from models.size import size
from models.workload import IoSize, Phase, Replication, Skew, Workload

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
CALIBRATED = load_calibration(FIXTURES).parameters  # fixtures/calibration/engine.yaml
WAFL_MODERATE = {"wafl_full_stripe_share": 0.802, "wafl_scatter": 0.412}

REL = 1e-9
"""Agreement of every figure with evaluate(), relative: the batch calls the same functions on
arrays (sums in another order leave ~1e-13)."""


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(FIXTURES)


def mixed_workloads() -> list[Workload]:
    """Two windows, three phases: random and sequential, a size mix, skews, overwrites, replication."""
    return [
        Workload(
            name="oltp",
            capacity_tb=8,
            working_set_gb=400,
            skew=Skew(zipf_alpha=0.9),
            phases=[
                Phase(
                    name="day", window="day", iops=9000, read_pct=70, io_size_kib=8, read_latency_target_ms=25
                ),
                Phase(
                    name="batch",
                    window="night",
                    iops=1500,
                    read_pct=30,
                    random_pct=20,
                    io_sizes=[IoSize(size_kib=64, pct=60), IoSize(size_kib=256, pct=40)],
                ),
            ],
        ),
        Workload(
            name="mail",
            capacity_tb=4,
            working_set_pct=15,
            skew=Skew(io_pct=80, data_pct=20),
            dedupe_ratio=1.5,
            replication=Replication(mode="async", io_amplification=1.3, capacity_amplification=1.2),
            phases=[
                Phase(
                    name="day", window="day", iops=3000, read_pct=55, io_size_kib=32, write_overwrite_pct=25
                )
            ],
        ),
    ]


def relative(a: float, b: float) -> float:
    if math.isinf(a) and math.isinf(b):
        return 0.0
    return abs(a - b) / max(abs(a), 1e-12)


def test_batch_agrees_with_evaluate_on_a_random_sample_of_the_catalog(catalog: Catalog) -> None:
    rng = random.Random(20261121)
    everything = catalog_families(catalog, RecommendConstraints(include_custom_builds=True), **WAFL_MODERATE)
    families = rng.sample(everything, 400)
    space = candidate_space(families)
    workloads = mixed_workloads()
    batch = evaluate_batch(workloads, space, params=CALIBRATED, prune=False)
    rows = np.asarray(sorted(rng.sample(range(space.rows), 160)))
    detail = batch.detail(rows)
    kinds, schemes = set(), set()
    for j, row in enumerate(rows):
        family = space.families[int(space.family[row])]
        config = family_configuration(family, int(space.drive_count[row]))
        result = evaluate(workloads, config, params=CALIBRATED)
        kinds.add(family.drive.kind)
        schemes.add(family.layout.scheme)
        where = f"{family.label}, {space.drive_count[row]} drives"
        assert bool(batch.passed[row]) == bool(detail.passed[j]) == result.passed, where
        assert result.bill.drives == detail.drive_count[j]
        assert result.bill.spares == detail.spares[j]
        assert result.bill.shelves == detail.shelves[j]
        assert result.bill.rack_units == pytest.approx(detail.rack_units[j], rel=1e-12)
        assert result.bill.cost_usd == pytest.approx(detail.cost_usd[j], rel=1e-12)
        assert result.bill.power_w == pytest.approx(detail.power_w[j], rel=1e-12)
        assert result.capacity.usable_tb == pytest.approx(detail.usable_tb[j], rel=1e-12)
        assert result.capacity.fill_pct == pytest.approx(min(detail.fill_pct[j], 1e9), rel=1e-12)
        _assert_windows_agree(result, detail, j, where)
    assert len(kinds) >= 2 and len(schemes) >= 5  # the sample spans HDD and SSD, many layouts


def _assert_windows_agree(result, detail, j: int, where: str) -> None:
    for wi, window in enumerate(result.windows):
        pool = window.pools[0]
        drive = pool.drive_utilization_pct.value
        assert drive is not None
        assert relative(drive, detail.drive_pct[wi, j]) < REL, where
        parity = 0.0 if pool.parity_utilization_pct is None else pool.parity_utilization_pct.value or 0.0
        assert relative(parity, detail.parity_pct[wi, j]) < REL or parity == detail.parity_pct[wi, j] == 0, (
            where
        )
        assert relative(window.controller_utilization_pct.value or 0, detail.controller_pct[wi, j]) < 1e-12
        assert relative(window.port_utilization_pct.value or 0, detail.port_pct[wi, j]) < 1e-12
        if window.failover_utilization_pct is None:
            assert math.isnan(detail.failover_pct[wi, j])
        else:
            assert relative(window.failover_utilization_pct.value or 0, detail.failover_pct[wi, j]) < 1e-12
        if window.flash_cache_utilization_pct is None:
            assert math.isnan(detail.flash_pct[wi, j])
        else:
            assert relative(window.flash_cache_utilization_pct.value or 0, detail.flash_pct[wi, j]) < REL, (
                where
            )
        latency = math.inf if window.read_latency_ms is None else window.read_latency_ms
        assert relative(latency, detail.read_latency_ms[wi, j]) < REL, where


def _one_family_per_scheme(catalog: Catalog) -> list[Family]:
    """For every RAID scheme the catalog offers, one family (HDD where there is one, else SSD)."""
    out: dict[str, Family] = {}
    for fam in catalog_families(catalog, RecommendConstraints(include_custom_builds=True), **WAFL_MODERATE):
        key = fam.layout.scheme.value
        if key not in out or (out[key].drive.kind != "hdd" and fam.drive.kind == "hdd"):
            out[key] = fam
    return [out[k] for k in sorted(out)]


@st.composite
def phases(draw: st.DrawFn, window: str, name: str) -> Phase:
    sizes = draw(
        st.lists(st.sampled_from([0.5, 4, 8, 16, 32, 64, 256, 1024]), min_size=1, max_size=3, unique=True)
    )
    weights = [draw(st.integers(1, 10)) for _ in sizes]
    mix = [IoSize(size_kib=s, pct=100.0 * w / sum(weights)) for s, w in zip(sizes, weights, strict=True)]
    return Phase(
        name=name,
        window=window,
        iops=draw(st.floats(10, 30000)),
        read_pct=draw(st.floats(0, 100)),
        random_pct=draw(st.floats(0, 100)),
        io_sizes=mix,
        write_overwrite_pct=draw(st.floats(0, 60)),
        concurrency=draw(st.one_of(st.none(), st.floats(1, 2048))),
        sequential_streams=draw(st.one_of(st.none(), st.integers(1, 8))),
        read_latency_target_ms=draw(st.one_of(st.none(), st.floats(2, 50))),
    )


@st.composite
def workload_sets(draw: st.DrawFn) -> list[Workload]:
    out = []
    for k in range(draw(st.integers(1, 2))):
        ph = [draw(phases("day", "day"))]
        if draw(st.booleans()):
            ph.append(draw(phases("night", "night")))
        out.append(
            Workload(
                name=f"w{k}",
                capacity_tb=draw(st.floats(0.5, 40)),
                working_set_pct=draw(st.floats(1, 100)),
                skew=draw(st.sampled_from([Skew(), Skew(zipf_alpha=0.9), Skew(io_pct=80, data_pct=20)])),
                phases=ph,
            )
        )
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_batch_agrees_with_evaluate_for_every_scheme(catalog: Catalog, data: st.DataObject) -> None:
    families = _one_family_per_scheme(catalog)
    family = data.draw(st.sampled_from(families))
    workloads = data.draw(workload_sets())
    space = candidate_space([family])
    batch = evaluate_batch(workloads, space, params=CALIBRATED, prune=False)
    rows = np.asarray(sorted({0, space.rows - 1, data.draw(st.integers(0, space.rows - 1))}))
    detail = batch.detail(rows)
    for j, row in enumerate(rows):
        config = family_configuration(family, int(space.drive_count[row]))
        result = evaluate(workloads, config, params=CALIBRATED)
        where = f"{family.label}, {space.drive_count[row]} drives"
        assert bool(batch.passed[row]) == bool(detail.passed[j]) == result.passed, where
        _assert_windows_agree(result, detail, j, where)


def test_the_per_scheme_sample_covers_every_scheme_the_catalog_offers(catalog: Catalog) -> None:
    schemes = {f.layout.scheme for f in _one_family_per_scheme(catalog)}
    offered = {o.scheme for a in catalog.arrays.values() for o in a.raid if catalog.drives_for(a)}
    assert schemes == offered


def test_pruned_rows_keep_their_verdict(catalog: Catalog) -> None:
    families = catalog_families(catalog, RecommendConstraints(array_ids=["netapp-fas3270", "hp-3par-7400"]))
    space = candidate_space(families)

    pruned = evaluate_batch(mixed_workloads(), space, params=CALIBRATED, prune=True)
    full = evaluate_batch(mixed_workloads(), space, params=CALIBRATED, prune=False)

    assert np.array_equal(pruned.passed, full.passed)
    assert pruned.modelled_rows < full.modelled_rows == space.rows


@pytest.mark.parametrize(
    ("array_id", "drive_id", "scheme", "width"),
    [
        ("netapp-fas3270", "hdd-10k-sas-600", "raid-dp", 16),
        ("emc-vnx5300", "hdd-15k-sas-600-lff", "raid5", 5),
        ("oracle-zfs-7420", "hdd-15k-sas-300", "raidz2", 8),
    ],
)
def test_fewest_drives_agree_with_scalar_size(
    catalog: Catalog, array_id: str, drive_id: str, scheme: str, width: int
) -> None:
    array = catalog.arrays[array_id]
    drive = catalog.drives[drive_id]
    layout = array.raid_option(scheme).layout(width)
    family = Family(array, drive, layout)
    space = candidate_space([family])
    workloads = mixed_workloads()

    first = int(evaluate_batch(workloads, space, params=CALIBRATED).first_passing()[0])
    base = family_configuration(family, int(space.drive_count[0]))
    sized = size(
        workloads,
        base.model_copy(update={"pools": [base.pools[0].model_copy(update={"drive_count": None})]}),
        params=CALIBRATED,
        max_drives=array.max_drives,
        relax=HEALTHY_ONLY,  # the batch judges healthy operation today (its stated scope)
    )

    assert sized.feasible == (first >= 0)
    if sized.feasible:
        assert int(space.drive_count[first]) == sized.drive_count


def test_family_counts_are_whole_groups_within_the_drive_limit_with_spares(catalog: Catalog) -> None:
    array = catalog.arrays["netapp-fas2050"]  # 104 drives at most, 1 spare per 30 (min 1)
    counts = family_counts(array, array.raid_option("raid-dp").layout(16))

    assert counts.tolist() == [16, 32, 48, 64, 80, 96]  # 96 + 4 spares = 100 <= 104; 112 does not fit
    assert all(n + spare_count(int(n), array.spares) <= array.max_drives for n in counts)


def test_fixed_size_nodes_take_whole_nodes_from_the_minimum_cluster(catalog: Catalog) -> None:
    array = catalog.arrays["netapp-solidfire-sf9605"]  # 10 drives per node, 4 to 100 nodes, 2 copies
    counts = family_counts(array, array.raid_option("replica").layout(1))

    assert counts[0] == 40
    assert np.all(np.diff(counts) == 10)
    # 100 nodes x 10 drives, no hot spares (no phantom spare billing a 101st node's drives)
    assert counts[-1] == 1000


def test_scale_out_rows_grow_controllers_like_build_configuration(catalog: Catalog) -> None:
    array = catalog.arrays["emc-vmax"]  # 300 drives per engine of 2 directors, 1 to 8 engines
    family = Family(array, catalog.drives_for(array)[0], array.raid_option("raid5").layout(4))
    space = candidate_space([family])
    batch = evaluate_batch(mixed_workloads(), space, params=CALIBRATED)
    rows = np.asarray([0, space.rows - 1])

    detail = batch.detail(rows)

    for j, row in enumerate(rows):
        config = family_configuration(family, int(space.drive_count[row]))
        result = evaluate(mixed_workloads(), config, params=CALIBRATED)
        assert result.windows[0].controller_utilization_pct.value == pytest.approx(
            detail.controller_pct[0, j]
        )
    assert detail.controller_pct[0, 0] > detail.controller_pct[0, 1]  # more engines, less busy


def test_headroom_targets_apply_to_every_row(catalog: Catalog) -> None:
    families = catalog_families(catalog, RecommendConstraints(array_ids=["emc-vnx5300"], drive_kinds=["hdd"]))
    space = candidate_space(families)
    loose = evaluate_batch(mixed_workloads(), space, params=CALIBRATED)
    tight = evaluate_batch(
        mixed_workloads(), space, params=CALIBRATED, headroom=HeadroomTargets(drive_max_pct=40)
    )

    assert tight.passed.sum() < loose.passed.sum()
    assert not np.any(tight.passed & ~loose.passed)


def test_batched_hit_ratios_agree_with_level_hit_ratios() -> None:
    skews = [Skew(zipf_alpha=0.8), Skew(io_pct=90, data_pct=10), Skew()]
    queries, expected = [], []
    for skew in skews:
        for dram, flash, exclusive, ratio, aware in [
            (16, 0, True, 1.0, False),
            (64, 512, True, 2.0, True),
            (32, 256, False, 1.5, False),
            (500, 2000, True, 1.0, False),
        ]:
            queries.append((dram, flash, 900.0, skew, exclusive, ratio, False, aware))
            expected.append(
                level_hit_ratios(
                    dram,
                    flash,
                    900.0,
                    skew,
                    exclusive=exclusive,
                    dedupe_ratio=ratio,
                    flash_dedupe_aware=aware,
                )
            )

    got = level_hit_ratios_many(queries)

    for (h_d, h_f), (e_d, e_f) in zip(got, expected, strict=True):
        assert h_d == pytest.approx(e_d, abs=1e-9)
        assert h_f == pytest.approx(e_f, abs=1e-9)


def test_a_workload_naming_another_pool_cannot_be_batched(catalog: Catalog) -> None:
    space = candidate_space(catalog_families(catalog, RecommendConstraints(array_ids=["netapp-fas2050"])))
    named = mixed_workloads()[0].model_copy(update={"pool": "aggr1"})

    with pytest.raises(InputError) as err:
        evaluate_batch([named], space)

    assert err.value.field == "workloads.0.pool"


@settings(max_examples=200, deadline=None)
@given(
    lengths=st.lists(st.integers(0, 6), min_size=1, max_size=12),
    seed=st.integers(0, 2**32 - 1),
    share=st.floats(0.0, 1.0),
)
def test_first_passing_row_of_each_family(lengths: list[int], seed: int, share: float) -> None:
    """Per family, the first row that passes (a plain scan as the reference); -1 when none does."""
    starts = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    rows = int(starts[-1])
    passed = np.random.default_rng(seed).random(rows) < share
    counts = tuple(np.arange(starts[f], starts[f + 1], dtype=np.int64) for f in range(len(lengths)))
    space = CandidateSpace((None,) * len(lengths), counts, starts)  # type: ignore[arg-type]
    ev = BatchEvaluation(space, passed, rows, None)  # type: ignore[arg-type]
    expected = [
        next((r for r in range(starts[f], starts[f + 1]) if passed[r]), -1) for f in range(len(lengths))
    ]
    assert ev.first_passing().tolist() == expected


# ---- each family's first passing row without evaluating the rest (recommend's path)

SEARCH_ARRAYS = [
    "ceph-nvme-reference",  # scale-out, erasure-coded states per layout
    "vsan-esa-reference",
    "netapp-fas2620",  # HA-pair clusters: nodes grow with the drives
    "netapp-solidfire-sf9605",
    "emc-vnx5300",
    "oracle-zfs-7420",
]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(workloads=workload_sets(), seed=st.integers(0, 2**32 - 1))
def test_first_only_finds_the_first_passing_row_of_a_full_evaluation(
    catalog: Catalog, workloads: list[Workload], seed: int
) -> None:
    """The reference: every row evaluated without pruning, each family's first passing row taken after."""
    families = catalog_families(catalog, RecommendConstraints(array_ids=SEARCH_ARRAYS), **WAFL_MODERATE)
    generic = catalog_families(catalog, RecommendConstraints(array_ids=["generic"]), **WAFL_MODERATE)
    space = candidate_space(families + random.Random(seed).sample(generic, 40))

    full = evaluate_batch(workloads, space, params=CALIBRATED, prune=False)
    fast = evaluate_batch(workloads, space, params=CALIBRATED, first_only=True)

    first = full.first_passing()
    assert np.array_equal(fast.first_passing(), first)
    assert np.array_equal(fast.passed, np.isin(np.arange(space.rows), first[first >= 0]))
    assert fast.modelled_rows <= full.modelled_rows == space.rows


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(workloads=workload_sets(), seed=st.integers(0, 2**32 - 1), scale=st.sampled_from([1.0, 10.0, 100.0]))
def test_rows_below_the_drive_floor_fail_drive_utilization(
    catalog: Catalog, workloads: list[Workload], seed: int, scale: float
) -> None:
    """Every row :meth:`BatchModel.first_drive_rows` skips fails the unpruned evaluation, with a
    window whose data or parity drives are past the headroom (workloads up to 100x as busy, so
    that the floor skips rows of most families)."""
    families = catalog_families(catalog, RecommendConstraints(array_ids=SEARCH_ARRAYS), **WAFL_MODERATE)
    generic = catalog_families(catalog, RecommendConstraints(array_ids=["generic"]), **WAFL_MODERATE)
    space = candidate_space(families + random.Random(seed).sample(generic, 40))
    busy = [
        w.model_copy(update={"phases": [ph.model_copy(update={"iops": ph.iops * scale}) for ph in w.phases]})
        for w in workloads
    ]
    ev = evaluate_batch(busy, space, params=CALIBRATED, prune=False)
    model = ev.model
    floor = model.first_drive_rows(model.segments.seg_start)
    below = np.flatnonzero(np.arange(space.rows) < floor[model.segments.seg])
    assert not ev.passed[below].any()
    if below.size:
        det = ev.detail(below)
        limit = det.drive_limit_pct + 1e-9
        over = np.any((det.drive_pct > limit) | (det.parity_pct > limit), axis=0)
        assert over.all()


def test_the_drive_floor_skips_rows_of_a_busy_workload(catalog: Catalog) -> None:
    families = catalog_families(catalog, RecommendConstraints(array_ids=SEARCH_ARRAYS), **WAFL_MODERATE)
    space = candidate_space(families)
    busy = [
        w.model_copy(update={"phases": [ph.model_copy(update={"iops": 20 * ph.iops}) for ph in w.phases]})
        for w in mixed_workloads()
    ]
    full = evaluate_batch(busy, space, params=CALIBRATED, prune=False)
    fast = evaluate_batch(busy, space, params=CALIBRATED, first_only=True)
    model = fast.model
    floor = model.first_drive_rows(model.segments.seg_start)

    assert np.any(floor > model.segments.seg_start)
    assert np.array_equal(fast.first_passing(), full.first_passing())


@pytest.mark.parametrize("reduced", [False, True])
def test_window_work_equals_pricing_every_segment_both_ways(catalog: Catalog, reduced: bool) -> None:
    """models.batch.work.segment_work prices writes per (layout, drive, array) and gathers them, reads per
    segment: bit for bit the work of one pool_work over every segment with both sides priced."""
    arrays = [*SEARCH_ARRAYS, "netapp-aff-a400", "sun-7410", "pure-flasharray-x70", "generic"]
    families = catalog_families(catalog, RecommendConstraints(array_ids=arrays), **WAFL_MODERATE)
    # every array's first 20 families (so the inline-reducing arrays are always in), the rest drawn
    # at random: a catalog that grows moves the draw, never what the test covers
    first = {id(f) for a in arrays for f in [x for x in families if x.array.id == a][:20]}
    rest = [f for f in families if id(f) not in first]
    space = candidate_space(
        [f for f in families if id(f) in first] + random.Random(5).sample(rest, 1500 - len(first))
    )
    workloads = mixed_workloads()
    if reduced:
        workloads = [w.model_copy(update={"compression_ratio": 1.7, "dedupe_ratio": 1.3}) for w in workloads]
    model = evaluate_batch(workloads, space, params=CALIBRATED, first_only=True).model
    seg_f = model.segments.seg_family
    plans = _SegmentPlans(
        model.tables,
        model.tables.fam_layout[seg_f],
        model.tables.fam_drive[seg_f],
        model.tables.fam_array[seg_f],
    )
    assert plans.any_packs and plans.any_dedupes
    nseg = seg_f.size
    for wi, members in enumerate(model.demand.members):
        hd = model.front.st_hd[wi][model.segments.seg_state]
        hf = model.front.st_hf[wi][model.segments.seg_state]
        items = [(m.workload, m.phase, hd[:, i], hf[:, i]) for i, m in enumerate(members)]
        expected = pool_work(items, plans)
        got = model.work.win[wi]
        for name, a, b in (
            ("outstanding", expected.outstanding, got.outstanding),
            ("read_miss_rate", expected.read_miss_rate, got.read_miss_rate),
            ("miss_fixed_ms", expected.miss_fixed_ms, got.miss_fixed_ms),
        ):
            assert np.array_equal(np.broadcast_to(a, (nseg,)), b, equal_nan=True), name
        for role in ("data", "parity"):
            for field in RoleWork._fields:
                a = getattr(getattr(expected.work, role), field)
                b = getattr(getattr(got.work, role), field)
                assert np.array_equal(
                    np.broadcast_to(a, (nseg,)), np.broadcast_to(b, (nseg,)), equal_nan=True
                )
        for field in ("backend_ios", "kib"):
            a, b = getattr(expected.work, field), getattr(got.work, field)
            assert np.array_equal(np.broadcast_to(a, (nseg,)), np.broadcast_to(b, (nseg,)), equal_nan=True)


def test_first_capacity_rows_are_where_each_family_first_holds_the_workload(catalog: Catalog) -> None:
    families = catalog_families(catalog, RecommendConstraints(array_ids=SEARCH_ARRAYS), **WAFL_MODERATE)
    space = candidate_space(families)
    workloads = [w.model_copy(update={"capacity_tb": 60 * w.capacity_tb}) for w in mixed_workloads()]
    ev = evaluate_batch(workloads, space, params=CALIBRATED)

    got = ev.model.first_capacity_rows()

    ok = ev.capacity_passed
    expected = [
        next((r for r in range(space.starts[f], space.starts[f + 1]) if ok[r]), int(space.starts[f + 1]))
        for f in range(len(families))
    ]
    assert got.tolist() == expected
    assert np.any(got > space.starts[:-1])  # families whose first rows are too small


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), share=st.floats(0.0, 0.3))
def test_first_passing_search_over_any_verdicts(catalog: Catalog, seed: int, share: float) -> None:
    """The block search's bookkeeping, with the drive model replaced by random verdicts (not
    monotone in the drive count): its rows are the first rows passing capacity, the
    drive-independent checks and the verdict, by a plain scan."""
    families = catalog_families(
        catalog, RecommendConstraints(array_ids=["netapp-fas2620", "emc-vnx5300"]), **WAFL_MODERATE
    )
    space = candidate_space(families)
    model = evaluate_batch(mixed_workloads(), space, params=CALIBRATED, first_only=True).model
    verdict = np.random.default_rng(seed).random(space.rows) < share
    asked: list[np.ndarray] = []

    def fake(
        rows: np.ndarray,
        good: np.ndarray,
        prune: bool = True,
        segments: np.ndarray | None = None,
        known: object = None,
    ) -> None:
        asked.append(rows.copy())
        good &= verdict[rows]

    model._verdict = fake  # type: ignore[method-assign]
    first, modelled = model.first_passing()

    floor = model.first_drive_rows(model.segments.seg_start)  # rows before it fail the drive model
    base = model._capacity_ok(np.arange(space.rows), space.family) & model.work.seg_ok[model.segments.seg]
    base &= np.arange(space.rows) >= floor[model.segments.seg]
    ok = verdict & base
    expected = [
        next((r for r in range(space.starts[f], space.starts[f + 1]) if ok[r]), -1)
        for f in range(len(families))
    ]
    assert first.tolist() == expected
    evaluated = np.concatenate(asked) if asked else np.zeros(0, dtype=np.int64)
    assert modelled == evaluated.size == np.unique(evaluated).size  # each row at most once
    assert np.all(base[evaluated])  # only rows worth modelling


def test_a_controller_margin_is_read_per_segment_and_shares_the_arrays_front_ends(catalog: Catalog) -> None:
    # the same families as stated and at a controller margin of x1.25 (CPU costs x 1.25, ceilings
    # / 1.25): one state per (array, flash cache, nodes) for both, and every margined row's figures
    # agree with evaluate() on its configuration (whose controller is scaled_controller's)
    rng = random.Random(35)
    stated = rng.sample(catalog_families(catalog, None, **WAFL_MODERATE), 60)
    margined = [replace(f, controller_factor=1.25) for f in stated]
    space = candidate_space([*stated, *margined])
    workloads = mixed_workloads()
    batch = evaluate_batch(workloads, space, params=CALIBRATED, prune=False)
    assert len(batch.model.segments.state_keys) == len(candidate_space_states(stated))
    rows = np.asarray(sorted(rng.sample(range(space.starts[len(stated)], space.rows), 40)))
    detail = batch.detail(rows)
    busier = 0
    for j, row in enumerate(rows):
        family = space.families[int(space.family[row])]
        config = family_configuration(family, int(space.drive_count[row]))
        plain = family_configuration(replace(family, controller_factor=None), int(space.drive_count[row]))
        assert config.controller.cpu_us_write == pytest.approx(
            1.25 * plain.controller.cpu_us_write, rel=1e-15
        )
        result = evaluate(workloads, config, params=CALIBRATED)
        assert bool(detail.passed[j]) == result.passed, family.label
        _assert_windows_agree(result, detail, j, family.label)
        u = evaluate(workloads, plain, params=CALIBRATED).windows[0].controller_utilization_pct.value
        busier += (result.windows[0].controller_utilization_pct.value or 0) > (u or 0)
    assert busier == len(rows)  # the margin reached every row's controllers


def candidate_space_states(families: list[Family]) -> list:
    return evaluate_batch(
        mixed_workloads(), candidate_space(families), params=CALIBRATED
    ).model.segments.state_keys
