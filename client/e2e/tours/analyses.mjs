// Tour: stored analyses in the browser. A patient is registered and selected through the REST API
// (as the patients panel does), then the hub captures real analyses on the simulated podology plate:
// eleven static captures over the socket (`startCapture`, as the capture buttons do) and one 15 s
// dynamic capture through `POST /api/iotRequests/{serial}` (remote activation). The tour then opens
// the podology page and works with the results: static and dynamic previews, the video player,
// notes, history pages, the PDF report and real-scale PDF, both raw exports, and a deletion.

import { readFileSync } from 'node:fs';
import { hubSocket, captureOutcome, api } from '../hub-session.mjs';

import { DEMO_ADMIN } from '../harness.mjs';

export const name = 'analyses';
// About how long this tour takes (2 at a time on 2 cores); e2e/run.mjs starts the longest first.
export const expectedSeconds = 80;

const STATIC_CAPTURES = 11;




async function expectDownload(page, click, pattern) {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), click()]);
  const fileName = download.suggestedFilename();
  if (!pattern.test(fileName)) throw new Error(`download named ${fileName}, expected ${pattern}`);
  const path = await download.path();
  return { fileName, bytes: readFileSync(path) };
}

async function waitForToast(page, text) {
  await page.locator('.toasts .toast', { hasText: text }).first().waitFor({ timeout: 10_000 });
}

export async function run({ base, page, test, shot, login, log, artifacts }) {
  // Full-page shots put the sticky header over the middle of the page; results are shot alone.
  const shotOf = (testId, file) => page.getByTestId(testId).screenshot({ path: `${artifacts}/${file}` });
  let podology = null;
  let expectedTotal = 0;

  await test('captures through the hub', async (ok) => {
    await login();
    const userId = await page.evaluate(() => localStorage.getItem('userId'));
    const token = await page.evaluate(() => localStorage.getItem('user'));
    const devices = await api(page, '/api/userDevices');
    podology = devices.body.find((d) => d.deviceType === 'Podology IoT');
    if (!podology) throw new Error('no Podology IoT device in the demo');
    const deviceId = podology._id.$oid;
    const created = await api(page, `/api/podometry/patients/${userId}`, {
      method: 'POST',
      body: JSON.stringify({ name: 'Ana Tour', weight: 68, height: 171, gender: 'Female', agreeDataTreatment: true }),
    });
    if (created.status !== 201) throw new Error(`patient not created: ${created.status} ${JSON.stringify(created.body)}`);
    const patientId = created.body._id.$oid;
    const selected = await api(page, `/api/podometry/patient/select/${userId}`, { method: 'PUT', body: JSON.stringify({ patientId }) });
    if (selected.status !== 200) throw new Error(`patient not selected: ${selected.status}`);
    ok(`patient ${patientId} registered and selected`);

    const socket = await hubSocket(base, token);
    try {
      for (let i = 0; i < STATIC_CAPTURES; i++) {
        let outcome = '';
        for (let attempt = 0; attempt < 20; attempt++) {
          socket.send('startCapture', { deviceId, analysisType: 'Static', patientId });
          outcome = await captureOutcome(socket, deviceId, 30_000);
          if (outcome === 'resultsDue') break;
          await new Promise((r) => setTimeout(r, 1000));
        }
        if (outcome !== 'resultsDue') throw new Error(`static capture ${i + 1}: ${outcome}`);
      }
      ok(`${STATIC_CAPTURES} static captures reported resultsDue`);
      socket.send('startCapture', { deviceId, analysisType: 'Balance', patientId });
      const balance = await captureOutcome(socket, deviceId, 30_000);
      if (balance !== 'resultsDue') throw new Error(`balance capture: ${balance}`);
      ok('a balance capture reported resultsDue');
      const remote = await api(page, `/api/iotRequests/${encodeURIComponent(podology.hardwareSerial)}`, { method: 'POST' });
      if (remote.status !== 200 || !remote.body.started) throw new Error(`remote dynamic capture refused: ${remote.status} ${JSON.stringify(remote.body)}`);
      const dynamic = await captureOutcome(socket, deviceId, 60_000);
      if (dynamic !== 'resultsDue') throw new Error(`dynamic capture: ${dynamic}`);
      ok('a 15 s dynamic capture (POST /api/iotRequests) reported resultsDue');
    } finally {
      socket.close();
    }
    // The record is written by the storage writer just after resultsDue.
    for (let i = 0; i < 40; i++) {
      const count = await api(page, `/api/podometryAnalysisCount/${userId}/all`);
      expectedTotal = count.body.totalAnalysis;
      if (expectedTotal >= STATIC_CAPTURES + 2) break;
      await page.waitForTimeout(500);
    }
    if (expectedTotal < STATIC_CAPTURES + 2) throw new Error(`${expectedTotal} analyses stored`);
    ok(`${expectedTotal} analyses stored`);
  });

  await test('history pages', async (ok) => {
    await page.goto(`${base}/devices`);
    await page.locator('[data-testid="device-card"][data-device-type="Podology IoT"]').first().click();
    await page.waitForURL((u) => u.pathname === '/PodiatryIoT');
    const history = page.getByTestId('history');
    await history.waitFor();
    await page.getByTestId('history-card').first().waitFor();
    const cards = await page.getByTestId('history-card').count();
    if (cards !== 10) throw new Error(`${cards} cards on page 1`);
    const pages = Math.ceil(expectedTotal / 10);
    await page.getByTestId('page-of').filter({ hasText: `page 1 of ${pages}` }).waitFor();
    await page.getByTestId('page-range').filter({ hasText: `analyses 1 to 10 of ${expectedTotal}` }).waitFor();
    if (!(await page.getByTestId('page-previous').isDisabled())) throw new Error('previous is enabled on page 1');
    ok(`page 1 of ${pages}, analyses 1 to 10 of ${expectedTotal}, previous disabled`);
    const storage = await page.getByTestId('storage-used').textContent();
    if (!/ [\d.,]+ MB \/ 100MB$/.test(storage?.trim() ?? '')) throw new Error(`storage shows "${storage}"`);
    ok(`storage used "${storage}"`);
    const patient = await page.getByTestId('history-patient').first().textContent();
    if (!patient?.includes('Ana Tour')) throw new Error(`card names "${patient}"`);
    ok('cards name the patient');
    await shot('history-page-1.png');
    await page.setViewportSize({ width: 375, height: 860 });
    await page.waitForTimeout(300);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (overflow > 0) throw new Error(`375 px: the page is ${overflow} px wider than the window`);
    await shotOf('history', 'history-375.png');
    await page.setViewportSize({ width: 1280, height: 860 });
    ok('375 px: no horizontal overflow');
    await page.getByTestId('page-next').click();
    await page.getByTestId('page-of').filter({ hasText: `page 2 of ${pages}` }).waitFor();
    await page.getByTestId('page-range').filter({ hasText: `analyses 11 to ${Math.min(20, expectedTotal)} of ${expectedTotal}` }).waitFor();
    if (pages === 2 && !(await page.getByTestId('page-next').isDisabled())) throw new Error('next is enabled on the last page');
    ok('page 2: the rest, next disabled on the last page');
    await shot('history-page-2.png');
    await page.getByTestId('page-previous').click();
    await page.getByTestId('page-of').filter({ hasText: `page 1 of ${pages}` }).waitFor();
  });

  await test('dynamic result and video player', async (ok) => {
    const card = page.locator('[data-testid="history-card"][data-analysis-type="Dynamic"]').first();
    await card.getByTestId('history-open').click();
    const preview = page.getByTestId('result-preview');
    await preview.waitFor();
    if ((await preview.getAttribute('data-analysis-type')) !== 'Dynamic') throw new Error('the dynamic preview did not open');
    const player = page.getByTestId('player');
    await player.waitFor();
    const length = Number(await player.getAttribute('data-length'));
    if (!(length > 10)) throw new Error(`video of ${length} frames`);
    ok(`video of ${length} playback frames`);
    // The walk's video is kept from the empty plate; it opens at the first contact, not on a blank map.
    const opened = Number(await player.getAttribute('data-index'));
    if (!(opened > 0)) throw new Error(`the video opened at frame ${opened}, the empty plate`);
    await shotOf('result-preview', 'dynamic-opened.png');
    ok(`the video opens at its first contact (frame ${opened})`);
    // A walk is kept from the first empty plate (docs/decisions.md, "A walk is kept from the first
    // empty plate"): played at the fastest speed from the first frame, the video runs through the
    // empty start and the first pass and stops only where the walker leaves the plate (spec §4,
    // getOff), not where the standing patient stepped off to walk.
    await page.getByTestId('player-speed').selectOption({ label: '3' });
    await page.getByRole('button', { name: 'First frame' }).click();
    await page.getByTestId('player-play').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="player"]')?.getAttribute('data-playing') === 'false', null, {
      timeout: 20_000,
    });
    const stoppedAt = Number(await player.getAttribute('data-index'));
    // 10 captured frames (1 s, three playback frames each) is less than the empty start plus one
    // stance of the first pass.
    if (stoppedAt < 30) throw new Error(`the video stopped at playback frame ${stoppedAt} of ${length}, before the walk`);
    await page.getByText('The mat is empty: playback stopped.').waitFor({ timeout: 4_000 });
    ok(`the video plays through the first pass and stops where the walker leaves the plate (frame ${stoppedAt} of ${length}), with getOff`);
    for (let i = 0; i < 12; i += 1) await page.getByRole('button', { name: 'Previous frame' }).click();
    if (Number(await player.getAttribute('data-index')) !== stoppedAt - 12) throw new Error('stepping back from the stop');
    ok('playing advances the frame index');
    await shotOf('result-preview', 'dynamic-playing.png');
    const pause = page.getByTestId('player-pause');
    if (await pause.count()) await pause.click();
    const paused = Number(await player.getAttribute('data-index'));
    await page.getByRole('button', { name: 'Next frame' }).click();
    const stepped = Number(await player.getAttribute('data-index'));
    if (stepped !== Math.min(paused + 1, length - 1)) throw new Error(`step went from ${paused} to ${stepped}`);
    if ((await player.getAttribute('data-playing')) !== 'false') throw new Error('a step did not pause');
    ok('a step moves one frame and pauses');
    await page.getByRole('button', { name: 'Last frame' }).click();
    if (Number(await player.getAttribute('data-index')) !== length - 1) throw new Error('last frame');
    await page.getByRole('button', { name: 'First frame' }).click();
    if (Number(await player.getAttribute('data-index')) !== 0) throw new Error('first frame');
    ok('first and last frame');
    await shotOf('result-preview', 'dynamic-result.png');
  });

  await test('static result replaces the dynamic preview', async (ok) => {
    const card = page.locator('[data-testid="history-card"][data-analysis-type="Static"]').first();
    const id = await card.getAttribute('data-analysis-id');
    await card.getByTestId('history-open').click();
    await page.locator(`[data-testid="result-preview"][data-analysis-id="${id}"]`).waitFor();
    if ((await page.getByTestId('result-preview').count()) !== 1) throw new Error('more than one preview open');
    ok('opening the static result closed the dynamic one');
    await page.getByTestId('static-map').waitFor();
    const markers = await page.locator('[data-testid="static-map"] [data-marker]').count();
    if ((await page.getByTestId('figures-unavailable').count()) !== 0) throw new Error('the static record holds no engine figures');
    ok(`static figures shown with ${markers} markers`);
    await page.waitForTimeout(300);
    await shotOf('result-preview', 'static-result.png');
    await page.getByTestId('result-close').click();
    if ((await page.getByTestId('result-preview').count()) !== 0) throw new Error('× did not close the preview');
    ok('× closes the preview');
  });

  await test('balance result', async (ok) => {
    const card = page.locator('[data-testid="history-card"][data-analysis-type="Balance"]').first();
    await card.getByTestId('history-open').click();
    const preview = page.locator('[data-testid="result-preview"][data-analysis-type="Balance"]');
    await preview.waitFor();
    await page.getByTestId('result-balance').waitFor();
    ok(`balance charts: ${await page.locator('[data-testid^="balance-"]').count()} plots`);
    await shotOf('result-preview', 'balance-result.png');
    await page.getByTestId('result-close').click();
  });

  await test('notes', async (ok) => {
    const card = page.locator('[data-testid="history-card"][data-analysis-type="Static"]').first();
    await card.getByTestId('history-notes-edit').click();
    const text = page.getByTestId('notes-text');
    await text.fill('x'.repeat(1101));
    if (!(await page.getByTestId('notes-save').isDisabled())) throw new Error('save enabled at 1101 characters');
    ok('1101 characters: save disabled');
    await text.fill('Forefoot load high on the left; review insoles in 4 weeks.');
    await shot('notes-editor.png');
    await page.getByTestId('notes-save').click();
    await waitForToast(page, /Notes saved|notesUpdated/);
    await card.getByTestId('history-notes').filter({ hasText: 'review insoles' }).waitFor();
    ok('notes saved, toast shown and card updated');
  });

  await test('PDF report and real-scale PDF', async (ok) => {
    const card = page.locator('[data-testid="history-card"][data-analysis-type="Static"]').first();
    await card.getByTestId('history-pdf').click();
    await page.getByTestId('pdf-modal').waitFor();
    const main = page.getByTestId('pdf-widget-mainPage');
    if (!(await main.isChecked()) || !(await main.isDisabled())) throw new Error('main page is not on and locked');
    if (await page.getByTestId('pdf-widget-notes').isDisabled()) throw new Error('notes locked although the analysis has notes');
    ok('main page on and locked; notes free (the analysis has notes)');
    await page.getByTestId('pdf-paper-A4').check();
    await page.getByTestId('pdf-a4-warning').waitFor();
    await shot('pdf-modal.png');
    const report = await expectDownload(page, () => page.getByTestId('pdf-download').click(), /^ana-tour_static_\d{4}-\d{2}-\d{2}_\d{4}\.pdf$/);
    if (report.bytes.subarray(0, 4).toString() !== '%PDF') throw new Error('the report is not a PDF');
    ok(`report ${report.fileName} (${report.bytes.length} bytes, %PDF)`);
    const real = await expectDownload(page, () => page.getByTestId('pdf-real-scale').click(), /^ana-tour_static_real-scale-a4_\d{4}-\d{2}-\d{2}_\d{4}\.pdf$/);
    if (real.bytes.subarray(0, 4).toString() !== '%PDF') throw new Error('the real-scale file is not a PDF');
    ok(`real-scale ${real.fileName} (%PDF)`);
    await page.keyboard.press('Escape');
  });

  await test('raw exports', async (ok) => {
    const card = page.locator('[data-testid="history-card"][data-analysis-type="Dynamic"]').first();
    await card.getByTestId('history-raw').click();
    const dialog = page.getByTestId('raw-dialog');
    await dialog.waitFor();
    const width = await dialog.evaluate((el) => el.getBoundingClientRect().width);
    if (Math.round(width) !== 600) throw new Error(`dialog is ${width} px wide`);
    await shot('raw-dialog.png');
    for (const kind of ['processed', 'unprocessed']) {
      const file = await expectDownload(page, () => page.getByTestId(`raw-${kind}`).click(), new RegExp(`^dynamic_${kind}_analysis_\\d{4}-\\d{2}-\\d{2}\\.json$`));
      const json = JSON.parse(file.bytes.toString('utf8'));
      const frames = json.frames ?? json.records;
      if (!Array.isArray(frames) || frames.length === 0) throw new Error(`${kind} export has no frames`);
      ok(`${file.fileName}: metadata version ${json.metadata?.version}, ${frames.length} frames`);
      await waitForToast(page, /Data downloaded|dataDownloaded/);
    }
    await page.keyboard.press('Escape');
  });

  await test('delete an analysis', async (ok) => {
    const card = page.getByTestId('history-card').first();
    const id = await card.getAttribute('data-analysis-id');
    await card.getByTestId('history-delete').click();
    await page.getByTestId('delete-modal').waitFor();
    await shot('delete-confirm.png');
    await page.getByTestId('delete-confirm').click();
    await waitForToast(page, /Analysis deleted|analysisSuccess/);
    await page.getByTestId('page-range').filter({ hasText: `of ${expectedTotal - 1}` }).waitFor();
    if ((await page.locator(`[data-testid="history-card"][data-analysis-id="${id}"]`).count()) !== 0) throw new Error('the deleted card is still listed');
    ok(`deleted ${id}; the history now counts ${expectedTotal - 1}`);
    await shot('history-after-delete.png');
  });

  await test('company variants on the result and the capture buttons', async (ok) => {
    // An administrator of the company switches the variants (through the hub, as the branding
    // page does); the nurse's next page load shows them.
    const adminToken = await hubLogin(base, DEMO_ADMIN);
    const setVariants = async (on) => {
      const res = await fetch(`${base}/api/companyVariants`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ hideCentreOfPressure: on, fitness: on, seatingLabels: false }),
      });
      if (!res.ok) throw new Error(`variants not saved: ${res.status}`);
    };
    const openStatic = async () => {
      await page.goto(`${base}/devices`);
      await page.locator('[data-testid="device-card"][data-device-type="Podology IoT"]').first().click();
      await page.waitForURL((u) => u.pathname === '/PodiatryIoT');
      const card = page.locator('[data-testid="history-card"][data-analysis-type="Static"]').first();
      await card.waitFor();
      await card.getByTestId('history-open').click();
      await page.getByTestId('static-map').waitFor();
      return page.getByTestId('result-preview');
    };
    const seriesButtonOnMattress = async () => {
      await page.goto(`${base}/devices`);
      await page.locator('[data-testid="device-card"][data-device-type="Mattress Mat IoT"]').first().click();
      await page.waitForURL((u) => u.pathname === '/mattressMatIoT');
      await page.getByTestId('capture-panel').waitFor();
      return page.getByTestId('capture-series').count();
    };
    try {
      let preview = await openStatic();
      if ((await preview.getByTestId('global-cop-value').count()) !== 1) throw new Error('the centre of pressure is missing without the variant');
      if (/kPa/.test(await preview.textContent())) throw new Error('kPa shown without the fitness variant');
      if ((await seriesButtonOnMattress()) !== 0) throw new Error('the 24 h button shows without the fitness variant');
      ok('without variants: centre of pressure shown, raw units, no 24 h button');
      await setVariants(true);
      preview = await openStatic();
      if ((await preview.getByTestId('global-cop-value').count()) !== 0) throw new Error('the centre of pressure still shows');
      if (!/kPa/.test(await preview.textContent())) throw new Error('no kPa with the fitness variant');
      await shotOf('result-preview', 'static-result-variants.png');
      ok('hide centre of pressure: no global marker or value; fitness: pressures in kPa');
      if ((await seriesButtonOnMattress()) !== 1) throw new Error('no 24 h button with the fitness variant');
      await shot('mattress-24h-button.png');
      ok('fitness: the 24 h static analysis button on the mattress page');
    } finally {
      await setVariants(false);
    }
  });
}

/** Signs in through the API and returns the token. */
async function hubLogin(base, { email, password }) {
  const res = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (!res.ok) throw new Error(`login ${email}: ${res.status}`);
  return (await res.json()).token;
}
