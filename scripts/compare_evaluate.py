"""Dump evaluate() outputs for many random workloads x configurations, to compare two checkouts.

Each line is one case: the result's JSON and every leaf with its type and repr (exact values and
types), or the error it raised. Random workloads (latency targets, concurrency, reduction,
replication, streams, several per window) run on test configurations (RAID-DP, RAID10, RAID5
without cache, SSD with an endurance rating, a single controller, a tiered pair, two pools with
a back-end bus) and on one configuration per catalog array and scheme, some in a degraded mode or
at another load scale; then every catalog array evaluates every template. Usage::

    git worktree add /tmp/base 224beb0
    python scripts/compare_evaluate.py /tmp/base base.txt 1500
    python scripts/compare_evaluate.py . new.txt 1500
    cmp base.txt new.txt
"""

import random
import sys

sys.path.insert(0, sys.argv[1])
from pathlib import Path  # noqa: E402

from compare_common import walk  # noqa: E402 (beside this script)

from models.base import InputError  # noqa: E402
from models.catalog import build_configuration, load_catalog  # noqa: E402
from models.configuration import Configuration, DrivePool  # noqa: E402
from models.controller import ControllerSpec  # noqa: E402
from models.evaluate import evaluate  # noqa: E402
from models.ports import PortGroup  # noqa: E402
from models.raid import RaidLayout  # noqa: E402
from models.results import DegradedMode  # noqa: E402
from models.tests.conftest import make_config  # noqa: E402
from models.tests.test_evaluate import tiered_config  # noqa: E402
from models.workload import Phase, Replication, Skew, Workload  # noqa: E402

N = int(sys.argv[3]) if len(sys.argv) > 3 else 300
from models.tests import conftest as c  # noqa: E402

hdd = c.hdd15k.__wrapped__()
ssd = c.ssd.__wrapped__()
ssd_e = ssd.model_copy(update={"endurance_dwpd": 1.0, "id": "ssd-e"})
WINDOWS = ["day", "night", "month-end", "backup"]


def skew(rng):
    k = rng.random()
    if k < 0.5:
        return Skew(zipf_alpha=round(rng.uniform(0.3, 1.4), 4))
    if k < 0.85:
        d = round(rng.uniform(5, 40), 3)
        return Skew(io_pct=round(rng.uniform(max(d, 50), 95), 3), data_pct=d)
    return Skew()


def workload(rng, name, pools):
    iops = rng.uniform(100, 30000)
    nwin = rng.randint(1, 4)
    wins = rng.sample(WINDOWS, nwin)
    return Workload(
        name=name,
        capacity_tb=round(rng.uniform(0.2, 20), 3),
        working_set_pct=round(rng.uniform(1, 40), 3),
        skew=skew(rng),
        dedupe_ratio=rng.choice([1.0, 1.0, 1.5, 3.0]),
        compression_ratio=rng.choice([1.0, 1.0, 2.0]),
        replication=rng.choice(
            [
                Replication(),
                Replication(),
                Replication(mode="sync", io_amplification=2.0, sync_latency_ms=0.5),
            ]
        ),
        pool=rng.choice(pools),
        phases=[
            Phase(
                name=f"p{i}",
                window=win,
                iops=round(iops * rng.uniform(0.2, 1.5), 1),
                read_pct=rng.choice([0.0, 100.0, round(rng.uniform(5, 95), 2), round(rng.uniform(5, 95), 2)]),
                random_pct=rng.choice([100.0, round(rng.uniform(0, 100), 2), round(rng.uniform(20, 100), 2)]),
                io_size_kib=rng.choice([4, 8, 16, 32, 64, 256]),
                working_set_gb=round(rng.uniform(5, 600), 2) if rng.random() < 0.3 else None,
                read_latency_target_ms=rng.choice([None, None, round(rng.uniform(0.5, 30), 2)]),
                concurrency=rng.choice([None, None, round(rng.uniform(1, 256), 1)]),
                write_overwrite_pct=rng.choice([0.0, 0.0, round(rng.uniform(0, 60), 1)]),
                sequential_streams=rng.choice([None, None, 1, 4]),
            )
            for i, win in enumerate(wins)
        ],
    )


def two_pools():
    return Configuration(
        name="two",
        controller=ControllerSpec(model="t", count=2, cores=8, dram_cache_gb=32, backend_mb_s=3000),
        ports=[PortGroup(type="10gbe", count=4)],
        pools=[
            DrivePool(name="a", drive=ssd_e, drive_count=12, raid=RaidLayout(scheme="raid6", group_width=6)),
            DrivePool(name="b", drive=hdd, drive_count=40, raid=RaidLayout(scheme="raid10", group_width=2)),
        ],
    )


configs = [
    (make_config(hdd, "raid-dp", 16, 96), [None]),
    (make_config(hdd, "raid-dp", 16, 32), [None]),
    (make_config(hdd, "raid10", 2, 48), [None]),
    (make_config(hdd, "raid5", 8, 24, ctrl={"dram_cache_gb": 0}), [None]),
    (make_config(ssd_e, "raid5", 8, 16), [None]),
    (make_config(ssd, "raid6", 10, 20, ctrl={"dram_cache_gb": 64, "count": 1, "ha_mode": "single"}), [None]),
    (tiered_config(ssd, hdd, 8, 48), ["ssd", "sas", None]),
    (two_pools(), ["a", "b", None]),
]
catalog = load_catalog(Path(sys.argv[1]) / "fixtures")
for aid in sorted(catalog.arrays):
    a = catalog.arrays[aid]
    drives = catalog.drives_for(a)
    for j, option in enumerate(a.raid):
        d = drives[j % len(drives)]
        try:
            configs.append((build_configuration(a, d, option.scheme), [None]))
        except InputError:  # a combination the array does not build
            continue
print("configs", len(configs), file=sys.stderr)

rng = random.Random(2026)
modes = list(DegradedMode)
out = open(sys.argv[2], "w")  # noqa: SIM115 (written to the end of the script)
n = 0
for k in range(N):
    cfg, pools = configs[k % len(configs)] if k < 3 * len(configs) else rng.choice(configs)
    nw = rng.choice([1, 1, 1, 2, 3])
    wls = [workload(rng, f"w{i}", pools) for i in range(nw)]
    kwargs = {}
    r = rng.random()
    if r < 0.25:
        kwargs["degraded"] = rng.choice(modes)
    if rng.random() < 0.2:
        kwargs["load_scale"] = rng.choice([0.5, 2.0, 5.0, 0.0])
    try:
        res = evaluate(wls, cfg, **kwargs)
        line = res.model_dump_json() + "\t" + walk(res)
    except Exception as e:  # noqa: BLE001
        line = "ERR " + type(e).__name__ + " " + str(e)
    out.write(line + "\n")
    n += 1
# every catalog system with every template
for aid in sorted(catalog.arrays):
    a = catalog.arrays[aid]
    for tname in sorted(catalog.templates):
        wl = catalog.templates[tname].workload
        for drive in catalog.drives_for(a)[:2]:
            for option in a.raid:
                try:
                    res = evaluate([wl], build_configuration(a, drive, option.scheme))
                    line = res.model_dump_json() + "\t" + walk(res)
                except Exception as e:  # noqa: BLE001
                    line = "ERR " + type(e).__name__ + " " + str(e)
                out.write(line + "\n")
                n += 1
print("cases", n, file=sys.stderr)
