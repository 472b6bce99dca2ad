#!/usr/bin/env node
// A stand-in for the Rust hub, for developing the client and its e2e test before the real hub is
// ready. It speaks docs/api.md and docs/browser-protocol.md with a handful of simulated devices and
// takes the same command line as `hub --demo`:
//
//   node e2e/mock-hub.mjs --demo --data DIR --http 127.0.0.1:0 --quic 127.0.0.1:0 --client-dir DIST
//
// It prints `listening http=http://HOST:PORT` on stdout once ready. It is not the product: the e2e
// test runs against the real hub (HUB_BIN) by default.

import { decode, encode } from '@msgpack/msgpack';
import { createHmac, randomBytes } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { WebSocketServer } from 'ws';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const httpAddr = opt('http', '127.0.0.1:8080');
const clientDir = resolve(opt('client-dir', 'dist'));
const [host, portText] = httpAddr.split(/:(?=\d+$)/);
const SECRET = randomBytes(32);

const USER = { email: 'demo@example.com', password: 'demo1234', userId: 'u-demo', companyId: 'c-demo', companyName: 'Demo Clinic' };

// ---- devices -------------------------------------------------------------------------------------
let n = 0;
const oid = () => (0x64f000000000000000000000n + BigInt(++n)).toString(16).padStart(24, '0');
const devices = [];
const add = (deviceType, name, bed, extra = {}) => {
  const d = { _id: { $oid: oid() }, name, bed, room: '1', building: 'A', floor: '1', healthSystem: 'Demo', deviceType,
    hardwareSerial: `SN-${name}`, company: USER.companyId, numberOfSubdevices: 0, system: { devices: [] }, parent: null, ...extra };
  devices.push(d);
  return d;
};
const mattress = add('Mattress Mat IoT', 'MAT-IOT-01', 'Bed 101');
add('Mattress Mat IoT', 'MAT-IOT-02', 'Bed 102');
add('Seating Mat IoT', 'SEAT-IOT-01', 'Chair 3');
add('Podology IoT', 'POD-IOT-01', 'Podiatry room');
add('Seating Mat IoT XL', 'SEAT-XL-01', 'Wheelchair 7');
add('Floor Mat', 'FLOOR-01', 'Corridor');
const horse = add('Sensing Horse', 'HORSE-01', 'Stable 2', { numberOfSubdevices: 2 });
const left = add('Sensing Horse Subdevice', 'HORSE-01-L', 'Stable 2', { parent: horse._id });
const right = add('Sensing Horse Subdevice', 'HORSE-01-R', 'Stable 2', { parent: horse._id });
horse.system.devices = [left._id.$oid, right._id.$oid];
const room = add('Room Set', 'ROOM-204', 'Room 204', { numberOfSubdevices: 3 });
for (const [t, nm] of [['Mattress Mat IoT', 'ROOM-204-BED'], ['Seating Mat IoT', 'ROOM-204-SEAT'], ['Floor Mat', 'ROOM-204-FLOOR']]) {
  const c = add(t, nm, 'Room 204', { parent: room._id });
  room.system.devices.push(c._id.$oid);
}

const SIZES = { 'Mattress Mat IoT': 48, 'Podology IoT': 48, 'Seating Mat IoT': 16, 'Seating Mat IoT XL': 24, 'Floor Mat': 24, 'Sensing Horse Subdevice': 24 };
const state = new Map(); // id -> { functional, patientStatus, seq }
for (const d of devices) state.set(d._id.$oid, { functional: false, patientStatus: 'Offline', seq: 0 });

const stateCode = (s) => (!s.functional ? null : s.patientStatus === 'Missing' || s.patientStatus === 'Absent' ? 1 : s.patientStatus === 'Ulcer Risk' ? 2 : 0);
const cardStatus = (c) => (c === 0 ? 'Correct' : c === 1 ? 'Missing' : c === 2 ? 'Alarm' : 'Offline');
const confOf = (d) => {
  const s = state.get(d._id.$oid);
  const code = stateCode(s);
  const conf = { deviceId: d._id.$oid, hardwareSerial: d.hardwareSerial, deviceType: d.deviceType, name: d.name,
    deviceFunctional: s.functional, patientStatus: s.patientStatus, stateCode: code, cardStatus: cardStatus(code) };
  if (d.deviceType === 'Sensing Horse') {
    conf.sides = [left, right].map((sd, i) => {
      const c = stateCode(state.get(sd._id.$oid));
      return { side: i === 0 ? 'left' : 'right', stateCode: c, cardStatus: cardStatus(c) };
    });
  }
  return conf;
};

// ---- tokens --------------------------------------------------------------------------------------
const b64 = (b) => Buffer.from(b).toString('base64url');
const sign = (payload) => {
  const body = b64(JSON.stringify(payload));
  return `${body}.${b64(createHmac('sha256', SECRET).update(body).digest())}`;
};
const verify = (token) => {
  if (typeof token !== 'string') return null;
  const [body, mac] = token.split('.');
  if (!body || !mac || b64(createHmac('sha256', SECRET).update(body).digest()) !== mac) return null;
  const p = JSON.parse(Buffer.from(body, 'base64url').toString());
  return p.exp > Date.now() / 1000 ? p : null;
};

// ---- HTTP ----------------------------------------------------------------------------------------
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2' };
const json = (res, status, body) => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};
const authed = (req) => verify((req.headers.authorization ?? '').replace(/^Bearer /, ''));
const serveFile = (res, file) => {
  res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
};

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const path = url.pathname;
  if (path === '/api/auth/login' && req.method === 'POST') {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      let b = {};
      try {
        b = JSON.parse(body);
      } catch {
        return json(res, 400, { error: 'badRequest', message: 'invalid json' });
      }
      if (b.email !== USER.email || b.password !== USER.password) return json(res, 401, { error: 'incorrectCredentials', message: 'wrong e-mail or password' });
      const exp = Math.floor(Date.now() / 1000) + 12 * 3600;
      json(res, 200, { token: sign({ sub: USER.userId, company: USER.companyId, role: 2, exp }), userId: USER.userId,
        companyId: USER.companyId, companyName: USER.companyName, role: 2, expiresAt: exp });
    });
    return;
  }
  if (path.startsWith('/api/')) {
    if (!authed(req)) return json(res, 401, { error: 'unauthorized', message: 'no or bad token' });
    if (path === '/api/userDevices') return json(res, 200, devices);
    if (path === '/api/deviceConfCompany')
      return json(res, 200, devices.map((d) => ({ ...confOf(d), deviceId: { $oid: d._id.$oid }, company: USER.companyId, imageSaved: false })));
    return json(res, 404, { error: 'notFound', message: path });
  }
  if (path === '/metrics') {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    return res.end('hub_sessions_connected 0\n');
  }
  const file = normalize(join(clientDir, path));
  if (file.startsWith(clientDir) && existsSync(file) && statSync(file).isFile()) return serveFile(res, file);
  if (path.startsWith('/assets/') || path.startsWith('/local/')) return json(res, 404, { error: 'notFound' });
  serveFile(res, join(clientDir, 'index.html'));
});

// ---- WebSocket -----------------------------------------------------------------------------------
const sessions = new Set();
const wss = new WebSocketServer({ server, path: '/ws' });
const send = (ws, event, data) => ws.readyState === 1 && ws.send(encode({ event, data }));
wss.on('connection', (ws) => {
  const s = { ws, auth: null, company: false, users: new Set() };
  const timer = setTimeout(() => {
    if (!s.auth) {
      send(ws, 'error', { error: 'unauthorized', message: 'no authenticate within 5 s' });
      ws.close(4401);
    }
  }, 5000);
  ws.on('message', (raw) => {
    let m;
    try {
      m = decode(raw);
    } catch {
      return;
    }
    if (!s.auth) {
      const p = m?.event === 'authenticate' ? verify(m.data?.token) : null;
      if (!p) {
        send(ws, 'error', { error: 'unauthorized', message: 'authenticate first' });
        return ws.close(4401);
      }
      clearTimeout(timer);
      s.auth = p;
      sessions.add(s);
      return send(ws, 'authenticated', { userId: p.sub, companyId: p.company });
    }
    const id = m.data?.deviceId;
    switch (m.event) {
      case 'joinCompany':
        s.company = true;
        for (const d of devices) send(ws, 'deviceConf', confOf(d));
        break;
      case 'joinUser':
        if (!state.has(id)) return send(ws, 'error', { error: 'deviceNotFound', message: String(id) });
        s.users.add(id);
        break;
      case 'leaveUser':
        s.users.delete(id);
        break;
      case 'startStreaming':
        break;
      default:
        break;
    }
  });
  ws.on('close', () => {
    clearTimeout(timer);
    sessions.delete(s);
  });
});

const broadcastConf = (d) => {
  const conf = confOf(d);
  for (const s of sessions) if (s.company) send(s.ws, 'deviceConf', conf);
};

// Devices come online one by one within a few seconds; statuses then drift now and then.
devices.forEach((d, i) => {
  if (d.deviceType === 'Room Set') return;
  setTimeout(() => {
    const s = state.get(d._id.$oid);
    s.functional = d.name !== 'FLOOR-01';
    s.patientStatus = d.name === 'SEAT-IOT-01' ? 'Missing' : d.name === 'POD-IOT-01' ? 'Ulcer Risk' : 'Correct';
    broadcastConf(d);
    if (d.parent) broadcastConf(devices.find((p) => p._id.$oid === d.parent.$oid));
  }, 800 + i * 250);
});

// Live maps at 10 fps: a body-shaped pressure blob that breathes and shifts.
const t0 = Date.now();
setInterval(() => {
  const now = Date.now();
  const t = (now - t0) / 1000;
  for (const d of devices) {
    const size = SIZES[d.deviceType];
    const s = state.get(d._id.$oid);
    if (!size || !s.functional) continue;
    s.seq += 1;
    const cells = new Uint8Array(size * size);
    const cx = size * (0.5 + 0.08 * Math.sin(t / 3));
    const blobs = [
      [cx, size * 0.22, size * 0.1, 170], // head / upper
      [cx, size * 0.5, size * 0.16, 230], // hips
      [cx - size * 0.1, size * 0.78, size * 0.07, 150],
      [cx + size * 0.1, size * 0.8, size * 0.07, 160],
    ];
    for (let y = 0; y < size; y++)
      for (let x = 0; x < size; x++) {
        let v = 0;
        for (const [bx, by, r, a] of blobs) v += a * Math.exp(-((x - bx) ** 2 + ((y - by) * 0.8) ** 2) / (2 * r * r));
        v *= 0.85 + 0.15 * Math.sin(t * 1.3 + x / 7);
        cells[y * size + x] = v < 8 ? 0 : Math.min(255, Math.round(v));
      }
    const msg = { deviceId: d._id.$oid, seq: s.seq, deviceTimeMs: now - 3, hubTimeMs: now, rows: size, cols: size,
      bytesPerCell: 1, cells, presence: s.patientStatus === 'Correct' ? 'PRESENCE' : 'ABSENCE', blank: false };
    for (const ss of sessions) if (ss.users.has(d._id.$oid)) send(ss.ws, 'pressureMap_SAToFront', msg);
  }
}, 100);

server.listen(Number(portText), host, () => {
  const a = server.address();
  console.log(`listening http=http://${a.address}:${a.port}`);
});
const stop = () => {
  for (const c of wss.clients) c.terminate();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 500).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
