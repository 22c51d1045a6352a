"""Replication and DR: the WAN link, the lag, the distance's latency, the DR-side array.

Nomenclature (per window w; names as in ``docs/nomenclature.md``):

* ``W_w`` front-end write rate [MB/s]: ``sum over phases of MB/s x (1 - read % / 100)``;
* ``u`` unique share of the written bytes within one interval (overwrites of a block inside one
  snapshot interval are sent once) [%], default 100 (conservative: nothing coalesces);
* ``k`` WAN compression ratio (default 1: none);
* ``r_w = W_w x u / 100 / k`` the change rate the link carries [MB/s];
* ``e`` link efficiency: share of the line rate the replication gets after TCP/IP framing and
  other traffic [%] (default 80, an estimate);
* ``T`` snapshot interval, ``R`` recovery point objective [min]; ``H_w`` window duration [h].

**Asynchronous, snapshot-based** (SnapMirror, async remote copy, asynchronous mirror groups):
every ``T`` minutes the array takes a snapshot and ships the blocks changed since the last one.
Data written just after a snapshot waits up to ``T`` for the next one, then as long as the
transfer takes: the worst exposure (the lag) is ``T + transfer``. One interval's changes
``r_w x T`` must therefore be shipped within ``R - T``, and the link must keep up with the
change rate itself (else transfers fall ever further behind)::

    B_w = r_w x max(1, T / (R - T)) x 8 / (e / 100)        [Mbit/s]

so ``R`` must exceed ``T`` (an RPO no longer than the interval cannot be met by any link: a
:class:`~models.base.InputError` at ``plan.rpo_minutes``). With a given link of effective rate
``b = L x e / 100 / 8`` [MB/s] the lag at the end of a window (fluid approximation: while
``r_w > b`` the backlog grows by ``(r_w - b)`` each second, and the replica trails by the share
``1 - b / r_w`` of the window)::

    lag_w = T + T x r_w / b + H_w x 60 x max(0, 1 - b / r_w)     [min]

which equals ``R`` at ``L = B_w`` when ``R <= 2T`` and stays below it when ``R > 2T``.

**Synchronous**: the host's write completes only when the remote array has acknowledged it. Each
write pays the protocol's round trips over the distance ``d``, the serialization of its bytes at
the link's rate and the remote array's acknowledgement::

    t_sync = n_rt x 2 x d x t_km + s x 8 / L + t_remote + t_equipment     [ms]

with ``t_km`` = 5 us/km, the propagation of light in fibre (refractive index about 1.5: 200,000
km/s; 1 ms round trip per 100 km) [ibm-speed-of-light-2020] [hp-p6000-ca-2012]; ``n_rt`` = 2
round trips per SCSI write over Fibre Channel or iSCSI without write acceleration (command and
transfer-ready, then data and status) [poelker-techtarget-2003]; ``t_remote`` = 0.1 ms, the
remote array's acknowledgement at zero distance (0.25 ms local write, 0.35 ms mirrored)
[hp-p6000-ca-2012]; ``s`` the window's mean write size. The link must carry the peak write rate
itself, with no interval to smooth it: ``B_w = W_w / k x 8 / (e / 100)``.

**DR side**: the DR array is sized (:func:`models.size.size`) for a failover, the production
workloads at ``failover_load_pct`` of their load, and then evaluated
(:func:`models.evaluate.evaluate`) at what it takes in normal operation, the replicated writes
alone (every phase write-only, at ``u / 100`` of its write rate for asynchronous replication).
With calibration margins its text says what they cost the DR array
(:meth:`models.margins.Margining.sized`: the drives they add to the family sized as stated).
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, model_validator

from models.base import Frozen, InputError, NonNegFloat, Output, PositiveFloat, Ratio
from models.checks import within
from models.configuration import Configuration
from models.evaluate import evaluate
from models.explain import Explained, explained, fmt
from models.margins import AS_STATED, Margining, distinct, with_words
from models.memo import holds_memo
from models.parameters import EngineParameters
from models.provenance import Margin
from models.results import Check, EvaluationResult, check
from models.size import SizingResult, size
from models.workload import Phase, Workload, windows_of

FIBRE_US_PER_KM = 5.0
"""One-way propagation in optical fibre [us/km] [ibm-speed-of-light-2020]."""
SCSI_WRITE_ROUND_TRIPS = 2
"""Round trips of a SCSI write over FC or iSCSI without write acceleration [poelker-techtarget-2003]."""
REMOTE_ACK_MS = 0.1
"""Remote array's acknowledgement of a mirrored write at zero distance [ms] [hp-p6000-ca-2012]."""


class ReplicationPlan(Frozen):
    """How the data is replicated; the windows' change rates come from the workloads' phases."""

    mode: Literal["async", "sync"]
    rpo_minutes: PositiveFloat | None = Field(
        default=None, le=10080.0, description="recovery point objective [min] (async: required)"
    )
    interval_minutes: PositiveFloat | None = Field(
        default=None, le=1440.0, description="snapshot (update) interval [min] (async: required)"
    )
    window_hours: dict[str, PositiveFloat] = Field(
        default_factory=dict,
        description="how long each window lasts [h] (async: every window; the lag with a given link)",
    )
    unique_change_pct: float = Field(
        default=100.0,
        gt=0.0,
        le=100.0,
        description="share of written bytes that are distinct blocks within one interval [%] (100: conservative)",
    )
    wan_compression_ratio: Ratio = Field(default=1.0, description="compression on the link (1: none)")
    link_efficiency_pct: float = Field(
        default=80.0,
        gt=0.0,
        le=100.0,
        description="share of the line rate replication gets (TCP/IP framing, other traffic) [%]; an estimate",
    )
    link_mbit_s: PositiveFloat | None = Field(
        default=None, le=4e6, description="the WAN link's line rate [Mbit/s]; null = the rate sized here"
    )
    distance_km: NonNegFloat = Field(default=0.0, le=20000.0, description="fibre route length between sites")
    fibre_us_per_km: float = Field(default=FIBRE_US_PER_KM, gt=0.0, le=100.0)
    protocol_round_trips: int = Field(default=SCSI_WRITE_ROUND_TRIPS, ge=1, le=8)
    remote_ack_ms: NonNegFloat = Field(default=REMOTE_ACK_MS, le=100.0)
    equipment_ms: NonNegFloat = Field(
        default=0.0, le=100.0, description="switches, routers, DWDM on the path, both ways [ms]"
    )
    failover_load_pct: float = Field(
        default=100.0, gt=0.0, le=100.0, description="load the DR array carries after a failover [%]"
    )

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.mode == "async":
            if self.rpo_minutes is None:
                raise ValueError("asynchronous replication needs rpo_minutes")
            if self.interval_minutes is None:
                raise ValueError("asynchronous replication needs interval_minutes")
        return self


class WindowReplication(Output):
    window: str
    write_mb_s: Explained = Field(description="front-end write rate of the window [MB/s]")
    change_mb_s: Explained = Field(description="what the link carries [MB/s]")
    bandwidth_mbit_s: Explained = Field(description="line rate this window needs [Mbit/s]")
    lag_minutes: Explained | None = Field(description="async: the replica's lag at the window's end [min]")
    meets_rpo: bool | None = Field(description="async: lag within the RPO with the link used")


class DrSide(Output):
    """The DR array: sized for a failover, evaluated at the replicated writes."""

    failover: SizingResult
    replicated_writes: EvaluationResult
    text: str


class ReplicationResult(Output):
    mode: Literal["async", "sync"]
    windows: list[WindowReplication]
    busiest_window: str
    bandwidth_mbit_s: Explained = Field(description="the busiest window's line rate: the link to buy")
    link_mbit_s: float = Field(description="the link the lags are computed with [Mbit/s]")
    lag_minutes: Explained | None = Field(description="async: the lag at the busiest window")
    sync_write_ms: Explained | None = Field(description="sync: latency added to every write [ms]")
    primary: EvaluationResult | None = Field(
        default=None, description="the primary array evaluated (its write latency before replication)"
    )
    write_latency_ms: dict[str, float | None] = Field(
        default_factory=dict, description="sync with a primary: each window's write latency with the link's"
    )
    dr: DrSide | None = None
    checks: list[Check]
    notes: list[str]
    text: str


def window_write_mb_s(workloads: list[Workload]) -> dict[str, tuple[float, float, str]]:
    """Per window: (front-end write MB/s, write-weighted mean write size [KiB], the sum as text).

    ``W_w = sum(MB/s_i x (1 - read %_i / 100))`` over the window's phases."""
    out: dict[str, tuple[float, float, str]] = {}
    for window in windows_of(workloads):
        mb = 0.0
        weighted = 0.0
        iops = 0.0
        terms = []
        for w in workloads:
            for ph in w.phases:
                if ph.window != window:
                    continue
                share = (100.0 - ph.read_pct) / 100.0
                mb += ph.effective_mb_s * share
                iops += ph.effective_iops * share
                weighted += ph.effective_iops * share * ph.mean_size_kib
                terms.append(f"{fmt(ph.effective_mb_s)} x (1 - {fmt(ph.read_pct)} / 100)")
        out[window] = (mb, weighted / iops if iops > 0 else 0.0, " + ".join(terms) or "0")
    return out


def async_bandwidth_mbit_s(
    change_mb_s: float, interval_min: float, rpo_min: float, efficiency_pct: float
) -> float:
    """``B = r x max(1, T / (R - T)) x 8 / (e / 100)`` [Mbit/s]; ``R`` must exceed ``T``."""
    if rpo_min <= interval_min:
        raise InputError("plan.rpo_minutes", "must exceed interval_minutes")
    return change_mb_s * max(1.0, interval_min / (rpo_min - interval_min)) * 8.0 / (efficiency_pct / 100.0)


def async_lag_minutes(change_mb_s: float, link_mb_s: float, interval_min: float, window_h: float) -> float:
    """``lag = T + T x r / b + H x 60 x max(0, 1 - b / r)`` [min] (``b`` the link's effective MB/s)."""
    if change_mb_s <= 0:
        return interval_min
    behind = max(0.0, 1.0 - link_mb_s / change_mb_s)
    return interval_min + interval_min * change_mb_s / link_mb_s + window_h * 60.0 * behind


def sync_write_ms(
    distance_km: float,
    write_kib: float,
    link_mbit_s: float,
    *,
    us_per_km: float = FIBRE_US_PER_KM,
    round_trips: int = SCSI_WRITE_ROUND_TRIPS,
    remote_ack_ms: float = REMOTE_ACK_MS,
    equipment_ms: float = 0.0,
) -> Explained:
    """``t = n_rt x 2 x d x t_km + s x 8 / L + t_remote + t_equipment`` [ms]."""
    propagation = round_trips * 2.0 * distance_km * us_per_km / 1000.0
    serialization = write_kib * 1024.0 * 8.0 / (link_mbit_s * 1e6) * 1000.0 if link_mbit_s > 0 else 0.0
    total = propagation + serialization + remote_ack_ms + equipment_ms
    return explained(
        total,
        "ms",
        "t_sync = n_rt x 2 x d x t_km + s x 8 / L + t_remote + t_equipment",
        f"t_sync = {round_trips} x 2 x {fmt(distance_km)} km x {fmt(us_per_km)} us/km + "
        f"{fmt(write_kib)} KiB x 8 / {fmt(link_mbit_s)} Mbit/s + {fmt(remote_ack_ms)} + {fmt(equipment_ms)} "
        f"= {fmt(propagation)} + {fmt(serialization)} + {fmt(remote_ack_ms)} + {fmt(equipment_ms)} = {fmt(total)} ms",
        source="ibm-speed-of-light-2020; poelker-techtarget-2003; hp-p6000-ca-2012",
        n_rt=round_trips,
        d_km=distance_km,
        t_km_us=us_per_km,
        s_kib=write_kib,
        L_mbit_s=link_mbit_s,
        t_remote_ms=remote_ack_ms,
        t_equipment_ms=equipment_ms,
    )


def replicated_writes(workloads: list[Workload], unique_pct: float) -> list[Workload]:
    """What the DR array takes in normal operation: each phase write-only at ``u / 100`` of its writes."""
    out = []
    for w in workloads:
        phases = []
        for ph in w.phases:
            share = (100.0 - ph.read_pct) / 100.0 * unique_pct / 100.0
            phases.append(
                ph.model_copy(
                    update={
                        "iops": ph.effective_iops * share,
                        "mb_per_s": None,
                        "read_pct": 0.0,
                        "read_latency_target_ms": None,
                        "observed": None,
                    }
                )
            )
        out.append(w.model_copy(update={"phases": phases}))
    return out


def scaled_load(workloads: list[Workload], pct: float) -> list[Workload]:
    """Every phase at ``pct`` % of its IOPS (or MB/s)."""
    if pct == 100.0:
        return workloads
    f = pct / 100.0

    def one(ph: Phase) -> Phase:
        return ph.model_copy(
            update={"iops": ph.iops * f, "mb_per_s": None if ph.mb_per_s is None else ph.mb_per_s * f}
        )

    return [w.model_copy(update={"phases": [one(ph) for ph in w.phases]}) for w in workloads]


def _window(
    window: str, writes: tuple[float, float, str], plan: ReplicationPlan, link_mbit_s: float | None
) -> WindowReplication:
    w_mb, _, terms = writes
    u, k, e = plan.unique_change_pct, plan.wan_compression_ratio, plan.link_efficiency_pct
    write = explained(w_mb, "MB/s", "W = sum(MB/s x (1 - read % / 100))", f"W = {terms} = {fmt(w_mb)} MB/s")
    if plan.mode == "sync":
        r = w_mb / k
        change = explained(r, "MB/s", "r = W / k", f"r = {fmt(w_mb)} / {fmt(k)} = {fmt(r)} MB/s", W=w_mb, k=k)
        b = r * 8.0 / (e / 100.0)
        bw = explained(
            b,
            "Mbit/s",
            "B = r x 8 / (e / 100)",
            f"B = {fmt(r)} MB/s x 8 / ({fmt(e)} / 100) = {fmt(b)} Mbit/s",
            r=r,
            e_pct=e,
        )
        return WindowReplication(
            window=window,
            write_mb_s=write,
            change_mb_s=change,
            bandwidth_mbit_s=bw,
            lag_minutes=None,
            meets_rpo=None,
        )
    assert plan.rpo_minutes is not None and plan.interval_minutes is not None
    t, rpo = plan.interval_minutes, plan.rpo_minutes
    r = w_mb * u / 100.0 / k
    change = explained(
        r,
        "MB/s",
        "r = W x u / 100 / k",
        f"r = {fmt(w_mb)} x {fmt(u)} / 100 / {fmt(k)} = {fmt(r)} MB/s",
        W=w_mb,
        u_pct=u,
        k=k,
    )
    b = async_bandwidth_mbit_s(r, t, rpo, e)
    bw = explained(
        b,
        "Mbit/s",
        "B = r x max(1, T / (R - T)) x 8 / (e / 100)",
        f"B = {fmt(r)} MB/s x max(1, {fmt(t)} / ({fmt(rpo)} - {fmt(t)})) x 8 / ({fmt(e)} / 100) = {fmt(b)} Mbit/s",
        r=r,
        T_min=t,
        R_min=rpo,
        e_pct=e,
    )
    if window not in plan.window_hours:
        raise InputError(f"plan.window_hours.{window}", "give how long this window lasts [h]")
    h = plan.window_hours[window]
    link = link_mbit_s if link_mbit_s is not None else b
    lag: Explained | None = None
    meets: bool | None = None
    if link > 0:
        link_mb = link * e / 100.0 / 8.0
        value = async_lag_minutes(r, link_mb, t, h)
        lag = explained(
            value,
            "min",
            "lag = T + T x r / b + H x 60 x max(0, 1 - b / r), b = L x e / 100 / 8",
            f"lag = {fmt(t)} + {fmt(t)} x {fmt(r)} / {fmt(link_mb)} + {fmt(h)} h x 60 x max(0, 1 - "
            f"{fmt(link_mb)} / {fmt(r)}) = {fmt(value)} min",
            T_min=t,
            r=r,
            b=link_mb,
            H_h=h,
        )
        meets = within(value, rpo)
    return WindowReplication(
        window=window,
        write_mb_s=write,
        change_mb_s=change,
        bandwidth_mbit_s=bw,
        lag_minutes=lag,
        meets_rpo=meets,
    )


@holds_memo
def replication(
    workloads: list[Workload],
    plan: ReplicationPlan,
    *,
    primary: Configuration | None = None,
    dr_family: Configuration | None = None,
    params: EngineParameters | None = None,
    margining: Margining = AS_STATED,
) -> ReplicationResult:
    """Size the replication of ``workloads`` by ``plan``; evaluate the primary and size the DR array if given.

    ``dr_family`` is a configuration with one pool's ``drive_count`` null (:func:`models.size.size`).
    The arrays are computed with ``margining``'s margins and answered as stated.
    """
    margins: list[list[Margin]] = []
    if not workloads:
        raise InputError("workloads", "at least one workload is needed")
    if plan.mode == "async":
        assert plan.rpo_minutes is not None and plan.interval_minutes is not None
        if plan.rpo_minutes <= plan.interval_minutes:
            raise InputError(
                "plan.rpo_minutes",
                f"{fmt(plan.rpo_minutes)} min cannot be met with a {fmt(plan.interval_minutes)} min interval: "
                "data written just after a snapshot waits the whole interval, so the RPO must exceed it",
            )
        unknown = [w for w in plan.window_hours if w not in windows_of(workloads)]
        if unknown:
            raise InputError(f"plan.window_hours.{unknown[0]}", "names no window of the workloads")
    writes = window_write_mb_s(workloads)
    rows = [_window(window, wr, plan, plan.link_mbit_s) for window, wr in writes.items()]
    busiest = max(rows, key=lambda row: row.bandwidth_mbit_s.value or 0.0)
    link = plan.link_mbit_s if plan.link_mbit_s is not None else (busiest.bandwidth_mbit_s.value or 0.0)
    notes: list[str] = []
    checks: list[Check] = []
    sync_ms: Explained | None = None
    primary_res: EvaluationResult | None = None
    latencies: dict[str, float | None] = {}
    if plan.mode == "async":
        worst = max(rows, key=lambda row: (row.lag_minutes.value or 0.0) if row.lag_minutes else 0.0)
        lag = worst.lag_minutes
        assert plan.rpo_minutes is not None
        for row in rows:
            if row.lag_minutes is not None:
                checks.append(
                    check(
                        f"lag ({row.window})",
                        row.lag_minutes.value,
                        plan.rpo_minutes,
                        "min",
                        f"{row.window}: the replica's lag",
                    )
                )
        text = (
            f"Asynchronous every {fmt(plan.interval_minutes)} min for a {fmt(plan.rpo_minutes)} min RPO needs "
            f"{fmt(busiest.bandwidth_mbit_s.value)} Mbit/s at {busiest.window}"
            + (
                f"; with {fmt(link)} Mbit/s the lag reaches {fmt(lag.value)} min at {worst.window}"
                if lag
                else ""
            )
            + "."
        )
        if plan.unique_change_pct < 100.0:
            notes.append(
                f"optimism stated: only {fmt(plan.unique_change_pct)} % of the written bytes are sent "
                "(overwrites within an interval coalesce)"
            )
    else:
        lag = None
        size_kib = writes[busiest.window][1]
        sync_ms = sync_write_ms(
            plan.distance_km,
            size_kib,
            link,
            us_per_km=plan.fibre_us_per_km,
            round_trips=plan.protocol_round_trips,
            remote_ack_ms=plan.remote_ack_ms,
            equipment_ms=plan.equipment_ms,
        )
        text = (
            f"Synchronous over {fmt(plan.distance_km)} km adds {fmt(sync_ms.value)} ms to every write and needs "
            f"{fmt(busiest.bandwidth_mbit_s.value)} Mbit/s at {busiest.window} (the peak write rate, unsmoothed)."
        )
        if plan.link_mbit_s is not None:
            for row in rows:
                checks.append(
                    check(
                        f"link ({row.window})",
                        row.bandwidth_mbit_s.value,
                        plan.link_mbit_s,
                        "Mbit/s",
                        f"{row.window}: the line rate the writes need",
                    )
                )
        if primary is not None:
            run_primary, primary_margins = margining.run_on(primary, workloads)
            margins.append(primary_margins)
            primary_res = margining.assessed(
                evaluate(workloads, run_primary, params=params, cold_cache=False),
                primary,
                workloads,
                primary_margins,
            )
            for w in primary_res.windows:
                latencies[w.window] = (
                    None if w.write_latency_ms is None else w.write_latency_ms + (sync_ms.value or 0.0)
                )
    if plan.wan_compression_ratio > 1.0:
        notes.append(f"optimism stated: the link compresses {fmt(plan.wan_compression_ratio)}:1")
    dr: DrSide | None = None
    if dr_family is not None:
        failover_load = scaled_load(workloads, plan.failover_load_pct)
        failover, _ = margining.sized(
            dr_family, failover_load, lambda f: size(failover_load, f, params=params)
        )
        dr_calibration = failover.result.calibration
        margins.append(dr_calibration.margins if dr_calibration is not None else [])
        stated = failover.configuration
        unique = plan.unique_change_pct if plan.mode == "async" else 100.0
        writes_only = replicated_writes(workloads, unique)
        run_steady, steady_margins = margining.run_on(stated, writes_only)
        steady = margining.assessed(
            evaluate(writes_only, run_steady, params=params, cold_cache=False),
            stated,
            writes_only,
            steady_margins,
        )
        dr = DrSide(
            failover=failover,
            replicated_writes=steady,
            text=(
                f"DR array: {failover.drive_count} drives carry a failover at {fmt(plan.failover_load_pct)} % "
                f"of the production load ({'feasible' if failover.feasible else 'infeasible'}); in normal operation "
                f"the replicated writes alone {'pass' if steady.passed else 'fail'} ({steady.bottleneck})."
                + (
                    f" {dr_calibration.margin_cost}"
                    if dr_calibration is not None and dr_calibration.margin_cost
                    else ""
                )
            ),
        )
    text = with_words(text, distinct(margins))
    return ReplicationResult(
        mode=plan.mode,
        windows=rows,
        busiest_window=busiest.window,
        bandwidth_mbit_s=busiest.bandwidth_mbit_s,
        link_mbit_s=link,
        lag_minutes=lag,
        sync_write_ms=sync_ms,
        primary=primary_res,
        write_latency_ms=latencies,
        dr=dr,
        checks=checks,
        notes=notes,
        text=text,
    )


__all__ = [
    "DrSide",
    "ReplicationPlan",
    "ReplicationResult",
    "WindowReplication",
    "async_bandwidth_mbit_s",
    "async_lag_minutes",
    "replication",
    "sync_write_ms",
    "window_write_mb_s",
]
