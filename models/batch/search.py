"""The fewest drives of every family: bisections for the first row within capacity and with
enough drives for the drive-utilization headroom, then blocks of rows up to each family's first
passing one (:func:`first_passing`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from models.batch.arrays import BoolArray, FloatArray, IntArray
from models.checks import TOLERANCE
from models.fewest import first_passing_rows
from models.pool import (
    RoleWork,
)

if TYPE_CHECKING:
    from models.batch.model import BatchModel

CHUNK_ROWS = 1 << 15
"""Rows evaluated per numpy pass (keeps the temporaries in cache)."""

FIRST_BLOCK_ROWS = 1
"""Rows per family in the first round of :func:`first_passing` (half as many more each
round: 1, 2, 3, 4, 6, 9, ...; fewer rows past the first passing one than doubling, for a few more
rounds). One: with the capacity and drive-utilization floors most families pass at their first
candidate row (custom builds, bench workloads: 213 k rows evaluated, 362 k with two)."""

PRUNE_SHARE = 0.875
"""With ``prune``, the rows still passing are split off (:meth:`_Rows.subset`, every figure kept
so far gathered anew) only when at most this share of the rows evaluated so far is left. A failed
row evaluated along with the others stays failed (its flag is only ever cleared), and one more
window of a few such rows costs less CPU than the gathers."""

UTILIZATION_MARGIN = 1e-6
"""Relative margin of the drive-utilization lower bound (:func:`drive_floors`): a row
is skipped only when its utilization must exceed the limit by more than this share, far beyond the
rounding of the few operations that compute it (~1e-15), so the skipped rows' verdicts are exact."""


def first_capacity_rows(model: BatchModel) -> IntArray:
    """Per family, its first row within the capacity headroom (``starts[f + 1]``: none).

    Bisection over every family at once (:func:`models.fewest.first_passing_rows`): within a family capacity never fails once it passes
    (:meth:`BatchModel._capacity_ok`), so the answer is the rows' own verdict without evaluating them all.
    """
    sp = model.space
    lo = sp.starts[:-1].copy()
    hi = sp.starts[1:].copy()
    return first_passing_rows(lo, hi, np.flatnonzero(lo < hi), model._capacity_ok)


def drive_floors(model: BatchModel) -> tuple[FloatArray, FloatArray]:
    """Per segment, the data drives and the dedicated parity drives below which a row must
    exceed the drive-utilization headroom in some window (0 where no bound is known).

    Within a segment (one family, one state) a role's utilization is ``busy / 1000 /
    drives`` (:func:`models.pool.role_utilization`) with the segment's own work, and the busy
    time ``fixed + read positionings x P_read + write positionings x P_write`` is at least
    its value at the least positioning any row can have: the span (:func:`models.pool.planned_span`)
    lies between its value at the planned fill and 1, whatever the drive count, and the
    command-queuing factor of the data drives between ``1 / (1 + g)`` and 1
    (:func:`models.pool.queue_fixed_point`; 1 unless the window states its concurrency). So a
    row whose data drives are fewer than ``busy_min / (10 x limit)`` fails. The limit is
    raised by :data:`UTILIZATION_MARGIN` so that rounding cannot turn a skipped row's verdict.
    Only segments whose work and positioning terms are all non-negative get a bound (no
    cancellation: each figure is exact to a few ulps).
    """
    nseg = model.segments.seg_len.size
    limit = (model.headroom.drive_max_pct + TOLERANCE) * (1.0 + UTILIZATION_MARGIN)
    t = model.work.seg_times
    s0 = min(1.0, model.demand.fill)  # planned_span: s0 = min(1, max(footprint / usable, fill)) in [s0, 1]
    span_fill = s0 + model.work.seg_scatter * (1.0 - s0)  # and s = s0 + scatter (1 - s0) from it; 1 at s0 = 1
    with np.errstate(invalid="ignore"):
        roots = (np.sqrt(np.minimum(span_fill, 1.0)), np.sqrt(np.maximum(span_fill, 1.0)))

    def least(a: FloatArray, b: FloatArray, factors: tuple[Any, ...]) -> FloatArray:
        """The least positioning ``(a + b sqrt(span)) x factor`` over the corners of the ranges
        (nan, hence no bound, where a corner is undefined)."""
        out = np.full(nseg, np.inf)
        with np.errstate(invalid="ignore"):
            for root in roots:
                for f in factors:
                    out = np.minimum(out, (a + b * root) * f)
        return out

    one = (1.0,)
    # a drive write cache reorders writes at one host command too (models.drives.positioning_ms)
    pr1, pw1 = (
        least(t.read_pos_a, t.read_pos_b, one),
        least(t.write_pos_a, t.write_pos_b, one) * t.write_queue_factor,
    )
    gain = model.work.seg_g > 0  # (x + h) / ((1 + g) x + h) >= 1 / (1 + g) needs h >= 0 (else no bound)
    lowest = np.where(model.work.seg_h >= 0, 1.0 / (1.0 + np.where(gain, model.work.seg_g, 1.0)), -np.inf)
    queued = (np.where(gain, lowest, 1.0), 1.0)
    prq, pwq = least(t.read_pos_a, t.read_pos_b, queued), least(t.write_pos_a, t.write_pos_b, queued)

    def floor(role: RoleWork, p_read: FloatArray, p_write: FloatArray) -> FloatArray:
        terms = [np.broadcast_to(np.asarray(x, dtype=np.float64), (nseg,)) for x in role[:4]]
        read_ms, write_ms, read_pos, write_pos = terms
        with np.errstate(invalid="ignore"):
            busy = read_ms + write_ms + read_pos * p_read + write_pos * p_write
            sound = (read_ms >= 0) & (write_ms >= 0) & (read_pos >= 0) & (write_pos >= 0)
            sound &= (p_read >= 0) & (p_write >= 0) & ~np.isnan(busy)
        return np.where(sound, busy / (10.0 * limit), 0.0)

    data = np.zeros(nseg)
    parity = np.zeros(nseg)
    for win in model.work.win:
        stated = win.pool.concurrency_stated
        data = np.maximum(data, floor(win.work.data, prq if stated else pr1, pwq if stated else pw1))
        parity = np.maximum(parity, floor(win.work.parity, pr1, pw1))
    return data, parity


def first_drive_rows(model: BatchModel, lo: IntArray) -> IntArray:
    """Per segment, its first row at or after ``lo`` with at least the drives of
    :func:`drive_floors` (the segment's end: none). The rows before it fail the drive model.

    Bisection over every segment at once (:func:`models.fewest.first_passing_rows`): a row's data and parity drives grow with its drive
    count (whole groups of one layout), so once a row has enough, every later row has.
    """
    need_data, need_parity = drive_floors(model)
    hi = model.segments.seg_start + model.segments.seg_len
    lo = lo.copy()

    def short(rows: IntArray, g: IntArray) -> BoolArray:
        """Whether ``rows`` (of segments ``g``) have fewer drives of a role than it needs."""
        n = model.space.count_of(rows, model.segments.seg_family[g]).astype(np.float64)
        # as _pool counts them: in positioning units
        units = model.work.seg_units[g]
        parity = n / model.work.seg_width[g] * model.work.seg_parity[g] * units
        data = n * units - parity  # a role without drives has utilization 0 (role_utilization)
        out = (data > 0) & (np.maximum(data, 1) < need_data[g])
        return out | ((parity > 0) & (np.maximum(parity, 1) < need_parity[g]))

    live = np.flatnonzero((lo < hi) & ((need_data > 1.0) | (need_parity > 1.0)))
    live = live[short(lo[live], live)]  # the rest keep their first row
    lo[live] += 1
    live = live[lo[live] < hi[live]]
    return first_passing_rows(lo, hi, live, lambda rows, g: ~short(rows, g))


def first_passing(model: BatchModel) -> tuple[IntArray, int]:
    """Per family, its first (fewest drives) passing row (-1: none), and the number of rows
    whose drive model ran.

    A family's candidates are its rows within the capacity headroom (from
    :func:`first_capacity_rows` on) in segments passing the drive-independent checks, from
    each segment's :func:`first_drive_rows` on (fewer drives must fail drive utilization). They are
    evaluated in ascending drive count, in blocks that grow by half each round
    (``FIRST_BLOCK_ROWS`` first), every family's block together, up to the family's first
    passing row: the rows after it are never evaluated. The same row as the first passing one
    of :meth:`BatchModel.passed` (a row's verdict does not depend on the rows evaluated with it).
    """
    sp = model.space
    nf = len(sp.families)
    first = np.full(nf, -1, dtype=np.int64)
    # candidates as intervals, one per segment: [max(segment start, first row within capacity), end)
    cap = first_capacity_rows(model)
    seg_lo = first_drive_rows(model, np.maximum(model.segments.seg_start, cap[model.segments.seg_family]))
    seg_n = np.where(
        model.work.seg_ok, np.maximum(0, model.segments.seg_start + model.segments.seg_len - seg_lo), 0
    )
    seg_at = np.cumsum(seg_n) - seg_n  # where each segment's candidates begin among all of them
    fam_n = np.bincount(model.segments.seg_family, weights=seg_n, minlength=nf).astype(np.int64)
    pos = np.cumsum(fam_n) - fam_n  # each family's next candidate
    end = pos + fam_n
    active = np.flatnonzero(fam_n > 0)
    block = FIRST_BLOCK_ROWS
    modelled = 0
    while active.size:
        lens = np.minimum(end[active] - pos[active], block)
        offsets = np.cumsum(lens) - lens
        total = int(lens.sum())
        ix = np.repeat(pos[active] - offsets, lens) + np.arange(total, dtype=np.int64)
        g = np.searchsorted(seg_at, ix, side="right") - 1
        rows = seg_lo[g] + (ix - seg_at[g])
        good = np.ones(total, dtype=bool)
        for lo in range(0, total, CHUNK_ROWS):
            part = slice(lo, lo + CHUNK_ROWS)
            model._verdict(rows[part], good[part], segments=g[part])
        modelled += total
        # the first passing row of each family in this round (rows ascend within a family)
        hit = np.flatnonzero(good)
        owner = np.searchsorted(offsets, hit, side="right") - 1
        done, at = np.unique(owner, return_index=True)
        first[active[done]] = rows[hit[at]]
        pos[active] += lens
        still = np.ones(active.size, dtype=bool)
        still[done] = False
        active = active[still & (pos[active] < end[active])]
        block += max(1, block // 2)
    return first, modelled
