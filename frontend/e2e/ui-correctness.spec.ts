/**
 * The UI never gives a silently wrong answer (issue 17), against the real backend in Chromium:
 * a cleared field is an error at the field and never the old value, RAID 10 on an array without
 * it goes to an array that offers it and says so, a printed report keeps its charts inside the page
 * box (the API docs: api-docs.spec.ts). Screenshots at 1440 px and 390 px of Size, the RAID
 * grid, Compare and a printed report are written under ../test-results/ (./output.ts); `make screenshots`
 * writes them to ../docs/screenshots/ (linked from the README).
 */
import { expect, test, type Browser, type Page } from '@playwright/test';

import { readmeScreenshots } from './output';

const shots = readmeScreenshots;

const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

async function pageAt(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: test.info().project.use.baseURL });
  return context.newPage();
}

/** The OLTP template on a NetApp FAS3170 in RAID-DP, on Size. */
async function oltpOnFas3170(page: Page) {
  await page.goto('/size');
  await page.getByRole('combobox', { name: 'Workload template' }).selectOption('oltp-database');
  await page.getByRole('button', { name: 'Start from template' }).click();
  await page.getByRole('combobox', { name: 'Vendor' }).selectOption('NetApp');
  await page.getByRole('combobox', { name: 'Array model' }).selectOption('netapp-fas3170');
  await expect(page.getByRole('combobox', { name: 'RAID scheme' })).toHaveValue('raid-dp');
}

async function sizeIt(page: Page) {
  await page.getByRole('button', { name: 'Size it' }).click();
  await expect(page.getByRole('heading', { level: 2, name: /^Results: FAS3170/ })).toBeVisible({ timeout: 30_000 });
}

test('a cleared field is an error at the field: no request, focus on it, and a reload keeps it empty', async ({ browser }) => {
  const page = await pageAt(browser, WIDE);
  const sizes: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/size') sizes.push(r.postData() ?? '');
  });
  await oltpOnFas3170(page);
  const capacity = page.getByRole('spinbutton', { name: 'Capacity today [TB]' });
  const iops = page.getByRole('group', { name: 'Phase online transactions' }).getByRole('spinbutton', { name: 'IOPS' });
  await capacity.fill('50');
  await iops.fill('30000');
  await sizeIt(page);
  expect(sizes).toHaveLength(1);
  expect(JSON.parse(sizes[0]!).workloads[0].capacity_tb).toBe(50);

  await capacity.fill('');
  await iops.fill('');
  await page.getByRole('button', { name: 'Size it' }).click();

  await expect(capacity).toHaveAttribute('aria-invalid', 'true');
  await expect(capacity).toHaveAccessibleDescription('Enter a number');
  await expect(iops).toHaveAccessibleDescription('Enter a number');
  await expect(capacity).toBeFocused();
  // the focused field is clear of the sticky action bar
  const field = (await capacity.boundingBox())!;
  const bar = (await page.getByRole('region', { name: 'Run' }).boundingBox())!;
  expect(field.y + field.height).toBeLessThanOrEqual(bar.y);
  await expect(page.getByText('These results are for the inputs as they were when you last ran them.')).toBeVisible();
  expect(sizes).toHaveLength(1);

  await page.reload();
  await expect(page.getByRole('spinbutton', { name: 'Capacity today [TB]' })).toHaveValue('');
  await expect(page.getByRole('group', { name: 'Phase online transactions' }).getByRole('spinbutton', { name: 'IOPS' })).toHaveValue('');
});

test('RAID-DP vs RAID 10 on a FAS without RAID 10: the same drives on an array that offers it, said so; screenshots', async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await pageAt(browser, WIDE);
  await oltpOnFas3170(page);
  await sizeIt(page);
  // the numbers engineers look for first, and the RAID grid
  await expect(page.getByRole('group', { name: 'Back-end load in business hours' }).getByTestId('write-penalty')).toBeVisible();
  await expect(page.getByTestId('headroom-note')).toContainText('Headroom load');
  const grid = page.getByTestId('raid-grid');
  await expect(grid.locator('tbody tr')).toHaveCount(1, { timeout: 30_000 }); // the FAS3170 offers RAID-DP only
  await page.mouse.move(0, 0);
  await page.locator('.results-step').screenshot({ path: `${shots}size-1440.png` });
  await expect(page.getByText('IOPS vs outstanding I/Os (business hours)', { exact: true })).toBeVisible();
  await page.locator('.result-charts').screenshot({ path: `${shots}size-charts-1440.png` });
  await grid.screenshot({ path: `${shots}raid-grid-1440.png` });

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compare' }).click();
  await expect(page.getByTestId('peer-note')).toContainText('The FAS3170 (HA pair) does not offer RAID 10');
  await page.getByRole('button', { name: 'Compare NetApp RAID-DP with RAID 10' }).click();
  await expect(page.getByRole('heading', { name: 'Side by side' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('compare-note')).toContainText('in the Generic dual-controller array, which does');
  const heads = await page.locator('table.compare-table thead th').allInnerTexts();
  expect(heads[1]).toMatch(/raid-dp 16/);
  expect(heads[2]).toMatch(/Generic dual-controller array.*raid10 8/s);
  expect(heads[2]).not.toMatch(/raid-dp/);
  await expect(page.locator('table.compare-table tr[data-row="business hours:penalty"] td').first()).not.toHaveText('unknown');
  await page.screenshot({ path: `${shots}compare-1440.png`, fullPage: true });

  // the generic array's grid: every scheme it offers
  const generic = await pageAt(browser, WIDE);
  await generic.goto('/size');
  await generic.getByRole('combobox', { name: 'Workload template' }).selectOption('oltp-database');
  await generic.getByRole('button', { name: 'Start from template' }).click();
  await generic.getByRole('combobox', { name: 'Vendor' }).selectOption('Generic');
  await generic.getByRole('button', { name: 'Size it' }).click();
  const full = generic.getByTestId('raid-grid');
  await expect(full.locator('tbody tr')).toHaveCount(13, { timeout: 60_000 });
  // every column fits its box at 1440 px, "Meets every target" included: nothing scrolled out of sight
  const scroller = full.locator('.table-scroll');
  expect(await scroller.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  const meets = full.getByRole('columnheader', { name: 'Meets every target' });
  await meets.scrollIntoViewIfNeeded();
  await expect(meets).toBeInViewport({ ratio: 1 });
  await generic.mouse.move(0, 0);
  await full.screenshot({ path: `${shots}raid-grid-generic-1440.png` });

  // phone width: no sideways scrolling, the same views
  const phone = await pageAt(browser, PHONE);
  await oltpOnFas3170(phone);
  await sizeIt(phone);
  await expect(phone.getByTestId('raid-grid').locator('tbody tr')).toHaveCount(1, { timeout: 30_000 });
  await expect(phone.getByTestId('headroom-note')).toBeVisible();
  expect(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await phone.locator('.results-step').screenshot({ path: `${shots}size-390.png` });
  await expect(phone.getByText('IOPS vs outstanding I/Os (business hours)', { exact: true })).toBeVisible();
  await phone.locator('.result-charts').screenshot({ path: `${shots}size-charts-390.png` });
  await phone.locator('.what-if').screenshot({ path: `${shots}what-if-390.png` });
  // the what-if chart's x-axis labels sit side by side without overlapping at 390 px
  const overlaps = await phone.locator('.what-if .light-chart svg').first().evaluate((svg) => {
    const boxes = [...svg.querySelectorAll('text[text-anchor="middle"]')].map((t) => (t as SVGGraphicsElement).getBoundingClientRect());
    return boxes.filter((b, i) => i > 0 && b.left < boxes[i - 1]!.right).length;
  });
  expect(overlaps).toBe(0);
  await phone.getByTestId('raid-grid').screenshot({ path: `${shots}raid-grid-390.png` });
  await phone.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compare' }).click();
  await phone.getByRole('button', { name: 'Compare NetApp RAID-DP with RAID 10' }).click();
  await expect(phone.getByRole('heading', { name: 'Side by side' })).toBeVisible({ timeout: 30_000 });
  expect(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await phone.screenshot({ path: `${shots}compare-390.png`, fullPage: true });
});

test('a printed report keeps its charts inside the A4 page box; its inputs are all there', async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await pageAt(browser, WIDE);
  await oltpOnFas3170(page);
  await sizeIt(page);
  await page.locator('.results-step > .save-share').getByRole('button', { name: 'Save & share' }).click();
  const href = await page.getByTestId('share-link').getAttribute('href');

  await page.goto(href!);
  await expect(page.getByRole('heading', { level: 2, name: 'Inputs' })).toBeVisible();
  const inputs = page.locator('.inputs-summary');
  for (const fact of ['Working set', 'Access skew', 'Headroom targets', 'Flash cache', 'Front-end ports', 'Controllers']) {
    await expect(inputs.getByText(fact, { exact: true }).first()).toBeVisible();
  }
  await expect(page.getByText('Latency vs IOPS (business hours)', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('IOPS vs outstanding I/Os (business hours)', { exact: true })).toBeVisible();

  // A4 is 210 mm wide; with 12 mm margins the page box is 186 mm = 703 CSS px
  const box = Math.floor((186 / 25.4) * 96);
  await page.setViewportSize({ width: box, height: 1000 });
  await page.emulateMedia({ media: 'print' });
  const drawings = page.locator('.chart .recharts-wrapper > svg.recharts-surface, .chart .light-chart > svg');
  expect(await drawings.count()).toBeGreaterThan(1);
  // drawn (not collapsed to nothing) and inside the page box
  for (const b of await drawings.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))) {
    expect(b.width).toBeGreaterThan(box / 2);
    expect(b.height).toBeGreaterThan(100);
    expect(b.right).toBeLessThanOrEqual(box + 0.5);
  }
  await page.screenshot({ path: `${shots}report-print.png`, fullPage: true });
  const pdf = await page.pdf({ format: 'A4', printBackground: true });
  const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
  expect(pages).toBeGreaterThanOrEqual(2);
  expect(pages).toBeLessThanOrEqual(12);

  const phone = await pageAt(browser, PHONE);
  await phone.goto(href!);
  await expect(phone.getByRole('heading', { level: 2, name: 'Inputs' })).toBeVisible();
  await expect(phone.getByText('Latency vs IOPS (business hours)', { exact: true })).toBeVisible({ timeout: 30_000 });
  expect(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await phone.emulateMedia({ media: 'print' });
  await phone.screenshot({ path: `${shots}report-print-390.png`, fullPage: true });
  await page.setViewportSize(WIDE);
  await page.screenshot({ path: `${shots}report-print-1440.png`, fullPage: true });
});
