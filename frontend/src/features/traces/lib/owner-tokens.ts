/**
 * Owner tokens of the trace jobs this browser queued (cancelling or deleting a job needs its
 * token; see `@/lib/owner-tokens`).
 */
import { ownerTokens } from '@/lib/owner-tokens';

export const traceOwnerTokens = ownerTokens('sizer.trace-owner-tokens.v1');
