// Where a headless Chromium's time goes, from a Chrome trace taken over CDP (`Tracing`): each
// thread's busy share (the union of its top-level tasks over the window) and, per thread, the
// events that took the most time (inclusive, so nested events overlap). For benchmarks.

/** Categories that give every thread's top-level tasks and the renderer's frame stages. */
export const TRACE_CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink',
  'cc',
  'viz',
  'gpu',
  'v8',
].join(',');

/** Records a trace of `run()` through a CDP session; resolves with its events. */
export async function traceWhile(cdp, run) {
  await cdp.send('Tracing.start', { categories: TRACE_CATEGORIES, transferMode: 'ReturnAsStream' });
  const result = await run();
  const complete = new Promise((res) => cdp.once('Tracing.tracingComplete', res));
  await cdp.send('Tracing.end');
  const { stream } = await complete;
  let text = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream, size: 1 << 20 });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  const parsed = JSON.parse(text);
  return { result, events: Array.isArray(parsed) ? parsed : parsed.traceEvents };
}

function unionLength(intervals) {
  intervals.sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = -Infinity;
  for (const [s, e] of intervals) {
    if (e <= end) continue;
    total += e - Math.max(s, end);
    end = e;
  }
  return total;
}

/**
 * Per thread: its process's and its own name, its busy share (top-level tasks' union over the
 * traced span) and its `top` events by inclusive time. Threads busy less than `minShare` are left out.
 */
export function threadShares(events, { top = 8, minShare = 0.01 } = {}) {
  const processNames = new Map();
  const threadNames = new Map();
  const threads = new Map();
  let first = Infinity;
  let last = -Infinity;
  for (const e of events) {
    if (e.ph === 'M') {
      if (e.name === 'process_name') processNames.set(e.pid, e.args?.name);
      if (e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, e.args?.name);
      continue;
    }
    if (e.ph !== 'X' || typeof e.dur !== 'number') continue;
    first = Math.min(first, e.ts);
    last = Math.max(last, e.ts + e.dur);
    const key = `${e.pid}:${e.tid}`;
    let t = threads.get(key);
    if (!t) {
      t = { pid: e.pid, tid: e.tid, toplevel: [], byName: new Map() };
      threads.set(key, t);
    }
    if (String(e.cat).split(',').includes('toplevel')) t.toplevel.push([e.ts, e.ts + e.dur]);
    t.byName.set(e.name, (t.byName.get(e.name) ?? 0) + e.dur);
  }
  const span = last - first;
  const out = [];
  for (const [key, t] of threads) {
    const share = span > 0 ? unionLength(t.toplevel) / span : 0;
    if (share < minShare) continue;
    out.push({
      process: `${processNames.get(t.pid) ?? '?'} ${t.pid}`,
      thread: threadNames.get(key) ?? String(t.tid),
      busyShare: Number(share.toFixed(3)),
      topEventsMsPerSecond: Object.fromEntries(
        [...t.byName.entries()]
          .sort((a, b) => b[1] - a[1])
          .slice(0, top)
          .map(([name, us]) => [name, Number((us / 1000 / (span / 1e6)).toFixed(2))]),
      ),
    });
  }
  out.sort((a, b) => b.busyShare - a.busyShare);
  return { spanSeconds: Number((span / 1e6).toFixed(2)), threads: out };
}
