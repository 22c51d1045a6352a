import { expect, test, type ConsoleMessage } from '@playwright/test';

import { screenshots } from './output';

test('home shows the app and a healthy API, and the nav leads to Size', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (msg: ConsoleMessage) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));

  await page.goto('/');
  await expect(page).toHaveTitle('Storage Sizer');
  await expect(page.getByRole('heading', { level: 1, name: 'Storage Sizer' })).toBeVisible();
  await expect(page.getByRole('status')).toContainText('API ok');
  await expect(page.getByRole('status')).toContainText(/engine \S+ · catalog \S+/);
  await page.screenshot({ path: `${screenshots}home.png`, fullPage: true });

  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Size' }).click();
  await expect(page).toHaveURL(/\/size$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Size' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Size' })).toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveTitle('Size · Storage Sizer');

  expect(problems).toEqual([]);
});
