"""controller_load totals its phases in one pass: the same figures, bit for bit, as one sum() per
total (its first implementation, kept here as the reference)."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from models.controller import ControllerLoad, controller_load
from models.raid import RaidLayout, RaidScheme, chunk_read_ops, chunk_write_ops
from models.workload import IoSize, Phase, Replication, ReplicationMode, Workload


def reference(
    members: Sequence[tuple[Workload, Phase]],
    hits: Sequence[tuple[float, float]],
    backend_ios: float = 0.0,
    remote_copies: int = 0,
    stripes: Sequence[RaidLayout | None] | None = None,
    full_stripe_reads: bool = False,
) -> ControllerLoad:
    pairs = list(zip(members, hits, strict=True))
    layouts = list(stripes) if stripes is not None else [None] * len(members)
    writes = sum(ph.effective_iops * (1 - ph.read_pct / 100) for _, ph in members)
    misses = [
        ph.effective_iops * ph.read_pct / 100 * ph.random_pct / 100 * max(0.0, 1 - hd - hf)
        for (_, ph), (hd, hf) in pairs
    ]
    chunk_writes = chunk_write_kib = chunk_reads = chunk_read_kib = 0.0
    for (_, ph), miss, layout in zip(members, misses, layouts, strict=True):
        size = ph.mean_size_kib
        w = ph.effective_iops * (1 - ph.read_pct / 100)
        if layout is None:
            chunk_writes += w * remote_copies
            chunk_write_kib += w * size * remote_copies
            continue
        ops, kib = chunk_write_ops(layout, size)
        chunk_writes += w * (ops - 1.0)
        chunk_write_kib += w * (kib - size)
        if full_stripe_reads:
            r_ops, r_kib = chunk_read_ops(layout, size, full_stripe=True)
            chunk_reads += miss * (r_ops - 1.0)
            chunk_read_kib += miss * (r_kib - size)
    return ControllerLoad(
        read_hits=sum(
            ph.effective_iops
            * ph.read_pct
            / 100
            * (1 - ph.random_pct / 100 + ph.random_pct / 100 * (hd + hf))
            for (_, ph), (hd, hf) in pairs
        ),
        read_misses=sum(misses),
        writes=writes,
        kib_per_s=sum(ph.effective_iops * ph.mean_size_kib for _, ph in members),
        write_kib_per_s=sum(
            ph.effective_iops * (1 - ph.read_pct / 100) * ph.mean_size_kib for _, ph in members
        ),
        backend_ios=backend_ios,
        copy_writes=chunk_writes,
        copy_kib_per_s=chunk_write_kib,
        chunk_reads=chunk_reads,
        chunk_read_kib_per_s=chunk_read_kib,
        dedupe=any(w.dedupe_ratio > 1 for w, _ in members),
        compression=any(w.compression_ratio > 1 for w, _ in members),
        replication=any(w.replication.mode.value != "none" for w, _ in members),
    )


EC = RaidLayout(scheme=RaidScheme.ERASURE, group_width=6, ec_data=4, ec_parity=2, stripe_unit_kib=4)

phase = st.builds(
    lambda iops, mb, read, rnd, size, mix: Phase(
        name="p",
        window="w",
        iops=0.0 if mb else iops,
        mb_per_s=mb,
        read_pct=read,
        random_pct=rnd,
        io_size_kib=None if mix else size,
        io_sizes=[IoSize(size_kib=4, pct=60), IoSize(size_kib=64, pct=40)] if mix else [],
    ),
    st.floats(0, 1e5),
    st.sampled_from([None, 0.0, 150.0]),
    st.floats(0, 100),
    st.floats(0, 100),
    st.sampled_from([0.5, 4.0, 8.0, 13.7, 256.0]),
    st.booleans(),
)
workload = st.builds(
    lambda ph, dedupe, comp, mode: Workload(
        name="w",
        capacity_tb=1.0,
        dedupe_ratio=dedupe,
        compression_ratio=comp,
        replication=Replication(mode=mode),
        phases=[ph],
    ),
    phase,
    st.sampled_from([1.0, 1.5]),
    st.sampled_from([1.0, 2.0]),
    st.sampled_from(list(ReplicationMode)),
)
hit = st.tuples(st.floats(0, 0.6), st.floats(0, 0.6))


@settings(max_examples=300, deadline=None)
@given(
    wls=st.lists(workload, min_size=0, max_size=4),
    hits=st.lists(hit, min_size=4, max_size=4),
    backend_ios=st.floats(0, 1e6),
    copies=st.integers(0, 3),
    stripes=st.lists(st.sampled_from([None, EC]), min_size=4, max_size=4) | st.none(),
    full=st.booleans(),
)
def test_one_pass_equals_one_sum_per_total(
    wls: list[Workload],
    hits: list[tuple[float, float]],
    backend_ios: float,
    copies: int,
    stripes: list[RaidLayout | None] | None,
    full: bool,
) -> None:
    members = [(w, w.phases[0]) for w in wls]
    hs = hits[: len(members)]
    st_ = None if stripes is None else stripes[: len(members)]
    got = controller_load(members, hs, backend_ios, copies, st_, full)
    want = reference(members, hs, backend_ios, copies, st_, full)
    assert got.__dict__ == want.__dict__
    assert [v.hex() if isinstance(v, float) else v for v in got.__dict__.values()] == [
        v.hex() if isinstance(v, float) else v for v in want.__dict__.values()
    ]
    assert [type(v) for v in got.__dict__.values()] == [type(v) for v in want.__dict__.values()]
    assert got.model_fields_set == want.model_fields_set
