import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, signInToDevicePage } from '../../test/renderApp';

const DEVICE = { _id: { $oid: 'm1' }, name: 'MAT-001', bed: 'Bed 4', room: '12', deviceType: 'Mattress Mat IoT', hardwareSerial: 'SN1' };
const HOUR_MS = 3_600_000;

/** A hub with a turn log: POST appends (as the hub would), GET lists newest first. */
function hubWithTurns(now: number, unloadedForSeconds: number | null = null) {
  const turns = [
    { atMs: now - 3 * HOUR_MS, recordedAtMs: now - 3 * HOUR_MS, position: 'Supine', by: 'ana@example.com', tierBefore: 'overdue', loadedSeconds: 9_000, intervalSeconds: 7_200 },
    { atMs: now - 30 * HOUR_MS, recordedAtMs: now - 30 * HOUR_MS, position: 'Prone', by: 'ana@example.com', tierBefore: 'ok', loadedSeconds: 3_600, intervalSeconds: 7_200 },
  ];
  const posted: unknown[] = [];
  let dueIn = 0;
  const fetch = signInToDevicePage('m1', {
    '/api/device/m1/repositioning': () => ({ body: { minutes: 120, tier: dueIn ? 'ok' : 'due', dueInSeconds: dueIn, unloadedForSeconds, offloadSeconds: 900, minMinutes: 15, maxMinutes: 1440 } }),
    '/api/device/m1/turns': (init) => {
      if (init?.method === 'POST') {
        const body = JSON.parse(String(init.body)) as { position: string; atMs: number | null };
        posted.push(body);
        const atMs = body.atMs ?? Date.now();
        turns.unshift({ atMs, recordedAtMs: Date.now(), position: body.position, by: 'nurse@example.com', tierBefore: 'due', loadedSeconds: 7_300, intervalSeconds: 7_200 });
        // The clock restarts from the turn: 2 h less the time since it.
        dueIn = Math.round((7_200_000 - (Date.now() - atMs)) / 1000);
        return { body: { atMs, tierBefore: 'due', loadedSeconds: 7_300 } };
      }
      return { body: [...turns].sort((a, b) => b.atMs - a.atMs) };
    },
  });
  return { posted, fetch };
}

describe('the turn section', () => {
  it('lists the recorded turns, late ones with how late, and counts the last 24 h', async () => {
    hubWithTurns(Date.now());
    await renderApp('/mattressMatIoT', { state: { device: DEVICE } });
    const panel = await screen.findByTestId('turns-panel');
    await waitFor(() => expect(within(panel).getAllByTestId('turn-row')).toHaveLength(2));
    expect(within(panel).getByTestId('turns-count')).toHaveTextContent('Turns recorded in the last 24 h: 1');
    const [late, onTime] = within(panel).getAllByTestId('turn-row');
    expect(late).toHaveAttribute('data-on-time', 'false');
    expect(late).toHaveTextContent('Supine');
    expect(late).toHaveTextContent('30 mins late');
    expect(late).toHaveTextContent('by ana@example.com');
    expect(onTime).toHaveAttribute('data-on-time', 'true');
    expect(onTime).toHaveTextContent('On time');
  });

  it('records a turn with its position and time, and the countdown restarts from it', async () => {
    const { posted } = hubWithTurns(Date.now());
    await renderApp('/mattressMatIoT', { state: { device: DEVICE } });
    await waitFor(() => expect(screen.getByTestId('repositioning-due')).toHaveTextContent('A turn is due now.'));
    fireEvent.click(await screen.findByTestId('record-turn'));
    const form = screen.getByTestId('turn-form');
    fireEvent.change(within(form).getByTestId('turn-position'), { target: { value: 'Left Lateral' } });
    fireEvent.change(within(form).getByTestId('turn-when'), { target: { value: '10' } });
    const before = Date.now();
    fireEvent.click(within(form).getByTestId('turn-save'));
    await waitFor(() => expect(posted).toHaveLength(1));
    const body = posted[0] as { position: string; atMs: number };
    expect(body.position).toBe('Left Lateral');
    // Ten minutes before the click, to the second.
    expect(Math.abs(body.atMs - (before - 10 * 60_000))).toBeLessThan(2_000);
    // The form closes, the log shows the new turn, and the clock is read again at once.
    await waitFor(() => expect(screen.queryByTestId('turn-form')).toBeNull());
    await waitFor(() => expect(screen.getAllByTestId('turn-row')).toHaveLength(3));
    expect(screen.getAllByTestId('turn-row')[0]).toHaveTextContent('Left lateral');
    await waitFor(() => expect(screen.getByTestId('repositioning-due')).toHaveTextContent(/1 hr 49 min/));
  });

  it('Now sends no time: the hub takes its own clock', async () => {
    const { posted } = hubWithTurns(Date.now());
    await renderApp('/mattressMatIoT', { state: { device: DEVICE } });
    fireEvent.click(await screen.findByTestId('record-turn'));
    fireEvent.click(screen.getByTestId('turn-save'));
    await waitFor(() => expect(posted).toEqual([{ position: 'Supine', atMs: null }]));
  });

  it('on a seat the action is a change of position, not a turn, Seated offered first', async () => {
    const { posted } = hubWithTurns(Date.now(), 300);
    await renderApp('/SeatingMatIoT', { state: { device: { ...DEVICE, deviceType: 'Seating Mat IoT' } } });
    const button = await screen.findByTestId('record-turn');
    expect(button).toHaveTextContent('Position changed');
    expect(button).not.toHaveTextContent(/turned/i);
    // The patient is up: the clock says the seat has been empty for 5 min, and runs on.
    expect(await screen.findByTestId('repositioning-empty')).toHaveTextContent('Seat empty for 5 mins');
    fireEvent.click(button);
    const form = screen.getByTestId('turn-form');
    expect(form).toHaveTextContent('Changed');
    expect(within(form).getByTestId('turn-position')).toHaveValue('Seated');
    expect(within(form).getByTestId('turn-save')).toHaveTextContent('Record position change');
    fireEvent.click(within(form).getByTestId('turn-save'));
    await waitFor(() => expect(posted).toEqual([{ position: 'Seated', atMs: null }]));
  });

  it('a plate has no turn section', async () => {
    hubWithTurns(Date.now());
    await renderApp('/PodiatryIoT', { state: { device: { ...DEVICE, deviceType: 'Podology IoT' } } });
    await screen.findByTestId('device-name');
    expect(screen.queryByTestId('turns-panel')).toBeNull();
  });
});
