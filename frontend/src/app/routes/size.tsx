import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';

import { ErrorState, FormErrors, Loading, MoneyFields, SelectField, TcoPanel } from '@/components';
import { ConfigurationBuilder, draftToReference, flashCacheSizes, useArrayDetail } from '@/features/configurations';
import {
  CasesFields,
  ConfidenceField,
  hasObserved,
  ObservedPanel,
  preloadResultCharts,
  preloadWhatIfPanel,
  RaidGrid,
  ResultsView,
  runRequest,
  SiteFitPanel,
  useRun,
  WhatIfPanel,
} from '@/features/results';
import type { SaveShare as SaveShareNow } from '@/features/reports';
import { WorkloadsEditor } from '@/features/workloads';
import { ApiError, fieldPath, issuesByField } from '@/lib/api-error';
import { isFullConfiguration } from '@/lib/api-types';
import { preloadable } from '@/lib/preloadable';
import { describePath, fieldErrors } from '@/lib/field-errors';
import { focusFirstInvalid } from '@/lib/focus-invalid';
import { validateRequest } from '@/lib/validate';
import { recentReports } from '@/stores/recent-reports';
import { workflow, useWorkflow, type ConfigDraft, type Run } from '@/stores/workflow';

import { href } from '../routes';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Saving and sharing (the reports feature): shown only with results, so outside the page's first load
 * and fetched ahead with the charts once a run is possible. */
const saveShare = preloadable<Parameters<typeof SaveShareNow>[0]>(() => import('@/features/reports').then((m) => ({ default: m.SaveShare })));
const SaveShare = saveShare.Component;

export default function SizePage() {
  const workloads = useWorkflow((s) => s.workloads);
  const draft = useWorkflow((s) => s.draft);
  const run = useWorkflow((s) => s.run);
  const money = useWorkflow((s) => s.money);
  const relax = useWorkflow((s) => s.relax);
  const confidencePct = useWorkflow((s) => s.confidencePct);
  const outcome = useRun(run);
  const array = useArrayDetail(draft.arrayId);
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  // "what you have now": the configuration host statistics came from (the one above, or another)
  const [statsFrom, setStatsFrom] = useState<'above' | 'other'>('above');
  const [currentDraft, setCurrentDraft] = useState<ConfigDraft | null>(null);
  const focusResults = useRef(false);


  const data = outcome.data;
  useEffect(() => {
    if (!data || !run) return;
    workflow.resolve(
      data.kind === 'size'
        ? { kind: 'size', request: data.request, workloads: run.workloads, configuration: data.configuration }
        : { kind: 'evaluate', request: data.request, workloads: run.workloads, configuration: data.configuration },
    );
    if (focusResults.current) {
      focusResults.current = false;
      resultsHeading.current?.focus();
      resultsHeading.current?.scrollIntoView?.({ block: 'start' });
    }
  }, [data, run]);

  const sizing = draft.driveCount === null;
  const canRun = workloads.length > 0 && draft.arrayId !== '';
  // once a run is possible, the results' charts and what-if code are fetched (outside the first load),
  // so they draw with the answer instead of after a second download
  useEffect(() => {
    if (!canRun) return;
    void preloadResultCharts();
    void preloadWhatIfPanel();
    void saveShare.preload();
  }, [canRun]);
  const next: Run = useMemo(
    () => ({
      kind: sizing ? 'size' : 'evaluate',
      workloads,
      configuration: draftToReference(draft),
      flashCacheOptionsGb: sizing && draft.cacheOptionsGb.length ? draft.cacheOptionsGb : null,
      ...(sizing ? { money } : {}),
      ...(relax.length ? { relax } : {}),
      ...(sizing && confidencePct !== null ? { confidencePct } : {}),
    }),
    [sizing, workloads, draft, money, relax, confidencePct],
  );
  // the API's own field constraints, checked here before any request
  const request = useMemo(() => runRequest(next), [next]);
  const clientIssues = useMemo(() => (canRun ? validateRequest(request.schema, request.body) : []), [canRun, request.schema, request.body]);
  const [attempted, setAttempted] = useState(false);
  const pageRef = useRef<HTMLElement>(null);

  const stale =
    run !== null &&
    (!same(run.workloads, workloads) ||
      !same(run.configuration, next.configuration) ||
      run.kind !== next.kind ||
      !same(run.money, next.money) ||
      !same(run.relax ?? [], next.relax ?? []) ||
      run.confidencePct !== next.confidencePct);
  const apiError = outcome.error instanceof ApiError ? outcome.error : null;
  // the server's field messages are about the inputs it was sent: gone once those inputs change
  const validation = apiError?.isValidation && !stale ? apiError : null;
  const errors = fieldErrors({ ...issuesByField(validation?.issues ?? []), ...issuesByField(clientIssues) });
  const problems = [...clientIssues, ...(validation?.issues ?? [])];

  useEffect(() => {
    if (attempted && clientIssues.length) focusFirstInvalid(pageRef.current);
  }, [attempted, clientIssues.length]);

  function start() {
    if (clientIssues.length) {
      setAttempted(true);
      focusFirstInvalid(pageRef.current);
      return;
    }
    setAttempted(false);
    focusResults.current = true;
    if (run && same(run, next)) void outcome.refetch();
    else workflow.startRun(next);
  }

  const a = array.array;
  const groupWidth = data
    ? isFullConfiguration(data.configuration)
      ? (data.configuration.pools[0]?.raid.group_width ?? 1)
      : (data.configuration.group_width ?? a?.raid.find((r) => r.scheme === (data.configuration as { raid_scheme?: string }).raid_scheme)?.default_width ?? 1)
    : 1;

  // what you have now: the configuration the host statistics came from
  const statsConfiguration = !data
    ? null
    : statsFrom === 'above'
      ? data.configuration
      : currentDraft && currentDraft.arrayId
        ? draftToReference(currentDraft)
        : null;

  return (
    <article className="page size-page" ref={pageRef}>
      <h1>Size</h1>
      <p className="lead">
        Describe the workloads and build a configuration; size it (fewest drives that meet every window) or evaluate a fixed
        drive count. Select any number to see its math.
      </p>

      <section className="step" aria-labelledby="workloads-title">
        <h2 id="workloads-title">Workloads</h2>
        <WorkloadsEditor workloads={workloads} onChange={workflow.setWorkloads} errors={errors.scope('workloads')} />
      </section>

      <ConfigurationBuilder
        draft={draft}
        onChange={workflow.setDraft}
        errors={errors.scope('configuration')}
        cacheOptionErrors={errors.entries().filter(([k]) => k.startsWith('flash_cache_options_gb')).flatMap(([, m]) => m)}
      />

      <CasesFields value={relax} onChange={workflow.setRelax} />

      {sizing ? <ConfidenceField value={confidencePct} onChange={workflow.setConfidencePct} errors={errors.at('confidence_pct')} /> : null}

      {sizing ? <MoneyFields value={money} onChange={workflow.setMoney} errors={errors.scope('money')} /> : null}

      <div className="action-bar" role="region" aria-label="Run">
        <button type="button" className="primary big" disabled={!canRun || outcome.isFetching} onClick={start}>
          {outcome.isFetching ? (sizing ? 'Sizing…' : 'Evaluating…') : sizing ? 'Size it' : 'Evaluate'}
        </button>
        <span className="action-status" aria-live="polite">
          {!canRun ? 'Add a workload and choose an array first.' : null}
          {outcome.isFetching ? 'Asking the engine…' : null}
          {canRun && problems.length
            ? `${problems.length === 1 ? 'One field needs' : `${problems.length} fields need`} a fix first: see the fields marked in red. `
            : null}
          {stale && data && !outcome.isFetching ? 'The inputs changed since these results.' : null}
        </span>
      </div>

      {(attempted && clientIssues.length) || validation ? (
        <FormErrors
          title={validation ? 'The API could not run this' : 'Fix these fields first'}
          messages={problems.map((i) => `${describePath(fieldPath(i.loc), { workloads })}: ${i.msg}`)}
        />
      ) : null}
      {/* an engine error is about the inputs it was sent: gone once they change */}
      {apiError && !validation && !stale ? <ErrorState title="The engine could not run this" error={apiError} onRetry={() => void outcome.refetch()} /> : null}
      {outcome.error && !apiError && !stale ? <ErrorState title="The engine could not run this" error={outcome.error} onRetry={() => void outcome.refetch()} /> : null}

      {outcome.isPending && outcome.fetchStatus === 'fetching' ? <Loading label="Sizing…" /> : null}

      {data && run ? (
        <section className={`step results-step${stale ? ' is-stale' : ''}`} aria-labelledby="results-title" data-stale={stale ? 'true' : 'false'}>
          <h2 id="results-title" ref={resultsHeading} tabIndex={-1}>
            Results: {data.result.configuration}
          </h2>
          {stale ? (
            <p className="notice">
              These results are for the inputs as they were when you last ran them.{' '}
              <button type="button" className="link-button" onClick={start}>
                {sizing ? 'Size again' : 'Evaluate again'}
              </button>
            </p>
          ) : null}
          <ResultsView
            result={data.result}
            sizing={data.sizing}
            workloads={run.workloads}
            configuration={data.configuration}
            packaging={a?.packaging ?? null}
          />
          {data.sizing?.tco ? <TcoPanel tco={data.sizing.tco} /> : null}
          {hasObserved(run.workloads) ? (
            <section className="card observed-step" aria-labelledby="observed-title">
              <h3 id="observed-title">What you have now: host-observed vs predicted latency</h3>
              <p className="muted">
                The imported workloads carry the latency their host measured. Say which system the statistics came from: the model
                evaluates it at the load each window carried and sets its prediction beside the host&apos;s figures.
              </p>
              <SelectField
                label="The statistics came from"
                className="observed-source"
                value={statsFrom}
                onChange={(v) => {
                  setStatsFrom(v as 'above' | 'other');
                  if (v === 'other' && currentDraft === null) setCurrentDraft({ ...draft, driveCount: draft.driveCount ?? 48 });
                }}
                options={[
                  { value: 'above', label: 'The configuration above' },
                  { value: 'other', label: 'Another configuration (what you have now)' },
                ]}
              />
              {statsFrom === 'other' && currentDraft ? (
                <ConfigurationBuilder draft={currentDraft} onChange={setCurrentDraft} errors={fieldErrors(null)} heading="What you have now" />
              ) : null}
              <ObservedPanel workloads={run.workloads} configuration={statsConfiguration} />
              <SiteFitPanel
                workloads={run.workloads}
                configuration={statsConfiguration}
                onUseWorkloads={workflow.setWorkloads}
                onSave={async (fit) => {
                  // the hardware feature's code only when a fit is kept: outside the page's first load
                  const { createHardware } = await import('@/features/hardware');
                  const kept = [await createHardware({ kind: 'controller', spec: fit.controller })];
                  for (const drive of fit.drives) kept.push(await createHardware({ kind: 'drive', spec: drive }));
                  return kept.map((k) => k.name);
                }}
              />
            </section>
          ) : null}
          <RaidGrid
            workloads={run.workloads}
            configuration={data.configuration}
            currentScheme={isFullConfiguration(data.configuration) ? data.configuration.pools[0]?.raid.scheme : data.configuration.raid_scheme}
            renderSave={(inputs) => (
              <Suspense fallback={null}>
                <SaveShare
                  input={{ kind: 'raid-grid', inputs }}
                  defaultName={`RAID grid: ${run.workloads.map((w) => w.name).join(' + ')} on ${data.result.configuration}`.slice(0, 200)}
                  reportHref={href.report}
                  onSaved={recentReports.remember}
                />
              </Suspense>
            )}
          />
          <Suspense fallback={<Loading label="Loading what-if…" />}>
            <WhatIfPanel
              key={outcome.dataUpdatedAt}
              workloads={run.workloads}
              configuration={data.configuration}
              baseline={data.result}
              groupWidth={groupWidth}
              maxDrives={a?.max_drives ?? null}
              flashSizes={a ? flashCacheSizes(a) : []}
            />
          </Suspense>
          <p className="next-step">
            Next: <Link to={href.analyses()}>run the analyses</Link> (growth, sensitivity, maximum workload, ranges, degraded modes) or{' '}
            <Link to={href.compare()}>compare this configuration with another RAID scheme or array</Link>.
          </p>
          <Suspense fallback={<Loading label="Loading save and share…" />}>
            <SaveShare
              key={`save-${outcome.dataUpdatedAt}`}
              input={data.kind === 'size' ? { kind: 'size', inputs: data.request } : { kind: 'evaluate', inputs: data.request }}
              defaultName={`${run.workloads.map((w) => w.name).join(' + ')} on ${data.result.configuration}`.slice(0, 200)}
              reportHref={href.report}
              onSaved={recentReports.remember}
            />
          </Suspense>
        </section>
      ) : null}
    </article>
  );
}
