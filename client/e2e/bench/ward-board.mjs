// Benchmark (not a test): the ward board with 100 live tiles at 10 Hz in headless Chromium.
// Starts the hub (demo data) and registers 100 mattresses in unit "Bench · 1", runs the simulator
// binary as those 100 devices over the hub's WebSocket ingest at a fixed 10 Hz (a patient in bed),
// opens /ward/Bench · 1 at 2560 × 1440 and measures, over a window:
//   - the interval between animation frames (p50, p95, p99, max) — a frame whose work overruns
//     16.7 ms shows here;
//   - the main thread's busy share (Chromium's TaskDuration over wall time, CDP Performance);
//   - the CPU share of each kind of Chromium process (/proc): the page's renderer (main thread,
//     compositor, raster), the GPU process (SwiftShader's GL when there is no GPU), the browser;
//   - the tile texture uploads per second (each tile uploads only for a new frame; 1,000 when every
//     frame the devices send reaches the page), the canvas's draws per second and its resolution;
//   - the hub's CPU share with the board open, and again with the board closed (its cost of
//     serving the board's 100 subscriptions is the difference), the simulator's CPU share, and
//     the hub's frame counters per second (/metrics: received, dropped at ingest, delivered to
//     browser sockets, conflated — a newer map replacing an unsent one), which say where frames
//     that never reach the page were lost;
//   - the machine's load average before and after (the figures mean little on a loaded machine).
//
//   cd client && npm run build && HUB_BIN=../target/debug/hub node e2e/bench/ward-board.mjs [seconds]
//
// With BENCH_PROFILE=DIR it then also takes, over 5 s each and after the measured window (so they
// do not weigh on it): a Chrome trace (each thread's busy share and heaviest events), a JavaScript
// CPU profile (self time per function), React commits per second (through the DevTools hook) and
// DOM mutations per second; the raw trace and profile are written to DIR. Build the client with
// `npx vite build --minify false` first to read function names.
//
// Prints one JSON object. Results and the machine they came from: docs/performance.md.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CLIENT_DIR, DEMO_ADMIN, launchBrowser, login, startHub, stopProcess } from '../harness.mjs';
import { profileWhile, selfTimes } from './cpu-profile.mjs';
import { chromiumCpu, chromiumShare, cpuSeconds } from './process-cpu.mjs';
import { threadShares, traceWhile } from './trace-threads.mjs';

const TILES = 100;
const HZ = 10;
const WINDOW_S = Number(process.argv[2] ?? 20);
const PROFILE_DIR = process.env.BENCH_PROFILE ? resolve(process.env.BENCH_PROFILE) : null;
const DIAGNOSTIC_S = 5;
const SIMULATOR = process.env.SIMULATOR_BIN ?? resolve(CLIENT_DIR, '../target/debug/simulator');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const round = (x, digits = 3) => Number(x.toFixed(digits));

async function hubCpuShare(pid, seconds) {
  const c0 = cpuSeconds(pid);
  const t0 = performance.now();
  await sleep(seconds * 1000);
  return (cpuSeconds(pid) - c0) / ((performance.now() - t0) / 1000);
}

/** The hub's counters (`/metrics`, Prometheus text) as { name: value }. */
async function hubCounters(base) {
  const text = await (await fetch(`${base}/metrics`)).text();
  const out = {};
  for (const line of text.split('\n')) {
    const m = /^hub_(\w+)_total (\d+)$/.exec(line);
    if (m) out[m[1]] = Number(m[2]);
  }
  return out;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** Counts React commits from page load on, through the hook React DevTools would use. */
function countReactCommits() {
  window.__reactCommits = 0;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject(renderer) {
      this.renderers.set(this.renderers.size + 1, renderer);
      return this.renderers.size;
    },
    onScheduleFiberRoot() {},
    onCommitFiberRoot() {
      window.__reactCommits += 1;
    },
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    checkDCE() {},
  };
}

const data = mkdtempSync(join(tmpdir(), 'ward-bench-'));
const profile = mkdtempSync(join(tmpdir(), 'ward-bench-chromium-'));
const cleanups = [() => rmSync(data, { recursive: true, force: true }), () => rmSync(profile, { recursive: true, force: true })];
try {
  const loadBefore = loadavg();
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
  if (PROFILE_DIR) await context.addInitScript(countReactCommits);
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
  const draws = () => page.$eval('[data-testid="ward-canvas"]', (el) => Number(el.dataset.draws ?? 0));
  const d0 = await draws();
  const u0 = await uploads();
  const task0 = await metric('TaskDuration');
  const chromium0 = chromiumCpu(profile);
  const sim0 = cpuSeconds(sim.pid);
  const counters0 = await hubCounters(base);
  const t0 = performance.now();
  const hubOpen = await hubCpuShare(started.hub.pid, WINDOW_S);
  const elapsed = (performance.now() - t0) / 1000;
  const chromiumShares = chromiumShare(chromium0, chromiumCpu(profile), elapsed);
  const simulatorShare = (cpuSeconds(sim.pid) - sim0) / elapsed;
  const counters1 = await hubCounters(base);
  const hubFramesPerSecond = Object.fromEntries(
    ['frames_received', 'frames_dropped_ingest', 'frames_delivered', 'frames_conflated'].map((k) => [k, round(((counters1[k] ?? 0) - (counters0[k] ?? 0)) / elapsed, 1)]),
  );
  const task1 = await metric('TaskDuration');
  const u1 = await uploads();
  const d1 = await draws();
  const canvasResolution = await page.$eval('[data-testid="ward-canvas"]', (el) => Number(el.dataset.resolution ?? window.devicePixelRatio));
  const frames = (await page.evaluate(() => window.__frames.slice(1))).sort((a, b) => a - b);
  const visibleTiles = await page.$$eval('[data-testid="ward-tile"]', (els) => els.filter((el) => el.getBoundingClientRect().top < window.innerHeight).length);
  const loadAfterWindow = loadavg();

  let diagnostics = null;
  if (PROFILE_DIR) {
    mkdirSync(PROFILE_DIR, { recursive: true });
    const counters = () =>
      page.evaluate(() => ({ commits: window.__reactCommits ?? 0, mutations: window.__mutations ?? 0, now: performance.now() }));
    await page.evaluate(() => {
      window.__mutations = 0;
      new MutationObserver((records) => {
        window.__mutations += records.length;
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    const c0 = await counters();
    await sleep(DIAGNOSTIC_S * 1000);
    const c1 = await counters();
    const perSecond = (a, b) => round((b - a) / ((c1.now - c0.now) / 1000), 1);
    const { events } = await traceWhile(cdp, () => sleep(DIAGNOSTIC_S * 1000));
    writeFileSync(join(PROFILE_DIR, 'ward-board-trace.json'), JSON.stringify({ traceEvents: events }));
    const { profile: cpuProfile } = await profileWhile(cdp, () => sleep(DIAGNOSTIC_S * 1000));
    writeFileSync(join(PROFILE_DIR, 'ward-board.cpuprofile'), JSON.stringify(cpuProfile));
    diagnostics = {
      reactCommitsPerSecond: perSecond(c0.commits, c1.commits),
      domMutationsPerSecond: perSecond(c0.mutations, c1.mutations),
      trace: threadShares(events),
      javascript: selfTimes(cpuProfile),
    };
  }

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
        frameIntervalMs: {
          p50: round(percentile(frames, 0.5), 1),
          p95: round(percentile(frames, 0.95), 1),
          p99: round(percentile(frames, 0.99), 1),
          max: round(frames.at(-1), 1),
          frames: frames.length,
        },
        mainThreadBusyShare: round((task1 - task0) / WINDOW_S),
        chromiumCpuShare: Object.fromEntries(Object.entries(chromiumShares).map(([k, v]) => [k, round(v)])),
        textureUploadsPerSecond: round((u1 - u0) / WINDOW_S, 1),
        canvasDrawsPerSecond: round((d1 - d0) / WINDOW_S, 1),
        canvasResolution,
        hubCpuShare: { boardOpen: round(hubOpen), boardClosed: round(hubClosed) },
        simulatorCpuShare: round(simulatorShare),
        hubFramesPerSecond,
        loadAverage1m: { before: round(loadBefore[0], 2), afterWindow: round(loadAfterWindow[0], 2), end: round(loadavg()[0], 2) },
        diagnostics,
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
