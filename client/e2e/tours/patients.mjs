// Tour: the clinical workflow on the podology plate — register a patient (seeing each validation
// refusal), select it, open its info, edit it, capture a static and a 15 s dynamic analysis and see
// the hub's resultsDue reach the page; then the same panels in Spanish with no untranslated key.

import { dismissToasts } from '../harness.mjs';

export const name = 'patients';

const PATIENT = 'Ana García Tour';

/** Waits for a toast whose text matches `re` (toasts are the notification area, top right). */
async function toast(page, re) {
  const t = page.locator('.toast', { hasText: re }).first();
  await t.waitFor({ timeout: 10_000 });
  return (await t.textContent())?.replace('×', '').trim();
}

export async function run({ base, page, test, shot, login }) {
  const form = page.getByTestId('patient-form');
  const save = () => page.getByTestId('patient-save').click();
  const fieldError = (f) => page.getByTestId(`patient-error-${f}`);
  // The birth date is a day, a month list and a year in the language's order (issue 22).
  const fillDate = async (iso) => {
    const [y, m, d] = iso.split('-');
    await page.getByLabel('Day', { exact: true }).fill(String(Number(d)));
    await page.getByLabel('Month', { exact: true }).selectOption(String(Number(m)));
    await page.getByLabel('Year', { exact: true }).fill(y);
  };

  await test('podology page: panel without a patient', async (ok) => {
    await login();
    await page.waitForSelector('[data-testid="device-card"][data-device-type="Podology IoT"]', { timeout: 30_000 });
    await page.locator('[data-testid="device-card"][data-device-type="Podology IoT"]').first().click();
    await page.waitForURL((u) => u.pathname === '/PodiatryIoT');
    await page.getByTestId('patient-panel').waitFor();
    await page.getByTestId('no-patient').waitFor();
    ok(`red notice: "${(await page.getByTestId('no-patient').textContent())?.trim()}"`);
    ok(`panel device name: ${await page.getByTestId('panel-device-name').textContent()}`);
    await page.getByTestId('patient-edit-open').click();
    ok(`edit without a selection: "${await toast(page, /Select a patient to continue/)}"`);
    await page.getByTestId('patient-info-open').click();
    await toast(page, /Select a patient to continue/);
    ok('info without a selection: the same error');
    await page.getByTestId('capture-static').click();
    await page.getByTestId('tutorial-start').click();
    ok(`static capture without a patient: "${await toast(page, /No patient is selected/)}"`);
    await shot('1-no-patient.png');
    await dismissToasts(page);
  });

  await test('register a patient, seeing each validation refusal', async (ok) => {
    await page.getByTestId('patient-new-open').click();
    await form.waitFor();
    await page.getByLabel('Name').fill('A');
    await page.getByLabel('Weight (kg)').fill('6000');
    await page.getByLabel('Height (cm)').fill('1,65');
    await page.getByLabel('Postal code').fill('ABC');
    await save();
    ok(`no agreement: "${await toast(page, /agree/)}"`);
    for (const f of ['name', 'weight', 'height', 'postalCode', 'agreeDataTreatment']) await fieldError(f).waitFor();
    ok(`every field's problem at once: ${(await Promise.all(['name', 'weight', 'height', 'postalCode'].map(async (f) => `${f} "${await fieldError(f).textContent()}"`))).join(', ')}`);
    await shot('2a-every-problem-at-once.png');
    await page.getByLabel('Postal code').fill('');
    await page.getByLabel('Height (cm)').fill('');
    await page.getByTestId('patient-agree').check();
    await page.getByLabel('Name').fill('A');
    await save();
    await fieldError('name').waitFor();
    ok(`name of 1 character: "${await toast(page, /Check the patient's data/)}" / "${await fieldError('name').textContent()}"`);
    await page.getByLabel('Name').fill(PATIENT);
    await page.getByLabel('Weight (kg)').fill('1');
    await save();
    await fieldError('weight').waitFor();
    ok(`weight "1": "${await fieldError('weight').textContent()}"`);
    await page.getByLabel('Weight (kg)').fill('68,5');
    await page.getByLabel('Height (cm)').fill('301');
    await save();
    await fieldError('height').waitFor();
    ok(`height 301 cm: "${await fieldError('height').textContent()}"`);
    await page.getByLabel('Height (cm)').fill('172');
    await page.getByLabel('E-mail').fill('ana@clinic');
    await save();
    await fieldError('email').waitFor();
    ok(`e-mail alert: "${await fieldError('email').textContent()}"`);
    await page.getByLabel('E-mail').fill('ana@clinic.example');
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    await fillDate(tomorrow);
    await save();
    await fieldError('birthDate').waitFor();
    ok(`birth date ${tomorrow}: "${await fieldError('birthDate').textContent()}"`);
    await fillDate('1961-04-12');
    await page.getByLabel('Notes').fill('n'.repeat(155));
    await save();
    await fieldError('notes').waitFor();
    ok(`notes of 155: "${await fieldError('notes').textContent()}" (counter ${await page.getByTestId('patient-notes-count').textContent()})`);
    await page.getByLabel('Notes').fill('n'.repeat(154));
    await page.getByLabel('Phone', { exact: true }).fill('call me');
    await save();
    await fieldError('phone').waitFor();
    ok(`phone "call me": "${await fieldError('phone').textContent()}"`);
    await page.getByLabel('Phone', { exact: true }).fill('');
    await page.getByLabel('Notes').fill('Flat feet; first visit.');
    await page.getByLabel('Gender').selectOption('Female');
    await shot('2-patient-form.png');
    await save();
    ok(`saved: "${await toast(page, /Patient created/)}"`);
    await form.waitFor({ state: 'detached' });
    await dismissToasts(page);
  });

  await test('select it, open its info, edit it', async (ok) => {
    await page.getByTestId('patient-select-open').click();
    await page.getByTestId('patient-select').waitFor();
    await page.getByLabel('Search').fill('garcia');
    const option = page.getByRole('option', { name: new RegExp(PATIENT) });
    await option.waitFor();
    ok('search "garcia" (no accent) finds the patient');
    await page.getByLabel('Search').fill('nobody-like-this');
    await page.getByText('No patient matches your search.').waitFor();
    await page.getByLabel('Search').fill('ana');
    await option.click();
    await shot('3-select.png');
    await page.getByTestId('patient-select-confirm').click();
    await toast(page, new RegExp(`${PATIENT} is now the selected patient`));
    await page.getByTestId('selected-patient-name').filter({ hasText: PATIENT }).waitFor();
    ok(`panel shows ${PATIENT}, ${await page.getByTestId('selected-patient').innerText()}`.replace(/\n/g, ' '));

    await page.getByTestId('patient-info-open').click();
    await page.getByTestId('patient-info').waitFor();
    const phone = await page.getByTestId('patient-info-phone').textContent();
    const postal = await page.getByTestId('patient-info-postalCode').textContent();
    if (phone !== '' || postal !== '') throw new Error(`unset phone/postal code not blank: "${phone}" "${postal}"`);
    ok(`info: weight ${await page.getByTestId('patient-info-weight').textContent()}, email ${await page.getByTestId('patient-info-email').textContent()}, unset phone and postal code blank`);
    await shot('4-info.png');
    await page.getByTestId('patient-info').getByRole('button', { name: 'Close' }).last().click();

    await page.getByTestId('patient-edit-open').click();
    await form.waitFor();
    if (await page.getByTestId('patient-agree').count()) throw new Error('the agreement is asked again on edit');
    ok('edit form: no data-treatment agreement');
    if ((await page.getByLabel('Weight (kg)').inputValue()) !== '68.5') throw new Error('weight not loaded into the form');
    await page.getByLabel('Weight (kg)').fill('70');
    await save();
    ok(`edited: "${await toast(page, /Patient updated/)}"`);
    await page.getByTestId('selected-patient').filter({ hasText: '70 kg' }).waitFor();
    ok('panel shows 70 kg');
    await dismissToasts(page);
  });

  await test('static capture on the podology plate: results due', async (ok) => {
    await page.waitForSelector('[data-testid="presence"][data-presence="PRESENCE"]', { timeout: 60_000 });
    ok('the plate shows PRESENCE');
    await page.getByTestId('capture-static').click();
    await page.getByTestId('capture-tutorial').waitFor();
    await shot('5-tutorial-static.png');
    await page.getByTestId('tutorial-start').click();
    await page.waitForSelector('[data-testid="capture-status"][data-phase="capturing"], [data-testid="capture-status"][data-phase="ready"]');
    ok(`capture announced (phase ${await page.getByTestId('capture-status').getAttribute('data-phase')})`);
    ok(`toast: "${await toast(page, /Capturing the static analysis/)}"`);
    await page.waitForSelector('[data-testid="capture-status"][data-phase="ready"][data-kind="Static"]', { timeout: 15_000 });
    ok(`resultsDue reached the page: "${await page.getByTestId('capture-status').textContent()}"`);
    await toast(page, /results are ready/);
    await shot('6-static-ready.png');
    await dismissToasts(page);
  });

  await test('15 s dynamic capture: start-streaming hidden, second start refused, results due', async (ok) => {
    await page.locator('#capture-dynamic-seconds').selectOption('15');
    await page.getByTestId('capture-dynamic').click();
    await page.getByTestId('capture-tutorial').waitFor();
    await page.getByTestId('tutorial-start').click();
    await page.waitForSelector('[data-testid="capture-status"][data-phase="capturing"][data-kind="Dynamic"]');
    ok(`capturing: "${await page.getByTestId('capture-status').textContent()}"`);
    const streamingButtons = await page.getByTestId('streaming-button').count();
    const streamingOn = await page.getByTestId('streaming').getAttribute('data-streaming');
    if (streamingOn !== 'true' && streamingButtons !== 0) throw new Error('start-streaming button shown while capturing');
    ok(streamingOn === 'true' ? 'a live stream was running: only its stop is shown' : 'start-streaming button hidden while capturing');
    await page.getByTestId('capture-dynamic').click();
    await page.getByTestId('tutorial-start').click();
    ok(`second start: "${await toast(page, /dynamic analysis is already running/)}"`);
    ok(`toast at 4 s: "${await toast(page, /Capturing the dynamic analysis/)}"`);
    await shot('7-dynamic-capturing.png');
    await page.waitForSelector('[data-testid="capture-status"][data-phase="processing"]', { timeout: 30_000 });
    await page.getByTestId('streaming-button').waitFor();
    ok('loaded after 15.2 s: start-streaming shown again, results processing');
    await page.waitForSelector('[data-testid="capture-status"][data-phase="ready"][data-kind="Dynamic"]', { timeout: 30_000 });
    ok(`resultsDue: "${await page.getByTestId('capture-status').textContent()}"`);
    await shot('8-dynamic-ready.png');
    await dismissToasts(page);
  });

  await test('Spanish: the panels with no untranslated key', async (ok) => {
    await page.evaluate(() => localStorage.setItem('preferredLanguage', 'es'));
    await page.reload();
    await page.getByTestId('patient-panel').waitFor();
    await page.getByTestId('selected-patient-name').filter({ hasText: PATIENT }).waitFor();
    await page.getByText('Paciente y dispositivo').or(page.getByText('Seleccionar paciente')).first().waitFor();
    const keyLike = /\b(patients|capture|device|devices)\.[a-zA-Z]+/;
    const check = async (where) => {
      const text = await page.locator('body').innerText();
      const m = keyLike.exec(text);
      if (m) throw new Error(`untranslated key on ${where}: ${m[0]}`);
    };
    await check('the page');
    await shot('9-es-page.png');
    await page.getByTestId('patient-new-open').click();
    await form.waitFor();
    await page.getByTestId('patient-save').click();
    ok(`es toast: "${await toast(page, /tratamiento de sus datos/)}"`);
    await check('the new-patient form');
    await shot('10-es-form.png');
    await page.keyboard.press('Escape');
    await page.getByTestId('capture-balance').click();
    await page.getByTestId('capture-tutorial').waitFor();
    await check('the balance tutorial');
    await shot('11-es-tutorial.png');
    await page.keyboard.press('Escape');
    await page.getByTestId('patient-info-open').click();
    await page.getByTestId('patient-info').waitFor();
    await check('the patient info');
    ok('page, form, tutorial and info in Spanish without a raw key');
    await page.keyboard.press('Escape');
    await page.evaluate(() => localStorage.setItem('preferredLanguage', 'ja'));
    await page.reload();
    await page.getByText('患者とデバイス').or(page.getByText('患者を選択')).first().waitFor();
    await page.getByTestId('selected-patient-name').filter({ hasText: PATIENT }).waitFor();
    await check('the Japanese page');
    await page.getByTestId('capture-static').click();
    await page.getByTestId('capture-tutorial').waitFor();
    await check('the Japanese static tutorial');
    await shot('12-ja-tutorial.png');
    await page.keyboard.press('Escape');
    ok('Japanese page and tutorial without a raw key');
    await page.evaluate(() => localStorage.setItem('preferredLanguage', 'en'));
  });

  await test('narrow screen: the panels fit 375 px', async (ok) => {
    await page.reload();
    await page.getByTestId('patient-panel').waitFor();
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForTimeout(300);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (overflow > 0) throw new Error(`the page is ${overflow} px wider than the window`);
    await shot('13-375.png');
    await page.getByTestId('patient-edit-open').click();
    await form.waitFor();
    await shot('14-375-form.png');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 860 });
    ok('no horizontal overflow at 375 px; form usable');
  });
}
