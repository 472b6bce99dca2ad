// Tour: a ward board on a wall (issue 23, item 1; docs/decisions.md "Wall screens"). An
// administrator pairs a screen for the demo's unit from the board; a second browser, signed in as
// nobody, opens /pair, types the one-time code and shows that unit's board live, read-only (no
// Attend; its token is refused by the attend call); the administrator sees the screen in the list
// and unpairs it, and the wall screen says it is no longer paired.

import { DEMO_ADMIN } from '../harness.mjs';

export const name = 'ward-wall';

const TILE = '[data-testid="ward-tile"]';

export async function run({ base, page, newBrowser, test, shot, login }) {
  let code = '';
  let unitPath = '';
  let wall = null;

  await test('an administrator pairs a screen for the unit shown', async (ok) => {
    await page.setViewportSize({ width: 1440, height: 1000 });
    await login(page, DEMO_ADMIN);
    await page.getByTestId('ward-link').click();
    await page.waitForURL((u) => u.pathname === '/ward');
    await page.getByTestId('ward-unit').first().click();
    await page.waitForURL((u) => u.pathname.startsWith('/ward/'));
    unitPath = new URL(page.url()).pathname;
    await page.getByTestId('wall-screens').locator('summary').click();
    await page.getByTestId('pair-screen-start').click();
    code = (await page.getByTestId('pairing-code-value').innerText()).trim();
    if (!/^[A-Z2-9]{4}-[A-Z2-9]{4}$/.test(code)) throw new Error(`unexpected code ${code}`);
    const link = await page.getByTestId('pairing-link').getAttribute('href');
    if (!link.endsWith(`/pair#${code.replace('-', '')}`)) throw new Error(`link ${link}`);
    ok(`code ${code} for ${decodeURIComponent(unitPath)}, link ${link}`);
    await shot('1-admin-pairing-code.png');
  });

  await test('a second browser pairs with the code and shows the unit live, read-only', async (ok) => {
    wall = await newBrowser();
    const w = wall.page;
    await w.setViewportSize({ width: 1920, height: 1080 });
    await w.goto(`${base}/pair`);
    await w.getByTestId('pair-code').fill(code.toLowerCase());
    await w.getByTestId('pair-submit').click();
    await w.waitForURL((u) => u.pathname === unitPath, { timeout: 30_000 });
    await w.waitForFunction((sel) => document.querySelectorAll(sel).length >= 1, TILE, { timeout: 60_000 });
    const map = w.locator(`${TILE} [data-testid="ward-tile-map"]`).first();
    await w.waitForFunction((el) => el && el.dataset.blank === 'false' && Number(el.dataset.uploads) >= 2, await map.elementHandle(), {
      timeout: 90_000,
    });
    ok(`${await w.locator(TILE).count()} tiles, a live map drawn (${await map.getAttribute('data-uploads')} uploads)`);
    for (const absent of ['ward-attend', 'alarm-attend', 'ward-unit', 'ward-initials', 'wall-screens', 'ward-link']) {
      if ((await w.getByTestId(absent).count()) > 0) throw new Error(`${absent} shown on the wall screen`);
    }
    if (!(await w.getByTestId('wall-screen-badge').isVisible())) throw new Error('no wall-screen badge');
    if ((await w.getByRole('button', { name: 'Log out' }).count()) > 0) throw new Error('Log out on the wall screen');
    ok('no Attend, no unit list, no names switch, no Log out; the wall-screen badge');
    // The screen's own token cannot attend, nor open another unit or the device list.
    const refused = await w.evaluate(async (deviceId) => {
      const token = localStorage.getItem('user');
      const res = await fetch(`/api/iotAlarms/${deviceId}`, { method: 'PUT', headers: { Authorization: `Bearer ${token}` } });
      return { status: res.status, body: await res.json() };
    }, await w.locator(TILE).first().getAttribute('data-device-id'));
    if (refused.status !== 403 || refused.body.error !== 'boardReadOnly') throw new Error(`attend answered ${JSON.stringify(refused)}`);
    ok('attending with the screen token: 403 boardReadOnly');
    await w.goto(`${base}/devices`);
    await w.waitForURL((u) => u.pathname === unitPath);
    ok('/devices opens the screen\'s own board');
    await w.waitForFunction((sel) => document.querySelectorAll(sel).length >= 1, TILE, { timeout: 60_000 });
    await w.waitForTimeout(4000);
    await shot('2-wall-screen-board.png', w);
  });

  await test('the administrator sees the paired screen and unpairs it; the wall says so', async (ok) => {
    await page.reload();
    await page.waitForFunction((sel) => document.querySelectorAll(sel).length >= 1, TILE, { timeout: 60_000 });
    await page.getByTestId('wall-screens').locator('summary').click();
    const row = page.getByTestId('wall-screen').first();
    await row.waitFor();
    const text = (await row.innerText()).replace(/\s+/g, ' ');
    if (!text.includes('admin@example.com')) throw new Error(`row: ${text}`);
    ok(`listed: ${text}`);
    await shot('3-admin-screens-list.png');
    page.once('dialog', (d) => d.accept());
    await row.getByTestId('unpair-screen').click();
    await page.getByText('No screen is paired yet.').waitFor();
    ok('unpaired');
    const w = wall.page;
    await w.waitForURL((u) => u.pathname === '/pair', { timeout: 30_000 });
    await w.getByTestId('screen-unpaired').waitFor();
    ok(`the wall: ${(await w.getByTestId('screen-unpaired').innerText()).trim()}`);
    await shot('4-wall-screen-unpaired.png', w);
    await page.goto(`${base}/adminPanel/auditLog`);
    await page.locator('[data-testid="audit-row"][data-action="boardScreen.unpair"]').first().waitFor({ timeout: 15_000 });
    await page.locator('[data-testid="audit-row"][data-action="boardScreen.pair"]').first().waitFor({ timeout: 15_000 });
    ok('both in the audit log');
    await shot('5-audit-log.png');
  });
}
