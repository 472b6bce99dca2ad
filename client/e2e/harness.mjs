// The browser-tour harness: starts the real hub binary on loopback (free ports, its own temporary
// data directory, demo data and simulated devices) and a real headless Chromium (Debian's package,
// driven by playwright-core), then hands both to a tour. Installs nothing.
//
// A tour is a module in e2e/tours/ exporting
//   name       – a short name (used for screenshots: artifacts/e2e/<name>/…)
//   hubArgs    – optional extra hub arguments (array)
//   hubEnv     – optional extra environment for the hub (object)
//   locale     – optional browser locale (default en-US)
//   expectedSeconds – optional, about how long the tour takes: with E2E_JOBS above 1, run.mjs
//                starts the longest first so the pool ends together
//   start(dir) – optional: starts the tour's own target instead of one hub (e.g. e2e/cluster.mjs's
//                cluster behind HAProxy); resolves { hub, state: { stderr }, base, ... } where `hub`
//                is the process stopped at the end; the whole object is handed to run as `target`
//   run(t)     – async; t = { base, page, context, newPage, test, ok, shot, login, log, artifacts,
//                hub, target }
// Each tour gets its own hub and browser profile, so tours cannot disturb each other.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const CLIENT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_DIR = resolve(CLIENT_DIR, '..');
export const DIST_DIR = join(CLIENT_DIR, 'dist');
export const ARTIFACTS = join(REPO_DIR, 'artifacts', 'e2e');
// HUB_BIN is taken as a shell would (relative to the current directory, or looked up on PATH when it
// has no slash); the default is ../target/debug/hub relative to client/.
export const HUB_BIN = process.env.HUB_BIN
  ? process.env.HUB_BIN.includes('/')
    ? resolve(process.cwd(), process.env.HUB_BIN)
    : process.env.HUB_BIN
  : resolve(CLIENT_DIR, '../target/debug/hub');
export const CHROMIUM_BIN = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
const HUB_START_TIMEOUT_MS = 90_000;
export const DEMO_STAFF = { email: 'demo@example.com', password: 'demo1234' };
export const DEMO_ADMIN = { email: 'admin@example.com', password: 'admin1234' };

export const log = (...a) => console.log(...a);

/** Starts the hub and resolves with its base URL once it prints `listening http=...`. */
export function startHub(dataDir, { args: extraArgs = [], env: extraEnv = {} } = {}) {
  return new Promise((resolvePromise, reject) => {
    const args = [
      '--demo',
      '--data',
      dataDir,
      '--http',
      '127.0.0.1:0',
      '--quic',
      '127.0.0.1:0',
      '--client-dir',
      DIST_DIR,
      ...extraArgs,
    ];
    log(`# starting ${HUB_BIN} ${args.join(' ')}`);
    const hub = spawn(HUB_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...extraEnv } });
    const state = { hub, stderr: '' };
    let settled = false;
    let stdoutBuf = '';
    const fail = (msg) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(Object.assign(new Error(msg), { hubStderr: state.stderr }));
    };
    const timer = setTimeout(
      () => fail(`hub did not print "listening http=..." within ${HUB_START_TIMEOUT_MS / 1000} s`),
      HUB_START_TIMEOUT_MS,
    );
    hub.on('error', (err) => fail(`could not start hub ${HUB_BIN}: ${err.message}`));
    hub.on('exit', (code, signal) => fail(`hub exited early (code ${code}, signal ${signal})`));
    hub.stderr.setEncoding('utf8');
    hub.stderr.on('data', (chunk) => {
      state.stderr += chunk;
      if (state.stderr.length > 200_000) state.stderr = state.stderr.slice(-100_000);
    });
    hub.stdout.setEncoding('utf8');
    hub.stdout.on('data', (chunk) => {
      if (settled) return;
      stdoutBuf += chunk;
      const m = /listening http=(\S+)/.exec(stdoutBuf);
      if (m) {
        settled = true;
        clearTimeout(timer);
        let base = m[1];
        if (!/^https?:\/\//.test(base)) base = `http://${base}`;
        resolvePromise({ ...state, state, base: base.replace(/\/$/, '') });
      }
    });
  });
}

export function stopProcess(child) {
  return new Promise((res) => {
    if (child.exitCode !== null || child.signalCode !== null) return res();
    const force = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(force);
      res();
    });
    child.kill('SIGTERM');
  });
}

export async function launchBrowser(profile, locale = 'en-US') {
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_BIN,
    headless: false, // --headless=new is passed below, as Debian's chromium wants it
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--enable-unsafe-swiftshader',
      '--hide-scrollbars',
    ],
    viewport: { width: 1280, height: 860 },
    locale,
    acceptDownloads: true,
  });
}

/** Signs in through the login form and waits for /devices. */
export async function login(page, base, { email, password } = DEMO_STAFF) {
  await page.goto(`${base}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
  await page.waitForURL((u) => u.pathname === '/devices');
}

/**
 * Closes the toasts a page still shows. One that leaves by itself meanwhile is not waited for: a
 * click on a toast that is gone would wait the page's whole 30 s default timeout.
 */
export async function dismissToasts(page) {
  const close = page.locator('.toast-close');
  for (let i = 0; i < 20 && (await close.count()) > 0; i++) await close.first().click({ timeout: 1_000 }).catch(() => {});
}

/**
 * Runs one tour module with its own hub and browser. Returns { passed, failed }. Each `test` inside
 * the tour is counted; a thrown error fails that test and skips its remaining checks.
 */
export async function runTour(mod) {
  const counts = { passed: 0, failed: 0 };
  const cleanups = [];
  const dir = join(ARTIFACTS, mod.name);
  mkdirSync(dir, { recursive: true });
  const consoleErrors = [];
  // The hub's Content-Security-Policy must never block the app: a violation fails the tour.
  const cspViolations = [];
  let hubState = null;
  log(`\n## tour ${mod.name}`);
  try {
    const dataDir = mkdtempSync(join(tmpdir(), 'hub-e2e-data-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const started = mod.start ? await mod.start(dataDir) : await startHub(dataDir, { args: mod.hubArgs ?? [], env: mod.hubEnv ?? {} });
    hubState = started.state;
    cleanups.unshift(() => stopProcess(started.hub));
    const { base } = started;
    log(`# hub listening at ${base}`);
    const profile = mkdtempSync(join(tmpdir(), 'hub-e2e-chromium-'));
    cleanups.push(() => rmSync(profile, { recursive: true, force: true }));
    const context = await reportCspViolations(await launchBrowser(profile, mod.locale ?? 'en-US'));
    cleanups.unshift(() => context.close().catch(() => {}));
    const watch = (p) => {
      p.on('console', (m) => {
        if (m.type() === 'error') consoleErrors.push(m.text());
        if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
      });
      p.on('pageerror', (e) => consoleErrors.push(String(e)));
      p.setDefaultTimeout(30_000);
      return p;
    };
    const page = watch(context.pages()[0] ?? (await context.newPage()));
    /** A second, independent browser (its own profile and storage), e.g. a second nurse. */
    const newBrowser = async (locale) => {
      const p2 = mkdtempSync(join(tmpdir(), 'hub-e2e-chromium-'));
      cleanups.push(() => rmSync(p2, { recursive: true, force: true }));
      const ctx2 = await reportCspViolations(await launchBrowser(p2, locale ?? mod.locale ?? 'en-US'));
      cleanups.unshift(() => ctx2.close().catch(() => {}));
      return { context: ctx2, page: watch(ctx2.pages()[0] ?? (await ctx2.newPage())) };
    };
    const test = async (name, fn) => {
      log(`\n# ${mod.name}: ${name}`);
      // Each test's wall time, so a slow tour says which of its steps is slow.
      const started = Date.now();
      const took = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
      try {
        await fn((msg) => log(`  ok - ${msg} [${took()}]`));
        counts.passed += 1;
        log(`PASS ${mod.name}: ${name} (${took()})`);
      } catch (err) {
        counts.failed += 1;
        log(`  not ok - ${err instanceof Error ? err.message.split('\n')[0] : err}`);
        log(`FAIL ${mod.name}: ${name} (${took()})`);
        await page.screenshot({ path: join(dir, `FAILED-${name.replace(/[^a-z0-9]+/gi, '-')}.png`), fullPage: true }).catch(() => {});
      }
    };
    const shot = (file, p = page) => p.screenshot({ path: join(dir, file), fullPage: true });
    await mod.run({
      base,
      page,
      context,
      newBrowser,
      test,
      shot,
      log,
      artifacts: dir,
      hub: started.hub,
      target: started,
      login: (p = page, who = DEMO_STAFF) => login(p, base, who),
    });
  } catch (err) {
    counts.failed += 1;
    console.error(`\nerror in tour ${mod.name}: ${err instanceof Error ? err.message : err}`);
  }
  if (cspViolations.length) {
    counts.failed += 1;
    log(`\nFAIL ${mod.name}: ${cspViolations.length} Content Security Policy violation(s):\n${[...new Set(cspViolations)].map((e) => `#   ${e}`).join('\n')}`);
  }
  const relevant = consoleErrors.filter((e) => !/favicon/.test(e));
  if (relevant.length) log(`\n# ${mod.name}: browser console errors:\n${relevant.map((e) => `#   ${e}`).join('\n')}`);
  if (counts.failed > 0 && hubState?.stderr.trim()) {
    console.error(`\n# hub stderr (last 4000 chars):\n${hubState.stderr.slice(-4000).trimEnd()}`);
  }
  for (const fn of cleanups) {
    try {
      await fn();
    } catch {
      // keep cleaning up
    }
  }
  return counts;
}

/**
 * Makes every page of `context` report a `securitypolicyviolation` on the console (Chromium also
 * logs its own "Refused to …" line), where the tour's watcher counts it. Returns the context.
 */
async function reportCspViolations(context) {
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`Content Security Policy violation: ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  return context;
}

export function checkPrerequisites() {
  if (!existsSync(join(DIST_DIR, 'index.html'))) throw new Error(`${DIST_DIR}/index.html missing: run \`npm run build\` first`);
  if (!existsSync(CHROMIUM_BIN)) throw new Error(`${CHROMIUM_BIN} missing (apt-get install -y chromium)`);
  mkdirSync(ARTIFACTS, { recursive: true });
}
