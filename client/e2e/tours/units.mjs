// Tour (issue 22, items 1 and 4): units on the live side and one way to write a date. A nurse reads
// the mattress map's colour bar and the device log's Max Pressure in mmHg, switches to kPa (kept
// after a reload, as it is saved with her view options), reads a seated patient's map and log in
// plausible mmHg with the scale they read, sees the force and room readings as counts
// and the rehab centre of pressure in cm; the fitness company reads its own kPa scale and has the
// 24 h button on its mat; the same screens and the patient form's date field in Spanish and Japanese.

export const name = 'units';
// About how long this tour takes (2 at a time on 2 cores); e2e/run.mjs starts the longest first.
export const expectedSeconds = 90;

const FITNESS = { email: 'fitness@example.com', password: 'demo1234' };

async function waitText(page, testId, re, timeout = 30_000) {
  await page.waitForFunction(
    ([id, src]) => new RegExp(src).test(document.querySelector(`[data-testid="${id}"]`)?.textContent ?? ''),
    [testId, re.source],
    { timeout },
  );
  return (await page.getByTestId(testId).first().textContent())?.trim();
}

async function openCard(page, type, path) {
  await page.goto(new URL('/devices', page.url()).toString());
  const card = page.locator(`[data-testid="device-card"][data-device-type="${type}"]`).first();
  await card.waitFor({ timeout: 30_000 });
  await card.click();
  await page.waitForURL((u) => u.pathname === path);
}

async function streamMap(page) {
  await page.waitForSelector('[data-testid="streaming"][data-phase]', { timeout: 20_000 });
  if ((await page.getByTestId('streaming').getAttribute('data-phase')) !== 'streaming') await page.getByTestId('streaming-button').click();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="heatmap"]')?.getAttribute('data-rows')) > 0, null, { timeout: 30_000 });
}

async function logout(page) {
  await page.goto(new URL('/devices', page.url()).toString());
  await page.getByTestId('logout').click();
  await page.waitForURL((u) => u.pathname === '/login');
}

export async function run({ page, test, shot, login, newBrowser }) {
  await test('the mattress map and device log in mmHg', async (ok) => {
    await login();
    await openCard(page, 'Mattress Mat IoT', '/mattressMatIoT');
    await page.waitForSelector('[data-testid="view-options"]:not([data-state="loading"])');
    const unit = await page.getByTestId('pressure-unit').inputValue();
    if (unit !== 'mmHg') throw new Error(`default unit ${unit}`);
    await streamMap(page);
    const max = await waitText(page, 'map-legend-max', /\d\s?mmHg$/);
    ok(`colour bar: ${await page.getByTestId('map-legend').textContent()} (top ${max})`);
    await page.waitForSelector('[data-testid="log-row"]', { timeout: 150_000 });
    const logMax = await waitText(page, 'log-max-pressure', /mmHg$/);
    ok(`device log Max Pressure: ${logMax}`);
    await page.waitForTimeout(800);
    await shot('1-mattress-mmhg.png');
  });

  await test('switched to kPa, saved with the view options and kept after a reload', async (ok) => {
    await page.getByTestId('pressure-unit').selectOption('kPa');
    await page.waitForSelector('[data-testid="view-options"][data-state="saved"]', { timeout: 10_000 });
    const max = await waitText(page, 'map-legend-max', /\d\s?kPa$/);
    const logMax = await waitText(page, 'log-max-pressure', /kPa$/);
    ok(`colour bar top ${max}, log Max Pressure ${logMax}`);
    await page.reload();
    await page.waitForSelector('[data-testid="view-options"]:not([data-state="loading"])');
    const unit = await page.getByTestId('pressure-unit').inputValue();
    if (unit !== 'kPa') throw new Error(`after a reload the unit is ${unit}`);
    await streamMap(page);
    await waitText(page, 'map-legend-max', /kPa$/);
    await page.waitForSelector('[data-testid="log-row"]', { timeout: 30_000 });
    ok('after a reload: kPa, read back from LayoutSettings');
    await page.waitForTimeout(800);
    await shot('2-mattress-kpa.png');
    await page.getByTestId('pressure-unit').selectOption('mmHg');
    await page.waitForSelector('[data-testid="view-options"][data-state="saved"]', { timeout: 10_000 });
  });

  await test('a seat reads a sitter in plausible mmHg and says which scale', async (ok) => {
    // The seat's documented step is 1 mmHg (docs/decisions.md, "Plates and seats read their own
    // documented step"): a seated adult's peaks are tens to a couple of hundred mmHg, not 7.
    await openCard(page, 'Seating Mat IoT', '/SeatingMatIoT');
    await page.waitForSelector('[data-testid="view-options"]:not([data-state="loading"])');
    await streamMap(page);
    const basis = await waitText(page, 'map-legend-basis', /documented scale/);
    const top = async () => {
      const text = await waitText(page, 'map-legend-max', /\d\s?mmHg$/, 90_000);
      return { text, mmhg: Number(text.replace(/[^\d.]/g, '')) };
    };
    // The demo sitter sits down within the seat's cycle: wait for a seated map.
    let max = await top();
    for (let i = 0; i < 60 && max.mmhg < 40; i++) {
      await page.waitForTimeout(1000);
      max = await top();
    }
    if (!(max.mmhg >= 40 && max.mmhg <= 300)) throw new Error(`seat colour bar top ${max.text}`);
    ok(`seat colour bar: top ${max.text}, "${basis}"`);
    await page.waitForSelector('[data-testid="log-row"]', { timeout: 150_000 });
    const rows = await page.$$eval('[data-testid="log-max-pressure"]', (els) => els.map((e) => e.textContent?.trim() ?? ''));
    const values = rows.map((r) => Number(r.replace(/[^\d.]/g, '')));
    if (!rows.every((r) => /mmHg$/.test(r))) throw new Error(`log without unit: ${rows.join(' | ')}`);
    if (Math.max(...values) > 300) throw new Error(`implausible log peak: ${rows.join(' | ')}`);
    const logBasis = await waitText(page, 'log-pressure-basis', /documented scale/);
    ok(`seat device log Max Pressure: ${rows.slice(0, 4).join(', ')} — ${logBasis}`);
    await page.waitForTimeout(800);
    await shot('2b-seat-map-and-log-mmhg.png');
  });

  await test('a floor mat reads a lying body in plausible mmHg, never the old 7.5 mmHg ceiling', async (ok) => {
    // Floor and wellness mats send 1 mmHg per step (docs/decisions.md, "One active cell; floor and
    // wellness mats in mmHg"): a body lying on the floor reads tens of mmHg, peaks 50–150 mmHg.
    await openCard(page, 'Floor Mat', '/floorMat');
    await page.waitForSelector('[data-testid="view-options"]:not([data-state="loading"])');
    await streamMap(page);
    const top = async () => {
      const text = await waitText(page, 'map-legend-max', /\d\s?mmHg$/, 90_000);
      return { text, mmhg: Number(text.replace(/[^\d.]/g, '')) };
    };
    // The demo's floor scenario starts with nobody on the mat: wait for the body.
    let max = await top();
    for (let i = 0; i < 90 && max.mmhg < 40; i++) {
      await page.waitForTimeout(1000);
      max = await top();
    }
    if (!(max.mmhg >= 40 && max.mmhg <= 255)) throw new Error(`floor colour bar top ${max.text}`);
    ok(`floor mat colour bar: ${await page.getByTestId('map-legend').textContent()} (top ${max.text})`);
    await page.waitForSelector('[data-testid="log-row"]', { timeout: 150_000 }).catch(() => {});
    const rows = await page.$$eval('[data-testid="log-max-pressure"]', (els) => els.map((e) => e.textContent?.trim() ?? ''));
    if (rows.length) {
      if (!rows.every((r) => /mmHg$/.test(r))) throw new Error(`floor log without unit: ${rows.join(' | ')}`);
      const values = rows.map((r) => Number(r.replace(/[^\d.]/g, '')));
      if (Math.max(...values) > 255) throw new Error(`implausible floor log peak: ${rows.join(' | ')}`);
      ok(`floor mat device log Max Pressure: ${rows.slice(0, 4).join(', ')}`);
    } else {
      ok('floor mat: no device log row yet');
    }
    await page.waitForTimeout(800);
    await shot('2c-floor-mat-mmhg.png');
  });

  await test('force channels and room readings as counts; the rehab centre of pressure in cm', async (ok) => {
    await openCard(page, 'Force Mat', '/ForceMat');
    await page.waitForSelector('[data-testid="force-tiles"][data-live="true"]', { timeout: 30_000 });
    const tile = (await page.getByTestId('force-channel').first().textContent())?.trim();
    if (!/counts \(0–4095\)/.test(tile ?? '')) throw new Error(`force tile: ${tile}`);
    ok(`force tile: ${tile}`);
    await page.waitForTimeout(2500);
    await shot('3-force.png');
    await openCard(page, 'Rehab Mat', '/RehabMat');
    await streamMap(page).catch(() => {});
    const cop = await waitText(page, 'cop-plot', /cm, y .*cm from the centre of the mat/, 90_000);
    ok(`rehab: ${cop}`);
    await page.waitForTimeout(800);
    await shot('4-rehab-cop.png');
    await logout(page);
  });

  await test('the fitness company reads kPa at 0.06 per step and has the 24 h button on its mat', async (ok) => {
    await login(page, FITNESS);
    await openCard(page, 'Fitness Mat', '/fitnessMat');
    await page.waitForSelector('[data-testid="view-options"]:not([data-state="loading"])');
    const fixed = await page.getByTestId('pressure-unit-fitness').textContent();
    if ((await page.getByTestId('pressure-unit').count()) !== 0) throw new Error('the fitness company is offered a unit choice');
    ok(`unit: ${fixed}`);
    await page.getByTestId('capture-series').waitFor({ timeout: 20_000 });
    ok(`24 h button: "${(await page.getByTestId('capture-series').textContent())?.trim()}"`);
    await streamMap(page);
    const max = await waitText(page, 'map-legend-max', /\d\s?kPa$/);
    const steps = Number(await page.getByTestId('heatmap').getAttribute('data-scale'));
    ok(`colour bar top ${max} for ${steps} steps (× 0.06 = ${(steps * 0.06).toFixed(2)})`);
    await page.waitForTimeout(800);
    await shot('5-fitness-kpa-24h.png');
    await logout(page);
  });

  for (const [lng, zone, re] of [
    // Spanish short dates do not pad the day or the month ("1/12/26", "30/11/26").
    ['es', 'Europe/Madrid', /^\d{1,2}\/\d{1,2}\/\d{2}, \d{1,2}:\d{2}:\d{2}$/],
    ['ja', 'Asia/Tokyo', /^\d{4}\/\d{2}\/\d{2} \d{1,2}:\d{2}:\d{2}$/],
  ]) {
    await test(`dates in ${lng} (${zone}): device log, force chart and the date field`, async (ok) => {
      const { context, page: p } = await newBrowser();
      // The nurse's browser is in her zone; the interface in her language (remembered choice).
      const cdp = await context.newCDPSession(p);
      await cdp.send('Emulation.setTimezoneOverride', { timezoneId: zone });
      await login(p);
      await p.evaluate((l) => localStorage.setItem('preferredLanguage', l), lng);
      await p.reload();
      ok(`browser zone ${await p.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)}, interface ${await p.evaluate(() => document.documentElement.lang)}`);
      await openCard(p, 'Mattress Mat IoT', '/mattressMatIoT');
      await p.waitForSelector('[data-testid="log-row"] td', { timeout: 150_000 });
      const date = (await p.locator('[data-testid="log-row"] td').first().textContent())?.trim();
      if (!re.test(date ?? '')) throw new Error(`log date "${date}"`);
      ok(`device log date: ${date}`);
      await streamMap(p);
      await p.waitForTimeout(800);
      await shot(`6-${lng}-mattress-log.png`, p);
      await openCard(p, 'Force Mat', '/ForceMat');
      await p.waitForSelector('[data-testid="force-tiles"][data-live="true"]', { timeout: 30_000 });
      await p.waitForTimeout(4000);
      const axis = await p.evaluate(() => document.querySelector('[data-testid="force-chart"] figcaption')?.textContent ?? '');
      ok(`force chart: ${axis.slice(0, 80)}`);
      await shot(`7-${lng}-force-chart.png`, p);
      await openCard(p, 'Podology IoT', '/PodiatryIoT');
      await p.getByTestId('patient-new-open').click();
      await p.getByTestId('patient-form').waitFor();
      const order = await p.$$eval('[data-testid="birthDate-field"] input, [data-testid="birthDate-field"] select', (els) => els.map((e) => e.className));
      ok(`date field order: ${order.join(', ')}`);
      const expected = lng === 'ja' ? ['date-year', 'date-month', 'date-day'] : ['date-day', 'date-month', 'date-year'];
      if (order.join() !== expected.join()) throw new Error(`order ${order.join()}`);
      await p.locator('[data-testid="birthDate-field"] .date-day').fill('12');
      await p.locator('[data-testid="birthDate-field"] .date-month').selectOption('4');
      await p.locator('[data-testid="birthDate-field"] .date-year').fill('1961');
      const value = await p.getByTestId('birthDate-field').getAttribute('data-value');
      if (value !== '1961-04-12') throw new Error(`date field value ${value}`);
      ok(`12 April 1961 entered as ${value}, month shown as "${await p.locator('[data-testid="birthDate-field"] .date-month option:checked').textContent()}"`);
      await shot(`8-${lng}-patient-form.png`, p);
    });
  }
}
