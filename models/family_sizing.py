"""A catalog family sized by the scalar path, as :func:`models.recommend.recommend` returns it.

The batch search (:mod:`models.batch`) gives each family's fewest drives with the nodes those
drives need slots for; :func:`models.size.size` gives the fewest nodes the load needs (from the
base system, or the hosts the layout is placed on), each HA pair or appliance with a group of its
own and each host with a drive (:func:`models.buildable.least_drives_per_node`), then the fewest
drives there. Recommend answers as size() does (#33): :func:`size_sets_other_nodes` says when the
two can differ, :func:`size_family` sizes the family as size() does.
"""

from __future__ import annotations

import numpy as np

from models.batch import Family, family_configuration, family_counts, family_nodes
from models.buildable import least_drives_per_node
from models.cases import HEALTHY_ONLY
from models.configuration import Configuration, HeadroomTargets
from models.evaluate import EvaluationResult, evaluate
from models.parameters import EngineParameters
from models.size import binding_words, size
from models.workload import Workload


def size_family(
    family: Family,
    after: int,
    workloads: list[Workload],
    headroom: HeadroomTargets,
    params: EngineParameters,
) -> tuple[Configuration, EvaluationResult, str] | None:
    """The family sized by :func:`models.size.size` (healthy operation today, as the batch judges):
    the fewest drives (whole groups, or drives of a distributed layout) and, for a clustered family,
    size()'s nodes: the base system's (or the hosts the layout is placed on), more only where the
    load needs them, each HA pair or appliance with a group of its own. ``after`` (a count the
    batch found and evaluate() did not confirm) bounds a non-clustered family's answer from below.
    Returns the configuration, its evaluation and what binds, in words."""
    counts = [int(c) for c in family_counts(family.array, family.layout)]
    clustered = family.array.scale_out is not None
    if not clustered:
        counts = [c for c in counts if c > after]
    if not counts:
        return None
    base = family_configuration(family, counts[0], headroom)
    pool = base.pools[0].model_copy(update={"drive_count": None})
    sized = size(
        workloads,
        base.model_copy(update={"pools": [pool]}),
        params=params,
        max_drives=family.array.max_drives,
        relax=HEALTHY_ONLY,  # as the batch judges the families (healthy operation today)
    )
    if not sized.feasible or (not clustered and sized.drive_count not in counts):
        return None
    if clustered:  # size()'s own nodes and drives
        config = sized.configuration
    else:
        config = family_configuration(family, sized.drive_count, headroom)
    result = evaluate(workloads, config, params=params)
    if not result.passed:
        return None
    binding = sized.binding_constraint
    words = (
        "none: the smallest configuration the array allows"
        if binding == "minimum group count"
        else f"with one group fewer: {binding_words(binding, 1)}"
    )
    return config, result, words


def size_sets_other_nodes(family: Family, drives: int) -> bool:
    """Whether :func:`models.size.size` could answer other nodes than a clustered family's batch row
    of ``drives``: the row's drives took more nodes than the family starts with (size() adds them
    only for the load), or hold fewer than each node's least (:func:`least_drives_per_node`)."""
    so = family.array.scale_out
    if so is None:
        return False
    first = int(family_counts(family.array, family.layout)[0])
    start, row = (int(x) for x in family_nodes(family.array, np.asarray([first, drives]), family.layout))
    least = least_drives_per_node(family.layout, family.array.spares, so.controllers_per_node)
    return row > start or drives < row * least
