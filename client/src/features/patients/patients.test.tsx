import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { selectedPatientAtom } from '../../lib/clinicalContext';
import { applyDeviceConf } from '../../lib/devicesStore';
import { ANA, PATIENTS_PATH, renderWorkspace, SELECT_PATH, stubHub } from '../../test/clinicalTestKit';

const noneSelected = () => ({ body: { patient: null, message: 'No patient is currently selected.' } });
const anaSelected = () => ({ body: { patient: ANA, message: null } });

async function openNewForm() {
  fireEvent.click(await screen.findByTestId('patient-new-open'));
  return screen.getByTestId('patient-form');
}
const fill = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const save = () => fireEvent.click(screen.getByTestId('patient-save'));
/** Registers a valid patient while the hub answers the POST with `status` and `error`. */
async function registerAnswered(status: number, error: string) {
  stubHub({ [`GET ${SELECT_PATH}`]: noneSelected, [`POST ${PATIENTS_PATH}`]: () => ({ status, body: { error, message: 'x' } }) });
  await renderWorkspace();
  await openNewForm();
  fill('Name *', 'Ana');
  fill('Weight (kg) *', '70');
  fill('Height (cm) *', '172');
  fireEvent.click(screen.getByTestId('patient-agree'));
  save();
}
const toast = (text: string | RegExp) => screen.findByText(text, { selector: '.toast span' });

describe('patient and device panel (spec §2)', () => {
  it('shows the device company, name and status, and the red notice without a selected patient', async () => {
    stubHub({ [`GET ${SELECT_PATH}`]: noneSelected });
    await renderWorkspace();
    expect(await screen.findByTestId('no-patient')).toHaveTextContent('No patient selected');
    expect(screen.getByTestId('panel-company')).toHaveTextContent('Demo Clinic');
    expect(screen.getByTestId('panel-device-name')).toHaveTextContent('Podology plate');
    expect(within(screen.getByTestId('patient-panel')).getByText('Offline')).toBeInTheDocument();
  });

  it('shows left and right status for the horse, and the device actions it is given', async () => {
    stubHub({ [`GET ${SELECT_PATH}`]: noneSelected });
    const horse = { _id: { $oid: 'h1' }, name: 'Saddle', deviceType: 'Sensing Horse' };
    const { store } = await renderWorkspace({ device: horse, deviceActions: <button type="button">Device info</button> });
    act(() => {
      applyDeviceConf(store, {
        deviceId: 'h1',
        deviceFunctional: true,
        stateCode: 2,
        cardStatus: 'Alarm',
        sides: [
          { side: 'left', stateCode: 0, cardStatus: 'Correct' },
          { side: 'right', stateCode: 2, cardStatus: 'Alarm' },
        ],
      });
    });
    const panel = screen.getByTestId('patient-panel');
    const badges = [...panel.querySelectorAll('.status-badge')].map((b) => [b.textContent, b.getAttribute('data-status')]);
    expect(badges).toEqual([
      ['LeftCorrect', 'Correct'],
      ['RightAlarm', 'Alarm'],
    ]);
    expect(within(panel).getByRole('button', { name: 'Device info' })).toBeInTheDocument();
  });

  it('shows the selected patient with height in cm and weight in kg', async () => {
    stubHub({ [`GET ${SELECT_PATH}`]: anaSelected });
    const { store } = await renderWorkspace();
    const panel = await screen.findByTestId('selected-patient');
    expect(panel).toHaveTextContent('Ana García');
    expect(panel).toHaveTextContent('172 cm');
    expect(panel).toHaveTextContent('68.5 kg');
    expect(store.get(selectedPatientAtom)).toEqual({ id: 'p1', name: 'Ana García', height: 172, weight: 68.5 });
  });

  it('edit and info without a selected patient give the error toast and open nothing (spec §5)', async () => {
    stubHub({ [`GET ${SELECT_PATH}`]: noneSelected });
    await renderWorkspace();
    await screen.findByTestId('no-patient');
    fireEvent.click(screen.getByTestId('patient-edit-open'));
    expect(await toast('Select a patient to continue.')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('patient-info-open'));
    expect(screen.getAllByText('Select a patient to continue.')).toHaveLength(2);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('patient registration (spec §3, §5)', () => {
  it('shows every field’s problem at once, the agreement’s too, each in its own words, sending nothing', async () => {
    const calls = stubHub({ [`GET ${SELECT_PATH}`]: noneSelected });
    await renderWorkspace();
    await openNewForm();
    fill('Name *', 'A');
    fill('Weight (kg) *', '6000');
    fill('Height (cm) *', '1,65');
    fill('Postal code', 'ABC');
    fill('Notes', 'n'.repeat(155));
    expect(screen.getByTestId('patient-notes-count')).toHaveTextContent('155/154');
    save();
    expect(await screen.findByTestId('patient-error-name')).toHaveTextContent('Required: 2 to 200 characters.');
    expect(screen.getByTestId('patient-error-weight')).toHaveTextContent('Weight in kg, from 2 to 450');
    expect(screen.getByTestId('patient-error-height')).toHaveTextContent('Height in cm, from 45 to 250 (for 1.65 m enter 165).');
    expect(screen.getByTestId('patient-error-postalCode')).toHaveTextContent('Digits only, 3 to 10 of them.');
    expect(screen.getByTestId('patient-error-notes')).toHaveTextContent('At most 154 characters.');
    expect(screen.getByTestId('patient-error-agreeDataTreatment')).toBeInTheDocument();
    expect(await toast("Check the patient's data: the fields marked in red.")).toBeInTheDocument();
    expect(await toast('The patient must agree to the processing of their data.')).toBeInTheDocument();
    // Correcting one field clears its message only.
    fill('Height (cm) *', '165');
    expect(screen.queryByTestId('patient-error-height')).toBeNull();
    expect(screen.getByTestId('patient-error-weight')).toBeInTheDocument();
    fill('Name *', 'Ana');
    fill('Weight (kg) *', '70');
    fill('Postal code', '');
    fill('Notes', '');
    fireEvent.click(screen.getByTestId('patient-agree'));
    fill('E-mail', 'ana@clinic');
    save();
    expect(await screen.findByTestId('patient-error-email')).toHaveTextContent('Please, select a valid email address');
    fill('E-mail', '');
    // The date field: day, month (names of the language) and year, in the language's order.
    fill('Day', '1');
    fill('Month', '1');
    fill('Year', '2999');
    save();
    expect(await screen.findByTestId('patient-error-birthDate')).toHaveTextContent('the date of birth cannot be in the future');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('puts the hub’s refusal at the field its key names', async () => {
    stubHub({ [`GET ${SELECT_PATH}`]: noneSelected, [`POST ${PATIENTS_PATH}`]: () => ({ status: 400, body: { error: 'patientHeight', message: 'x' } }) });
    await renderWorkspace();
    await openNewForm();
    fill('Name *', 'Ana');
    fill('Weight (kg) *', '70');
    fill('Height (cm) *', '172');
    fireEvent.click(screen.getByTestId('patient-agree'));
    save();
    expect(await screen.findByTestId('patient-error-height')).toHaveTextContent('Height in cm, from 45 to 250');
  });

  it('creates the patient with numbers and the agreement, then closes', async () => {
    const calls = stubHub({
      [`GET ${SELECT_PATH}`]: noneSelected,
      [`POST ${PATIENTS_PATH}`]: (body) => ({ status: 201, body: { ...(body as object), _id: { $oid: 'p9' } } }),
    });
    await renderWorkspace();
    await openNewForm();
    fill('Name *', ' Ana ');
    fill('Weight (kg) *', '68,5');
    fill('Height (cm) *', '172');
    fill('Notes', 'n'.repeat(154));
    fireEvent.click(screen.getByTestId('patient-agree'));
    save();
    expect(await toast('Patient created.')).toBeInTheDocument();
    expect(screen.queryByTestId('patient-form')).toBeNull();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toMatchObject({ name: 'Ana', weight: 68.5, height: 172, agreeDataTreatment: true });
    expect(post?.body).not.toHaveProperty('phone');
  });

  it('the patientCreated confirmation lasts 1.5 s (spec catalogue), not the errors’ 2.5 s', async () => {
    stubHub({
      [`GET ${SELECT_PATH}`]: noneSelected,
      [`POST ${PATIENTS_PATH}`]: (body) => ({ status: 201, body: { ...(body as object), _id: { $oid: 'p9' } } }),
    });
    await renderWorkspace();
    await openNewForm();
    fill('Name *', 'Ana');
    fill('Weight (kg) *', '68,5');
    fill('Height (cm) *', '172');
    fireEvent.click(screen.getByTestId('patient-agree'));
    save();
    expect(await toast('Patient created.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Patient created.', { selector: '.toast span' })).toBeNull(), { timeout: 1900 });
  });

  it.each([
    ['invalidPatientData', 400, "Check the patient's data: the fields marked in red."],
    ['patientWeight', 400, "Check the patient's data: the fields marked in red."],
    ['agreeDataTreatment', 400, 'The patient must agree to the processing of their data.'],
    ['storageQuotaExceeded', 409, 'The patient could not be created.'],
  ])('maps the hub’s %s to its toast', async (error, status, text) => {
    await registerAnswered(status, error);
    expect(await toast(text)).toBeInTheDocument();
    expect(screen.getByTestId('patient-form')).toBeInTheDocument();
  });

  it.each([
    ['incorrectEmail', 'email', 'Please, select a valid email address'],
    ['invalidBirthDate', 'birthDate', 'Please, select a valid date'],
  ])('maps the hub’s %s to the alert at its field', async (error, field, text) => {
    await registerAnswered(400, error);
    expect(await screen.findByTestId(`patient-error-${field}`)).toHaveTextContent(text);
  });

  it('close discards what was typed', async () => {
    stubHub({ [`GET ${SELECT_PATH}`]: noneSelected });
    await renderWorkspace();
    await openNewForm();
    fill('Name *', 'Typed but discarded');
    fireEvent.click(within(screen.getByTestId('patient-form')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByTestId('patient-form')).toBeNull();
    await openNewForm();
    expect(screen.getByLabelText('Name *')).toHaveValue('');
  });
});

describe('patient selection, info and edit', () => {
  it('the selection modal is searchable (accents and case ignored) and selects on the hub', async () => {
    const ben = { ...ANA, _id: { $oid: 'p2' }, name: 'Benito Pérez', phone: '600111222' };
    const calls = stubHub({
      [`GET ${SELECT_PATH}`]: noneSelected,
      [`GET ${PATIENTS_PATH}`]: () => ({ body: [ben, ANA] }),
      [`PUT ${SELECT_PATH}`]: () => anaSelected(),
    });
    const { store } = await renderWorkspace();
    fireEvent.click(await screen.findByTestId('patient-select-open'));
    const options = () => within(screen.getByTestId('patient-options')).getAllByRole('option');
    await screen.findByTestId('patient-options');
    expect(options()).toHaveLength(2);
    fill('Search', 'GARCIA');
    expect(options().map((o) => o.textContent)).toEqual([expect.stringContaining('Ana García')]);
    fill('Search', '600111');
    expect(options().map((o) => o.textContent)).toEqual([expect.stringContaining('Benito Pérez')]);
    fill('Search', 'zzz');
    expect(screen.getByText('No patient matches your search.')).toBeInTheDocument();
    fill('Search', 'ana');
    fireEvent.click(screen.getByRole('option', { name: /Ana García/ }));
    fireEvent.click(screen.getByTestId('patient-select-confirm'));
    expect(await toast('Ana García is now the selected patient.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ patientId: 'p1' });
    expect(screen.getByTestId('selected-patient-name')).toHaveTextContent('Ana García');
    expect(store.get(selectedPatientAtom)?.id).toBe('p1');
  });

  it('a failed selection shows errorSelectingPatient and keeps the modal', async () => {
    stubHub({
      [`GET ${SELECT_PATH}`]: noneSelected,
      [`GET ${PATIENTS_PATH}`]: () => ({ body: [ANA] }),
      [`PUT ${SELECT_PATH}`]: () => ({ status: 500, body: { error: 'internal' } }),
    });
    await renderWorkspace();
    fireEvent.click(await screen.findByTestId('patient-select-open'));
    fireEvent.click(await screen.findByRole('option', { name: /Ana García/ }));
    fireEvent.click(screen.getByTestId('patient-select-confirm'));
    expect(await toast('The patient could not be selected.')).toBeInTheDocument();
    expect(screen.getByTestId('patient-select')).toBeInTheDocument();
  });

  it('without patients the selection modal asks to create one', async () => {
    stubHub({ [`GET ${SELECT_PATH}`]: noneSelected, [`GET ${PATIENTS_PATH}`]: () => ({ body: [] }) });
    await renderWorkspace();
    fireEvent.click(await screen.findByTestId('patient-select-open'));
    expect(await screen.findByText('There are no patients yet. Register a patient first.')).toBeInTheDocument();
    fireEvent.click(within(screen.getByTestId('patient-select')).getByRole('button', { name: 'New patient' }));
    expect(screen.getByTestId('patient-form')).toBeInTheDocument();
  });

  it('the info modal is read-only and shows unset phone, phone2, size and postal code blank', async () => {
    stubHub({ [`GET ${SELECT_PATH}`]: anaSelected });
    await renderWorkspace();
    await screen.findByTestId('selected-patient');
    fireEvent.click(screen.getByTestId('patient-info-open'));
    const info = screen.getByTestId('patient-info');
    for (const f of ['phone', 'phone2', 'size', 'postalCode']) expect(screen.getByTestId(`patient-info-${f}`)).toHaveTextContent(/^$/);
    expect(screen.getByTestId('patient-info-email')).toHaveTextContent('ana@clinic.es');
    expect(within(info).queryByRole('textbox')).toBeNull();
  });

  it('edit loads the patient without the agreement, PUTs the change and updates the panel', async () => {
    const calls = stubHub({
      [`GET ${SELECT_PATH}`]: anaSelected,
      'PUT /api/podometry/patient/p1': (body) => ({ body: { ...ANA, ...(body as object) } }),
    });
    await renderWorkspace();
    await screen.findByTestId('selected-patient');
    fireEvent.click(screen.getByTestId('patient-edit-open'));
    expect(screen.queryByTestId('patient-agree')).toBeNull();
    expect(screen.getByLabelText('Weight (kg) *')).toHaveValue('68.5');
    expect(screen.getByLabelText('Phone')).toHaveValue('');
    fill('Weight (kg) *', '70');
    save();
    expect(await toast('Patient updated.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ weight: 70 });
    expect(calls.find((c) => c.method === 'PUT')?.body).not.toHaveProperty('agreeDataTreatment');
    await waitFor(() => expect(screen.getByTestId('selected-patient')).toHaveTextContent('70 kg'));
  });

  it('a failed edit shows errorUpdatingPatient', async () => {
    stubHub({ [`GET ${SELECT_PATH}`]: anaSelected, 'PUT /api/podometry/patient/p1': () => ({ status: 404, body: { error: 'notFound' } }) });
    await renderWorkspace();
    await screen.findByTestId('selected-patient');
    fireEvent.click(screen.getByTestId('patient-edit-open'));
    await act(async () => save());
    expect(await toast('The patient could not be updated.')).toBeInTheDocument();
  });
});
