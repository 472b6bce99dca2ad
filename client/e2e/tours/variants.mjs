// Tour: company variants (spec §1, §6) as company settings, seen in the browser; roles in the
// session; an expired token back to /login with its message; the grid and login in Japanese with no
// untranslated text.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_DIR, DEMO_ADMIN, DEMO_STAFF } from '../harness.mjs';

export const name = 'variants';

const SEATING = { email: 'seating@example.com', password: 'demo1234' };
const FITNESS = { email: 'fitness@example.com', password: 'demo1234' };
const WHEELCHAIR = { email: 'wheelchair@example.com', password: 'demo1234' };

const translation = (lng) => JSON.parse(readFileSync(join(CLIENT_DIR, 'public', 'local', lng, 'translation.json'), 'utf8'));
const flatten = (obj, prefix = '') =>
  Object.entries(obj).flatMap(([k, v]) => (v && typeof v === 'object' ? flatten(v, `${prefix}${k}.`) : [[`${prefix}${k}`, v]]));

async function cardTexts(page) {
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="device-card"]').length > 0, null, { timeout: 30_000 });
  return page.$$eval('[data-testid="device-card"]', (els) => els.map((e) => e.textContent));
}

/** GET a JSON call with the page's own session token, as the client does. */
const apiGet = (page, path) =>
  page.evaluate(async (p) => {
    const res = await fetch(p, { headers: { Authorization: `Bearer ${localStorage.getItem('user')}` } });
    return { status: res.status, body: await res.json() };
  }, path);

async function logout(page) {
  await page.getByTestId('logout').click();
  await page.waitForURL((u) => u.pathname === '/login');
}

/** Text nodes of the page that are an i18n key or an English text that has a Japanese translation. */
async function untranslated(page, en, ja) {
  const keys = new Set(en.map(([k]) => k));
  const english = new Set(en.filter(([k, v]) => ja.get(k) !== v && String(v).length > 2).map(([, v]) => String(v)));
  const texts = await page.evaluate(() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      // Names and places typed by users (device names, bed labels) are data, not interface text.
      if (n.parentElement?.closest('.device-card-bed, .device-card dd')) continue;
      const text = n.textContent.trim();
      if (text) out.push(text);
    }
    for (const el of document.querySelectorAll('[aria-label],[title],input[placeholder]')) {
      for (const attr of ['aria-label', 'placeholder']) if (el.getAttribute(attr)) out.push(el.getAttribute(attr));
    }
    return out;
  });
  return texts.filter((t) => keys.has(t) || english.has(t));
}

export async function run({ base, page, test, shot, login, newBrowser }) {
  await test('seating labels: a seeded company sees Sit and no company line', async (ok) => {
    await login(page, SEATING);
    const cards = await cardTexts(page);
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="device-card"]')].every((c) => /Sit/.test(c.textContent)), null, { timeout: 15_000 });
    if (cards.some((c) => /Company|Demo Seating/.test(c))) throw new Error(`a card shows the company line: ${JSON.stringify(cards)}`);
    ok(`${cards.length} cards with 'Sit' and no company line`);
    if ((await page.getByTestId('company-variants').count()) !== 0) throw new Error('staff see the variants section');
    ok('staff (role 2) are not offered the variants section');
    const refused = await page.evaluate(async () => {
      const res = await fetch('/api/companyVariants', {
        method: 'PUT',
        headers: { Authorization: `Bearer ${localStorage.getItem('user')}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ hideCentreOfPressure: false, fitness: false, seatingLabels: false }),
      });
      return res.status;
    });
    if (refused !== 403) throw new Error(`staff switching variants answered ${refused}`);
    ok('the hub refuses a staff user switching the variants (403)');
    await shot('seating-company-cards.png');
    await logout(page);
  });

  await test('fitness and centre-of-pressure companies carry their variants', async (ok) => {
    await login(page, FITNESS);
    const fitness = await apiGet(page, '/api/companyVariants');
    if (!fitness.body.fitness || fitness.body.hideCentreOfPressure || fitness.body.seatingLabels) throw new Error(JSON.stringify(fitness));
    const cards = await cardTexts(page);
    if (!cards.some((c) => /Demo Fitness/.test(c))) throw new Error(`fitness cards lack the company line: ${JSON.stringify(cards)}`);
    ok('Demo Fitness: fitness on (kPa × 0.06, 24 h static analysis), cards keep the company line');
    await shot('fitness-company-cards.png');
    await logout(page);
    await login(page, WHEELCHAIR);
    const wheelchair = await apiGet(page, '/api/companyVariants');
    if (!wheelchair.body.hideCentreOfPressure || wheelchair.body.fitness) throw new Error(JSON.stringify(wheelchair));
    ok('Demo Wheelchair: centre of pressure hidden');
    await logout(page);
  });

  await test('an administrator switches each variant on and sees it; staff of the company see it too', async (ok) => {
    await login(page, DEMO_ADMIN);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="device-card"]').length > 0);
    let cards = await cardTexts(page);
    if (!cards.some((c) => /Demo Clinic/.test(c))) throw new Error('cards lack the company line before the switch');
    ok('before: cards show the company line');
    await shot('admin-before.png');
    // The variants are a company setting, on the branding page (reached from the admin card).
    const openBranding = async () => {
      await page.getByTestId('admin-card').getByRole('button', { name: /Branding/ }).click();
      await page.waitForURL((u) => u.pathname === '/brandingOptions');
    };
    const backToDevices = async () => {
      await page.goto(`${base}/devices`);
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="device-card"]').length > 0);
    };
    await openBranding();
    let section = page.getByTestId('company-variants');
    await section.waitFor();
    for (const label of [/Hide the centre of pressure/, /Fitness units/, /Seating labels/]) await section.getByRole('checkbox', { name: label }).check();
    await section.getByRole('button', { name: 'Save variants' }).click();
    await page.getByText('Company variants saved.').waitFor();
    ok('saved on the branding page: the success toast shows');
    await shot('admin-branding-variants.png');
    await backToDevices();
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="device-card"]')].every((c) => !/Demo Clinic/.test(c.textContent)));
    cards = await cardTexts(page);
    const withBed = cards.filter((c) => /Sit/.test(c));
    if (withBed.length === 0) throw new Error(`no card says Sit: ${JSON.stringify(cards)}`);
    ok(`after: no company line; ${withBed.length} cards say 'Sit'`);
    await shot('admin-after.png');
    const stored = await apiGet(page, '/api/companyVariants');
    if (!(stored.body.hideCentreOfPressure && stored.body.fitness && stored.body.seatingLabels)) throw new Error(JSON.stringify(stored));
    ok('the hub stored all three');
    // Another company is not touched.
    const other = await newBrowser();
    await login(other.page, SEATING);
    const seatingStored = await apiGet(other.page, '/api/companyVariants');
    if (seatingStored.body.fitness || seatingStored.body.hideCentreOfPressure) throw new Error(`another company changed: ${JSON.stringify(seatingStored)}`);
    ok("another company's variants are untouched");
    // Staff of the same company see the variant from their first screen.
    await other.page.getByTestId('logout').click();
    await login(other.page, DEMO_STAFF);
    await other.page.waitForFunction(() => {
      const cards = [...document.querySelectorAll('[data-testid="device-card"]')];
      return cards.length > 0 && cards.every((c) => !/Demo Clinic/.test(c.textContent)) && cards.some((c) => /Sit/.test(c.textContent));
    });
    ok("the company's staff see 'Sit' and no company line");
    await shot('staff-after.png', other.page);
    // Switch back off.
    await openBranding();
    section = page.getByTestId('company-variants');
    for (const label of [/Hide the centre of pressure/, /Fitness units/, /Seating labels/]) await section.getByRole('checkbox', { name: label }).uncheck();
    await section.getByRole('button', { name: 'Save variants' }).click();
    await page.getByText('Company variants saved.').waitFor();
    await backToDevices();
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="device-card"]')].some((c) => /Demo Clinic/.test(c.textContent)));
    ok('switched off again: the company line is back');
    await logout(page);
  });

  await test('Japanese: login, an expired session and the device grid with no untranslated text', async (ok) => {
    const en = flatten(translation('en'));
    const ja = new Map(flatten(translation('ja')));
    const { page: jp } = await newBrowser('ja-JP');
    await jp.goto(`${base}/login`);
    await jp.getByRole('button', { name: 'サインイン' }).waitFor();
    let left = await untranslated(jp, en, ja);
    if (left.length) throw new Error(`login page: untranslated ${JSON.stringify(left)}`);
    ok('login page in Japanese, nothing untranslated');
    await shot('ja-login.png', jp);
    // An expired (here: forged) token anywhere returns to /login with the message.
    await jp.evaluate(() => {
      localStorage.setItem('user', 'v1.expired-or-forged');
      localStorage.setItem('userId', 'nobody');
    });
    await jp.goto(`${base}/devices`);
    await jp.waitForURL((u) => u.pathname === '/login');
    const notice = (await jp.getByTestId('session-ended').textContent())?.trim();
    if (notice !== ja.get('unauthorized')) throw new Error(`session-ended says ${notice}`);
    ok(`a refused token returns to /login: "${notice}"`);
    await shot('ja-session-expired.png', jp);
    await jp.getByLabel('メールアドレス').fill(DEMO_STAFF.email);
    await jp.getByLabel('パスワード').fill(DEMO_STAFF.password);
    await jp.getByLabel('パスワード').press('Enter');
    await jp.waitForURL((u) => u.pathname === '/devices');
    await jp.waitForFunction(() => document.querySelectorAll('[data-testid="device-card"]').length >= 7, null, { timeout: 30_000 });
    await jp.waitForTimeout(1500);
    left = await untranslated(jp, en, ja);
    if (left.length) throw new Error(`device grid: untranslated ${JSON.stringify(left)}`);
    ok('device grid in Japanese, nothing untranslated');
    await shot('ja-devices.png', jp);
  });
}
