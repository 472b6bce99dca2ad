// Tour: the ward board (issue 23, item 1). An administrator registers 42 more mattresses on a
// second floor (they never connect: Offline), so the wall board at 2560 × 1440 holds 48 tiles; the
// demo's beds and seats stream. Checked: one WebGL canvas draws every map, tiles are ordered by
// urgency, a never-connected bed is Offline only, the wall's bed labels and countdowns are large;
// the demo bed's patient stays away for a minute, its Missing alarm reaches the board and the
// banner and is attended from the tile; the board on a phone. The hub starts that patient so that
// she gets out of bed 45 s after the start (--demo-bed-leaves-after, demo and tests only) rather
// than at the demo's point of its eight-minute cycle, after the board's first checks.

import { decodePng } from '../png.mjs';

export const name = 'ward-board';
// About how long this tour takes (2 at a time on 2 cores); e2e/run.mjs starts the longest first.
export const expectedSeconds = 100;
// The board's first checks (a bed with its patient lying) end about 20 s after the hub started.
const LEAVES_AFTER_SECONDS = 45;
export const hubArgs = ['--demo-bed-leaves-after', String(LEAVES_AFTER_SECONDS)];

const TILE = '[data-testid="ward-tile"]';
const URGENCY = ['missing', 'overdue', 'due', 'dueSoon', 'fine', 'offline'];
const RANK = { missing: 0, overdue: 0, due: 1, dueSoon: 2, fine: 3, offline: 4 };
// The demo company has 6 tiles of its own (Beds 101-A and 107, Chairs 102 and 106, Wheelchair 103, Room 105).
const EXTRA_BEDS = 42;

async function adminToken(base) {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password: 'admin1234' }),
  });
  return (await res.json()).token;
}

/** The tiles as the board shows them: id, urgency, text. */
const tiles = (page) =>
  page.$$eval(TILE, (els) =>
    els.map((el) => ({
      id: el.getAttribute('data-device-id'),
      urgency: el.getAttribute('data-urgency'),
      alarm: el.getAttribute('data-alarm'),
      text: el.innerText.replace(/\s+/g, ' ').trim(),
    })),
  );

/** The tiles' bed labels, device names, countdowns, "Patient missing", posture lines and empty notes that do not show whole
 * (wider than their box, or set to end in an ellipsis); a text cut at the tile's bottom is a tile
 * overflowing, checked apart. */
const cutLabels = (page) =>
  page.$$eval(`${TILE} [data-testid="ward-bed"], ${TILE} .ward-name, ${TILE} .ward-countdown-time, ${TILE} .ward-missing, ${TILE} [data-testid="ward-posture"], ${TILE} [data-testid="ward-empty"]`, (els) =>
    els
      .filter((el) => el.getClientRects().length > 0)
      .filter((el) => {
        // A block wider inside than its box (or ending in an ellipsis), or an inline text running
        // past its tile's right edge (the wall's tile cuts what overflows).
        const tile = el.closest('[data-testid="ward-tile"]').getBoundingClientRect();
        const box = el.getBoundingClientRect();
        return el.scrollWidth > el.clientWidth + 1 || getComputedStyle(el).textOverflow === 'ellipsis' || box.right > tile.right - 1;
      })
      .map((el) => el.textContent),
  );

/** Tiles (or their text column) taller inside than their box, each by its text and heights: a
 * line pushed out at the bottom. */
const overflowingTiles = (page) =>
  page.$$eval(`${TILE}, ${TILE} .ward-tile-body`, (els) =>
    els
      .filter((el) => el.scrollHeight > el.clientHeight + 1)
      .map((el) => `"${el.closest('[data-testid="ward-tile"]').innerText.replace(/\s+/g, ' ').trim()}" (${el.scrollHeight} > ${el.clientHeight} px)`),
  );

/** The empty map slot's own colour (ward.css `.ward-tile-map`): what shows where no map is drawn. */
const SLOT_BACKGROUND = [0x0d, 0x1b, 0x2a];

/**
 * Map slots the page says are drawn (`data-blank="false"`) whose pixels on the screen are mostly
 * the empty slot's dark colour: a map the canvas did not show (the phone board's "Chair 106", dark
 * with no text, where Chromium dropped the bottom band of a canvas under the sticky top bar).
 */
async function undrawnSlots(page) {
  const { slots, barBottom, height } = await page.evaluate(() => ({
    barBottom: document.querySelector('.topbar').getBoundingClientRect().bottom,
    height: window.innerHeight,
    slots: [...document.querySelectorAll('[data-testid="ward-tile-map"]')].map((el) => {
      const r = el.getBoundingClientRect();
      return {
        label: el.closest('[data-testid="ward-tile"]').querySelector('[data-testid="ward-bed"]').textContent,
        blank: el.dataset.blank,
        left: r.left,
        top: r.top,
        right: r.right,
        bottom: r.bottom,
      };
    }),
  }));
  const png = decodePng(await page.screenshot());
  const undrawn = [];
  for (const slot of slots) {
    if (slot.blank !== 'false') continue;
    const top = Math.ceil(Math.max(slot.top, barBottom)) + 2;
    const bottom = Math.floor(Math.min(slot.bottom, height)) - 2;
    if (bottom - top < 8) continue;
    let dark = 0;
    let all = 0;
    for (let y = top; y < bottom; y += 3) {
      for (let x = Math.ceil(slot.left) + 2; x < Math.floor(slot.right) - 2; x += 3) {
        const [r, g, b] = png.pixel(x, y);
        all++;
        if (Math.abs(r - SLOT_BACKGROUND[0]) + Math.abs(g - SLOT_BACKGROUND[1]) + Math.abs(b - SLOT_BACKGROUND[2]) < 12) dark++;
      }
    }
    if (dark > all * 0.1) undrawn.push(`${slot.label} (${Math.round((100 * dark) / all)} % dark)`);
  }
  return undrawn;
}

export async function run({ base, page, test, artifacts, login }) {
  const view = (file) => page.screenshot({ path: `${artifacts}/${file}` });

  await test(`${EXTRA_BEDS} more beds on floor 2 (never connected)`, async (ok) => {
    const token = await adminToken(base);
    for (let i = 0; i < EXTRA_BEDS; i++) {
      const room = String(201 + Math.floor(i / 2));
      const bed = i % 2 === 0 ? 'A' : 'B';
      const res = await fetch(`${base}/api/deviceandconfRegistration`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({
          hardwareSerial: `WARD-${String(i).padStart(3, '0')}`,
          name: `Bed ${room}-${bed}`,
          deviceType: 'Mattress Mat IoT',
          building: 'Main',
          floor: '2',
          room,
          bed,
          added_by: 'Demo Clinic',
        }),
      });
      if (res.status !== 201) throw new Error(`registration ${i} answered ${res.status}: ${await res.text()}`);
    }
    ok(`${EXTRA_BEDS} mattresses registered in Main, floor 2`);
  });

  await test('the wall board at 2560 × 1440: 48 tiles by urgency, every map on one WebGL canvas', async (ok) => {
    await page.setViewportSize({ width: 2560, height: 1440 });
    await login(page);
    await page.getByTestId('ward-link').click();
    await page.waitForURL((u) => u.pathname === '/ward');
    await page.waitForFunction((sel) => document.querySelectorAll(sel).length >= 48, TILE, { timeout: 60_000 });
    await page.waitForSelector('.ward-canvas-host[data-renderer="pixi-webgl"]', { timeout: 30_000 });
    const canvases = await page.$$eval('canvas', (c) => c.length);
    if (canvases !== 1) throw new Error(`${canvases} canvases on the board`);
    ok('one canvas, a pixi.js WebGL renderer');
    // The demo's bed streams: its map is drawn (the texture uploaded for new frames only).
    const bedMap = page.locator(`${TILE}`, { hasText: 'Bed 101-A' }).getByTestId('ward-tile-map');
    await page.waitForFunction(
      (el) => el && el.dataset.blank === 'false' && Number(el.dataset.uploads) >= 2,
      await bedMap.elementHandle(),
      { timeout: 60_000 },
    );
    ok(`the demo bed's map: frame ${await bedMap.getAttribute('data-seq')}, ${await bedMap.getAttribute('data-uploads')} uploads`);
    // Let the clocks arrive (posture, countdown).
    await page.waitForTimeout(12_000);
    const list = await tiles(page);
    const ranks = list.map((t) => RANK[t.urgency]);
    for (let i = 1; i < ranks.length; i++) {
      if (ranks[i] < ranks[i - 1]) throw new Error(`out of order at ${i}: ${list.map((t) => t.urgency).join(', ')}`);
    }
    const counts = Object.fromEntries(URGENCY.map((u) => [u, list.filter((t) => t.urgency === u).length]));
    ok(`${list.length} tiles in urgency order: ${JSON.stringify(counts)}`);
    const offline = list.filter((t) => t.urgency === 'offline');
    if (offline.length < EXTRA_BEDS) throw new Error(`${offline.length} offline tiles`);
    for (const t of offline) if (/Position OK/.test(t.text)) throw new Error(`an offline tile says Position OK: ${t.text}`);
    ok(`the ${offline.length} never-connected beds read "${offline[0].text}"`);
    const bed = list.find((t) => t.text.startsWith('101 · A'));
    ok(`the demo bed: "${bed.text}"`);
    // Readable from 3 m: the bed label and the countdown are large, and nothing overflows a tile.
    const sizes = await page.$eval('.ward-countdown-time', (time) => ({
      label: parseFloat(getComputedStyle(time.closest('[data-testid="ward-tile"]').querySelector('[data-testid="ward-bed"]')).fontSize),
      countdown: parseFloat(getComputedStyle(time).fontSize),
    }));
    if (sizes.label < 40 || sizes.countdown < 28) throw new Error(`wall text too small: ${JSON.stringify(sizes)}`);
    const cut = await overflowingTiles(page);
    if (cut.length) throw new Error(`${cut.length} tiles overflow: ${cut.join('; ')}`);
    const labels = await cutLabels(page);
    if (labels.length) throw new Error(`bed labels cut: ${labels.join(' | ')}`);
    const below = await page.$$eval(TILE, (els) => els.filter((el) => el.getBoundingClientRect().bottom > window.innerHeight).length);
    if (below) throw new Error(`${below} tiles below the screen`);
    ok(`bed label ${sizes.label}px, countdown ${sizes.countdown}px; all 48 tiles on one screen, none overflowing`);
    const dark = await undrawnSlots(page);
    if (dark.length) throw new Error(`maps said drawn but dark: ${dark.join(', ')}`);
    ok('every map said drawn is on the screen');
    await view('wall-2560x1440.png');
  });

  await test('a Missing alarm reaches the board and is attended from the tile', async (ok) => {
    // The demo bed's patient gets out of bed LEAVES_AFTER_SECONDS after the hub started and stays
    // away for a minute (hub::demo::demo_bed_script): Missing after the 30 s absence delay.
    const missing = `${TILE}[data-alarm="Missing"]`;
    await page.waitForSelector(missing, { timeout: (LEAVES_AFTER_SECONDS + 150) * 1000 });
    // Nothing overflows an alarm's tile either.
    const cut = await page.$$eval(`${missing}, ${missing} .ward-tile-body`, (els) => els.filter((el) => el.scrollHeight > el.clientHeight + 1).length);
    if (cut) throw new Error('the alarm tile overflows');
    const tile = page.locator(missing).first();
    const id = await tile.getAttribute('data-device-id');
    const list = await tiles(page);
    const at = list.findIndex((t) => t.id === id);
    if (list.slice(0, at + 1).some((t) => t.urgency !== 'missing')) throw new Error(`the Missing tile is not among the first: ${list.map((t) => t.urgency).join(', ')}`);
    const text = (await tile.innerText()).replace(/\s+/g, ' ');
    for (const part of ['Patient missing', 'waiting', 'Attend']) if (!text.includes(part)) throw new Error(`"${part}" missing from "${text}"`);
    ok(`first tile: "${text}"`);
    await page.waitForSelector(`[data-testid="alarm-banner-row"][data-device-id="${id}"]`);
    ok('the banner lists it too');
    await view('wall-missing.png');
    await tile.getByTestId('ward-attend').click();
    await page.getByText(/alarm attended/).first().waitFor();
    await page.waitForSelector(`${TILE}[data-device-id="${id}"][data-alarm=""]`, { timeout: 15_000 });
    await page.waitForSelector(`[data-testid="alarm-banner-row"][data-device-id="${id}"]`, { state: 'detached', timeout: 15_000 });
    if (new URL(page.url()).pathname !== '/ward') throw new Error(`Attend navigated to ${page.url()}`);
    const attended = page.locator(`${TILE}[data-device-id="${id}"]`).getByTestId('ward-attended');
    await attended.filter({ hasText: /by demo/ }).waitFor({ timeout: 15_000 });
    ok(`attended from the tile, gone from the banner: "${await attended.innerText()}"`);
    await view('wall-attended.png');
  });

  await test('a tile opens its device page', async (ok) => {
    await page.locator(TILE, { hasText: 'Bed 101-A' }).click();
    await page.waitForURL((u) => u.pathname === '/mattressMatIoT');
    ok('Bed 101-A → /mattressMatIoT');
  });

  await test('the board on a phone (390 × 844), one unit', async (ok) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/ward`);
    await page.getByTestId('ward-unit').filter({ hasText: 'Main · floor 1' }).click();
    await page.waitForURL((u) => u.pathname === '/ward/Main%20%C2%B7%201');
    await page.waitForSelector('.ward-canvas-host[data-renderer="pixi-webgl"]', { timeout: 30_000 });
    await page.waitForTimeout(12_000);
    const list = await tiles(page);
    if (list.length !== 6) throw new Error(`${list.length} tiles in Main · floor 1: ${list.map((t) => t.text).join(' | ')}`);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    if (wide > 390) throw new Error(`the page is ${wide}px wide`);
    ok(`6 tiles (Bed 107 among them), one column, no sideways scrolling: ${list.map((t) => t.text).join(' | ')}`);
    const labels = await cutLabels(page);
    if (labels.length) throw new Error(`labels cut on the phone: ${labels.join(' | ')}`);
    const dark = await undrawnSlots(page);
    if (dark.length) throw new Error(`maps said drawn but dark on the phone: ${dark.join(', ')}`);
    await view('phone-top.png');
    await page.mouse.wheel(0, 700);
    await page.waitForTimeout(800);
    const darkScrolled = await undrawnSlots(page);
    if (darkScrolled.length) throw new Error(`maps said drawn but dark on the scrolled phone: ${darkScrolled.join(', ')}`);
    ok('every map on the phone screen is drawn, at the top and scrolled');
    await view('phone-scrolled.png');
  });

  await test('long languages (ja, ru, el) on the wall and the phone: labels whole, no tile overflowing', async (ok) => {
    for (const lng of ['ja', 'ru', 'el']) {
      await page.setViewportSize({ width: 2560, height: 1440 });
      await page.goto(`${base}/ward`);
      await page.locator('.language-selector select').selectOption(lng);
      await page.waitForFunction((l) => document.documentElement.lang === l || localStorage.getItem('preferredLanguage') === l, lng);
      await page.waitForFunction((sel) => document.querySelectorAll(sel).length >= 48, TILE, { timeout: 60_000 });
      await page.waitForTimeout(3_000);
      const labels = await cutLabels(page);
      if (labels.length) throw new Error(`${lng}: labels cut: ${labels.join(' | ')}`);
      const cut = await overflowingTiles(page);
      if (cut.length) throw new Error(`${lng}: ${cut.length} tiles overflow on the wall: ${cut.join('; ')}`);
      await view(`wall-${lng}.png`);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForTimeout(1_500);
      const phoneLabels = await cutLabels(page);
      if (phoneLabels.length) throw new Error(`${lng}: labels cut on the phone: ${phoneLabels.join(' | ')}`);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      if (wide > 390) throw new Error(`${lng}: the phone page is ${wide}px wide`);
      await view(`phone-${lng}.png`);
      ok(`${lng}: every label whole, no tile overflowing, the phone ${wide}px wide`);
    }
    await page.locator('.language-selector select').selectOption('en');
  });
}
