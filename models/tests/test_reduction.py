"""Data reduction on the I/O path (models.reduction): inline compression and dedupe at the back end."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.architecture import written_layout
from models.batch import Family, candidate_space, evaluate_batch, family_configuration
from models.cases import HEALTHY_ONLY
from models.catalog import Catalog, load_catalog
from models.configuration import Architecture, ReductionMode, WriteArchitecture
from models.drives import DriveTimes
from models.evaluate import evaluate
from models.parameters import EngineParameters
from models.pool import PoolWork, busy_ms, pool_work
from models.pool_plans import PoolPlans
from models.raid import RaidLayout, RaidScheme
from models.recommend import RecommendConstraints, catalog_families
from models.reduction import dedupes_inline, io_reduction, packs_compressed
from models.size import size
from models.tests.conftest import make_config
from models.tests.test_batch import CALIBRATED, WAFL_MODERATE, _assert_windows_agree
from models.workload import IoSize, Phase, Workload

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
P = EngineParameters()

# A hand-made 7,200 rpm-like drive: 0.5 ms command overhead, 0.01 ms per KiB at the media rate,
# write positioning 5 + 4 sqrt(span) ms (7 ms at a quarter-span, sqrt = 0.5); write wear 1 (so
# the wear KiB are the KiB written).
T = DriveTimes(
    overhead_ms=0.5,
    read_floor_ms=0.0,
    write_floor_ms=0.0,
    random_read_ms_per_kib=0.01,
    random_write_ms_per_kib=0.01,
    stream_read_ms_per_kib=0.01,
    stream_write_ms_per_kib=0.01,
    read_pos_a=5.0,
    read_pos_b=3.0,
    write_pos_a=5.0,
    write_pos_b=4.0,
    write_wear=1.0,
)

LAYOUTS = [
    RaidLayout(scheme=RaidScheme.RAID5, group_width=5),
    RaidLayout(scheme=RaidScheme.RAID6, group_width=10),
    RaidLayout(scheme=RaidScheme.RAID10, group_width=2),
    RaidLayout(scheme=RaidScheme.RAID_DP, group_width=16),
    RaidLayout(scheme=RaidScheme.RAIDZ2, group_width=8),
]


def arch(write: WriteArchitecture, dedupe: ReductionMode, compression: ReductionMode) -> Architecture:
    return Architecture(write_architecture=write, dedupe=dedupe, compression=compression)


def plans_of(layout: RaidLayout, architecture: Architecture | None = None) -> PoolPlans:
    """The plans of ``layout`` (as written under ``architecture``) priced on drive :data:`T` at fill 0.5."""
    return PoolPlans(written_layout(layout, architecture), T, P, 0.5, architecture)


def work(
    wl: Workload, layout: RaidLayout, architecture: Architecture | None, *, hit: float = 0.0
) -> PoolWork:
    plans = plans_of(layout, architecture)
    return pool_work([(wl, ph, hit, 0.0) for ph in wl.phases], plans, scheme=layout.scheme.value)


def workload(
    *, iops: float = 1000.0, read_pct: float = 0.0, random_pct: float = 100.0, sizes=(8.0,), c=1.0, d=1.0
) -> Workload:
    mix = [IoSize(size_kib=s, pct=100.0 / len(sizes)) for s in sizes]
    return Workload(
        name="w",
        capacity_tb=1.0,
        dedupe_ratio=d,
        compression_ratio=c,
        phases=[
            Phase(name="p", window="w", iops=iops, read_pct=read_pct, random_pct=random_pct, io_sizes=mix)
        ],
    )


def written_kib(pw: PoolWork) -> float:
    """KiB written per second (the wear KiB at write wear 1)."""
    return float(pw.writes.data.wear_kib + pw.writes.parity.wear_kib)


def flat(pw: PoolWork) -> list[float]:
    w = pw.work
    return [float(x) for x in (*w.data, *w.parity, w.backend_ios, w.kib)]


LOG_INLINE = arch(WriteArchitecture.LOG_STRUCTURED, ReductionMode.INLINE, ReductionMode.INLINE)


def test_hand_computed_8k_random_writes_compressed_2_to_1_on_a_log_structured_raid5():
    # 1,000 random 8 KiB writes/s, compression 2:1 inline on a log-structured RAID5 4+1:
    #   each write packs 8 / 2 = 4 KiB of data into a full stripe, plus 4 / 4 = 1 KiB of parity:
    #   5 KiB streamed per write, all on the data role (rotating parity) -> 5,000 KiB/s written
    #   (10,000 uncompressed); back-end I/Os in units of the 8 KiB write: 5 / 8 = 0.625 per write
    #   -> 625/s (1,250 uncompressed).
    # Drive busy: the stream pays 0.01 ms/KiB plus, per 256 KiB run (stripe_run_kib), the 0.5 ms
    #   overhead and a write positioning of 5 + 4 x 0.5 = 7 ms:
    #   5,000 x 0.01 = 50 ms/s, 5,000 / 256 = 19.53125 runs/s x (0.5 + 7) = 146.484375 ms/s
    #   -> 196.484375 ms/s (392.96875 uncompressed).
    raid5 = RaidLayout(scheme=RaidScheme.RAID5, group_width=5)
    pw = work(workload(c=2.0), raid5, LOG_INLINE)
    assert float(pw.work.kib) == pytest.approx(5000.0, rel=1e-12)
    assert written_kib(pw) == pytest.approx(5000.0, rel=1e-12)
    assert float(pw.be_write_iops) == pytest.approx(625.0, rel=1e-12)
    assert float(busy_ms(pw.work.data, 5.0 + 3.0 * 0.5, 7.0)) == pytest.approx(196.484375, rel=1e-12)
    plain = work(workload(c=1.0), raid5, LOG_INLINE)
    assert float(plain.be_write_iops) == pytest.approx(1250.0, rel=1e-12)
    assert float(busy_ms(plain.work.data, 6.5, 7.0)) == pytest.approx(392.96875, rel=1e-12)
    # 5,000 KiB/s x 1,024 / 10^6 = 5.12 MB/s (10.24 uncompressed, shown to 3 figures)
    assert "inline compression 2:1" in pw.terms[0] and "back-end 5.12 MB/s instead of 10.2" in pw.terms[0]


def test_hand_computed_inline_dedupe_writes_a_metadata_block_per_duplicate():
    # Dedupe 4:1 inline on the same log-structured RAID5 4+1, 1,000 random 8 KiB writes/s:
    #   1/4 carry data: 250 x (8 + 2 parity) = 2,500 KiB/s; 3/4 are duplicates, each a 4 KiB
    #   metadata block (+ 1 KiB parity): 750 x 5 = 3,750 KiB/s -> 6,250 KiB/s written (10,000 without).
    raid5 = RaidLayout(scheme=RaidScheme.RAID5, group_width=5)
    pw = work(workload(d=4.0), raid5, LOG_INLINE)
    assert written_kib(pw) == pytest.approx(6250.0, rel=1e-12)
    assert "75% of writes are duplicates" in pw.terms[0]


def test_random_reads_of_compressed_data_move_fewer_kib_with_the_same_positionings():
    # 1,000 random 8 KiB read misses/s on RAID5 4+1 (64 KiB units: 1 + 4 / 64 = 1.0625 units
    # each), compressed 2:1: the same 1,062.5 accesses and positionings, 4 KiB transferred per read.
    raid5 = RaidLayout(scheme=RaidScheme.RAID5, group_width=5)
    pw = work(workload(read_pct=100, c=2.0), raid5, LOG_INLINE)
    plain = work(workload(read_pct=100), raid5, LOG_INLINE)
    assert float(pw.reads.data.read_pos) == pytest.approx(1062.5, rel=1e-12)
    assert float(plain.reads.data.read_pos) == pytest.approx(1062.5, rel=1e-12)
    assert float(pw.reads.kib) == pytest.approx(4000.0, rel=1e-12)
    assert float(plain.reads.kib) == pytest.approx(8000.0, rel=1e-12)
    # each access: 0.5 ms + KiB x 0.01: 1,062.5 x 0.5 + 4,000 x 0.01 = 571.25 ms/s fixed
    assert float(pw.reads.data.read_ms) == pytest.approx(571.25, rel=1e-12)


def test_which_architectures_reduce_on_the_io_path():
    inline, post, none = ReductionMode.INLINE, ReductionMode.POST_PROCESS, ReductionMode.NONE
    both = ReductionMode.INLINE_AND_POST_PROCESS
    assert packs_compressed(arch(WriteArchitecture.LOG_STRUCTURED, none, inline))
    assert packs_compressed(arch(WriteArchitecture.WRITE_ANYWHERE, none, both))
    # in-place and replicated scale-out arrays keep each block's allocation unit: no write credit
    assert not packs_compressed(arch(WriteArchitecture.IN_PLACE_RAID, none, inline))
    assert not packs_compressed(arch(WriteArchitecture.REPLICATED_SCALE_OUT, none, inline))
    assert not packs_compressed(arch(WriteArchitecture.LOG_STRUCTURED, none, post))
    assert not packs_compressed(None) and not dedupes_inline(None)
    assert dedupes_inline(arch(WriteArchitecture.IN_PLACE_RAID, inline, none))
    assert not dedupes_inline(arch(WriteArchitecture.LOG_STRUCTURED, post, none))
    # the workload must state the ratio too
    assert io_reduction(workload(), LOG_INLINE) is None
    assert io_reduction(workload(c=3.0), arch(WriteArchitecture.IN_PLACE_RAID, none, inline)) is None


def test_in_place_raid_gets_no_compression_credit_but_dedupe_still_applies():
    raid6 = RaidLayout(scheme=RaidScheme.RAID6, group_width=10)
    in_place = arch(WriteArchitecture.IN_PLACE_RAID, ReductionMode.INLINE, ReductionMode.INLINE)
    base = work(workload(sizes=(32.0,)), raid6, in_place)
    assert work(workload(sizes=(32.0,), c=3.0), raid6, in_place).work == base.work
    # 1,000 random 32 KiB writes/s on in-place RAID6 8+2 (64 KiB units): 1 + (32 - 4) / 64 = 1.4375
    # units read and written plus 2 parity read and written: 6.875 accesses per write -> 6,875/s.
    # Dedupe 2:1: 500 data writes x 6.875 + 500 metadata updates of 4 KiB (one unit: 2 x (1 + 2) = 6)
    # -> 3,437.5 + 3,000 = 6,437.5/s
    deduped = work(workload(sizes=(32.0,), d=2.0), raid6, in_place)
    assert float(base.be_write_iops) == pytest.approx(6875.0, rel=1e-12)
    assert float(deduped.be_write_iops) == pytest.approx(6437.5, rel=1e-12)
    assert written_kib(deduped) < written_kib(base)


ARCHS = st.builds(
    arch,
    st.sampled_from(list(WriteArchitecture)),
    st.sampled_from(list(ReductionMode)),
    st.sampled_from(list(ReductionMode)),
)
SIZES = st.lists(
    st.sampled_from([0.5, 4.0, 8.0, 16.0, 32.0, 64.0, 256.0, 1024.0]), min_size=1, max_size=3, unique=True
)


@settings(max_examples=150, deadline=None)
@given(
    layout=st.sampled_from(LAYOUTS),
    architecture=ARCHS,
    sizes=SIZES,
    random_pct=st.floats(0, 100),
    read_pct=st.floats(0, 100),
    d=st.floats(1.0, 20.0),
    c1=st.floats(1.0, 8.0),
    c2=st.floats(1.0, 8.0),
)
def test_back_end_kib_written_never_increase_as_the_compression_ratio_grows(
    layout, architecture, sizes, random_pct, read_pct, d, c1, c2
):
    lo, hi = sorted((c1, c2))
    kw = {"sizes": tuple(sizes), "random_pct": random_pct, "read_pct": read_pct, "d": d}
    more = work(workload(c=hi, **kw), layout, architecture)
    less = work(workload(c=lo, **kw), layout, architecture)
    assert written_kib(more) <= written_kib(less) * (1 + 1e-12) + 1e-9


@settings(max_examples=150, deadline=None)
@given(
    layout=st.sampled_from(LAYOUTS),
    architecture=ARCHS,
    sizes=SIZES,
    random_pct=st.floats(0, 100),
    read_pct=st.floats(0, 100),
    hit=st.floats(0, 1),
)
def test_ratios_of_one_leave_the_back_end_as_without_reduction(
    layout, architecture, sizes, random_pct, read_pct, hit
):
    wl = workload(sizes=tuple(sizes), random_pct=random_pct, read_pct=read_pct)
    got = work(wl, layout, architecture, hit=hit)
    before = work(
        wl, layout, architecture.model_copy(update={"dedupe": "none", "compression": "none"}), hit=hit
    )
    for a, b in zip(flat(got), flat(before), strict=True):
        assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    assert got.terms == before.terms


@settings(max_examples=150, deadline=None)
@given(
    layout=st.sampled_from(LAYOUTS),
    write=st.sampled_from(list(WriteArchitecture)),
    sizes=SIZES,
    random_pct=st.floats(0, 100),
    read_pct=st.floats(0, 100),
    c=st.floats(1.0, 8.0),
    d=st.floats(1.0, 20.0),
)
def test_post_process_reduction_never_changes_the_windows_back_end_io(
    layout, write, sizes, random_pct, read_pct, c, d
):
    wl = workload(sizes=tuple(sizes), random_pct=random_pct, read_pct=read_pct, c=c, d=d)
    post = work(wl, layout, arch(write, ReductionMode.POST_PROCESS, ReductionMode.POST_PROCESS))
    none = work(wl, layout, arch(write, ReductionMode.NONE, ReductionMode.NONE))
    assert post.work == none.work and post.terms == none.terms


def test_evaluate_with_ratios_of_one_matches_an_array_without_reduction(ssd):
    cfg = make_config(ssd, "raid6", 10, 20)
    wl = workload(iops=20000, read_pct=60, sizes=(8.0, 64.0))
    with_inline = cfg.model_copy(update={"architecture": LOG_INLINE})
    without = cfg.model_copy(
        update={
            "architecture": arch(WriteArchitecture.LOG_STRUCTURED, ReductionMode.NONE, ReductionMode.NONE)
        }
    )
    a, b = evaluate([wl], with_inline), evaluate([wl], without)
    assert a.windows[0].pools[0] == b.windows[0].pools[0]
    assert a.windows[0].read_latency_ms == b.windows[0].read_latency_ms


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(FIXTURES)


def test_batch_agrees_with_evaluate_on_arrays_that_reduce_inline(catalog: Catalog):
    everything = catalog_families(catalog, RecommendConstraints(include_custom_builds=True), **WAFL_MODERATE)
    chosen: dict[tuple[str, str], Family] = {}
    for fam in everything:  # one family per inline array and scheme, plus one that does not reduce
        a = fam.array.architecture
        key = (fam.array.id, fam.layout.scheme.value)
        if (
            packs_compressed(a) or dedupes_inline(a) or fam.array.id == "netapp-fas8040"
        ) and key not in chosen:
            chosen[key] = fam
    families = list(chosen.values())
    assert any(packs_compressed(f.array.architecture) for f in families)
    assert any(
        dedupes_inline(f.array.architecture) and not packs_compressed(f.array.architecture) for f in families
    )
    workloads = [
        Workload(
            name="vdi",
            capacity_tb=10,
            working_set_pct=20,
            dedupe_ratio=3.0,
            compression_ratio=1.7,
            phases=[
                Phase(name="day", window="day", iops=20000, read_pct=60, io_size_kib=8),
                Phase(name="night", window="night", iops=500, read_pct=20, random_pct=10, io_size_kib=256),
            ],
        ),
        Workload(
            name="db",
            capacity_tb=4,
            compression_ratio=2.5,
            phases=[
                Phase(
                    name="day",
                    window="day",
                    iops=5000,
                    read_pct=70,
                    io_sizes=[IoSize(size_kib=4, pct=50), IoSize(size_kib=32, pct=50)],
                )
            ],
        ),
    ]
    space = candidate_space(families)
    batch = evaluate_batch(workloads, space, params=CALIBRATED, prune=False)
    first, last = space.starts[:-1], space.starts[1:] - 1
    rows = np.unique(np.concatenate([first, (first + last) // 2, last]))
    detail = batch.detail(rows)
    for j, row in enumerate(rows):
        family = space.families[int(space.family[row])]
        config = family_configuration(family, int(space.drive_count[row]))
        result = evaluate(workloads, config, params=CALIBRATED)
        where = f"{family.label}, {space.drive_count[row]} drives"
        assert bool(detail.passed[j]) == result.passed, where
        _assert_windows_agree(result, detail, j, where)


def test_sizing_names_inline_reduction_as_an_optimism_and_the_drives_it_saves(hdd15k):
    cfg = make_config(hdd15k, "raid6", 10, None).model_copy(update={"architecture": LOG_INLINE})
    wl = Workload(
        name="vdi",
        capacity_tb=2.0,
        dedupe_ratio=4.0,
        compression_ratio=2.0,
        phases=[Phase(name="day", window="day", iops=8000, read_pct=20, io_size_kib=32)],
    )
    # healthy only: a rebuild binds this family whatever the writes (the optimism's effect is healthy)
    res = size([wl], cfg, relax=HEALTHY_ONLY)
    assert res.feasible
    names = [o.effect for o in res.optimisms]
    assert any("inline deduplication" in n and "inline compression" in n for n in names), names
    opt = next(o for o in res.optimisms if "inline deduplication" in o.effect)
    # 75% of the 32 KiB writes become 4 KiB metadata blocks and the rest half as large: fewer drives
    assert opt.drives_without is not None and opt.drives_without > res.drive_count
    assert opt.drives_saved == opt.drives_without - res.drive_count
    assert "inline deduplication" in res.explanation
    # without stated ratios, nothing is named
    plain = size([wl.model_copy(update={"dedupe_ratio": 1.0, "compression_ratio": 1.0})], cfg)
    assert not any("inline" in o.effect for o in plain.optimisms)
