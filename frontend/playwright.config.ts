import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests against the real backend, which serves the built UI (`frontend/dist`) at `/`:
 * run `npm run build` first (`make test-e2e` does). Browsers are not downloaded: Debian's chromium
 * is used (`make chromium` installs it).
 */
const port = Number(process.env.E2E_PORT ?? 8765);
const baseURL = `http://127.0.0.1:${port}`;
/** E2E_DASK=1: trace jobs run on a 2-worker Dask LocalCluster started with the server (scripts/e2e_server.py). */
const dask = !!process.env.E2E_DASK;
/** Each mode keeps its own database, uploads and failure artifacts (screenshots, traces), so the
 * Dask run never wipes what the first run left. The server writes no access log. */
const run = dask ? 'e2e-dask' : 'e2e';
const db = `sqlite:///var/${run}.db`;
const serve = dask
  ? `.venv/bin/python scripts/e2e_server.py --port ${port}`
  : `.venv/bin/uvicorn backend.app.main:app --port ${port} --no-server-header --no-proxy-headers --no-access-log`;

export default defineConfig({
  testDir: './e2e',
  outputDir: `../test-results/${run}-artifacts`,
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['junit', { outputFile: process.env.PLAYWRIGHT_JUNIT_OUTPUT_NAME ?? `../test-results/${run}.xml` }],
  ],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: {
    command:
      `cd .. && rm -rf var/${run}.db var/${run}-traces && DATABASE_URL=${db} .venv/bin/alembic upgrade head && ` +
      `DATABASE_URL=${db} TRACES_DIR=var/${run}-traces ${serve}`,
    url: `${baseURL}/api/v1/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
