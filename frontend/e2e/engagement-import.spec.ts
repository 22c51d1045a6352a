/**
 * An engagement against the real backend: a Live Optics workbook, an RVTools workbook and a
 * reporting host's iostat (files written by scripts/example_engagement.py from the documented
 * layouts) are dropped on the Import page; the workbooks are read, the Live Optics VMs (busy
 * 10:00-11:00, 1,260 I/O per s) and the reporting host (busy 14:00-15:00, 1,000 reads per s) are
 * lined up on one clock, the coincident peak (1,360) is shown beside the sum of the peaks (2,260), and the
 * timeline's workloads are sized on a FAS3170.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { expect, test, type Page } from '@playwright/test';

const root = fileURLToPath(new URL('../../', import.meta.url));
const screenshots = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

function engagement(): string {
  const dir = mkdtempSync(join(tmpdir(), 'engagement-'));
  execFileSync(join(root, '.venv/bin/python'), ['scripts/example_engagement.py', dir], { cwd: root });
  return dir;
}

/** Drops files on the import zone, as a user dragging them from the desktop would. */
async function dropFiles(page: Page, files: { name: string; base64: string; type: string }[]) {
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name, { type: f.type }));
    }
    return dt;
  }, files);
  const zone = page.getByTestId('engagement-drop');
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

test('Live Optics, RVTools and iostat line up on one timeline and the result is sized', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  const dir = engagement();
  const file = (name: string, type: string) => ({ name, type, base64: readFileSync(join(dir, name)).toString('base64') });

  await page.goto('/import');
  await expect(page.getByRole('heading', { level: 1, name: 'Import an engagement' })).toBeVisible();
  await dropFiles(page, [file('LiveOptics_project.xlsx', XLSX), file('RVTools_export_all.xlsx', XLSX)]);

  const files = page.getByRole('table', { name: 'Imports' });
  const lo = files.getByRole('row', { name: 'LiveOptics_project.xlsx' });
  const rv = files.getByRole('row', { name: 'RVTools_export_all.xlsx' });
  await expect(lo).toContainText('time series (sheet Performance)');
  await expect(rv).toContainText('3 VMs');
  await expect(rv).toContainText('no performance data');
  await lo.getByLabel('Time zone of LiveOptics_project.xlsx').fill('Europe/Berlin');

  // the Live Optics VMs alone: both peak 10:00-11:00, 600 + 660 I/O per s
  await expect(page.getByTestId('coincident-peak')).toContainText('1,260 IO/s');

  await page.getByLabel('Collector workbooks and statistics').setInputFiles({
    name: 'iostat-reporting.txt',
    mimeType: 'text/plain',
    buffer: readFileSync(join(dir, 'iostat-reporting.txt')),
  });
  const host = files.getByRole('row', { name: 'iostat-reporting.txt' });
  await expect(host).toContainText('iostat on reporting01');
  await host.getByLabel('Time zone of iostat-reporting.txt').fill('Europe/Berlin');

  // together the busiest interval is 10:00, the VMs' 1,260 plus the host's base 100 (at 14:00 only
  // 1,000 + 150 + 165 = 1,315); each one's own peak adds to 1,260 + 1,000 = 2,260
  await expect(page.getByTestId('coincident-peak')).toContainText('1,360 IO/s');
  await expect(page.getByTestId('sum-of-peaks')).toContainText('2,260 IO/s');
  await expect(page.locator('.timeline-chart .recharts-surface').first()).toBeVisible();
  const windows = page.getByRole('table', { name: /Windows found on the sum/ });
  await expect(windows.getByRole('row', { name: /^peak hour/ })).toContainText('2024-01-15 10:00 to 2024-01-15 11:00');
  // the reporting host's own peak is another time: sized as a window of its own, every import's load then
  await expect(windows.getByRole('row', { name: /^reporting01 peak/ })).toContainText('2024-01-15 14:00 to 2024-01-15 15:00');
  await page.screenshot({ path: `${screenshots}engagement-timeline.png`, fullPage: true });

  await page.getByRole('button', { name: 'Size these workloads' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Size' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Workload Synthetic engagement' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Workload reporting01' })).toBeVisible();

  await page.getByRole('combobox', { name: 'Vendor' }).selectOption('NetApp');
  await page.getByRole('combobox', { name: 'Array model' }).selectOption('netapp-fas3170');
  await page.getByRole('button', { name: 'Size it' }).click();
  const resultsHeading = page.getByRole('heading', { level: 2, name: /^Results: FAS3170/ });
  await expect(resultsHeading).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: `${screenshots}engagement-sized.png`, fullPage: true });
  expect(problems).toEqual([]);
});
