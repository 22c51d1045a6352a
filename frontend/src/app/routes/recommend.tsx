import { Suspense } from 'react';
import { Link, useNavigate } from 'react-router';

import { ErrorState, FormErrors, Loading, MoneyFields } from '@/components';
import { useArrays } from '@/features/configurations';
import { ParetoChart, RecommendForm, RecommendResults, useRecommendation } from '@/features/recommend';
import { SaveShare } from '@/features/reports';
import { ApiError, fieldPath } from '@/lib/api-error';
import type { RecommendedConfiguration } from '@/lib/api-types';
import { describePath, fieldErrors } from '@/lib/field-errors';
import { recentReports } from '@/stores/recent-reports';
import { workflow, useWorkflow } from '@/stores/workflow';

import { href } from '../routes';

export default function RecommendPage() {
  const workloads = useWorkflow((s) => s.workloads);
  const draft = useWorkflow((s) => s.draft);
  const arrays = useArrays();
  const request = useWorkflow((s) => s.recommend);
  const money = useWorkflow((s) => s.money);
  const recommendation = useRecommendation(request);
  const navigate = useNavigate();
  const error = recommendation.error instanceof ApiError ? recommendation.error : null;
  const missing = error?.status === 404 || error?.status === 405;
  const vendors = [...new Set((arrays.data?.arrays ?? []).map((a) => a.vendor))].sort((a, b) => a.localeCompare(b));

  function use(c: RecommendedConfiguration) {
    workflow.setDraft({
      ...draft,
      vendor: c.vendor,
      arrayId: c.array_id,
      driveId: c.drive_id,
      raidScheme: c.raid_scheme,
      groupWidth: c.group_width,
      flashCacheGb: c.flash_cache_gb,
      cacheOptionsGb: [],
      portOption: '',
      controllerId: '',
      nodes: c.nodes ?? null,
      driveCount: c.drive_count,
    });
    // Size shows nothing until this configuration is evaluated: never the previous array's results
    workflow.startRun(null);
    void navigate(href.size());
  }

  return (
    <article className="page">
      <h1>Recommend</h1>
      <p className="lead">
        Give targets for cost, space, power and latency; get the configurations of the whole catalog that meet every window,
        cheapest first.
      </p>
      {workloads.length === 0 ? (
        <p className="empty">
          No workloads yet: describe them on <Link to={href.size()}>Size</Link> (or start from a template there) first.
        </p>
      ) : (
        <>
          <p>
            For: <strong>{workloads.map((w) => w.name).join(', ')}</strong> (edit them on <Link to={href.size()}>Size</Link>).
          </p>
          <MoneyFields value={money} onChange={workflow.setMoney} errors={fieldErrors(error?.isValidation ? error.fieldErrors : null).scope('money')} />
          <RecommendForm
            workloads={workloads}
            vendors={vendors}
            onSubmit={(r) => workflow.setRecommend({ ...r, money })}
            pending={recommendation.isFetching}
            errors={fieldErrors(error?.isValidation ? error.fieldErrors : null)}
          />
        </>
      )}
      {recommendation.isFetching ? <Loading label="Sizing every family of the catalog…" /> : null}
      {missing ? (
        <div className="notice" role="status">
          <p>
            <strong>Not available yet.</strong> This server does not offer recommendations (<code>POST /api/v1/recommend</code>).
          </p>
        </div>
      ) : null}
      {error?.isValidation ? (
        <FormErrors
          title="The recommendation could not be made"
          messages={error.issues.map((i) => `${describePath(fieldPath(i.loc), { workloads })}: ${i.msg}`)}
        />
      ) : null}
      {recommendation.isError && !missing && !error?.isValidation ? (
        <ErrorState title="The recommendation failed" error={recommendation.error} onRetry={() => void recommendation.refetch()} />
      ) : null}
      {recommendation.data ? (
        <RecommendResults
          recommendation={recommendation.data}
          onUse={use}
          chart={
            <Suspense fallback={<Loading label="Loading the chart…" />}>
              <ParetoChart recommendation={recommendation.data} onUse={use} />
            </Suspense>
          }
        />
      ) : null}
      {recommendation.data && request ? (
        <SaveShare
          key={recommendation.dataUpdatedAt}
          input={{ kind: 'recommend', inputs: request }}
          defaultName={`Recommendation for ${request.workloads.map((w) => w.name).join(' + ')}`.slice(0, 200)}
          reportHref={href.report}
          onSaved={recentReports.remember}
        />
      ) : null}
    </article>
  );
}
