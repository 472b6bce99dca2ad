// Tour: the Sensing Horse's live view and the demo plate's walk (issue 21). On the horse's page
// "Start live" streams both saddle sides (each with its contact surface in cm²) and the plot panel
// draws both sides over time. On the demo's podology plate a 15 s dynamic capture is a walk: the
// result shows whole steps of both feet with their rockers, no `dynamic.error`; its PDF is kept as
// images. A bed's record offers no real-scale print.

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { hubSocket, capture, api } from '../hub-session.mjs';

export const name = 'horse';

/** Downloads a PDF with the browser's clock for the record's day, as the modal does. */
async function downloadPdf(page, path, body, creationDate) {
  return page.evaluate(
    async ({ path, body, creationDate }) => {
      const clock = { utcOffsetMinutes: 0 - new Date(creationDate * 1000).getTimezoneOffset(), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone };
      const payload = body.layoutOptions ? { layoutOptions: { ...body.layoutOptions, ...clock } } : { ...body, ...clock };
      const res = await fetch(path, {
        method: 'POST',
        headers: { Authorization: `Bearer ${localStorage.getItem('user')}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(payload),
      });
      const bytes = Array.from(new Uint8Array(await res.arrayBuffer()));
      let json = null;
      try {
        json = JSON.parse(new TextDecoder().decode(new Uint8Array(bytes)));
      } catch {
        json = null;
      }
      return { status: res.status, json, bytes };
    },
    { path, body, creationDate },
  );
}

export async function run({ base, page, test, login, artifacts }) {
  const shotOf = (testId, file) => page.getByTestId(testId).first().screenshot({ path: `${artifacts}/${file}` });

  await test('horse: Start live streams both sides, with contact surfaces and the plot panel', async (ok) => {
    await login();
    await page.goto(`${base}/devices`);
    await page.locator('[data-testid="device-card"][data-device-type="Sensing Horse"]').first().click();
    await page.waitForURL((u) => u.pathname === '/SensingHorse');
    await page.getByTestId('streaming-button').waitFor();
    await page.getByTestId('streaming-button').click();
    await page.locator('[data-testid="streaming"][data-streaming="true"]').waitFor({ timeout: 15_000 });
    ok('the hub accepted the stream of both sides');
    for (const side of ['left', 'right']) {
      const tile = page.getByTestId(`horse-${side}`).getByTestId('contact-surface');
      await page.waitForFunction((el) => Number(el.getAttribute('data-value')) > 0, await tile.elementHandle(), { timeout: 20_000 });
      const text = await tile.textContent();
      if (!/cm²/.test(text ?? '')) throw new Error(`${side}: contact surface without its unit: ${text}`);
      ok(`${side} side: ${text}`);
    }
    // The rider is in the saddle: both sides read PRESENCE.
    await page.waitForFunction(() => [...document.querySelectorAll('.horse-side')].every((s) => /PRESENCE/.test(s.textContent ?? '') && !/ABSENCE/.test(s.textContent ?? '')), null, { timeout: 30_000 });
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="surface-chart"]')?.getAttribute('data-points')) >= 12, null, { timeout: 20_000 });
    await page.waitForTimeout(600);
    await page.locator('.horse-maps').screenshot({ path: `${artifacts}/horse-live.png` });
    await shotOf('plot-panel', 'horse-plot-panel.png');
    const caption = await page.getByTestId('surface-chart').locator('figcaption').textContent();
    if (!/cm²/.test(caption ?? '')) throw new Error(`surface chart without unit: ${caption}`);
    ok(`plot panel: ${caption}`);
    await page.getByTestId('streaming-button').click();
  });

  const ids = {};
  await test('plate: a dynamic capture is a walk with whole steps of both feet', async (ok) => {
    const userId = await page.evaluate(() => localStorage.getItem('userId'));
    const token = await page.evaluate(() => localStorage.getItem('user'));
    const devices = (await api(page, '/api/userDevices')).body;
    ids.plate = devices.find((x) => x.deviceType === 'Podology IoT')._id.$oid;
    ids.bed = devices.find((x) => x.deviceType === 'Mattress Mat IoT')._id.$oid;
    const created = await api(page, `/api/podometry/patients/${userId}`, {
      method: 'POST',
      body: JSON.stringify({ name: 'Pablo Walker', weight: 74, height: 176, gender: 'Male', agreeDataTreatment: true }),
    });
    if (created.status !== 201) throw new Error(`patient not created: ${created.status}`);
    const patientId = created.body._id.$oid;
    await api(page, `/api/podometry/patient/select/${userId}`, { method: 'PUT', body: JSON.stringify({ patientId }) });
    const socket = await hubSocket(base, token);
    try {
      await capture(socket, ids.plate, patientId, 'Static');
      await capture(socket, ids.plate, patientId, 'Dynamic', 15);
      await capture(socket, ids.bed, patientId, 'Static');
    } finally {
      socket.close();
    }
    await page.waitForTimeout(1500);
    await page.goto(`${base}/devices`);
    await page.locator('[data-testid="device-card"][data-device-type="Podology IoT"]').first().click();
    await page.locator('[data-testid="history-card"][data-analysis-type="Dynamic"]').first().waitFor();
    // The standing feet: an adult's contact area and the arch gap.
    await page.locator('[data-testid="history-card"][data-analysis-type="Static"]').first().getByTestId('history-open').click();
    const standing = page.locator('[data-testid="result-preview"][data-analysis-type="Static"]');
    await standing.waitFor();
    await page.waitForTimeout(800);
    await shotOf('result-preview', 'plate-static-feet.png');
    ok(`standing feet: ${((await standing.textContent()) ?? '').replace(/\s+/g, ' ').slice(0, 400)}`);
    await page.getByTestId('result-close').click();
    await page.locator('[data-testid="history-card"][data-analysis-type="Dynamic"]').first().getByTestId('history-open').click();
    const preview = page.locator('[data-testid="result-preview"][data-analysis-type="Dynamic"]');
    await preview.waitFor();
    await page.waitForTimeout(800);
    const text = (await preview.textContent()) ?? '';
    if (/no complete footstep|could not be computed/i.test(text)) throw new Error(`the walk gave no steps: ${text}`);
    // The player at a frame of the first pass (1.2–2.4 s of 15 s): the left foot flat, the right landing.
    const frames = Number(await page.getByTestId('player').getAttribute('data-length'));
    const target = Math.round(frames * (1.75 / 15));
    for (let i = 0; i < target; i++) await page.getByRole('button', { name: 'Next frame' }).click();
    await page.waitForTimeout(500);
    await shotOf('result-preview', 'plate-dynamic-walk.png');
    ok('the dynamic result has its rockers');

    const analyses = (await api(page, `/api/deviceAnalysisPage/${userId}/${ids.plate}/all/1`)).body.analyses;
    const record = analyses.find((a) => a.analysisType === 'Dynamic');
    const creation = typeof record.creationDate === 'number' ? record.creationDate : Math.floor(Date.parse(record.creationDate.$date) / 1000);
    const widgets = ['mainPage', 'pressureMap', 'results', 'histogram', 'notes'];
    const pdf = await downloadPdf(page, `/api/downloadAnalysisPDF/${record._id.$oid}/0`, { layoutOptions: { widgets, language: 'en', palette: 'pressure' } }, creation);
    if (pdf.status !== 200) throw new Error(`dynamic PDF: ${pdf.status}`);
    const path = `${artifacts}/plate-dynamic-report.pdf`;
    writeFileSync(path, Buffer.from(pdf.bytes));
    execFileSync('pdftoppm', ['-png', '-r', '70', path, path.replace(/\.pdf$/, '')]);
    const pdfText = execFileSync('pdftotext', ['-layout', path, '-']).toString();
    if (!pdfText.includes('Pablo Walker')) throw new Error(`the PDF does not name the patient:\n${pdfText}`);
    if (/no complete footstep/i.test(pdfText)) throw new Error(`the PDF reports no steps:\n${pdfText}`);
    ok('the dynamic report is kept as images under artifacts/e2e/horse/');
  });

  await test('bed: no real-scale print', async (ok) => {
    const userId = await page.evaluate(() => localStorage.getItem('userId'));
    const analyses = (await api(page, `/api/deviceAnalysisPage/${userId}/${ids.bed}/all/1`)).body.analyses;
    const record = analyses[0];
    const creation = typeof record.creationDate === 'number' ? record.creationDate : Math.floor(Date.parse(record.creationDate.$date) / 1000);
    const real = await downloadPdf(page, `/api/downloadRealScalePDF/${record._id.$oid}`, { layout: 'A3', language: 'en', palette: 'pressure' }, creation);
    if (real.status !== 422 || real.json?.error !== 'toastErrorRaw.realScaleNotOffered') throw new Error(`the hub printed a bed at real scale: ${real.status} ${JSON.stringify(real.json)}`);
    ok('the hub refuses a bed real-scale print');
    await page.goto(`${base}/devices`);
    await page.locator('[data-testid="device-card"][data-device-type="Mattress Mat IoT"]').first().click();
    await page.getByTestId('history-card').first().waitFor();
    await page.getByTestId('history-card').first().getByTestId('history-pdf').click();
    await page.getByTestId('pdf-modal').waitFor();
    if ((await page.getByTestId('pdf-real-scale').count()) !== 0) throw new Error('the bed offers a real-scale print');
    await shotOf('pdf-modal', 'bed-pdf-modal.png');
    ok('the bed PDF modal offers only the report');
  });
}
