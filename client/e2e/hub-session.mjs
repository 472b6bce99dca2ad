// What several tours need from the hub beside the browser: a browser-protocol socket of their own
// (to start captures as a device page would), a capture run to its results, and a REST call made
// with the page's token.

import { decode, encode } from '@msgpack/msgpack';
import WebSocket from 'ws';

/** A socket client of the hub's browser protocol, for asking for captures as the capture buttons do. */
export async function hubSocket(base, token) {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`);
  ws.binaryType = 'nodebuffer';
  const listeners = new Set();
  ws.on('message', (raw) => {
    const env = decode(raw);
    for (const fn of listeners) fn(env);
  });
  await new Promise((res, rej) => {
    ws.once('open', res);
    ws.once('error', rej);
  });
  const send = (event, data) => ws.send(encode({ event, data }));
  const next = (pred, timeoutMs, what) =>
    new Promise((res, rej) => {
      const timer = setTimeout(() => {
        listeners.delete(fn);
        rej(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      const fn = (env) => {
        if (!pred(env)) return;
        clearTimeout(timer);
        listeners.delete(fn);
        res(env);
      };
      listeners.add(fn);
    });
  send('authenticate', { token });
  const auth = await next((e) => e.event === 'authenticated' || e.event === 'error', 10_000, 'authenticated');
  if (auth.event !== 'authenticated') throw new Error(`socket refused: ${JSON.stringify(auth.data)}`);
  // Capture progress goes to the sessions that joined the company, as the device pages do.
  send('joinCompany', {});
  return { send, next, userId: auth.data.userId, close: () => ws.close() };
}

/** Waits until the capture of `deviceId` reports its results (or fails). */
export async function captureOutcome(socket, deviceId, timeoutMs) {
  const env = await socket.next(
    (e) =>
      (e.event === 'capture' && e.data?.deviceId === deviceId && ['resultsDue', 'failed'].includes(e.data.phase)) ||
      (e.event === 'error' && typeof e.data?.error === 'string'),
    timeoutMs,
    'the capture outcome',
  );
  return env.event === 'capture' ? env.data.phase : `refused: ${env.data.error}`;
}

export async function capture(socket, deviceId, patientId, analysisType, seconds) {
  let outcome = '';
  for (let attempt = 0; attempt < 20; attempt++) {
    socket.send('startCapture', seconds ? { deviceId, analysisType, seconds, patientId } : { deviceId, analysisType, patientId });
    outcome = await captureOutcome(socket, deviceId, 90_000);
    if (outcome === 'resultsDue') return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${analysisType} capture on ${deviceId}: ${outcome}`);
}

export async function api(page, path, init = {}) {
  return page.evaluate(
    async ({ path, init }) => {
      const res = await fetch(path, {
        ...init,
        headers: { Authorization: `Bearer ${localStorage.getItem('user')}`, 'Content-Type': 'application/json' },
      });
      const text = await res.text();
      let body = null;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      return { status: res.status, body };
    },
    { path, init },
  );
}
