import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { UserDevice } from '../../lib/api';
import { bedsidePatientsAtom, capturePatient, selectedPatientAtom } from '../../lib/clinicalContext';
import { createAppStore } from '../../lib/devicesStore';
import { ANA, PATIENTS_PATH, renderWorkspace, SELECT_PATH, stubHub } from '../../test/clinicalTestKit';
import { BedsidePatientPanel } from './BedsidePatientPanel';

const BEA = { ...ANA, _id: { $oid: 'p2' }, name: 'Bea Ruiz', weight: 80, height: 180 };
/** The workspace's device (its id is the streaming control's), as a bed with Bea in it. */
const BED: UserDevice = { _id: { $oid: 'pod1' }, name: 'Bed 101-A', deviceType: 'Mattress Mat IoT', hardwareSerial: 'B1', currentPatient: 'p2', currentPatientName: 'Bea Ruiz' };
const anaSelected = () => ({ body: { patient: ANA, message: null } });

describe('the patient at the bedside (issue 22)', () => {
  it('a capture is the bed’s patient where one is assigned, else the user’s selection', () => {
    const store = createAppStore();
    store.set(selectedPatientAtom, { id: 'p1', name: 'Ana' });
    expect(capturePatient(store, 'bed1')?.id).toBe('p1');
    store.set(bedsidePatientsAtom, { bed1: { id: 'p2', name: 'Bea' } });
    expect(capturePatient(store, 'bed1')?.id).toBe('p2');
    expect(capturePatient(store, 'plate1')?.id, 'a plate follows the selection').toBe('p1');
    store.set(bedsidePatientsAtom, { bed1: null });
    expect(capturePatient(store, 'bed1')?.id, 'a released bed falls back to the selection').toBe('p1');
  });

  it('shows the bed’s patient beside the clinician’s own selection and captures for the bed’s', async () => {
    stubHub({ [`GET ${SELECT_PATH}`]: anaSelected, [`GET ${PATIENTS_PATH}`]: () => ({ body: [ANA, BEA] }) });
    const { socket } = await renderWorkspace({ device: BED, capabilities: { captures: ['Static'], pdfReports: false }, beside: <BedsidePatientPanel device={BED} /> });
    expect(await screen.findByTestId('selected-patient-name')).toHaveTextContent('Ana García');
    const panel = screen.getByTestId('bedside-panel');
    expect(within(panel).getByTestId('bedside-patient-name')).toHaveTextContent('Bea Ruiz');
    await within(panel).findByText('180 cm');
    // The patient panel keeps the selection and says whose this device's captures are.
    expect(screen.getByTestId('bedside-capture-note')).toHaveTextContent('Captures on this device are recorded for Bea Ruiz, the patient assigned to it.');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    fireEvent.click(screen.getByTestId('capture-static'));
    fireEvent.click(screen.getByTestId('tutorial-start'));
    act(() => vi.advanceTimersByTime(50));
    expect(socket.startCapture).toHaveBeenCalledWith({ deviceId: 'pod1', analysisType: 'Static', seconds: undefined, patientId: 'p2' });
    vi.useRealTimers();
  });

  it('a bed with its patient and nobody selected: no red "No patient selected", but whose its captures are', async () => {
    stubHub({ [`GET ${SELECT_PATH}`]: () => ({ body: { patient: null, message: 'No patient is currently selected.' } }), [`GET ${PATIENTS_PATH}`]: () => ({ body: [ANA, BEA] }) });
    await renderWorkspace({ device: BED, beside: <BedsidePatientPanel device={BED} /> });
    expect(await screen.findByTestId('bedside-capture-note')).toHaveTextContent('recorded for Bea Ruiz');
    expect(screen.queryByTestId('no-patient')).toBeNull();
  });

  it('a plate, or a bed released, keeps the red notice: its captures follow the selection', async () => {
    stubHub({ [`GET ${SELECT_PATH}`]: () => ({ body: { patient: null, message: 'No patient is currently selected.' } }) });
    const free: UserDevice = { ...BED, currentPatient: null, currentPatientName: null };
    await renderWorkspace({ device: free, beside: <BedsidePatientPanel device={free} /> });
    expect(await screen.findByTestId('no-patient')).toHaveTextContent('No patient selected');
    expect(screen.queryByTestId('bedside-capture-note')).toBeNull();
  });

  it('assigns a patient to the bed and releases it through the hub', async () => {
    const free: UserDevice = { ...BED, currentPatient: null, currentPatientName: null };
    const calls = stubHub({
      [`GET ${SELECT_PATH}`]: anaSelected,
      [`GET ${PATIENTS_PATH}`]: () => ({ body: [ANA, BEA] }),
      'PUT /api/device/pod1/patient': (body) => {
        const id = (body as { patientId: string | null }).patientId;
        return { body: { deviceId: 'pod1', currentPatient: id, currentPatientName: id ? 'Bea Ruiz' : null } };
      },
    });
    await renderWorkspace({ device: free, beside: <BedsidePatientPanel device={free} /> });
    expect(await screen.findByTestId('bedside-free')).toHaveTextContent('No patient assigned');
    fireEvent.click(screen.getByTestId('bedside-assign'));
    const modal = await screen.findByTestId('patient-select');
    fireEvent.click(await within(modal).findByText('Bea Ruiz'));
    fireEvent.click(within(modal).getByTestId('patient-select-confirm'));
    expect(await screen.findByTestId('bedside-patient-name')).toHaveTextContent('Bea Ruiz');
    expect(calls.filter((c) => c.method === 'PUT' && c.path === '/api/device/pod1/patient').map((c) => c.body)).toEqual([{ patientId: 'p2' }]);
    expect(calls.some((c) => c.method === 'PUT' && c.path === SELECT_PATH)).toBe(false);
    expect(screen.getByTestId('selected-patient-name')).toHaveTextContent('Ana García');
    fireEvent.click(screen.getByTestId('bedside-release'));
    expect(await screen.findByTestId('bedside-free')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT' && c.path === '/api/device/pod1/patient').map((c) => c.body)).toEqual([{ patientId: 'p2' }, { patientId: null }]);
  });

  it('deletes a patient only after a confirmation, and only for administrators', async () => {
    const calls = stubHub({
      [`GET ${SELECT_PATH}`]: anaSelected,
      'DELETE /api/podometry/patient/p1': () => ({ body: { deleted: 'p1', analyses: 3 } }),
    });
    await renderWorkspace({ role: 1 });
    await screen.findByTestId('selected-patient');
    fireEvent.click(screen.getByTestId('patient-info-open'));
    fireEvent.click(await screen.findByTestId('patient-delete'));
    const confirm = await screen.findByTestId('patient-delete-confirm');
    expect(confirm).toHaveTextContent('cannot be undone');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(confirm).getByTestId('patient-delete-confirm-button'));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/podometry/patient/p1')).toBe(true));
    expect(await screen.findByText('Ana García deleted with 3 analyses', { selector: '.toast span' })).toBeInTheDocument();
    expect(await screen.findByTestId('no-patient')).toBeInTheDocument();
  });

  it('staff see no Delete button', async () => {
    stubHub({ [`GET ${SELECT_PATH}`]: anaSelected });
    await renderWorkspace({ role: 2 });
    await screen.findByTestId('selected-patient');
    fireEvent.click(screen.getByTestId('patient-info-open'));
    await screen.findByTestId('patient-info');
    expect(screen.queryByTestId('patient-delete')).toBeNull();
    expect(screen.getByTestId('patient-data-download')).toBeInTheDocument();
  });
});
