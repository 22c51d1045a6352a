"""The chance a design meets every target, and sizing to a stated confidence (#33).

The verdict (:mod:`models.verdict`) says whether a design meets every case it claims (healthy, a
drive failed, rebuilding, failover, cold caches, at the growth horizon) at the stated inputs. Beside
it: the share of a seeded Monte Carlo over the inputs nobody measures well and the model's own
error (:class:`models.whatif.uncertainty.Uncertainty`; the API sets ``model_error_factor`` from the
calibration's band for the class of system) that meets every one of those cases.

The samples
    ``samples`` draws of every uncertain input (:func:`models.whatif.uncertainty.draw`: triangular
    over low, expected, high; numpy ``default_rng(seed)``). Sample ``s`` meets if
    :func:`models.verdict.meets` (the sizing probe: every case not relaxed, the horizon's load)
    answers yes for the workloads and configuration with every input at its drawn value
    (:func:`models.whatif.uncertainty.apply_uncertain`). ``chance = meets / samples``.

Bookkeeping that spares evaluations (never changes an answer)
    Each input moves every check one way (the physics is monotone in it): more model error, a
    larger working set or hot-data share, less cache, less skew, a lower full-stripe share, less
    tiering locality or scale-out efficiency, and fewer drives never make a design pass that failed.
    Oriented so that larger is worse (:data:`WORSE_WHEN_HIGHER`), a sample no worse in every input
    than one that meets also meets, and one no better than one that fails also fails. The samples
    are compared on arrays (numpy); the engine evaluates next the undecided sample that splits the
    undecided ones most evenly, and the comparison decides the rest. The same holds for each case
    at each load alone (a *probe*, :func:`models.verdict.probes`): a sample meets once every probe
    meets at a sample no better than it (not necessarily the same one), and a probe known to meet
    at a sample is not evaluated there. Inputs that change nothing for this design are left out of
    the comparison. ``evaluated`` counts the samples the engine judged; a test checks the answer
    against evaluating every sample.

Sizing to a confidence
    The deterministic sizing (:func:`models.size.size`) first; conservative by default, the answer
    never has fewer drives. Then whole groups are added (steps of a quarter, then bisection) until
    ``chance >= confidence``. The same draws at every count; the drive count is one more oriented
    input, so verdicts at one count decide samples at another (more drives never fail where fewer
    met).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from models.base import InputError
from models.cases import Case, Relaxation
from models.configuration import Configuration
from models.evaluate import evaluate
from models.explain import fmt
from models.memo import holds_memo
from models.parameters import EngineParameters
from models.size import SizingResult, size, with_drive_count
from models.verdict import CaseRun, judge, plan, probe_failing, probes, with_verdict
from models.whatif.uncertainty import UNCERTAIN_INPUTS, Confidence, Uncertainty, apply_uncertain, draw
from models.workload import Workload, windows_of

BoolMatrix = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]

WORSE_WHEN_HIGHER: dict[str, bool] = {
    "skew_alpha_delta": False,  # more skew: more cache hits
    "hot_data_factor": True,  # a larger hot share: fewer hits
    "working_set_factor": True,
    "full_stripe_share_delta": False,  # more full stripes: fewer partial-stripe writes
    "cache_factor": False,
    "locality_b_delta": False,  # more locality: more I/O on the fast tier
    "scaling_efficiency": False,
    "model_error_factor": True,  # costs and times x f, ceilings / f
}
"""Each uncertain input's direction: True where a higher value uses more of the design."""

MAX_SAMPLES = 4096


@dataclass
class _Judge:
    """Verdicts of one design over the samples, at drive counts: the oriented points judged so far
    (inputs, then minus the drive count) and, per probe (a case at a load,
    :func:`models.verdict.probes`), the points where it met and where it failed."""

    workloads: list[Workload]
    relax: list[Relaxation] | None
    params: EngineParameters | None
    values: dict[str, FloatArray]
    names: list[str]
    keys: list[tuple[Case, str]]
    met: dict[tuple[Case, str], list[FloatArray]] = field(default_factory=dict)
    failed: dict[tuple[Case, str], list[FloatArray]] = field(default_factory=dict)
    evaluated: int = 0
    evaluations: int = 0

    def points(self, drives: int) -> FloatArray:
        cols = [self.values[n] if WORSE_WHEN_HIGHER[n] else -self.values[n] for n in self.names]
        n = len(next(iter(self.values.values())))
        cols.append(np.full(n, -float(drives)))
        return np.column_stack(cols)

    def judge(
        self, cfg: Configuration, k: int, known: dict[tuple[Case, str], BoolMatrix]
    ) -> tuple[Case, str] | None:
        """Sample ``k`` judged by the engine, probe by probe (those ``known`` to meet there skipped),
        up to the first that fails: its key, or None where every probe meets."""
        values = {name: float(v[k]) for name, v in self.values.items()}
        wl, c, _ = apply_uncertain(self.workloads, cfg, values)
        p = plan(wl, self.relax)
        run = CaseRun(c, self.params, explain=False)
        windows = windows_of(wl)
        self.evaluated += 1
        for probe in probes(wl, p):
            key = (probe[0], probe[1])
            if known[key][k]:
                continue
            self.evaluations += 1
            if probe_failing(probe, run, p, windows) is not None:
                return key
            known[key][k] = True
        return None

    def chance(self, cfg: Configuration, drives: int) -> tuple[int, int]:
        """(samples meeting, samples the engine judged) at ``cfg`` with ``drives`` in the sized pool."""
        x = self.points(drives)
        n = len(x)
        # worse[i, j]: sample i is no better than sample j in any input
        worse: BoolMatrix = np.all(x[:, None, :] >= x[None, :, :], axis=2)
        # per probe: no better than a point where it met, it meets; no worse than one where it
        # failed, the sample fails
        passed: dict[tuple[Case, str], BoolMatrix] = {}
        fails = np.zeros(n, dtype=bool)
        for key in self.keys:
            passed[key] = np.zeros(n, dtype=bool)
            if self.met.get(key):
                pts = np.array(self.met[key])
                passed[key] = np.any(np.all(pts[:, None, :] >= x[None, :, :], axis=2), axis=0)
            if self.failed.get(key):
                pts = np.array(self.failed[key])
                fails |= np.any(np.all(pts[:, None, :] <= x[None, :, :], axis=2), axis=0)
        status = np.full(n, -1, dtype=np.int8)  # -1 undecided, 0 fails, 1 meets
        status[np.all([passed[key] for key in self.keys], axis=0)] = 1
        status[fails] = 0
        open_ = status < 0
        below = (worse & open_[None, :]).sum(axis=1)  # open samples that meet if i meets
        above = (worse & open_[:, None]).sum(axis=0)  # open samples that fail if i fails
        before = self.evaluated
        while open_.any():
            score = np.where(open_, np.minimum(below, above) * (n + 1) + below + above, -1)
            i = int(np.argmax(score))
            had = {key: bool(passed[key][i]) for key in self.keys}
            bad = self.judge(cfg, i, passed)
            for key in self.keys:  # the probes that met at i meet wherever i is no better
                if passed[key][i] and not had[key]:
                    self.met.setdefault(key, []).append(x[i])
                    passed[key] |= worse[i]
            if bad is not None:
                self.failed.setdefault(bad, []).append(x[i])
                fails |= worse[:, i]
            decided = open_ & (fails | np.all([passed[key] for key in self.keys], axis=0))
            status[decided & fails] = 0
            status[decided & ~fails] = 1
            open_ &= ~decided
            below -= worse[:, decided].sum(axis=1)
            above -= worse[decided, :].sum(axis=0)
        return int((status == 1).sum()), self.evaluated - before


def _applicable(workloads: list[Workload], cfg: Configuration, u: Uncertainty) -> list[str]:
    """The inputs whose range moves this design (each alone at its ends changes something)."""
    expected = {name: getattr(u, name).expected for name in UNCERTAIN_INPUTS}
    out = []
    for name in UNCERTAIN_INPUTS:
        r = getattr(u, name)
        if r.low == r.high:
            continue
        if any(
            apply_uncertain(workloads, cfg, {**expected, name: x})[2]
            for x in (r.low, r.high)
            if x != r.expected
        ):
            out.append(name)
    return out


def _judge(
    workloads: list[Workload],
    cfg: Configuration,
    u: Uncertainty,
    samples: int,
    seed: int,
    relax: list[Relaxation] | None,
    params: EngineParameters | None,
) -> _Judge:
    if not workloads:
        raise InputError("workloads", "at least one workload is needed")
    if not 1 <= samples <= MAX_SAMPLES:
        raise InputError("samples", f"must be between 1 and {MAX_SAMPLES}")
    names = _applicable(workloads, cfg, u)
    draws = draw(u, samples, seed)
    expected = {name: np.full(samples, getattr(u, name).expected) for name in UNCERTAIN_INPUTS}
    values = {name: draws[name] if name in names else expected[name] for name in UNCERTAIN_INPUTS}
    keys = [(case, label) for case, label, _ in probes(workloads, plan(workloads, relax))]
    return _Judge(workloads, relax, params, values, names, keys)


def _answer(
    j: _Judge,
    met: int,
    samples: int,
    seed: int,
    u: Uncertainty,
    drives: int | None = None,
    target: float | None = None,
) -> Confidence:
    """The chance ``met / samples`` in words, with what it was judged over."""
    chance = 100.0 * met / samples
    if not j.names:
        inputs = "no uncertain input applies to this design"
    else:
        inputs = ", ".join(UNCERTAIN_INPUTS[n] for n in j.names)
    return Confidence(
        chance_pct=chance,
        samples=samples,
        seed=seed,
        evaluated=j.evaluated,
        uncertainty=u,
        inputs=[UNCERTAIN_INPUTS[n] for n in j.names],
        drive_count=drives,
        target_pct=target,
        text=(
            f"Meets every target in every case judged in {fmt(chance)}% of {samples:,} samples of {inputs} "
            f"({j.evaluated} judged by the engine, the rest by comparison with them)."
        ),
    )


@holds_memo
def confidence(
    workloads: list[Workload],
    configuration: Configuration,
    uncertainty: Uncertainty | None = None,
    *,
    samples: int = 1000,
    seed: int = 0,
    relax: list[Relaxation] | None = None,
    params: EngineParameters | None = None,
) -> Confidence:
    """The chance ``configuration`` meets every case not relaxed over ``uncertainty`` (module docstring)."""
    u = uncertainty or Uncertainty()
    j = _judge(workloads, configuration, u, samples, seed, relax, params)
    met, _ = j.chance(configuration, 0)
    return _answer(j, met, samples, seed, u)


@holds_memo
def size_to_confidence(
    workloads: list[Workload],
    family: Configuration,
    confidence_pct: float,
    uncertainty: Uncertainty | None = None,
    *,
    samples: int = 1000,
    seed: int = 0,
    relax: list[Relaxation] | None = None,
    params: EngineParameters | None = None,
    max_drives: int | None = None,
) -> SizingResult:
    """The fewest drives (whole groups, never fewer than :func:`models.size.size` answers) whose
    chance of meeting every case not relaxed is at least ``confidence_pct`` (module docstring)."""
    if not 0 < confidence_pct < 100:
        raise InputError("confidence_pct", "must be above 0 and below 100 (100% is no sample ever failing)")
    u = uncertainty or Uncertainty()
    base = size(workloads, family, params=params, relax=relax, max_drives=max_drives)
    pool = base.configuration.pools[next(i for i, p in enumerate(family.pools) if p.drive_count is None)]
    index = next(i for i, p in enumerate(family.pools) if p.drive_count is None)
    if not base.feasible:
        raise InputError("configuration", f"no drive count of this family meets the load: {base.explanation}")
    step = pool.raid.copies if pool.raid.scheme.value == "replica" else pool.raid.group_width
    j = _judge(workloads, base.configuration, u, samples, seed, relax, params)
    need = math.ceil(confidence_pct / 100.0 * samples - 1e-9)
    others = sum(p.drive_count or 0 for i, p in enumerate(family.pools) if i != index)
    limit = (max_drives or base.configuration.packaging.max_drives or 4000) - others
    sp = pool.spares
    per = sp.per_drives
    slots = limit - sp.min_spares
    hi_units = (slots if per is None else int(slots * per / (per + 1))) // step
    k0 = base.drive_count // step
    got: dict[int, int] = {}

    def met(k: int) -> int:
        if k not in got:
            got[k] = j.chance(with_drive_count(base.configuration, index, k * step), k * step)[0]
        return got[k]

    lo, hi = k0 - 1, k0
    if met(k0) < need:
        lo, probe = k0, min(hi_units, k0 + max(1, math.ceil(0.25 * k0)))
        while met(probe) < need:
            if probe >= hi_units:
                raise InputError(
                    "confidence_pct",
                    f"no drive count up to {hi_units * step} meets every target in {fmt(confidence_pct)}% of the "
                    f"samples (at {hi_units * step}: {fmt(100 * met(hi_units) / samples)}%)",
                )
            lo, probe = probe, min(hi_units, probe + max(1, math.ceil(0.25 * probe)))
        hi = probe
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if met(mid) >= need:
                hi = mid
            else:
                lo = mid
    drives = hi * step
    conf = _answer(j, met(hi), samples, seed, u, drives, confidence_pct)
    chance = conf.chance_pct
    if drives == base.drive_count:
        note = (
            f" At {drives} drives it meets every target in {fmt(chance)}% of the samples "
            f"(asked: {fmt(confidence_pct)}%)."
        )
        return base.model_copy(update={"explanation": base.explanation + note, "confidence": conf})
    sized = with_drive_count(base.configuration, index, drives)
    res = evaluate(workloads, sized, params=params)
    res = with_verdict(res, judge(workloads, sized, relax, params=params))
    groups = math.ceil(drives / pool.raid.group_width) if pool.raid.scheme.value != "replica" else drives
    note = (
        f" To meet every target in {fmt(confidence_pct)}% of the samples: {drives} drives "
        f"({fmt(chance)}%; {base.drive_count} drives meet at the stated inputs, in "
        f"{fmt(100 * met(k0) / samples)}% of the samples)."
    )
    return base.model_copy(
        update={
            "configuration": sized,
            "result": res,
            "drive_count": drives,
            "groups": groups,
            "binding_constraint": "confidence",
            "explanation": base.explanation + note,
            "evaluations": base.evaluations + j.evaluated + 1,
            "confidence": conf,
        }
    )
