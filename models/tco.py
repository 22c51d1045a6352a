"""Money over time: the bill priced line by line, discounts, currency, support, energy and rack space;
the total cost of ownership year by year, and the cost per effective TB and per 1,000 IOPS at three
data-reduction ratios side by side.

Nomenclature (every money figure is in the report's currency unless it says USD; the symbols are
the ones in ``docs/nomenclature.md``)::

    L_i    list price of bill line i [USD] = quantity x unit list price (the catalog's prices)
    d_i    discount of line i [%]: its kind's own (line_discount_pct), else the overall discount_pct
    x_fx   exchange rate [currency per USD] = per_base(currency) / per_base(USD) (a reference table:
           the ECB's, base EUR, unless the request gives its own)
    N_i    net price of line i = L_i x (1 - d_i / 100) x x_fx
    K      capital cost = sum N_i (hardware and licences; a line without a price makes K unknown)
    s      support rate [% of the net price K per year]: the request's, else the catalog array's
    Y_s    support years bought (at most the catalog's longest term)
    Sup_k  support in year k = K x s / 100 for k <= Y_s, else 0 (years without support are named)
    P_el   power [W] of the bill; PUE the site's power usage effectiveness (cooling factor);
           e price of energy [currency/kWh]
    E_yr   energy per year = P_el / 1,000 x 8,760 h x PUE x e
    U      rack units; p_U price of rack space [currency per U per month]
    U_yr   rack space per year = U x 12 x p_U
    TCO(y) = K + sum_{k=1..y} (Sup_k + E_yr + U_yr)

The bill's quantities, power and rack units are :func:`models.bill.bill_of_materials`'s (its list
cost is the sum of the priced lines here: one statement of the bill, priced).

Kept as one module (about 830 lines): the priced bill, the year-by-year total and the three
reduction cases share the money inputs and the priced lines. The inputs themselves (commercial
terms, exchange rates, typical ratios, :class:`~models.commercial.MoneyInputs`) are
:mod:`models.commercial`'s.

**Three reduction ratios.** A vendor sizer states the ratio it expects the array to achieve and
sizes the capacity to it; the customer's data may not reduce as claimed. Each case replaces the
ratio every workload states (``dedupe x compression``) by one ratio ``DRR`` and asks the engine's
capacity model (:func:`models.capacity.capacity_result`) whether the configuration still holds the
data at the fill target; when it does not, the pool grows by whole RAID groups (spares, shelves,
power and price follow from :func:`~models.bill.bill_of_materials`) until it does::

    pessimistic  DRR = 1 (no reduction)
    expected     DRR = the typical ratio published for the data type (:data:`EXPECTED_RATIOS`,
                 the low end of the published range: conservative)
    claimed      DRR = the ratio the vendor claims (``claimed_ratio``), else the ratio the
                 workloads state (what the sizing used)

    effective TB           = usable x (logical / physical needed)   (capacity_result)
    cost per effective TB  = TCO_DRR(years) / effective TB
    cost per 1,000 IOPS    = TCO_DRR(years) / (busiest window's front-end IOPS / 1,000)

Only capacity follows the ratio here: the I/O inline reduction saves is priced by the sizing's
stated optimisms (:class:`models.size.Optimism`). Among several configurations (a comparison, a
recommendation) the one with the lowest TCO at each ratio is named, and :func:`ratio_flip` says
when the cheapest at the claimed ratio is no longer the cheapest as the ratio drops.

Errors: a support term beyond the catalog's is an :class:`InputError` at ``support_years``; a
currency without a rate is a validation error at ``currency``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from models.base import InputError, Output
from models.bill import bill_of_materials
from models.capacity import CapacityResult, PoolCapacity, capacity_result, pool_capacity
from models.commercial import (
    ECB_RATES,
    EXPECTED_RATIOS,
    HOURS_PER_YEAR,
    Commercial,
    DataType,
    ExchangeRates,
    Licence,
    LineKind,
    MoneyInputs,
)
from models.configuration import Configuration
from models.explain import Explained, explained, fmt
from models.memo import holds_memo
from models.raid import RaidScheme
from models.results import BillOfMaterials
from models.workload import Workload

if TYPE_CHECKING:
    from models.catalog import Catalog
    from models.recommend import Recommendation
    from models.recommend import RecommendedConfiguration as RecommendedItem


# ---- outputs ---------------------------------------------------------------------------------------


class BillLine(Output):
    """One line of the bill of materials, at list price."""

    kind: LineKind
    description: str
    quantity: float
    unit: str = Field(description="what the quantity counts: each, GB, ports")
    unit_list_usd: float | None = Field(description="list price per unit [USD]; null: the catalog has none")
    included: bool = Field(default=False, description="part of another line's price (no price of its own)")
    power_w: float | None = Field(description="power of the line [W]; null: unknown")
    rack_units: float = Field(description="rack units of the line [U]")
    source: str | None = None


class MoneyLine(BillLine):
    """One line of the priced bill of materials."""

    list_usd: float | None = Field(description="quantity x unit list price [USD]")
    discount_pct: float
    net: float | None = Field(description="list x (1 - discount) x exchange rate [currency]")
    support_per_year: float | None = Field(description="net x support rate [currency per year]")


class YearCost(Output):
    """Cost in one year and the cumulative total to its end [currency]."""

    year: int
    capital: float | None = Field(description="paid in year 1 only")
    support: float | None
    energy: float | None
    rack_space: float
    total: float | None = Field(description="cumulative TCO at the end of this year")


RatioCaseName = Literal["pessimistic", "expected", "claimed"]


class RatioCase(Output):
    """The configuration's cost at one data-reduction ratio (grown to hold the data if it must)."""

    case: RatioCaseName
    label: str = Field(description="e.g. 'pessimistic (no reduction, 1:1)'")
    ratio: float = Field(description="logical / physical of the data [x:1]")
    ratio_source: str
    drives: int = Field(description="drives in RAID groups (excl. spares) of the grown configuration")
    drives_added: int = Field(description="drives added to hold the data at this ratio")
    usable_tb: float
    needed_tb: float = Field(
        description="physical capacity the data needs at this ratio, fill target included"
    )
    holds: bool = Field(
        description="the configuration (grown if needed, within the array's limits) holds the data"
    )
    effective_tb: Explained
    tco: Explained
    cost_per_effective_tb: Explained
    cost_per_1000_iops: Explained
    note: str | None = None


class Tco(Output):
    """Money over ``years``: the priced bill, the yearly costs, the TCO and the three-ratio table."""

    configuration: str
    currency: str
    exchange_rate: Explained
    years: int
    support_years: int
    support_pct_per_year: float
    support_max_years: int
    lines: list[MoneyLine]
    list_usd: float | None = Field(description="sum of the lines' list prices [USD]")
    capital: Explained
    support_per_year: Explained
    energy_per_year: Explained
    rack_space_per_year: Explained
    by_year: list[YearCost]
    total: Explained = Field(description="TCO at the horizon [currency]")
    busiest_window: str
    busiest_iops: float
    ratios: list[RatioCase]
    assumptions: MoneyInputs
    notes: list[str]


class RatioFlip(Output):
    """Which configuration costs least at each ratio, and whether the choice flips as the ratio drops."""

    cheapest: dict[RatioCaseName, str | None] = Field(
        description="the configuration with the lowest TCO at each ratio (null: none priced)"
    )
    flips: bool
    words: str


# ---- the bill, priced ------------------------------------------------------------------------------


def bill_lines(
    cfg: Configuration, pcaps: list[PoolCapacity], bill: BillOfMaterials, commercial: Commercial | None = None
) -> list[BillLine]:
    """The bill of ``cfg`` line by line: controllers, shelves, each pool's drives (spares included),
    flash cache, the controllers' DRAM and front-end ports (included in the controllers' price)
    and the catalog's licences. The priced lines other than licences add up to ``bill.cost_usd``,
    their power to ``bill.power_w`` and their rack units to ``bill.rack_units``."""
    pk = cfg.packaging
    ctl = cfg.controller
    lines = [
        BillLine(
            kind="controllers",
            description=f"{ctl.model}",
            quantity=ctl.count,
            unit="each",
            unit_list_usd=pk.controller_price_usd / ctl.count,
            power_w=pk.controller_power_w,
            rack_units=pk.controller_rack_units,
        )
    ]
    if bill.shelves:
        lines.append(
            BillLine(
                kind="shelves",
                description=f"drive shelf, {pk.drives_per_shelf} drives",
                quantity=bill.shelves,
                unit="each",
                unit_list_usd=pk.shelf_price_usd,
                power_w=bill.shelves * pk.shelf_power_w,
                rack_units=bill.shelves * pk.shelf_rack_units,
            )
        )
    for pool, pc in zip(cfg.pools, pcaps, strict=True):
        count = (pool.drive_count or 0) + pc.spares
        d = pool.drive
        where = f"{pool.name}: " if len(cfg.pools) > 1 else ""
        lines.append(
            BillLine(
                kind="drives",
                description=f"{d.name} ({where}{pool.drive_count} in RAID groups + {pc.spares} spares)",
                quantity=count,
                unit="each",
                unit_list_usd=d.price_usd,
                power_w=None if d.power_w is None else count * d.power_w,
                rack_units=0.0,
                source=d.source,
            )
        )
        for g in pool.other_drives:
            lines.append(
                BillLine(
                    kind="drives",
                    description=f"{g.drive.name} ({where}mixed in)",
                    quantity=g.count,
                    unit="each",
                    unit_list_usd=g.drive.price_usd,
                    power_w=None if g.drive.power_w is None else g.count * g.drive.power_w,
                    rack_units=0.0,
                    source=g.drive.source,
                )
            )
    if cfg.cache.flash_cache_gb > 0:
        lines.append(
            BillLine(
                kind="flash_cache",
                description=f"flash read cache ({cfg.cache.flash_kind.value})",
                quantity=cfg.cache.flash_cache_gb,
                unit="GB",
                unit_list_usd=pk.flash_cache_price_usd_per_gb,
                power_w=0.0,
                rack_units=0.0,
            )
        )
    if ctl.dram_cache_gb > 0:
        lines.append(
            BillLine(
                kind="dram_cache",
                description=f"DRAM read cache, {fmt(ctl.dram_cache_gb)} GB per controller",
                quantity=ctl.dram_cache_gb * ctl.count,
                unit="GB",
                unit_list_usd=0.0,
                included=True,
                power_w=0.0,
                rack_units=0.0,
            )
        )
    for ports in cfg.ports:
        lines.append(
            BillLine(
                kind="ports",
                description=f"{ports.type.value} front-end ports",
                quantity=ports.count,
                unit="ports",
                unit_list_usd=0.0,
                included=True,
                power_w=0.0,
                rack_units=0.0,
            )
        )
    per_unit = {
        "system": (1.0, "each"),
        "controller": (float(ctl.count), "controllers"),
        "drive": (float(bill.drives + bill.spares), "drives"),
        "raw_tb": (sum(pc.raw_tb.value or 0.0 for pc in pcaps), "TB raw"),
    }
    for lic in (commercial or Commercial()).licences:
        qty, unit = per_unit[lic.per]
        lines.append(
            BillLine(
                kind="licences",
                description=lic.name,
                quantity=qty,
                unit=unit,
                unit_list_usd=lic.price_usd,
                power_w=0.0,
                rack_units=0.0,
                source=lic.source,
            )
        )
    return lines


def _money(x: float | None, currency: str) -> str:
    return "unknown" if x is None else f"{fmt(x)} {currency}"


class _Priced:
    """The lines of one configuration priced under ``money``: capital and yearly costs."""

    def __init__(
        self,
        cfg: Configuration,
        pcaps: list[PoolCapacity],
        bill: BillOfMaterials,
        money: MoneyInputs,
        commercial: Commercial,
        rate: float,
        support_pct: float,
    ) -> None:
        cur = money.currency
        self.lines: list[MoneyLine] = []
        for line in bill_lines(cfg, pcaps, bill, commercial):
            disc = 0.0 if line.included else money.discount_for(line.kind)
            list_usd = None if line.unit_list_usd is None else line.quantity * line.unit_list_usd
            net = None if list_usd is None else list_usd * (1.0 - disc / 100.0) * rate
            self.lines.append(
                MoneyLine(
                    **line.model_dump(),
                    list_usd=list_usd,
                    discount_pct=disc,
                    net=net,
                    support_per_year=None if net is None else net * support_pct / 100.0,
                )
            )
        nets = [line.net for line in self.lines]
        self.list_usd = (
            None
            if any(line.list_usd is None for line in self.lines)
            else sum(line.list_usd or 0.0 for line in self.lines)
        )
        self.capital = None if any(n is None for n in nets) else sum(n or 0.0 for n in nets)
        self.support = None if self.capital is None else self.capital * support_pct / 100.0
        kwh = None if bill.power_w is None else bill.power_w / 1000.0 * HOURS_PER_YEAR * money.pue
        self.kwh_per_year = kwh
        self.energy = None if kwh is None else kwh * money.energy_price_per_kwh
        self.rack = bill.rack_units * 12.0 * money.rack_price_per_u_month
        self.power_w = bill.power_w
        self.rack_units = bill.rack_units
        self.currency = cur

    def year(self, k: int, support_years: int) -> tuple[float | None, float | None]:
        """(support, running cost) of year ``k`` (1-based)."""
        support = (self.support if k <= support_years else 0.0) if self.support is not None else None
        if support is None or self.energy is None:
            return support, None
        return support, support + self.energy + self.rack

    def total(self, years: int, support_years: int) -> float | None:
        if self.capital is None:
            return None
        total = self.capital
        for k in range(1, years + 1):
            _, running = self.year(k, support_years)
            if running is None:
                return None
            total += running
        return total


def _tco_text(p: _Priced, money: MoneyInputs) -> str:
    cur = money.currency
    if p.capital is None:
        return "unknown: a part has no list price"
    if p.energy is None:
        return "unknown: a part has no power figure"
    sy = min(money.support_years, money.years)
    return (
        f"TCO = {_money(p.capital, cur)} + {sy} x {_money(p.support, cur)} support + {money.years} x "
        f"({_money(p.energy, cur)} energy + {_money(p.rack, cur)} rack space) = "
        f"{_money(p.total(money.years, money.support_years), cur)}"
    )


TCO_FORMULA = "TCO = K + sum over years (Sup_k + E_yr + U_yr)"


# ---- the three ratios ------------------------------------------------------------------------------


def _step(cfg: Configuration, index: int) -> int:
    """Drives added at a time: a whole RAID group (a replica pool grows by its copies)."""
    raid = cfg.pools[index].raid
    return raid.copies if raid.scheme is RaidScheme.REPLICA else raid.group_width


def _with_drives(cfg: Configuration, index: int, drives: int) -> Configuration:
    pools = list(cfg.pools)
    pools[index] = pools[index].model_copy(update={"drive_count": drives})
    return cfg.model_copy(update={"pools": pools})


def _parts(cfg: Configuration) -> tuple[list[PoolCapacity], BillOfMaterials]:
    counts = {p.name: p.drive_count or 0 for p in cfg.pools}
    pcaps = [pool_capacity(p, counts[p.name], cfg.capacity) for p in cfg.pools]
    return pcaps, bill_of_materials(cfg, counts, pcaps)


MAX_POOL_DRIVES = 100_000
"""Most drives a pool may have (``DrivePool.drive_count``): the growth stops there without an array limit."""


def _drive_limit(cfg: Configuration) -> int:
    """Drives (spares included) the configuration may have: the array's or cluster's limit, else
    :data:`MAX_POOL_DRIVES`."""
    limits = [x for x in (cfg.packaging.max_drives, cfg.cluster.drive_limit if cfg.cluster else None) if x]
    return min([*limits, MAX_POOL_DRIVES])


def _at_ratio(workloads: list[Workload], ratio: float | None) -> list[Workload]:
    """The workloads with their reduction replaced by ``ratio`` (None: as they state it)."""
    if ratio is None:
        return workloads
    return [w.model_copy(update={"dedupe_ratio": ratio, "compression_ratio": 1.0}) for w in workloads]


def _holding(
    cfg: Configuration, index: int, workloads: list[Workload]
) -> tuple[Configuration, list[PoolCapacity], BillOfMaterials, CapacityResult, bool]:
    """``cfg`` with pool ``index`` grown by whole groups until it holds ``workloads`` at the fill target
    (unchanged when it already does); False when the array's drive limit stops it first."""
    fill = cfg.headroom.capacity_max_fill_pct

    def fits(c: Configuration) -> tuple[list[PoolCapacity], BillOfMaterials, CapacityResult]:
        pcaps, bill = _parts(c)
        return pcaps, bill, capacity_result(pcaps, workloads, fill)

    pcaps, bill, cap = fits(cfg)
    if cap.passed:
        return cfg, pcaps, bill, cap, True
    step = _step(cfg, index)
    base = cfg.pools[index].drive_count or 0
    limit = _drive_limit(cfg)
    # grow by doubling, then bisect between the last count that fails and the first that holds
    lo, add = 0, 1
    while True:
        grown = _with_drives(cfg, index, base + add * step)
        pcaps_g, bill_g, cap_g = fits(grown)
        if cap_g.passed:
            break
        if bill_g.drives + bill_g.spares > limit:
            return grown, pcaps_g, bill_g, cap_g, False
        lo, add = add, add * 2
    hi = add
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(_with_drives(cfg, index, base + mid * step))[2].passed:
            hi = mid
        else:
            lo = mid
    grown = _with_drives(cfg, index, base + hi * step)
    pcaps_g, bill_g, cap_g = fits(grown)
    within = bill_g.drives + bill_g.spares <= limit
    return grown, pcaps_g, bill_g, cap_g, within


def _per(total: float | None, amount: float, unit: str, formula: str, what: str, cur: str) -> Explained:
    if total is None or amount <= 0:
        why = "the TCO is unknown" if total is None else f"no {what}"
        return explained(None, unit, formula, f"unknown: {why}")
    value = total / amount
    return explained(value, unit, formula, f"{fmt(total)} {cur} / {fmt(amount)} {what} = {fmt(value)} {unit}")


def _stated_ratio(workloads: list[Workload]) -> float:
    """The workloads' own reduction, capacity-weighted: ``sum logical / sum logical / (d x c)``."""
    logical = sum(w.grown_capacity_tb for w in workloads)
    physical = sum(w.grown_capacity_tb / (w.dedupe_ratio * w.compression_ratio) for w in workloads)
    return logical / physical if physical > 0 else 1.0


def _ratio_case(
    case: RatioCaseName,
    label: str,
    ratio: float,
    source: str,
    workloads_at: list[Workload],
    cfg: Configuration,
    index: int,
    money: MoneyInputs,
    commercial: Commercial,
    rate: float,
    support_pct: float,
    iops: float,
) -> RatioCase:
    cur = money.currency
    grown, pcaps, bill, cap, within = _holding(cfg, index, workloads_at)
    base_drives = cfg.pools[index].drive_count or 0
    drives = grown.pools[index].drive_count or 0
    priced = _Priced(grown, pcaps, bill, money, commercial, rate, support_pct)
    total = priced.total(money.years, money.support_years) if within else None
    note = None
    if not within:
        note = (
            f"does not hold the data within the array's drive limit ({_drive_limit(cfg)} drives, spares "
            "included): more nodes or another array"
        )
    elif drives > base_drives:
        note = (
            f"{drives - base_drives} more drives ({drives} in RAID groups) to hold the data at {fmt(ratio)}:1"
        )
    per_tb = cur + "/TB"
    per_kiops = cur + "/kIOPS"
    effective = cap.effective_tb
    return RatioCase(
        case=case,
        label=label,
        ratio=ratio,
        ratio_source=source,
        drives=drives,
        drives_added=drives - base_drives,
        usable_tb=cap.usable_tb,
        needed_tb=(cap.needed_tb.value or 0.0) / (cfg.headroom.capacity_max_fill_pct / 100.0 or 1.0),
        holds=within,
        effective_tb=effective,
        tco=explained(total, cur, TCO_FORMULA, _tco_text(priced, money) if within else f"unknown: {note}"),
        cost_per_effective_tb=_per(
            total, effective.value or 0.0, per_tb, "TCO / effective TB", "TB effective", cur
        ),
        cost_per_1000_iops=_per(
            total, iops / 1000.0, per_kiops, "TCO / (IOPS / 1,000)", "thousand IOPS", cur
        ),
        note=note,
    )


def ratio_cases(
    workloads: list[Workload],
    cfg: Configuration,
    money: MoneyInputs,
    commercial: Commercial,
    *,
    rate: float,
    support_pct: float,
    iops: float,
    pool_index: int = 0,
) -> list[RatioCase]:
    """The pessimistic, expected and claimed cases (see the module docstring)."""
    typical = EXPECTED_RATIOS[money.data_type]
    if money.claimed_ratio is not None:
        claimed, claimed_source, claimed_wl = (
            money.claimed_ratio,
            "the vendor's claim, as stated",
            _at_ratio(workloads, money.claimed_ratio),
        )
    else:
        claimed = _stated_ratio(workloads)
        claimed_source = "the ratio the workloads state (dedupe x compression), what the sizing used"
        claimed_wl = workloads
    cases = [
        ("pessimistic", "pessimistic (no reduction)", 1.0, "no reduction assumed", _at_ratio(workloads, 1.0)),
        (
            "expected",
            f"expected ({money.data_type.value})",
            typical.ratio,
            typical.source,
            _at_ratio(workloads, typical.ratio),
        ),
        ("claimed", "vendor-claimed", claimed, claimed_source, claimed_wl),
    ]
    return [
        _ratio_case(
            name,  # type: ignore[arg-type]
            f"{label}, {fmt(ratio)}:1",
            ratio,
            source,
            wl,
            cfg,
            pool_index,
            money,
            commercial,
            rate,
            support_pct,
            iops,
        )
        for name, label, ratio, source, wl in cases
    ]


# ---- the orchestrator ------------------------------------------------------------------------------


def busiest_iops(workloads: list[Workload]) -> tuple[str, float]:
    """(window, front-end IOPS) of the busiest window (:func:`models.raid_grid.busiest_window`)."""
    from models.raid_grid import busiest_window  # raid_grid -> size -> (results carrying a Tco)

    return busiest_window(workloads)


@holds_memo
def tco(
    workloads: list[Workload],
    cfg: Configuration,
    money: MoneyInputs | None = None,
    commercial: Commercial | None = None,
    *,
    pool_index: int = 0,
) -> Tco:
    """The money of ``cfg`` (drive counts set) for ``workloads`` under ``money`` (see the module
    docstring). ``commercial`` is the array's terms (default: :class:`Commercial`'s estimate);
    ``pool_index`` names the pool that grows to hold the data at a lower ratio.

    Raises :class:`InputError` at ``support_years`` when more support is asked than the catalog sells.
    """
    m = money or MoneyInputs()
    terms = commercial or Commercial()
    if m.support_years > terms.support_max_years:
        raise InputError(
            "support_years",
            f"{cfg.name}: support is sold for at most {terms.support_max_years} years "
            f"({terms.source}), asked {m.support_years}",
        )
    support_pct = m.support_pct_per_year if m.support_pct_per_year is not None else terms.support_pct_per_year
    cur = m.currency
    rates = m.rates
    rate = rates.per_usd(cur)
    rate_text = (
        "x_fx = 1 (USD)"
        if cur == "USD"
        else f"x_fx = {fmt(rates.per(cur), 6)} {cur} / {fmt(rates.per('USD'), 6)} USD per {rates.base} "
        f"({rates.date}) = {fmt(rate, 6)} {cur}/USD"
    )
    pcaps, bill = _parts(cfg)
    p = _Priced(cfg, pcaps, bill, m, terms, rate, support_pct)
    window, iops = busiest_iops(workloads)
    notes: list[str] = []
    if m.support_years < m.years:
        notes.append(
            f"Years {m.support_years + 1}-{m.years} carry no support contract (support bought for "
            f"{m.support_years} years): price them if the system must stay supported."
        )
    if m.rack_price_per_u_month == 0:
        notes.append("Rack space is not charged (price 0 per U per month).")
    if p.capital is None:
        notes.append("A part has no list price: the capital cost and the TCO are unknown.")
    if p.energy is None:
        notes.append("A part has no power figure: energy and the TCO are unknown.")
    if terms.licences:
        notes.append(
            "Licences are the catalog's list prices: " + "; ".join(lic.name for lic in terms.licences) + "."
        )
    by_year: list[YearCost] = []
    running_total = p.capital
    for k in range(1, m.years + 1):
        support, running = p.year(k, m.support_years)
        if running_total is not None:
            running_total = None if running is None else running_total + running
        by_year.append(
            YearCost(
                year=k,
                capital=p.capital if k == 1 else 0.0,
                support=support,
                energy=p.energy,
                rack_space=p.rack,
                total=running_total,
            )
        )
    kwh = p.kwh_per_year
    cases = ratio_cases(
        workloads, cfg, m, terms, rate=rate, support_pct=support_pct, iops=iops, pool_index=pool_index
    )
    return Tco(
        configuration=cfg.name,
        currency=cur,
        exchange_rate=explained(
            rate, f"{cur}/USD", "x_fx = per base (currency) / per base (USD)", rate_text, source=rates.source
        ),
        years=m.years,
        support_years=m.support_years,
        support_pct_per_year=support_pct,
        support_max_years=terms.support_max_years,
        lines=p.lines,
        list_usd=p.list_usd,
        capital=explained(
            p.capital,
            cur,
            "K = sum over lines of list x (1 - discount) x x_fx",
            "unknown: a part has no list price"
            if p.capital is None
            else "K = ("
            + " + ".join(
                f"{fmt(line.list_usd)} USD x (1 - {fmt(line.discount_pct)}%)"
                for line in p.lines
                if not line.included
            )
            + ")"
            + (f" x {fmt(rate, 6)} {cur}/USD" if cur != "USD" else "")
            + f" = {_money(p.capital, cur)}",
        ),
        support_per_year=explained(
            p.support,
            f"{cur}/year",
            "Sup = K x s",
            f"Sup = {_money(p.capital, cur)} x {fmt(support_pct)}% = {_money(p.support, cur)} a year, "
            f"years 1-{m.support_years}",
            support_pct=support_pct,
        ),
        energy_per_year=explained(
            p.energy,
            f"{cur}/year",
            "E_yr = P_el / 1,000 x 8,760 h x PUE x e",
            "unknown: a part has no power figure"
            if kwh is None
            else f"E_yr = {fmt(p.power_w)} W / 1,000 x 8,760 h x {fmt(m.pue)} x {fmt(m.energy_price_per_kwh)} "
            f"{cur}/kWh = {fmt(kwh)} kWh x {fmt(m.energy_price_per_kwh)} = {_money(p.energy, cur)} a year",
            power_w=p.power_w,
            pue=m.pue,
            price_per_kwh=m.energy_price_per_kwh,
        ),
        rack_space_per_year=explained(
            p.rack,
            f"{cur}/year",
            "U_yr = U x 12 x p_U",
            f"U_yr = {fmt(p.rack_units)} U x 12 months x {fmt(m.rack_price_per_u_month)} {cur} = "
            f"{_money(p.rack, cur)} a year",
            rack_units=p.rack_units,
        ),
        by_year=by_year,
        total=explained(p.total(m.years, m.support_years), cur, TCO_FORMULA, _tco_text(p, m)),
        busiest_window=window,
        busiest_iops=iops,
        ratios=cases,
        assumptions=m,
        notes=notes,
    )


def ratio_flip(items: list[Tco]) -> RatioFlip | None:
    """The configuration with the lowest TCO at each ratio among ``items`` (two or more), and
    whether the cheapest at the claimed ratio stops being the cheapest as the ratio drops."""
    if len(items) < 2:
        return None
    cheapest: dict[RatioCaseName, str | None] = {}
    by_case: dict[str, list[tuple[float, str, RatioCase]]] = {}
    for t in items:
        for c in t.ratios:
            if c.tco.value is not None:
                by_case.setdefault(c.case, []).append((c.tco.value, t.configuration, c))
    for case in ("pessimistic", "expected", "claimed"):
        ranked = sorted(by_case.get(case, []), key=lambda x: x[0])
        cheapest[case] = ranked[0][1] if ranked else None  # type: ignore[index]
    top = cheapest["claimed"]
    lower = [(case, cheapest[case]) for case in ("expected", "pessimistic")]  # type: ignore[index]
    flipped = [(case, name) for case, name in lower if top is not None and name is not None and name != top]
    if top is None:
        return RatioFlip(
            cheapest=cheapest, flips=False, words="No configuration is priced at the claimed ratio."
        )
    if not flipped:
        return RatioFlip(
            cheapest=cheapest,
            flips=False,
            words=f"{top} costs least at every ratio, from the claimed ratio down to no reduction.",
        )
    case, name = flipped[0]
    claimed_case = next(c for t in items if t.configuration == top for c in t.ratios if c.case == "claimed")
    lower_case = next(c for t in items if t.configuration == top for c in t.ratios if c.case == case)
    why = (
        f"; {top} needs {lower_case.drives_added} more drives to hold the data there"
        if lower_case.drives_added
        else ""
    )
    return RatioFlip(
        cheapest=cheapest,
        flips=True,
        words=(
            f"The choice flips as the ratio drops: at the claimed {fmt(claimed_case.ratio)}:1, {top} costs least; "
            f"at the {case} {fmt(lower_case.ratio)}:1, {name} does{why}."
        ),
    )


def price_recommendation(
    rec: Recommendation, workloads: list[Workload], catalog: Catalog, money: MoneyInputs | None = None
) -> Recommendation:
    """``rec`` with the money of each recommended configuration (its array's commercial terms) and
    the choice that flips as the reduction ratio drops, among the configurations returned.

    A configuration on the Pareto front that is also among ``configurations`` gets the same figures;
    the others are priced too. Raises :class:`InputError` at ``support_years`` (see :func:`tco`)."""
    m = money or MoneyInputs()
    priced: dict[int, Tco] = {}

    def price(item: RecommendedItem) -> RecommendedItem:
        key = id(item.configuration)
        if key not in priced:
            array = catalog.arrays.get(item.array_id)
            priced[key] = tco(workloads, item.configuration, m, array.commercial if array else None)
        return item.model_copy(update={"tco": priced[key]})

    configurations = [price(item) for item in rec.configurations]
    front = [price(item) for item in rec.pareto_front]
    flip = ratio_flip([item.tco for item in configurations if item.tco is not None])
    return rec.model_copy(
        update={"configurations": configurations, "pareto_front": front, "ratio_flip": flip}
    )


__all__ = [
    "ECB_RATES",
    "EXPECTED_RATIOS",
    "Commercial",
    "DataType",
    "ExchangeRates",
    "BillLine",
    "Licence",
    "MoneyInputs",
    "MoneyLine",
    "RatioCase",
    "RatioFlip",
    "Tco",
    "YearCost",
    "bill_lines",
    "price_recommendation",
    "ratio_cases",
    "ratio_flip",
    "tco",
]
