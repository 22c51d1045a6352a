"""Rebuild after a drive failure: how long the redundancy is short, and the risks over that window.

A rebuild moves data at the drives' sequential rates, throttled by the array to its rebuild
priority and squeezed into the time the foreground load leaves idle. Nomenclature::

    C        capacity of the failed drive to rebuild [GB] (the whole drive: conservative; arrays
             that rebuild only live data, Ceph or a ZFS sequential resilver, finish sooner)
    r_r, r_w sequential read and write rates of one drive [MB/s] (``media_rate_mb_s``,
             ``seq_write_mb_s``; a hard disk's zone-average rate for both)
    k        drives read to rebuild one drive's data: 1 for copies (a mirror, a replica), the
             data drives of the stripe for parity and erasure codes (any ``k`` of the survivors)
    N        drives of the pool the rebuild may spread over (distributed sparing)
    pi       rebuild priority: the largest share of a drive's time the array lets a rebuild take
    U        utilization of the drives the rebuild runs on by the foreground load (the degraded
             group's, :func:`models.pool.degraded_group`)
    s        the rebuild's share of each drive: ``s = min(pi, 1 - U)`` (it gets the idle share,
             up to its priority), never below the rate the array guarantees (``r_min``)

Two sparing styles (:class:`Sparing`):

* **dedicated**: a hot spare (or the replacement drive) receives the whole rebuild. Survivors read
  in parallel, the spare writes everything: one drive's rate bounds it, whether the data is
  copied from a mirror or reconstructed from ``k`` survivors (a spare recovers a member no faster
  than it can write [ibm-distributed-raid])::

      r = s x min(r_r, r_w)                          T = C / r                       [MB/s, s]

* **distributed** (E-Series DDP [netapp-eseries-preservation-capacity], dRAID, PowerStore DRE,
  IBM DRAID, Ceph, vSAN, SolidFire, Pure):
  spare space on every drive, so the ``k x C`` read and ``C`` written spread over the ``N - 1``
  survivors, many to many (the OpenZFS dRAID guide: the rebuild scales with the number of drives
  over the stripe width [openzfs-draid])::

      T = (k x C / r_r + C / r_w) / (N - 1) / s                                       [s]

The parity reconstruction reads ``k`` drives where a mirror reads one: with a dedicated spare the
time is the same on idle drives, but each of the ``k`` survivors carries the rebuild (and the
degraded reads, which raise ``U``); spread over the pool it costs ``k + 1`` drive transfers per
byte instead of 2. Not modelled: the controller's or the cluster network's bandwidth as a
ceiling on the rebuild (the drives bound it in the arrays this is checked against).

Risks over the rebuild window ``T`` [h]:

* an unrecoverable read error where no redundancy is left (single redundancy):
  ``P(URE) = 1 - exp(-8e9 x k x C / bits per error)`` (:func:`models.drives.unrecoverable_read_probability`);
* a further drive failure among the ``m`` drives holding the failed drive's stripes or copies
  (``m = w - 1`` in a dedicated group, ``copies - 1`` for mirrors, ``N - 1`` distributed), drives
  failing independently at the annualized failure rate ``AFR``:
  ``P = 1 - exp(-m x AFR x T / 8,766)`` (AFR default 2%/yr, above Backblaze's fleet
  [backblaze-drive-stats]). With single redundancy that failure loses data; with more
  it leaves the stripe one failure from loss.
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Any

import numpy as np

from models.numeric import is_scalar, maximum, minimum

Num = Any
"""A float, or a numpy array of them (one element per candidate)."""

HOURS_PER_YEAR = 8766.0
"""Mean hours in a year (365.25 days)."""


class Sparing(StrEnum):
    """Where a failed drive's data is rebuilt to."""

    DEDICATED = "dedicated"  # one hot spare (or the replacement) receives the whole rebuild
    DISTRIBUTED = "distributed"  # spare space on every drive of the pool: many to many


def rebuild_share(priority: Num, foreground_utilization: Num) -> Num:
    """Share of each drive's time a rebuild takes: ``s = min(pi, 1 - U)``, 0 when the foreground
    saturates the drives (floats, or arrays over candidates)."""
    if is_scalar(priority, foreground_utilization):
        return max(0.0, min(priority, 1.0 - foreground_utilization))
    return np.clip(np.minimum(priority, 1.0 - np.asarray(foreground_utilization, dtype=float)), 0.0, None)


def rebuild_seconds_at_full_rate(
    capacity_gb: Num,
    read_mb_s: Num,
    write_mb_s: Num,
    *,
    sparing: Sparing,
    drives_read: Num,
    pool_drives: Num,
) -> Num:
    """Time to rebuild one drive with the whole of every drive involved [s] (``s = 1``):
    dedicated ``C / min(r_r, r_w)``; distributed ``(k x C / r_r + C / r_w) / (N - 1)``."""
    mb = capacity_gb * 1000.0
    if sparing is Sparing.DEDICATED:
        return mb / minimum(read_mb_s, write_mb_s)
    return (drives_read * mb / read_mb_s + mb / write_mb_s) / maximum(pool_drives - 1.0, 1.0)


def rebuild_hours(
    capacity_gb: Num,
    read_mb_s: Num,
    write_mb_s: Num,
    *,
    sparing: Sparing,
    drives_read: Num,
    pool_drives: Num,
    priority: Num,
    foreground_utilization: Num,
    min_rate_mb_s: Num,
) -> Num:
    """Rebuild duration [h]: the full-rate time (:func:`rebuild_seconds_at_full_rate`) over the
    rebuild's share ``s`` (:func:`rebuild_share`); never slower than the guaranteed rate
    ``r_min`` [MB/s of rebuilt data] allows: ``T = min(T_full / s, C / r_min)``."""
    full = rebuild_seconds_at_full_rate(
        capacity_gb, read_mb_s, write_mb_s, sparing=sparing, drives_read=drives_read, pool_drives=pool_drives
    )
    share = rebuild_share(priority, foreground_utilization)
    floor = capacity_gb * 1000.0 / min_rate_mb_s
    if is_scalar(full, share, floor):
        return min(full / share if share > 0 else math.inf, floor) / 3600.0
    with np.errstate(divide="ignore"):
        at_share = np.where(share > 0, full / np.where(share > 0, share, 1.0), np.inf)
    return np.minimum(at_share, floor) / 3600.0


def further_failure_probability(drives_at_risk: Num, afr: Num, hours: Num) -> Num:
    """Chance one more of ``drives_at_risk`` drives fails within ``hours``, each failing
    independently at the annualized rate ``afr`` (0..1): ``1 - exp(-m x AFR x T / 8,766)``."""
    if is_scalar(drives_at_risk, afr, hours):
        return -math.expm1(-drives_at_risk * afr * hours / HOURS_PER_YEAR)
    return -np.expm1(-np.asarray(drives_at_risk, dtype=float) * afr * np.asarray(hours) / HOURS_PER_YEAR)
