import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { applyDeviceConf } from '../../lib/devicesStore';
import { fakeSocket, renderApp, stubFetch } from '../../test/renderApp';
import { STREAM_ANSWER_TIMEOUT_MS } from './streaming';

/** The notification area (other panels of the page may show alerts of their own). */
const toasts = () => within(document.querySelector('.toasts') as HTMLElement);

const DEVICE = { _id: { $oid: 'm1' }, name: 'MAT-001', deviceType: 'Mattress Mat IoT', hardwareSerial: 'SN1' };

function signIn() {
  localStorage.setItem('user', 'T0K');
  stubFetch({ '/api/userDevices': () => ({ body: [] }), '/api/deviceConfCompany': () => ({ body: [] }) });
}

/** A fake socket whose events the test sends as the hub would. */
function hubSocket() {
  const socket = fakeSocket();
  const listeners = new Set<(env: { event: string; data?: unknown }) => void>();
  socket.onEvent = vi.fn((l) => {
    listeners.add(l);
    return () => listeners.delete(l);
  });
  const emit = (event: string, data: unknown) =>
    act(() => {
      for (const l of [...listeners]) l({ event, data });
    });
  const remaining = (seconds: number, deviceId = 'm1') => emit('streamingRemaining', { deviceId, seconds });
  return { socket, emit, remaining };
}

async function openPage(hub = hubSocket()) {
  signIn();
  const utils = await renderApp('/mattressMatIoT', { state: { device: DEVICE }, socket: hub.socket });
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
  return { ...utils, ...hub };
}

const countdown = () => screen.queryByTestId('countdown');
const startButton = () => screen.getByTestId('streaming-button');

describe('streaming control', () => {
  it('asks the hub on load and waits for its answer before offering Start', async () => {
    const { socket, remaining } = await openPage();
    expect(socket.requestStreamingRemaining).toHaveBeenCalledWith('m1');
    expect(startButton()).toBeDisabled();
    remaining(0);
    expect(startButton()).toBeEnabled();
    expect(startButton()).toHaveTextContent('Start live');
    expect(countdown()).toBeNull();
  });

  it('starts the countdown only when the hub answers, from the seconds it streams', async () => {
    const { socket, remaining } = await openPage();
    remaining(0);
    fireEvent.click(startButton());
    expect(socket.startStreaming).toHaveBeenCalledWith('m1', 180);
    expect(socket.requestStreamingRemaining).toHaveBeenCalledTimes(2);
    // Sent, not accepted yet: no countdown, the button waits.
    expect(countdown()).toBeNull();
    expect(startButton()).toHaveTextContent('Starting…');
    expect(startButton()).toBeDisabled();
    act(() => vi.advanceTimersByTime(2_000));
    expect(countdown()).toBeNull();
    remaining(185);
    expect(countdown()).toHaveAttribute('data-remaining', '185');
    expect(countdown()).toHaveTextContent('3:05');
    act(() => vi.advanceTimersByTime(10_000));
    expect(countdown()).toHaveAttribute('data-remaining', '175');
    fireEvent.click(screen.getByRole('button', { name: 'Stop live' }));
    expect(socket.startStreaming).toHaveBeenLastCalledWith('m1', 0);
    expect(countdown()).toBeNull();
    expect(localStorage.getItem('streamingEndTime')).toBeNull();
  });

  it('the countdown ends by itself when the hub-given time is over', async () => {
    const { remaining } = await openPage();
    remaining(0);
    fireEvent.click(startButton());
    remaining(185);
    act(() => vi.advanceTimersByTime(184_000));
    expect(countdown()).toHaveAttribute('data-remaining', '1');
    act(() => vi.advanceTimersByTime(1_250));
    expect(countdown()).toBeNull();
    expect(startButton()).toHaveTextContent('Start live');
    expect(localStorage.getItem('streamingEndTime')).toBeNull();
  });

  it.each([
    ['connectDevice', 'The device is not connected'],
    ['horseSidesOffline', 'Live view needs both saddle sides connected'],
    ['onGoing', 'Error: An analysis is already being captured.'],
  ])('a %s refusal shows its toast and no countdown', async (code, text) => {
    const { emit, remaining } = await openPage();
    remaining(0);
    fireEvent.click(startButton());
    emit('error', { error: code, message: 'refused' });
    expect(toasts().getByRole('alert')).toHaveTextContent(text);
    expect(countdown()).toBeNull();
    expect(startButton()).toHaveTextContent('Start live');
    // The hub's answer to the following streamingRemaining (0) changes nothing.
    remaining(0);
    expect(countdown()).toBeNull();
  });

  it('ignores a refusal-like error when no start is waiting', async () => {
    const { emit, remaining } = await openPage();
    remaining(0);
    emit('error', { error: 'onGoing', message: 'a capture elsewhere' });
    expect(toasts().queryByRole('alert')).toBeNull();
  });

  it('gives up with a toast when the hub does not answer a start in time', async () => {
    const { remaining } = await openPage();
    remaining(0);
    fireEvent.click(startButton());
    act(() => vi.advanceTimersByTime(STREAM_ANSWER_TIMEOUT_MS - 1));
    expect(startButton()).toHaveTextContent('Starting…');
    act(() => vi.advanceTimersByTime(1));
    expect(toasts().getByRole('alert')).toHaveTextContent('The device did not answer');
    expect(startButton()).toHaveTextContent('Start live');
  });

  it('on reload follows the stream the hub still runs, per device', async () => {
    localStorage.setItem('streamingEndTime', JSON.stringify({ other: Date.now() + 60_000 }));
    const { socket, remaining } = await openPage();
    remaining(3, 'other');
    expect(countdown()).toBeNull();
    remaining(120);
    expect(socket.startStreaming).not.toHaveBeenCalled();
    expect(countdown()).toHaveAttribute('data-remaining', '120');
    const stored = JSON.parse(localStorage.getItem('streamingEndTime') ?? '{}');
    expect(Object.keys(stored).sort()).toEqual(['m1', 'other']);
    expect(stored.m1 - Date.now()).toBe(120_000);
  });

  it('on reload shows a stored countdown at once and resumes it on the hub when the hub has none', async () => {
    localStorage.setItem('streamingEndTime', JSON.stringify({ m1: Date.now() + 100_000 }));
    const { socket, remaining } = await openPage();
    expect(countdown()).toHaveAttribute('data-remaining', '100');
    remaining(0);
    // 100 s left, of which the hub adds 5 again.
    expect(socket.startStreaming).toHaveBeenCalledWith('m1', 95);
    expect(countdown()).toBeNull();
    remaining(100);
    expect(countdown()).toHaveAttribute('data-remaining', '100');
  });

  it('on reload clears a stored end time that has passed', async () => {
    localStorage.setItem('streamingEndTime', JSON.stringify({ m1: Date.now() - 1 }));
    const { socket, remaining } = await openPage();
    expect(countdown()).toBeNull();
    remaining(0);
    expect(socket.startStreaming).not.toHaveBeenCalled();
    expect(localStorage.getItem('streamingEndTime')).toBeNull();
  });

  it('extending asks the hub again and follows the time it then streams', async () => {
    const { socket, emit, remaining } = await openPage();
    remaining(0);
    fireEvent.click(startButton());
    remaining(185);
    act(() => vi.advanceTimersByTime(85_000));
    expect(countdown()).toHaveAttribute('data-remaining', '100');
    fireEvent.click(screen.getByRole('button', { name: 'Extend' }));
    expect(socket.startStreaming).toHaveBeenLastCalledWith('m1', 180);
    expect(screen.getByRole('button', { name: 'Extend' })).toBeDisabled();
    expect(countdown()).toHaveAttribute('data-remaining', '100');
    remaining(185);
    expect(countdown()).toHaveAttribute('data-remaining', '185');
    // A refused extension keeps the running countdown.
    fireEvent.click(screen.getByRole('button', { name: 'Extend' }));
    emit('error', { error: 'onGoing', message: 'capture' });
    expect(countdown()).toHaveAttribute('data-remaining', '185');
    expect(screen.getByRole('button', { name: 'Extend' })).toBeEnabled();
  });

  it('a Stop makes the answer to an earlier start stale', async () => {
    const { socket, remaining } = await openPage();
    remaining(0);
    fireEvent.click(startButton());
    remaining(185);
    fireEvent.click(screen.getByRole('button', { name: 'Extend' }));
    fireEvent.click(screen.getByRole('button', { name: 'Stop live' }));
    expect(socket.startStreaming).toHaveBeenLastCalledWith('m1', 0);
    // The hub's answer to the extension, sent before it handled the stop, arrives now.
    remaining(185);
    expect(countdown()).toBeNull();
    expect(startButton()).toHaveTextContent('Start live');
    // Later answers count again.
    fireEvent.click(startButton());
    remaining(185);
    expect(countdown()).toHaveAttribute('data-remaining', '185');
  });

  it('asks again after the socket reconnects while streaming', async () => {
    const { socket, emit, remaining } = await openPage();
    remaining(0);
    fireEvent.click(startButton());
    remaining(185);
    const asked = vi.mocked(socket.requestStreamingRemaining).mock.calls.length;
    emit('authenticated', { userId: 'u', companyId: 'c' });
    expect(socket.requestStreamingRemaining).toHaveBeenCalledTimes(asked + 1);
    remaining(40);
    expect(countdown()).toHaveAttribute('data-remaining', '40');
  });

  it('after a reconnect to a hub that does not run the stream, resumes it for the seconds left (issue 25)', async () => {
    const { socket, emit, remaining } = await openPage();
    remaining(0);
    fireEvent.click(startButton());
    remaining(185);
    act(() => vi.advanceTimersByTime(65_000));
    // The hub dies; the socket reaches another one, which streams nothing for this device.
    emit('authenticated', { userId: 'u', companyId: 'c' });
    expect(countdown()).toHaveAttribute('data-remaining', '120');
    remaining(0);
    // 120 s left on the page, of which the hub adds 5 again.
    expect(socket.startStreaming).toHaveBeenLastCalledWith('m1', 115);
    remaining(120);
    expect(countdown()).toHaveAttribute('data-remaining', '120');
  });

  it('leaves the decision to the hub for a device known to be not connected, with a hint', async () => {
    const { socket, store, remaining } = await openPage();
    act(() => {
      applyDeviceConf(store, { deviceId: 'm1', deviceFunctional: false, stateCode: null, cardStatus: 'Offline' });
    });
    remaining(0);
    expect(screen.getByTestId('streaming-not-connected')).toHaveTextContent('Device not connected');
    fireEvent.click(startButton());
    expect(socket.startStreaming).toHaveBeenCalledWith('m1', 180);
  });
});
