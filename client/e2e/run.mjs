// Browser tours in real headless Chromium (Debian's package, driven by playwright-core) against the
// hub binary with demo data and simulated devices. Every module in e2e/tours/ is one tour with its
// own hub and browser (see harness.mjs). Screenshots go to <repo>/artifacts/e2e/<tour>/.
//
//   HUB_BIN=/path/to/hub  CHROMIUM_BIN=/usr/bin/chromium  node e2e/run.mjs [tour-name ...]
//   E2E_JOBS=2 node e2e/run.mjs      # two tours at a time (default 1), each in a process of its own
//
// Prints each check and ends with `N passed, M failed`; exits non-zero on any failure. With
// E2E_JOBS above 1 each tour runs in a child `node e2e/run.mjs TOUR` and its whole output is
// printed when it ends, so tours' lines do not interleave. Tours are independent (their own hub on
// free ports, data directory and browser profile); most of a tour's time is waiting for the hub
// and the simulated patients, which is why two at a time fit on two cores (docs/performance.md,
// "The test suite's time").

import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CLIENT_DIR, checkPrerequisites, runTour } from './harness.mjs';

const only = process.argv.slice(2);
const jobs = Math.max(1, Number.parseInt(process.env.E2E_JOBS ?? '1', 10) || 1);
let passed = 0;
let failed = 0;
// Each tour's wall time, printed at the end so a slow run says where its time went.
const times = [];
const started = Date.now();

/** The tour modules to run, longest first (their `expectedSeconds`), so a pool ends together. */
async function selectedTours() {
  const dir = join(CLIENT_DIR, 'e2e', 'tours');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.mjs'))
    .sort();
  const mods = [];
  for (const file of files) {
    const mod = await import(pathToFileURL(join(dir, file)).href);
    if (only.length && !only.includes(mod.name)) continue;
    mods.push(mod);
  }
  const unknown = only.filter((n) => !mods.some((m) => m.name === n));
  if (unknown.length) throw new Error(`no tour named ${unknown.join(', ')}`);
  return mods;
}

/** Runs one tour in a child process; resolves with its counts once its output is printed. */
function runChild(name) {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), name], {
      cwd: process.cwd(),
      env: { ...process.env, E2E_JOBS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('close', (code, signal) => {
      process.stdout.write(`${out.trimEnd()}\n`);
      const m = /(\d+) passed, (\d+) failed\s*$/.exec(out);
      const counts = m ? { passed: Number(m[1]), failed: Number(m[2]) } : { passed: 0, failed: 1 };
      if (code !== 0 && counts.failed === 0) counts.failed = 1;
      if (!m) console.log(`\nFAIL ${name}: the tour's process ended (code ${code}, signal ${signal}) without its summary`);
      resolvePromise(counts);
    });
  });
}

try {
  checkPrerequisites();
  const mods = await selectedTours();
  if (jobs > 1 && mods.length > 1) {
    console.log(`# ${mods.length} tours, ${jobs} at a time`);
    const queue = [...mods].sort((a, b) => (b.expectedSeconds ?? 0) - (a.expectedSeconds ?? 0));
    const worker = async () => {
      for (let mod = queue.shift(); mod; mod = queue.shift()) {
        const t0 = Date.now();
        const r = await runChild(mod.name);
        passed += r.passed;
        failed += r.failed;
        times.push([mod.name, (Date.now() - t0) / 1000]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(jobs, mods.length) }, worker));
  } else {
    for (const mod of mods) {
      const t0 = Date.now();
      const r = await runTour(mod);
      passed += r.passed;
      failed += r.failed;
      times.push([mod.name, (Date.now() - t0) / 1000]);
    }
  }
} catch (err) {
  console.error(`\nerror: ${err instanceof Error ? err.message : err}`);
  failed += 1;
}
console.log('\ntime per tour:');
for (const [name, secs] of times.sort((a, b) => b[1] - a[1])) console.log(`  ${secs.toFixed(0).padStart(5)} s  ${name}`);
if (times.length > 1) console.log(`  ${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s  in all (${jobs} at a time)`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
