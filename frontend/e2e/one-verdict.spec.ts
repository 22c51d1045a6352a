/**
 * One honest verdict (issue 33), against the real backend in Chromium: the headline decides on every
 * case it claims (the FAS8040 OLTP case), and nothing changes silently: a cleared working set % or
 * throughput is an error at its field that blocks the run, renaming a phase's window keeps the focus
 * (the typing lands), select-all + Backspace in an I/O-size cell keeps the row, and an old engine
 * error clears when its input changes.
 */
import { expect, test, type Page } from '@playwright/test';

/** The OLTP template on a NetApp FAS8040, 900 GB 10K drives, RAID-DP, 1,024 GB Flash Cache, on Size. */
async function oltpOnFas8040(page: Page) {
  await page.goto('/size');
  await page.getByRole('combobox', { name: 'Workload template' }).selectOption('oltp-database');
  await page.getByRole('button', { name: 'Start from template' }).click();
  await page.getByRole('combobox', { name: 'Vendor' }).selectOption('NetApp');
  await page.getByRole('combobox', { name: 'Array model' }).selectOption('netapp-fas8040');
  await page.getByRole('combobox', { name: 'Drive', exact: true }).selectOption('hdd-10k-sas-900');
  await expect(page.getByRole('combobox', { name: 'RAID scheme' })).toHaveValue('raid-dp');
  await page.getByRole('combobox', { name: 'Flash cache [GB, whole system]' }).selectOption('1024');
}

/** The POST /api/v1/size bodies the page sends. */
function sizeRequests(page: Page): string[] {
  const bodies: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/size') bodies.push(r.postData() ?? '');
  });
  return bodies;
}

test('the FAS8040 OLTP case: the headline is the verdict over every case, and every case is listed', async ({ page }) => {
  test.setTimeout(90_000);
  await oltpOnFas8040(page);
  await page.getByRole('button', { name: 'Size it' }).click();
  const headline = page.getByRole('heading', { level: 3, name: /^Meets every target healthy, with a drive failed, while a drive rebuilds/ });
  await expect(headline).toBeVisible({ timeout: 60_000 });
  await expect(headline).toContainText('at month 36 of growth');
  // not the 128 drives that met healthy operation only
  const explanation = page.locator('.sizing-explanation');
  await expect(explanation).toContainText(/\d+ x 900 GB 10K SAS .* in every case judged/);
  await expect(explanation).not.toContainText('128 x');
  await page.getByText(/^Every case judged/).click();
  const cases = page.getByTestId('verdict-cases').getByRole('listitem');
  await expect(cases.filter({ hasText: /^meets nightly export \(at month 36\): meets every target; busiest is degraded RAID group/ })).toHaveCount(2);
  await expect(cases.filter({ hasText: /^fails/ })).toHaveCount(0);
  // beside the verdict: the chance of meeting every target over the inputs' ranges and the model's error
  const chance = page.getByTestId('verdict-chance');
  await expect(chance).toContainText(/^Chance of meeting every target: \d+(\.\d)?%\. Meets every target in every case judged in/, { timeout: 60_000 });
  await expect(chance).toContainText("the model's own error (make validate)");
});

test('an emptied working set % or throughput is an error at the field and blocks the run', async ({ page }) => {
  const sizes = sizeRequests(page);
  await oltpOnFas8040(page);
  const workload = page.getByRole('region', { name: 'Workload OLTP database' });
  await workload.getByRole('combobox', { name: 'Working set' }).selectOption('pct');
  const pct = workload.getByRole('spinbutton', { name: 'Working set [% of capacity]' });
  await pct.fill('');
  const scan = page.getByRole('group', { name: 'Phase export table scan' });
  const throughput = scan.getByRole('spinbutton', { name: 'Throughput [MB/s]' });
  await throughput.fill('');
  await page.getByRole('button', { name: 'Size it' }).click();

  await expect(pct).toHaveAccessibleDescription('Enter a number');
  await expect(throughput).toHaveAccessibleDescription('Enter a number');
  await expect(pct).toBeFocused();
  // the modes stayed: the field is there, empty, never "Whole capacity" or a 0 MB/s phase
  await expect(workload.getByRole('combobox', { name: 'Working set' })).toHaveValue('pct');
  await expect(scan.getByRole('combobox', { name: 'Rate given as' })).toHaveValue('mbs');
  expect(sizes).toHaveLength(0);
});

test('renaming a phase window keeps the focus: what is typed next lands in the next field', async ({ page }) => {
  test.setTimeout(90_000);
  const sizes = sizeRequests(page);
  await oltpOnFas8040(page);
  const business = page.getByRole('region', { name: 'Window business hours' });
  const window = business.getByRole('combobox', { name: 'Window' });
  await window.fill('daytime');
  await page.keyboard.press('Tab'); // commits the name; focus goes on to "Rate given as"
  const daytime = page.getByRole('region', { name: 'Window daytime' });
  await expect(daytime.getByRole('combobox', { name: 'Rate given as' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(daytime.getByRole('spinbutton', { name: 'IOPS' })).toBeFocused();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('12000');
  await page.getByRole('button', { name: 'Size it' }).click();
  await expect(page.getByRole('heading', { level: 2, name: /^Results: FAS8040/ })).toBeVisible({ timeout: 60_000 });
  const sent = JSON.parse(sizes.at(-1)!);
  const phase = sent.workloads[0].phases.find((p: { window: string }) => p.window === 'daytime');
  expect(phase.iops).toBe(12000);
});

test('select-all + Backspace in an I/O-size cell keeps the row, empty and flagged', async ({ page }) => {
  const sizes = sizeRequests(page);
  await oltpOnFas8040(page);
  const phase = page.getByRole('group', { name: 'Phase online transactions' });
  const size = phase.getByRole('spinbutton', { name: 'Size of row 1 [KiB]' });
  await size.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await expect(size).toHaveValue('');
  await expect(phase.getByRole('spinbutton', { name: 'Share of row 1 [%]' })).toHaveValue('100');
  await page.getByRole('button', { name: 'Size it' }).click();
  await expect(phase.getByText('Enter a number')).toBeVisible();
  expect(sizes).toHaveLength(0);
});

test("an engine error clears when its input changes (the workload replaced)", async ({ page }) => {
  test.setTimeout(90_000);
  await oltpOnFas8040(page);
  // a mix summing to 90%: the API's own cross-field rule answers with a 422
  const phase = page.getByRole('group', { name: 'Phase online transactions' });
  await phase.getByRole('button', { name: 'Add a size' }).click();
  await phase.getByRole('spinbutton', { name: 'Share of row 1 [%]' }).fill('60');
  await phase.getByRole('spinbutton', { name: 'Share of row 2 [%]' }).fill('30');
  await page.getByRole('button', { name: 'Size it' }).click();
  const apiErrors = page.getByText('The API could not run this');
  await expect(apiErrors).toBeVisible({ timeout: 60_000 });
  // the workload replaced by the template: the old error (about inputs no longer there) is gone
  await page.getByRole('button', { name: 'Remove workload' }).click();
  await page.getByRole('combobox', { name: 'Workload template' }).selectOption('oltp-database');
  await page.getByRole('button', { name: 'Start from template' }).click();
  await expect(apiErrors).toHaveCount(0);
  await expect(page.getByText(/workloads\.0\.phases/)).toHaveCount(0);
});

test('sizing to a stated confidence: the request asks /size for 90% and the chance beside the verdict says so', async ({ page }) => {
  test.setTimeout(120_000);
  const sizes = sizeRequests(page);
  await oltpOnFas8040(page);
  await page.getByRole('checkbox', { name: /Size to a stated chance of meeting every case/ }).check();
  const pct = page.getByRole('spinbutton', { name: 'Chance of meeting every case [%]' });
  await expect(pct).toHaveValue('90');
  // cleared, the figure is an error at the field and no sizing runs
  await pct.fill('');
  await page.getByRole('button', { name: 'Size it' }).click();
  await expect(pct).toHaveAccessibleDescription(/Enter a number/);
  expect(sizes).toHaveLength(0);
  await pct.fill('90');
  await page.getByRole('button', { name: 'Size it' }).click();
  await expect(page.getByRole('heading', { level: 2, name: /^Results: FAS8040/ })).toBeVisible({ timeout: 90_000 });
  expect(JSON.parse(sizes.at(-1)!).confidence_pct).toBe(90);
  const chance = page.getByTestId('verdict-chance');
  await expect(chance).toContainText(/^Chance of meeting every target: \d+(\.\d)?% \(sized to 90%\)\./);
});
