import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, stubFetch } from '../../test/renderApp';
import type { ComplianceJson, ComplianceRow } from './complianceApi';
import { lastDays } from './figures';

// The hub sends each row's key and, apart, its building and floor (the labels are made from those).
const row = (unit: string, shift: number, label: string, over: Partial<ComplianceRow> = {}): ComplianceRow => ({
  unit,
  building: unit.split(' · ')[0] ?? '',
  floor: unit.split(' · ')[1] ?? '',
  shift,
  shiftLabel: label,
  beds: 4,
  turns: 0,
  turnsOnTime: 0,
  onTimeShare: null,
  alarms: 0,
  alarmsAttended: 0,
  attendMeanSeconds: null,
  attendP90Seconds: null,
  bedDays: 9.333,
  alarmsPerBedDay: 0,
  patients: 0,
  minutesOverPerPatient: null,
  ...over,
});

// The hand-made early shift of mat-core's compliance tests, as the hub answers it.
const EARLY = row('North · 2', 0, '07:00–15:00', {
  turns: 5,
  turnsOnTime: 2,
  onTimeShare: 0.4,
  alarms: 4,
  alarmsAttended: 3,
  attendMeanSeconds: 260,
  attendP90Seconds: 600,
  bedDays: 4 / 3,
  alarmsPerBedDay: 3,
  patients: 4,
  minutesOverPerPatient: 10,
});
const ROWS = [EARLY, row('North · 2', 1, '15:00–23:00'), row('North · 2', 2, '23:00–07:00'), row('East · 1', 0, '07:00–15:00', { beds: 2 })];

async function setup({ admin = false } = {}) {
  localStorage.setItem('user', 'T0K');
  if (admin) localStorage.setItem('role', '1');
  const { from, to } = lastDays(7);
  const answer: ComplianceJson = {
    from,
    to,
    timeZone: 'Europe/Madrid',
    shifts: [
      { index: 0, label: '07:00–15:00' },
      { index: 1, label: '15:00–23:00' },
      { index: 2, label: '23:00–07:00' },
    ],
    rows: ROWS,
  };
  const saved: unknown[] = [];
  const fetch = stubFetch({
    '/api/userDevices': () => ({ body: [] }),
    '/api/deviceConfCompany': () => ({ body: [] }),
    '/api/wardBoard': () => ({ body: [] }),
    '/api/wardSettings': () => ({ body: { patientInitials: false } }),
    '/api/companyVariants': () => ({ body: { hideCentreOfPressure: false, fitness: false, seatingLabels: false } }),
    [`/api/compliance/${from}/${to}`]: () => ({ body: answer }),
    [`/api/compliancePdf/${from}/${to}/en`]: () => ({ body: 'PDF' }),
    '/api/complianceSettings': (init) => {
      if (init?.method === 'PUT') {
        const body = JSON.parse(String(init.body));
        saved.push(body);
        return { body };
      }
      return { body: { shiftStarts: [420, 900, 1380], timeZone: 'Europe/Madrid' } };
    },
  });
  const r = await renderApp('/ward/compliance');
  return { ...r, fetch, saved, from, to };
}

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

const rows = () => screen.queryAllByTestId('compliance-row');

describe('the turn compliance page', () => {
  it("shows the hub's figures per unit and shift with their units", async () => {
    await setup();
    await waitFor(() => expect(rows()).toHaveLength(4));
    const early = rows()[0]!;
    expect(within(early).getByRole('rowheader')).toHaveTextContent('North · floor 2');
    expect(within(early).getByTestId('cell-on-time')).toHaveTextContent('40% (2/5)');
    // Minutes and seconds, as the PDF writes them ("4 min 20 s", not "4.3 min").
    expect(within(early).getByTestId('cell-attend-mean')).toHaveTextContent(/^4 min 20 s$/);
    expect(within(early).getByTestId('cell-attend-p90')).toHaveTextContent(/^10 min$/);
    // A rate to two decimals, as in the PDF ("3.00", "0.07", "0.00").
    expect(within(early).getByTestId('cell-per-bed-day')).toHaveTextContent(/^3\.00$/);
    expect(within(early).getByTestId('cell-over')).toHaveTextContent('10 min');
    expect(early).toHaveTextContent('(not attended: 1)');
    // A shift without turns has no share, not 0 %.
    expect(within(rows()[1]!).getByTestId('cell-on-time')).toHaveTextContent('—');
    expect(screen.getByTestId('compliance-shift-summary')).toHaveTextContent('07:00–15:00 · 15:00–23:00 · 23:00–07:00 (Time zone: Europe/Madrid)');
    // The early shift's 10 min attendance: the chart counts minutes.
    expect(screen.getByTestId('chart-attend')).toHaveTextContent('07:00–15:00: Mean 4.3 min, 90th percentile 10 min');
    // Four charts, one bar group per row.
    for (const id of ['chart-on-time', 'chart-attend', 'chart-alarms', 'chart-over']) {
      expect(screen.getByTestId(id)).toHaveAttribute('data-bars', '4');
    }
  });

  it('shows one unit when one is chosen', async () => {
    await setup();
    await waitFor(() => expect(rows()).toHaveLength(4));
    fireEvent.change(screen.getByTestId('compliance-unit'), { target: { value: '=East · 1' } });
    expect(rows()).toHaveLength(1);
    expect(within(rows()[0]!).getByRole('rowheader')).toHaveTextContent('East · floor 1');
    expect(screen.getByTestId('chart-on-time')).toHaveAttribute('data-bars', '1');
  });

  it('downloads the shown rows as CSV and the PDF from the hub in the interface language', async () => {
    const { fetch, from, to } = await setup();
    await waitFor(() => expect(rows()).toHaveLength(4));
    const blobs: Blob[] = [];
    const created = vi.fn((b: Blob | MediaSource) => {
      blobs.push(b as Blob);
      return 'blob:x';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    fireEvent.click(screen.getByTestId('compliance-csv'));
    expect(blobs).toHaveLength(1);
    const csv = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blobs[0]!);
    });
    const lines = csv.replace(/^\ufeff/, '').split('\r\n');
    expect(lines[0]).toBe(
      'Unit,Shift,Beds,Turns,Turns on time,On time (%),Alarms,Alarms attended,Time to attend mean (min),Time to attend 90th percentile (min),Bed-days,Alarms per bed-day,Patients,Minutes over the interval per patient'
        .replace('Time to attend mean (min)', '"Time to attend, mean (min)"')
        .replace('Time to attend 90th percentile (min)', '"Time to attend, 90th percentile (min)"'),
    );
    expect(lines[1]).toBe('North · floor 2,07:00–15:00,4,5,2,40.0,4,3,4.33,10.00,1.33,3.000,4,10.0');
    expect(lines[2]).toBe('North · floor 2,15:00–23:00,4,0,0,,0,0,,,9.33,0.000,0,');
    fireEvent.click(screen.getByTestId('compliance-pdf'));
    await waitFor(() => expect(blobs).toHaveLength(2));
    expect(fetch.mock.calls.some(([url]) => url === `/api/compliancePdf/${from}/${to}/en`)).toBe(true);
  });

  it('an administrator sets the shifts and the time zone; others only read them', async () => {
    const { saved } = await setup({ admin: true });
    await waitFor(() => expect(rows()).toHaveLength(4));
    fireEvent.click(screen.getByTestId('compliance-edit-shifts'));
    const starts = screen.getAllByTestId('compliance-shift-start');
    fireEvent.change(starts[0]!, { target: { value: '06:00' } });
    fireEvent.change(starts[1]!, { target: { value: '14:00' } });
    fireEvent.change(starts[2]!, { target: { value: '22:00' } });
    fireEvent.change(screen.getByTestId('compliance-time-zone'), { target: { value: 'Europe/Athens' } });
    fireEvent.click(screen.getByTestId('compliance-save-shifts'));
    await waitFor(() => expect(saved).toEqual([{ shiftStarts: [360, 840, 1320], timeZone: 'Europe/Athens' }]));
    await waitFor(() => expect(screen.getByTestId('compliance-shift-summary')).toHaveTextContent('06:00–14:00 · 14:00–22:00 · 22:00–06:00 (Time zone: Europe/Athens)'));
  });

  it('refuses a start that is not a clock time before asking the hub', async () => {
    const { saved } = await setup({ admin: true });
    await waitFor(() => expect(rows()).toHaveLength(4));
    fireEvent.click(screen.getByTestId('compliance-edit-shifts'));
    fireEvent.change(screen.getAllByTestId('compliance-shift-start')[0]!, { target: { value: '7 am' } });
    fireEvent.click(screen.getByTestId('compliance-save-shifts'));
    await screen.findByText("Write each shift's start as HH:MM (00:00–23:59).");
    expect(saved).toEqual([]);
  });

  it('a nurse sees no edit button', async () => {
    await setup();
    await waitFor(() => expect(rows()).toHaveLength(4));
    expect(screen.queryByTestId('compliance-edit-shifts')).toBeNull();
  });

  it('is reached from the ward board', async () => {
    await setup();
    fireEvent.click(screen.getByTestId('compliance-ward-link'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/ward$/));
    fireEvent.click(await screen.findByTestId('compliance-link'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/ward/compliance'));
  });
});
