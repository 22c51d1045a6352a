import { Suspense } from 'react';
import { Link } from 'react-router';

import { ErrorState, FormErrors, Loading, MoneyFields, TcoCompare } from '@/components';
import { columnLabels, CompareCurves, CompareTable, SchemeCompare, useCompare, type SchemeChoice } from '@/features/compare';
import { ConfigurationBuilder, draftToReference, useArrayDetail, useRaidSchemes } from '@/features/configurations';
import { SaveShare } from '@/features/reports';
import { ApiError, fieldPath } from '@/lib/api-error';
import { isFullConfiguration, type ConfigurationInput, type Relaxation } from '@/lib/api-types';
import { describePath, fieldErrors } from '@/lib/field-errors';
import { recentReports } from '@/stores/recent-reports';
import { workflow, useWorkflow } from '@/stores/workflow';

import { href } from '../routes';

const MAX_CONFIGURATIONS = 8;
const NO_RELAX: Relaxation[] = [];

/** The configuration with its drive count open, so the comparison sizes it. */
function asFamily(c: ConfigurationInput): ConfigurationInput {
  return isFullConfiguration(c) ? { ...c, pools: c.pools.map((p) => ({ ...p, drive_count: null })) } : { ...c, drive_count: null };
}

function schemeOf(c: ConfigurationInput): string {
  return isFullConfiguration(c) ? (c.pools[0]?.raid.scheme ?? '') : (c.raid_scheme ?? '');
}

export default function ComparePage() {
  const resolved = useWorkflow((s) => s.resolved);
  const request = useWorkflow((s) => s.compare);
  const drafts = useWorkflow((s) => s.compareDrafts);
  const draft = useWorkflow((s) => s.draft);
  const money = useWorkflow((s) => s.money);
  // the cases the result was told to let go: a comparison judges every column the same way
  const relax = useWorkflow((s) => s.resolved?.request.relax ?? NO_RELAX);
  const schemes = useRaidSchemes();
  const baseArrayId = resolved ? (isFullConfiguration(resolved.configuration) ? (resolved.configuration.array_id ?? '') : resolved.configuration.array_id) : '';
  const baseArray = useArrayDetail(baseArrayId);
  const compare = useCompare(request);
  const error = compare.error instanceof ApiError ? compare.error : null;
  const errors = fieldErrors(error?.isValidation ? error.fieldErrors : null);

  if (!resolved) {
    return (
      <article className="page">
        <h1>Compare</h1>
        <p className="empty">
          Nothing to compare yet: <Link to={href.size()}>size or evaluate a configuration</Link> first; its workloads and
          configuration are the starting point here.
        </p>
      </article>
    );
  }

  const { workloads, configuration } = resolved;
  const current = schemeOf(configuration);
  const sameWorkloads = request !== null && JSON.stringify(request.workloads) === JSON.stringify(workloads);

  function compareSchemes({ schemes: list, sizeEach, unsupported }: SchemeChoice) {
    workflow.setCompare({
      workloads,
      base: sizeEach ? asFamily(configuration) : configuration,
      schemes: list,
      degraded: 'none',
      calibration_margin: 'pessimistic',
      unsupported,
      peer_array_id: 'generic',
      money,
      relax,
    });
  }

  function compareConfigurations() {
    workflow.setCompare({
      workloads,
      configurations: [configuration, ...drafts.map(draftToReference)],
      degraded: 'none',
      calibration_margin: 'pessimistic',
      money,
      relax,
    });
  }

  return (
    <article className="page compare-page">
      <h1>Compare</h1>
      <p className="lead">
        The workloads of <strong>{workloads.map((w) => w.name).join(', ')}</strong> on{' '}
        <strong>{isFullConfiguration(configuration) ? configuration.name : (configuration.name ?? configuration.array_id)}</strong>, against
        other RAID schemes or other configurations.
      </p>

      <MoneyFields value={money} onChange={workflow.setMoney} errors={errors.scope('money')} />

      <section className="card" aria-labelledby="schemes-title">
        <h2 id="schemes-title">RAID schemes</h2>
        {schemes.isError ? <ErrorState title="The RAID schemes could not be loaded" error={schemes.error} /> : null}
        <SchemeCompare
          key={`${baseArrayId}:${current}`}
          schemes={schemes.data?.raid_schemes ?? []}
          hypotheticalLabel={schemes.data?.hypothetical_label ?? ''}
          offered={baseArray.array ? baseArray.array.raid.map((r) => r.scheme) : (schemes.data?.raid_schemes ?? []).map((r) => r.scheme)}
          arrayModel={baseArray.array?.model ?? 'array'}
          current={current}
          onCompare={compareSchemes}
          pending={compare.isFetching}
          disabled={!schemes.data || (baseArrayId !== '' && !baseArray.array && !baseArray.isError)}
        />
      </section>

      <section className="card compare-drafts" aria-labelledby="configs-title">
        <h2 id="configs-title">Configurations</h2>
        <p className="muted">
          The first column is the configuration from Size; add up to {MAX_CONFIGURATIONS - 1} more (an empty drive count sizes
          it).
        </p>
        {drafts.map((d, i) => (
          <ConfigurationBuilder
            key={i}
            heading={`Configuration ${i + 2}`}
            actions={
              <button type="button" className="link-button" onClick={() => workflow.setCompareDrafts(drafts.filter((_, j) => j !== i))}>
                Remove configuration {i + 2}
              </button>
            }
            draft={d}
            onChange={(next) => workflow.setCompareDrafts(drafts.map((x, j) => (j === i ? next : x)))}
            errors={errors.scope(`configurations.${i + 1}`)}
          />
        ))}
        <div className="row-actions">
          <button
            type="button"
            disabled={drafts.length >= MAX_CONFIGURATIONS - 1}
            onClick={() => workflow.setCompareDrafts([...drafts, { ...draft, driveCount: null }])}
          >
            Add a configuration
          </button>
          <button type="button" className="primary" disabled={drafts.length === 0 || compare.isFetching} onClick={compareConfigurations}>
            {drafts.length ? `Compare ${drafts.length + 1} configurations` : 'Compare side by side'}
          </button>
        </div>
      </section>

      {error?.isValidation ? (
        <FormErrors title="The API could not compare these" messages={error.issues.map((i) => `${describePath(fieldPath(i.loc), { workloads })}: ${i.msg}`)} />
      ) : null}
      {compare.isError && !error?.isValidation ? (
        <ErrorState title="The comparison failed" error={compare.error} onRetry={() => void compare.refetch()} />
      ) : null}
      {compare.isFetching ? <Loading label="Comparing (sizing each configuration)…" /> : null}

      {compare.data && request ? (
        <section className="step" aria-labelledby="comparison-title">
          <h2 id="comparison-title">Side by side</h2>
          {!sameWorkloads ? <p className="notice">This comparison was made for earlier workloads; compare again to update it.</p> : null}
          <CompareTable result={compare.data} />
          <TcoCompare
            items={compare.data.items.flatMap((item, i) =>
              item.tco ? [{ label: columnLabels(compare.data!.items.map((x) => x.configuration_words))[i] ?? item.tco.configuration, tco: item.tco }] : [],
            )}
            flip={compare.data.ratio_flip}
          />
          <Suspense fallback={<Loading label="Loading charts…" />}>
            <CompareCurves result={compare.data} workloads={request.workloads} />
          </Suspense>
          <SaveShare
            key={compare.dataUpdatedAt}
            input={{ kind: 'compare', inputs: request }}
            defaultName={`${request.workloads.map((w) => w.name).join(' + ')}: ${columnLabels(compare.data.items.map((i) => i.configuration_words)).join(' vs ')}`.slice(0, 200)}
            reportHref={href.report}
            onSaved={recentReports.remember}
          />
        </section>
      ) : null}
    </article>
  );
}
