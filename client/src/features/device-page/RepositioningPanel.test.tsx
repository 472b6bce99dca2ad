import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, signInToDevicePage } from '../../test/renderApp';
import { countdownState } from './repositioning';

const DEVICE = { _id: { $oid: 'm1' }, name: 'MAT-001', bed: 'Bed 4', room: '12', deviceType: 'Mattress Mat IoT', hardwareSerial: 'SN1' };

/** A hub whose repositioning clock reads `posture` (null: nobody on the mat). */
function hubReading(posture: { posture: string; postureConfidence: number; postureCertain: boolean } | null) {
  signInToDevicePage('m1', {
    '/api/device/m1/turns': () => ({ body: [] }),
    '/api/device/m1/repositioning': () => ({
      body: {
        minutes: 120,
        tier: 'ok',
        dueInSeconds: posture ? 3_000 : null,
        unloadedForSeconds: null,
        offloadSeconds: 900,
        minMinutes: 15,
        maxMinutes: 1440,
        posture: posture?.posture ?? null,
        postureConfidence: posture?.postureConfidence ?? null,
        postureCertain: posture?.postureCertain ?? null,
      },
    }),
  });
}

describe("the device page's repositioning clock", () => {
  it('says the posture the hub reads now, as the ward tile does: its confidence, and uncertain when the hub is not sure', async () => {
    hubReading({ posture: 'Left Lateral', postureConfidence: 0.874, postureCertain: false });
    await renderApp('/mattressMatIoT', { state: { device: DEVICE } });
    const line = await screen.findByTestId('repositioning-posture');
    expect(line.textContent?.replace(/\s+/g, ' ')).toMatch(/^Left Lateral · 87 ?% · uncertain$/);
    expect(line).toHaveAttribute('title', 'Left Lateral · 87 % sure · uncertain');
  });

  it('a certain reading is not marked uncertain', async () => {
    hubReading({ posture: 'Supine', postureConfidence: 0.99, postureCertain: true });
    await renderApp('/mattressMatIoT', { state: { device: DEVICE } });
    const line = await screen.findByTestId('repositioning-posture');
    expect(line.textContent?.replace(/\s+/g, ' ')).toMatch(/^Supine · 99 ?%$/);
  });

  it('says no posture while nobody lies on the mat', async () => {
    hubReading(null);
    await renderApp('/mattressMatIoT', { state: { device: DEVICE } });
    await waitFor(() => expect(screen.getByTestId('repositioning-due')).toHaveTextContent(/nobody|No one/i));
    expect(screen.queryByTestId('repositioning-posture')).toBeNull();
  });
});

describe('the countdown', () => {
  it('says a turn is due once under a second is left, never "due in 0 secs"', () => {
    expect(countdownState(null)).toBe('nobody');
    expect(countdownState(0)).toBe('dueNow');
    expect(countdownState(999)).toBe('dueNow');
    expect(countdownState(1000)).toBe('dueIn');
    expect(countdownState(3_600_000)).toBe('dueIn');
  });
});
