// A sampled JavaScript CPU profile of a page over CDP (`Profiler`), summarised as the functions
// with the most self time (name, script and line) and the share of samples that were idle,
// garbage collection or the engine's own work. For benchmarks.

export async function profileWhile(cdp, run, { intervalUs = 200 } = {}) {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: intervalUs });
  await cdp.send('Profiler.start');
  const result = await run();
  const { profile } = await cdp.send('Profiler.stop');
  await cdp.send('Profiler.disable');
  return { result, profile };
}

/** Self time per function (ms per second of profile), the `top` first. */
export function selfTimes(profile, { top = 30 } = {}) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]);
    const dt = deltas[i + 1] ?? 0;
    const f = node.callFrame;
    const file = f.url ? f.url.split('/').pop() : '';
    const key = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + dt);
  }
  const seconds = (profile.endTime - profile.startTime) / 1e6;
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const perSecond = (us) => Number((us / 1000 / seconds).toFixed(2));
  const busy = [...self.entries()].filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(program)'));
  return {
    seconds: Number(seconds.toFixed(2)),
    idleShare: Number(((self.get('(idle) :0') ?? 0) / total).toFixed(3)),
    programShare: Number(((self.get('(program) :0') ?? 0) / total).toFixed(3)),
    gcMsPerSecond: perSecond(self.get('(garbage collector) :0') ?? 0),
    jsMsPerSecond: perSecond(busy.reduce((a, [, v]) => a + v, 0)),
    topSelfMsPerSecond: Object.fromEntries(
      busy
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([k, v]) => [k, perSecond(v)]),
    ),
  };
}
