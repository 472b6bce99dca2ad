// Tour: every analysis on its own device (issue 21). A patient is registered and selected through
// the REST API, then the hub captures on the demo's simulated devices over the socket, as the
// capture buttons do: a static and a dynamic capture on the seat, the bed, the rehab mat and the
// podology plate, and a balance test on the plate. Each device page then shows its own history
// and draws each result by its device's family: a seat as a seat, a bed as body regions, the
// rehab mat's body centre, the plate's feet and gait; the balance view with its ellipse; the
// video player at each speed.

import { decode, encode } from '@msgpack/msgpack';
import WebSocket from 'ws';

export const name = 'families';

/** A socket client of the hub's browser protocol, for asking for captures as the capture buttons do. */
async function hubSocket(base, token) {
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
async function captureOutcome(socket, deviceId, timeoutMs) {
  const env = await socket.next(
    (e) =>
      (e.event === 'capture' && e.data?.deviceId === deviceId && ['resultsDue', 'failed'].includes(e.data.phase)) ||
      (e.event === 'error' && typeof e.data?.error === 'string'),
    timeoutMs,
    'the capture outcome',
  );
  return env.event === 'capture' ? env.data.phase : `refused: ${env.data.error}`;
}

async function api(page, path, init = {}) {
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


const DEVICES = [
  { type: 'Seating Mat IoT', route: '/SeatingMatIoT', key: 'seat', dynamic: 'seatingDynamic' },
  { type: 'Mattress Mat IoT', route: '/mattressMatIoT', key: 'bed', dynamic: 'seatingDynamic' },
  { type: 'Rehab Mat', route: '/RehabMat', key: 'rehab', dynamic: 'Rehab' },
  { type: 'Podology IoT', route: '/PodiatryIoT', key: 'plate', dynamic: 'Dynamic' },
];

async function capture(socket, deviceId, patientId, analysisType, seconds) {
  let outcome = '';
  for (let attempt = 0; attempt < 20; attempt++) {
    socket.send('startCapture', seconds ? { deviceId, analysisType, seconds, patientId } : { deviceId, analysisType, patientId });
    outcome = await captureOutcome(socket, deviceId, 90_000);
    if (outcome === 'resultsDue') return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${analysisType} capture on ${deviceId}: ${outcome}`);
}

export async function run({ base, page, test, login, artifacts }) {
  const shotOf = (testId, file) => page.getByTestId(testId).screenshot({ path: `${artifacts}/${file}` });
  const ids = {};

  await test('captures on each device', async (ok) => {
    await login();
    const userId = await page.evaluate(() => localStorage.getItem('userId'));
    const token = await page.evaluate(() => localStorage.getItem('user'));
    const devices = (await api(page, '/api/userDevices')).body;
    for (const d of DEVICES) {
      const found = devices.find((x) => x.deviceType === d.type);
      if (!found) throw new Error(`no ${d.type} in the demo`);
      ids[d.key] = found._id.$oid;
    }
    const created = await api(page, `/api/podometry/patients/${userId}`, {
      method: 'POST',
      body: JSON.stringify({ name: 'Rosa Families', weight: 72, height: 165, gender: 'Female', agreeDataTreatment: true }),
    });
    if (created.status !== 201) throw new Error(`patient not created: ${created.status}`);
    const patientId = created.body._id.$oid;
    await api(page, `/api/podometry/patient/select/${userId}`, { method: 'PUT', body: JSON.stringify({ patientId }) });
    const socket = await hubSocket(base, token);
    try {
      for (const d of DEVICES) await capture(socket, ids[d.key], patientId, 'Static');
      ok('a static capture on the seat, the bed, the rehab mat and the plate');
      await capture(socket, ids.plate, patientId, 'Balance');
      ok('a balance test on the plate');
      for (const d of DEVICES) await capture(socket, ids[d.key], patientId, 'Dynamic', 15);
      ok('a 15 s dynamic capture on each');
    } finally {
      socket.close();
    }
    await page.waitForTimeout(1500);
  });

  for (const d of DEVICES) {
    await test(`${d.key}: its own history and results`, async (ok) => {
      await page.goto(`${base}/devices`);
      await page.locator(`[data-testid="device-card"][data-device-type="${d.type}"]`).first().click();
      await page.waitForURL((u) => u.pathname === d.route);
      await page.getByTestId('history-card').first().waitFor();
      const types = await page.getByTestId('history-card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-analysis-type')));
      const expected = d.key === 'plate' ? ['Dynamic', 'Balance', 'Static'] : [d.dynamic, 'Static'];
      if (JSON.stringify(types) !== JSON.stringify(expected)) throw new Error(`history lists ${types.join(', ')}, expected ${expected.join(', ')}`);
      ok(`the history lists this device's analyses only: ${types.join(', ')}`);
      for (const kind of ['Static', d.dynamic]) {
        await page.locator(`[data-testid="history-card"][data-analysis-type="${kind}"]`).first().getByTestId('history-open').click();
        const preview = page.locator(`[data-testid="result-preview"][data-analysis-type="${kind}"]`);
        await preview.waitFor();
        const shownAs = await preview.getAttribute('data-device-type');
        if (shownAs !== d.type) throw new Error(`${kind} drawn as ${shownAs}`);
        if ((await page.getByTestId('figures-unavailable').count()) !== 0) throw new Error(`${kind}: no figures`);
        const text = await preview.textContent();
        if (d.key !== 'plate' && d.key !== 'rehab' && /foot|rocker/i.test(text ?? '')) throw new Error(`${kind} on the ${d.key} talks about feet: ${text}`);
        await page.waitForTimeout(400);
        await shotOf('result-preview', `${d.key}-${kind}.png`);
        ok(`${kind} drawn as ${shownAs}`);
        await page.getByTestId('result-close').click();
      }
    });
  }

  await test('plate: balance view and the player at each speed', async (ok) => {
    await page.goto(`${base}/devices`);
    await page.locator('[data-testid="device-card"][data-device-type="Podology IoT"]').first().click();
    await page.getByTestId('history-card').first().waitFor();
    await page.locator('[data-testid="history-card"][data-analysis-type="Balance"]').first().getByTestId('history-open').click();
    await page.getByTestId('balance-body-ellipse').waitFor();
    ok('the body 95 % ellipse is drawn');
    await shotOf('result-preview', 'plate-balance.png');
    await page.getByTestId('result-close').click();
    await page.locator('[data-testid="history-card"][data-analysis-type="Dynamic"]').first().getByTestId('history-open').click();
    const player = page.getByTestId('player');
    await player.waitFor();
    const labels = await page.locator('[data-testid="player-speed"] option').allTextContents();
    if (labels.join() !== '1,2,3') throw new Error(`speeds ${labels}`);
    const rates = [];
    for (const label of labels) {
      await page.getByTestId('player-speed').selectOption({ label });
      await page.getByRole('button', { name: 'First frame' }).click();
      await page.getByTestId('player-play').click();
      await page.waitForTimeout(1000);
      rates.push(Number(await player.getAttribute('data-index')));
      await shotOf('result-preview', `player-speed-${label}.png`);
      const pause = page.getByTestId('player-pause');
      if (await pause.count()) await pause.click();
    }
    if (!(rates[0] < rates[1] && rates[1] < rates[2])) throw new Error(`frames after 1 s at speeds 1, 2, 3: ${rates}`);
    ok(`frames after 1 s at speeds 1, 2, 3: ${rates.join(', ')}`);
  });
}
