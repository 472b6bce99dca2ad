// Benchmark (not a test): the ward board with 100 live tiles at 10 Hz in headless Chromium.
// Starts the hub (demo data) and registers 100 mattresses in unit "Bench · 1", runs the simulator
// binary as those 100 devices over the hub's WebSocket ingest at a fixed 10 Hz (a patient in bed),
// opens /ward/Bench · 1 at 2560 × 1440 and measures, over a window:
//   - the interval between animation frames (p50, p95, max) — a frame whose work overruns 16.7 ms
//     shows here;
//   - the main thread's busy share (Chromium's TaskDuration over wall time, CDP Performance);
//   - the tile texture uploads per second (each tile uploads only for a new frame);
//   - the hub's CPU share with the board open, and again with the board closed (its cost of
//     serving the board's 100 subscriptions is the difference).
//
//   cd client && npm run build && HUB_BIN=../target/debug/hub node e2e/bench/ward-board.mjs [seconds]
//
// Prints one JSON object. Results and the machine they came from: docs/performance.md.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CLIENT_DIR, DEMO_ADMIN, launchBrowser, login, startHub, stopProcess } from '../harness.mjs';

const TILES = 100;
const HZ = 10;
const WINDOW_S = Number(process.argv[2] ?? 20);
const SIMULATOR = process.env.SIMULATOR_BIN ?? resolve(CLIENT_DIR, '../target/debug/simulator');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** CPU seconds (user + system) of a process so far, from /proc. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function hubCpuShare(pid, seconds) {
  const c0 = cpuSeconds(pid);
  const t0 = performance.now();
  await sleep(seconds * 1000);
  return (cpuSeconds(pid) - c0) / ((performance.now() - t0) / 1000);
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

const data = mkdtempSync(join(tmpdir(), 'ward-bench-'));
const profile = mkdtempSync(join(tmpdir(), 'ward-bench-chromium-'));
const cleanups = [() => rmSync(data, { recursive: true, force: true }), () => rmSync(profile, { recursive: true, force: true })];
try {
  const started = await startHub(data);
  cleanups.unshift(() => stopProcess(started.hub));
  const { base } = started;

  const { token } = await (
    await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(DEMO_ADMIN) })
  ).json();
  const fleet = [];
  for (let i = 0; i < TILES; i++) {
    const res = await fetch(`${base}/api/deviceandconfRegistration`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({
        hardwareSerial: `BENCH-${String(i).padStart(3, '0')}`,
        name: `Bench ${i}`,
        deviceType: 'Mattress Mat IoT',
        building: 'Bench',
        floor: '1',
        room: String(100 + Math.floor(i / 2)),
        bed: i % 2 ? 'B' : 'A',
        added_by: 'Demo Clinic',
      }),
    });
    if (res.status !== 201) throw new Error(`registration ${i}: ${res.status} ${await res.text()}`);
    const d = await res.json();
    fleet.push({ serial: d.hardwareSerial, secret: d.deviceSecret, deviceType: 'Mattress Mat IoT', rows: 48, cols: 48, deviceId: d.id });
  }
  const fleetFile = join(data, 'bench-devices.json');
  writeFileSync(fleetFile, JSON.stringify(fleet));
  const sim = spawn(SIMULATOR, ['--hub-ws', `${base.replace(/^http/, 'ws')}/ingest`, '--devices', fleetFile, '--rate', String(HZ), '--scenario', 'bed', '--ramp', '5s', '--quiet'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  cleanups.unshift(() => stopProcess(sim));
  await sleep(8000);

  const context = await launchBrowser(profile);
  cleanups.unshift(() => context.close().catch(() => {}));
  const page = context.pages()[0] ?? (await context.newPage());
  await page.setViewportSize({ width: 2560, height: 1440 });
  await login(page, base);
  await page.goto(`${base}/ward/${encodeURIComponent('Bench · 1')}`);
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="ward-tile"]').length >= n, TILES, { timeout: 60_000 });
  await page.waitForSelector('.ward-canvas-host[data-renderer="pixi-webgl"]', { timeout: 30_000 });
  await page.waitForFunction(
    (n) => [...document.querySelectorAll('[data-testid="ward-tile-map"]')].filter((m) => m.dataset.blank === 'false').length >= n,
    Math.floor(TILES * 0.9),
    { timeout: 60_000 },
  );
  await sleep(3000);

  const uploads = () => page.$$eval('[data-testid="ward-tile-map"]', (els) => els.reduce((n, el) => n + Number(el.dataset.uploads ?? 0), 0));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const metric = async (name) => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === name)?.value ?? 0;
  await page.evaluate(() => {
    window.__frames = [];
    let last = performance.now();
    const tick = (t) => {
      window.__frames.push(t - last);
      last = t;
      if (window.__frames.length < 100_000) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const u0 = await uploads();
  const task0 = await metric('TaskDuration');
  const hubOpen = await hubCpuShare(started.hub.pid, WINDOW_S);
  const task1 = await metric('TaskDuration');
  const u1 = await uploads();
  const frames = (await page.evaluate(() => window.__frames.slice(1))).sort((a, b) => a - b);
  const visibleTiles = await page.$$eval('[data-testid="ward-tile"]', (els) => els.filter((el) => el.getBoundingClientRect().top < window.innerHeight).length);

  // The same hub and devices with the board closed: its subscriptions end.
  await page.goto(`${base}/adminPanel`);
  await sleep(3000);
  const hubClosed = await hubCpuShare(started.hub.pid, WINDOW_S);

  console.log(
    JSON.stringify(
      {
        tiles: TILES,
        rateHz: HZ,
        windowSeconds: WINDOW_S,
        tilesOnScreen: visibleTiles,
        frameIntervalMs: { p50: percentile(frames, 0.5), p95: percentile(frames, 0.95), max: frames.at(-1), frames: frames.length },
        mainThreadBusyShare: (task1 - task0) / WINDOW_S,
        textureUploadsPerSecond: (u1 - u0) / WINDOW_S,
        hubCpuShare: { boardOpen: hubOpen, boardClosed: hubClosed },
      },
      null,
      2,
    ),
  );
} finally {
  for (const fn of cleanups) {
    try {
      await fn();
    } catch {
      // keep cleaning up
    }
  }
}
