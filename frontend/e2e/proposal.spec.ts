/**
 * What a consultant hands over, against the real backend: the OLTP template sized on a FAS3170 with
 * money in euros, its TCO and three-ratio table, saved; the proposal (PDF) and the BOM workbook
 * (XLSX) downloaded and read back (pdftoppm / pdftotext, openpyxl); the report page printed without
 * on-screen controls or a heading left at the foot of a page; the report recomputed and the two
 * diffed side by side; a growth analysis saved as a report of its own.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';

const results = fileURLToPath(new URL('../../test-results/', import.meta.url));
const downloads = `${results}downloads/`;
const screenshots = `${results}screenshots/`;
mkdirSync(downloads, { recursive: true });
mkdirSync(screenshots, { recursive: true });
const python = fileURLToPath(new URL('../../.venv/bin/python', import.meta.url));

function watch(page: Page, problems: string[]) {
  page.on('console', (msg: ConsoleMessage) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
}

/** Clicks a download link and keeps the file under test-results/downloads. */
async function download(page: Page, testId: string, name: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).last().click()]);
  const path = `${downloads}${name}`;
  await file.saveAs(path);
  return path;
}

/** Pages and text of a PDF, read back with poppler (every page rendered to PNG by pdftoppm). */
function readPdf(path: string, prefix: string): { pages: number; text: string[] } {
  execFileSync('pdftoppm', ['-r', '40', '-png', path, `${downloads}${prefix}`]);
  const pngs = readdirSync(downloads).filter((f) => f.startsWith(`${prefix}-`) && f.endsWith('.png'));
  expect(pngs.length).toBeGreaterThan(0);
  for (const f of pngs) expect(statSync(`${downloads}${f}`).size).toBeGreaterThan(1000);
  const text = pngs.map((_, i) =>
    execFileSync('pdftotext', ['-layout', '-f', String(i + 1), '-l', String(i + 1), path, '-']).toString(),
  );
  return { pages: pngs.length, text };
}

/** The workbook read back with openpyxl: sheet names, the BOM header and the totals row of each BOM sheet. */
function readXlsx(path: string): { sheets: string[]; header: string[]; totals: (number | string | null)[][] } {
  const script = `
import json, sys
from openpyxl import load_workbook
wb = load_workbook(sys.argv[1])
out = {"sheets": wb.sheetnames, "header": [], "totals": []}
for ws in wb.worksheets[1:]:
    rows = list(ws.iter_rows(values_only=True))
    out["header"] = [c for c in rows[3] if c is not None]
    out["totals"].append(next(list(r) for r in rows if r and r[0] == "total"))
print(json.dumps(out))
`;
  return JSON.parse(execFileSync(python, ['-c', script, path]).toString());
}

test('size with money, save, download the proposal and the BOM workbook, print, recompute and diff', async ({ browser }) => {
  test.setTimeout(240_000);
  const problems: string[] = [];
  const context = await browser.newContext({ acceptDownloads: true, baseURL: test.info().project.use.baseURL });
  const page = await context.newPage();
  watch(page, problems);

  // --- size, with the money in euros at 25% off list
  await page.goto('/size');
  await page.getByRole('combobox', { name: 'Workload template' }).selectOption('oltp-database');
  await page.getByRole('button', { name: 'Start from template' }).click();
  await page.getByRole('combobox', { name: 'Vendor' }).selectOption('NetApp');
  await page.getByRole('combobox', { name: 'Array model' }).selectOption('netapp-fas3170');
  await page.getByText(/^Money: currency, discounts/).click();
  await page.getByLabel('Currency').fill('EUR');
  await page.getByLabel(/^Discount off list/).fill('25');
  await page.getByRole('button', { name: 'Size it' }).click();
  await expect(page.getByRole('heading', { level: 2, name: /^Results: FAS3170/ })).toBeVisible({ timeout: 60_000 });
  const tco = page.getByTestId('tco-panel');
  await expect(tco.getByRole('heading', { name: 'Money over 5 years (EUR)' })).toBeVisible();
  await expect(tco.getByTestId('ratio-table').locator('tbody tr')).toHaveCount(3);
  await tco.screenshot({ path: `${screenshots}tco-panel.png` });

  // --- save & share, then download both documents
  const save = page.locator('.results-step > .save-share');
  await save.getByRole('button', { name: 'Save & share' }).click();
  const link = save.getByTestId('share-link');
  await expect(link).toBeVisible();
  const reportPath = (await link.getAttribute('href'))!;
  const reportId = reportPath.split('/').pop()!;

  const pdf = readPdf(await download(page, 'download-pdf', 'proposal.pdf'), 'proposal');
  const words = pdf.text.join('\n').replace(/\s+/g, ' ');
  expect(pdf.pages).toBeGreaterThanOrEqual(5);
  for (const heading of ['Verdict', 'Bill and money', 'Cost at three data-reduction ratios', 'Busy figures against headroom', 'Failure cases', 'Curves', 'Appendix: the math behind each figure', 'Calibration', 'Inputs']) {
    expect(words).toContain(heading);
  }
  expect(words).toContain('EUR');
  expect(words).toContain(`/r/${reportId}`);

  const book = readXlsx(await download(page, 'download-xlsx', 'bom.xlsx'));
  expect(book.sheets[0]).toBe('Summary');
  expect(book.sheets).toHaveLength(2);
  expect(book.header.slice(0, 8)).toEqual(['Kind', 'Item', 'Quantity', 'Unit', 'Unit list price (USD)', 'List price (USD)', 'Discount (%)', 'Net price (EUR)']);
  const snapshot = await (await page.request.get(`/api/v1/reports/${reportId}`)).json();
  const money = snapshot.result.tco;
  const [total] = book.totals;
  expect(total![0]).toBe('total');
  expect(Number(total![5])).toBeCloseTo(money.list_usd, 2); // list price (USD)
  expect(Number(total![7])).toBeCloseTo(money.capital.value, 2); // net in EUR: list x (1 - 25%) x the rate
  expect(money.lines.filter((l: { included: boolean }) => !l.included).every((l: { discount_pct: number }) => l.discount_pct === 25)).toBe(true);

  // --- the share link: the report page, printed without controls or a heading left at a page foot
  const shared = await context.newPage();
  watch(shared, problems);
  await shared.goto(reportPath);
  await expect(shared.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(shared.getByTestId('tco-panel')).toBeVisible();
  await expect(shared.locator('.result-charts .recharts-surface').first()).toBeVisible({ timeout: 30_000 });
  await shared.emulateMedia({ media: 'print' });
  await expect(shared.locator('select:visible, input:visible, button:visible')).toHaveCount(0);
  const headings = await shared.evaluate(() =>
    [...document.querySelectorAll('main h2, main h3')].map((h) => (h as HTMLElement).innerText.trim()).filter(Boolean),
  );
  const printed = `${downloads}report-page.pdf`;
  await shared.pdf({ path: printed, format: 'A4', printBackground: true });
  const pagesText = readPdf(printed, 'report-page').text;
  const orphans = pagesText
    .map((t) => t.split('\n').map((l) => l.trim()).filter(Boolean).at(-1) ?? '')
    .filter((last) => headings.includes(last));
  expect(orphans).toEqual([]);
  await shared.emulateMedia({ media: 'screen' });
  await shared.screenshot({ path: `${screenshots}report-with-money.png`, fullPage: true });

  // --- recompute on the current engine, and the two reports side by side
  await shared.getByRole('button', { name: 'Recompute on the current engine' }).click();
  const sideBySide = shared.getByRole('link', { name: 'side by side' });
  await expect(sideBySide).toBeVisible({ timeout: 60_000 });
  await sideBySide.click();
  await expect(shared).toHaveURL(new RegExp(`/diff\\?a=${reportId}&b=`));
  const diff = shared.getByTestId('report-diff');
  await expect(diff).toContainText('headline figures differ');
  await expect(diff.locator('tbody tr')).not.toHaveCount(0);
  await shared.screenshot({ path: `${screenshots}report-diff.png`, fullPage: true });

  // --- an analysis is a report too: growth saved from Analyses
  await page.goto('/analyses');
  const growth = page.getByTestId('growth-analysis');
  await expect(growth.getByTestId('growth-summary')).toBeVisible({ timeout: 60_000 });
  await growth.getByRole('button', { name: 'Save & share' }).click();
  const growthLink = growth.getByTestId('share-link');
  await expect(growthLink).toBeVisible();
  await page.goto((await growthLink.getAttribute('href'))!);
  await expect(page.getByText(/Growth report/)).toBeVisible();
  await expect(page.getByTestId('growth-summary')).toBeVisible({ timeout: 30_000 });

  expect(problems).toEqual([]);
});
