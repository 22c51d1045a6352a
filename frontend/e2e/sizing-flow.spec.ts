/**
 * The main flow against the real backend: the OLTP template sized on a NetApp FAS3170 in RAID-DP,
 * a what-if, RAID-DP compared with RAID 10, saved, and the share link opened in a fresh browser
 * showing the same numbers. Screenshots go to ../test-results/screenshots/; timings to
 * ../test-results/ui-timings.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { expect, test, type Browser, type ConsoleMessage, type Page } from '@playwright/test';

const results = fileURLToPath(new URL('../../test-results/', import.meta.url));
const screenshots = `${results}screenshots/`;
mkdirSync(screenshots, { recursive: true });

function watch(page: Page, problems: string[]) {
  page.on('console', (msg: ConsoleMessage) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
}

async function freshPage(browser: Browser, problems: string[], viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport, baseURL: test.info().project.use.baseURL });
  const page = await context.newPage();
  watch(page, problems);
  return page;
}

/** Text of the cells of one comparison row, left to right. */
async function rowCells(page: Page, key: string): Promise<string[]> {
  return page.locator(`table.compare-table tr[data-row="${key}"] td`).allInnerTexts();
}

test('size OLTP on a NetApp FAS in RAID-DP, what-if, compare with RAID 10, save and share', async ({ browser }) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  const page = await freshPage(browser, problems);

  // --- size
  await page.goto('/size');
  await expect(page.getByRole('heading', { level: 1, name: 'Size' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Workload template' }).selectOption('oltp-database');
  await page.getByRole('button', { name: 'Start from template' }).click();
  await expect(page.getByRole('region', { name: 'Workload OLTP database' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Vendor' }).selectOption('NetApp');
  await page.getByRole('combobox', { name: 'Array model' }).selectOption('netapp-fas3170');
  await expect(page.getByRole('combobox', { name: 'RAID scheme' })).toHaveValue('raid-dp');
  await expect(page.getByRole('radio', { name: /Size it for me/ })).toBeChecked();

  // every form control has an accessible name
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll('input, select, textarea, button')]
      .filter((el) => !(el as HTMLElement).closest('[hidden]'))
      .filter((el) => {
        const label = (el as HTMLInputElement).labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
        return !label && !(el.tagName === 'BUTTON' && el.textContent?.trim());
      })
      .map((el) => el.outerHTML.slice(0, 80)),
  );
  expect(unnamed).toEqual([]);
  await page.screenshot({ path: `${screenshots}size-inputs.png` });

  await page.getByRole('button', { name: 'Size it' }).click();
  const resultsHeading = page.getByRole('heading', { level: 2, name: /^Results: FAS3170/ });
  await expect(resultsHeading).toBeVisible();
  await expect(resultsHeading).toBeFocused();
  await expect(page.getByRole('heading', { name: 'Meets every target' })).toBeVisible();
  await expect(page.getByTestId('window-verdict')).toHaveCount(3);
  const sizedDrives = (await page.getByTestId('bill-drives').locator('dd').innerText()).trim();
  expect(sizedDrives).toMatch(/^\d+ drives$/);
  await expect(page.getByText('Latency vs IOPS (business hours)', { exact: true })).toBeVisible();
  await expect(page.locator('.result-charts .recharts-surface').first()).toBeVisible();

  // a number opens its explanation
  await page.getByTestId('bill-shelves').getByRole('button').click();
  await expect(page.getByRole('dialog', { name: /Shelves = / })).toContainText('shelves = ceil(');
  await page.screenshot({ path: `${screenshots}figure-explanation.png` });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.locator('.results-step').screenshot({ path: `${screenshots}size-results.png` });

  // --- what-if: slider -> charts redrawn, timed by the page (performance measures)
  const whatIf = page.locator('.what-if');
  await whatIf.scrollIntoViewIfNeeded();
  const steps: [string, string][] = [
    ['IOPS [x as entered]', 'ArrowRight'],
    ['Drives [whole groups of 16]', 'ArrowLeft'],
    ['Write share [change in percentage points]', 'ArrowRight'],
    ['Working set [x as entered]', 'ArrowRight'],
    ['Growth [%/year, over 3 years]', 'ArrowRight'],
    ['IOPS [x as entered]', 'ArrowLeft'],
  ];
  const timings = { chart: [] as number[], bars: [] as number[] };
  for (const [label, key] of steps) {
    await page.evaluate(() => {
      performance.clearMarks();
      performance.clearMeasures();
    });
    await page.getByRole('slider', { name: label }).focus();
    await page.keyboard.press(key);
    await expect(whatIf).toHaveAttribute('data-whatif-state', 'ready');
    const measured = () =>
      page.evaluate(() => ({
        chart: performance.getEntriesByName('whatif').map((e) => e.duration),
        bars: performance.getEntriesByName('whatif:bars').map((e) => e.duration),
      }));
    await expect.poll(async () => (await measured()).chart.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const m = await measured();
    timings.chart.push(...m.chart);
    timings.bars.push(...m.bars);
  }
  await expect(whatIf.getByText('What-if against the baseline')).toBeVisible();
  await whatIf.screenshot({ path: `${screenshots}what-if.png` });

  // --- compare with RAID 10
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compare' }).click();
  await expect(page).toHaveURL(/\/compare$/);
  await page.getByRole('button', { name: 'Compare NetApp RAID-DP with RAID 10' }).click();
  await expect(page.getByRole('heading', { name: 'Side by side' })).toBeVisible();
  const heads = await page.locator('table.compare-table thead th').allInnerTexts();
  expect(heads[1]).toMatch(/raid-dp/);
  expect(heads[2]).toMatch(/raid10/);
  const drives = await rowCells(page, 'drives_total');
  const latency = await rowCells(page, 'business hours:read');
  const cost = await rowCells(page, 'cost_usd');
  // the base column is the configuration sized on Size: the same drive count
  expect(parseInt((await rowCells(page, 'drives'))[0]!, 10)).toBe(parseInt(sizedDrives, 10));
  await expect(page.locator('table.compare-table td[data-best]').first()).toBeVisible();
  await expect(page.getByText('Read latency vs IOPS (business hours)', { exact: true })).toBeVisible();
  await page.screenshot({ path: `${screenshots}compare.png`, fullPage: true });

  // --- save and share
  await page.getByRole('button', { name: 'Save & share' }).click();
  const link = page.getByTestId('share-link');
  await expect(link).toBeVisible();
  const href = await link.getAttribute('href');
  expect(href).toMatch(/^\/r\/[\w-]+$/);
  await page.locator('.save-share').screenshot({ path: `${screenshots}save-share.png` });

  // --- the link in a fresh browser: same numbers
  const cold = await freshPage(browser, problems);
  await cold.goto(href!);
  await expect(cold.getByText(/Comparison report · read-only snapshot/)).toBeVisible();
  await expect(cold.getByRole('heading', { level: 1 })).toContainText('raid-dp');
  expect(await rowCells(cold, 'drives_total')).toEqual(drives);
  expect(await rowCells(cold, 'business hours:read')).toEqual(latency);
  expect(await rowCells(cold, 'cost_usd')).toEqual(cost);
  await expect(cold.getByText('Read latency vs IOPS (business hours)', { exact: true })).toBeVisible();
  for (const format of ['json', 'csv'] as const) {
    const exportHref = await cold.getByRole('link', { name: `Export ${format.toUpperCase()}` }).getAttribute('href');
    const res = await cold.request.get(exportHref!);
    expect(res.status()).toBe(200);
  }
  await cold.screenshot({ path: `${screenshots}report.png`, fullPage: true });
  await cold.emulateMedia({ media: 'print' });
  await cold.screenshot({ path: `${screenshots}report-print.png`, fullPage: true });

  // --- phone width
  const phone = await freshPage(browser, problems, { width: 390, height: 844 });
  await phone.goto(href!);
  await expect(phone.getByText(/Comparison report/)).toBeVisible();
  expect(await rowCells(phone, 'drives_total')).toEqual(drives);
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await phone.screenshot({ path: `${screenshots}report-phone.png` });
  await phone.goto('/size');
  await expect(phone.getByRole('heading', { level: 1, name: 'Size' })).toBeVisible();
  expect(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await phone.screenshot({ path: `${screenshots}size-phone.png` });

  writeFileSync(
    `${results}ui-timings.json`,
    JSON.stringify({ whatif_chart_ms: timings.chart, whatif_bars_ms: timings.bars, debounce_ms: 150 }, null, 2),
  );
  console.log(`what-if slider -> bars drawn [ms]: ${timings.bars.map(Math.round).join(', ')}`);
  console.log(`what-if slider -> latency chart drawn [ms]: ${timings.chart.map(Math.round).join(', ')}`);
  expect(problems).toEqual([]);
});

test('the first load of the app is at most 350 KB of gzipped JavaScript', async ({ page }) => {
  const scripts = new Map<string, number>();
  page.on('response', async (res) => {
    if (res.request().resourceType() === 'script') scripts.set(res.url(), gzipSync(await res.body()).length);
  });
  await page.goto('/');
  await expect(page.getByRole('status')).toContainText('API ok');
  await page.waitForLoadState('networkidle');
  const total = [...scripts.values()].reduce((a, b) => a + b, 0);
  console.log(`first load: ${scripts.size} scripts, ${(total / 1024).toFixed(1)} KB gzipped`);
  writeFileSync(`${results}first-load.json`, JSON.stringify({ scripts: Object.fromEntries(scripts), total_gzip_bytes: total }, null, 2));
  expect([...scripts.keys()].some((u) => /latency-chart|recharts/.test(u))).toBe(false);
  expect(total).toBeLessThanOrEqual(350 * 1024);
});

test('a report that does not exist says so, without console errors from the app', async ({ page }) => {
  const problems: string[] = [];
  watch(page, problems);
  await page.goto('/r/no-such-report');
  await expect(page.getByRole('heading', { level: 1, name: 'Report not found' })).toBeVisible();
  // the 404 of the API request itself is the only console line the browser adds
  expect(problems.filter((p) => !/404 \(Not Found\)/.test(p))).toEqual([]);
});

test('recommend: ranked configurations, or a clear message when the engine cannot', async ({ browser }) => {
  const problems: string[] = [];
  const page = await freshPage(browser, problems);
  await page.goto('/size');
  await page.getByRole('combobox', { name: 'Workload template' }).selectOption('file-server');
  await page.getByRole('button', { name: 'Start from template' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Recommend' }).click();
  await page.getByRole('button', { name: 'Recommend' }).click();
  await expect(page.locator('.recommend-table, [role="alert"]').first()).toBeVisible({ timeout: 60_000 });
  if (await page.locator('.recommend-table').count()) {
    // cost vs read latency, the Pareto front highlighted; a dot opens its configuration in Size
    const chart = page.getByTestId('pareto-chart');
    await expect(chart.locator('.recharts-scatter-symbol').first()).toBeVisible();
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${screenshots}recommend.png`, fullPage: true });
    await chart.screenshot({ path: `${screenshots}recommend-pareto.png` });
    await chart.locator('.recharts-scatter').last().locator('.recharts-scatter-symbol').first().click();
    await expect(page).toHaveURL(/\/size$/);
    await expect(page.getByRole('radio', { name: /A fixed drive count/ })).toBeChecked();
  } else {
    await page.screenshot({ path: `${screenshots}recommend.png`, fullPage: true });
  }
  expect(problems.filter((p) => !/422/.test(p))).toEqual([]);
});
