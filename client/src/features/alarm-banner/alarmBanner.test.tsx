import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyDeviceConf } from '../../lib/devicesStore';
import { fakeSocket, renderApp, stubFetch } from '../../test/renderApp';
import { toneMutedAtom, tonePriorityAtom } from './AlarmBanner';

const oid = ($oid: string) => ({ $oid });
const DEVICES = [
  { _id: oid('m1'), name: 'BED-101-A', bed: '101-A', room: '12', deviceType: 'Mattress Mat IoT', hardwareSerial: 'SN-1', company: 'c1', numberOfSubdevices: 0, system: { devices: [] } },
  { _id: oid('m2'), name: 'BED-102', bed: '102', room: '14', deviceType: 'Mattress Mat IoT', hardwareSerial: 'SN-2', company: 'c1', numberOfSubdevices: 0, system: { devices: [] } },
];

type Listener = (env: { event: string; data?: unknown }) => void;
function emittingSocket() {
  const listeners = new Set<Listener>();
  const socket = fakeSocket();
  socket.onEvent = vi.fn((l: Listener) => {
    listeners.add(l);
    return () => listeners.delete(l);
  });
  const emit = (event: string, data: unknown) => act(() => listeners.forEach((l) => l({ event, data })));
  return { socket, emit };
}

async function setup(confs: unknown[] = [], alarms: Record<string, unknown[]> = {}) {
  localStorage.setItem('user', 'T0K');
  const routes: Record<string, () => { body: unknown }> = {
    '/api/userDevices': () => ({ body: DEVICES }),
    '/api/deviceConfCompany': () => ({ body: confs }),
  };
  for (const [id, list] of Object.entries(alarms)) routes[`/api/iotAlarms/${id}`] = () => ({ body: list });
  const fetch = stubFetch(routes);
  const { socket, emit } = emittingSocket();
  const r = await renderApp('/adminPanel', { socket });
  return { ...r, fetch, emit };
}

afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

const rows = () => screen.queryAllByTestId('alarm-banner-row');

describe('the alarm banner', () => {
  it('shows an alarm on any screen with kind, bed, room and age until it is attended', async () => {
    const raisedAtMs = Date.now() - 65_000;
    const { emit } = await setup();
    expect(screen.queryByTestId('alarm-banner')).toBeNull();
    emit('alarmOn', { deviceId: 'm1', name: 'BED-101-A', alarmId: 4, kind: 'Missing', raisedAtMs });
    const row = await screen.findByTestId('alarm-banner-row');
    expect(row).toHaveAttribute('data-kind', 'Missing');
    await waitFor(() => expect(within(row).getByText('Bed 101-A')).toBeInTheDocument());
    expect(within(row).getByText('Room 12')).toBeInTheDocument();
    expect(within(row).getByText('Patient missing')).toBeInTheDocument();
    expect(within(row).getByTestId('alarm-age').textContent).toMatch(/^waiting 1 min [5-9] secs?$/);
    // Unlike the once-only toast (2.5 s, lib/socket.test.ts), the banner stays.
    await new Promise((r) => setTimeout(r, 2_700));
    expect(rows()).toHaveLength(1);
    // A repeated event does not double it; another device's alarm adds a row.
    emit('alarmOn', { deviceId: 'm1', name: 'BED-101-A', alarmId: 4, kind: 'Missing', raisedAtMs });
    emit('alarmOn', { deviceId: 'm2', name: 'BED-102', alarmId: 1, kind: 'Ulcer Risk', raisedAtMs: Date.now() });
    expect(rows()).toHaveLength(2);
    emit('alarmAttended', { deviceId: 'm1', alarmId: 4, attendedAtMs: Date.now(), timeToAttendMs: 70_000 });
    expect(rows().map((r) => r.getAttribute('data-device-id'))).toEqual(['m2']);
    // A status saying nothing waits any more clears the device's rows too (attended elsewhere).
    emit('deviceConf', { deviceId: 'm2', unattendedAlarm: false });
    expect(screen.queryByTestId('alarm-banner')).toBeNull();
  }, 10_000);

  it('an Ulcer Risk alarm says why: the region, how long, and the relief the rule asks for', async () => {
    const { emit } = await setup();
    const reason = { region: 'pelvis', loadedSeconds: 7_260, offloadSeconds: 900, intervalSeconds: 7_200 };
    emit('alarmOn', { deviceId: 'm2', name: 'BED-102', alarmId: 3, kind: 'Ulcer Risk', raisedAtMs: Date.now(), reason });
    const row = await screen.findByTestId('alarm-banner-row');
    const text = within(row).getByTestId('alarm-reason');
    expect(text).toHaveAttribute('data-region', 'pelvis');
    expect(text).toHaveTextContent('Sacrum and hips loaded for 2 hrs 1 min without 15 mins off the mattress (interval 2 hrs)');
    // A Missing alarm has no reason line: its kind says it.
    emit('alarmOn', { deviceId: 'm1', name: 'BED-101-A', alarmId: 4, kind: 'Missing', raisedAtMs: Date.now() });
    const missing = rows().find((r) => r.getAttribute('data-kind') === 'Missing');
    expect(missing && within(missing).queryByTestId('alarm-reason')).toBeNull();
    // A malformed reason is not shown.
    emit('alarmOn', { deviceId: 'm1', name: 'BED-101-A', alarmId: 5, kind: 'Ulcer Risk', raisedAtMs: Date.now(), reason: { region: 'elbow', loadedSeconds: 1 } });
    expect(screen.getAllByTestId('alarm-reason')).toHaveLength(1);
  });

  it('a session that joins later reads the reason from the alarm log', async () => {
    const creationDate = Math.floor(Date.now() / 1000) - 60;
    const reason = { region: 'heels', loadedSeconds: 900, offloadSeconds: 900, intervalSeconds: 900 };
    const { emit } = await setup([], {
      m2: [{ _id: oid('m2-7'), deviceId: 'm2', kind: 'Ulcer Risk', creationDate, hasBeenAttended: false, attendedTime: null, timeToAttend: null, attendedBy: null, reason }],
    });
    emit('deviceConf', { deviceId: 'm2', cardStatus: 'Alarm', stateCode: 2, deviceFunctional: true, repositioning: 'due', unattendedAlarm: true });
    const row = await screen.findByTestId('alarm-banner-row');
    expect(within(row).getByTestId('alarm-reason')).toHaveTextContent('Lower legs and heels loaded for 15 mins without 15 mins off the mattress (interval 15 mins)');
  });

  it('the age counts up every second', async () => {
    const { emit } = await setup();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    emit('alarmOn', { deviceId: 'm1', name: 'BED-101-A', alarmId: 1, kind: 'Ulcer Risk', raisedAtMs: Date.now() });
    const age = () => screen.getByTestId('alarm-age').textContent;
    expect(age()).toMatch(/waiting 0 s/);
    await act(async () => {
      vi.advanceTimersByTime(3_000);
    });
    expect(age()).toMatch(/waiting 3 s/);
  });

  it('a session that joins while an alarm waits reads it from the alarm log', async () => {
    const creationDate = Math.floor(Date.now() / 1000) - 120;
    const { emit } = await setup([], {
      m2: [
        { _id: oid('m2-3'), deviceId: 'm2', kind: 'Ulcer Risk', creationDate, hasBeenAttended: false, attendedTime: null, timeToAttend: null, attendedBy: null, managerStatuses: [] },
        { _id: oid('m2-2'), deviceId: 'm2', kind: 'Missing', creationDate: creationDate - 900, hasBeenAttended: true, attendedTime: creationDate - 800, timeToAttend: 100, attendedBy: 'a@example.com', managerStatuses: [] },
      ],
    });
    // Joining the company replays every status: this one says an alarm waits.
    emit('deviceConf', { deviceId: 'm2', cardStatus: 'Alarm', stateCode: 2, deviceFunctional: true, repositioning: 'overdue', unattendedAlarm: true });
    const row = await screen.findByTestId('alarm-banner-row');
    expect(row).toHaveAttribute('data-device-id', 'm2');
    expect(row).toHaveAttribute('data-kind', 'Ulcer Risk');
    expect(within(row).getByTestId('alarm-age').textContent).toMatch(/waiting 2 min/);
    expect(rows()).toHaveLength(1);
  });

  it('sounds the highest waiting priority, and Mute shows the muted state', async () => {
    const { emit, store } = await setup();
    act(() => {
      applyDeviceConf(store, { deviceId: 'm2', cardStatus: 'Alarm', repositioning: 'due', deviceFunctional: true, stateCode: 2 });
    });
    expect(store.get(tonePriorityAtom)).toBeNull();
    emit('alarmOn', { deviceId: 'm2', name: 'BED-102', alarmId: 1, kind: 'Ulcer Risk', raisedAtMs: Date.now() });
    expect(store.get(tonePriorityAtom)).toBe('low');
    const banner = await screen.findByTestId('alarm-banner');
    expect(banner).toHaveAttribute('data-tone-priority', 'low');
    expect(screen.getByTestId('alarm-sound-state')).toHaveTextContent('Sound starts after your first click or key press');
    emit('alarmOn', { deviceId: 'm1', name: 'BED-101-A', alarmId: 2, kind: 'Missing', raisedAtMs: Date.now() });
    expect(banner).toHaveAttribute('data-tone-priority', 'medium');
    // Missing is listed first.
    expect(rows()[0]).toHaveAttribute('data-kind', 'Missing');
    fireEvent.click(screen.getByTestId('alarm-mute'));
    expect(store.get(toneMutedAtom)).toBe(true);
    expect(banner).toHaveAttribute('data-muted', 'true');
    expect(screen.getByTestId('alarm-sound-state')).toHaveTextContent('Sound muted for this session');
    expect(screen.getByTestId('alarm-mute')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('alarm-mute')).toHaveTextContent('Sound on');
  });

  it('a page that has had a click or a key press (signing in) sounds without another', async () => {
    // jsdom has no user activation: the page is given one, as a browser gives it to a page signed in.
    Object.defineProperty(navigator, 'userActivation', { configurable: true, value: { hasBeenActive: true, isActive: false } });
    try {
      const { emit } = await setup();
      emit('alarmOn', { deviceId: 'm1', name: 'BED-101-A', alarmId: 1, kind: 'Missing', raisedAtMs: Date.now() });
      await screen.findByTestId('alarm-banner');
      expect(screen.getByTestId('alarm-sound-state')).not.toHaveTextContent('Sound starts after your first click or key press');
    } finally {
      delete (navigator as { userActivation?: unknown }).userActivation;
    }
  });

  it('after Attend the card says who attended and when, and is no longer orange', async () => {
    localStorage.setItem('user', 'T0K');
    const attendedTime = Math.floor(Date.now() / 1000);
    let reads = 0;
    stubFetch({
      '/api/userDevices': () => ({ body: DEVICES }),
      '/api/deviceConfCompany': () => ({ body: [] }),
      // The first read comes before the hub's writer has stored the attendance.
      '/api/iotAlarms/m1': () => ({
        body: [
          reads++ === 0
            ? { _id: oid('m1-4'), deviceId: 'm1', kind: 'Ulcer Risk', creationDate: attendedTime - 60, hasBeenAttended: false, attendedTime: null, timeToAttend: null, attendedBy: null, managerStatuses: [] }
            : { _id: oid('m1-4'), deviceId: 'm1', kind: 'Ulcer Risk', creationDate: attendedTime - 60, hasBeenAttended: true, attendedTime, timeToAttend: 60, attendedBy: 'nurse@example.com', managerStatuses: [] },
        ],
      }),
    });
    const { socket, emit } = emittingSocket();
    const { store } = await renderApp('/devices', { socket });
    const card = await waitFor(() => document.querySelector('[data-testid="device-card"][data-device-id="m1"]') as HTMLElement);
    act(() => {
      applyDeviceConf(store, { deviceId: 'm1', cardStatus: 'Alarm', stateCode: 2, deviceFunctional: true, repositioning: 'due', unattendedAlarm: true });
    });
    emit('alarmOn', { deviceId: 'm1', name: 'BED-101-A', alarmId: 4, kind: 'Ulcer Risk', raisedAtMs: (attendedTime - 60) * 1000 });
    expect(card).toHaveAttribute('data-alarm', 'true');
    expect(within(card).queryByTestId('card-attended')).toBeNull();
    // Attended elsewhere: the hub's status (Correct, the turn still due) and the event arrive.
    act(() => {
      applyDeviceConf(store, { deviceId: 'm1', cardStatus: 'Correct', stateCode: 0, deviceFunctional: true, repositioning: 'due', unattendedAlarm: false });
    });
    emit('alarmAttended', { deviceId: 'm1', alarmId: 4, attendedAtMs: attendedTime * 1000, timeToAttendMs: 60_000 });
    expect(card).toHaveAttribute('data-alarm', 'false');
    expect(card).toHaveAttribute('data-status', 'Correct');
    await waitFor(() => expect(within(card).getByTestId('card-attended')).toHaveTextContent(/^Attended .+ by nurse@example\.com$/), { timeout: 3_000 });
    expect(reads).toBe(2);
    expect(within(card).getByTestId('card-repositioning')).toHaveTextContent('Turn due');
    expect(screen.queryByTestId('alarm-banner')).toBeNull();
  });

  it("shows what the hospital's alarm manager reported (PCD-05) on the card and the banner row, live and from the log", async () => {
    localStorage.setItem('user', 'T0K');
    const raised = Math.floor(Date.now() / 1000) - 30;
    const acceptedAt = raised * 1000 + 20_000;
    stubFetch({
      '/api/userDevices': () => ({ body: DEVICES }),
      '/api/deviceConfCompany': () => ({ body: [] }),
      // A session joining later reads the statuses from the alarm log.
      '/api/iotAlarms/m2': () => ({
        body: [
          {
            _id: oid('m2-7'), deviceId: 'm2', kind: 'Missing', creationDate: raised, hasBeenAttended: false, attendedTime: null, timeToAttend: null, attendedBy: null,
            managerStatuses: [
              { status: 'delivered', who: null, atMs: acceptedAt - 10_000 },
              { status: 'escalated', who: 'Ward 3 charge nurse', atMs: acceptedAt },
            ],
          },
        ],
      }),
    });
    const { socket, emit } = emittingSocket();
    const { store } = await renderApp('/devices', { socket });
    const card = await waitFor(() => document.querySelector('[data-testid="device-card"][data-device-id="m1"]') as HTMLElement);
    act(() => {
      applyDeviceConf(store, { deviceId: 'm1', cardStatus: 'Alarm', stateCode: 2, deviceFunctional: true, repositioning: 'ok', unattendedAlarm: true });
    });
    emit('alarmOn', { deviceId: 'm1', name: 'BED-101-A', alarmId: 4, kind: 'Missing', raisedAtMs: raised * 1000 });
    expect(within(card).queryByTestId('card-manager-status')).toBeNull();
    // A status about another (older) alarm of the device is not this alarm's.
    emit('alarmStatus', { deviceId: 'm1', alarm: 'm1-3', status: 'accepted', who: 'Someone Else', atMs: acceptedAt });
    expect(within(card).queryByTestId('card-manager-status')).toBeNull();
    emit('alarmStatus', { deviceId: 'm1', alarm: 'm1-4', status: 'accepted', who: 'Grace Okafor', atMs: acceptedAt });
    expect(within(card).getByTestId('card-manager-status')).toHaveTextContent(/^Accepted by Grace Okafor · .+$/);
    const row = screen.getAllByTestId('alarm-banner-row').find((r) => r.getAttribute('data-device-id') === 'm1')!;
    expect(within(row).getByTestId('alarm-banner-manager-status')).toHaveTextContent(/^Accepted by Grace Okafor/);
    // Not a status: ignored.
    emit('alarmStatus', { deviceId: 'm1', alarm: 'm1-4', status: 42 });
    expect(within(card).getByTestId('card-manager-status')).toHaveAttribute('data-status', 'accepted');

    emit('deviceConf', { deviceId: 'm2', cardStatus: 'Alarm', stateCode: 2, deviceFunctional: true, repositioning: 'ok', unattendedAlarm: true });
    const other = await waitFor(() => {
      const r = screen.getAllByTestId('alarm-banner-row').find((x) => x.getAttribute('data-device-id') === 'm2');
      expect(r).toBeDefined();
      return r!;
    });
    await waitFor(() => expect(within(other).getByTestId('alarm-banner-manager-status')).toHaveTextContent(/^Escalated by Ward 3 charge nurse · /));
  });
});
