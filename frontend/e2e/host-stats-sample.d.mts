/** Types of host-stats-sample.mjs (plain JS so scripts/record-fixtures.mjs can import it too). */
export function syntheticIostat(day?: string): string;
