"""Vectorized evaluation of many candidate configurations at once, with the engine's own formulas.

A *family* is one array x drive x RAID layout x flash-cache size, built the way
:func:`models.catalog.build_configuration` builds it (one pool, the array's default ports, no
tiering); each of its candidate drive counts is a *row* (whole RAID groups, within the array's
drive, node and shelf limits). Rows of every family are evaluated together as numpy arrays.

Nothing here restates the physics. What does not depend on the drive count is computed once per
*state* (array, flash cache, nodes) with the scalar engine functions: cache shares and hit ratios
(:mod:`models.cache_share`; every Che solve of one working set batched through
:func:`models.cache.hit_ratio_curve`, :func:`level_hit_ratios_many`), controller load and
utilization (:func:`models.controller.controller_load`), ports and the front-end latency
(:class:`models.latency.FrontEnd`). The drive work of each *segment* (rows sharing a family and a
state) and window is priced by :func:`models.pool.plan_work` on the access plans of
:mod:`models.raid`, with arrays over segments where the scalar engine passes floats. Per row, the
span, the queue, the utilizations and the wait come from :func:`models.pool.planned_span`,
:func:`models.pool.pool_state` and :func:`models.pool.miss_path`, the functions
:func:`models.pool.pool_load` calls, on arrays of rows.

Scope: single-pool configurations, no tiering, normal operation (``degraded="none"``), load
scale 1, workloads without a pool name (or naming ``"pool"``). That is everything a catalog family
is; anything else must go through :func:`models.size.size` and :func:`models.evaluate.evaluate`.

Agreement with ``evaluate()``: the same functions, summed in another order (relative differences
~1e-13), hit ratios within ~1e-10. Configurations the batch picks are confirmed with
``evaluate()`` by :mod:`models.recommend`.

The package, in the order of its stages: :mod:`~models.batch.space` (families and their rows),
:mod:`~models.batch.tables` (the workload side, the drive, layout and array tables, the segments
and states), :mod:`~models.batch.front` (each state's caches, controllers and ports),
:mod:`~models.batch.plans` and :mod:`~models.batch.work` (each segment's drive work),
:mod:`~models.batch.model` (rows through the drive model, :func:`evaluate_batch`),
:mod:`~models.batch.search` (each family's fewest drives) and :mod:`~models.batch.results`
(verdicts and figures of chosen rows). Each stage is a dataclass built from the ones before it.
The bookkeeping formulas it shares with the scalar engine (hot spares, shelves, rack units, power
and cost, the node count, the back-end bus, the pass rule) are imported from the modules that own
them.
"""

from models.batch.arrays import BoolArray, FloatArray, IntArray
from models.batch.front import level_hit_ratios_many
from models.batch.model import BatchModel, check_batchable, evaluate_batch
from models.batch.plans import _SegmentPlans
from models.batch.results import BatchEvaluation, RowCheck, RowDetail
from models.batch.search import CHUNK_ROWS, FIRST_BLOCK_ROWS, PRUNE_SHARE, UTILIZATION_MARGIN
from models.batch.space import (
    POOL,
    CandidateSpace,
    Family,
    candidate_space,
    family_configuration,
    family_counts,
    family_nodes,
    spare_counts,
)

__all__ = [
    "CHUNK_ROWS",
    "FIRST_BLOCK_ROWS",
    "POOL",
    "PRUNE_SHARE",
    "UTILIZATION_MARGIN",
    "BatchEvaluation",
    "BatchModel",
    "BoolArray",
    "CandidateSpace",
    "Family",
    "FloatArray",
    "IntArray",
    "RowCheck",
    "RowDetail",
    "_SegmentPlans",
    "candidate_space",
    "check_batchable",
    "evaluate_batch",
    "family_configuration",
    "family_counts",
    "family_nodes",
    "level_hit_ratios_many",
    "spare_counts",
]
