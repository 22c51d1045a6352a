import { Link } from 'react-router';

import { HealthStatus } from '@/features/system';

import { href } from '../routes';

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
    </article>
  );
}
