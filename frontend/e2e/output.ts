/**
 * Where the end-to-end tests write what they make: under ../test-results/, the Dask run
 * (E2E_DASK=1) in its own folder beside the first run's, never over it. The README's images
 * (docs/screenshots/) are remade only on request: `make screenshots` sets SCREENSHOTS_DIR there;
 * otherwise they go to test-results/ like every other screenshot, so a test run leaves the tree as it was.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const run = process.env.E2E_DASK ? 'e2e-dask/' : '';
/** The folder for this run's figures and timings (ends with a slash). */
export const results = fileURLToPath(new URL(`../../test-results/${run}`, import.meta.url));
/** Screenshots of this run (ends with a slash). */
export const screenshots = `${results}screenshots/`;
/** The screenshots the README links to: docs/screenshots/ under `make screenshots`, else test-results. */
export const readmeScreenshots = process.env.SCREENSHOTS_DIR
  ? `${resolve(process.env.SCREENSHOTS_DIR)}/`
  : `${screenshots}readme/`;

for (const dir of [screenshots, readmeScreenshots]) mkdirSync(dir, { recursive: true });
