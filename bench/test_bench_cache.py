"""Cache and tiering speed targets (reported in closing notes, never asserted).

Targets: a 200-point hit-ratio curve (Zipf, 100 GB working set = 24 million 4 KiB blocks)
< 5 ms; a tier split for 6 chunk sizes < 2 ms. Run: ``make bench``.
"""

import numpy as np

from models.cache import hit_ratio_curve
from models.tiering import VENDOR_CHUNK_MB, tier_split
from models.workload import Skew

SIX_CHUNKS = [
    VENDOR_CHUNK_MB[k]
    for k in ("compellent", "symmetrix-fast-vp", "hds-vsp-hdt", "3par-ao", "vnx2-unity", "vnx-fast-vp")
]


def test_hit_ratio_curve_200_points(benchmark):
    sizes = np.linspace(0.5, 100.0, 200)
    curve = benchmark(hit_ratio_curve, sizes, 100.0, Skew(zipf_alpha=0.9))
    assert curve.shape == (200,) and np.all(np.diff(curve) >= 0)


def test_tier_split_six_chunk_sizes(benchmark):
    def six_splits():
        return [tier_split([5_000, 30_000, 100_000], 100_000, c) for c in SIX_CHUNKS]

    splits = benchmark(six_splits)
    assert all(abs(sum(t.io_share for t in s.tiers) - 1.0) < 1e-12 for s in splits)
