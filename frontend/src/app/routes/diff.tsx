import { useState } from 'react';
import { useSearchParams } from 'react-router';

import { SelectField, TextField } from '@/components';
import { ReportDiffView } from '@/features/reports';
import { useRecentReports } from '@/stores/recent-reports';

import { documentTitle, href } from '../routes';

/** A report id from what was typed: the id itself, or a share link (`…/r/{id}`). */
function idOf(text: string): string {
  const t = text.trim();
  const m = /\/r\/([^/?#]+)/.exec(t);
  return decodeURIComponent(m ? m[1]! : t);
}

/** Any two saved reports side by side: each headline figure of either, and how it changed. */
export default function DiffPage() {
  const [params, setParams] = useSearchParams();
  const recent = useRecentReports();
  const before = params.get('a') ?? '';
  const after = params.get('b') ?? '';
  const [a, setA] = useState(before);
  const [b, setB] = useState(after);
  const options = [{ value: '', label: 'Recent reports…' }, ...recent.map((r) => ({ value: r.id, label: `${r.name} (${r.kind})` }))];

  return (
    <article className="page diff-page">
      <title>{documentTitle('Two reports side by side')}</title>
      <h1>Two reports side by side</h1>
      <p className="lead">
        Any two saved reports: a report and its recomputation, two sizings of the same workloads, two proposals. Each headline figure of
        either, before and after.
      </p>
      <form
        className="card diff-form no-print"
        onSubmit={(e) => {
          e.preventDefault();
          setParams({ a: idOf(a), b: idOf(b) });
        }}
      >
        <div className="grid grid-2">
          <div>
            <TextField label="First report (id or link)" value={a} onChange={setA} maxLength={400} />
            {recent.length ? <SelectField label="or a recent one" value="" options={options} onChange={(v) => v && setA(v)} /> : null}
          </div>
          <div>
            <TextField label="Second report (id or link)" value={b} onChange={setB} maxLength={400} />
            {recent.length ? <SelectField label="or a recent one" value="" options={options} onChange={(v) => v && setB(v)} /> : null}
          </div>
        </div>
        <div className="row-actions">
          <button type="submit" className="primary" disabled={!idOf(a) || !idOf(b)}>
            Compare the two reports
          </button>
        </div>
      </form>
      {before && after ? <ReportDiffView before={before} after={after} reportHref={href.report} /> : null}
    </article>
  );
}
