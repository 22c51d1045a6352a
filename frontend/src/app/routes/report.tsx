import { Suspense, useEffect, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';

import { CalibrationNote, ErrorState, Loading, TcoCompare, TcoPanel } from '@/components';
import { BuildingBlocksView, DegradedView, GrowthView, RangesView, SensitivityView } from '@/features/analyses';
import { columnLabels, CompareCurves, CompareTable } from '@/features/compare';
import { draftFromConfiguration } from '@/features/configurations';
import { ConsolidationView, ExpansionView, QuoteCheckView, RefreshView, ReplicationView } from '@/features/plan';
import { RecommendResults } from '@/features/recommend';
import { InputsSummary, ReportHeader, useReport } from '@/features/reports';
import { CurvesView, RaidGridTable, ResultsView } from '@/features/results';
import { ApiError } from '@/lib/api-error';
import { isFullConfiguration, type ConfigurationInput, type ReportSnapshot } from '@/lib/api-types';
import { recentReports } from '@/stores/recent-reports';
import { workflow } from '@/stores/workflow';

import { documentTitle, href } from '../routes';

const LIVE_NOTE = 'Curves are computed now from the saved inputs; every other figure is as saved.';

/** The money a report priced for the configurations its analysis evaluated (kinds without money inputs). */
function Priced({ report }: { report: ReportSnapshot }) {
  return (
    <>
      {(report.tco ?? []).map((t, i) => (
        <TcoPanel key={i} tco={t} title={`Money over ${t.years} years (${t.currency}): ${t.configuration}`} />
      ))}
    </>
  );
}

function Charts({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Loading label="Loading charts…" />}>{children}</Suspense>;
}

function Body({ report }: { report: ReportSnapshot }) {
  switch (report.kind) {
    case 'evaluate':
      return (
        <ResultsView
          result={report.result}
          workloads={report.inputs.workloads}
          configuration={report.configurations[0] ?? report.inputs.configuration}
          curvesNote={LIVE_NOTE}
        />
      );
    case 'recommend':
      return <RecommendResults recommendation={report.result} />;
    case 'raid-grid':
      return (
        <>
          <RaidGridTable grid={report.result} />
          <Priced report={report} />
        </>
      );
    case 'growth':
      return (
        <>
          <Charts>
            <GrowthView projection={report.result} />
          </Charts>
          <Priced report={report} />
        </>
      );
    case 'sensitivity':
      return (
        <>
          <Charts>
            <SensitivityView result={report.result} metric="headroom" />
          </Charts>
          <Priced report={report} />
        </>
      );
    case 'ranges':
      return (
        <>
          <Charts>
            <RangesView result={report.result} />
          </Charts>
          <Priced report={report} />
        </>
      );
    case 'degraded':
      return (
        <>
          <DegradedView result={report.result} />
          <Priced report={report} />
        </>
      );
    case 'building-blocks':
      return <BuildingBlocksView result={report.result} />;
    case 'quote-check':
      return <QuoteCheckView result={report.result} />;
    case 'consolidate':
      return <ConsolidationView result={report.result} />;
    case 'replication':
      return <ReplicationView result={report.result} />;
    case 'expand':
      return <ExpansionView result={report.result} />;
    case 'refresh':
      return <RefreshView result={report.result} />;
    case 'size':
      return (
        <>
          <ResultsView
          result={report.result.result}
          sizing={report.result}
          workloads={report.inputs.workloads}
          configuration={report.result.configuration}
          curvesNote={LIVE_NOTE}
        />
          {report.result.tco ? <TcoPanel tco={report.result.tco} /> : null}
        </>
      );
    case 'compare':
      return (
        <>
          <CompareTable result={report.result} />
          <TcoCompare
            items={report.result.items.flatMap((item, i) =>
              item.tco ? [{ label: columnLabels(report.result.items.map((x) => x.configuration_words))[i] ?? item.tco.configuration, tco: item.tco }] : [],
            )}
            flip={report.result.ratio_flip}
          />
          <p className="muted">{LIVE_NOTE}</p>
          <Suspense fallback={<Loading label="Loading charts…" />}>
            <CompareCurves result={report.result} workloads={report.inputs.workloads} />
          </Suspense>
        </>
      );
    case 'curves':
      return (
        <>
          <Charts>
            <CurvesView curves={report.result} />
          </Charts>
          <CalibrationNote result={report.result} />
          <Priced report={report} />
        </>
      );
  }
}

/** The workloads a report's analysis took (a building-block sizing takes none). */
function workloadsOf(report: ReportSnapshot) {
  return 'workloads' in report.inputs ? report.inputs.workloads : [];
}

function configurationsOf(report: ReportSnapshot): ConfigurationInput[] {
  return report.configurations.length ? report.configurations : [];
}

/** Put the report's workloads and (first) configuration into Size, as a copy to edit. */
function editCopy(report: ReportSnapshot) {
  const first = report.kind === 'size' ? report.result.configuration : report.configurations.find(isFullConfiguration);
  workflow.setWorkloads(workloadsOf(report));
  if (first) workflow.setDraft(draftFromConfiguration(first, report.kind === 'size'));
  workflow.startRun(null);
}

export default function ReportPage() {
  const { reportId = '' } = useParams();
  const report = useReport(reportId);
  const navigate = useNavigate();
  const loaded = report.data;
  useEffect(() => {
    if (loaded) recentReports.remember({ id: loaded.id, name: loaded.name, kind: loaded.kind });
  }, [loaded]);

  if (report.isPending) return <Loading label="Loading the report…" />;
  if (report.isError) {
    const missing = report.error instanceof ApiError && report.error.status === 404;
    return (
      <article className="page">
        <title>{documentTitle(missing ? 'Report not found' : 'Report')}</title>
        <h1>{missing ? 'Report not found' : 'Report'}</h1>
        {missing ? (
          <p>
            There is no report <code>{reportId}</code>: it may have been deleted by its owner.{' '}
            <Link to={href.size()}>Size a configuration</Link>.
          </p>
        ) : (
          <ErrorState title="The report could not be loaded" error={report.error} onRetry={() => void report.refetch()} />
        )}
      </article>
    );
  }

  const data = report.data;
  return (
    <article className="page report-page">
      <ReportHeader report={data} reportHref={href.report} diffHref={href.diff}>
        {workloadsOf(data).length ? (
        <p className="no-print">
          <button
            type="button"
            onClick={() => {
              editCopy(data);
              void navigate(href.size());
            }}
          >
            Edit a copy in Size
          </button>{' '}
          <span className="muted">(this report stays as it is)</span>
        </p>
        ) : null}
      </ReportHeader>
      <Body report={data} />
      {workloadsOf(data).length ? <InputsSummary workloads={workloadsOf(data)} configurations={configurationsOf(data)} configurationWords={data.configuration_words} /> : null}
    </article>
  );
}
