// Tour: the patient at the bedside (issue 22). A nurse assigns a patient to Bed 101-A and sees her
// on the bed's card and its page, while a clinician (another user, another browser) selects a
// different patient on the podology plate: the bed keeps its own patient, the clinician keeps his
// selection. Then the administrator deletes the bed's patient (after a confirmation) and the bed
// is free again.

import { DEMO_ADMIN, dismissToasts } from '../harness.mjs';

export const name = 'bedside';

const NURSE_PATIENT = 'Ana Bedside';
const CLINIC_PATIENT = 'Bea Plate';

async function toast(page, re) {
  const t = page.locator('.toast', { hasText: re }).first();
  await t.waitFor({ timeout: 10_000 });
  return (await t.textContent())?.replace('×', '').trim();
}

/** Registers a patient through the hub's REST API as the page's signed-in user. */
async function registerPatient(page, name, weight, height) {
  const status = await page.evaluate(
    async ({ name, weight, height }) => {
      const token = localStorage.getItem('user');
      const user = localStorage.getItem('userId');
      const res = await fetch(`/api/podometry/patients/${user}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, weight, height, agreeDataTreatment: true }),
      });
      return res.status;
    },
    { name, weight, height },
  );
  if (status !== 201) throw new Error(`registering ${name}: HTTP ${status}`);
}

const card = (page, deviceName) => page.locator('[data-testid="device-card"]', { hasText: deviceName }).first();

export async function run({ page, newBrowser, test, shot, login }) {
  const clinician = (await newBrowser()).page;

  await test('a clinician selects a patient on the podology plate', async (ok) => {
    await login(clinician, DEMO_ADMIN);
    await registerPatient(clinician, CLINIC_PATIENT, 81, 178);
    await card(clinician, 'Podology plate').click();
    await clinician.waitForURL((u) => u.pathname === '/PodiatryIoT');
    if (await clinician.getByTestId('bedside-panel').count()) throw new Error('a plate shows a bedside panel');
    ok('the plate has no patient of its own');
    await clinician.getByTestId('patient-select-open').click();
    await clinician.getByRole('option', { name: new RegExp(CLINIC_PATIENT) }).click();
    await clinician.getByTestId('patient-select-confirm').click();
    await clinician.getByTestId('selected-patient-name').filter({ hasText: CLINIC_PATIENT }).waitFor();
    ok(`the clinician's selection: ${CLINIC_PATIENT}`);
    await shot('1-clinician-plate.png', clinician);
    await dismissToasts(clinician);
  });

  await test('a nurse assigns a patient to Bed 101-A', async (ok) => {
    await login();
    await registerPatient(page, NURSE_PATIENT, 64.5, 163);
    const bed = card(page, 'Bed 101-A');
    await bed.getByTestId('card-patient').filter({ hasText: 'No patient assigned' }).waitFor();
    ok('the bed card: "No patient assigned"');
    await bed.click();
    await page.waitForURL((u) => u.pathname === '/mattressMatIoT');
    await page.getByTestId('bedside-free').waitFor();
    await page.getByTestId('bedside-assign').click();
    await page.getByTestId('patient-select').waitFor();
    await page.getByRole('option', { name: new RegExp(NURSE_PATIENT) }).click();
    await shot('2-nurse-assigns.png');
    await page.getByTestId('patient-select-confirm').click();
    ok(`toast: "${await toast(page, new RegExp(`${NURSE_PATIENT} assigned`))}"`);
    await page.getByTestId('bedside-patient-name').filter({ hasText: NURSE_PATIENT }).waitFor();
    await page.getByTestId('bedside-patient').filter({ hasText: '163 cm' }).waitFor();
    ok(`the bed's page: ${(await page.getByTestId('bedside-patient').innerText()).replace(/\n/g, ' ')}`);
    // The nurse selected nobody: no red "No patient selected" on a bed with its patient, but
    // whose its captures are.
    const note = page.getByTestId('bedside-capture-note').filter({ hasText: NURSE_PATIENT });
    await note.waitFor();
    if (await page.getByTestId('no-patient').count()) throw new Error('"No patient selected" on a bed whose captures are its patient\'s');
    ok(`the nurse's own selection stays empty, and the panel says: "${(await note.innerText()).trim()}"`);
    await dismissToasts(page);
    await shot('3-bed-page.png');
  });

  await test('the cards: the bed names its patient, the plate none, the chair is free', async (ok) => {
    await page.getByRole('button', { name: /back/i }).first().click();
    await page.waitForURL((u) => u.pathname === '/devices');
    await card(page, 'Bed 101-A').getByTestId('card-patient').filter({ hasText: NURSE_PATIENT }).waitFor();
    ok(`Bed 101-A card: ${NURSE_PATIENT}`);
    await card(page, 'Chair 102').getByTestId('card-patient').filter({ hasText: 'No patient assigned' }).waitFor();
    ok('Chair 102 card: no patient assigned');
    if (await card(page, 'Podology plate').getByTestId('card-patient').count()) throw new Error('the plate card names a patient');
    ok('the plate card names none');
    await shot('4-nurse-cards.png');

    await clinician.reload();
    await clinician.getByTestId('selected-patient-name').filter({ hasText: CLINIC_PATIENT }).waitFor();
    ok(`the clinician still has ${CLINIC_PATIENT} selected on the plate`);
    await clinician.goto(new URL('/devices', clinician.url()).toString());
    await card(clinician, 'Bed 101-A').getByTestId('card-patient').filter({ hasText: NURSE_PATIENT }).waitFor();
    ok(`the clinician's cards show Bed 101-A with ${NURSE_PATIENT}, not ${CLINIC_PATIENT}`);
    await shot('5-clinician-cards.png', clinician);
  });

  await test('the administrator deletes the bed’s patient after a confirmation', async (ok) => {
    await card(clinician, 'Podology plate').click();
    await clinician.waitForURL((u) => u.pathname === '/PodiatryIoT');
    await clinician.getByTestId('patient-select-open').click();
    await clinician.getByRole('option', { name: new RegExp(NURSE_PATIENT) }).click();
    await clinician.getByTestId('patient-select-confirm').click();
    await clinician.getByTestId('selected-patient-name').filter({ hasText: NURSE_PATIENT }).waitFor();
    await dismissToasts(clinician);
    await clinician.getByTestId('patient-info-open').click();
    await clinician.getByTestId('patient-delete').click();
    const confirm = clinician.getByTestId('patient-delete-confirm');
    await confirm.waitFor();
    ok(`confirmation: "${(await confirm.innerText()).replace(/\n+/g, ' / ')}"`);
    await shot('6-delete-confirmation.png', clinician);
    await confirm.getByTestId('patient-delete-confirm-button').click();
    ok(`toast: "${await toast(clinician, new RegExp(`${NURSE_PATIENT} deleted`))}"`);
    await clinician.getByTestId('no-patient').waitFor();
    ok('the clinician has no selected patient any more');

    await page.reload();
    await card(page, 'Bed 101-A').getByTestId('card-patient').filter({ hasText: 'No patient assigned' }).waitFor();
    ok('the nurse sees Bed 101-A free again');
    await shot('7-bed-released.png');
  });
}
