// Starts the project's own cluster (scripts/cluster.sh: nats-server, the SurrealDB server, N hubs,
// simulated mats spread over them, HAProxy in front) for a browser tour, on loopback ports of its
// own, and resolves once every part is up. The hub binaries are the ones next to HUB_BIN (its
// target directory's debug/hub, debug/simulator and debug/dbserver).

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { HUB_BIN, REPO_DIR, log } from './harness.mjs';

const START_TIMEOUT_MS = 240_000;

/** Resolves true when nothing listens on 127.0.0.1:`port` (TCP). */
function portFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port base whose TCP ports (NATS base+1, the database base+2, HAProxy base+80/81, hub K's HTTP
 * base+100+K) are free now. cluster.sh lays its ports out from one base; two tours at a time pick
 * different ones.
 */
async function freePortBase(hubs) {
  for (let attempt = 0; attempt < 50; attempt++) {
    // Below Linux's ephemeral range (32768+), where other tours' hubs get their port-0 listeners.
    const base = 20_000 + 400 * Math.floor(Math.random() * 29);
    const ports = [base + 1, base + 2, base + 80, base + 81, ...Array.from({ length: hubs }, (_, i) => base + 101 + i)];
    const free = await Promise.all(ports.map(portFree));
    if (free.every(Boolean)) return base;
  }
  throw new Error('no free port base for the cluster');
}

/** Parses cluster.sh's ready file (`NAME=value` lines). */
export function parseReadyFile(text) {
  const vars = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) vars[m[1]] = m[2];
  }
  return vars;
}

/**
 * Starts `scripts/cluster.sh hubs` with its data under `dataDir`. Resolves
 * { hub: the script's process (SIGTERM stops the whole cluster), state: { stderr }, base: the
 *   browsers' address (HAProxy), stats: HAProxy's statistics page, dir, hubs: [{ name, pid, http }],
 *   matsOf(name): the provisioned mats the simulator runs on that hub }.
 */
export async function startCluster(dataDir, { hubs = 3, matsPerHub = 2 } = {}) {
  const base = await freePortBase(hubs);
  const dir = join(dataDir, 'cluster');
  const ready = join(dataDir, 'cluster.ready');
  const targetDir = dirname(dirname(HUB_BIN));
  const env = {
    ...process.env,
    CLUSTER_DIR: dir,
    CLUSTER_READY_FILE: ready,
    CLUSTER_PORT_BASE: String(base),
    CLUSTER_MATS_PER_HUB: String(matsPerHub),
    CARGO_TARGET_DIR: targetDir,
  };
  log(`# starting scripts/cluster.sh ${hubs} (port base ${base}, binaries in ${targetDir}/debug)`);
  const script = spawn('bash', [join(REPO_DIR, 'scripts', 'cluster.sh'), String(hubs)], { cwd: REPO_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const state = { hub: script, stderr: '' };
  let stdout = '';
  script.stdout.setEncoding('utf8');
  script.stdout.on('data', (c) => (stdout = (stdout + c).slice(-20_000)));
  script.stderr.setEncoding('utf8');
  script.stderr.on('data', (c) => (state.stderr = (state.stderr + c).slice(-100_000)));
  const started = Date.now();
  while (!existsSync(ready)) {
    if (script.exitCode !== null || script.signalCode !== null) {
      throw new Error(`cluster.sh ended (code ${script.exitCode}) before the cluster was up:\n${stdout.slice(-3000)}\n${state.stderr.slice(-3000)}`);
    }
    if (Date.now() - started > START_TIMEOUT_MS) {
      script.kill('SIGTERM');
      throw new Error(`the cluster was not up within ${START_TIMEOUT_MS / 1000} s:\n${stdout.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const vars = parseReadyFile(readFileSync(ready, 'utf8'));
  log(`# cluster up in ${((Date.now() - started) / 1000).toFixed(1)} s: browsers at ${vars.BROWSERS}`);
  const hubList = Array.from({ length: hubs }, (_, i) => ({
    name: `hub-${i + 1}`,
    pid: Number(vars[`HUB_${i + 1}_PID`]),
    http: vars[`HUB_${i + 1}_HTTP`],
  }));
  const matsOf = (name) => JSON.parse(readFileSync(join(vars.CLUSTER_DIR, `mats-${name}.json`), 'utf8'));
  return { hub: script, state, base: vars.BROWSERS, stats: vars.STATS, dir: vars.CLUSTER_DIR, hubs: hubList, matsOf };
}

/**
 * Which hub HAProxy sends the browsers to now: the one server of its backend with a current
 * session (HAProxy's CSV statistics, `scur`), or null when none or several have one.
 */
export async function servingHub(stats) {
  const res = await fetch(`${stats}/;csv`);
  if (!res.ok) throw new Error(`HAProxy statistics answered ${res.status}`);
  const [header, ...rows] = (await res.text()).split('\n');
  const cols = header.replace(/^# /, '').split(',');
  const at = (row, name) => row.split(',')[cols.indexOf(name)];
  const busy = rows.filter((r) => at(r, 'pxname') === 'hubs' && /^hub-\d+$/.test(at(r, 'svname') ?? '') && Number(at(r, 'scur')) > 0);
  return busy.length === 1 ? at(busy[0], 'svname') : null;
}
