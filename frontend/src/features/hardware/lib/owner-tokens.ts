/**
 * Owner tokens of the custom hardware records this browser created (editing or deleting a record
 * needs its token; see `@/lib/owner-tokens`).
 */
import { ownerTokens } from '@/lib/owner-tokens';

const tokens = ownerTokens('sizer.hardware-owner-tokens.v1');

/** The owner token of record `id`, if this browser created it. */
export const ownerTokenOf = tokens.of;
export const rememberOwnerToken = tokens.remember;
export const forgetOwnerToken = tokens.forget;
/** The `X-Owner-Token` header for record `id` (none when this browser does not own it). */
export const ownerHeaders = tokens.headers;
