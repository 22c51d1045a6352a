import { ErrorState, Loading } from '@/components';

import { RECOMMEND_PATH, useRecommendAvailability } from '../api/get-recommend-availability';

/** Whether recommendations can be asked for; a clear "not available yet" when the server lacks the route. */
export function RecommendStatus() {
  const availability = useRecommendAvailability();
  if (availability.isPending) return <Loading label="Checking whether the server offers recommendations…" />;
  if (availability.isError) {
    return <ErrorState title="Could not check for the recommendation service" error={availability.error} onRetry={() => void availability.refetch()} />;
  }
  if (!availability.data.available) {
    return (
      <div className="notice not-available" role="status">
        <p>
          <strong>Not available yet.</strong> This server does not offer recommendations (<code>POST {RECOMMEND_PATH}</code>)
          yet, so there is nothing to show here: no made-up results.
        </p>
      </div>
    );
  }
  return (
    <div className="notice" role="status">
      <p>
        <strong>The server now offers recommendations</strong> (<code>POST {RECOMMEND_PATH}</code>
        {availability.data.summary ? `: ${availability.data.summary}` : ''}). This version of the UI was built before the
        route existed; regenerate the API types (<code>npm run gen:api</code>) to build its screen.
      </p>
      {availability.data.description ? <p>{availability.data.description}</p> : null}
    </div>
  );
}
