import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { applyDeviceConf, socketLostAtMsAtom, socketStatusAtom } from '../../lib/devicesStore';
import { formatTime } from '../../lib/format';
import { fakeSocket, renderApp, signInToDevicePage } from '../../test/renderApp';

const DEVICE = {
  _id: { $oid: 'm1' },
  name: 'MAT-001',
  bed: 'Bed 4',
  room: '12',
  deviceType: 'Mattress Mat IoT',
  hardwareSerial: 'SN1',
};

const frame = (seq: number, presence = 'PRESENCE') => ({
  deviceId: 'm1',
  seq,
  deviceTimeMs: seq,
  hubTimeMs: seq,
  rows: 48,
  cols: 48,
  bytesPerCell: 1,
  cells: new Uint8Array(48 * 48).fill(seq % 200),
  presence,
  blank: false,
});

function signIn() {
  signInToDevicePage('m1', {
    '/api/device/m1/repositioning': () => ({ body: { minutes: 120, tier: 'ok', dueInSeconds: null, minMinutes: 15, maxMinutes: 1440 } }),
  });
}

describe('device page', () => {
  it('without a device in navigation state goes back to /devices after 100 ms', async () => {
    signIn();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await renderApp('/mattressMatIoT');
    act(() => vi.advanceTimersByTime(99));
    expect(screen.getByTestId('location')).toHaveTextContent('/mattressMatIoT');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByTestId('location')).toHaveTextContent('/devices');
  });

  it('joins the device on mount and leaves on unmount', async () => {
    signIn();
    const socket = fakeSocket();
    await renderApp('/mattressMatIoT', { state: { device: DEVICE }, socket });
    expect(screen.getByTestId('device-name')).toHaveTextContent('MAT-001');
    expect(socket.joinUser).toHaveBeenCalledWith('m1');
    expect(socket.leaveUser).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: /Back/ }));
    expect(screen.getByTestId('location')).toHaveTextContent('/devices');
    expect(socket.leaveUser).toHaveBeenCalledWith('m1');
  });

  it('accepts a serialized device in navigation state', async () => {
    signIn();
    await renderApp('/SeatingMatIoT', { state: { device: JSON.stringify({ ...DEVICE, deviceType: 'Seating Mat IoT' }) } });
    expect(screen.getByTestId('device-name')).toHaveTextContent('MAT-001');
  });

  it('live frames set data-seq and data-presence on the map and the presence panel', async () => {
    signIn();
    const { liveMaps } = await renderApp('/mattressMatIoT', { state: { device: DEVICE } });
    const map = await screen.findByTestId('heatmap');
    await act(async () => {});
    expect(map).not.toHaveAttribute('data-seq');
    act(() => {
      liveMaps.write(frame(7));
    });
    expect(map).toHaveAttribute('data-seq', '7');
    expect(map).toHaveAttribute('data-presence', 'PRESENCE');
    expect(screen.getByTestId('presence')).toHaveTextContent('PRESENCE');
    act(() => {
      liveMaps.write(frame(8, 'ABSENCE'));
    });
    expect(map).toHaveAttribute('data-seq', '8');
    expect(screen.getByTestId('presence')).toHaveTextContent('ABSENCE');
  });

  it('blanks the map when no frame came for 5 s', async () => {
    signIn();
    const { liveMaps } = await renderApp('/mattressMatIoT', { state: { device: DEVICE } });
    await act(async () => {});
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    act(() => {
      liveMaps.write(frame(1));
    });
    const map = screen.getByTestId('heatmap');
    expect(map).toHaveAttribute('data-blank', 'false');
    expect(screen.queryByText('No live data')).toBeNull();
    act(() => vi.advanceTimersByTime(4999));
    expect(map).toHaveAttribute('data-blank', 'false');
    act(() => vi.advanceTimersByTime(1));
    expect(map).toHaveAttribute('data-blank', 'true');
    expect(screen.getByText('No live data')).toBeInTheDocument();
  });

  it('shows the device status from live deviceConf events', async () => {
    signIn();
    const { store } = await renderApp('/mattressMatIoT', { state: { device: DEVICE } });
    const badge = () => document.querySelector('.device-header .status-badge') as HTMLElement;
    expect(badge()).toHaveAttribute('data-status', 'Offline');
    act(() => {
      applyDeviceConf(store, { deviceId: 'm1', deviceFunctional: true, stateCode: 2, cardStatus: 'Alarm' });
    });
    expect(badge()).toHaveAttribute('data-status', 'Alarm');
    expect(badge()).toHaveTextContent('Alarm');
  });

  it("shows 'Something went wrong (Socket disconnected)' while the socket is down", async () => {
    signIn();
    const { store } = await renderApp('/mattressMatIoT', { state: { device: DEVICE } });
    expect(screen.queryByTestId('socket-down')).toBeNull();
    act(() => store.set(socketStatusAtom, 'down'));
    expect(screen.getByTestId('socket-down')).toHaveTextContent('Something went wrong (Socket disconnected)');
    // Down for good (the token was refused): nothing says it is coming back.
    expect(screen.queryByTestId('socket-reconnecting')).toBeNull();
    // Lost and being reopened (its hub died behind the balancer): the page says it reconnects.
    act(() => store.set(socketStatusAtom, 'reconnecting'));
    expect(screen.getByTestId('socket-down')).toHaveTextContent('Something went wrong (Socket disconnected)');
    expect(screen.getByTestId('socket-reconnecting')).toHaveTextContent('Reconnecting…');
    act(() => store.set(socketStatusAtom, 'open'));
    expect(screen.queryByTestId('socket-down')).toBeNull();
  });

  it('while the socket reconnects, the last map is greyed and the presence badge says not live and when it was last seen; live again once back', async () => {
    signIn();
    const { store, liveMaps, i18n } = await renderApp('/mattressMatIoT', { state: { device: DEVICE } });
    const map = await screen.findByTestId('heatmap');
    const receivedAt = new Date(2026, 10, 29, 14, 5, 9).getTime();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(receivedAt);
    act(() => {
      liveMaps.write(frame(7));
    });
    vi.useRealTimers();
    expect(screen.getByTestId('presence')).toHaveTextContent('PRESENCE');
    expect(map).toHaveAttribute('data-stale', 'false');
    act(() => {
      store.set(socketLostAtMsAtom, receivedAt + 2000);
      store.set(socketStatusAtom, 'reconnecting');
    });
    const time = formatTime(receivedAt, 'en');
    expect(screen.getByTestId('presence')).toHaveAttribute('data-stale', 'true');
    expect(screen.getByTestId('presence')).toHaveTextContent(`NOT LIVE`);
    expect(screen.getByTestId('presence')).not.toHaveTextContent('PRESENCE');
    expect(screen.getByTestId('presence-last-seen')).toHaveTextContent(`last seen ${time}`);
    expect(map).toHaveAttribute('data-stale', 'true');
    expect(map).toHaveAttribute('data-blank', 'false');
    expect(screen.getByTestId('heatmap-stale')).toHaveTextContent(`Not live · last map at ${time}`);
    // In Japanese too.
    await act(async () => {
      await i18n.changeLanguage('ja');
    });
    expect(screen.getByTestId('presence')).toHaveTextContent('ライブではありません');
    await act(async () => {
      await i18n.changeLanguage('en');
    });
    act(() => {
      store.set(socketLostAtMsAtom, null);
      store.set(socketStatusAtom, 'open');
    });
    expect(screen.getByTestId('presence')).toHaveTextContent('PRESENCE');
    expect(screen.getByTestId('presence')).not.toHaveAttribute('data-stale');
    expect(map).toHaveAttribute('data-stale', 'false');
    expect(screen.queryByTestId('heatmap-stale')).toBeNull();
  });
});
