import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Oid } from '../../lib/api';
import { applyDeviceConf } from '../../lib/devicesStore';
import { STATUS_COLORS } from '../../lib/status';
import { tableFromList, type DeviceTypeInfo } from '../../lib/deviceTypes';
import { DEVICE_TYPE_TABLE, fakeSocket, renderApp, stubFetch } from '../../test/renderApp';
import { columnsForWidth, GRID_BREAKPOINTS, GRID_CLASS } from './grid';
import { isVisibleDevice } from './visibility';

const oid = ($oid: string) => ({ $oid });
const device = (id: string, deviceType: string, extra: Record<string, unknown> = {}) => ({
  _id: oid(id),
  name: `DEV-${id}`,
  bed: `Bed ${id}`,
  room: '1',
  deviceType,
  hardwareSerial: `SN-${id}`,
  company: 'c1',
  numberOfSubdevices: 0,
  system: { devices: [] },
  ...extra,
});
const conf = (id: string, cardStatus: string, stateCode: number | null) => ({
  deviceId: oid(id),
  deviceFunctional: stateCode !== null,
  patientStatus: 'Correct',
  cardStatus,
  stateCode,
});

const DEVICES = [
  device('a1', 'Mattress Mat IoT'),
  device('a2', 'Seating Mat IoT'),
  device('a3', 'Podology IoT'),
  device('a4', 'Sensing Horse', { numberOfSubdevices: 2, system: { devices: ['s1', 's2'] } }),
  device('s1', 'Sensing Horse Subdevice', { parent: oid('a4') }),
  device('s2', 'Sensing Horse Subdevice'),
  device('r0', 'Room Set', { system: { devices: ['r1', 'r2'] } }),
  device('r1', 'Mattress Mat IoT', { parent: oid('r0') }),
  device('r2', 'Floor Mat', { parent: 'r0' }),
  device('a5', 'Floor Mat', { parent: null }),
  device('x1', 'Toaster'),
];
const CONFS = [
  conf('a1', 'Correct', 0),
  conf('a2', 'Missing', 1),
  conf('a3', 'Alarm', 2),
  conf('a4', 'Offline', null),
  conf('a5', 'Correct', 0),
];

async function renderDevices() {
  localStorage.setItem('user', 'T0K');
  localStorage.setItem('company', 'Acme Care');
  const fetch = stubFetch({
    '/api/userDevices': () => ({ body: DEVICES }),
    '/api/deviceConfCompany': () => ({ body: CONFS }),
  });
  const socket = fakeSocket();
  const r = await renderApp('/devices', { socket });
  await waitFor(() => expect(screen.getAllByTestId('device-card').length).toBeGreaterThan(0));
  await waitFor(() => expect(card('a1')).toHaveAttribute('data-status', 'Correct'));
  return { ...r, fetch, socket };
}

const card = (id: string) => document.querySelector(`[data-device-id="${id}"]`) as HTMLElement;

const TABLE = tableFromList(DEVICE_TYPE_TABLE as DeviceTypeInfo[]);

describe('device visibility', () => {
  it('hides the types the hub marks card-less (horse subdevices) and devices with a parent', () => {
    expect(isVisibleDevice({ deviceType: 'Sensing Horse Subdevice' }, TABLE)).toBe(false);
    expect(isVisibleDevice({ deviceType: 'Mattress Mat IoT', parent: oid('r0') }, TABLE)).toBe(false);
    expect(isVisibleDevice({ deviceType: 'Mattress Mat IoT', parent: 'r0' as unknown as Oid }, TABLE)).toBe(false);
    expect(isVisibleDevice({ deviceType: 'Mattress Mat IoT', parent: null }, TABLE)).toBe(true);
    expect(isVisibleDevice({ deviceType: 'Room Set' }, TABLE)).toBe(true);
  });

  it('the grid shows one card per top-level device, including room sets', async () => {
    await renderDevices();
    const ids = screen.getAllByTestId('device-card').map((c) => c.getAttribute('data-device-id'));
    expect(ids).toEqual(['a1', 'a2', 'a3', 'a4', 'r0', 'a5', 'x1']);
    expect(card('r0')).toHaveAttribute('data-device-type', 'Room Set');
  });
});

describe('device cards', () => {
  it('show company, bed label, ID and status with data attributes', async () => {
    await renderDevices();
    const c = card('a1');
    expect(c).toHaveAttribute('data-device-type', 'Mattress Mat IoT');
    expect(within(c).getByText('Acme Care')).toBeInTheDocument();
    expect(within(c).getByText('Bed a1')).toBeInTheDocument();
    expect(within(c).getByText('DEV-a1')).toBeInTheDocument();
    expect(within(c).getByText('Correct')).toBeInTheDocument();
  });

  it.each([
    ['a1', 'Correct'],
    ['a2', 'Missing'],
    ['a3', 'Alarm'],
    ['a4', 'Offline'],
  ] as const)('card %s shows %s in its colour', async (id, status) => {
    await renderDevices();
    const c = card(id);
    expect(c).toHaveAttribute('data-status', status);
    const badge = c.querySelector('.status-badge') as HTMLElement;
    expect(badge).toHaveAttribute('data-status', status);
    expect(badge.style.color).toBe(hexToRgb(STATUS_COLORS[status]));
    expect((c.querySelector('.status-dot') as HTMLElement).style.backgroundColor).toBe(hexToRgb(STATUS_COLORS[status]));
    expect(c.style.getPropertyValue('--status-color')).toBe(STATUS_COLORS[status]);
  });

  it('live deviceConf updates change the card status', async () => {
    const { store } = await renderDevices();
    act(() => {
      applyDeviceConf(store, { deviceId: 'a2', cardStatus: 'Correct', stateCode: 0, deviceFunctional: true });
    });
    expect(card('a2')).toHaveAttribute('data-status', 'Correct');
  });

  it('joins the company on the socket and polls deviceConfCompany every 7 s', async () => {
    localStorage.setItem('user', 'T0K');
    const fetch = stubFetch({
      '/api/userDevices': () => ({ body: DEVICES }),
      '/api/deviceConfCompany': () => ({ body: CONFS }),
    });
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const socket = fakeSocket();
    await renderApp('/devices', { socket });
    await waitFor(() => expect(screen.getAllByTestId('device-card').length).toBe(7));
    expect(socket.joinCompany).toHaveBeenCalled();
    const confCalls = () => fetch.mock.calls.filter((c) => c[0] === '/api/deviceConfCompany').length;
    await waitFor(() => expect(confCalls()).toBe(1));
    await act(async () => {
      vi.advanceTimersByTime(6999);
    });
    expect(confCalls()).toBe(1);
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(confCalls()).toBe(2);
    await act(async () => {
      vi.advanceTimersByTime(7000);
    });
    expect(confCalls()).toBe(3);
  });
});

describe('card navigation', () => {
  it('opens the device type route with the device in navigation state', async () => {
    await renderDevices();
    fireEvent.click(card('a1'));
    expect(screen.getByTestId('location')).toHaveTextContent('/mattressMatIoT');
    expect(await screen.findByTestId('device-name')).toHaveTextContent('DEV-a1');
  });

  it('Seating Mat IoT opens /SeatingMatIoT and Podology IoT opens /PodiatryIoT', async () => {
    await renderDevices();
    fireEvent.click(card('a2'));
    expect(screen.getByTestId('location')).toHaveTextContent('/SeatingMatIoT');
    fireEvent.click(screen.getByRole('button', { name: /Back/ }));
    await waitFor(() => expect(card('a3')).toBeTruthy());
    fireEvent.click(card('a3'));
    expect(screen.getByTestId('location')).toHaveTextContent('/PodiatryIoT');
  });

  it('an unknown device type logs "invalid device type" and opens nothing', async () => {
    await renderDevices();
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    fireEvent.click(card('x1'));
    expect(err).toHaveBeenCalledWith('invalid device type', 'Toaster');
    expect(screen.getByTestId('location')).toHaveTextContent('/devices');
  });

  it('a room set card opens /ForceMat with the set in navigation state, showing the room-set page', async () => {
    await renderDevices();
    fireEvent.click(card('r0'));
    expect(screen.getByTestId('location')).toHaveTextContent('/ForceMat');
    expect(await screen.findByTestId('device-page')).toHaveAttribute('data-page-family', 'roomSet');
  });

  it('cards are keyboard-operable (Enter opens)', async () => {
    await renderDevices();
    expect(card('a1')).toHaveAttribute('role', 'button');
    expect(card('a1')).toHaveAttribute('tabindex', '0');
    fireEvent.keyDown(card('a1'), { key: 'Enter' });
    expect(screen.getByTestId('location')).toHaveTextContent('/mattressMatIoT');
  });
});

describe('alarms on the cards (spec §4)', () => {
  it('while an alarm waits the card turns orange and shows Attend; attending succeeds and the card turns back', async () => {
    const { store, fetch } = await renderDevices();
    expect(within(card('a1')).queryByTestId('attend')).toBeNull();
    act(() => {
      applyDeviceConf(store, { deviceId: 'a1', cardStatus: 'Correct', unattendedAlarm: true });
    });
    expect(card('a1')).toHaveAttribute('data-alarm', 'true');
    expect(card('a1').style.getPropertyValue('--status-color')).toBe(STATUS_COLORS.Alarm);
    fetch.mockImplementationOnce(async () => new Response(JSON.stringify({ attended: 1 }), { status: 200 }));
    fireEvent.click(within(card('a1')).getByTestId('attend'));
    expect(screen.getByTestId('location')).toHaveTextContent('/devices');
    expect(await screen.findByText('Mattress Mat IoT: alarm attended.')).toBeInTheDocument();
    const put = fetch.mock.calls.find((c) => c[1]?.method === 'PUT');
    expect(put?.[0]).toBe('/api/iotAlarms/a1');
    act(() => {
      applyDeviceConf(store, { deviceId: 'a1', cardStatus: 'Correct', unattendedAlarm: false });
    });
    expect(card('a1')).toHaveAttribute('data-alarm', 'false');
    expect(within(card('a1')).queryByTestId('attend')).toBeNull();
  });

  it('a failed attend shows failedToBeAttended and the card stays orange', async () => {
    const { store, fetch } = await renderDevices();
    act(() => {
      applyDeviceConf(store, { deviceId: 'a1', cardStatus: 'Alarm', unattendedAlarm: true });
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fetch.mockImplementationOnce(async () => new Response(JSON.stringify({ error: 'failedToBeAttended' }), { status: 500 }));
    fireEvent.click(within(card('a1')).getByTestId('attend'));
    expect(await screen.findByText('The alarm could not be attended.')).toBeInTheDocument();
    expect(card('a1')).toHaveAttribute('data-alarm', 'true');
  });

  it('shows the repositioning tier on cards of types with the clock only', async () => {
    const { store } = await renderDevices();
    act(() => {
      applyDeviceConf(store, { deviceId: 'a1', cardStatus: 'Correct', repositioning: 'dueSoon' });
    });
    expect(within(card('a1')).getByTestId('card-repositioning')).toHaveTextContent('Turn due soon');
    expect(card('a1')).toHaveAttribute('data-repositioning', 'dueSoon');
    expect(within(card('a3')).queryByTestId('card-repositioning')).toBeNull();
  });
});

describe('grid columns (spec §2)', () => {
  it.each([
    [375, 1],
    [767, 1],
    [768, 3],
    [1023, 3],
    [1024, 4],
    [1279, 4],
    [1280, 5],
    [1535, 5],
    [1536, 6],
    [1920, 6],
  ])('%i px → %i columns', (w, cols) => {
    expect(columnsForWidth(w)).toBe(cols);
  });

  it('devices.css implements the same breakpoints', () => {
    const css = readFileSync(resolve(__dirname, 'devices.css'), 'utf8');
    const base = new RegExp(`^\\.${GRID_CLASS}\\s*\\{[^}]*grid-template-columns:\\s*repeat\\((\\d+)`, 'm').exec(css);
    expect(base?.[1]).toBe('1');
    const media = [
      ...css.matchAll(
        new RegExp(`@media \\(min-width: (\\d+)px\\) \\{\\s*\\.${GRID_CLASS}\\s*\\{\\s*grid-template-columns:\\s*repeat\\((\\d+)`, 'g'),
      ),
    ].map((m) => ({ minWidth: Number(m[1]), columns: Number(m[2]) }));
    expect([{ minWidth: 0, columns: Number(base?.[1]) }, ...media]).toEqual(GRID_BREAKPOINTS);
    expect(GRID_BREAKPOINTS.map((b) => [b.minWidth, b.columns])).toEqual([
      [0, 1],
      [768, 3],
      [1024, 4],
      [1280, 5],
      [1536, 6],
    ]);
  });

  it('the grid element carries the grid class', async () => {
    await renderDevices();
    expect(screen.getByTestId('device-grid')).toHaveClass(GRID_CLASS);
  });
});

function hexToRgb(hex: string) {
  const n = (i: number) => parseInt(hex.slice(i, i + 2), 16);
  return `rgb(${n(1)}, ${n(3)}, ${n(5)})`;
}
