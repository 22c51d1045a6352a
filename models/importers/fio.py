"""fio job files (INI) and fio ``--output-format=json`` results, each as one phase.

Sizes follow fio's rules (``4k`` = 4,096 bytes with the default ``kb_base=1024``; a bare number is
bytes). Several jobs run at once in fio; they are combined into one phase by share of I/Os.
"""

from __future__ import annotations

import json
import re
from typing import Any

from models.importers.common import ImportedPhase, ParseError, merge_sizes

_FIO_USED = {
    "rw",
    "readwrite",
    "rwmixread",
    "rwmixwrite",
    "bs",
    "blocksize",
    "bssplit",
    "bsrange",
    "blocksize_range",
    "iodepth",
    "numjobs",
    "rate_iops",
    "rate",
    "percentage_random",
    "size",
    "filesize",
    "filename",
    "kb_base",
    "name",
}

_RW_MODES: dict[str, tuple[float | None, float]] = {
    # mode: (read share or None = rwmixread, random share)
    "read": (100.0, 0.0),
    "write": (0.0, 0.0),
    "randread": (100.0, 100.0),
    "randwrite": (0.0, 100.0),
    "rw": (None, 0.0),
    "readwrite": (None, 0.0),
    "randrw": (None, 100.0),
}

_SIZE_RE = re.compile(r"^\s*([0-9]*\.?[0-9]+)\s*([a-zA-Z]*)\s*$")


def _fio_bytes(text: str, kb_base: int = 1024) -> float:
    """fio size string -> bytes: ``4k`` = 4,096 (kb_base 1024), ``1m``, ``512`` (bytes), ``4KiB``."""
    m = _SIZE_RE.match(text)
    if not m:
        raise ValueError(f"not a size: {text!r}")
    value, unit = float(m.group(1)), m.group(2).lower()
    if unit in ("", "b"):
        return value
    powers = {"k": 1, "m": 2, "g": 3, "t": 4, "p": 5}
    if unit[0] not in powers or unit not in (unit[0], unit[0] + "b", unit[0] + "ib"):
        raise ValueError(f"unknown size unit in {text!r}")
    base = 1024 if unit.endswith("ib") else kb_base
    return value * base ** powers[unit[0]]


def _fio_bssplit(text: str, kb_base: int) -> list[tuple[float, float]]:
    """``4k/10:64k/50:32k/`` -> [(bytes, pct)]; blank percentages share the remainder equally."""
    entries: list[tuple[float, float | None]] = []
    for part in text.split(":"):
        part = part.strip()
        if not part:
            continue
        size_s, _, pct_s = part.partition("/")
        entries.append((_fio_bytes(size_s, kb_base), float(pct_s) if pct_s.strip() else None))
    given = sum(p for _, p in entries if p is not None)
    blanks = [e for e in entries if e[1] is None]
    if given > 100.0 + 1e-9:
        raise ValueError(f"bssplit percentages exceed 100: {text!r}")
    share = (100.0 - given) / len(blanks) if blanks else 0.0
    return [(s, p if p is not None else share) for s, p in entries]


def _fio_sections(text: str) -> list[tuple[str, dict[str, str], int]]:
    """INI sections in order: (name, options, line number). Options without ``=`` are flags."""
    sections: list[tuple[str, dict[str, str], int]] = []
    current: dict[str, str] | None = None
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith((";", "#")):
            continue
        if line.startswith("["):
            if not line.endswith("]") or len(line) < 3:
                raise ParseError(f"bad section header {line!r}", no)
            current = {}
            sections.append((line[1:-1].strip(), current, no))
            continue
        if current is None:
            raise ParseError("option outside a [section]", no)
        key, eq, value = line.partition("=")
        current[key.strip().lower()] = value.strip() if eq else ""
    return sections


def _fio_caps(value: str, conv: Any) -> tuple[float | None, float | None]:
    """fio per-direction option ``r[,w]``: one value applies to both, ``v,`` reads only, ``,v`` writes only."""
    if "," not in value:
        v = conv(value.strip())
        return v, v
    r, _, w = value.partition(",")
    w = w.split(",")[0]
    return (conv(r.strip()) if r.strip() else None), (conv(w.strip()) if w.strip() else None)


def _capped_total(r_cap: float | None, w_cap: float | None, read_frac: float) -> float | None:
    """Total rate when reads are capped at ``r_cap`` and writes at ``w_cap`` and the mix holds:
    ``min(r_cap / read share, w_cap / write share)`` over the directions that are capped."""
    limits = []
    if r_cap is not None and read_frac > 0:
        limits.append(r_cap / read_frac)
    if w_cap is not None and read_frac < 1:
        limits.append(w_cap / (1.0 - read_frac))
    return min(limits) if limits else None


def _mean(mix: list[tuple[float, float]]) -> float:
    """Mean size of a [(bytes, pct)] mix."""
    return sum(s * p for s, p in mix) / sum(p for _, p in mix)


def _job_phase_parts(opts: dict[str, str], where: str, warnings: list[str]) -> dict[str, Any]:
    """Mix, rates and depth of one fio job's options (global options already merged in)."""
    kb_base = int(opts.get("kb_base", "1024") or 1024)
    rw_full = (opts.get("rw") or opts.get("readwrite") or "read").lower()
    rw, _, suffix = rw_full.partition(":")
    if suffix:
        warnings.append(f"{where}: rw={rw_full}: the ':{suffix}' offset modifier is ignored")
    if rw in ("trim", "randtrim", "trimwrite", "randtrimwrite"):
        raise ParseError(f"{where}: rw={rw} (trim) is not supported")
    if rw not in _RW_MODES:
        raise ParseError(f"{where}: unknown rw mode {rw!r}")
    read_share, random_pct = _RW_MODES[rw]
    if read_share is None:
        if "rwmixread" in opts:
            read_share = float(opts["rwmixread"])
        elif "rwmixwrite" in opts:
            read_share = 100.0 - float(opts["rwmixwrite"])
        else:
            read_share = 50.0
    if random_pct > 0 and "percentage_random" in opts:
        random_pct = float(opts["percentage_random"].split(",")[0])
    if not 0 <= read_share <= 100 or not 0 <= random_pct <= 100:
        raise ParseError(f"{where}: rwmixread / percentage_random must be 0-100")

    # sizes: per direction (fio "read,write" comma form)
    def per_dir(value: str) -> tuple[str, str]:
        r, _, w = value.partition(",")
        return r.strip(), (w.strip() or r.strip())

    read_mix: list[tuple[float, float]]
    write_mix: list[tuple[float, float]]
    if "bssplit" in opts:
        r, w = per_dir(opts["bssplit"])
        read_mix, write_mix = _fio_bssplit(r, kb_base), _fio_bssplit(w, kb_base)
    elif "bsrange" in opts or "blocksize_range" in opts:
        r, w = per_dir(opts.get("bsrange") or opts["blocksize_range"])
        mids = []
        for rng in (r, w):
            lo, _, hi = rng.partition("-")
            mids.append((_fio_bytes(lo, kb_base) + _fio_bytes(hi or lo, kb_base)) / 2.0)
        warnings.append(f"{where}: bsrange approximated by the midpoint of each range")
        read_mix, write_mix = [(mids[0], 100.0)], [(mids[1], 100.0)]
    else:
        r, w = per_dir(opts.get("bs") or opts.get("blocksize") or "4k")
        read_mix, write_mix = [(_fio_bytes(r, kb_base), 100.0)], [(_fio_bytes(w, kb_base), 100.0)]
    if read_mix != write_mix and 0 < read_share < 100:
        warnings.append(f"{where}: read and write sizes differ; the phase mixes them by read/write share")

    numjobs = int(opts.get("numjobs", "1") or 1)
    iodepth = float(opts.get("iodepth", "1") or 1)
    read_frac = read_share / 100.0
    rate_iops = None
    if opts.get("rate_iops"):
        r_cap, w_cap = _fio_caps(opts["rate_iops"], float)
        per_job = _capped_total(r_cap, w_cap, read_frac)
        if per_job is not None:
            rate_iops = per_job * numjobs
            if 0 < read_frac < 1:
                warnings.append(
                    f"{where}: rate_iops caps each direction; the total follows the read/write mix"
                )
    rate_mb = None
    if opts.get("rate"):
        r_cap, w_cap = _fio_caps(opts["rate"], lambda v: _fio_bytes(v, kb_base))
        r_bytes = read_frac * _mean(read_mix)
        w_bytes = (1.0 - read_frac) * _mean(write_mix)
        per_job = _capped_total(r_cap, w_cap, r_bytes / (r_bytes + w_bytes))
        if per_job is not None:
            rate_mb = per_job * numjobs / 1e6
    size_b = None
    size_s = opts.get("size") or opts.get("filesize")
    if size_s and not size_s.endswith("%"):
        size_b = _fio_bytes(size_s, kb_base) * (1 if opts.get("filename") else numjobs)
    return {
        "read": read_share,
        "random": random_pct,
        "read_mix": read_mix,
        "write_mix": write_mix,
        "numjobs": numjobs,
        "qd": iodepth * numjobs,
        "rate_iops": rate_iops,
        "rate_mb": rate_mb,
        "size_b": size_b,
    }


def parse_fio_job(text: str, name: str | None = None) -> ImportedPhase:
    """Read a fio job file (INI) into one phase.

    Used options: ``rw``/``readwrite`` (read, write, randread, randwrite, rw, randrw),
    ``rwmixread``/``rwmixwrite``, ``percentage_random``, ``bs`` (``read,write`` form too),
    ``bssplit``, ``bsrange`` (midpoint), ``iodepth`` and ``numjobs`` (queue depth =
    ``iodepth x numjobs``), ``rate_iops`` / ``rate`` (the phase's rate), ``size``/``filesize``
    (working set; x numjobs unless ``filename`` is shared), ``kb_base``. ``[global]`` options apply
    to the jobs after them. Other options are listed in ``ignored_keys``. Several jobs run at once
    in fio; they are combined weighted by their ``rate_iops`` when all have one, else by numjobs,
    with a warning.
    """
    sections = _fio_sections(text)
    if not sections:
        raise ParseError("no [job] sections found")
    warnings: list[str] = []
    ignored: set[str] = set()
    glob: dict[str, str] = {}
    jobs: list[tuple[str, dict[str, Any]]] = []
    for sec_name, opts, line_no in sections:
        ignored.update(k for k in opts if k not in _FIO_USED)
        if sec_name.lower() == "global":
            glob.update(opts)
            continue
        merged = {**glob, **opts}
        try:
            parts = _job_phase_parts(merged, f"[{sec_name}] (line {line_no})", warnings)
        except ParseError as exc:
            raise ParseError(exc.reason, line_no) from None
        except ValueError as exc:
            raise ParseError(f"[{sec_name}]: {exc}", line_no) from None
        jobs.append((sec_name, parts))
    if not jobs:
        raise ParseError("only [global] sections: no job to import")

    all_rated = all(p["rate_iops"] is not None for _, p in jobs)
    weights = [p["rate_iops"] if all_rated else float(p["numjobs"]) for _, p in jobs]
    if len(jobs) > 1:
        by = "rate_iops" if all_rated else "numjobs"
        warnings.append(f"{len(jobs)} jobs combined into one phase, weighted by {by}")
    wsum = sum(weights)
    if wsum <= 0:
        raise ParseError("jobs have no positive rate_iops or numjobs to weight them")
    read_pct = sum(w * p["read"] for w, (_, p) in zip(weights, jobs, strict=True)) / wsum
    random_pct = sum(w * p["random"] for w, (_, p) in zip(weights, jobs, strict=True)) / wsum
    pairs: list[tuple[float, float]] = []
    for w, (_, p) in zip(weights, jobs, strict=True):
        for size_b, pct in p["read_mix"]:
            pairs.append((size_b / 1024.0, w * p["read"] / 100.0 * pct / 100.0))
        for size_b, pct in p["write_mix"]:
            pairs.append((size_b / 1024.0, w * (100.0 - p["read"]) / 100.0 * pct / 100.0))
    iops = sum(p["rate_iops"] for _, p in jobs) if all_rated else 0.0
    mb_list = [p["rate_mb"] for _, p in jobs]
    mb = (
        sum(m for m in mb_list if m is not None)
        if not all_rated and all(m is not None for m in mb_list)
        else None
    )
    if not all_rated and any(p["rate_iops"] is not None for _, p in jobs):
        warnings.append("only some jobs set rate_iops: no rate imported")
    sizes_b = [p["size_b"] for _, p in jobs]
    ws = sum(sizes_b) / 1e9 if all(s is not None for s in sizes_b) else None
    if ws is None and any(s is not None for s in sizes_b):
        warnings.append("only some jobs set size: no working set imported")
    if iops == 0 and mb is None:
        warnings.append("no rate_iops or rate: the phase has no rate (give one in to_phase)")
    return ImportedPhase(
        name=name or (jobs[0][0] if len(jobs) == 1 else "fio jobs"),
        source_format="fio-job",
        read_pct=read_pct,
        random_pct=random_pct,
        io_sizes=merge_sizes(pairs),
        iops=iops,
        mb_per_s=mb,
        working_set_gb=ws if ws and ws > 0 else None,
        queue_depth=sum(p["qd"] for _, p in jobs),
        ignored_keys=sorted(ignored),
        warnings=warnings,
    )


def _lat_ms(d: dict[str, Any]) -> float | None:
    """Mean total latency of one direction [ms]: ``lat_ns`` (fio 3) or ``lat`` in us (fio 2); clat otherwise."""
    for key, scale in (("lat_ns", 1e-6), ("lat", 1e-3), ("clat_ns", 1e-6), ("clat", 1e-3)):
        v = d.get(key)
        if isinstance(v, dict) and isinstance(v.get("mean"), int | float) and v.get("mean", 0) > 0:
            return float(v["mean"]) * scale
    return None


def parse_fio_json(text: str, name: str | None = None) -> ImportedPhase:
    """Read a fio ``--output-format=json`` result into a phase with the measured rate.

    ``iops`` = sum over jobs of read + write IOPS; read % = read IOPS / total; mean size per
    direction = ``io_bytes / total_ios`` (else ``bw_bytes / iops``, else ``bw`` KiB/s x 1024 /
    iops) [bytes -> KiB]; ``mb_per_s`` = total bytes/s / 10^6. Mean latencies (``lat_ns``, else
    ``clat_ns``; fio 2's ``lat``/``clat`` in us) weighted by IOPS are kept as
    ``measured_*_latency_ms``. Random % and queue depth come from the job options when present.
    Text before the first ``{`` (fio's own messages) is skipped.
    """
    start = text.find("{")
    if start < 0:
        raise ParseError("no JSON object found")
    try:
        doc = json.loads(text[start:])
    except json.JSONDecodeError as exc:
        line = text[:start].count("\n") + exc.lineno
        raise ParseError(f"invalid JSON: {exc.msg}", line) from None
    jobs = doc.get("jobs") if isinstance(doc, dict) else None
    if not isinstance(jobs, list) or not jobs:
        raise ParseError("no 'jobs' in the fio JSON result")
    warnings: list[str] = []
    glob = {str(k).lower(): str(v) for k, v in (doc.get("global options") or {}).items()}
    tot = {"read": [0.0, 0.0, 0.0], "write": [0.0, 0.0, 0.0]}  # iops, bytes/s, iops x latency
    rnd_w: list[tuple[float, float]] = []
    qd = 0.0
    for i, job in enumerate(jobs):
        if not isinstance(job, dict):
            raise ParseError(f"jobs[{i}] is not an object")
        job_iops = 0.0
        for d in ("read", "write"):
            part = job.get(d) or {}
            iops = float(part.get("iops", 0.0) or 0.0)
            if iops <= 0:
                continue
            if part.get("total_ios") and part.get("io_bytes"):
                bps = float(part["io_bytes"]) / float(part["total_ios"]) * iops
            elif part.get("bw_bytes"):
                bps = float(part["bw_bytes"])
            elif part.get("bw"):
                bps = float(part["bw"]) * 1024.0
            else:
                raise ParseError(f"jobs[{i}].{d}: no io_bytes/total_ios or bw to derive the I/O size")
            lat = _lat_ms(part)
            if lat is None:
                warnings.append(f"jobs[{i}].{d}: no mean latency in the result")
            tot[d][0] += iops
            tot[d][1] += bps
            tot[d][2] += iops * (lat or 0.0)
            job_iops += iops
        opts = {**glob, **{str(k).lower(): str(v) for k, v in (job.get("job options") or {}).items()}}
        rw = (opts.get("rw") or opts.get("readwrite") or "").partition(":")[0].lower()
        if rw in _RW_MODES:
            rnd = _RW_MODES[rw][1]
            if rnd > 0 and "percentage_random" in opts:
                rnd = float(opts["percentage_random"].split(",")[0])
            rnd_w.append((job_iops, rnd))
        elif job_iops > 0:
            warnings.append(f"jobs[{i}]: no rw option in the result: random % assumed 100")
            rnd_w.append((job_iops, 100.0))
        depth = float(opts.get("iodepth", "1") or 1)
        if "group_reporting" in opts:  # one entry stands for all numjobs clones
            depth *= float(opts.get("numjobs", "1") or 1)
        qd += depth
    total = tot["read"][0] + tot["write"][0]
    if total <= 0:
        raise ParseError("the result has no read or write I/O")
    pairs = []
    for d in ("read", "write"):
        iops, bps, _ = tot[d]
        if iops > 0:
            pairs.append((bps / iops / 1024.0, iops))
    w_rnd = sum(w for w, _ in rnd_w)
    random_pct = sum(w * r for w, r in rnd_w) / w_rnd if w_rnd > 0 else 100.0
    r_lat = tot["read"][2] / tot["read"][0] if tot["read"][0] > 0 and tot["read"][2] > 0 else None
    w_lat = tot["write"][2] / tot["write"][0] if tot["write"][0] > 0 and tot["write"][2] > 0 else None
    return ImportedPhase(
        name=name or str(jobs[0].get("jobname") or "fio result"),
        source_format="fio-json",
        read_pct=tot["read"][0] / total * 100.0,
        random_pct=random_pct,
        io_sizes=merge_sizes(pairs),
        iops=total,
        mb_per_s=(tot["read"][1] + tot["write"][1]) / 1e6,
        queue_depth=qd if qd > 0 else None,
        measured_read_latency_ms=r_lat,
        measured_write_latency_ms=w_lat,
        warnings=warnings,
    )
