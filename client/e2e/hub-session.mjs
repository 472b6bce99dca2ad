// What several tours need from the hub beside the browser: a browser-protocol socket of their own
// (to start captures as a device page would), a capture run to its results, a REST call made
// with the page's token, and the company's logo (the branding of reports and compliance PDFs).

import { deflateSync } from 'node:zlib';
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

/**
 * Waits until every device card of the page shows the status its hub's REST answer gives it (the
 * hub the page's calls reach); resolves the number of cards.
 */
export async function cardsAgreeWithHub(page, timeout) {
  const agreed = await page.waitForFunction(
    async () => {
      const token = localStorage.getItem('user');
      const res = await fetch('/api/deviceConfCompany', { headers: { Authorization: `Bearer ${token}` } });
      if (!res.ok) return false;
      const id = (d) => (d.deviceId && typeof d.deviceId === 'object' ? d.deviceId.$oid : String(d.deviceId));
      const hub = new Map((await res.json()).map((d) => [id(d), d.cardStatus]));
      const cards = [...document.querySelectorAll('[data-testid="device-card"]')];
      return cards.length > 0 && cards.every((c) => hub.get(c.dataset.deviceId) === c.dataset.status) ? cards.length : false;
    },
    null,
    { timeout, polling: 500 },
  );
  return agreed.jsonValue();
}

/** CRC-32 of PNG chunks. */
function crc32(bytes) {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/** A 160 × 60 RGBA logo: a teal rounded badge with a white cross and two navy bars, transparent around them. */
export function logoPng() {
  const [w, h] = [160, 60];
  const raw = Buffer.alloc(h * (w * 4 + 1));
  for (let y = 0; y < h; y++) {
    raw[y * (w * 4 + 1)] = 0;
    for (let x = 0; x < w; x++) {
      const i = y * (w * 4 + 1) + 1 + x * 4;
      const inBadge = x < 60 && (x - 30) ** 2 + (y - 30) ** 2 < 28 ** 2;
      const cross = inBadge && ((Math.abs(x - 30) < 6 && Math.abs(y - 30) < 18) || (Math.abs(y - 30) < 6 && Math.abs(x - 30) < 18));
      const bar = x >= 70 && x < 155 && ((y >= 14 && y < 24) || (y >= 34 && y < 44 && x < 130));
      const [r, g, b, a] = cross ? [255, 255, 255, 255] : inBadge ? [0, 128, 128, 255] : bar ? [40, 70, 120, 255] : [0, 0, 0, 0];
      raw.set([r, g, b, a], i);
    }
  }
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Gives the signed-in administrator's company the logo above; resolves with the company's name. */
export async function giveCompanyLogo(page) {
  const company = await api(page, '/api/companyUser');
  if (company.status !== 200) throw new Error(`company not read: ${company.status}`);
  const companyName = company.body[0].companyName;
  const logo = `data:image/png;base64,${logoPng().toString('base64')}`;
  const saved = await api(page, '/api/companyUser', { method: 'PUT', body: JSON.stringify({ companyName, address: company.body[0].address ?? '', logo }) });
  if (saved.status !== 200) throw new Error(`logo not saved: ${saved.status} ${JSON.stringify(saved.body)}`);
  return companyName;
}
