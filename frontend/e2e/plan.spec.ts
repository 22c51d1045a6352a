/**
 * The installed base, against the real backend: the OLTP template's workload, then on Plan a
 * vendor's quote checked (a cache size the array does not sell refused at its field, then the
 * findings, saved and opened as a report) and a consolidation onto two candidate families beside an
 * array already owned (a drive count its RAID cannot have refused at the field, then placements, saved
 * and opened as a report).
 */
import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';

function watch(page: Page, problems: string[]) {
  page.on('console', (msg: ConsoleMessage) => {
    if (msg.type() === 'error' && !msg.text().includes('422')) problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
}

async function workloadsFromTemplate(page: Page) {
  await page.goto('/size');
  await page.getByRole('combobox', { name: 'Workload template' }).selectOption('oltp-database');
  await page.getByRole('button', { name: 'Start from template' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Plan' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Plan' })).toBeVisible();
}

/** Save & share under the answer, then open the report it links to. */
async function saveAndOpen(page: Page, kindTitle: string) {
  await page.getByRole('button', { name: 'Save & share' }).click();
  const link = page.getByTestId('share-link');
  await expect(link).toBeVisible();
  await page.goto((await link.getAttribute('href'))!);
  await expect(page.getByText(`${kindTitle} report · read-only snapshot`)).toBeVisible();
}

test('quote check: a bill of materials refused at its field, then checked, saved and shared', async ({ page }) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  watch(page, problems);
  await workloadsFromTemplate(page);

  const form = page.getByRole('form', { name: "The vendor's quote" });
  await form.getByRole('textbox', { name: 'Model as quoted' }).fill('FAS3270 HA pair');
  await form.getByRole('combobox', { name: 'Catalog array' }).selectOption('netapp-fas3270');
  await form.getByRole('combobox', { name: 'Drive' }).selectOption('hdd-10k-sas-600');
  await form.getByRole('spinbutton', { name: /Drives quoted/ }).fill('96');
  await form.getByRole('spinbutton', { name: 'Shelves quoted' }).fill('4');
  await form.getByRole('spinbutton', { name: /Flash cache/ }).fill('333');
  await form.getByRole('button', { name: 'Check the quote' }).click();
  await expect(form.getByText(/not a flash cache size|does not sell|flash cache/i).first()).toBeVisible({ timeout: 30_000 });

  await form.getByRole('spinbutton', { name: /Flash cache/ }).fill('512');
  await form.getByRole('button', { name: 'Check the quote' }).click();
  const result = page.getByRole('region', { name: 'Quote check' });
  await expect(result.getByRole('heading', { name: /^Second opinion: / })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('quote-verdict')).toContainText('FAS3270 HA pair as quoted (96 x');
  await expect(result.getByRole('row', { name: /^drives (over|under|right)/ })).toBeVisible();
  await expect(result.getByRole('row', { name: /^shelves / })).toBeVisible();
  await expect(result.getByRole('row', { name: /^failure controller-failed/ })).toBeVisible();

  await saveAndOpen(page, 'Quote check');
  await expect(page.getByTestId('quote-verdict')).toContainText('FAS3270 HA pair as quoted');
  expect(problems).toEqual([]);
});

test('consolidation: candidate families beside an owned array, placed, saved and shared', async ({ page }) => {
  test.setTimeout(180_000);
  const problems: string[] = [];
  watch(page, problems);
  await workloadsFromTemplate(page);

  await page.getByRole('tab', { name: 'Consolidate' }).click();
  const form = page.getByRole('form', { name: 'Arrays to consolidate onto' });
  await form.getByRole('checkbox', { name: 'NetApp FAS3270' }).check();
  await form.getByRole('checkbox', { name: 'EMC VNX5300' }).check();
  await form.getByRole('button', { name: 'Add an owned array' }).click();
  await form.getByRole('combobox', { name: 'Owned array 1' }).selectOption('netapp-fas2050');
  await form.getByRole('spinbutton', { name: 'Drives in owned array 1' }).fill('12');
  await form.getByRole('button', { name: 'Consolidate' }).click();
  // 12 drives cannot be the FAS2050's RAID-DP: the error names the owned array's drive count
  await expect(page.getByRole('alert')).toContainText('needs at least 16 drives', { timeout: 60_000 });
  await expect(form.getByText(/needs at least 16 drives/)).toBeVisible();

  await form.getByRole('spinbutton', { name: 'Drives in owned array 1' }).fill('32');
  await form.getByRole('button', { name: 'Consolidate' }).click();
  const result = page.getByRole('region', { name: 'Consolidation' });
  await expect(page.getByTestId('consolidation-summary')).toContainText(/workloads? on \d+ arrays?/, { timeout: 90_000 });
  const rows = result.getByRole('table', { name: 'Arrays and what each carries' }).locator('tbody tr');
  expect(await rows.count()).toBeGreaterThan(0);
  await expect(rows.first()).toContainText(/FAS|VNX|owned/);

  await saveAndOpen(page, 'Consolidation');
  await expect(page.getByTestId('consolidation-summary')).toBeVisible();
  expect(problems).toEqual([]);
});
