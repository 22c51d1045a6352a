"""What a pool's drives carry of sequential streams alone, priced as evaluate prices them
(:func:`models.pool.pool_work`, :func:`models.pool.pool_state`): the building blocks'
drive-bound bandwidth (:mod:`models.blocks`)."""

from __future__ import annotations

import math
from typing import NamedTuple

from models.drives import CommandQueuing, DriveSpec, command_queuing_factor, positioning_ms
from models.pool import Work, role_utilization, stated_queue
from models.pool_plans import PoolPlans


class StreamCapacity(NamedTuple):
    """What a pool's drives carry of sequential streams alone [KiB/s], and how it was priced."""

    read_kib_s: float
    write_kib_s: float
    segment_kib: float  # one stream request (readahead / write-behind)
    queue: float  # commands per data drive at saturation (1: no queuing credit)


def stream_capacity(
    plans: PoolPlans,
    drive: DriveSpec,
    n: int,
    span: float,
    *,
    size_kib: float,
    streams: int | None,
    readahead_kib: float | None = None,
) -> StreamCapacity:
    """KiB/s of sequential reads (and, apart, of sequential writes) that ``n`` drives of ``plans``
    carry when busy 100%: the stream work :func:`pool_work` prices (:meth:`PoolPlans.streams`: one
    positioning per request on each drive, none for a single stream) at the seek ``span``, the data
    drives queued as :func:`pool_work` counts the read streams' requests (``streams`` x commands per
    request, :func:`stated_queue`; saturation fills the stated queue), writes at one command.

        KiB/s = 1 / max over roles (busy per KiB / 1000 / drives of the role)
    """
    roles = plans.roles(n)
    sr, sw = plans.streams(streams != 1, size_kib, readahead_kib)
    segment = plans.segment_kib(size_kib, readahead_kib)
    g, h, limit = plans.ncq(drive)
    stated = streams is not None and streams > 1 and g > 0
    commands = (streams or 1) * segment * (sr.data.ops + sr.parity.ops)
    q = float(stated_queue(commands, stated, roles.data, limit))
    factor = (
        command_queuing_factor(q, CommandQueuing(gain_max=g, q_half=h, queue_limit=limit)) if stated else 1.0
    )
    root = math.sqrt(span)

    def per_s(work: Work, f: float) -> float:
        pr, pw = positioning_ms(plans.t, root, f)
        u = max(
            float(role_utilization(work.data, roles.data, pr, pw)),
            float(role_utilization(work.parity, roles.parity, pr, pw)),
        )
        return 1.0 / u if u > 0 else math.inf

    return StreamCapacity(per_s(sr, factor), per_s(sw, 1.0), float(segment), q)
