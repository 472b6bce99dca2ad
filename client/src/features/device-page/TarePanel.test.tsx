import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { english, signInAs } from '../../test/adminFixtures';
import { renderApp, stubFetch } from '../../test/renderApp';

const DEVICE = { _id: { $oid: 'm1' }, name: 'MAT-001', bed: 'Bed 4', room: '12', deviceType: 'Mattress Mat IoT', hardwareSerial: 'SN1' };

const LEARNT = { set: true, source: 'learnt', setAtMs: Date.UTC(2026, 10, 26, 8, 30), meanMmHg: 1.62, maxMmHg: 4.8, ceilingMmHg: 6 };

function routes(tare: () => { status?: number; body: unknown }, zero: () => { status?: number; body: unknown }) {
  return {
    '/api/userDevices': () => ({ body: [] }),
    '/api/deviceConfCompany': () => ({ body: [] }),
    '/api/iotLogs/m1': () => ({ body: [] }),
    '/api/iotAlarms/m1': () => ({ body: [] }),
    '/api/device/m1/repositioning': () => ({ body: { minutes: 120, tier: 'ok', dueInSeconds: null, minMinutes: 15, maxMinutes: 1440 } }),
    '/api/device/m1/tare': (init?: RequestInit) => (init?.method === 'POST' ? zero() : tare()),
  };
}

describe('tare panel', () => {
  it('shows the idle level with its unit and how it was set; staff get no zero button', async () => {
    signInAs(2);
    stubFetch(routes(() => ({ body: LEARNT }), () => ({ status: 403, body: { error: 'forbidden' } })));
    await renderApp('/mattressMatIoT', { state: { device: DEVICE } });
    await waitFor(() => expect(screen.getByTestId('tare-level')).toHaveTextContent('1.6 mmHg on average, 4.8 mmHg at most'));
    expect(screen.getByTestId('tare-source')).toHaveTextContent('Learnt while the mat was empty');
    expect(screen.queryByTestId('tare-zero')).toBeNull();
  });

  it('says when no idle level is learnt yet', async () => {
    signInAs(2);
    const none = { set: false, source: null, setAtMs: null, meanMmHg: 0, maxMmHg: 0, ceilingMmHg: 6 };
    stubFetch(routes(() => ({ body: none }), () => ({ status: 403, body: {} })));
    await renderApp('/mattressMatIoT', { state: { device: DEVICE } });
    await waitFor(() => expect(screen.getByTestId('tare-level')).toHaveTextContent(english('tare.none')));
  });

  it("an administrator's zero refused while someone lies on the mat says so", async () => {
    signInAs(1);
    stubFetch(routes(() => ({ body: LEARNT }), () => ({ status: 409, body: { error: 'tareOccupied', message: 'someone lies on the mat' } })));
    await renderApp('/mattressMatIoT', { state: { device: DEVICE } });
    const button = await screen.findByTestId('tare-zero');
    await waitFor(() => expect(button).toBeEnabled());
    fireEvent.click(button);
    expect(await screen.findByText(english('tare.refusedOccupied'))).toBeInTheDocument();
  });

  it("an administrator's zero of the empty mat is confirmed", async () => {
    signInAs(1);
    const zeroed = { ...LEARNT, source: 'zeroed' };
    let current = LEARNT;
    stubFetch(
      routes(
        () => ({ body: current }),
        () => {
          current = zeroed;
          return { body: zeroed };
        },
      ),
    );
    await renderApp('/mattressMatIoT', { state: { device: DEVICE } });
    const button = await screen.findByTestId('tare-zero');
    await waitFor(() => expect(button).toBeEnabled());
    fireEvent.click(button);
    expect(await screen.findByText(english('tare.zeroed'))).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('tare-source')).toHaveTextContent('Zeroed by an administrator'));
  });
});
