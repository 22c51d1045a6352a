"""The front end of a window beside the drives, checked and explained for
:func:`models.evaluate.evaluate`: the controllers' utilization explained, the ports
(``U_port = MB/s / sum(ports x practical MB/s)``), the back-end bus (``U_bus = back-end MB/s /
(bus MB/s x controllers)``) and how long the NVRAM absorbs a write burst."""

from __future__ import annotations

from models.checks import busy_words
from models.configuration import Configuration
from models.controller import ControllerLoad, ControllerSpec, HaMode, backend_bus_pct, utilization_text
from models.explain import Explained, explained, fmt
from models.ports import port_utilization
from models.results import Limit, PoolLoad
from models.workload import Phase, Workload


def controllers_explained(
    cload: ControllerLoad,
    ctrl: ControllerSpec,
    serving: int,
    u_ctrl: float,
    u_fo: float | None,
    clock_words: str | None = None,
) -> tuple[Explained, Explained | None]:
    """The explanations of the controllers' utilization with ``serving`` controllers and after a
    failover (:func:`models.evaluate.evaluate`'s controller checks); ``clock_words``: how the CPU
    costs were scaled for the cores' clock (:func:`models.controller.clock_text`), appended."""
    text = utilization_text("U_ctrl", cload, serving, ctrl.cores, u_ctrl)
    ctrl_exp = explained(
        100 * u_ctrl,
        "%",
        "U_ctrl = sum(ops x CPU cost) x multipliers / (cores x controllers); CPU cost c(f) = c(f0) x f0 / f",
        text if clock_words is None else f"{text}; {clock_words}",
        read_hits=cload.read_hits,
        read_misses=cload.read_misses,
        writes=cload.writes,
        kib_per_s=cload.kib_per_s,
        c_hit_us=ctrl.cpu_us_read_hit,
        c_miss_us=ctrl.cpu_us_read_miss,
        c_write_us=ctrl.cpu_us_write,
        c_kib_us=ctrl.cpu_us_per_kib,
        c_kib_written_us=ctrl.kib_written_us,
        cores=ctrl.cores,
        controllers=serving,
        core_ghz=ctrl.core_ghz,
    )
    if u_fo is None:
        return ctrl_exp, None
    after = ctrl.serving_after_failover
    fo_exp = explained(
        100 * u_fo,
        "%",
        "U_failover = CPU demand / (cores x (controllers - 1))",
        utilization_text("U_failover", cload, after, ctrl.cores, u_fo),
        controllers=after,
    )
    return ctrl_exp, fo_exp


def ports_check(
    members: list[tuple[Workload, Phase]], cfg: Configuration, checks: list[Limit], cross_mb_s: float = 0.0
) -> tuple[float, float]:
    """Front-end MB/s and port utilization (0..1); appends the port check.

    ``cross_mb_s``: traffic between the nodes of a scale-out cluster whose client and cluster
    traffic share the ports (:func:`models.architecture.shares_ports`), added to the front end's.
    """
    mb_s = sum(ph.effective_mb_s for _, ph in members)
    u_port = port_utilization(mb_s + cross_mb_s, cfg.ports)
    checks.append(Limit("ports", 100 * u_port, cfg.headroom.port_max_pct, "%", busy_words("ports")))
    return mb_s, u_port


def ports_explained(mb_s: float, cross_mb_s: float, u_port: float, cfg: Configuration) -> Explained:
    """The explanation of :func:`ports_check`' utilization."""
    port_cap = sum(pg.total_mb_s for pg in cfg.ports)
    if cross_mb_s > 0:
        formula = "U_port = (front-end MB/s + MB/s crossing nodes) / sum(ports x practical MB/s)"
        text = (
            f"U_port = ({fmt(mb_s)} MB/s front end + {fmt(cross_mb_s)} MB/s between nodes on the same "
            f"ports) / {fmt(port_cap)} MB/s = {fmt(100 * u_port)}%"
        )
    else:
        formula = "U_port = MB/s / sum(ports x practical MB/s)"
        text = f"U_port = {fmt(mb_s)} MB/s / {fmt(port_cap)} MB/s = {fmt(100 * u_port)}%"
    port_exp = explained(100 * u_port, "%", formula, text, mb_per_s=mb_s, port_capacity_mb_s=port_cap)
    if cross_mb_s > 0:
        port_exp = port_exp.model_copy(update={"inputs": {**port_exp.inputs, "cross_node_mb_s": cross_mb_s}})
    return port_exp


def backend_bus_check(
    mb_s: float, ctrl: ControllerSpec, serving: int, limit_pct: float, checks: list[Limit]
) -> tuple[float, float, float] | None:
    """Bytes moved to and from the drives (``mb_s``, the pools' back-end MB/s) over the controllers'
    back-end buses (when the controller states one): ``U_bus = sum(pool back-end MB/s) / (bus MB/s
    x controllers)``, checked against the port headroom. Returns (MB/s, bus capacity, U_bus %)."""
    if ctrl.backend_mb_s is None:
        return None
    cap = ctrl.backend_mb_s * serving
    u = backend_bus_pct(mb_s, ctrl.backend_mb_s, serving)
    checks.append(Limit("back-end bus", u, limit_pct, "%", busy_words("back-end bus")))
    return mb_s, cap, u


def backend_bus_explained(mb_s: float, cap: float, u: float, ctrl: ControllerSpec, serving: int) -> Explained:
    """The explanation of :func:`backend_bus_check`' utilization."""
    return explained(
        u,
        "%",
        "U_bus = back-end MB/s / (bus MB/s x controllers)",
        f"U_bus = {fmt(mb_s)} MB/s / ({fmt(ctrl.backend_mb_s)} MB/s x {serving}) = {fmt(u)}%",
        mb_per_s=mb_s,
        bus_mb_s=cap,
    )


def write_burst(
    members: list[tuple[Workload, Phase]], pools: list[PoolLoad], ctrl: ControllerSpec, serving: int
) -> Explained | None:
    """How long the NVRAM absorbs a burst of twice the window's writes.

    Writes are acknowledged from NVRAM (mirrored between the controllers of a pair: half of it holds
    each side's writes) and destaged to the drives, which can take ``x`` times the window's write
    rate beside its reads (:func:`models.pool.destage_capacity`, the least over pools). A burst at
    twice the rate fills it at ``(2 - x) W`` KiB/s: ``T = NVRAM / ((2 - x) W)``; none if x >= 2.
    At x < 1 the drives cannot keep up even without a burst: writes wait for destage (back-pressure).
    """
    w_kib = sum(
        ph.effective_iops * (1 - ph.read_pct / 100) * (1 - ph.write_overwrite_pct / 100) * ph.mean_size_kib
        for _, ph in members
    )
    xs = [pl.destage_capacity_x for pl in pools if pl.destage_capacity_x is not None]
    if w_kib <= 0 or not xs:
        return None
    x = min(xs)
    mirrored = 2.0 if ctrl.ha_mode is not HaMode.SINGLE and ctrl.count > 1 else 1.0
    nvram_kib = ctrl.nvram_mb * serving / mirrored * 1e6 / 1024.0
    excess = (2.0 - x) * w_kib
    seconds = nvram_kib / excess if excess > 0 else None
    return explained(
        seconds,
        "s",
        "T = NVRAM / ((2 - x) W): a burst of twice the writes fills the write cache",
        f"T = {fmt(nvram_kib / 1024)} MiB / ((2 - {fmt(x)}) x {fmt(w_kib / 1024)} MiB/s)"
        + (f" = {fmt(seconds)} s" if seconds is not None else ": the drives destage even twice the writes")
        + (" (the drives cannot keep up now: back-pressure)" if x < 1 else ""),
        destage_x=x,
        nvram_mib=nvram_kib / 1024,
    )
