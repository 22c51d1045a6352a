/**
 * Host statistics round trip against the real backend: a day of iostat output dropped on the
 * workloads editor becomes a workload whose phases are the peak hour and the nightly batch; it is
 * evaluated on a FAS3170, and the host-observed latency appears beside the model's prediction for
 * that system. A second pass picks one disk and separate workloads, and a file the importer cannot
 * read shows the line it stopped at.
 */
import { expect, test, type Page } from '@playwright/test';

import { screenshots } from './output';

import { syntheticIostat } from './host-stats-sample.mjs';


/** Drops a text file on the host-statistics drop zone, as a user dragging it from the desktop would. */
async function dropFile(page: Page, name: string, text: string) {
  const dataTransfer = await page.evaluateHandle(
    ([fileName, body]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([body], fileName, { type: 'text/plain' }));
      return dt;
    },
    [name, text] as const,
  );
  const zone = page.getByTestId('host-stats-drop');
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}

test('iostat dropped on the editor becomes workloads with windows, and observed latency meets the model', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));

  await page.goto('/size');
  await page.getByText('Import host statistics: iostat, sar, perfmon, esxtop').click();
  await dropFile(page, 'iostat-dbhost01.txt', syntheticIostat());

  await expect(page.getByText(/from dbhost01: 2024-01-15 00:00 to 2024-01-16 00:00/)).toBeVisible();
  const windows = page.getByRole('table', { name: /Windows found/ });
  const peak = windows.getByRole('row', { name: /^peak hour ✓/ });
  // two disks at 600 and 660 I/O per s in the peak hour
  await expect(peak.getByRole('cell').nth(1)).toHaveText('1,260');
  await expect(windows.getByRole('row', { name: /^nightly batch ✓/ })).toBeVisible();
  await page.getByRole('spinbutton', { name: 'Capacity [TB]' }).fill('2');
  await page.getByRole('spinbutton', { name: 'Capacity [TB]' }).blur();
  await expect(page.getByText(/give capacity_tb/)).toHaveCount(0);
  await page.screenshot({ path: `${screenshots}host-stats-import.png`, fullPage: true });
  await page.getByRole('button', { name: 'Use these workloads' }).click();

  const workload = page.getByRole('region', { name: 'Workload dbhost01' });
  await expect(workload.getByRole('region', { name: 'Window peak hour' })).toBeVisible();
  await expect(workload.getByRole('region', { name: 'Window nightly batch' })).toBeVisible();
  await expect(workload.getByRole('spinbutton', { name: 'Capacity today [TB]' })).toHaveValue('2');
  // the 12 ms reads the host saw in the peak hour are offered as its read latency target (#33)
  const peakPhase = workload.getByRole('region', { name: 'Window peak hour' });
  await expect(peakPhase.getByRole('spinbutton', { name: /^Read latency target/ }).first()).toHaveValue('12');

  await page.getByRole('combobox', { name: 'Vendor' }).selectOption('NetApp');
  await page.getByRole('combobox', { name: 'Array model' }).selectOption('netapp-fas3170');
  await page.getByRole('radio', { name: 'A fixed drive count' }).first().check();
  await page.getByRole('spinbutton', { name: 'Drives (excluding spares)' }).first().fill('48');
  await page.getByRole('button', { name: 'Evaluate' }).click();

  const observed = page.getByRole('region', { name: /What you have now/ });
  const table = observed.getByRole('table', { name: 'Observed on the host vs predicted by the model' });
  const row = table.getByRole('row', { name: /dbhost01 \/ peak hour/ });
  await expect(row.getByRole('cell').nth(0)).toHaveText('1,260');
  await expect(row.getByRole('cell').nth(1)).toHaveText('12 ms');
  await expect(row.getByRole('cell').nth(2)).toHaveText(/\d+(\.\d+)? ms/);
  await expect(row.getByRole('cell').nth(3)).toHaveText(/[+-]?\d+(\.\d+)? %/);
  await observed.scrollIntoViewIfNeeded();
  await observed.screenshot({ path: `${screenshots}host-stats-observed.png` });
  expect(problems).toEqual([]);
});

test('one disk as its own workload, and a file that cannot be read names its line', async ({ page }) => {
  await page.goto('/size');
  await page.getByText('Import host statistics: iostat, sar, perfmon, esxtop').click();
  await page.getByLabel('Host statistics file').setInputFiles({
    name: 'iostat.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from(syntheticIostat()),
  });
  await page.getByRole('checkbox', { name: 'Use sda' }).click(); // the server answers with sdb alone
  await page.getByRole('combobox', { name: 'Workloads' }).selectOption('separate');
  const devices = page.getByRole('table', { name: /Devices/ });
  await expect(devices.getByRole('checkbox', { name: 'Use sda' })).not.toBeChecked();
  await expect(devices.getByRole('checkbox', { name: 'Use sdb' })).toBeChecked();
  await expect(page.getByRole('table', { name: /Windows found/ }).getByRole('row', { name: /^peak hour ✓/ }).getByRole('cell').nth(1)).toHaveText('660');
  await page.getByRole('button', { name: 'Use these workloads' }).click();
  await expect(page.getByRole('region', { name: 'Workload sdb' })).toBeVisible();

  const lines = syntheticIostat().split('\n');
  const bad = lines.findIndex((l, i) => i > 10 && l.startsWith('sdb'));
  lines[bad] = lines[bad]!.replace(/^(sdb\s+)\S+/, '$1abc');
  await page.getByLabel('Host statistics file').setInputFiles({ name: 'broken.txt', mimeType: 'text/plain', buffer: Buffer.from(lines.join('\n')) });
  await expect(page.getByText(`line ${bad + 1}, column 2 (r/s): not a number: 'abc'`)).toBeVisible();
});
