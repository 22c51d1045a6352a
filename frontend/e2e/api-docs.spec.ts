/**
 * The API docs load without internet (issue 17) and render cleanly (issue 36): Swagger UI and ReDoc
 * with their assets from the app, no request leaving it, and no console warning (a schema shape
 * ReDoc cannot merge logged one per field and use: 1,319 of them and 10-30 s of rendering once).
 */
import { expect, test } from '@playwright/test';

// No Playwright trace in this file: its DOM snapshots of ReDoc's page (every operation and schema
// laid out) cost as much again as ReDoc's own rendering. A failure still leaves its screenshot.
test.use({ trace: 'off', viewport: { width: 1440, height: 900 } });

test('the API docs load without internet: Swagger UI and ReDoc from the app', async ({ page }) => {
  const outside: string[] = [];
  const origin = new URL(test.info().project.use.baseURL!).host;
  await page.route('**/*', (route) => {
    if (new URL(route.request().url()).host === origin) return route.continue();
    outside.push(route.request().url());
    return route.abort();
  });
  const warnings: string[] = [];
  const refused: string[] = []; // what the pages' Content-Security-Policy blocked (logged as errors)
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
    // ReDoc's footer logo from its vendor's CDN is refused on purpose (images from this app only)
    const logo = message.text().includes('cdn.redoc.ly/redoc/logo');
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()) && !logo) refused.push(message.text());
  });
  await page.goto('/docs');
  await expect(page.locator('.swagger-ui .opblock').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('.swagger-ui .opblock-summary-path', { hasText: '/api/v1/raid-grid' })).toBeVisible();
  await page.goto('/redoc');
  await expect(page.getByText('/api/v1/raid-grid').first()).toBeAttached({ timeout: 20_000 });
  expect(outside).toEqual([]);
  expect(warnings).toEqual([]);
  expect(refused).toEqual([]);
});
