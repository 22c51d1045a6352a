import { Suspense, useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';

import { ErrorState, Loading } from '@/components';
import { CompareCurves, CompareTable } from '@/features/compare';
import { draftFromConfiguration } from '@/features/configurations';
import { InputsSummary, ReportHeader, useReport } from '@/features/reports';
import { CurvesView, ResultsView } from '@/features/results';
import { ApiError } from '@/lib/api-error';
import { isFullConfiguration, type ConfigurationInput, type ReportSnapshot } from '@/lib/api-types';
import { recentReports } from '@/stores/recent-reports';
import { workflow } from '@/stores/workflow';

import { documentTitle, href } from '../routes';

const LIVE_NOTE = 'Curves are computed now from the saved inputs; every other figure is as saved.';

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
    case 'size':
      return (
        <ResultsView
          result={report.result.result}
          sizing={report.result}
          workloads={report.inputs.workloads}
          configuration={report.result.configuration}
          curvesNote={LIVE_NOTE}
        />
      );
    case 'compare':
      return (
        <>
          <CompareTable result={report.result} />
          <p className="muted">{LIVE_NOTE}</p>
          <Suspense fallback={<Loading label="Loading charts…" />}>
            <CompareCurves result={report.result} workloads={report.inputs.workloads} />
          </Suspense>
        </>
      );
    case 'curves':
      return (
        <Suspense fallback={<Loading label="Loading charts…" />}>
          <CurvesView curves={report.result} />
        </Suspense>
      );
  }
}

function configurationsOf(report: ReportSnapshot): ConfigurationInput[] {
  return report.configurations.length ? report.configurations : [];
}

/** Put the report's workloads and (first) configuration into Size, as a copy to edit. */
function editCopy(report: ReportSnapshot) {
  const first = report.kind === 'size' ? report.result.configuration : report.configurations.find(isFullConfiguration);
  workflow.setWorkloads(report.inputs.workloads);
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
      <ReportHeader report={data} reportHref={href.report}>
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
      </ReportHeader>
      <Body report={data} />
      <InputsSummary workloads={data.inputs.workloads} configurations={configurationsOf(data)} />
    </article>
  );
}
