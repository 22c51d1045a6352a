"""Units and conversions.

Marketed capacity is decimal (1 TB = 10^12 bytes, 1 GB = 10^9 bytes); systems count in binary
(1 GiB = 2^30 bytes, 1 KiB = 1024 bytes). Throughput is decimal MB/s (10^6 bytes/s), as drive and
link datasheets quote it. Names carry their unit: ``capacity_tb``, ``size_kib``, ``latency_ms``.
"""

from __future__ import annotations

KIB = 1024
MIB = 1024**2
GIB = 1024**3
TIB = 1024**4
KB = 1000
MB = 1000**2
GB = 1000**3
TB = 1000**4


def tb_to_tib(tb: float) -> float:
    """Decimal terabytes -> binary tebibytes: ``tb * 10^12 / 2^40`` (1 TB = 0.9095 TiB)."""
    return tb * TB / TIB


def tib_to_tb(tib: float) -> float:
    """Binary tebibytes -> decimal terabytes."""
    return tib * TIB / TB


def gb_to_gib(gb: float) -> float:
    """Decimal gigabytes -> binary gibibytes (a "450 GB" drive holds 419 GiB before right-sizing)."""
    return gb * GB / GIB


def gib_to_gb(gib: float) -> float:
    """Binary gibibytes -> decimal gigabytes."""
    return gib * GIB / GB


def mib_to_gb(mib: float) -> float:
    """Binary mebibytes -> decimal gigabytes (right-sized capacities are often quoted in MiB)."""
    return mib * MIB / GB


def kib_to_mb(kib: float) -> float:
    """Binary kibibytes -> decimal megabytes."""
    return kib * KIB / MB


def transfer_ms(size_kib: float, rate_mb_s: float) -> float:
    """Time to move ``size_kib`` [KiB] at ``rate_mb_s`` [MB/s, decimal]: ``size*1024 / (rate*10^6)`` [ms]."""
    return size_kib * KIB / (rate_mb_s * MB) * 1000.0
