import { Link } from 'react-router';

import { HealthStatus } from '@/features/system';
import { recentReports, useRecentReports } from '@/stores/recent-reports';

import { href } from '../routes';

const KIND: Record<string, string> = { evaluate: 'evaluation', size: 'sizing', compare: 'comparison', curves: 'curves' };

function RecentReports() {
  const list = useRecentReports();
  return (
    <section aria-labelledby="recent-title" className="recent-reports">
      <h2 id="recent-title">Recent reports</h2>
      {list.length === 0 ? (
        <p className="muted">Reports you save or open in this browser are listed here (kept in this browser only).</p>
      ) : (
        <>
          <ul>
            {list.map((r) => (
              <li key={r.id}>
                <Link to={href.report(r.id)}>{r.name}</Link>{' '}
                <span className="muted">
                  {KIND[r.kind] ?? r.kind}, {new Date(r.at).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}
                </span>
              </li>
            ))}
          </ul>
          <button type="button" className="link-button" onClick={recentReports.clear}>
            Clear this list
          </button>
        </>
      )}
    </section>
  );
}

export default function HomePage() {
  return (
    <article className="page">
      <h1>Storage Sizer</h1>
      <p className="lead">
        Size a storage array for a workload, compare configurations and ask what-if questions. Every
        figure shows its math: select a number to see its formula and inputs.
      </p>
      <HealthStatus />
      <ul className="cards">
        <li>
          <Link to={href.size()}>Size</Link>
          <span>Describe a workload and a configuration; get capacity, performance and headroom.</span>
        </li>
        <li>
          <Link to={href.compare()}>Compare</Link>
          <span>Put configurations side by side on the same workload.</span>
        </li>
        <li>
          <Link to={href.recommend()}>Recommend</Link>
          <span>Let the engine pick the smallest configurations that meet the targets.</span>
        </li>
      </ul>
      <RecentReports />
    </article>
  );
}
