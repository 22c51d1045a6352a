import { Link } from 'react-router';

import { RecommendStatus } from '@/features/recommend';

import { href } from '../routes';

export default function RecommendPage() {
  return (
    <article className="page">
      <h1>Recommend</h1>
      <p>Give targets for capacity, IOPS and latency; get the configurations that meet them, cheapest first.</p>
      <RecommendStatus />
      <p>
        Meanwhile: <Link to={href.size()}>Size</Link> finds the fewest drives of one array that meet every window, and{' '}
        <Link to={href.compare()}>Compare</Link> puts RAID schemes and arrays side by side.
      </p>
    </article>
  );
}
