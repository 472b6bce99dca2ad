import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { english, signInAs } from '../../test/adminFixtures';
import { renderApp, stubFetch } from '../../test/renderApp';

const VIEW = {
  settings: null,
  hubDefault: null,
  destination: null,
  link: null,
  pending: 0,
  deadLetters: 0,
};

const SETTINGS = {
  enabled: true,
  host: 'am.ward3.local',
  port: 6661,
  sendingApplication: 'PMAT_WARD3',
  sendingFacility: 'ST_MARY',
  receivingApplication: '',
  receivingFacility: '',
  kinds: ['Missing'],
  tls: false,
  caPem: '',
};

const LETTER = {
  controlId: 'dev1-4-start',
  alarm: 'dev1-4',
  phase: 'start',
  createdMs: Date.UTC(2026, 10, 26, 10, 0),
  attempts: 1,
  lastError: 'AR: unknown location',
  message: 'MSH|^~\\&|PMAT_HUB',
};

describe('the alarm manager page (issue 24)', () => {
  it('saves the company manager as typed and shows where alarms go and the link', async () => {
    signInAs(1);
    let stored = VIEW as Record<string, unknown>;
    const fetch = stubFetch({
      '/api/alarmManager': (init) => {
        if (init?.method === 'PUT') {
          stored = { ...VIEW, settings: JSON.parse(String(init.body)), destination: 'mllp://am.ward3.local:6661', link: { state: 'up', sinceMs: Date.UTC(2026, 10, 26, 10, 5), lastOkMs: null, lastError: null } };
        }
        return { body: stored };
      },
      '/api/alarmManager/deadLetters': () => ({ body: [] }),
    });
    await renderApp('/adminPanel/alarmManager');
    expect(await screen.findByTestId('alarm-manager-destination')).toHaveTextContent(english('alarmManager.noDestination'));
    const form = screen.getByTestId('alarm-manager-form');
    fireEvent.change(within(form).getByLabelText(`${english('alarmManager.host')} *`), { target: { value: ' am.ward3.local ' } });
    fireEvent.change(within(form).getByLabelText(`${english('alarmManager.port')} *`), { target: { value: '6661' } });
    fireEvent.change(within(form).getByLabelText(english('alarmManager.sendingApplication')), { target: { value: 'PMAT_WARD3' } });
    fireEvent.change(within(form).getByLabelText(english('alarmManager.sendingFacility')), { target: { value: 'ST_MARY' } });
    fireEvent.click(within(form).getByLabelText(english('alarmManager.kindNames.Ulcer Risk')));
    fireEvent.click(within(form).getByRole('button', { name: english('alarmManager.save') }));
    expect(await screen.findByTestId('alarm-manager-saved')).toHaveTextContent(english('alarmManager.saved'));
    const put = fetch.mock.calls.find((c) => c[0] === '/api/alarmManager' && c[1]?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual(SETTINGS);
    expect(screen.getByTestId('alarm-manager-destination')).toHaveTextContent('mllp://am.ward3.local:6661');
    expect(screen.getByTestId('alarm-manager-link')).toHaveTextContent(english('alarmManager.linkStates.up'));
  }, 20_000);

  it('sends over TLS with the pasted certificate authority, and shows where status reports are received', async () => {
    signInAs(1);
    const fetch = stubFetch({
      '/api/alarmManager': (init) =>
        init?.method === 'PUT'
          ? { body: { ...VIEW, settings: JSON.parse(String(init.body)), destination: 'mllps://am.ward3.local:6661', statusListener: 'mllp://10.0.0.5:2576' } }
          : { body: { ...VIEW, settings: SETTINGS, statusListener: 'mllp://10.0.0.5:2576' } },
      '/api/alarmManager/deadLetters': () => ({ body: [] }),
    });
    await renderApp('/adminPanel/alarmManager');
    expect(await screen.findByTestId('alarm-manager-status-listener')).toHaveTextContent('mllp://10.0.0.5:2576');
    const form = screen.getByTestId('alarm-manager-form');
    await waitFor(() => expect(within(form).getByLabelText(`${english('alarmManager.host')} *`)).toHaveValue('am.ward3.local'));
    expect(within(form).queryByLabelText(`${english('alarmManager.caPem')} *`)).toBeNull();
    fireEvent.click(within(form).getByLabelText(english('alarmManager.tls')));
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    fireEvent.change(within(form).getByLabelText(`${english('alarmManager.caPem')} *`), { target: { value: pem } });
    fireEvent.click(within(form).getByRole('button', { name: english('alarmManager.save') }));
    expect(await screen.findByTestId('alarm-manager-saved')).toBeInTheDocument();
    const put = fetch.mock.calls.find((c) => c[0] === '/api/alarmManager' && c[1]?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ ...SETTINGS, tls: true, caPem: pem });
    expect(screen.getByTestId('alarm-manager-destination')).toHaveTextContent('mllps://am.ward3.local:6661');
  }, 20_000);

  it("shows the hub's refusal of a bad value", async () => {
    signInAs(1);
    stubFetch({
      '/api/alarmManager': (init) =>
        init?.method === 'PUT' ? { status: 400, body: { error: 'invalidAlarmManager', message: 'the port is 1 to 65535' } } : { body: { ...VIEW, settings: SETTINGS } },
      '/api/alarmManager/deadLetters': () => ({ body: [] }),
    });
    await renderApp('/adminPanel/alarmManager');
    const form = await screen.findByTestId('alarm-manager-form');
    await waitFor(() => expect(within(form).getByLabelText(`${english('alarmManager.host')} *`)).toHaveValue('am.ward3.local'));
    fireEvent.change(within(form).getByLabelText(`${english('alarmManager.port')} *`), { target: { value: '70000' } });
    fireEvent.click(within(form).getByRole('button', { name: english('alarmManager.save') }));
    expect(await screen.findByTestId('alarm-manager-error')).toHaveTextContent(english('alarmManager.invalid'));
  });

  it('lists the refused reports and resends one', async () => {
    signInAs(1);
    let letters = [LETTER];
    const fetch = stubFetch({
      '/api/alarmManager': () => ({ body: { ...VIEW, settings: SETTINGS, deadLetters: letters.length } }),
      '/api/alarmManager/deadLetters': () => ({ body: letters }),
      '/api/alarmManager/deadLetters/dev1-4-start/resend': () => {
        letters = [];
        return { body: null };
      },
    });
    await renderApp('/adminPanel/alarmManager');
    const row = await screen.findByTestId('dead-letter');
    expect(row).toHaveTextContent('AR: unknown location');
    expect(row).toHaveTextContent(english('alarmManager.phases.start'));
    fireEvent.click(within(row).getByRole('button', { name: english('alarmManager.resend') }));
    await waitFor(() => expect(screen.queryByTestId('dead-letter')).toBeNull());
    expect(screen.getByText(english('alarmManager.noDeadLetters'))).toBeInTheDocument();
    const post = fetch.mock.calls.find((c) => c[0] === '/api/alarmManager/deadLetters/dev1-4-start/resend');
    expect(post?.[1]?.method).toBe('POST');
  });

  it('tells staff the page is for administrators', async () => {
    signInAs(2);
    stubFetch({
      '/api/alarmManager': () => ({ status: 403, body: { error: 'forbidden', message: 'administrators only' } }),
      '/api/alarmManager/deadLetters': () => ({ status: 403, body: { error: 'forbidden', message: 'administrators only' } }),
    });
    await renderApp('/adminPanel/alarmManager');
    expect(await screen.findByTestId('alarm-manager-refusal')).toHaveTextContent(english('admin.forbidden'));
  });
});
