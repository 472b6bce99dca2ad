// CPU time of processes from /proc (Linux): one process, and a headless Chromium's processes by
// kind (browser, renderer, GPU, utility), found as the descendants of the browser process started
// with a given profile directory. For benchmarks: the difference of two snapshots over a window is
// each kind's CPU share (1.0 = one core busy all the time).

import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function statFields(pid) {
  // The command name may hold spaces and parentheses: the fields start after the last ') '.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
}

/** CPU seconds (user + system) of a process so far. */
export function cpuSeconds(pid) {
  const f = statFields(pid);
  return (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND;
}

function processes() {
  const out = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const f = statFields(name);
      // Zygote-forked processes rewrite their title: arguments may be joined by spaces, not NULs.
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').split(/[\0 ]/);
      out.push({ pid: Number(name), ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND, cmdline });
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

/** The kind of a Chromium process from its `--type=` switch (none: the browser process). */
function kindOf(cmdline) {
  const type = cmdline.find((a) => a.startsWith('--type='))?.slice('--type='.length);
  if (!type) return 'browser';
  if (type === 'gpu-process') return 'gpu';
  if (type === 'renderer') return 'renderer';
  if (type === 'zygote') return 'zygote';
  return 'utility';
}

/**
 * CPU seconds so far of the Chromium started with `--user-data-dir=<profileDir>` and of all its
 * descendants, per kind; `renderers` lists each renderer process (the page's is the busiest).
 */
export function chromiumCpu(profileDir) {
  const all = processes();
  const root = all.find((p) => p.cmdline.includes(`--user-data-dir=${profileDir}`) && !p.cmdline.some((a) => a.startsWith('--type=')));
  if (!root) throw new Error(`no Chromium with the profile ${profileDir}`);
  const children = new Map();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const byKind = { browser: 0, renderer: 0, gpu: 0, utility: 0, zygote: 0 };
  const renderers = {};
  const stack = [root];
  while (stack.length) {
    const p = stack.pop();
    const kind = kindOf(p.cmdline);
    byKind[kind] += p.cpu;
    if (kind === 'renderer') renderers[p.pid] = p.cpu;
    stack.push(...(children.get(p.pid) ?? []));
  }
  return { byKind, renderers };
}

/** CPU share per kind between two `chromiumCpu` snapshots taken `seconds` apart. */
export function chromiumShare(before, after, seconds) {
  const share = {};
  for (const kind of Object.keys(after.byKind)) share[kind] = (after.byKind[kind] - (before.byKind[kind] ?? 0)) / seconds;
  // The page's renderer: the one that used the most CPU in the window.
  share.pageRenderer = Math.max(0, ...Object.entries(after.renderers).map(([pid, cpu]) => (cpu - (before.renderers[pid] ?? cpu)) / seconds));
  return share;
}
