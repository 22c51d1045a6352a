import { useState } from 'react';
import { Link } from 'react-router';

import { ErrorState, FormErrors, Loading } from '@/components';
import { useArrays, useDrives } from '@/features/configurations';
import {
  ConsolidateForm,
  ConsolidationView,
  ExpandForm,
  ExpansionView,
  QuoteCheckView,
  QuoteForm,
  RefreshForm,
  RefreshView,
  ReplicationForm,
  ReplicationView,
  useConsolidation,
  useExpansion,
  useQuoteCheck,
  useRefresh,
  useReplicationPlan,
  type ArrayChoice,
  type DriveChoice,
} from '@/features/plan';
import { SaveShare, type ReportInput } from '@/features/reports';
import { ApiError, fieldPath } from '@/lib/api-error';
import type { ConsolidateRequest, ExpandRequest, QuoteCheckRequest, RefreshRequest, ReplicationRequest, Workload } from '@/lib/api-types';
import { describePath, fieldErrors } from '@/lib/field-errors';
import { recentReports } from '@/stores/recent-reports';
import { useWorkflow } from '@/stores/workflow';

import { href } from '../routes';

const FLOWS = [
  { id: 'quote-check', label: 'Quote check', lead: "A vendor's bill of materials against the windows, failure cases and growth." },
  { id: 'consolidate', label: 'Consolidate', lead: 'N workloads onto arrays already owned and new ones, at the least cost.' },
  { id: 'replication', label: 'Replication and DR', lead: 'The WAN link for an RPO, the lag, the latency a distance adds, the DR array.' },
  { id: 'expand', label: 'Expand', lead: 'What shelves, other drives or cache buy per window, and when growth breaks it again.' },
  { id: 'refresh', label: 'Refresh', lead: "Today's system, measured and modelled, beside its successor." },
] as const;
type Flow = (typeof FLOWS)[number]['id'];

/** The outcome of one flow's request: loading, its errors in the form's words, the answer, Save & share. */
function Outcome<T>({
  query,
  input,
  workloads,
  name,
  children,
}: {
  query: { isFetching: boolean; error: unknown; data: T | undefined; dataUpdatedAt: number; refetch: () => unknown; isError: boolean };
  input: Omit<ReportInput, 'name'> | null;
  workloads: Workload[];
  name: string;
  children: (data: T) => React.ReactNode;
}) {
  const error = query.error instanceof ApiError ? query.error : null;
  return (
    <>
      {query.isFetching ? <Loading label="Computing…" /> : null}
      {error?.isValidation ? (
        <FormErrors title="Please fix the following" messages={error.issues.map((i) => `${describePath(fieldPath(i.loc), { workloads })}: ${i.msg}`)} />
      ) : null}
      {query.isError && !error?.isValidation ? <ErrorState title="The plan failed" error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.data && !query.isFetching ? children(query.data) : null}
      {query.data && input ? <SaveShare key={query.dataUpdatedAt} input={input} defaultName={name.slice(0, 200)} reportHref={href.report} onSaved={recentReports.remember} /> : null}
    </>
  );
}

function errorsOf(error: unknown) {
  const e = error instanceof ApiError ? error : null;
  return fieldErrors(e?.isValidation ? e.fieldErrors : null);
}

export default function PlanPage() {
  const workloads = useWorkflow((s) => s.workloads);
  const arraysQuery = useArrays();
  const drivesQuery = useDrives();
  const [flow, setFlow] = useState<Flow>('quote-check');
  const [quote, setQuote] = useState<QuoteCheckRequest | null>(null);
  const [consolidate, setConsolidate] = useState<ConsolidateRequest | null>(null);
  const [replication, setReplication] = useState<ReplicationRequest | null>(null);
  const [expand, setExpand] = useState<ExpandRequest | null>(null);
  const [refresh, setRefresh] = useState<RefreshRequest | null>(null);
  const quoteQ = useQuoteCheck(quote);
  const consolidateQ = useConsolidation(consolidate);
  const replicationQ = useReplicationPlan(replication);
  const expandQ = useExpansion(expand);
  const refreshQ = useRefresh(refresh);

  const arrays: ArrayChoice[] = (arraysQuery.data?.arrays ?? []).map((a) => ({
    id: a.id,
    label: `${a.vendor} ${a.model}`,
    drives: a.drives ?? [],
    raid: a.raid.map((r) => r.scheme),
  }));
  const drives: DriveChoice[] = (drivesQuery.data?.drives ?? []).map((d) => ({ id: d.id, label: d.name }));
  const names = workloads.map((w) => w.name).join(' + ');
  const current = FLOWS.find((f) => f.id === flow)!;
  const common = { workloads, arrays, drives };

  return (
    <article className="page">
      <h1>Plan</h1>
      <p className="lead">The installed base: check a quote, consolidate, replicate, expand or refresh what you have.</p>
      {workloads.length === 0 ? (
        <p className="empty">
          No workloads yet: describe them on <Link to={href.size()}>Size</Link> (or import them) first.
        </p>
      ) : arraysQuery.isPending || drivesQuery.isPending ? (
        <Loading label="Loading the catalog…" />
      ) : (
        <>
          <p>
            For: <strong>{names}</strong> (edit them on <Link to={href.size()}>Size</Link>).
          </p>
          <div role="tablist" aria-label="Plans" className="tabs">
            {FLOWS.map((f) => (
              <button key={f.id} type="button" role="tab" aria-selected={flow === f.id} onClick={() => setFlow(f.id)}>
                {f.label}
              </button>
            ))}
          </div>
          <section role="tabpanel" aria-label={current.label}>
            <p className="muted">{current.lead}</p>
            {flow === 'quote-check' ? (
              <>
                <QuoteForm {...common} onSubmit={setQuote} pending={quoteQ.isFetching} errors={errorsOf(quoteQ.error)} />
                <Outcome query={quoteQ} input={quote && { kind: 'quote-check', inputs: quote }} workloads={workloads} name={`Quote check: ${quote?.quote.model ?? ''} for ${names}`}>
                  {(r) => <QuoteCheckView result={r} />}
                </Outcome>
              </>
            ) : null}
            {flow === 'consolidate' ? (
              <>
                <ConsolidateForm {...common} onSubmit={setConsolidate} pending={consolidateQ.isFetching} errors={errorsOf(consolidateQ.error)} />
                <Outcome query={consolidateQ} input={consolidate && { kind: 'consolidate', inputs: consolidate }} workloads={workloads} name={`Consolidation of ${names}`}>
                  {(r) => <ConsolidationView result={r} />}
                </Outcome>
              </>
            ) : null}
            {flow === 'replication' ? (
              <>
                <ReplicationForm {...common} onSubmit={setReplication} pending={replicationQ.isFetching} errors={errorsOf(replicationQ.error)} />
                <Outcome query={replicationQ} input={replication && { kind: 'replication', inputs: replication }} workloads={workloads} name={`Replication of ${names}`}>
                  {(r) => <ReplicationView result={r} />}
                </Outcome>
              </>
            ) : null}
            {flow === 'expand' ? (
              <>
                <ExpandForm {...common} onSubmit={setExpand} pending={expandQ.isFetching} errors={errorsOf(expandQ.error)} />
                <Outcome query={expandQ} input={expand && { kind: 'expand', inputs: expand }} workloads={workloads} name={`Expansion for ${names}`}>
                  {(r) => <ExpansionView result={r} />}
                </Outcome>
              </>
            ) : null}
            {flow === 'refresh' ? (
              <>
                <RefreshForm {...common} onSubmit={setRefresh} pending={refreshQ.isFetching} errors={errorsOf(refreshQ.error)} />
                <Outcome query={refreshQ} input={refresh && { kind: 'refresh', inputs: refresh }} workloads={workloads} name={`Refresh for ${names}`}>
                  {(r) => <RefreshView result={r} />}
                </Outcome>
              </>
            ) : null}
          </section>
        </>
      )}
    </article>
  );
}
