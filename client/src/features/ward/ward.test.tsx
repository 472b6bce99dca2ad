import { readFileSync } from 'node:fs';
import type { TFunction } from 'i18next';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyDeviceConf, socketLostAtMsAtom, socketStatusAtom } from '../../lib/devicesStore';
import { formatDuration, formatTime } from '../../lib/format';
import { LANGUAGES } from '../../lib/i18n';
import { addPendingAlarm, managerStatusFamily } from '../../lib/pendingAlarms';
import { emptyMatText } from '../../components/EmptyMatNote';
import { renderApp, stubFetch } from '../../test/renderApp';
import { textEms } from './textFit';

const oid = ($oid: string) => ({ $oid });
const device = (id: string, bed: string, over: Record<string, unknown> = {}) => ({
  _id: oid(id),
  name: `BED-${bed}`,
  bed,
  room: `R${bed}`,
  building: 'North',
  floor: '2',
  deviceType: 'Mattress Mat IoT',
  hardwareSerial: `SN-${id}`,
  company: 'c1',
  currentPatient: null,
  currentPatientName: null,
  numberOfSubdevices: 0,
  system: { devices: [] },
  ...over,
});
const DEVICES = [
  device('fine', '101', { currentPatient: 'p1', currentPatientName: 'Ana María López' }),
  device('due', '102'),
  device('never', '103'),
  device('missing', '104'),
  device('soon', '105'),
  device('east', '201', { building: 'East', floor: '1' }),
  // Not on the board: a podology plate, and a room set's member.
  device('plate', '—', { deviceType: 'Podology IoT' }),
  device('member', 'M', { deviceType: 'Force Mat', parent: oid('set') }),
];
const conf = (deviceId: string, over: Record<string, unknown> = {}) => ({
  deviceId,
  deviceFunctional: true,
  cardStatus: 'Correct',
  stateCode: 0,
  repositioning: 'ok',
  unattendedAlarm: false,
  ...over,
});
const clock = (
  deviceId: string,
  dueInSeconds: number | null,
  posture: string | null = null,
  postureConfidence: number | null = null,
  unloadedForSeconds: number | null = null,
) => ({
  deviceId: oid(deviceId),
  intervalMinutes: 120,
  tier: 'ok',
  dueInSeconds,
  unloadedForSeconds,
  offloadSeconds: 900,
  posture,
  postureConfidence,
  // The hub's threshold is 0.9 (mat_core::machine::posture::CONFIDENT); it sends the verdict.
  postureCertain: postureConfidence == null ? null : postureConfidence >= 0.9,
});

async function setup(path = '/ward', initials = false) {
  localStorage.setItem('user', 'T0K');
  const attended: string[] = [];
  const saved: unknown[] = [];
  // The hub's clock for 'soon': due 125 s after the board opens.
  const soonDueAt = Date.now() + 125_000;
  // 'east' is empty (its patient up) since 2 min before the board opens.
  const eastEmptySince = Date.now() - 120_000;
  const fetch = stubFetch({
    '/api/userDevices': () => ({ body: DEVICES }),
    '/api/deviceConfCompany': () => ({
      body: [
        conf('fine'),
        conf('due', { repositioning: 'due' }),
        // 'never' has never connected: offline, its tier the default.
        conf('never', { deviceFunctional: false, cardStatus: 'Offline', stateCode: null }),
        conf('missing', { cardStatus: 'Missing', stateCode: 1, unattendedAlarm: true }),
        conf('soon', { repositioning: 'dueSoon' }),
        conf('east'),
      ],
    }),
    '/api/wardBoard': () => ({
      body: [clock('fine', 3 * 3600, 'Left Lateral', 0.93), clock('due', 0), clock('soon', Math.max(0, Math.round((soonDueAt - Date.now()) / 1000)), 'Supine', 0.6), clock('missing', null), clock('east', 4000, null, null, Math.round((Date.now() - eastEmptySince) / 1000))],
    }),
    '/api/wardSettings': (init) => {
      if (init?.method === 'PUT') saved.push(JSON.parse(String(init.body)));
      return { body: init?.method === 'PUT' ? JSON.parse(String(init.body)) : { patientInitials: initials } };
    },
    '/api/iotAlarms/missing': (init) => {
      if (init?.method === 'PUT') attended.push('missing');
      return { body: init?.method === 'PUT' ? { attended: 1 } : [] };
    },
  });
  const r = await renderApp(path);
  return { ...r, fetch, attended, saved };
}

const tiles = () => screen.queryAllByTestId('ward-tile');
const tileOf = (id: string) => document.querySelector(`[data-testid="ward-tile"][data-device-id="${id}"]`) as HTMLElement;

afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

describe('the ward board', () => {
  it('shows every bed of the company as a tile, most urgent first', async () => {
    const { store, socket } = await setup();
    act(() => {
      addPendingAlarm(store, { key: 'missing-1', deviceId: 'missing', kind: 'Missing', raisedAtMs: Date.now() - 90_000 });
    });
    await waitFor(() => expect(tiles()).toHaveLength(6));
    await waitFor(() => expect(within(tileOf('soon')).getByTestId('ward-posture')).toBeInTheDocument());
    // East's turn (4000 s) comes before Fine's (3 h): both are fine.
    expect(tiles().map((t) => t.getAttribute('data-device-id'))).toEqual(['missing', 'due', 'soon', 'east', 'fine', 'never']);
    expect(tiles().map((t) => t.getAttribute('data-urgency'))).toEqual(['missing', 'due', 'dueSoon', 'fine', 'fine', 'offline']);
    // The label, patient, posture with confidence and the tier.
    const fine = tileOf('fine');
    expect(within(fine).getByTestId('ward-bed')).toHaveTextContent('R101 · 101');
    expect(within(fine).getByTestId('ward-patient')).toHaveTextContent('Ana María López');
    expect(within(fine).getByTestId('ward-posture')).toHaveTextContent(/^Left Lateral · 93%$/);
    expect(within(fine).getByTestId('ward-posture')).toHaveAttribute('title', 'Left Lateral · 93 % sure');
    // A posture read below the hub's threshold is shown as uncertain.
    expect(within(tileOf('soon')).getByTestId('ward-posture')).toHaveTextContent(/^Supine · 60% · uncertain$/);
    expect(within(fine).queryByTestId('ward-posture-uncertain')).toBeNull();
    // Fitted whole to its column, by the width of the whole line (never cut with an ellipsis).
    expect(within(tileOf('soon')).getByTestId('ward-posture').style.getPropertyValue('--text-ems')).toBe(String(textEms('Supine · 60% · uncertain')));
    expect(within(fine).getByTestId('ward-tier')).toHaveTextContent('Position OK');
    expect(within(fine).getByTestId('ward-countdown')).toHaveTextContent(/^Next turn in (3h|2h 59m)$/);
    expect(within(tileOf('due')).getByTestId('ward-countdown')).toHaveTextContent('Turn now');
    // Missing: the alarm with its kind and age.
    const missing = tileOf('missing');
    expect(within(missing).getByTestId('ward-alarm')).toHaveTextContent(/^Patient missing/);
    expect(within(missing).getByTestId('ward-alarm-age')).toHaveTextContent(/^waiting 1 min (29|3\d) secs?$/);
    // Each map slot is drawn by the one renderer, and its device's live maps are subscribed.
    expect(tiles().map((t) => within(t).getByTestId('ward-tile-map').dataset.attached)).toEqual(['missing', 'due', 'soon', 'east', 'fine', 'never']);
    expect(vi.mocked(socket.joinUser).mock.calls.map((c) => c[0]).sort()).toEqual(['due', 'east', 'fine', 'missing', 'never', 'soon']);
  });

  it('while the socket reconnects every tile and the maps say they are not live, as of when it was lost; live again once back', async () => {
    const { store } = await setup();
    await waitFor(() => expect(tiles()).toHaveLength(6));
    expect(screen.queryAllByTestId('ward-stale')).toHaveLength(0);
    const lostAt = new Date(2026, 10, 29, 3, 4, 5).getTime();
    act(() => {
      store.set(socketLostAtMsAtom, lostAt);
      store.set(socketStatusAtom, 'reconnecting');
    });
    expect(tiles().every((t) => t.getAttribute('data-stale') === 'true')).toBe(true);
    expect(screen.getAllByTestId('ward-stale').map((s) => s.textContent)).toEqual(Array(6).fill(`Not live · as of ${formatTime(lostAt, 'en')}`));
    expect(document.querySelector('.ward-canvas-host')).toHaveAttribute('data-stale', 'true');
    act(() => {
      store.set(socketLostAtMsAtom, null);
      store.set(socketStatusAtom, 'open');
    });
    expect(screen.queryAllByTestId('ward-stale')).toHaveLength(0);
    expect(tiles().some((t) => t.hasAttribute('data-stale'))).toBe(false);
    expect(document.querySelector('.ward-canvas-host')).not.toHaveAttribute('data-stale');
  });

  it("gives each bed label its estimated width, so that the board fits it whole instead of cutting it", async () => {
    await setup();
    await waitFor(() => expect(tiles()).toHaveLength(6));
    const label = within(tileOf('fine')).getByTestId('ward-bed');
    expect(label).toHaveTextContent('R101 · 101');
    expect(label.style.getPropertyValue('--text-ems')).toBe(String(textEms('R101 · 101')));
    // The countdown too (it is as large, in a narrower column).
    const countdown = within(tileOf('fine')).getByTestId('ward-countdown').querySelector('.ward-countdown-time') as HTMLElement;
    expect(countdown.style.getPropertyValue('--text-ems')).toBe(String(textEms(countdown.textContent ?? '')));
  });

  it("names patients by their initials when the company says so", async () => {
    await setup('/ward', true);
    await waitFor(() => expect(within(tileOf('fine')).getByTestId('ward-patient')).toHaveTextContent('A. M. L.'));
    // Only administrators see the switch.
    expect(screen.queryByTestId('ward-initials')).toBeNull();
  });

  it('an administrator switches the names to initials', async () => {
    localStorage.setItem('role', '1');
    const { saved } = await setup();
    await waitFor(() => expect(within(tileOf('fine')).getByTestId('ward-patient')).toHaveTextContent('Ana María López'));
    fireEvent.click(screen.getByTestId('ward-initials'));
    await waitFor(() => expect(within(tileOf('fine')).getByTestId('ward-patient')).toHaveTextContent('A. M. L.'));
    expect(saved).toEqual([{ patientInitials: true }]);
    expect(screen.getByTestId('ward-initials')).toBeChecked();
  });

  it('a never-connected bed is Offline only, not "Position OK"', async () => {
    await setup();
    await waitFor(() => expect(tileOf('never')).toBeTruthy());
    const never = tileOf('never');
    expect(never).toHaveAttribute('data-urgency', 'offline');
    expect(within(never).getByTestId('ward-countdown')).toHaveTextContent('Offline');
    expect(within(never).queryByTestId('ward-tier')).toBeNull();
    expect(never.textContent).not.toMatch(/Position OK/);
  });

  it('a bed left empty while its load episode lives on says for how long, and its countdown runs on', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await setup();
    await waitFor(() => expect(within(tileOf('east')).getByTestId('ward-empty')).toHaveTextContent('Empty 2m'));
    const note = within(tileOf('east')).getByTestId('ward-empty');
    expect(note.getAttribute('title')).toMatch(/15 mins/);
    expect(within(tileOf('east')).getByTestId('ward-countdown')).toHaveTextContent(/Next turn in/);
    // Someone lies on the others: no note.
    expect(within(tileOf('fine')).queryByTestId('ward-empty')).toBeNull();
    await act(async () => {
      vi.advanceTimersByTime(60_000);
    });
    expect(within(tileOf('east')).getByTestId('ward-empty')).toHaveTextContent('Empty 3m');
  });

  it("the tile's empty note fits one line of the wall's narrowest column in every language, at its longest", () => {
    // Measured at 2560 × 1440 with 48 tiles: the text column beside the map is about 175 px, and the
    // posture line (whose place the note takes) is set no smaller than 13 px (ward.css). A note on
    // two lines pushed the Wheelchair tile's last line out on the Greek wall.
    const WALL_TEXT_COLUMN_PX = 170;
    const LINE_MIN_PX = 13;
    for (const lng of LANGUAGES) {
      const translation = JSON.parse(readFileSync(`public/local/${lng}/translation.json`, 'utf8'));
      const t = ((key: string, vars: { time: string }) => {
        expect(key).toBe('pages.repositioning.empty.short');
        return translation.pages.repositioning.empty.short.replace('{{time}}', vars.time);
      }) as unknown as TFunction;
      const fmt = { duration: (s: number) => formatDuration(s, lng), narrowDuration: (s: number) => formatDuration(s, lng, 'narrow') };
      const longest = emptyMatText(t, fmt, 'seat', 15 * 60 - 1, true);
      expect(longest, lng).toMatch(/14.*59/);
      expect(textEms(longest) * LINE_MIN_PX, `${lng}: ${longest}`).toBeLessThanOrEqual(WALL_TEXT_COLUMN_PX);
    }
  });

  it('counts down every second between readings', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await setup();
    const countdown = () => within(tileOf('soon')).getByTestId('ward-countdown').textContent ?? '';
    // "Next turn in 2m 5s": the seconds it says are left.
    const left = () => {
      const m = /^Next turn in (?:(\d+)m)? ?(?:(\d+)s)?$/.exec(countdown());
      return m ? Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0) : NaN;
    };
    await waitFor(() => expect(left()).toBeGreaterThan(120));
    const first = left();
    expect(first).toBeLessThanOrEqual(125);
    await act(async () => {
      vi.advanceTimersByTime(5_000);
    });
    expect(first - left()).toBeGreaterThanOrEqual(5);
    expect(first - left()).toBeLessThanOrEqual(6);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(120_000);
    });
    expect(countdown()).toBe('Turn now');
  });

  it('attends an alarm from its tile without opening the device', async () => {
    const { store, attended } = await setup();
    act(() => {
      addPendingAlarm(store, { key: 'missing-1', deviceId: 'missing', kind: 'Missing', raisedAtMs: Date.now() - 5_000 });
    });
    const button = await waitFor(() => within(tileOf('missing')).getByTestId('ward-attend'));
    fireEvent.click(button);
    await waitFor(() => expect(attended).toEqual(['missing']));
    expect(screen.getByTestId('location')).toHaveTextContent('/ward');
  });

  it("shows what the hospital's alarm manager reported of the tile's alarm (PCD-05)", async () => {
    const { store } = await setup();
    act(() => {
      addPendingAlarm(store, { key: 'missing-1', deviceId: 'missing', kind: 'Missing', raisedAtMs: Date.now() - 5_000 });
      store.set(managerStatusFamily('missing'), { alarm: 'missing-1', status: 'accepted', who: 'Grace Okafor', atMs: Date.now() });
    });
    await waitFor(() => expect(within(tileOf('missing')).getByTestId('ward-manager-status')).toHaveTextContent(/Grace Okafor/));
    expect(within(tileOf('due')).queryByTestId('ward-manager-status')).toBeNull();
  });

  it('"Patient turned" has a row of its own under the text, never inside it', async () => {
    await setup();
    await waitFor(() => expect(within(tileOf('fine')).getByTestId('record-turn')).toBeInTheDocument());
    const button = within(tileOf('fine')).getByTestId('record-turn');
    expect(button.closest('.ward-tile-action')).not.toBeNull();
    expect(button.closest('.ward-tile-body')).toBeNull();
    // An offline bed has nothing to record, nor a bed whose patient is missing: nobody to turn.
    expect(within(tileOf('never')).queryByTestId('record-turn')).toBeNull();
    expect(tileOf('never').querySelector('.ward-tile-action')).toBeNull();
    expect(within(tileOf('missing')).queryByTestId('record-turn')).toBeNull();
    expect(within(tileOf('due')).getByTestId('record-turn')).toBeInTheDocument();
  });

  it('a tile opens its device page', async () => {
    await setup();
    await waitFor(() => expect(tileOf('fine')).toBeTruthy());
    fireEvent.click(tileOf('fine'));
    expect(screen.getByTestId('location')).toHaveTextContent('/mattressMatIoT');
  });

  it('a unit shows its own beds; an unknown unit says so', async () => {
    const { store } = await setup('/ward/East%20%C2%B7%201');
    await waitFor(() => expect(tiles().map((t) => t.getAttribute('data-device-id'))).toEqual(['east']));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Ward board: East · floor 1');
    const links = screen.getAllByTestId('ward-unit').map((l) => l.textContent);
    expect(links).toEqual(['East · floor 1 (1)', 'North · floor 2 (5)']);
    act(() => {
      applyDeviceConf(store, { deviceId: 'east', deviceFunctional: true, cardStatus: 'Correct', stateCode: 0, repositioning: 'overdue', unattendedAlarm: false });
    });
    expect(tileOf('east')).toHaveAttribute('data-urgency', 'overdue');
    await renderApp('/ward/Nowhere');
    expect(await screen.findByTestId('ward-unknown-unit')).toHaveTextContent('No bed, seat or room set is in unit Nowhere.');
  });
});
