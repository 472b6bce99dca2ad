// Tour: the PDF reports a clinician hands to a patient. The company gets a logo; a patient
// (María García Pérez, 64.5 kg, 168 cm) is registered and selected; the hub captures analyses on
// the simulated devices of every family it has (podology plate: static, balance, dynamic; seat:
// static and fitting; bed: static; rehab platform: static and balance); then the patient's
// weight and height change, as months later. Every report is downloaded — the podology static
// one through the PDF modal, as a user does — with the browser's clock, and each real-scale
// print on A3 and A4. Each PDF is kept under artifacts/e2e/reports/ with its pages as PNG images
// (pdftoppm), and its text (pdftotext) is checked: the patient, the figures of the capture day,
// the company, the local time, units.
//
// Run with TZ=Europe/Madrid (or any zone) to see the report follow the browser's zone.

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { DEMO_ADMIN } from '../harness.mjs';
import { hubSocket, capture, api, giveCompanyLogo } from '../hub-session.mjs';

export const name = 'reports';
// About how long this tour takes (2 at a time on 2 cores); e2e/run.mjs starts the longest first.
export const expectedSeconds = 100;

/** Downloads a PDF from the page with the browser's clock for the record's day, as the modal does. */
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
      return { status: res.status, disposition: res.headers.get('Content-Disposition'), bytes };
    },
    { path, body, creationDate },
  );
}

/** Keeps a PDF and its pages as images; returns its text. */
function keep(artifacts, file, bytes) {
  const path = `${artifacts}/${file}`;
  writeFileSync(path, Buffer.from(bytes));
  execFileSync('pdftoppm', ['-png', '-r', '70', path, path.replace(/\.pdf$/, '')]);
  return execFileSync('pdftotext', ['-layout', path, '-']).toString();
}

export async function run({ base, page, test, login, artifacts }) {
  const patientName = 'María García Pérez';
  const records = [];
  let userId = '';

  await test('a logo, a patient and captures on every family', async (ok) => {
    // The logo is branding: an administrator's (issue 22: whoever edits a device cannot rebrand).
    await login(page, DEMO_ADMIN);
    userId = await page.evaluate(() => localStorage.getItem('userId'));
    const token = await page.evaluate(() => localStorage.getItem('user'));
    const companyName = await giveCompanyLogo(page);
    ok(`${companyName} has a logo`);
    const created = await api(page, `/api/podometry/patients/${userId}`, {
      method: 'POST',
      body: JSON.stringify({ name: patientName, weight: 64.5, height: 168, gender: 'Female', agreeDataTreatment: true }),
    });
    if (created.status !== 201) throw new Error(`patient not created: ${created.status} ${JSON.stringify(created.body)}`);
    const patientId = created.body._id.$oid;
    const selected = await api(page, `/api/podometry/patient/select/${userId}`, { method: 'PUT', body: JSON.stringify({ patientId }) });
    if (selected.status !== 200) throw new Error(`patient not selected: ${selected.status}`);

    const devices = (await api(page, '/api/userDevices')).body;
    const byType = (type) => {
      const d = devices.find((x) => x.deviceType === type);
      if (!d) throw new Error(`no ${type} in the demo`);
      return d._id.$oid;
    };
    const plan = [
      ['Podology IoT', 'Static'],
      ['Podology IoT', 'Balance'],
      ['Podology IoT', 'Dynamic', 15],
      ['Seating Mat IoT', 'Static'],
      ['Seating Mat IoT', 'Fitting', 15],
      ['Mattress Mat IoT', 'Static'],
      ['Rehab Mat', 'Static'],
      ['Rehab Mat', 'Balance'],
    ];
    // The devices capture side by side, each through a socket of its own (a refusal comes back
    // on the socket that asked, without naming the device); each device's captures in turn.
    const deviceTypes = [...new Set(plan.map(([type]) => type))];
    await Promise.all(
      deviceTypes.map(async (deviceType) => {
        const socket = await hubSocket(base, token);
        try {
          for (const [type, kind, seconds] of plan.filter(([type]) => type === deviceType)) {
            await capture(socket, byType(type), patientId, kind, seconds ?? 0);
            ok(`${type}: ${kind} capture reported resultsDue`);
          }
        } finally {
          socket.close();
        }
      }),
    );
    for (let i = 0; i < 40 && records.length < plan.length; i++) {
      await page.waitForTimeout(500);
      const listed = [];
      for (let p = 1; p <= 2; p++) {
        const res = await api(page, `/api/podometryAnalysisPatient/${userId}/${patientId}/all/${p}`);
        if (Array.isArray(res.body?.analyses)) listed.push(...res.body.analyses);
      }
      records.splice(0, records.length, ...listed);
    }
    if (records.length < plan.length) throw new Error(`${records.length} analyses stored of ${plan.length}`);
    for (const r of records) r.deviceType = devices.find((d) => d._id.$oid === r.deviceId)?.deviceType ?? '?';
    ok(`${records.length} analyses stored`);
    // Months later: the patient weighs more and has grown. The reports keep the capture day's.
    const edited = await api(page, `/api/podometry/patient/${patientId}`, {
      method: 'PUT',
      body: JSON.stringify({ name: patientName, weight: 80, height: 171, gender: 'Female', agreeDataTreatment: true }),
    });
    if (edited.status !== 200) throw new Error(`patient not edited: ${edited.status} ${JSON.stringify(edited.body)}`);
    ok('patient edited to 80 kg, 171 cm');
  });

  await test('the podology static report through the PDF modal', async (ok) => {
    await page.goto(`${base}/devices`);
    await page.locator('[data-testid="device-card"][data-device-type="Podology IoT"]').first().click();
    await page.getByTestId('history-card').first().waitFor();
    const card = page.locator('[data-testid="history-card"][data-analysis-type="Static"]').first();
    await card.getByTestId('history-pdf').click();
    await page.getByTestId('pdf-modal').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('pdf-download').click()]);
    const fileName = download.suggestedFilename();
    if (!/^maria-garcia-perez_static_\d{4}-\d{2}-\d{2}_\d{4}\.pdf$/.test(fileName)) throw new Error(`download named ${fileName}`);
    const text = keep(artifacts, `modal-${fileName}`, readFileSync(await download.path()));
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    // Spec §9's weight calibration: the capture-day weight, and the page says so.
    for (const phrase of [patientName, '64.5 kg', '168 cm', `(${zone})`, 'mmHg', 'Left foot', 'Pressure scale', '70 % of 64.5 kg on the surface']) {
      if (!text.includes(phrase)) throw new Error(`"${phrase}" missing from the report:\n${text}`);
    }
    if (text.includes('80.0 kg')) throw new Error('the report shows today\'s weight');
    ok(`${fileName}: patient, capture-day body, ${zone} time, mmHg`);
    await page.keyboard.press('Escape');
  });

  await test('every report and real-scale print, kept as images', async (ok) => {
    const widgets = ['mainPage', 'pressureMap', 'results', 'histogram', 'notes'];
    const types = (await api(page, '/api/deviceTypes')).body;
    for (const r of records) {
      const id = r._id.$oid;
      const creation = typeof r.creationDate === 'number' ? r.creationDate : Math.floor(Date.parse(r.creationDate.$date) / 1000);
      const tag = `${r.deviceType.toLowerCase().replace(/[^a-z]+/g, '-')}-${r.analysisType.toLowerCase()}`;
      const report = await downloadPdf(page, `/api/downloadAnalysisPDF/${id}/0`, { layoutOptions: { widgets, language: 'en', palette: 'pressure' } }, creation);
      if (report.status !== 200) throw new Error(`${tag}: ${report.status}`);
      const file = /filename="([^"]+)"/.exec(report.disposition ?? '')?.[1] ?? '';
      if (!file.startsWith('maria-garcia-perez_')) throw new Error(`${tag}: named ${file}`);
      const text = keep(artifacts, `${tag}-report.pdf`, report.bytes);
      for (const phrase of [patientName, '64.5 kg', 'Page 1 /']) {
        if (!text.includes(phrase)) throw new Error(`${tag}: "${phrase}" missing:\n${text}`);
      }
      if (r.deviceType === 'Mattress Mat IoT' && /foot|Height 2 cm/.test(text.replace(/Height 168 cm/, ''))) throw new Error(`${tag}: a bed report talks about feet:\n${text}`);
      // A walk is drawn as each cell's highest pressure, and its page says so; no other map is.
      const peakCaption = text.includes('Highest pressure of each cell during the walk');
      if (peakCaption !== (r.analysisType === 'Dynamic')) throw new Error(`${tag}: the walk's map caption ${peakCaption ? 'on a capture that is no walk' : 'missing'}:\n${text}`);
      ok(`${tag}: ${file}`);
      // Beds have no real-scale print (the device-type table): the hub refuses it.
      const offersRealScale = types.find((t) => t.name === r.deviceType)?.realScalePrint === true;
      for (const layout of ['A3', 'A4']) {
        const real = await downloadPdf(page, `/api/downloadRealScalePDF/${id}`, { layout, language: 'en', palette: 'pressure' }, creation);
        if (!offersRealScale) {
          if (real.status !== 422) throw new Error(`${tag} ${layout}: a real-scale print of a type without one: ${real.status}`);
          continue;
        }
        if (real.status !== 200) throw new Error(`${tag} ${layout}: ${real.status}`);
        keep(artifacts, `${tag}-real-scale-${layout}.pdf`, real.bytes);
      }
    }
    ok('reports and prints kept under artifacts/e2e/reports/');
  });
}
