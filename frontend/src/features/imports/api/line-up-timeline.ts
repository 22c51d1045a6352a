import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Timeline, TimelineRequest } from '@/lib/api-types';

/** `POST /api/v1/import/timeline`: the imports' series on one clock, the coincident peak beside the sum of peaks. */
export function lineUpTimeline(body: TimelineRequest, signal?: AbortSignal): Promise<Timeline> {
  return api.post('/api/v1/import/timeline', { body, signal });
}

/** Line imports up; each call answers the whole timeline again. */
export function useLineUpTimeline() {
  return useMutation({ mutationFn: ({ body, signal }: { body: TimelineRequest; signal?: AbortSignal }) => lineUpTimeline(body, signal) });
}
