// Tour: an alarm at the bedside. The hub runs its repositioning clock 60× faster (a demo/test-only
// option), so the shortest interval the API takes, 15 min, is due after 15 s. A nurse (browser A)
// sets that interval on the mattress page; the simulated patient stays supine for a minute; the
// alarm reaches a second, already open browser (B) as a toast and an orange card with Attend; a
// browser that opens later sees the pending alarm; B attends it and A's card turns back.

export const name = 'alarms';
export const hubArgs = ['--demo-repositioning-time-scale', '60'];

const MATTRESS = '[data-testid="device-card"][data-device-type="Mattress Mat IoT"]';

export async function run({ page, newBrowser, test, shot, login }) {
  const b = (await newBrowser()).page;

  await test('two nurses signed in', async (ok) => {
    await login(page);
    await login(b);
    await b.waitForSelector(MATTRESS);
    ok('browser B waits on the device grid');
  });

  await test('a short interval is set on the device page', async (ok) => {
    await page.locator(MATTRESS).first().click();
    await page.waitForURL((u) => u.pathname === '/mattressMatIoT');
    const input = page.getByLabel("Patient's repositioning interval");
    await page.waitForFunction(() => !document.querySelector('#' + CSS.escape(document.querySelector('[data-testid="repositioning"] input')?.id ?? 'x'))?.disabled);
    await input.fill('14');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Enter a whole number of minutes from 15 to 1440.').waitFor();
    ok('14 minutes is refused on the page');
    await input.fill('15');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Repositioning interval set to 15 min.').waitFor();
    ok('15 minutes saved');
    await page.waitForFunction(() => /Next turn due in|A turn is due now/.test(document.querySelector('[data-testid="repositioning-due"]')?.textContent ?? ''), null, { timeout: 90_000 });
    ok(`device page: ${await page.getByTestId('repositioning-due').textContent()} (${await page.getByTestId('repositioning').getAttribute('data-tier')})`);
    await shot('interval-set.png');
    await page.getByRole('button', { name: /Back/ }).click();
    await page.waitForURL((u) => u.pathname === '/devices');
  });

  await test('the alarm reaches the already open browser', async (ok) => {
    const toast = b.getByRole('alert').filter({ hasText: 'Alarm on BED 101-A' });
    await toast.waitFor({ timeout: 120_000 });
    ok(`toast: "${(await toast.textContent())?.replace('×', '').trim()}"`);
    // The toast opens below the top bar: every action in it stays visible and clickable.
    const covered = await b.evaluate(() => {
      const bar = document.querySelector('.topbar').getBoundingClientRect();
      const toasts = document.querySelector('.toasts').getBoundingClientRect();
      const hidden = [...document.querySelectorAll('.topbar-right button, .topbar-right a')].filter((el) => {
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !el.contains(hit);
      });
      return { gap: toasts.top - bar.bottom, hidden: hidden.map((el) => el.textContent) };
    });
    if (covered.gap < 0 || covered.hidden.length) throw new Error(`the toast covers the top bar: ${JSON.stringify(covered)}`);
    ok(`the toast opens ${covered.gap.toFixed(0)} px below the top bar; its actions stay clickable`);
    await shot('toast-b.png', b);
    await b.waitForSelector(`${MATTRESS}[data-alarm="true"]`, { timeout: 15_000 });
    const colour = await b.locator(MATTRESS).first().evaluate((el) => getComputedStyle(el).borderTopColor);
    ok(`card orange (${colour}) with Attend`);
    if (!(await b.locator(MATTRESS).first().getByTestId('attend').isVisible())) throw new Error('no Attend button');
    await page.waitForSelector(`${MATTRESS}[data-alarm="true"]`, { timeout: 15_000 });
    ok('browser A shows the orange card too');
    await shot('alarm-card-b.png', b);
  });

  await test('a browser that joins later sees the pending alarm', async (ok) => {
    const c = (await newBrowser()).page;
    await login(c);
    await c.waitForSelector(`${MATTRESS}[data-alarm="true"]`, { timeout: 20_000 });
    ok('a new session shows the orange card and Attend');
  });

  await test('attended in browser B; browser A turns back', async (ok) => {
    await b.locator(MATTRESS).first().getByTestId('attend').click();
    await b.getByText('Mattress Mat IoT: alarm attended.').waitFor();
    ok('B: attendedSuccesfully');
    await b.waitForSelector(`${MATTRESS}[data-alarm="false"]`, { timeout: 15_000 });
    await page.waitForSelector(`${MATTRESS}[data-alarm="false"]`, { timeout: 15_000 });
    ok('both cards turned back');
    await shot('attended-a.png');
    await page.locator(MATTRESS).first().click();
    await page.waitForURL((u) => u.pathname === '/mattressMatIoT');
    await page.waitForSelector('[data-testid="alarm-row"][data-attended="true"]', { timeout: 15_000 });
    const time = await page.locator('[data-testid="alarm-row"][data-attended="true"] [data-testid="time-to-attend"]').first().textContent();
    ok(`alarm history shows the time to attend: ${time}`);
    await shot('alarm-history.png');
  });
}
