import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { QuoteCheckRequest, QuoteCheck } from '@/lib/api-types';

/** `POST /api/v1/plan/quote-check`: a vendor's bill of materials against the windows, failure cases and growth. */
export function checkQuote(body: QuoteCheckRequest, { signal }: { signal?: AbortSignal } = {}): Promise<QuoteCheck> {
  return api.post('/api/v1/plan/quote-check', { body, signal });
}

export const checkQuoteQueryOptions = (body: QuoteCheckRequest) =>
  queryOptions({
    queryKey: ['plan', 'quote-check', body] as const,
    queryFn: ({ signal }) => checkQuote(body, { signal }),
    staleTime: Infinity,
    retry: false,
  });

/** The answer for `body` (null: none asked for yet). */
export function useQuoteCheck(body: QuoteCheckRequest | null) {
  return useQuery({ ...checkQuoteQueryOptions(body as QuoteCheckRequest), enabled: body !== null });
}
