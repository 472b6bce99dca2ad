// Tour: every page family of the demo hub, each opened from its card, with the live data its
// simulated device really sends: the room set (three sensors, alarm history, recordings), the force
// mat (channels, sum, chart), the horse (both saddle maps moving), the rehab centre-of-pressure
// plot, the mattress with its device log table, the seating pages and the podology analysis page.

export const name = 'pages';

/** Opens the first card of `type` and waits for its page. */
async function openCard(page, type, path) {
  await page.goto(page.url().replace(/\/[^/]*$/, '/devices'));
  await page.waitForSelector(`[data-testid="device-card"][data-device-type="${type}"]`);
  await page.locator(`[data-testid="device-card"][data-device-type="${type}"]`).first().click();
  await page.waitForURL((u) => u.pathname === path);
  await page.getByTestId('device-page').waitFor();
}

/** Waits until the attribute of the first element matching `selector` satisfies `test`, polled
 * from the tour (the page's strict CSP forbids evaluating a test function sent as text). */
async function waitAttr(page, selector, attr, test, arg, timeout = 45_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const left = Math.max(1, deadline - Date.now());
    const v = await page.locator(selector).first().getAttribute(attr, { timeout: left }).catch(() => null);
    if (test(v, arg)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${attr} of ${selector} (last: ${v})`);
    await page.waitForTimeout(100);
  }
}

export async function run({ page, test, shot, login }) {
  await test('sign in', async (ok) => {
    await login();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="device-card"]').length >= 9, null, { timeout: 30_000 });
    ok('device grid with the demo devices');
  });

  await test('room set', async (ok) => {
    await openCard(page, 'Room Set', '/ForceMat');
    const family = await page.getByTestId('device-page').getAttribute('data-page-family');
    if (family !== 'roomSet') throw new Error(`page family ${family}`);
    ok('the room set card opens /ForceMat with the room-set page');
    for (const role of ['bed', 'seat', 'floor']) {
      const p = await waitAttr(page, `[data-testid="room-${role}"]`, 'data-presence', (v) => v === 'PRESENCE' || v === 'ABSENCE');
      ok(`${role} sensor live: ${p}`);
    }
    await page.getByTestId('alarm-history').waitFor();
    for (const role of ['bed', 'seat', 'floor']) await page.getByTestId(`recordings-${role}`).waitFor();
    ok('alarm history and bed, seat and floor recordings');
    await page.waitForTimeout(1500);
    await shot('room-set.png');
  });

  await test('force mat', async (ok) => {
    await openCard(page, 'Force Mat', '/ForceMat');
    const total = await waitAttr(page, '[data-testid="force-total"]', 'data-value', (v) => v !== null && v !== '0');
    ok(`four channels, sum ${total}`);
    const points = await waitAttr(page, '[data-testid="force-chart"]', 'data-points', (v) => Number(v) >= 3);
    ok(`real-time chart with ${points} readings`);
    const canvas = await page.locator('[data-testid="force-chart"] canvas').count();
    if (canvas < 1) throw new Error('the chart drew no canvas');
    await page.waitForTimeout(1500);
    await shot('force-mat.png');
  });

  await test('sensing horse', async (ok) => {
    await openCard(page, 'Sensing Horse', '/SensingHorse');
    for (const side of ['left', 'right']) {
      const sel = `[data-testid="horse-${side}"] [data-testid="heatmap"]`;
      const first = await waitAttr(page, sel, 'data-seq', (v) => Boolean(v));
      const next = await waitAttr(page, sel, 'data-seq', (v, a) => Boolean(v) && v !== a, first);
      ok(`${side} map moving (seq ${first} -> ${next})`);
    }
    await page.waitForTimeout(500);
    await shot('horse.png');
  });

  await test('rehab', async (ok) => {
    await openCard(page, 'Rehab Mat', '/RehabMat');
    const rings = await page.getByTestId('cop-ring').count();
    if (rings !== 3) throw new Error(`${rings} rings`);
    const pts = await waitAttr(page, '[data-testid="cop-plot"]', 'data-points', (v) => Number(v) >= 3, undefined, 90_000);
    ok(`live centre of pressure, ${pts} points over rings 11/18/25`);
    await page.waitForTimeout(1000);
    await shot('rehab.png');
  });

  await test('mattress and its device log', async (ok) => {
    await openCard(page, 'Mattress Mat IoT', '/mattressMatIoT');
    await page.getByTestId('repositioning').waitFor();
    ok(`repositioning panel: ${await page.getByTestId('repositioning-due').textContent()}`);
    await page.waitForSelector('[data-testid="log-row"]', { timeout: 120_000 });
    const rows = await page.getByTestId('log-row').count();
    ok(`device log with ${rows} row(s): ${await page.getByTestId('log-position').first().textContent()}`);
    await page.getByTestId('heatmap').waitFor();
    await page.waitForTimeout(1000);
    await shot('mattress-log.png');
  });

  await test('seating pages', async (ok) => {
    await openCard(page, 'Seating Mat IoT', '/SeatingMatIoT');
    const surface = await waitAttr(page, '[data-testid="contact-surface"]', 'data-value', (v) => v !== null);
    ok(`contact surface ${surface} cm²`);
    await page.getByTestId('plot-panel').waitFor();
    await page.waitForTimeout(2000);
    await shot('seating.png');
    await openCard(page, 'Seating Mat', '/seatingMat');
    const label = await waitAttr(page, '[data-testid="position-label"]', 'data-presence', (v) => Boolean(v));
    ok(`seated-position page, presence ${label}: ${await page.getByTestId('position-label').textContent()}`);
    await shot('seated-position.png');
  });

  await test('podology analysis route', async (ok) => {
    await openCard(page, 'Podology IoT', '/PodiatryIoT');
    await page.getByTestId('analysis-button').click();
    await page.waitForURL((u) => u.pathname === '/Podology');
    await page.getByTestId('device-name').waitFor();
    ok('the analysis button opens /Podology with the device');
    await shot('podology.png');
  });
}
