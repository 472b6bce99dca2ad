// Tour: an alarm no one misses (issue 23, item 2). The hub runs its repositioning clock 60× faster
// (a demo/test-only option), so a 15 min interval is due after 15 s. Nurse A sets it on the
// mattress page and stays there; nurse B watches the device grid. The Ulcer Risk alarm reaches
// both as a banner (kind, bed, room, waiting time, Open, Attend) that outlives the 2.5 s toast, and
// the tone plays in both, B untouched since its sign-in; A mutes it and sees the muted state; B attends
// from the banner; the banner leaves both screens and B's card says who attended and when, no
// longer orange.

export const name = 'alarm-banner';
export const hubArgs = ['--demo-repositioning-time-scale', '60'];

const MATTRESS = '[data-testid="device-card"][data-device-type="Mattress Mat IoT"]';
const BANNER = '[data-testid="alarm-banner"]';
// Bed 101-A's Ulcer Risk row (the demo's Bed 107, a still patient, raises its own at the same
// 60× pace, so "the first row" may be either bed's).
let ROW = '[data-testid="alarm-banner-row"][data-kind="Ulcer Risk"]';

const bursts = (p) => p.locator(BANNER).getAttribute('data-tone-bursts').then(Number);

export async function run({ page, newBrowser, test, shot, login }) {
  const b = (await newBrowser()).page;

  await test('two nurses signed in; A sets a short interval and stays on the bed page', async (ok) => {
    await login(page);
    await login(b);
    await b.waitForSelector(MATTRESS);
    const bedId = await b.locator(MATTRESS).filter({ hasText: 'Bed 101-A' }).first().getAttribute('data-device-id');
    if (!bedId) throw new Error('no Bed 101-A card on the grid');
    ROW = `${ROW}[data-device-id="${bedId}"]`;
    // B does nothing after signing in: the sign-in's own click is what lets its page sound
    // (browsers' autoplay rule), as for a nurse who signs in and walks away.
    ok('browser B waits on the device grid, untouched since its sign-in');
    await page.locator(MATTRESS).filter({ hasText: 'Bed 101-A' }).first().click();
    await page.waitForURL((u) => u.pathname === '/mattressMatIoT');
    const input = page.getByLabel("Patient's repositioning interval");
    await page.waitForFunction(() => !document.querySelector('[data-testid="repositioning"] input')?.disabled);
    await input.fill('15');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Repositioning interval set to 15 min.').waitFor();
    ok('15 minutes saved on the mattress page');
  });

  await test('the alarm reaches both screens as a banner with kind, bed, room and age', async (ok) => {
    for (const [who, p] of [['A (bed page)', page], ['B (grid)', b]]) {
      await p.waitForSelector(ROW, { timeout: 150_000 });
      const row = p.locator(ROW).first();
      const text = (await row.innerText()).replace(/\s+/g, ' ');
      for (const part of ['Ulcer risk: turn due', 'Bed A', 'Room 101', 'Bed 101-A', 'waiting', 'Open', 'Attend']) {
        if (!text.includes(part)) throw new Error(`${who}: "${part}" missing from "${text}"`);
      }
      ok(`${who}: "${text}"`);
    }
    await shot('banner-a-device-page.png');
    await shot('banner-b-grid.png', b);
  });

  await test('the banner outlives the toast and its age counts up', async (ok) => {
    const age = () => b.locator(ROW).first().getByTestId('alarm-age').innerText();
    const first = await age();
    await b.waitForTimeout(3_500);
    if ((await b.getByRole('alert').filter({ hasText: 'Alarm on BED 101-A' }).count()) !== 0) throw new Error('the toast is still there');
    if ((await b.locator(ROW).count()) < 1) throw new Error('the banner left with the toast');
    const later = await age();
    if (later === first) throw new Error(`age did not move: ${first}`);
    ok(`toast gone, banner stays: "${first}" → "${later}"`);
  });

  await test('the tone plays in both browsers; A mutes it and sees so', async (ok) => {
    for (const [who, p] of [['A', page], ['B', b]]) {
      await p.waitForFunction((sel) => Number(document.querySelector(sel)?.getAttribute('data-tone-bursts')) > 0, BANNER, { timeout: 30_000 });
      const state = await p.locator(BANNER).getAttribute('data-audio-state');
      const priority = await p.locator(BANNER).getAttribute('data-tone-priority');
      if (state !== 'running') throw new Error(`${who}: AudioContext ${state}`);
      ok(`${who}: ${await bursts(p)} burst(s) played on a running AudioContext, priority ${priority}; "${await p.getByTestId('alarm-sound-state').innerText()}"`);
    }
    await page.getByTestId('alarm-mute').click();
    await page.getByText('Sound muted for this session').waitFor();
    const before = await bursts(page);
    await page.waitForTimeout(21_000);
    if ((await bursts(page)) !== before) throw new Error('a muted browser played a burst');
    const pressed = await page.getByTestId('alarm-mute').getAttribute('aria-pressed');
    ok(`A muted (aria-pressed ${pressed}), no burst in 21 s; B played ${await bursts(b)} in all`);
    await shot('banner-a-muted.png');
  });

  await test('attended from B\'s banner: gone from both, the card says who and when', async (ok) => {
    const id = await b.locator(ROW).first().getAttribute('data-device-id');
    const mine = `[data-testid="alarm-banner-row"][data-device-id="${id}"]`;
    await b.locator(ROW).first().getByTestId('alarm-attend').click();
    await b.getByText('Mattress Mat IoT: alarm attended.').waitFor();
    await b.waitForSelector(mine, { state: 'detached', timeout: 15_000 });
    await page.waitForSelector(mine, { state: 'detached', timeout: 15_000 });
    ok(`the bed's alarms left both banners (${await b.locator('[data-testid="alarm-banner-row"]').count()} other alarm(s) still listed)`);
    const card = b.locator(`${MATTRESS}[data-device-id="${id}"]`);
    await b.waitForSelector(`${MATTRESS}[data-device-id="${id}"][data-alarm="false"]`, { timeout: 15_000 });
    await card.getByTestId('card-attended').filter({ hasText: /by demo/ }).waitFor({ timeout: 15_000 });
    const status = await card.getAttribute('data-status');
    if (status === 'Alarm') throw new Error('the card is still Alarm after Attend');
    ok(`card: ${status}, "${await card.getByTestId('card-repositioning').innerText()}", "${await card.getByTestId('card-attended').innerText()}"`);
    await shot('attended-b-grid.png', b);
  });
}
