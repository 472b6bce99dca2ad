// Tour: a mat's idle level (tare) on the device page. A nurse sees it (its unit, how it was set)
// and no zero button; an administrator gets "Zero the empty mat", which the hub refuses while the
// simulated patient lies on the mattress and performs once the bed is empty; the audit log shows
// the zeroing. The hub starts Bed 101-A's patient so that she gets out of bed 40 s after the start
// (--demo-bed-leaves-after, demo and tests only), so the tour sees the occupied mat refused and the
// empty one zeroed without waiting for the demo's eight-minute cycle.

import { DEMO_ADMIN } from '../harness.mjs';

export const name = 'tare';
// About how long this tour takes (2 at a time on 2 cores); e2e/run.mjs starts the longest first.
export const expectedSeconds = 55;
// Bed 101-A is occupied until then: the first zero is refused, and the bed is empty soon after.
// The first zero is tried about 10 s after the hub started (20 s on a loaded machine).
const LEAVES_AFTER_SECONDS = 40;
export const hubArgs = ['--demo-bed-leaves-after', String(LEAVES_AFTER_SECONDS)];

const MATTRESS = '[data-testid="device-card"][data-device-type="Mattress Mat IoT"]';

async function openMattress(page) {
  await page.locator(MATTRESS).first().click();
  await page.waitForURL((u) => u.pathname === '/mattressMatIoT');
  await page.getByTestId('tare').waitFor();
  await page.waitForFunction(() => !/Loading/.test(document.querySelector('[data-testid="tare-level"]')?.textContent ?? 'Loading'));
}

export async function run({ page, newBrowser, test, shot, login }) {
  await test('a nurse sees the idle level and no zero button', async (ok) => {
    await login(page);
    await openMattress(page);
    ok(`tare: "${await page.getByTestId('tare-level').textContent()}"`);
    if (await page.getByTestId('tare-zero').count()) throw new Error('staff were offered the zero button');
    ok('no zero button for staff');
    await shot('nurse-device-page.png');
  });

  const admin = (await newBrowser()).page;
  await test('an administrator zeroes the mat: refused while occupied, done when empty', async (ok) => {
    await login(admin, DEMO_ADMIN);
    await openMattress(admin);
    const button = admin.getByTestId('tare-zero');
    await button.waitFor();
    let refused = false;
    let zeroed = false;
    // The patient gets out of bed LEAVES_AFTER_SECONDS after the hub started, and stays away for a
    // minute (hub::demo::demo_bed_script).
    const deadline = Date.now() + (LEAVES_AFTER_SECONDS + 120) * 1000;
    while (!zeroed && Date.now() < deadline) {
      await admin.waitForFunction(() => !document.querySelector('[data-testid="tare-zero"]')?.disabled);
      await button.click();
      // A refusal is an error toast (role alert); a zeroing shows on the panel itself (its
      // success toast is a status, and short).
      const never = new Promise(() => {});
      const refusal = admin.getByRole('alert').filter({ hasText: /Not zeroed/ }).last();
      const outcome = await Promise.race([
        refusal.waitFor({ timeout: 10_000 }).then(() => 'refused', () => never),
        admin
          .waitForFunction(() => /Zeroed by an administrator/.test(document.querySelector('[data-testid="tare-source"]')?.textContent ?? ''), null, { timeout: 10_000 })
          .then(() => 'zeroed', () => never),
        admin.waitForTimeout(10_500).then(() => 'none'),
      ]);
      if (outcome === 'refused') {
        const text = (await refusal.textContent()) ?? '';
        if (!refused) {
          ok(`refused while the patient lies on the mat: "${text.replace('×', '').trim()}"`);
          await shot('zero-refused-occupied.png', admin);
        }
        refused = true;
      } else if (outcome === 'zeroed') {
        zeroed = true;
        ok('zeroed: the panel says "Zeroed by an administrator"');
      }
      if (!zeroed) await admin.waitForTimeout(3_000);
    }
    if (!refused) throw new Error(`the occupied mat was never refused (the patient leaves ${LEAVES_AFTER_SECONDS} s after the hub started)`);
    if (!zeroed) throw new Error('the empty mat was never zeroed');
    await admin.waitForFunction(() => /Zeroed by an administrator/.test(document.querySelector('[data-testid="tare-source"]')?.textContent ?? ''), null, { timeout: 20_000 });
    ok(`device page: "${await admin.getByTestId('tare-level').textContent()}" / "${await admin.getByTestId('tare-source').textContent()}"`);
    await shot('zeroed.png', admin);
  });

  await test('the audit log shows the zeroing', async (ok) => {
    await admin.goto(admin.url().replace(/\/mattressMatIoT.*$/, '/adminPanel/auditLog'));
    const row = admin.locator('[data-testid="audit-row"][data-action="device.tare"]').first();
    await row.waitFor({ timeout: 20_000 });
    ok(`audit: "${(await row.textContent())?.trim()}"`);
    await shot('audit.png', admin);
  });
}
