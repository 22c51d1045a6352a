"""The money a report assumes and the catalog's commercial terms: licences and support terms
(:class:`Commercial`), exchange rates (:class:`ExchangeRates`, the ECB's reference table), the
typical data-reduction ratio of each data type (:data:`EXPECTED_RATIOS`) and the request's money
inputs (:class:`MoneyInputs`). :mod:`models.tco` prices the bill and the years with them.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, Self

from pydantic import Field, ValidationInfo, field_validator, model_validator

from models.base import Frozen, NonNegFloat, Output, PositiveFloat

HOURS_PER_YEAR = 8760.0
MAX_YEARS = 10

# ---- the catalog's commercial terms ----------------------------------------------------------------

LicenceUnit = Literal["system", "controller", "drive", "raw_tb"]


class Licence(Frozen):
    """A software licence sold with an array, priced per system, controller, drive or raw TB."""

    name: str = Field(min_length=1, max_length=120)
    price_usd: NonNegFloat = Field(description="list price per unit [USD]")
    per: LicenceUnit = "system"
    source: str = Field(min_length=1)


DEFAULT_SUPPORT_MAX_YEARS = 5
DEFAULT_SUPPORT_PCT_PER_YEAR = 15.0
_COMMERCIAL_ESTIMATE = (
    "estimate: support sold for up to 5 years with a new system at 15% of the net price a year "
    "(no published figure for this array)"
)


class Commercial(Frozen):
    """An array's commercial terms: how long support is sold for, its yearly rate, licences."""

    support_max_years: int = Field(
        default=DEFAULT_SUPPORT_MAX_YEARS, ge=0, le=MAX_YEARS, description="longest support term sold [years]"
    )
    support_pct_per_year: float = Field(
        default=DEFAULT_SUPPORT_PCT_PER_YEAR,
        ge=0.0,
        le=100.0,
        description="support per year [% of net price]",
    )
    licences: list[Licence] = Field(default_factory=list, max_length=16)
    source: str = Field(default=_COMMERCIAL_ESTIMATE, min_length=1)


# ---- the money a report assumes --------------------------------------------------------------------


class ExchangeRates(Frozen):
    """Units of each currency per unit of ``base`` on ``date`` (a reference table)."""

    base: str = Field(default="EUR", pattern=r"^[A-Z]{3}$")
    date: str = Field(min_length=1, max_length=40)
    source: str = Field(min_length=1, max_length=400)
    per_base: dict[str, PositiveFloat] = Field(min_length=1, max_length=200)

    @field_validator("per_base")
    @classmethod
    def _codes(cls, value: dict[str, float]) -> dict[str, float]:
        bad = [code for code in value if not (len(code) == 3 and code.isascii() and code.isupper())]
        if bad:
            raise ValueError(f"currency codes are three capital letters (ISO 4217): {', '.join(bad)}")
        return value

    @model_validator(mode="after")
    def _has_usd(self) -> Self:
        if "USD" not in self.currencies:
            raise ValueError("the table needs a USD rate: catalog prices are in USD")
        return self

    @property
    def currencies(self) -> set[str]:
        return {self.base, *self.per_base}

    def per(self, currency: str) -> float:
        return 1.0 if currency == self.base else self.per_base[currency]

    def per_usd(self, currency: str) -> float:
        """Units of ``currency`` per USD: ``per_base(currency) / per_base(USD)``."""
        return self.per(currency) / self.per("USD")


ECB_RATES = ExchangeRates(
    base="EUR",
    date="2025-02-28",
    source="[ecb-reference-rates] euro foreign exchange reference rates of 28 February 2025",
    per_base={
        "USD": 1.0411,
        "JPY": 156.96,
        "GBP": 0.82608,
        "CHF": 0.9394,
        "SEK": 11.1880,
        "NOK": 11.7245,
        "DKK": 7.4583,
        "PLN": 4.1503,
        "CZK": 25.029,
        "HUF": 399.50,
        "AUD": 1.6741,
        "CAD": 1.5019,
        "NZD": 1.8579,
        "CNY": 7.5782,
        "HKD": 8.0980,
        "INR": 90.9710,
        "KRW": 1519.92,
        "SGD": 1.4037,
        "BRL": 6.0712,
        "MXN": 21.2191,
        "ZAR": 19.1917,
    },
)
"""The default rate table: the ECB's reference rates of one day (dated; state your own for a quote)."""


class DataType(StrEnum):
    """What the data is, for the reduction ratio to expect."""

    MIXED = "mixed"
    FILE_SHARES = "file-shares"
    USER_DOCUMENTS = "user-documents"
    SOFTWARE = "software-deployment"
    VIRTUAL_DESKTOPS = "virtual-desktops"
    DATABASE = "database"
    MEDIA_OR_ENCRYPTED = "media-or-encrypted"


class TypicalRatio(Output):
    ratio: float
    source: str


def _saved(pct: float) -> float:
    """Reduction ratio of a space saving of ``pct`` %: ``1 / (1 - pct / 100)``."""
    return 1.0 / (1.0 - pct / 100.0)


EXPECTED_RATIOS: dict[DataType, TypicalRatio] = {
    DataType.MIXED: TypicalRatio(
        ratio=_saved(50.0),
        source="general file shares (all content types) save 50-60% [ms-dedup-overview]; low end: 1 / (1 - 0.5)",
    ),
    DataType.FILE_SHARES: TypicalRatio(
        ratio=_saved(50.0),
        source="general file shares save 50-60% [ms-dedup-overview]; low end: 1 / (1 - 0.5)",
    ),
    DataType.USER_DOCUMENTS: TypicalRatio(
        ratio=_saved(30.0),
        source="user documents (office files, photos, music, videos) save 30-50% [ms-dedup-overview]; "
        "low end: 1 / (1 - 0.3)",
    ),
    DataType.SOFTWARE: TypicalRatio(
        ratio=_saved(70.0),
        source="deployment shares (binaries, cab files, symbols) save 70-80% [ms-dedup-overview]; "
        "low end: 1 / (1 - 0.7)",
    ),
    DataType.VIRTUAL_DESKTOPS: TypicalRatio(
        ratio=_saved(80.0),
        source="virtualization libraries (ISOs, virtual hard disks) save 80-95% [ms-dedup-overview]; "
        "low end: 1 / (1 - 0.8)",
    ),
    DataType.DATABASE: TypicalRatio(
        ratio=2.0,
        source="estimate: structured databases deduplicate poorly [techtarget-dedupe-data-types], so "
        "compression alone, taken at 2:1, below the 3:1-5:1 quoted for data-warehouse table "
        "compression [oracle-table-compression]",
    ),
    DataType.MEDIA_OR_ENCRYPTED: TypicalRatio(
        ratio=1.0,
        source="compressed media and encrypted data do not reduce further "
        "[techtarget-dedupe-data-types][krekoukias-capacity-guarantees]",
    ),
}
"""Typical data-reduction ratios by data type (the low end of each published range)."""

LineKind = Literal["controllers", "shelves", "drives", "flash_cache", "dram_cache", "ports", "licences"]
DiscountKind = Literal["controllers", "shelves", "drives", "flash_cache", "licences"]

DEFAULT_ENERGY_PRICE = 0.15
DEFAULT_PUE = 1.58


class MoneyInputs(Frozen):
    """What the money figures assume: currency, discounts, support, energy, rack space, the horizon
    and the data type (for the expected reduction ratio). Prices of energy and rack space are in
    ``currency``."""

    exchange_rates: ExchangeRates | None = Field(
        default=None,
        description="units of each currency per unit of base; null: the ECB's reference rates of 2025-02-28 "
        "(ECB_RATES, dated: state your own for a quote)",
    )
    currency: str = Field(default="USD", pattern=r"^[A-Z]{3}$", description="ISO 4217 code")
    discount_pct: float = Field(default=0.0, ge=0.0, lt=100.0, description="off list, every line [%]")
    line_discount_pct: dict[DiscountKind, float] = Field(
        default_factory=dict, description="off list for one kind of line, instead of discount_pct [%]"
    )
    years: int = Field(default=5, ge=1, le=MAX_YEARS, description="TCO horizon [years]")
    support_years: int = Field(default=3, ge=0, le=MAX_YEARS, description="support bought [years]")
    support_pct_per_year: float | None = Field(
        default=None, ge=0.0, le=100.0, description="support per year [% of net price]; null: the catalog's"
    )
    energy_price_per_kwh: float = Field(
        default=DEFAULT_ENERGY_PRICE,
        ge=0.0,
        le=100.0,
        description="price of energy [currency/kWh] (estimate)",
    )
    pue: float = Field(
        default=DEFAULT_PUE,
        ge=1.0,
        le=4.0,
        description="power usage effectiveness: site power / IT power (cooling factor); "
        "default the 2023 survey average [uptime-survey-2023]",
    )
    rack_price_per_u_month: float = Field(
        default=0.0, ge=0.0, le=1e6, description="rack space [currency per U per month]; 0: not charged"
    )
    data_type: DataType = Field(default=DataType.MIXED, description="for the expected reduction ratio")
    claimed_ratio: float | None = Field(
        default=None,
        ge=1.0,
        le=100.0,
        description="the reduction the vendor claims; null: the workloads' own",
    )

    @field_validator("currency")
    @classmethod
    def _has_rate(cls, value: str, info: ValidationInfo) -> str:
        rates = info.data.get("exchange_rates") or ECB_RATES
        if isinstance(rates, ExchangeRates) and value not in rates.currencies:
            have = ", ".join(sorted(rates.currencies))
            raise ValueError(f"no exchange rate for {value} in the table of {rates.date} (rates for: {have})")
        return value

    @field_validator("line_discount_pct")
    @classmethod
    def _discounts(cls, value: dict[str, float]) -> dict[str, float]:
        for kind, pct in value.items():
            if not 0.0 <= pct < 100.0:
                raise ValueError(f"the discount on {kind} must be at least 0 and below 100 %, got {pct}")
        return value

    @property
    def rates(self) -> ExchangeRates:
        """The rate table in force: the given one, else :data:`ECB_RATES`."""
        return self.exchange_rates or ECB_RATES

    def discount_for(self, kind: str) -> float:
        return self.line_discount_pct.get(kind, self.discount_pct)  # type: ignore[call-overload]
