"""Judge a design in every case it claims (:mod:`models.cases`): the headline verdict.

A design meets only if every window meets its targets healthy, with one drive failed, while it
rebuilds, after a controller (or node) failover and with cold caches after a restart, all at the
growth horizon, and the capacity holds the grown data. A request may relax a case (in every window
or one); the headline then names it ("meets healthy; not sized for a drive failure in month-end").

The load the cases are judged at
    Every workload grown to the horizon as :func:`models.whatif.growth.growth_projection` grows it:
    ``f_i = (1 + g_i / 100)^(M / 12)`` on capacity, IOPS, MB/s and working sets, with ``M`` the
    longest horizon of the workloads in months (``ceil(12 x horizon_years)``). The engine is
    monotone in load and growth rates are >= 0, so the horizon's load is the worst and today's is
    not judged again. No horizon stated, or ``horizon`` relaxed: today's load only.

Each case is one evaluation (:func:`models.evaluate.evaluate`) read window by window:
    healthy and cold-cache   one healthy evaluation with its cold-cache case
                             (:class:`models.results.ColdCacheResult`); capacity is judged here
    drive-failed             ``degraded = drive-failed``
    rebuilding               ``degraded = rebuilding`` (the failed group carries the rebuild stream)
    failover                 ``degraded = controller-failed`` (not applicable to a single controller)

Dominance (used to skip work, never to change a verdict): the rebuilding evaluation differs from
the drive-failed one only in the degraded group's utilization, ``U_rebuild = U_failed +
r_min / media rate >= U_failed``, and every check and the mixed wait are increasing in it; so
where rebuilding meets, so does drive-failed. :func:`meets` (the sizing probe) relies on it;
:func:`judge` (the answer) evaluates both and reports each.

The rebuild time one model gives everywhere (this verdict, a window's failure sentence, Degraded
modes and the report) is :func:`models.pool.failure_result`'s, at the slowest window of the
evaluation it is read from.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from models.base import InputError
from models.cases import (
    CASE_WORDS,
    NOT_SIZED_WORDS,
    Case,
    CaseOutcome,
    CaseStatus,
    Relaxation,
    Verdict,
)
from models.configuration import Configuration
from models.evaluate import DegradedMode, EvaluationResult, evaluate
from models.memo import holds_memo
from models.parameters import EngineParameters
from models.results import WindowResult
from models.whatif.changes import grow_workload
from models.workload import Workload, windows_of

_MODES: dict[Case, DegradedMode] = {
    Case.DRIVE_FAILED: DegradedMode.DRIVE_FAILED,
    Case.REBUILDING: DegradedMode.REBUILDING,
    Case.FAILOVER: DegradedMode.CONTROLLER_FAILED,
}
"""The failure cases and the degraded mode each evaluates in."""

_JUDGED = (Case.HEALTHY, Case.DRIVE_FAILED, Case.REBUILDING, Case.FAILOVER, Case.COLD_CACHE)
"""The cases judged per window, in the order the headline names them."""


def horizon_months(workloads: list[Workload]) -> int | None:
    """The growth horizon [months]: ``ceil(12 x`` the longest ``horizon_years``), None when no
    workload states one or none grows (today's load is then the horizon's)."""
    years = max((w.horizon_years for w in workloads), default=0.0)
    if years <= 0 or all(w.growth_pct_per_year == 0 for w in workloads):
        return None
    return math.ceil(years * 12 - 1e-9)


def grown_workloads(workloads: list[Workload], months: int) -> list[Workload]:
    """Every workload at month ``months``: ``f_i = (1 + g_i / 100)^(months / 12)`` on capacity,
    IOPS, MB/s and working sets (:func:`models.whatif.changes.grow_workload`)."""
    return [
        grow_workload(w, (1.0 + w.growth_pct_per_year / 100.0) ** (months / 12.0), True) for w in workloads
    ]


@dataclass(frozen=True)
class Plan:
    """What a verdict judges: the load points (today's and/or the horizon's workloads, labelled) and,
    per case, the windows it is relaxed in (``None`` in the set: every window)."""

    loads: list[tuple[str, list[Workload]]]
    months: int | None
    relaxed: dict[Case, set[str | None]] = field(default_factory=dict)
    relaxations: list[Relaxation] = field(default_factory=list)

    def checked(self, case: Case, window: str) -> bool:
        got = self.relaxed.get(case, set())
        return None not in got and window not in got

    def any_checked(self, case: Case, windows: Iterable[str]) -> bool:
        return any(self.checked(case, w) for w in windows)


def plan(workloads: list[Workload], relax: list[Relaxation] | None = None) -> Plan:
    """The loads and relaxations of a verdict; a relaxation naming a window no workload has is an
    :class:`InputError` at ``relax.<i>.window``."""
    relax = list(relax or [])
    names = set(windows_of(workloads))
    relaxed: dict[Case, set[str | None]] = {}
    for i, r in enumerate(relax):
        if r.window is not None and r.window not in names:
            raise InputError(f"relax.{i}.window", f"no workload has a window {r.window!r}")
        case = Case(r.case)
        relaxed.setdefault(case, set()).add(None if case is Case.HORIZON else r.window)
    months = None if Case.HORIZON in relaxed else horizon_months(workloads)
    if months is None:
        loads = [("today", workloads)]
    else:  # growth rates are >= 0: the horizon's load is the worst (today's is not judged again)
        loads = [(f"at month {months}", grown_workloads(workloads, months))]
    return Plan(loads, months, relaxed, relax)


@dataclass
class CaseRun:
    """The evaluations of one verdict, each at most once: (case, load label) -> result, or the
    reason the case does not apply."""

    workloads_cfg: Configuration
    params: EngineParameters | None
    explain: bool
    results: dict[tuple[Case, str], EvaluationResult] = field(default_factory=dict)
    not_applicable: dict[Case, str] = field(default_factory=dict)

    def get(self, case: Case, label: str, workloads: list[Workload]) -> EvaluationResult | None:
        key = (case, label)
        if key not in self.results and case not in self.not_applicable:
            mode = _MODES.get(case, DegradedMode.NONE)
            try:
                self.results[key] = evaluate(
                    workloads,
                    self.workloads_cfg,
                    params=self.params,
                    degraded=mode,
                    cold_cache=case is Case.HEALTHY,
                    explain=self.explain,
                )
            except InputError as exc:
                if exc.field != "degraded":
                    raise
                self.not_applicable[case] = exc.reason
        return self.results.get(key)


def _window_passed(case: Case, w: WindowResult) -> bool:
    if case is Case.COLD_CACHE:
        return w.cold_cache is None or w.cold_cache.passed
    return w.passed


Evaluations = dict[tuple[Case, str], EvaluationResult]
"""The unexplained evaluations of one configuration by (case, load label), as :func:`meets` made
them; :func:`judge` reads them again instead of evaluating the same configuration twice."""


Probe = tuple[Case, str, list[Workload]]
"""One evaluation :func:`meets` reads: a case, the load's label and its workloads."""


def probes(workloads: list[Workload], p: Plan) -> list[Probe]:
    """The evaluations :func:`meets` makes, in its order: per load, healthy (with the cold-cache
    case), rebuilding, drive-failed and failover where each is checked in some window; drive-failed
    is left to rebuilding where both are checked (dominance, module docstring)."""
    windows = windows_of(workloads)
    out: list[Probe] = []
    for label, wls in p.loads:
        for case in (Case.HEALTHY, Case.REBUILDING, Case.DRIVE_FAILED, Case.FAILOVER):
            if case is not Case.HEALTHY and not p.any_checked(case, windows):
                continue
            if case is Case.DRIVE_FAILED and all(
                p.checked(Case.REBUILDING, w) or not p.checked(Case.DRIVE_FAILED, w) for w in windows
            ):
                continue  # rebuilding meets wherever drive-failed is checked (dominance)
            out.append((case, label, wls))
    return out


def probe_failing(probe: Probe, run: CaseRun, p: Plan, windows: list[str]) -> tuple[str, list[str]] | None:
    """The first failing check's name and the failing texts of one probe's evaluation (None: it
    meets, or its case does not apply to this configuration)."""
    case, label, wls = probe
    res = run.get(case, label, wls)
    if res is None:
        return None
    return _failing(case, label, res, p, p.any_checked(Case.COLD_CACHE, windows))


@holds_memo
def meets(
    workloads: list[Workload],
    configuration: Configuration,
    p: Plan,
    *,
    params: EngineParameters | None = None,
) -> tuple[bool, Evaluations, str, list[str]]:
    """Whether ``configuration`` meets every case of ``p`` (the sizing probe: unexplained
    evaluations, stops at the first failing case; drive-failed is left to rebuilding where both
    are checked, by dominance). Returns (meets, every evaluation made, the first failing check's
    name with its window and case, the texts of the failing checks)."""
    run = CaseRun(configuration, params, explain=False)
    windows = windows_of(workloads)
    for probe in probes(workloads, p):
        failing = probe_failing(probe, run, p, windows)
        if failing:
            name, texts = failing
            return False, run.results, name, texts
    return True, run.results, "none", []


def _failing(
    case: Case, label: str, res: EvaluationResult, p: Plan, cold: bool
) -> tuple[str, list[str]] | None:
    """The first failing check's name (with window, case and load) and the failing texts of one
    case's evaluation (with the cold-cache case where ``case`` is healthy and ``cold``)."""
    suffix = _suffix(case, label)
    if case is Case.HEALTHY:
        for c in res.checks:
            if not c.passed:
                texts = [c.text for c in res.checks if not c.passed]
                return f"{c.name}{'' if label == 'today' else f' ({label})'}", texts
    for w in res.windows:
        if p.checked(case, w.window) and not w.passed:
            bad = [c for c in w.checks if not c.passed]
            return (
                f"{bad[0].name} ({w.window}{suffix})",
                [f"{w.window}{suffix}: {c.text}" for c in bad],
            )
        if case is Case.HEALTHY and cold and p.checked(Case.COLD_CACHE, w.window):
            cc = w.cold_cache
            if cc is not None and not cc.passed:
                return f"{cc.bottleneck} ({w.window}{_suffix(Case.COLD_CACHE, label)})", [cc.verdict]
    return None


def _suffix(case: Case, label: str) -> str:
    parts = [] if case is Case.HEALTHY else [CASE_WORDS[case]]
    if label != "today":
        parts.append(label)
    return "".join(", " + part for part in parts)


@holds_memo
def judge(
    workloads: list[Workload],
    configuration: Configuration,
    relax: list[Relaxation] | None = None,
    *,
    params: EngineParameters | None = None,
    known: Evaluations | None = None,
) -> Verdict:
    """The verdict of ``configuration`` in every case (:mod:`models.cases`), each window's outcome
    in words, and the headline naming what was relaxed and what fails. ``known``: evaluations of
    this very configuration already made (:func:`meets`), read instead of made again."""
    p = plan(workloads, relax)
    run = CaseRun(configuration, params, explain=False, results=dict(known or {}))
    windows = windows_of(workloads)
    outcomes: list[CaseOutcome] = []
    notes: list[str] = []
    for label, wls in p.loads:
        at = "" if label == "today" else f" ({label})"
        healthy = run.get(Case.HEALTHY, label, wls)
        assert healthy is not None  # healthy always applies
        cap = healthy.checks[0]
        outcomes.append(
            CaseOutcome(
                case=Case.HEALTHY,
                window=None,
                load=label,
                status="meets" if cap.passed else "fails",
                text=f"Capacity{at}: {cap.text}.",
            )
        )
        for case in _JUDGED:
            res = healthy if case in (Case.HEALTHY, Case.COLD_CACHE) else run.get(case, label, wls)
            for name in windows:
                outcomes.append(_outcome(case, name, res, p, run, label))
    for case, reason in run.not_applicable.items():
        notes.append(f"{NOT_SIZED_WORDS[case]} does not apply: {reason}")
    if p.months is None and Case.HORIZON not in p.relaxed:
        notes.append("no workload states a growth horizon (or none grows): judged at today's load")
    passed = all(o.status != "fails" for o in outcomes)
    return Verdict(
        passed=passed,
        headline=_headline(passed, outcomes, p, run),
        horizon_months=p.months,
        cases=outcomes,
        relaxed=p.relaxations,
        notes=notes,
    )


def _outcome(
    case: Case, window: str, res: EvaluationResult | None, p: Plan, run: CaseRun, label: str
) -> CaseOutcome:
    at = "" if label == "today" else f" ({label})"

    def out(status: CaseStatus, text: str) -> CaseOutcome:
        return CaseOutcome(case=case, window=window, load=label, status=status, text=text)

    if not p.checked(case, window):
        return out("relaxed", f"{window}: relaxed by the request.")
    if res is None:
        return out("not applicable", f"{window}: {run.not_applicable.get(case, 'not evaluated')}.")
    w = next(x for x in res.windows if x.window == window)
    if case is Case.COLD_CACHE:
        cc = w.cold_cache
        if cc is None:
            return out(
                "meets",
                f"{window}{at}: cold caches change no hit ratio (no cache, or every working set held).",
            )
        return out("meets" if cc.passed else "fails", _with_at(cc.verdict, window, at))
    text = _with_at(w.verdict, window, at)
    if case in (Case.DRIVE_FAILED, Case.REBUILDING) and w.failure_verdict:
        text += " " + w.failure_verdict[0].upper() + w.failure_verdict[1:]
    return out("meets" if w.passed else "fails", text)


def _with_at(text: str, window: str, at: str) -> str:
    """A window's verdict sentence with the load it was judged at after the window's name."""
    return window + at + text[len(window) :] if at and text.startswith(window) else text


def _headline(passed: bool, outcomes: list[CaseOutcome], p: Plan, run: CaseRun) -> str:
    """``Meets every target healthy, with a drive failed, ...`` or ``Fails ...: <what>``, then what
    was not sized for ("not sized for a drive failure in month-end batch")."""
    judged = [c for c in _JUDGED if any(o.case is c and o.status in ("meets", "fails") for o in outcomes)]
    words = [CASE_WORDS[c] for c in judged]
    if p.months is not None:
        words.append(f"at month {p.months} of growth")
    said = ", ".join(words[:-1]) + (" and " if len(words) > 1 else "") + words[-1]
    if passed:
        head = f"Meets every target {said}"
    else:
        bad = [o for o in outcomes if o.status == "fails"]
        first = bad[0]
        what = f"{first.window} fails" if first.window else "the capacity fails"
        at = "" if first.load == "today" else f" {first.load}"
        more = f" (and {len(bad) - 1} more case(s))" if len(bad) > 1 else ""
        head = f"Does not meet every target: {what} {CASE_WORDS[first.case]}{at}{more}"
    relaxed = _relaxed_words(p)
    return head + (f"; not sized for {relaxed}" if relaxed else "") + "."


def _relaxed_words(p: Plan) -> str:
    parts = []
    for case in (*_JUDGED, Case.HORIZON):
        got = p.relaxed.get(case)
        if not got:
            continue
        if None in got:
            parts.append(NOT_SIZED_WORDS[case])
        else:
            parts.append(f"{NOT_SIZED_WORDS[case]} in {', '.join(sorted(w for w in got if w))}")
    return "; ".join(parts)


def with_verdict(result: EvaluationResult, verdict: Verdict) -> EvaluationResult:
    """``result`` carrying ``verdict``: its ``passed`` is the verdict's (every case), so no result
    reads passed while a case it did not relax fails."""
    return result.model_copy(update={"verdict": verdict, "passed": verdict.passed and result.passed})


@holds_memo
def evaluate_judged(
    workloads: list[Workload],
    configuration: Configuration,
    *,
    params: EngineParameters | None = None,
    degraded: DegradedMode = DegradedMode.NONE,
    relax: list[Relaxation] | None = None,
) -> EvaluationResult:
    """:func:`models.evaluate.evaluate`, and in normal operation (``degraded`` none) with its
    verdict over every case but those ``relax`` names (:func:`judge`), whose ``passed`` it
    carries. One evaluation in one degraded mode is that mode alone (no verdict)."""
    result = evaluate(workloads, configuration, params=params, degraded=degraded)
    if degraded is not DegradedMode.NONE:
        return result
    return with_verdict(result, judge(workloads, configuration, relax, params=params))
