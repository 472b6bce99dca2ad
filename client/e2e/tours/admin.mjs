// Tour: the demo administrator creates a company, a user in it and a Sensing Horse device (copies its
// one-time secret from the page), the new user signs in and sees only their company's device; branding
// with a valid logo, an oversized one and a non-image; device settings saved and shown on the card; a
// staff user opening /adminPanel directly gets the hub's refusal; the administrator rotates a device
// secret, reads the tour's actions in the audit log, and logs out, after which the old token is refused.

import { readFileSync } from 'node:fs';
import { deflateSync, crc32 } from 'node:zlib';

// The toasts' texts come from the English catalogue (their owner), not from this file.
const EN = JSON.parse(readFileSync(new URL('../../public/local/en/translation.json', import.meta.url), 'utf8'));
const msg = (key) => {
  const text = key.split('.').reduce((node, part) => node?.[part], EN);
  if (typeof text !== 'string') throw new Error(`no English text for ${key}`);
  return text;
};

export const name = 'admin';

const ADMIN = { email: 'admin@example.com', password: 'admin1234' };
const STAFF = { email: 'demo@example.com', password: 'demo1234' };
const COMPANY = 'Tour Harbour Clinic';
const USER = { email: 'tour.nurse@example.com', password: 'harbour42' };
const HORSE = { serial: 'TOUR-HORSE-1', name: 'Tour Horse' };

/** A real w×h RGB PNG of one colour. */
function png(w, h, [r, g, b]) {
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const rows = [];
  for (let y = 0; y < h; y++) {
    const row = Buffer.alloc(1 + w * 3);
    for (let x = 0; x < w; x++) row.set(x < w / 2 || y < h / 2 ? [r, g, b] : [255, 255, 255], 1 + x * 3);
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function signIn(page, base, who) {
  await page.goto(`${base}/login`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByLabel('Password').press('Enter');
  await page.waitForURL((u) => u.pathname === '/devices');
}

const toast = (page, text) => page.locator('.toast', { hasText: text }).first().waitFor();

export async function run({ base, page, context, newBrowser, test, shot }) {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  let secretsShown = [];

  await test('administrator: admin card and panel', async (ok) => {
    await signIn(page, base, ADMIN);
    await page.getByTestId('admin-card').waitFor();
    ok('the admin card is on the administrator\'s grid');
    await shot('01-admin-grid.png');
    await page.getByTestId('admin-card').getByRole('button', { name: 'Admin panel' }).click();
    await page.waitForURL((u) => u.pathname === '/adminPanel');
    for (const b of ['Create company', 'Create user', 'Create device', 'Create all', 'Quick device registration'])
      await page.getByRole('button', { name: new RegExp(b) }).waitFor();
    ok('/adminPanel shows the four large buttons and quick registration');
    await shot('02-admin-panel.png');
  });

  await test('create a company', async (ok) => {
    await page.getByRole('button', { name: /Create company/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Company name').fill('x'.repeat(30));
    const typed = await dialog.getByLabel('Company name').inputValue();
    if (typed.length !== 25) throw new Error(`company name holds ${typed.length} characters, expected 25`);
    await dialog.getByText('Maximum 25 characters allowed').waitFor();
    ok('the name stops at 25 characters with "Maximum 25 characters allowed"');
    await dialog.getByLabel('Company name').fill(COMPANY);
    await dialog.getByLabel('Address').fill('Quay 4, Harbour Town');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await toast(page, msg('companyCreated'));
    await dialog.waitFor({ state: 'detached' });
    ok('companyCreated toast; the popup closes');
  });

  await test('create a user in it', async (ok) => {
    await page.getByRole('button', { name: /Create user/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Company').selectOption({ label: COMPANY });
    await dialog.getByLabel('Email').fill(USER.email);
    await dialog.getByLabel('Password', { exact: true }).fill('12345');
    await dialog.getByLabel('Repeat password').fill('12345');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await toast(page, msg('shortPassword'));
    ok('a 5-character password gives shortPassword');
    await shot('03-user-short-password.png');
    await dialog.getByLabel('Password', { exact: true }).fill(USER.password);
    await dialog.getByLabel('Repeat password').fill('different1');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await toast(page, msg('passwordsUnmatch'));
    ok('unmatched passwords give passwordsUnmatch');
    await dialog.getByLabel('Repeat password').fill(USER.password);
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await toast(page, msg('accountCreated'));
    await dialog.waitFor({ state: 'detached' });
    ok('accountCreated');
  });

  await test('create a Sensing Horse and copy its secrets', async (ok) => {
    await page.getByRole('button', { name: /Create device/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Company').selectOption({ label: COMPANY });
    await dialog.getByLabel('Device type').selectOption('Sensing Horse');
    const subdevices = dialog.getByLabel('Number of sub-devices');
    if ((await subdevices.inputValue()) !== '2') throw new Error('sub-devices do not default to 2');
    ok('Sensing Horse asks for sub-devices, default 2');
    await dialog.getByLabel(/^Serial number/).fill(HORSE.serial);
    await dialog.getByLabel(/^Device name/).fill(HORSE.name);
    await subdevices.fill('two');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await toast(page, msg('deviceParameters'));
    ok('non-numeric sub-devices give deviceParameters');
    await subdevices.fill('2');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await toast(page, msg('deviceCreated'));
    await dialog.getByTestId('device-secrets').waitFor();
    await dialog.getByText('It will not be shown again').waitFor();
    ok('deviceCreated; the secrets are shown with the warning');
    await shot('04-device-secrets.png');
    const codes = dialog.locator('[data-testid^="secret-"]');
    const count = await codes.count();
    if (count !== 2) throw new Error(`${count} secrets shown, expected 2 (left and right)`);
    secretsShown = await codes.allTextContents();
    await dialog.getByRole('button', { name: 'Copy' }).first().click();
    await dialog.getByText('Copied to the clipboard.').waitFor();
    const clip = await page.evaluate(() => navigator.clipboard.readText());
    if (clip !== secretsShown[0] || !/^[A-Za-z0-9_-]{43}$/.test(clip)) throw new Error(`clipboard holds "${clip}"`);
    ok(`the copied secret (${clip.slice(0, 6)}…) is the one shown, 43 base64url characters`);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  await test('the new user sees only their company', async (ok) => {
    const { page: p2 } = await newBrowser();
    await signIn(p2, base, USER);
    await p2.getByTestId('device-card').first().waitFor();
    const names = await p2.$$eval('[data-testid="device-card"] dd[title]', (els) => els.map((e) => e.getAttribute('title')));
    const types = await p2.$$eval('[data-testid="device-card"]', (els) => els.map((e) => e.getAttribute('data-device-type')));
    if (types.length !== 1 || types[0] !== 'Sensing Horse' || !names.includes(HORSE.name))
      throw new Error(`the new user sees ${JSON.stringify({ types, names })}`);
    ok(`one card: ${HORSE.name} (Sensing Horse)`);
    if (await p2.getByTestId('admin-card').count()) throw new Error('a staff user is offered the admin card');
    ok('no admin card for role 2');
    await p2.getByTestId('company-brand').getByText(COMPANY).waitFor();
    ok('the top bar names the company');
    await shot('05-new-user-grid.png', p2);
    await p2.goto(`${base}/adminPanel`);
    await p2.getByTestId('admin-refusal').waitFor();
    ok('opening /adminPanel directly shows the hub refusal');
    await shot('06-staff-admin-refused.png', p2);
  });

  await test('branding: valid logo, oversized, non-image', async (ok) => {
    await page.goto(`${base}/brandingOptions`);
    await page.getByTestId('branding-form').waitFor();
    const input = page.getByTestId('logo-input');
    await input.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.concat([png(2, 2, [0, 0, 0]), Buffer.alloc(1_048_577)]).subarray(0, 1_048_577) });
    await page.getByText('File size is too large (maximum 1 MB).').waitFor();
    ok('1,048,577 bytes: "File size is too large (maximum 1 MB)."');
    await shot('07-branding-too-large.png');
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
    await page.getByText('The file is not an image.').waitFor();
    ok('a text file: "The file is not an image."');
    await input.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('plain text named .png') });
    await page.getByText('The file is not an image.').waitFor();
    if ((await page.getByTestId('logo-field').getAttribute('data-state')) !== 'empty') throw new Error('a fake PNG was accepted');
    ok('text named .png: refused by its content');
    await shot('08-branding-not-image.png');
    await input.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png(48, 48, [14, 116, 144]) });
    await page.getByTestId('logo-preview').waitFor();
    ok('a real 48×48 PNG: preview');
    await shot('09-branding-preview.png');
    await page.getByTestId('branding-form').getByRole('button', { name: 'Save' }).click();
    await toast(page, msg('companyUpdated'));
    await page.waitForURL((u) => u.pathname === '/devices');
    await page.getByTestId('company-brand-logo').waitFor();
    const logoOk = await page.getByTestId('company-brand-logo').evaluate((img) => img.complete && img.naturalWidth === 48);
    if (!logoOk) throw new Error('the top bar logo did not load');
    ok('companyUpdated, back to /devices, the logo is in the top bar');
    await shot('10-devices-with-logo.png');
  });

  await test('device settings saved and shown on the card', async (ok) => {
    const card = page.getByTestId('device-card').filter({ has: page.getByTestId('device-edit-button') }).first();
    const id = await card.getAttribute('data-device-id');
    await card.getByTestId('device-info-button').click();
    const info = page.getByTestId('device-info-modal');
    await info.waitFor();
    await shot('11-info-modal.png');
    await info.getByRole('button', { name: 'Close' }).click();
    if (new URL(page.url()).pathname !== '/devices') throw new Error('the info button opened the device');
    ok('info modal opens read-only without opening the device');
    await card.getByTestId('device-edit-button').click();
    const edit = page.getByTestId('device-edit-modal');
    await edit.waitFor();
    await shot('12-edit-modal.png');
    await edit.getByRole('button', { name: 'All settings' }).click();
    await page.waitForURL((u) => /^\/(deviceSettings|roomSettings)$/.test(u.pathname));
    // The URL changes before the router renders the page: until the form is there, the edit
    // modal's own Name field would take the fill.
    const form = page.getByTestId('device-settings-form');
    await form.waitFor();
    await form.getByLabel(/^Name/).fill('');
    await form.getByRole('button', { name: 'Update' }).click();
    await toast(page, msg('deviceParameters'));
    ok('an empty name gives deviceParameters');
    await form.getByLabel(/^Name/).fill('Tour Bed 7');
    await form.getByLabel(/^Room(?! set)/).fill('Ward 3');
    // The location field is named by the device's family (Bed, Seat, Floor, Saddle…).
    const locations = Object.values(EN.locations).join('|');
    await form.getByLabel(new RegExp(`^(${locations})(?![a-z])`)).fill('Bed 7');
    await shot('13-device-settings.png');
    await form.getByRole('button', { name: 'Update' }).click();
    await toast(page, msg('deviceInfoUpdated'));
    await page.waitForURL((u) => u.pathname === '/devices');
    const updated = page.locator(`[data-testid="device-card"][data-device-id="${id}"]`);
    await updated.getByText('Tour Bed 7').waitFor();
    await updated.getByTestId('card-bed').getByText('Bed 7', { exact: true }).waitFor();
    ok('deviceInfoUpdated, back to /devices, the card shows "Tour Bed 7" / "Bed 7"');
    await page.reload();
    await page.locator(`[data-testid="device-card"][data-device-id="${id}"]`).getByText('Tour Bed 7').waitFor();
    ok('still there after a reload (saved in the hub)');
    await shot('14-card-updated.png');
  });

  await test('quick registration shows a login once', async (ok) => {
    await page.goto(`${base}/adminPanel`);
    await page.getByRole('button', { name: /Quick device registration/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Device type').selectOption('Mattress Mat IoT');
    await dialog.getByLabel(/^Serial number/).fill('TOUR-QR-1');
    await dialog.getByRole('button', { name: 'Register' }).click();
    const email = await dialog.getByTestId('quick-email').textContent();
    const password = await dialog.getByTestId('quick-password').textContent();
    if (!/^admin\.tour-qr-1@quick-registration\.invalid$/i.test(email ?? '') || !/^[A-Za-z0-9]{12}$/.test(password ?? ''))
      throw new Error(`quick login ${email} / ${password}`);
    ok(`generated ${email} and a 12-character password`);
    await shot('15-quick-registration.png');
    const { page: p3 } = await newBrowser();
    await signIn(p3, base, { email, password });
    await p3.getByTestId('device-card').first().waitFor();
    ok('the generated login signs in');
  });

  await test('staff demo user: no admin card, refusal on /adminPanel', async (ok) => {
    const { page: p4 } = await newBrowser();
    await signIn(p4, base, STAFF);
    await p4.getByTestId('device-card').first().waitFor();
    if (await p4.getByTestId('admin-card').count()) throw new Error('staff sees the admin card');
    await p4.goto(`${base}/adminPanel`);
    await p4.getByTestId('admin-refusal').getByText('Only administrators').waitFor();
    ok('refused cleanly');
  });

  await test('rotate a device secret: the new one is shown once', async (ok) => {
    await page.goto(`${base}/adminPanel`);
    await page.getByRole('button', { name: msg('admin.rotateSecret') }).click();
    const dialog = page.getByRole('dialog');
    const select = dialog.getByTestId('rotate-device');
    await select.locator('option').first().waitFor({ state: 'attached' });
    const serial = /\(([^)]+)\)$/.exec((await select.locator('option').first().textContent()) ?? '')?.[1];
    await dialog.getByText(msg('admin.rotateWarning')).waitFor();
    await shot('16-rotate-secret.png');
    await dialog.getByRole('button', { name: msg('admin.rotate') }).click();
    // Rotation disconnects the device: it asks for a confirmation first.
    await dialog.getByTestId('rotate-confirm').waitFor();
    await shot('16b-rotate-confirm.png');
    await dialog.getByRole('button', { name: msg('admin.rotateConfirmButton') }).click();
    const secret = await dialog.getByTestId(`secret-${serial}`).textContent();
    if (!secret || secret.length < 40) throw new Error(`rotated secret ${secret}`);
    await dialog.getByRole('alert').getByText(msg('admin.secretWarning')).waitFor();
    ok(`a new ${secret.length}-character secret for ${serial}, shown once with the warning`);
    await shot('17-secret-rotated.png');
    await dialog.getByRole('button', { name: msg('admin.done') }).click();
  });

  await test('the audit log lists what this tour did', async (ok) => {
    await page.getByTestId('audit-log-link').click();
    await page.waitForURL((u) => u.pathname === '/adminPanel/auditLog');
    await page.getByTestId('audit-row').first().waitFor();
    const actions = await page.getByTestId('audit-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')));
    for (const action of ['device.rotateSecret', 'device.create', 'device.update', 'company.branding', 'user.create', 'company.create'])
      if (!actions.includes(action)) throw new Error(`${action} missing from the audit log: ${actions.join(', ')}`);
    if (actions[0] !== 'device.rotateSecret') throw new Error(`newest first: ${actions[0]}`);
    const first = page.getByTestId('audit-row').first();
    await first.getByText(ADMIN.email).waitFor();
    await first.getByText(msg('admin.auditActions.device.rotateSecret')).waitFor();
    ok(`${actions.length} entries on page 1, newest first, by ${ADMIN.email}`);
    await shot('18-audit-log.png');
  });

  await test('logout revokes the token', async (ok) => {
    await page.goto(`${base}/devices`);
    const token = await page.evaluate(() => localStorage.getItem('user'));
    if (!token) throw new Error('no stored token');
    const before = await page.evaluate(async (t) => (await fetch('/api/userDevices', { headers: { Authorization: `Bearer ${t}` } })).status, token);
    if (before !== 200) throw new Error(`the token works before logout: ${before}`);
    const loggedOut = page.waitForResponse((r) => r.url().endsWith('/api/auth/logout'));
    await page.getByTestId('logout').click();
    await page.waitForURL((u) => u.pathname === '/login');
    if ((await loggedOut).status() !== 204) throw new Error('the logout call failed');
    const after = await page.evaluate(async (t) => {
      const res = await fetch('/api/userDevices', { headers: { Authorization: `Bearer ${t}` } });
      return { status: res.status, body: await res.json() };
    }, token);
    if (after.status !== 401 || after.body.error !== 'unauthorized') throw new Error(`old token after logout: ${JSON.stringify(after)}`);
    ok('the old token now answers 401 unauthorized');
    await shot('19-after-logout.png');
  });
}
