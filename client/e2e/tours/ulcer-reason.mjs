// Tour: every Ulcer Risk alarm says why (issue 23, item 3). The hub runs its repositioning clock
// 60× faster (a demo/test-only option), so Bed 107 — the demo's still patient, 15-minute interval
// — is due after 15 s. The alarm's reason (the region, how long it was loaded, the offloading the
// rule asks for, the interval; in wall-clock minutes, the speed-up multiplied back) is on the
// banner, on the bed's card and in the bed's alarm history. Then a recorded turn attends it.

export const name = 'ulcer-reason';
export const hubArgs = ['--demo-repositioning-time-scale', '60'];

const STILL_BED = '[data-testid="device-card"][data-device-type="Mattress Mat IoT"]:has-text("Bed 107")';
const ROW = '[data-testid="alarm-banner-row"][data-kind="Ulcer Risk"]';
const REASON = /Sacrum and hips loaded for 15 mins? .*without 15 mins? off the mattress \(interval 15 mins?\)/;

export async function run({ page, test, shot, login }) {
  let deviceId = null;

  await test('the banner and the card say why the alarm was raised', async (ok) => {
    await login(page);
    await page.waitForSelector(STILL_BED, { timeout: 30_000 });
    deviceId = await page.locator(STILL_BED).getAttribute('data-device-id');
    const row = `${ROW}[data-device-id="${deviceId}"]`;
    await page.waitForSelector(row, { timeout: 120_000 });
    const reason = await page.locator(row).getByTestId('alarm-reason').innerText();
    if (!REASON.test(reason)) throw new Error(`banner reason: "${reason}"`);
    ok(`banner: "${(await page.locator(row).innerText()).replace(/\s+/g, ' ')}"`);
    const card = page.locator(STILL_BED);
    await card.getByTestId('alarm-reason').waitFor();
    const onCard = await card.getByTestId('alarm-reason').innerText();
    if (!REASON.test(onCard)) throw new Error(`card reason: "${onCard}"`);
    ok(`card (${await card.getAttribute('data-status')}): "${onCard}"`);
    await shot('reason-grid.png');
  });

  await test('the alarm history says why too', async (ok) => {
    await page.locator(STILL_BED).click();
    await page.waitForURL((u) => u.pathname === '/mattressMatIoT');
    const history = page.getByTestId('alarm-history');
    await history.getByTestId('alarm-reason').first().waitFor({ timeout: 15_000 });
    const text = await history.getByTestId('alarm-reason').first().innerText();
    if (!REASON.test(text)) throw new Error(`history reason: "${text}"`);
    ok(`history: "${(await history.getByTestId('alarm-row').first().innerText()).replace(/\s+/g, ' ')}"`);
    await history.scrollIntoViewIfNeeded();
    await shot('reason-history.png');
  });

  await test('"Patient turned" attends the alarm: off the banner, attended by the nurse', async (ok) => {
    const row = `${ROW}[data-device-id="${deviceId}"]`;
    await page.getByTestId('record-turn').click();
    await page.getByTestId('turn-position').selectOption('Right Lateral');
    await page.getByTestId('turn-save').click();
    await page.getByText('Turn recorded: Right lateral').waitFor();
    await page.waitForSelector(row, { state: 'detached', timeout: 15_000 });
    const history = page.getByTestId('alarm-history');
    await history.locator('[data-testid="alarm-row"][data-attended="true"]').first().waitFor({ timeout: 15_000 });
    const turn = (await page.getByTestId('turn-row').first().innerText()).replace(/\s+/g, ' ');
    if (!/late/.test(turn)) throw new Error(`a turn after the alarm is late: "${turn}"`);
    ok(`banner row gone; history: "${(await history.getByTestId('alarm-row').first().innerText()).replace(/\s+/g, ' ')}"; turn: "${turn}"`);
    await shot('turned-attended.png');
  });
}
