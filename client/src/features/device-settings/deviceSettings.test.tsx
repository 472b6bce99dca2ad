import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { english, signInAs } from '../../test/adminFixtures';
import { renderApp, stubFetch } from '../../test/renderApp';

const DEVICE = { _id: { $oid: 'a1' }, name: 'Bed A', room: '101', bed: 'B1', deviceType: 'Mattress Mat IoT', hardwareSerial: 'MM-1' };
const COMPANY = { _id: { $oid: 'c1' }, companyName: 'Acme Care', address: 'Main St 1', logo: '' };

function routes(put: () => { status?: number; body: unknown }) {
  return stubFetch({
    '/api/device/a1': put,
    '/api/userDevices': () => ({ body: [DEVICE] }),
    '/api/deviceConfCompany': () => ({ body: [{ deviceId: { $oid: 'a1' }, cardStatus: 'Correct', stateCode: 0, deviceFunctional: true }] }),
    '/api/companyUser': () => ({ body: [COMPANY] }),
  });
}

const input = (label: string) => screen.getByLabelText(new RegExp(`^${english(label)}`)) as HTMLInputElement;

describe('device settings page (spec §2, §5)', () => {
  it('names the location field by the device family and fills the fields from the device', async () => {
    signInAs(2);
    routes(() => ({ body: DEVICE }));
    await renderApp('/deviceSettings', { state: { device: DEVICE } });
    expect(english('locations.bed')).toBe('Bed');
    expect(input('deviceSettings.name')).toHaveValue('Bed A');
    expect(input('deviceSettings.room')).toHaveValue('101');
    expect(input('locations.bed')).toHaveValue('B1');
  });

  it('a chair’s location is its seat, a floor mat’s its floor', async () => {
    signInAs(2);
    routes(() => ({ body: DEVICE }));
    await renderApp('/deviceSettings', { state: { device: { ...DEVICE, deviceType: 'Seating Mat IoT' } } });
    expect(input('locations.seat')).toHaveValue('B1');
    expect(screen.queryByLabelText(/^Bed/)).toBeNull();
  });

  for (const field of ['deviceSettings.name', 'deviceSettings.room', 'locations.bed']) {
    it(`an empty ${field.split('.')[1]} toasts deviceParameters and sends nothing`, async () => {
      signInAs(2);
      const put = vi.fn(() => ({ body: DEVICE }));
      routes(put);
      await renderApp('/deviceSettings', { state: { device: DEVICE } });
      fireEvent.change(input(field), { target: { value: '  ' } });
      fireEvent.click(screen.getByRole('button', { name: english('deviceSettings.update') }));
      expect(await screen.findByText(english('deviceParameters'))).toBeInTheDocument();
      expect(put).not.toHaveBeenCalled();
      expect(screen.getByTestId('location')).toHaveTextContent('/deviceSettings');
    });
  }

  it('Update sends name, room and bed, toasts deviceInfoUpdated and returns to /devices where the card shows it', async () => {
    signInAs(2);
    const put = vi.fn((init?: RequestInit) => ({ body: { ...DEVICE, ...JSON.parse(init!.body as string) } }));
    const fetch = stubFetch({
      '/api/device/a1': put,
      '/api/userDevices': () => ({ body: [{ ...DEVICE, name: 'Bed Z' }] }),
      '/api/deviceConfCompany': () => ({ body: [] }),
      '/api/companyUser': () => ({ body: [COMPANY] }),
    });
    await renderApp('/roomSettings', { state: { device: { ...DEVICE, deviceType: 'Room Set' } } });
    expect(screen.getByRole('heading', { name: english('deviceSettings.roomTitle') })).toBeInTheDocument();
    fireEvent.change(input('deviceSettings.name'), { target: { value: ' Bed Z ' } });
    fireEvent.click(screen.getByRole('button', { name: english('deviceSettings.update') }));
    expect(await screen.findByText(english('deviceInfoUpdated'))).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/devices'));
    const call = fetch.mock.calls.find((c) => c[0] === '/api/device/a1');
    expect(call![1]!.method).toBe('PUT');
    expect(JSON.parse(call![1]!.body as string)).toEqual({ name: 'Bed Z', room: '101', bed: 'B1' });
    expect(await screen.findByText('Bed Z')).toBeInTheDocument();
  });

  it('a refused update toasts deviceInfoUpdateFail and stays', async () => {
    signInAs(2);
    routes(() => ({ status: 404, body: { error: 'notFound' } }));
    await renderApp('/deviceSettings', { state: { device: DEVICE } });
    fireEvent.click(screen.getByRole('button', { name: english('deviceSettings.update') }));
    expect(await screen.findByText(english('deviceInfoUpdateFail'))).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/deviceSettings');
  });

  it('without a device in navigation state it returns to /devices', async () => {
    signInAs(2);
    routes(() => ({ body: DEVICE }));
    await renderApp('/deviceSettings');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/devices'));
  });
});

describe("the card's edit and info modals (spec §2)", () => {
  async function grid(role: number, put = vi.fn((init?: RequestInit) => ({ body: { ...DEVICE, ...JSON.parse(init!.body as string) } }))) {
    signInAs(role);
    const fetch = routes(put);
    await renderApp('/devices');
    const card = await screen.findByTestId('device-card');
    return { card, fetch, put };
  }

  it('info shows company, address, name and device read-only, without opening the device', async () => {
    const { card } = await grid(2);
    fireEvent.click(within(card).getByTestId('device-info-button'));
    const dialog = await screen.findByTestId('device-info-modal');
    await within(dialog).findByText('Main St 1');
    for (const text of ['Acme Care', 'Bed A', 'B1', '101']) expect(within(dialog).getByText(text)).toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    expect(screen.getByTestId('location')).toHaveTextContent('/devices');
  });

  it('edit saves the device name, room and bed and the card shows the new name', async () => {
    const { card, put } = await grid(2);
    fireEvent.click(within(card).getByTestId('device-edit-button'));
    const dialog = await screen.findByTestId('device-edit-modal');
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'Bed Q' } });
    fireEvent.change(within(dialog).getByLabelText(/^Room/), { target: { value: '202' } });
    fireEvent.change(within(dialog).getByLabelText(/^Bed/), { target: { value: 'B2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: english('deviceSettings.update') }));
    expect(await screen.findByText(english('deviceInfoUpdated'))).toBeInTheDocument();
    expect(JSON.parse(put.mock.calls[0][0]!.body as string)).toEqual({ name: 'Bed Q', room: '202', bed: 'B2' });
    await waitFor(() => expect(screen.queryByTestId('device-edit-modal')).toBeNull());
    expect(within(screen.getByTestId('device-card')).getByText('Bed Q')).toBeInTheDocument();
  });

  it('edit with an empty name toasts deviceParameters and keeps the modal open', async () => {
    const { card, put } = await grid(2);
    fireEvent.click(within(card).getByTestId('device-edit-button'));
    const dialog = await screen.findByTestId('device-edit-modal');
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: english('deviceSettings.update') }));
    expect(await screen.findByText(english('deviceParameters'))).toBeInTheDocument();
    expect(put).not.toHaveBeenCalled();
    expect(screen.getByTestId('device-edit-modal')).toBeInTheDocument();
  });

  it('the edit dialog edits the device only: no company logo, name or address, even for an administrator', async () => {
    const { card, fetch } = await grid(1);
    fireEvent.click(within(card).getByTestId('device-edit-button'));
    const dialog = await screen.findByTestId('device-edit-modal');
    const labels = [...dialog.querySelectorAll('label')].map((l) => l.textContent?.replace('*', '').trim());
    expect(labels).toEqual(['Name', 'Room', 'Bed']);
    expect(within(dialog).queryByLabelText(english('branding.companyName'))).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: english('deviceSettings.update') }));
    await waitFor(() => expect(screen.queryByTestId('device-edit-modal')).toBeNull());
    expect(fetch.mock.calls.some((c) => c[0] === '/api/companyUser' && c[1]?.method === 'PUT')).toBe(false);
  });

  it('a device registered without a bed can be saved once its bed is filled in', async () => {
    signInAs(1);
    const bare = { ...DEVICE, room: '', bed: '' };
    const put = vi.fn((init?: RequestInit) => ({ body: { ...bare, ...JSON.parse(init!.body as string) } }));
    stubFetch({
      '/api/device/a1': put,
      '/api/userDevices': () => ({ body: [bare] }),
      '/api/deviceConfCompany': () => ({ body: [] }),
      '/api/companyUser': () => ({ body: [COMPANY] }),
    });
    await renderApp('/devices');
    const card = await screen.findByTestId('device-card');
    expect(within(card).getByTestId('card-location-label')).toHaveTextContent('Bed');
    fireEvent.click(within(card).getByTestId('device-edit-button'));
    const dialog = await screen.findByTestId('device-edit-modal');
    fireEvent.change(within(dialog).getByLabelText(/^Room/), { target: { value: '201' } });
    fireEvent.change(within(dialog).getByLabelText(/^Bed/), { target: { value: 'A' } });
    fireEvent.click(within(dialog).getByRole('button', { name: english('deviceSettings.update') }));
    expect(await screen.findByText(english('deviceInfoUpdated'))).toBeInTheDocument();
    expect(JSON.parse(put.mock.calls[0][0]!.body as string)).toEqual({ name: 'Bed A', room: '201', bed: 'A' });
  });
});
