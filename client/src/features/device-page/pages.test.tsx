// Component tests of every page family, chosen through the hub's device-type table.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { applyDeviceConf } from '../../lib/devicesStore';
import { fakeSocket, renderApp, stubFetch } from '../../test/renderApp';
import { checkInterval } from './repositioning';
import DEVICE_TYPE_TABLE from '../../test/fixtures/deviceTypes.json';

const oid = ($oid: string) => ({ $oid });
const clock = { minutes: 120, tier: 'ok', dueInSeconds: null, minMinutes: 15, maxMinutes: 1440 };

function signIn(extra: Record<string, (init?: RequestInit) => { status?: number; body: unknown }> = {}) {
  localStorage.setItem('user', 'T0K');
  return stubFetch({
    '/api/userDevices': () => ({ body: [] }),
    '/api/deviceConfCompany': () => ({ body: [] }),
    ...extra,
  });
}

const mapFrame = (deviceId: string, rows: number, cols: number, fill: (r: number, c: number) => number, seq = 1, presence = 'PRESENCE') => {
  const cells = new Uint8Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) cells[r * cols + c] = fill(r, c);
  return { deviceId, seq, deviceTimeMs: seq, hubTimeMs: 1_700_000_000_000 + seq * 100, rows, cols, bytesPerCell: 1, cells, presence, blank: false };
};

const forceFrame = (deviceId: string, values: number[], seq = 1, presence = 'PRESENCE') => {
  const cells = new Uint8Array(values.length * 2);
  values.forEach((v, i) => {
    cells[i * 2] = v & 0xff;
    cells[i * 2 + 1] = v >> 8;
  });
  return { deviceId, seq, deviceTimeMs: seq, hubTimeMs: 1_700_000_000_000 + seq * 500, rows: 1, cols: values.length, bytesPerCell: 2, cells, presence, blank: false };
};

describe('page registry', () => {
  it('an unknown device type on a device route is logged as invalid and nothing opens', async () => {
    signIn();
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    await renderApp('/mattressMatIoT', { state: { device: { _id: oid('x'), name: 'X', deviceType: 'Toaster' } } });
    expect(err).toHaveBeenCalledWith('invalid device type', 'Toaster');
    expect(screen.queryByTestId('device-page')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/devices'));
  });

  it('a path the table does not list goes to /', async () => {
    signIn();
    await renderApp('/mattressmatiot');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/devices'));
  });
});

describe('room set page', () => {
  const ROOM = { _id: oid('r0'), name: 'Room 105', deviceType: 'Room Set', system: { devices: ['rb', 'rs', 'rf'] } };
  const alarms = [
    { _id: oid('a2'), deviceId: 'rb', kind: 'Missing', creationDate: 1_700_000_000, hasBeenAttended: false, attendedTime: null, timeToAttend: null, managerStatuses: [] },
    { _id: oid('a1'), deviceId: 'rs', kind: 'Missing', creationDate: 1_699_900_000, hasBeenAttended: true, attendedTime: 1_699_903_725, timeToAttend: 3725, managerStatuses: [] },
  ];

  it('shows three sensors with live presence, the alarm history with time to attend, and three recordings tables', async () => {
    const fetch = signIn({
      '/api/iotAlarms/r0': (init) => (init?.method === 'PUT' ? { body: { attended: 1 } } : { body: alarms }),
      '/api/presenceLogs/rb': () => ({ body: [{ deviceId: 'rb', creationDate: 1_700_000_100, logId: '1' }] }),
      '/api/presenceLogs/rs': () => ({ body: [] }),
      '/api/presenceLogs/rf': () => ({ body: [] }),
    });
    const socket = fakeSocket();
    const { liveMaps, store } = await renderApp('/ForceMat', { state: { device: ROOM }, socket });
    expect(screen.getByTestId('device-page')).toHaveAttribute('data-page-family', 'roomSet');
    // Live maps of the three sensors, not of the parent.
    expect(vi.mocked(socket.joinUser).mock.calls.map((c) => c[0]).sort()).toEqual(['rb', 'rf', 'rs']);
    act(() => {
      liveMaps.write(forceFrame('rb', [100, 80, 30, 10], 1, 'PRESENCE'));
      liveMaps.write(forceFrame('rs', [0, 0, 0, 0], 1, 'ABSENCE'));
    });
    await waitFor(() => expect(screen.getByTestId('room-bed')).toHaveAttribute('data-presence', 'PRESENCE'));
    expect(screen.getByTestId('room-seat')).toHaveAttribute('data-presence', 'ABSENCE');
    await waitFor(() => expect(within(screen.getByTestId('room-bed')).getByTestId('room-reading')).toHaveTextContent('220'));
    const rows = await screen.findAllByTestId('alarm-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[1]).getByTestId('time-to-attend')).toHaveTextContent('1 hr 2 mins 5 secs');
    expect(within(screen.getByTestId('recordings-bed')).getByText('Entrance')).toBeInTheDocument();
    // An empty log says so with the catalogue's device-log text (spec §8).
    expect(within(screen.getByTestId('recordings-seat')).getByText('This device has no log entries yet.')).toBeInTheDocument();
    expect(screen.getByTestId('recordings-floor')).toBeInTheDocument();
    // An empty sensor is not an alarm (the Force Mat card rule is for a Force Mat's own card):
    // only a pending alarm makes a sensor's badge Alarm.
    act(() => {
      applyDeviceConf(store, { deviceId: 'rs', deviceFunctional: true, stateCode: 0, cardStatus: 'Alarm', unattendedAlarm: false });
    });
    expect(within(screen.getByTestId('room-seat')).getByText('Correct').closest('[data-status]')).toHaveAttribute('data-status', 'Correct');
    // A sensor with a pending alarm gets its Attend button; the page's Attend attends the set.
    act(() => {
      applyDeviceConf(store, { deviceId: 'rb', deviceFunctional: true, cardStatus: 'Alarm', unattendedAlarm: true });
    });
    expect(screen.getByTestId('room-bed')).toHaveAttribute('data-alarm', 'true');
    expect(within(screen.getByTestId('room-bed')).getByText('Alarm').closest('[data-status]')).toHaveAttribute('data-status', 'Alarm');
    fireEvent.click(screen.getByTestId('page-attend'));
    await waitFor(() => expect(fetch.mock.calls.some((c) => c[0] === '/api/iotAlarms/r0' && c[1]?.method === 'PUT')).toBe(true));
    expect(await screen.findByText('Room set: alarm attended.')).toBeInTheDocument();
  });
});

describe('force page', () => {
  it('shows the four channels (0–4095) and their sum from live frames, a chart and the log', async () => {
    signIn({ '/api/presenceLogs/f1': () => ({ body: [] }) });
    const { liveMaps } = await renderApp('/ForceMat', { state: { device: { _id: oid('f1'), name: 'Plate', deviceType: 'Force Mat' } } });
    expect(screen.getByTestId('device-page')).toHaveAttribute('data-page-family', 'force');
    act(() => {
      liveMaps.write(forceFrame('f1', [4095, 1000, 0, 300], 1));
    });
    await waitFor(() => expect(screen.getByTestId('force-total')).toHaveAttribute('data-value', '5395'));
    expect(screen.getAllByTestId('force-channel').map((t) => t.getAttribute('data-value'))).toEqual(['4095', '1000', '0', '300']);
    act(() => {
      liveMaps.write(forceFrame('f1', [10, 10, 10, 10], 2));
    });
    await waitFor(() => expect(screen.getByTestId('force-chart')).toHaveAttribute('data-points', '2'));
    expect(screen.getByTestId('presence-log')).toBeInTheDocument();
    expect(screen.queryByTestId('heatmap')).toBeNull();
    // Its details name its channels, not a "map size" of 1 × 4.
    expect(screen.getByTestId('channel-count')).toHaveTextContent('4');
    expect(screen.queryByTestId('map-size')).toBeNull();
  });
});

describe('horse page', () => {
  it('shows the left and right maps of its two sub-devices, each with its status colour', async () => {
    signIn();
    const socket = fakeSocket();
    const horse = { _id: oid('h0'), name: 'Saddle', deviceType: 'Sensing Horse', system: { devices: ['hl', 'hr'] } };
    const { store } = await renderApp('/SensingHorse', { state: { device: horse }, socket });
    expect(vi.mocked(socket.joinUser).mock.calls.map((c) => c[0])).toEqual(['hl', 'hr']);
    expect(socket.joinUser).not.toHaveBeenCalledWith('h0');
    expect(within(screen.getByTestId('horse-left')).getByTestId('heatmap')).toBeInTheDocument();
    expect(within(screen.getByTestId('horse-right')).getByTestId('heatmap')).toBeInTheDocument();
    act(() => {
      applyDeviceConf(store, {
        deviceId: 'h0',
        cardStatus: 'Alarm',
        sides: [
          { side: 'left', stateCode: 0, cardStatus: 'Correct' },
          { side: 'right', stateCode: 1, cardStatus: 'Missing' },
        ],
      });
    });
    expect(screen.getByTestId('horse-left')).toHaveAttribute('data-status', 'Correct');
    expect(screen.getByTestId('horse-right')).toHaveAttribute('data-status', 'Missing');
  });
});

describe('horse page: contact surface and plot panel', () => {
  it('shows each side\'s contact surface in cm² (2.5 cm points) and plots both sides on one time axis', async () => {
    signIn();
    const horse = { _id: oid('h0'), name: 'Saddle', deviceType: 'Sensing Horse', system: { devices: ['hl', 'hr'] } };
    const { liveMaps } = await renderApp('/SensingHorse', { state: { device: horse } });
    act(() => {
      liveMaps.write(mapFrame('hl', 24, 24, (r, c) => (r === 5 && c < 4 ? 60 : 0)));
      liveMaps.write(mapFrame('hr', 24, 24, (r, c) => (r === 5 && c < 8 ? 60 : 0)));
    });
    const left = within(screen.getByTestId('horse-left')).getByTestId('contact-surface');
    const right = within(screen.getByTestId('horse-right')).getByTestId('contact-surface');
    await waitFor(() => expect(left).toHaveAttribute('data-value', '25'));
    expect(left).toHaveTextContent('25 cm²');
    await waitFor(() => expect(right).toHaveAttribute('data-value', '50'));
    expect(within(screen.getByTestId('plot-panel')).getByTestId('surface-chart')).toBeInTheDocument();
    await waitFor(() => expect(Number(screen.getByTestId('surface-chart').getAttribute('data-points'))).toBeGreaterThan(0), { timeout: 2000 });
    expect(screen.getByTestId('surface-chart').textContent).toMatch(/Left 25\s?cm², Right 50\s?cm²/);
  });
});

describe('rehab page', () => {
  it('plots the live centre of pressure over rings 11, 18 and 25', async () => {
    signIn({ '/api/iotLogs/rh': () => ({ body: [] }) });
    const { liveMaps } = await renderApp('/RehabMat', { state: { device: { _id: oid('rh'), name: 'Rehab', deviceType: 'Rehab Mat' } } });
    expect(screen.getAllByTestId('cop-ring').map((r) => r.getAttribute('data-radius'))).toEqual(['11', '18', '25']);
    // One loaded cell 10 columns right of the centre of a 48 × 48 map.
    act(() => {
      liveMaps.write(mapFrame('rh', 48, 48, (r, c) => (r === 24 && c === 34 ? 200 : 0), 1));
      liveMaps.write(mapFrame('rh', 48, 48, (r, c) => (r === 24 && c === 24 ? 200 : 0), 2));
    });
    await waitFor(() => expect(screen.getByTestId('cop-plot')).toHaveAttribute('data-points', '2'));
    const point = screen.getByTestId('cop-point');
    expect(Number(point.getAttribute('cx'))).toBeCloseTo(0.5);
    expect(Number(point.getAttribute('cy'))).toBeCloseTo(0.5);
  });
});

describe('seating pages', () => {
  it('Seating Mat IoT shows the contact surface in cm² (active cells × 2 cm × 2 cm) and its plots', async () => {
    signIn({ '/api/iotLogs/s1': () => ({ body: [] }), '/api/iotAlarms/s1': () => ({ body: [] }), '/api/device/s1/repositioning': () => ({ body: clock }) });
    const { liveMaps } = await renderApp('/SeatingMatIoT', { state: { device: { _id: oid('s1'), name: 'Chair', deviceType: 'Seating Mat IoT' } } });
    expect(screen.getByTestId('device-page')).toHaveAttribute('data-page-family', 'seating');
    // The hub's table says a seat's cell is active from 2 steps (2 mmHg): 10 cells at 2 count,
    // the row at 1 step (quantisation noise) does not.
    const seat = (DEVICE_TYPE_TABLE as Array<{ name: string; activeFloorSteps: number | null }>).find((t) => t.name === 'Seating Mat IoT');
    expect(seat?.activeFloorSteps).toBe(2);
    act(() => {
      liveMaps.write(mapFrame('s1', 16, 16, (r, c) => (r === 0 && c < 10 ? 2 : r === 1 ? 1 : 0)));
    });
    await waitFor(() => expect(screen.getByTestId('contact-surface')).toHaveAttribute('data-value', '40'));
    expect(screen.getByTestId('contact-surface')).toHaveTextContent('40 cm²');
    expect(screen.getByTestId('plot-panel')).toBeInTheDocument();
  });

  it('counts the active cells from the floor the hub serves, not a floor of its own', async () => {
    // The same map under a table whose seat is active from 4 steps: only the 4 cells at 4 count.
    const table = (DEVICE_TYPE_TABLE as Array<Record<string, unknown>>).map((t) => (t.name === 'Seating Mat IoT' ? { ...t, activeFloorSteps: 4 } : t));
    signIn({
      '/api/deviceTypes': () => ({ body: table }),
      '/api/iotLogs/s1': () => ({ body: [] }),
      '/api/iotAlarms/s1': () => ({ body: [] }),
      '/api/device/s1/repositioning': () => ({ body: clock }),
    });
    const { liveMaps } = await renderApp('/SeatingMatIoT', { state: { device: { _id: oid('s1'), name: 'Chair', deviceType: 'Seating Mat IoT' } } });
    act(() => {
      liveMaps.write(mapFrame('s1', 16, 16, (r, c) => (r === 0 && c < 4 ? 4 : r === 0 ? 3 : r === 1 ? 2 : 0)));
    });
    await waitFor(() => expect(screen.getByTestId('contact-surface')).toHaveAttribute('data-value', '16'));
    expect(screen.getByTestId('contact-surface')).toHaveTextContent('16 cm²');
  });

  it('the seated-position page labels the current position', async () => {
    signIn({
      '/api/iotLogs/p1': () => ({ body: [] }),
      '/api/iotAlarms/p1': () => ({
        body: [{ _id: oid('x1'), deviceId: 'p1', kind: 'Missing', creationDate: 1_700_000_000, hasBeenAttended: false, attendedTime: null, timeToAttend: null, managerStatuses: [] }],
      }),
    });
    const { liveMaps } = await renderApp('/seatingMat', { state: { device: { _id: oid('p1'), name: 'Chair 106', deviceType: 'Seating Mat' } } });
    expect(screen.getByTestId('device-page')).toHaveAttribute('data-page-family', 'seatedPosition');
    // A seat watches its patient: its Missing alarms are listed on its page.
    expect(await screen.findAllByTestId('alarm-row')).toHaveLength(1);
    act(() => {
      liveMaps.write(mapFrame('p1', 16, 16, () => 90, 1, 'PRESENCE'));
    });
    expect(screen.getByTestId('position-label')).toHaveTextContent('Seated');
    act(() => {
      liveMaps.write(mapFrame('p1', 16, 16, () => 0, 2, 'ABSENCE'));
    });
    expect(screen.getByTestId('position-label')).toHaveTextContent('No one seated');
  });
});

describe('generic mat page and its device log table', () => {
  const entry = (seconds: number, position: string, maxPressure = 120, certain = false) => ({
    creationDate: [new Date(seconds * 1000).toISOString(), seconds],
    pressureMap: [
      [0, 10],
      [20, 30],
    ],
    posture: { id: '0', confidence: certain ? 0.95 : 0.8, certain },
    position,
    maxPressure,
  });

  it('lists Date, Max Pressure, Position, Confidence and a preview; sorts by date; pages by 10; exports', async () => {
    const logs = Array.from({ length: 12 }, (_, i) => entry(1_700_000_000 + i * 60, i === 11 ? '' : 'Supine', i === 11 ? 0 : 120, i === 9));
    logs.push(entry(1_700_000_000 + 20 * 60, '', 80));
    signIn({
      '/api/iotLogs/m1': () => ({ body: logs }),
      '/api/iotAlarms/m1': () => ({ body: [] }),
      '/api/device/m1/repositioning': () => ({ body: clock }),
    });
    await renderApp('/mattressMatIoT', { state: { device: { _id: oid('m1'), name: 'Bed 1', deviceType: 'Mattress Mat IoT' } } });
    const table = await screen.findByTestId('device-log');
    await waitFor(() => expect(within(table).getAllByTestId('log-row')).toHaveLength(10));
    // Newest first: the entry without a prediction but with pressure shows PRESENCE.
    expect(within(table).getAllByTestId('log-position')[0]).toHaveTextContent('PRESENCE');
    expect(within(table).getAllByTestId('log-position')[1]).toHaveTextContent('MISSING');
    // A posture below the hub's threshold is marked uncertain; a certain one is not.
    expect(within(table).getAllByTestId('log-position')[2]).toHaveTextContent(/^Supine · uncertain$/);
    expect(within(table).getAllByTestId('log-position')[3]).toHaveTextContent(/^Supine$/);
    expect(within(table).getAllByTestId('log-row')[2]).toHaveTextContent('80 %');
    // Max Pressure in mmHg (issue 22): 120 steps of a bed mat's 0.4 mmHg.
    await waitFor(() => expect(within(table).getAllByTestId('log-max-pressure')[2]).toHaveTextContent(/^48\.0\smmHg$/));
    expect(within(table).getByTestId('log-pressure-basis')).toHaveTextContent("Pressure scale: Sensor's documented scale");
    expect(within(table).getAllByTestId('map-preview')[0]).toHaveAttribute('data-size', '2x2');
    expect(within(table).getByTestId('pager-status')).toHaveTextContent('Page 1 of 2');
    fireEvent.click(within(table).getByRole('button', { name: 'Next' }));
    expect(within(table).getAllByTestId('log-row')).toHaveLength(3);
    fireEvent.click(within(table).getByTestId('sort-date'));
    expect(within(table).getAllByTestId('log-row')).toHaveLength(3);
    fireEvent.click(within(table).getByRole('button', { name: 'Previous' }));
    expect(within(table).getAllByTestId('log-position')[0]).toHaveTextContent('Supine');
    const created = vi.fn(() => 'blob:x');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    fireEvent.click(within(table).getByTestId('log-export'));
    expect(click).toHaveBeenCalled();
    expect(created).toHaveBeenCalled();
  }, 15_000);

  it('a maximum at the sensor\'s full scale reads "≥": the cell saturated', async () => {
    signIn({
      '/api/iotLogs/m2': () => ({ body: [entry(1_700_000_100, 'Supine', 255, true), entry(1_700_000_000, 'Supine', 254, true)] }),
      '/api/iotAlarms/m2': () => ({ body: [] }),
      '/api/device/m2/repositioning': () => ({ body: clock }),
    });
    await renderApp('/mattressMatIoT', { state: { device: { _id: oid('m2'), name: 'Bed 2', deviceType: 'Mattress Mat IoT' } } });
    const table = await screen.findByTestId('device-log');
    // A bed mat's byte tops out at 255 steps of 0.4 mmHg (the hub's `fullScaleSteps`).
    await waitFor(() => expect(within(table).getAllByTestId('log-max-pressure').map((c) => c.textContent)).toEqual(['≥\u00a0102.0\u00a0mmHg', '101.6\u00a0mmHg']));
  });

  it('the Sleep Mat shows Supine / No Supine', async () => {
    signIn({
      '/api/iotLogs/z1': () => ({ body: [entry(1_700_000_100, 'No Supine', 120, true), entry(1_700_000_000, 'Supine', 120, true)] }),
      '/api/iotAlarms/z1': () => ({ body: [] }),
      '/api/device/z1/repositioning': () => ({ body: clock }),
    });
    await renderApp('/sleepMat', { state: { device: { _id: oid('z1'), name: 'Sleep', deviceType: 'Sleep Mat' } } });
    await waitFor(() => expect(screen.getAllByTestId('log-position').map((p) => p.textContent)).toEqual(['No Supine', 'Supine']));
  });

  it('the podology IoT page opens /Podology with the device in navigation state', async () => {
    signIn({ '/api/iotLogs/pi': () => ({ body: [] }) });
    const device = { _id: oid('pi'), name: 'Plate', deviceType: 'Podology IoT' };
    await renderApp('/PodiatryIoT', { state: { device } });
    fireEvent.click(screen.getByTestId('analysis-button'));
    expect(screen.getByTestId('location')).toHaveTextContent('/Podology');
    expect(await screen.findByTestId('device-name')).toHaveTextContent('Plate');
    expect(screen.getByText('Podology analysis')).toBeInTheDocument();
  });
});

describe('repositioning interval (15–1440 min)', () => {
  it.each([
    ['14', false],
    ['15', true],
    ['1440', true],
    ['1441', false],
    ['0', false],
    ['-20', false],
    ['20.5', false],
    ['', false],
    ['abc', false],
  ])('%s minutes valid: %s', (input, ok) => {
    expect(checkInterval(input, 15, 1440).ok).toBe(ok);
  });

  it('refuses 14 on the page without calling the hub, saves 15, and shows the time until the next turn', async () => {
    const puts: unknown[] = [];
    signIn({
      '/api/iotLogs/m1': () => ({ body: [] }),
      '/api/iotAlarms/m1': () => ({ body: [] }),
      '/api/device/m1/repositioning': (init) => {
        if (init?.method === 'PUT') {
          puts.push(JSON.parse(String(init.body)));
          return { body: { minutes: 15 } };
        }
        return { body: { ...clock, tier: 'dueSoon', dueInSeconds: 3725 } };
      },
    });
    await renderApp('/mattressMatIoT', { state: { device: { _id: oid('m1'), name: 'Bed 1', deviceType: 'Mattress Mat IoT' } } });
    const panel = screen.getByTestId('repositioning');
    await waitFor(() => expect(within(panel).getByTestId('repositioning-due')).toHaveTextContent(/Next turn due in 1 hr 2 mins [45] secs/));
    const input = within(panel).getByLabelText("Patient's repositioning interval");
    fireEvent.change(input, { target: { value: '14' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent('from 15 to 1440');
    expect(puts).toEqual([]);
    fireEvent.change(input, { target: { value: '15' } });
    expect(within(panel).queryByRole('alert')).toBeNull();
    fireEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toEqual([{ minutes: 15 }]));
    expect(await screen.findByText('Repositioning interval set to 15 min.')).toBeInTheDocument();
  });
});
