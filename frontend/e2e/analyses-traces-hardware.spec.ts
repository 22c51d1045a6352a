/**
 * The screens around Size, against the real backend: a synthetic block trace uploaded, analysed and
 * used as the workload; the analyses of a sized configuration (growth, tornado, maximum workload,
 * ranges, degraded modes, the two calculators); custom hardware created (with the API's 422 at a
 * field), edited, used in the builder and deleted. Screenshots go to ../test-results/screenshots/ (./output.ts).
 */
import { expect, test, type Browser, type Page } from '@playwright/test';

import { screenshots } from './output';


/** Console errors and page errors, except the browser's own line for an expected HTTP status. */
function watch(page: Page, problems: string[], expectedStatus: RegExp | null = null) {
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !(expectedStatus && expectedStatus.test(msg.text()))) problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
}

async function freshPage(browser: Browser, problems: string[], viewport = { width: 1280, height: 800 }, expectedStatus: RegExp | null = null) {
  const context = await browser.newContext({ viewport, baseURL: test.info().project.use.baseURL });
  const page = await context.newPage();
  watch(page, problems, expectedStatus);
  return page;
}

/** `time_s,op,offset,size,latency_ms`: 3,000 I/Os in two busy spells, 80% of them on a hot 2% of the blocks. */
function syntheticTrace(rows = 3000): string {
  let s = 12345;
  const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const sizes = [4096, 8192, 8192, 16384, 65536];
  const lines = ['time_s,op,offset,size,latency_ms'];
  let t = 0;
  for (let i = 0; i < rows; i += 1) {
    t += -Math.log(1 - rand()) / (Math.floor(i / 750) % 2 === 0 ? 6 : 25);
    const block = rand() < 0.8 ? Math.floor(rand() * 2000) : Math.floor(rand() * 100000);
    const op = rand() < 0.7 ? 'R' : 'W';
    lines.push(`${t.toFixed(6)},${op},${block * 4096},${sizes[Math.floor(rand() * sizes.length)]},${(-Math.log(1 - rand()) * 8).toFixed(3)}`);
  }
  return `${lines.join('\n')}\n`;
}

async function noOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

/** Every form control has an accessible name. */
async function unnamedControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('input, select, textarea, button')]
      .filter((el) => !(el as HTMLElement).closest('[hidden], details:not([open])'))
      .filter((el) => {
        const label = (el as HTMLInputElement).labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
        return !label && !(el.tagName === 'BUTTON' && el.textContent?.trim());
      })
      .map((el) => el.outerHTML.slice(0, 80)),
  );
}

test('traces: upload a synthetic trace, follow it, see the profile and the curves, use it as the workload', async ({ browser }) => {
  test.setTimeout(60_000);
  const problems: string[] = [];
  const page = await freshPage(browser, problems);
  await page.goto('/traces');
  await expect(page.getByRole('heading', { level: 1, name: 'Traces' })).toBeVisible();
  await page.getByLabel('Trace file').setInputFiles({ name: 'synthetic.csv', mimeType: 'text/csv', buffer: Buffer.from(syntheticTrace()) });
  await page.getByRole('spinbutton', { name: 'Interval [s]' }).fill('10');
  await page.getByRole('spinbutton', { name: 'Latency target [ms]' }).fill('5');
  await page.getByRole('textbox', { name: 'Workload name' }).fill('synthetic db');
  expect(await unnamedControls(page)).toEqual([]);
  await page.getByRole('button', { name: 'Upload and analyse' }).click();

  // the job id is in the address: the analysis survives a reload
  await expect(page).toHaveURL(/\/traces\/[\w-]+$/);
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible({ timeout: 20_000 });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
  await expect(page.getByText('IOPS and MB/s per 10 s interval', { exact: true })).toBeVisible();
  await expect(page.getByText('Miss ratio vs cache size', { exact: true })).toBeVisible();
  await expect(page.locator('.trace-results .recharts-wrapper')).toHaveCount(2);
  await expect(page.locator('.trace-results .recharts-line')).not.toHaveCount(0);
  await expect(page.getByTestId('tier-table')).toContainText('80% of I/O');
  await expect(page.getByTestId('pent-up')).toContainText('Pent-up demand');
  await expect(page.getByTestId('size-histogram')).toContainText('64 KiB');
  await expect(page.getByTestId('trace-iops')).toContainText('/');
  await page.mouse.move(0, 0);
  await page.screenshot({ path: `${screenshots}traces.png`, fullPage: true });
  await page.locator('.trace-results section').nth(1).screenshot({ path: `${screenshots}traces-curves.png` });

  // phone width: the same analysis, nothing wider than the screen
  const phone = await freshPage(browser, problems, { width: 390, height: 844 });
  await phone.goto(page.url());
  await expect(phone.getByRole('heading', { name: 'Profile' })).toBeVisible();
  await expect(phone.locator('.trace-results .recharts-wrapper')).toHaveCount(2);
  await noOverflow(phone);
  await phone.screenshot({ path: `${screenshots}traces-phone.png`, fullPage: true });

  // the trace becomes the workload on Size
  await page.getByRole('button', { name: 'Use as workload' }).click();
  await expect(page).toHaveURL(/\/size$/);
  await expect(page.getByRole('region', { name: 'Workload synthetic db' })).toBeVisible();
  expect(problems).toEqual([]);
});

test('traces: a file that is not a trace is refused with samples of its bad lines', async ({ browser }) => {
  const problems: string[] = [];
  const page = await freshPage(browser, problems, undefined, /400 \(Bad Request\)/);
  await page.goto('/traces');
  const good = syntheticTrace(10).trim().split('\n').slice(1);
  const bad = Array.from({ length: 30 }, (_, i) => `${i + 1}.5,R,-${i + 1},4096`);
  await page.getByLabel('Trace file').setInputFiles({ name: 'broken.csv', mimeType: 'text/csv', buffer: Buffer.from([...good, ...bad].join('\n')) });
  await page.getByRole('button', { name: 'Upload and analyse' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('This file is not a trace the reader understands');
  await expect(alert.getByTestId('bad-lines')).toContainText('1.5,R,-1,4096');
  await expect(page).toHaveURL(/\/traces$/);
  await page.screenshot({ path: `${screenshots}traces-rejected.png`, fullPage: true });
  expect(problems).toEqual([]);
});

test('analyses of the sized configuration: growth, tornado, maximum workload, ranges, degraded, calculators', async ({ browser }) => {
  test.setTimeout(60_000);
  const problems: string[] = [];
  const page = await freshPage(browser, problems);
  await page.goto('/size');
  await page.getByRole('combobox', { name: 'Workload template' }).selectOption('oltp-database');
  await page.getByRole('button', { name: 'Start from template' }).click();
  await page.getByRole('combobox', { name: 'Vendor' }).selectOption('NetApp');
  await page.getByRole('combobox', { name: 'Array model' }).selectOption('netapp-fas3170');
  await page.getByRole('button', { name: 'Size it' }).click();
  await expect(page.getByRole('heading', { level: 2, name: /^Results: FAS3170/ })).toBeVisible();

  // reachable from the results
  await page.getByRole('link', { name: 'run the analyses' }).click();
  await expect(page).toHaveURL(/\/analyses$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Analyses' })).toBeVisible();
  await expect(page.getByTestId('growth-summary')).toContainText(/First break in month \d+|within/);
  await expect(page.getByTestId('growth-analysis').locator('.recharts-wrapper')).toHaveCount(2);
  await expect(page.getByText('Busiest component per window, and capacity fill, by month', { exact: true })).toBeVisible();
  await expect(page.getByTestId('sensitivity-summary')).toContainText('Most influential');
  await expect(page.getByTestId('sensitivity-analysis').locator('.recharts-bar-rectangle').first()).toBeVisible();
  await expect(page.getByTestId('max-workload-summary')).toContainText("today's load");
  await expect(page.getByTestId('ranges-summary')).toContainText('Headroom used');
  await expect(page.getByTestId('skew-note')).toContainText('several-fold');
  await expect(page.getByTestId('degraded-summary')).toContainText('Worst');
  await expect(page.getByTestId('rebuild-exposure').first()).toContainText('h');
  await expect(page.getByTestId('converted-iops')).toContainText('IOPS');
  expect(await unnamedControls(page)).toEqual([]);

  // the tornado switches to read latency
  await page.getByTestId('sensitivity-analysis').getByRole('radio', { name: 'Read latency [ms]' }).check();
  await expect(page.getByText('Change in read latency, ranked', { exact: true })).toBeVisible();

  // the building blocks calculator
  await page.getByRole('button', { name: 'Size the building blocks' }).click();
  await expect(page.getByTestId('building-blocks-result')).toContainText(/\d+ blocks? in \d+ racks?/);

  await page.mouse.move(0, 0);
  await page.screenshot({ path: `${screenshots}analyses.png`, fullPage: true });
  await page.getByTestId('growth-analysis').screenshot({ path: `${screenshots}analyses-growth.png` });
  await page.getByTestId('sensitivity-analysis').screenshot({ path: `${screenshots}analyses-tornado.png` });
  await page.getByTestId('degraded-analysis').screenshot({ path: `${screenshots}analyses-degraded.png` });
  await page.getByTestId('raid-conversion').screenshot({ path: `${screenshots}analyses-raid-conversion.png` });

  // the RAID conversion answers as the inputs change
  const before = await page.getByTestId('converted-iops').innerText();
  await page.getByRole('spinbutton', { name: 'Reads [%]' }).fill('30');
  await expect(page.getByTestId('converted-iops')).not.toHaveText(before);

  // phone width (the same browser: the sized configuration is in its storage)
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId('growth-analysis').locator('.recharts-wrapper')).toHaveCount(2);
  await expect(page.getByTestId('sensitivity-analysis').locator('.recharts-bar-rectangle').first()).toBeVisible();
  await expect(page.getByTestId('converted-iops')).toBeVisible();
  await noOverflow(page);
  await page.screenshot({ path: `${screenshots}analyses-phone.png`, fullPage: true });
  expect(problems).toEqual([]);
});

test('custom hardware: the API’s 422 at a field, a drive and a controller added, the drive edited, used on Size, deleted', async ({ browser }) => {
  test.setTimeout(45_000);
  const problems: string[] = [];
  const page = await freshPage(browser, problems, undefined, /422 \(Unprocessable (Entity|Content)\)/);
  await page.goto('/hardware');
  await expect(page.getByRole('heading', { level: 1, name: 'Custom hardware' })).toBeVisible();
  const form = page.getByRole('form', { name: 'New drive' });
  await form.getByRole('textbox', { name: 'Drive name' }).fill('Lab NVMe 7.68 TB');
  await form.getByRole('combobox', { name: 'Kind' }).selectOption('nvme');
  await form.getByRole('spinbutton', { name: 'Capacity [GB]' }).fill('7680');
  await form.getByRole('spinbutton', { name: 'Media rate [MB/s]' }).fill('6000');
  await form.getByRole('button', { name: 'Add the drive' }).click();
  // an SSD without its random IOPS: the engine's model says so, at the field
  await expect(form.getByRole('spinbutton', { name: 'Random 4 KiB reads [IOPS]' })).toHaveAttribute('aria-invalid', 'true');
  await expect(form.locator('.field-invalid .field-error').first()).toContainText('Required for an SSD/NVMe drive');
  await page.screenshot({ path: `${screenshots}hardware-422.png`, fullPage: true });
  await form.getByRole('spinbutton', { name: 'Random 4 KiB reads [IOPS]' }).fill('900000');
  await form.getByRole('spinbutton', { name: 'Random 4 KiB writes [IOPS]' }).fill('200000');
  await form.getByRole('spinbutton', { name: 'Read latency [µs]' }).fill('80');
  await form.getByRole('spinbutton', { name: 'Write latency [µs]' }).fill('20');
  await form.getByRole('button', { name: 'Add the drive' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added the drive' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Drives' }).getByRole('rowheader', { name: 'Lab NVMe 7.68 TB' })).toBeVisible();

  // edited: the form starts from the record; the API's 422 at a field; then saved with PUT
  await page.getByRole('button', { name: 'Edit Lab NVMe 7.68 TB' }).click();
  const edit = page.getByRole('form', { name: 'Edit drive' });
  await expect(page.getByRole('heading', { name: 'Edit the drive “Lab NVMe 7.68 TB”' })).toBeFocused();
  await expect(edit.getByRole('spinbutton', { name: 'Capacity [GB]' })).toHaveValue('7680');
  await expect(edit.getByRole('spinbutton', { name: 'Random 4 KiB reads [IOPS]' })).toHaveValue('900000');
  await edit.getByRole('spinbutton', { name: 'Random 4 KiB reads [IOPS]' }).fill('');
  await edit.getByRole('button', { name: 'Save the drive' }).click();
  await expect(edit.getByRole('spinbutton', { name: 'Random 4 KiB reads [IOPS]' })).toHaveAttribute('aria-invalid', 'true');
  await expect(edit.locator('.field-invalid .field-error').first()).toContainText('Required for an SSD/NVMe drive');
  await page.screenshot({ path: `${screenshots}hardware-edit-422.png`, fullPage: true });
  await edit.getByRole('spinbutton', { name: 'Random 4 KiB reads [IOPS]' }).fill('1000000');
  await edit.getByRole('textbox', { name: 'Drive name' }).fill('Lab NVMe 15.36 TB');
  await edit.getByRole('spinbutton', { name: 'Capacity [GB]' }).fill('15360');
  await page.locator('.hardware-editor').screenshot({ path: `${screenshots}hardware-edit.png` });
  await edit.getByRole('button', { name: 'Save the drive' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved the drive Lab NVMe 15.36 TB' })).toBeVisible();
  const edited = page.getByRole('region', { name: 'Drives' }).getByRole('row', { name: /Lab NVMe 15\.36 TB/ });
  await expect(edited).toContainText('15,360 GB');
  await expect(edited).toContainText('1,000,000 read IOPS');
  await expect(page.getByRole('rowheader', { name: 'Lab NVMe 7.68 TB' })).toHaveCount(0);

  await page.getByRole('radio', { name: 'Controller' }).check();
  await page.getByRole('textbox', { name: 'Controller model' }).fill('Lab controller');
  await page.getByRole('button', { name: 'Add the controller' }).click();
  await expect(page.getByRole('region', { name: 'Controllers' }).getByRole('rowheader', { name: 'Lab controller' })).toBeVisible();
  expect(await unnamedControls(page)).toEqual([]);
  await page.screenshot({ path: `${screenshots}hardware.png`, fullPage: true });

  // on Size: the drive in the Generic (any drive) array, the controller in place of the array's own
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Size' }).click();
  await page.getByRole('combobox', { name: 'Vendor' }).selectOption('Generic');
  await expect(page.getByRole('combobox', { name: 'Drive', exact: true }).locator('option', { hasText: 'Lab NVMe 15.36 TB' })).toHaveCount(1);
  await expect(page.getByRole('combobox', { name: 'Controllers' }).locator('option', { hasText: 'Lab controller' })).toHaveCount(1);
  await page.getByRole('combobox', { name: 'Drive', exact: true }).selectOption({ label: 'Lab NVMe 15.36 TB · NVMe · custom' });
  await page.getByRole('combobox', { name: 'Controllers' }).selectOption({ label: 'Custom: 2 x Lab controller' });
  await page.locator('.builder').screenshot({ path: `${screenshots}size-custom-hardware.png` });

  // deleted after a confirmation
  await page.goto('/hardware');
  await page.getByRole('button', { name: 'Delete Lab controller' }).click();
  await page.getByRole('button', { name: 'Yes, delete Lab controller' }).click();
  await expect(page.getByRole('region', { name: 'Controllers' }).getByRole('rowheader', { name: 'Lab controller' })).toHaveCount(0);

  // at 390 px in the same browser (the list shows this browser's own records; another browser's
  // are in a folded, read-only section)
  const phone = page;
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto('/hardware');
  await expect(phone.getByRole('rowheader', { name: 'Lab NVMe 15.36 TB' })).toBeVisible();
  await noOverflow(phone);
  await phone.screenshot({ path: `${screenshots}hardware-phone.png`, fullPage: true });
  expect(problems).toEqual([]);
});
