/**
 * Traces against the real backend: a trace shorter than the profile interval (2.5 s in 60 s
 * intervals) has its true rates, and "Use as workload" hands them to Size.
 */
import { expect, test } from '@playwright/test';

/** `time_s,op,offset,size`: 5,000 reads 0.5 ms apart, 2.5 s in all: 2,000 IOPS throughout. */
function shortTrace(): string {
  const lines = ['time_s,op,offset,size'];
  for (let i = 0; i < 5000; i += 1) lines.push(`${(i * 0.0005).toFixed(4)},R,${(i % 500) * 4096},4096`);
  return `${lines.join('\n')}\n`;
}

test('traces: a 2.5 s trace in 60 s intervals shows 2,000 IOPS and hands 2,000 IOPS to Size', async ({ page }) => {
  test.setTimeout(60_000);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto('/traces');
  await page.getByLabel('Trace file').setInputFiles({ name: 'short.csv', mimeType: 'text/csv', buffer: Buffer.from(shortTrace()) });
  await page.getByRole('textbox', { name: 'Workload name' }).fill('short burst');
  await page.getByRole('button', { name: 'Upload and analyse' }).click();

  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('trace-iops')).toHaveText(/2,000\s*\/\s*2,000/);
  await expect(page.getByText(/The whole trace \(2\.5 s\) fits in one 60 s interval/)).toBeVisible();
  await expect(page.getByText('The trace has no timestamps')).toHaveCount(0);

  await page.getByRole('button', { name: 'Use as workload' }).click();
  await expect(page).toHaveURL(/\/size$/);
  const workload = page.getByRole('region', { name: 'Workload short burst' });
  await expect(workload).toBeVisible();
  await expect(workload.getByRole('spinbutton', { name: 'IOPS' }).first()).toHaveValue('2000');
  expect(problems).toEqual([]);
});

/** MSR Cambridge CSV: 600 I/Os on two volumes of host usr and 300 on web/0, 10 ms apart. */
function twoHostTrace(): string {
  const lines: string[] = [];
  for (let i = 0; i < 900; i += 1) {
    const volume = i % 3 === 2 ? 'web,0' : `usr,${i % 3}`;
    lines.push(`${128166372000000000 + i * 100000},${volume},${i % 4 === 0 ? 'Write' : 'Read'},${(i % 97) * 4096},4096,2000`);
  }
  return `${lines.join('\n')}\n`;
}

test('traces: a volume filter keeps one host, and the table lists every volume with what was kept', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/traces');
  await page.getByLabel('Trace file').setInputFiles({ name: 'msr.csv', mimeType: 'text/csv', buffer: Buffer.from(twoHostTrace()) });
  await page.getByRole('textbox', { name: 'Volumes' }).fill('usr');
  await page.getByRole('button', { name: 'Upload and analyse' }).click();

  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible({ timeout: 20_000 });
  const table = page.getByTestId('volume-table');
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table.getByRole('row', { name: /usr\/0/ })).toContainText('yes');
  await expect(table.getByRole('row', { name: /web\/0/ })).toContainText('no');
  await expect(page.getByTestId('trace-iops')).toBeVisible();
});
