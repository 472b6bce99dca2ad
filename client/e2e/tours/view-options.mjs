// Tour: the pressure-view options and live streaming on the Mattress Mat IoT page, against the real
// hub with simulated devices. Streaming starts its countdown only after the hub's answer; palettes
// cycle; a threshold zeroes cells; contour and 3-D (a real three.js surface) exclude each other;
// the manual scale is clamped; a reload restores the options from LayoutSettings and resumes the
// stream from the hub; a device that is not connected is refused with its toast.

export const name = 'view-options';

// Records when a `streamingRemaining` answer arrives and when the countdown first appears
// (MessagePack keeps strings as UTF-8, so the event name can be found in the bytes).
const RECORDER = () => {
  window.__view = { remainingAt: [], countdownAt: null };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (ev) => {
        if (!(ev.data instanceof ArrayBuffer)) return;
        const text = new TextDecoder('latin1').decode(new Uint8Array(ev.data));
        if (text.includes('streamingRemaining')) window.__view.remainingAt.push(performance.now());
      });
    }
  };
  new MutationObserver(() => {
    if (window.__view.countdownAt === null && document.querySelector('[data-testid="countdown"]')) {
      window.__view.countdownAt = performance.now();
    }
  }).observe(document, { childList: true, subtree: true });
};

const attr = (page, testId, name) => page.getByTestId(testId).getAttribute(name);

/** Waits until `testId`'s attribute satisfies `predicate`, polled from the tour (the page's
 * strict CSP forbids evaluating a predicate sent as text). */
async function waitAttr(page, testId, name, predicate, arg, timeout = 20_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const left = Math.max(1, deadline - Date.now());
    const v = await page.getByTestId(testId).first().getAttribute(name, { timeout: left }).catch(() => null);
    if (v !== null && v !== undefined && predicate(v, arg)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${name} of ${testId} (last: ${v})`);
    await page.waitForTimeout(100);
  }
}

/** Share of the 3-D canvas's pixels that are drawn (not transparent), read back from WebGL. */
const surfaceCoverage = (page) =>
  page.evaluate(() => {
    const gl = document.querySelector('[data-testid="heatmap"] canvas');
    if (!gl) return 0;
    const c = document.createElement('canvas');
    c.width = gl.width;
    c.height = gl.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(gl, 0, 0);
    const px = ctx.getImageData(0, 0, c.width, c.height).data;
    let drawn = 0;
    const colours = new Set();
    for (let i = 0; i < px.length; i += 4) {
      if (px[i + 3] > 0) {
        drawn++;
        colours.add(`${px[i] >> 4},${px[i + 1] >> 4},${px[i + 2] >> 4}`);
      }
    }
    return { share: drawn / (px.length / 4), colours: colours.size };
  });

async function openMattress(page) {
  const online = page.locator('[data-testid="device-card"][data-device-type="Mattress Mat IoT"][data-status="Correct"]');
  await page.waitForSelector('[data-testid="device-card"][data-device-type="Mattress Mat IoT"]', { timeout: 30_000 });
  const anyMattress = page.locator('[data-testid="device-card"][data-device-type="Mattress Mat IoT"]');
  await ((await online.count()) > 0 ? online : anyMattress).first().click();
  await page.waitForURL((u) => u.pathname === '/mattressMatIoT');
  await waitAttr(page, 'view-options', 'data-state', (v) => v !== 'loading');
}

export async function run({ base, page, context, test, shot, login, log }) {
  await context.addInitScript(RECORDER);
  let deviceId = null;

  await test('streaming starts its countdown only after the hub accepts', async (ok) => {
    await login();
    await openMattress(page);
    await waitAttr(page, 'streaming', 'data-phase', (v) => v === 'idle' || v === 'streaming');
    if ((await attr(page, 'streaming', 'data-phase')) === 'streaming') {
      await page.getByTestId('streaming-button').click();
      await waitAttr(page, 'streaming', 'data-phase', (v) => v === 'idle');
    }
    await page.evaluate(() => {
      window.__view.remainingAt = [];
      window.__view.countdownAt = null;
      window.__view.clickedAt = performance.now();
    });
    await page.getByTestId('streaming-button').click();
    await page.getByTestId('countdown').waitFor({ timeout: 15_000 });
    const v = await page.evaluate(() => window.__view);
    if (!v.remainingAt.length) throw new Error('no streamingRemaining answer arrived');
    if (v.countdownAt < v.remainingAt[0]) throw new Error(`countdown at ${v.countdownAt} before the hub's answer at ${v.remainingAt[0]}`);
    ok(`countdown appeared ${Math.round(v.countdownAt - v.clickedAt)} ms after the click, after the hub's answer (${Math.round(v.remainingAt[0] - v.clickedAt)} ms)`);
    const remaining = Number(await attr(page, 'countdown', 'data-remaining'));
    if (remaining < 180 || remaining > 185) throw new Error(`countdown ${remaining} s`);
    ok(`countdown ${remaining} s (180 s + the hub's 5 s)`);
    await waitAttr(page, 'heatmap', 'data-rows', (v) => Number(v) > 0);
    const [rows, cols] = [await attr(page, 'heatmap', 'data-rows'), await attr(page, 'heatmap', 'data-cols')];
    const shown = await page.getByTestId('map-size').textContent();
    if (shown?.trim() !== `${rows} × ${cols}`) throw new Error(`map size shows "${shown}" for frames of ${rows} × ${cols}`);
    const ratio = await page.getByTestId('heatmap').evaluate((e) => e.style.aspectRatio);
    if (ratio !== `${cols} / ${rows}`) throw new Error(`aspect ratio ${ratio} for ${rows} × ${cols}`);
    ok(`the map is drawn at the frame's ${rows} × ${cols} (renderer ${await attr(page, 'heatmap', 'data-renderer')})`);
    deviceId = await page.evaluate(() => Object.keys(JSON.parse(localStorage.getItem('streamingEndTime') ?? '{}'))[0] ?? null);
    if (!deviceId) throw new Error('no per-device stream end stored');
    ok(`stream end stored for device ${deviceId}`);
    await shot('streaming.png');
  });

  await test('the colour button cycles 13 palettes', async (ok) => {
    const map = page.getByTestId('heatmap');
    const start = Number(await attr(page, 'palette-button', 'data-palette'));
    const seen = [start];
    let before = await map.screenshot();
    let changed = 0;
    for (let i = 1; i <= 13; i++) {
      await page.getByTestId('palette-button').click();
      const idx = Number(await waitAttr(page, 'heatmap', 'data-palette', (v, a) => Number(v) === a, (start + i) % 13));
      seen.push(idx);
      if (i <= 3) {
        await page.waitForTimeout(150);
        const after = await map.screenshot();
        if (!after.equals(before)) changed++;
        before = after;
        if (i === 2) await shot('palette-2.png');
      }
    }
    if (seen[13] !== start) throw new Error(`after 13 clicks the palette is ${seen[13]}, not ${start}`);
    if (new Set(seen).size !== 13) throw new Error(`palettes seen: ${seen.join(',')}`);
    if (changed < 3) throw new Error(`the map looked the same after ${3 - changed} palette change(s)`);
    ok(`13 clicks went ${seen.join(' → ')}, and the map's colours changed each time`);
    // Leave a palette other than the default, to see it restored after the reload.
    await page.getByTestId('palette-button').click();
    await page.getByTestId('palette-button').click();
  });

  await test('a threshold zeroes the cells below it', async (ok) => {
    await waitAttr(page, 'heatmap', 'data-active', (v) => Number(v) > 0, undefined, 30_000);
    const minBefore = Number(await attr(page, 'heatmap', 'data-min-active'));
    ok(`before: ${await attr(page, 'heatmap', 'data-active')} active cells, smallest ${minBefore}`);
    const slider = page.getByTestId('threshold');
    await slider.focus();
    for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
    const value = (await page.getByTestId('threshold-value').textContent())?.trim();
    if (value !== '30') throw new Error(`threshold shows ${value}`);
    // In the sensor's steps, and what that is on this bed (0.4 mmHg a step).
    const inUnit = (await page.getByTestId('threshold-pressure').textContent())?.replace(/\s+/g, ' ');
    if (inUnit !== '(12.0 mmHg)') throw new Error(`threshold in mmHg: ${inUnit}`);
    // Every frame drawn from now on has no cell between 0 and 30.
    for (let k = 0; k < 3; k++) {
      const seq = await attr(page, 'heatmap', 'data-seq');
      await waitAttr(page, 'heatmap', 'data-seq', (v, a) => v !== a, seq);
      const min = Number(await attr(page, 'heatmap', 'data-min-active'));
      if (min !== 0 && min < 30) throw new Error(`a cell of ${min} is drawn under a threshold of 30`);
    }
    const zeroed = Number(await attr(page, 'heatmap', 'data-zeroed'));
    if (minBefore < 30 && zeroed === 0) throw new Error('cells under 30 existed but none was zeroed');
    ok(`threshold 30: smallest drawn cell ${await attr(page, 'heatmap', 'data-min-active')}, ${zeroed} cells zeroed`);
    await shot('threshold-30.png');
  });

  await test('smoothing interpolates and blurs the map', async (ok) => {
    await page.getByTestId('smoothing').selectOption({ label: 'High' });
    await waitAttr(page, 'view-options', 'data-state', (v) => v === 'saved');
    await page.waitForTimeout(300);
    await shot('smoothing-high.png');
    ok('smoothing High (screenshot smoothing-high.png)');
    await page.getByTestId('smoothing').selectOption({ label: 'Off' });
  });

  await test('contour and 3D exclude each other; 3D draws a surface', async (ok) => {
    await page.getByTestId('contour-toggle').check();
    await waitAttr(page, 'heatmap', 'data-mode', (v) => v === 'contour');
    await page.waitForTimeout(500);
    await shot('contour.png');
    ok('contour view');
    await page.getByTestId('3d-toggle').check();
    await waitAttr(page, 'heatmap', 'data-mode', (v) => v === '3d');
    if (await page.getByTestId('contour-toggle').isChecked()) throw new Error('contour still on with 3D');
    ok('3D on turned contour off');
    const kind = await waitAttr(page, 'heatmap', 'data-renderer', (v) => v === 'three-webgl', undefined, 30_000);
    await page.waitForTimeout(800);
    const cover = await surfaceCoverage(page);
    if (cover.share < 0.08 || cover.colours < 8) throw new Error(`3D canvas barely drawn: ${JSON.stringify(cover)}`);
    ok(`3D renderer ${kind}: ${(cover.share * 100).toFixed(0)} % of the canvas drawn in ${cover.colours} colours`);
    await shot('three-d.png');
    const box = await page.getByTestId('heatmap').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 - 40, { steps: 8 });
    await page.mouse.up();
    await page.waitForTimeout(300);
    await shot('three-d-turned.png');
    ok('the surface turns with the mouse');
    await page.getByTestId('contour-toggle').check();
    await waitAttr(page, 'heatmap', 'data-mode', (v) => v === 'contour');
    if (await page.getByTestId('3d-toggle').isChecked()) throw new Error('3D still on with contour');
    ok('contour on turned 3D off');
  });

  await test('manual scale is clamped and used instead of auto scale', async (ok) => {
    await page.getByTestId('manual-scale-toggle').check();
    const input = page.getByTestId('manual-scale-value');
    const setScale = async (text) => {
      await input.fill(text);
      await input.press('Enter');
      return input.inputValue();
    };
    if ((await setScale('5000')) !== '1000') throw new Error('5000 was not clamped to 1000');
    await waitAttr(page, 'heatmap', 'data-scale', (v) => v === '1000');
    ok('5000 → 1000, and the map is scaled to 1000');
    if ((await setScale('')) !== '200') throw new Error('empty did not reset to 200');
    ok('empty → 200');
    if ((await setScale('10')) !== '50') throw new Error('10 was not clamped to 50');
    ok('10 → 50');
    if ((await setScale('330')) !== '350') throw new Error('330 was not put on a step of 50');
    ok('330 → 350');
    await setScale('300');
    await waitAttr(page, 'heatmap', 'data-scale', (v) => v === '300');
    const legend = (await page.getByTestId('map-legend-max').textContent())?.trim();
    // The manual scale is set in sensor steps; the legend says it in the user's unit (issue 22):
    // a bed mat's step is 0.4 mmHg (mat_protocol::scale), so 300 steps are 120 mmHg.
    if (legend?.replace(/\s/g, ' ') !== '120 mmHg') throw new Error(`legend shows ${legend}`);
    ok('manual scale 300 drives the map and its legend (120 mmHg)');
    await shot('manual-scale.png');
  });

  await test('a reload restores the options and resumes the stream from the hub', async (ok) => {
    await waitAttr(page, 'view-options', 'data-state', (v) => v === 'saved');
    const before = {
      palette: await attr(page, 'palette-button', 'data-palette'),
      remaining: Number(await attr(page, 'countdown', 'data-remaining')),
    };
    await page.reload();
    await waitAttr(page, 'view-options', 'data-state', (v) => v === 'ready');
    const palette = await attr(page, 'palette-button', 'data-palette');
    if (palette !== before.palette) throw new Error(`palette ${palette} after reload, was ${before.palette}`);
    const threshold = (await page.getByTestId('threshold-value').textContent())?.trim();
    if (threshold !== '30') throw new Error(`threshold ${threshold} after reload`);
    if (!(await page.getByTestId('contour-toggle').isChecked())) throw new Error('contour lost on reload');
    if (!(await page.getByTestId('manual-scale-toggle').isChecked())) throw new Error('manual scale lost on reload');
    if ((await page.getByTestId('manual-scale-value').inputValue()) !== '300') throw new Error('manual scale value lost');
    ok(`palette ${palette}, threshold 30, contour, manual scale 300 restored from LayoutSettings`);
    await waitAttr(page, 'streaming', 'data-phase', (v) => v === 'streaming');
    const v = await page.evaluate(() => window.__view);
    if (!v.remainingAt.length) throw new Error('the page did not ask the hub for streamingRemaining');
    const remaining = Number(await attr(page, 'countdown', 'data-remaining'));
    if (remaining > before.remaining || remaining < before.remaining - 30) {
      throw new Error(`countdown ${remaining} s after reload, ${before.remaining} s before`);
    }
    ok(`the stream resumed from the hub's streamingRemaining: ${before.remaining} s → ${remaining} s`);
    await waitAttr(page, 'heatmap', 'data-seq', (v) => v !== '');
    await page.waitForTimeout(500);
    await shot('after-reload.png');
  });

  await test('extend restarts the stream when it has less than 180 + 5 s left', async (ok) => {
    await page.waitForTimeout(2500);
    const before = Number(await attr(page, 'countdown', 'data-remaining'));
    await page.getByTestId('streaming-extend').click();
    const after = Number(await waitAttr(page, 'countdown', 'data-remaining', (v, a) => Number(v) > a, before));
    if (after < 183) throw new Error(`countdown ${after} s after extending`);
    ok(`extended: ${before} s → ${after} s`);
    await page.getByTestId('streaming-button').click();
    await waitAttr(page, 'streaming', 'data-phase', (v) => v === 'idle');
    const stored = await page.evaluate((id) => JSON.parse(localStorage.getItem('streamingEndTime') ?? '{}')[id] ?? null, deviceId);
    if (stored !== null) throw new Error('stop left the stored end time');
    ok('stop returns to idle and clears the stored end');
  });

  await test('a device that is not connected is refused with its toast', async (ok) => {
    const adminLogin = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'admin1234' }),
    });
    const { token } = await adminLogin.json();
    const created = await fetch(`${base}/api/deviceandconfRegistration`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ hardwareSerial: 'VIEW-OFFLINE-01', name: 'Bed 199-Z', deviceType: 'Mattress Mat IoT', room: '199', bed: 'Z', added_by: 'Demo Clinic' }),
    });
    if (created.status !== 201) throw new Error(`registering a device answered ${created.status}: ${await created.text()}`);
    ok('registered a mattress that never connects');
    await page.goto(`${base}/devices`);
    const card = page.locator('[data-testid="device-card"]', { hasText: 'Bed 199-Z' });
    await card.waitFor({ timeout: 30_000 });
    await card.click();
    await page.waitForURL((u) => u.pathname === '/mattressMatIoT');
    await waitAttr(page, 'streaming', 'data-phase', (v) => v === 'idle');
    await page.getByTestId('streaming-button').click();
    const toast = page.getByRole('alert').filter({ hasText: 'The device is not connected' });
    await toast.waitFor({ timeout: 15_000 });
    ok(`toast: "${(await toast.textContent())?.replace('×', '').trim()}"`);
    await waitAttr(page, 'streaming', 'data-phase', (v) => v === 'idle');
    if ((await page.getByTestId('countdown').count()) > 0) throw new Error('a countdown runs for a refused stream');
    ok('no countdown for the refused stream');
    await shot('refused.png');
  });

  log('  note - 3D is not restored after a reload: the hub forces is3Dmode false on every save (spec §7)');
}
