/**
 * UI timings in Chromium against a running server (wall clock, median of N):
 *   node bench/ui/size_timing.mjs [--base http://127.0.0.1:8000] [--runs 20] [--recommend-runs 5]
 * - first load: bytes on the wire (encoded body + headers of every response) and "ready" (the Size
 *   page's workload template picker usable) from navigation start;
 * - size click -> results shown, and -> every chart of the first window drawn (the chart grid holds
 *   its SVGs and no "Computing curves" label is left), the OLTP template on a NetApp FAS3270 in RAID-DP sized
 *   for today's load (growth to the horizon unchecked); api_ms is the sizing request's answer end;
 * - recommend click -> table shown and -> Pareto chart drawn, the file-server template.
 * After each timed click the run waits until the page has no request in flight (the results page asks
 * for the confidence and the RAID grid after the answer): a closed page's requests still run on the
 * server, and the next run's click would otherwise wait behind them (`queued_ms` says how long).
 * Prints JSON. A figure is a wall-clock time on this machine; say the load (uptime) beside it.
 */
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';

const require = createRequire(new URL('../../frontend/package.json', import.meta.url));
const { chromium } = require('@playwright/test');

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const base = opt('base', 'http://127.0.0.1:8000');
const runs = Number(opt('runs', '20'));
const recommendRuns = Number(opt('recommend-runs', '5'));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (x) => Math.round(x);

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

async function firstLoad() {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  let wire = 0;
  cdp.on('Network.loadingFinished', (e) => { wire += e.encodedDataLength; });
  const t0 = Date.now();
  await page.goto(`${base}/size`);
  await page.getByRole('button', { name: 'Start from template' }).waitFor();
  const ready = Date.now() - t0;
  await page.waitForLoadState('networkidle');
  await context.close();
  return { wire_bytes: wire, ready_ms: ready };
}

async function sizeOnce(page) {
  await page.goto(`${base}/size`);
  await page.getByRole('combobox', { name: 'Workload template' }).selectOption('oltp-database');
  await page.getByRole('button', { name: 'Start from template' }).click();
  await page.getByRole('combobox', { name: 'Vendor' }).selectOption('NetApp');
  await page.getByRole('combobox', { name: 'Array model' }).selectOption('netapp-fas3270');
  // sized for today's load in every failure case (a FAS3270 cannot carry three years of the
  // template's growth), so the sizing is feasible and its curves come with it
  await page.getByRole('checkbox', { name: 'Growth to the horizon' }).uncheck();
  await page.waitForLoadState('networkidle');
  const t = await page.evaluate(() => new Promise((resolve, reject) => {
    const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Size it');
    let results = null;
    const t0 = performance.now();
    const done = () => {
      const grid = document.querySelector('.result-charts .chart-grid');
      const loading = document.querySelector('.result-charts')?.textContent?.includes('Computing curves');
      if (results === null && document.querySelector('.result-charts, [data-testid="bill-shelves"]')) results = performance.now() - t0;
      if (grid && !loading && !grid.classList.contains('is-updating') && grid.querySelectorAll('svg.recharts-surface').length >= 2) {
        observer.disconnect();
        const charts = performance.now() - t0;
        // the sizing's request as the browser timed it: from the click to its answer's last byte
        const sized = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/v1/size') && e.startTime >= t0);
        const api = sized.length ? sized[sized.length - 1].responseEnd - t0 : null;
        const curves = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/v1/curves') && e.startTime >= t0).length;
        requestAnimationFrame(() => setTimeout(() => resolve({ results, charts, api, curves, painted: performance.now() - t0 })));
      }
    };
    const observer = new MutationObserver(done);
    observer.observe(document.body, { subtree: true, childList: true, attributes: true });
    setTimeout(() => reject(new Error('no charts within 20 s')), 20000);
    button.click();
  }));
  return t;
}

async function recommendOnce(page) {
  await page.goto(`${base}/size`);
  await page.getByRole('combobox', { name: 'Workload template' }).selectOption('file-server');
  await page.getByRole('button', { name: 'Start from template' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Recommend' }).click();
  await page.getByRole('button', { name: 'Recommend' }).waitFor();
  await page.waitForLoadState('networkidle');
  return page.evaluate(() => new Promise((resolve, reject) => {
    const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Recommend');
    let table = null;
    const t0 = performance.now();
    const observer = new MutationObserver(() => {
      if (table === null && document.querySelector('main table tbody tr')) table = performance.now() - t0;
      const chart = document.querySelector('.pareto-chart svg.recharts-surface, [data-testid="pareto-chart"] svg');
      if (table !== null && chart) {
        observer.disconnect();
        resolve({ table, chart: performance.now() - t0 });
      }
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true });
    setTimeout(() => reject(new Error('no recommendation within 30 s')), 30000);
    button.click();
  }));
}

const loads = [];
for (let i = 0; i < 5; i++) loads.push(await firstLoad());
/** Each run in a fresh browser context (no stored workload, no cached chunk or answer). */
async function fresh(run) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    return await run(await context.newPage());
  } finally {
    await context.close();
  }
}
/** `run(page)`, then wait until none of the page's requests is in flight for 300 ms (at most 60 s). */
function settled(run) {
  return async (page) => {
    let inFlight = 0;
    page.on('request', () => { inFlight += 1; });
    const done = () => { inFlight -= 1; };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    const result = await run(page);
    const t0 = Date.now();
    let quietSince = Date.now();
    while (Date.now() - quietSince < 300 && Date.now() - t0 < 60000) {
      if (inFlight > 0) quietSince = Date.now();
      await page.waitForTimeout(50);
    }
    return { ...result, queued: Date.now() - t0 - 300 };
  };
}
const sizes = [];
for (let i = 0; i < runs; i++) sizes.push(await fresh(settled(sizeOnce)));
const recs = [];
for (let i = 0; i < recommendRuns; i++) recs.push(await fresh(settled(recommendOnce)));
await browser.close();

console.log(JSON.stringify({
  base,
  load_average: loadavg().map((x) => Number(x.toFixed(2))),
  first_load: { wire_kb: round(median(loads.map((l) => l.wire_bytes)) / 1000), ready_ms: round(median(loads.map((l) => l.ready_ms))) },
  size_click: {
    runs,
    api_ms: round(median(sizes.map((s) => s.api ?? NaN))),
    curves_requests: sizes.reduce((n, s) => n + s.curves, 0),
    results_ms: round(median(sizes.map((s) => s.results))),
    charts_ms: round(median(sizes.map((s) => s.charts))),
    painted_ms: round(median(sizes.map((s) => s.painted))),
    // after the charts, until the page's last request (confidence, RAID grid) is answered
    queued_ms: round(median(sizes.map((s) => s.queued))),
  },
  recommend_click: {
    runs: recs.length,
    table_ms: round(median(recs.map((r) => r.table))),
    chart_ms: round(median(recs.map((r) => r.chart))),
  },
}, null, 2));
