"""The front end of every state (array, flash cache, nodes): cache hit ratios, controller load,
ports and the port part of read latency, with the scalar engine's functions."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from models import cache as cache_model
from models.architecture import (
    full_stripe_reads,
    node_stripes,
    remote_copies,
    spans_nodes,
)
from models.batch.arrays import BoolArray, FloatArray
from models.batch.space import CandidateSpace, family_configuration
from models.batch.tables import Demand, Segments
from models.cache import flash_cache_devices, flash_cache_utilization, flash_reads_served
from models.cache_share import cache_shares_gb
from models.checks import within
from models.cluster import with_nodes
from models.configuration import Configuration, HeadroomTargets
from models.controller import (
    ControllerLoad,
    controller_load,
)
from models.latency import FrontEnd
from models.parameters import EngineParameters
from models.ports import port_utilization, protocol_cpu_multiplier


@dataclass
class _State:
    """Front end of one (array, flash cache, nodes): everything that does not depend on the drives
    (the controllers' CPU does, through the back-end I/Os of each family's layout: per segment)."""

    config: Configuration
    hits: list[list[tuple[float, float]]]  # [window][member] (h_dram, h_flash)
    loads: list[ControllerLoad]  # [window] front-end controller load (no back-end I/Os)
    controller_limit: float
    port_pct: list[float]
    flash_pct: list[float]  # [window] flash cache devices busy; nan without a flash cache
    r_port_ms: list[list[float]]  # [window][member] port response (FrontEnd.time_ms); inf when ports saturate
    ok: list[bool]  # per window: ports within their limit


@dataclass(frozen=True)
class FrontEnds:
    """Per state (:class:`_State`) and window: hit ratios ``[state, member]``, packaging, ports, controller limit and cluster network."""

    states: list[_State]
    st_hd: list[FloatArray]  # [window] [state, member] DRAM hit ratio
    st_hf: list[FloatArray]  # [window] [state, member] flash hit ratio
    st_pack: FloatArray  # [state, 9] packaging figures of the bill
    st_ok: BoolArray
    st_ctrl_limit: FloatArray
    st_port: FloatArray  # [state, window]
    st_flash: FloatArray  # [state, window] flash cache devices busy; nan without a flash cache
    st_net_nodes: FloatArray  # nan: no cluster-network check
    st_net_mb_s: FloatArray


def _state(
    dm: Demand, params: EngineParameters, cfg: Configuration, hits: list[list[tuple[float, float]]]
) -> _State:
    """Ports, the front-end controller load and the port part of latency of one state, with the
    engine's own functions."""
    p = params
    ctrl = cfg.controller
    st = _State(
        config=cfg,
        hits=hits,
        loads=[],
        controller_limit=cfg.headroom.controller_limit_pct(ctrl.ha_mode),
        port_pct=[],
        flash_pct=[],
        r_port_ms=[],
        ok=[],
    )
    port_rate = max(pg.mb_s_per_port for pg in cfg.ports)
    for wi, members in enumerate(dm.members):
        st.loads.append(
            controller_load(
                [(m.workload, m.phase) for m in members],
                hits[wi],
                remote_copies=remote_copies(cfg.architecture),
                stripes=node_stripes(cfg, [m.workload.pool or cfg.pools[0].name for m in members]),
                full_stripe_reads=full_stripe_reads(cfg),
                protocol_multiplier=protocol_cpu_multiplier(cfg.ports),
            )
        )
        mb_s = dm.window_mb_s[wi]
        u_port = port_utilization(mb_s, cfg.ports)
        st.port_pct.append(100 * u_port)
        flash = _flash_pct(cfg, members, hits[wi])
        st.flash_pct.append(flash)
        st.ok.append(
            within(100 * u_port, cfg.headroom.port_max_pct)
            and (math.isnan(flash) or within(flash, cfg.headroom.drive_max_pct))
        )
        front = FrontEnd(
            r_ctrl_ms=0.0,
            port_utilization=u_port,
            port_mb_s=port_rate,
            host_overhead_ms=p.host_overhead_ms,
            cache_hit_ms=ctrl.cache_hit_ms,
            write_ack_ms=ctrl.write_ack_ms,
        )
        st.r_port_ms.append([math.inf if (r := front.time_ms(m.mean_kib)[1]) is None else r for m in members])
    return st


def _flash_pct(cfg: Configuration, members: Sequence[Any], hits: list[tuple[float, float]]) -> float:
    """The flash cache's devices busy [%], as :func:`models.evaluate.evaluate` checks them against
    the drive headroom (:func:`models.cache.flash_cache_utilization`; nan without one)."""
    c = cfg.cache
    devices = flash_cache_devices(c.flash_cache_gb, c.flash_device_gb)
    if devices == 0:
        return math.nan
    served = flash_reads_served([m.phase for m in members], [hf for _, hf in hits])
    return 100 * flash_cache_utilization(served, devices, c.flash_device_read_iops, c.flash_device_read_mb_s)


def _state_configs(space: CandidateSpace, sg: Segments, headroom: HeadroomTargets) -> list[Configuration]:
    """One configuration per state: its first segment's family, its controller as its record
    states it (a family's margin is applied per segment, :mod:`models.batch.work`). What a state
    reads (controllers, ports, caches, packaging, layout) depends on its nodes, not on the drive
    count: a state is its family's configuration at the family's fewest drives, with the state's
    nodes (:func:`models.cluster.with_nodes`, as :func:`build_configuration` sets them), each
    family built once."""
    _, first_seg = np.unique(sg.seg_state, return_index=True)
    built: dict[int, Configuration] = {}
    configs = []
    for s, (_, _, nodes, _) in enumerate(sg.state_keys):
        f = int(sg.seg_family[int(first_seg[s])])
        config = built.get(f)
        if config is None:
            family = space.families[f]
            if family.controller_factor is not None:
                family = replace(family, controller_factor=None)
            config = built[f] = family_configuration(family, int(space.counts[f][0]), headroom)
        if config.cluster is not None and config.cluster.nodes != nodes:
            config = with_nodes(config, nodes)
        configs.append(config)
    return configs


def _hit_ratios(dm: Demand, configs: list[Configuration]) -> list[list[list[tuple[float, float]]]]:
    """Per state, window and member: (h_dram, h_flash), every hit ratio solved at once."""
    # cache shares per state and window, then every hit ratio at once
    share_memo: dict[tuple, int] = {}
    # cache shares depend on the state only through the cache size: once per (window, size)
    shares_memo: dict[tuple[int, float], Any] = {}

    def shares(wi: int, total_gb: float, ws_list: list[float], rr: list[float]) -> Any:
        got = shares_memo.get((wi, total_gb))
        if got is None:
            got = shares_memo[(wi, total_gb)] = cache_shares_gb(total_gb, ws_list, rr)
        return got

    window_rates = [  # per window: each phase's working set and random-read rate
        (
            [m.ws_gb for m in members],
            [m.phase.effective_iops * m.phase.read_pct / 100.0 * m.phase.random_pct / 100.0 for m in members],
        )
        for members in dm.members
    ]
    queries: list[tuple] = []
    slots: list[list[list[int]]] = []  # [state][window][member] -> query index (-1: no working set)
    for cfg in configs:
        ctrl, ccfg = cfg.controller, cfg.cache
        dram_total = ctrl.dram_cache_gb * ctrl.serving
        flash_total = ccfg.flash_cache_gb * (ctrl.serving / ctrl.serving)
        per_window = []
        for wi, (members, (ws_list, rr)) in enumerate(zip(dm.members, window_rates, strict=True)):
            dram_share = shares(wi, dram_total, ws_list, rr)
            both_share = shares(wi, dram_total + flash_total, ws_list, rr)
            ids = []
            for m, ws, d_gb, b_gb in zip(members, ws_list, dram_share, both_share, strict=True):
                if ws <= 0:
                    ids.append(-1)
                    continue
                w = m.workload
                query: tuple = (d_gb, max(0.0, b_gb - d_gb), ws, w.skew, ccfg.exclusive, w.dedupe_ratio)
                query += (ccfg.dram_dedupe_aware, ccfg.dedupe_aware)
                q = share_memo.get(query)
                if q is None:
                    q = share_memo[query] = len(queries)
                    queries.append(query)
                ids.append(q)
            per_window.append(ids)
        slots.append(per_window)
    hits = level_hit_ratios_many(queries)
    return [[[hits[q] if q >= 0 else (0.0, 0.0) for q in ids] for ids in slot] for slot in slots]


def front_ends(
    dm: Demand, space: CandidateSpace, sg: Segments, params: EngineParameters, headroom: HeadroomTargets
) -> FrontEnds:
    """Front-end figures of every state: caches, controllers, ports (see :func:`_state`)."""
    configs = _state_configs(space, sg, headroom)
    sts = [_state(dm, params, cfg, hits) for cfg, hits in zip(configs, _hit_ratios(dm, configs), strict=True)]
    ns = len(sts)

    def table(get: Callable[[_State, int, int], float], wi: int) -> FloatArray:
        cols = len(dm.members[wi])
        values = [[get(st, wi, i) for i in range(cols)] for st in sts]
        return np.asarray(values, dtype=np.float64).reshape(ns, cols)

    nw = len(dm.windows)
    st_hd = [table(lambda st, w, i: st.hits[w][i][0], wi) for wi in range(nw)]
    st_hf = [table(lambda st, w, i: st.hits[w][i][1], wi) for wi in range(nw)]
    pk = [st.config.packaging for st in sts]
    # cluster network (models.architecture.cluster_network): nodes and link rate; nan: no check
    net = [
        (st.config.cluster.nodes, st.config.controller.cluster_network_mb_s)
        if spans_nodes(st.config)
        and st.config.cluster is not None
        and st.config.controller.cluster_network_mb_s
        else (math.nan, math.nan)
        for st in sts
    ]
    return FrontEnds(
        states=sts,
        st_hd=st_hd,
        st_hf=st_hf,
        st_pack=np.asarray(
            [
                [
                    x.drives_in_controller_enclosure,
                    x.drives_per_shelf,
                    x.controller_rack_units,
                    x.shelf_rack_units,
                    x.controller_power_w,
                    x.shelf_power_w,
                    x.controller_price_usd,
                    x.shelf_price_usd,
                    x.flash_cache_price_usd_per_gb,
                ]
                for x in pk
            ],
            dtype=np.float64,
        ).reshape(ns, 9),
        st_ok=np.asarray([all(st.ok) for st in sts], dtype=bool).reshape(ns),
        st_ctrl_limit=np.asarray([st.controller_limit for st in sts], dtype=np.float64),
        st_port=np.asarray([st.port_pct for st in sts], dtype=np.float64).reshape(ns, nw),
        st_flash=np.asarray([st.flash_pct for st in sts], dtype=np.float64).reshape(ns, nw),
        st_net_nodes=np.asarray([n for n, _ in net], dtype=np.float64).reshape(ns),
        st_net_mb_s=np.asarray([r for _, r in net], dtype=np.float64).reshape(ns),
    )


def level_hit_ratios_many(queries: Sequence[tuple]) -> list[tuple[float, float]]:
    """:func:`models.cache.level_hit_ratios` for many caches at once: ``(h_dram, h_flash)`` per query.

    Each query is ``(dram_gb, flash_gb, working_set_gb, skew, exclusive, dedupe_ratio,
    dram_dedupe_aware, flash_dedupe_aware)``. The same formulas (dedupe-aware levels see
    ``W / R``, ``h_flash = H(D' + F') - H(D')``, or ``H(max(D', F')) - H(D')`` if inclusive), with
    every Che solve of one working set and skew done together by :func:`models.cache.hit_ratio_curve`
    (agrees with :func:`models.cache.che_hit_ratio` to ~1e-10).
    """
    prepared = []
    sizes: dict[tuple, set[float]] = {}
    for d, f, ws, skew, exclusive, ratio, dram_aware, flash_aware in queries:
        if ratio > 1.0 and (dram_aware or flash_aware):
            ws = ws / ratio
            d = d if dram_aware else d / ratio
            f = f if flash_aware else f / ratio
        both = d + f if exclusive else max(d, f)
        prepared.append((ws, skew, d, both))
        sizes.setdefault((ws, skew), set()).update((d, both))
    table: dict[tuple, dict[float, float]] = {}
    for (ws, skew), values in sizes.items():
        ordered = sorted(values)
        curve = cache_model.hit_ratio_curve(ordered, ws, skew)
        table[(ws, skew)] = dict(zip(ordered, (float(h) for h in curve), strict=True))
    out = []
    for ws, skew, d, both in prepared:
        h = table[(ws, skew)]
        out.append((h[d], max(0.0, h[both] - h[d])))
    return out
