// Browser tours in real headless Chromium (Debian's package, driven by playwright-core) against the
// hub binary with demo data and simulated devices. Every module in e2e/tours/ is one tour with its
// own hub and browser (see harness.mjs). Screenshots go to <repo>/artifacts/e2e/<tour>/.
//
//   HUB_BIN=/path/to/hub  CHROMIUM_BIN=/usr/bin/chromium  node e2e/run.mjs [tour-name ...]
//
// Prints each check and ends with `N passed, M failed`; exits non-zero on any failure.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLIENT_DIR, checkPrerequisites, runTour } from './harness.mjs';

const only = process.argv.slice(2);
let passed = 0;
let failed = 0;
// Each tour's wall time, printed at the end so a slow run says where its time went.
const times = [];
try {
  checkPrerequisites();
  const dir = join(CLIENT_DIR, 'e2e', 'tours');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.mjs'))
    .sort();
  for (const file of files) {
    const mod = await import(pathToFileURL(join(dir, file)).href);
    if (only.length && !only.includes(mod.name)) continue;
    const started = Date.now();
    const r = await runTour(mod);
    passed += r.passed;
    failed += r.failed;
    times.push([mod.name, (Date.now() - started) / 1000]);
  }
} catch (err) {
  console.error(`\nerror: ${err instanceof Error ? err.message : err}`);
  failed += 1;
}
console.log('\ntime per tour:');
for (const [name, secs] of times.sort((a, b) => b[1] - a[1])) console.log(`  ${secs.toFixed(0).padStart(5)} s  ${name}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
