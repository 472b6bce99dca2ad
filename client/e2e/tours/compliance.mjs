// Tour: turn compliance (issue 23, item 4). The hub's repositioning clock runs 60× faster (a
// demo/test-only option), so Bed 107's 15-minute interval is due after 15 s. An administrator
// gives the company a logo; turns are recorded on Bed 101-A and, after its Ulcer Risk alarm was
// attended, on Bed 107 (late); the clock's own detected turns count too. From the ward board the
// compliance page shows today's figures per unit and shift (charts, table); the administrator sets
// the shifts and the time zone; the CSV and the PDF are downloaded (the PDF's text read back and
// its page kept as PNG under artifacts/e2e/compliance/). Last, the wall board: a streaming bed's
// "Patient turned" never covers its posture line, and the posture is not cut.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DEMO_ADMIN } from '../harness.mjs';
import { api, giveCompanyLogo } from '../hub-session.mjs';

export const name = 'compliance';
export const hubArgs = ['--demo-repositioning-time-scale', '60'];

const ROW = '[data-testid="compliance-row"]';
const TILE = '[data-testid="ward-tile"]';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function run({ page, test, shot, login, artifacts }) {
  let devices = [];
  const idOf = (name) => devices.find((d) => d.name === name)?._id?.$oid;

  await test('a logo, turns recorded on time and late, an Ulcer Risk alarm attended', async (ok) => {
    await login(page, DEMO_ADMIN);
    await giveCompanyLogo(page);
    devices = (await api(page, '/api/userDevices')).body;
    const bed = idOf('Bed 101-A');
    const still = idOf('Bed 107');
    if (!bed || !still) throw new Error(`demo beds not found: ${devices.map((d) => d.name).join(', ')}`);
    // Bed 107's patient lies still: its Ulcer Risk alarm comes after 15 s (60× faster clock).
    let alarm = null;
    for (let i = 0; i < 90 && !alarm; i++) {
      const list = (await api(page, `/api/iotAlarms/${still}`)).body;
      alarm = Array.isArray(list) ? list.find((a) => a.kind === 'Ulcer Risk' && !a.hasBeenAttended) : null;
      if (!alarm) await sleep(1000);
    }
    if (!alarm) throw new Error('no Ulcer Risk alarm on Bed 107');
    ok(`Bed 107's Ulcer Risk alarm: ${JSON.stringify(alarm.reason ?? {})}`);
    await sleep(4000);
    const attended = await api(page, `/api/iotAlarms/${still}`, { method: 'PUT' });
    if (attended.status !== 200) throw new Error(`attend answered ${attended.status}`);
    const late = await api(page, `/api/device/${still}/turns`, { method: 'POST', body: JSON.stringify({ position: 'Left Lateral' }) });
    if (late.status !== 200) throw new Error(`turn answered ${late.status}: ${JSON.stringify(late.body)}`);
    const onTime = await api(page, `/api/device/${bed}/turns`, { method: 'POST', body: JSON.stringify({ position: 'Right Lateral' }) });
    if (onTime.status !== 200) throw new Error(`turn answered ${onTime.status}`);
    ok(`turns recorded: Bed 107 (${late.body.tierBefore}, loaded ${late.body.loadedSeconds} s), Bed 101-A (${onTime.body.tierBefore})`);
  });

  await test('the ward board links to the figures per unit and shift', async (ok) => {
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.goto(new URL('/ward', page.url()).href);
    await page.getByTestId('compliance-link').click();
    await page.waitForURL((u) => u.pathname === '/ward/compliance');
    await page.waitForSelector(ROW, { timeout: 30_000 });
    const rows = await page.$$eval(ROW, (els) => els.map((el) => el.innerText.replace(/\s+/g, ' ').trim()));
    const main = rows.filter((r) => r.startsWith('Main · floor 1'));
    if (main.length !== 3) throw new Error(`Main · floor 1 has ${main.length} rows: ${rows.join(' | ')}`);
    const turned = main.find((r) => !/^\S+ · floor 1 \S+ \d+ 0 —/.test(r));
    if (!turned) throw new Error(`no shift with turns: ${main.join(' | ')}`);
    ok(`rows: ${rows.join(' | ')}`);
    const withAlarm = await page.$$eval(`${ROW} [data-testid="cell-attend-mean"]`, (els) => els.map((e) => e.textContent).filter((t) => t !== '—'));
    if (!withAlarm.length) throw new Error('no time to attend shown');
    ok(`time to attend (mean): ${withAlarm.join(', ')}`);
    const bars = await page.getByTestId('chart-on-time').getAttribute('data-bars');
    const canvases = await page.$$eval('.compliance-chart canvas', (c) => c.length);
    if (canvases < 4) throw new Error(`${canvases} chart canvases`);
    ok(`four uPlot charts, ${bars} bars each`);
    await shot('page-1440.png');
  });

  await test('an administrator sets the shifts and the company time zone', async (ok) => {
    await page.getByTestId('compliance-edit-shifts').click();
    const starts = page.getByTestId('compliance-shift-start');
    await starts.nth(0).fill('06:00');
    await starts.nth(1).fill('14:00');
    await starts.nth(2).fill('22:00');
    await page.getByTestId('compliance-time-zone').fill('Europe/Madrid');
    await shot('shifts-form.png');
    await page.getByTestId('compliance-save-shifts').click();
    await page.getByTestId('compliance-shift-summary').filter({ hasText: '06:00–14:00 · 14:00–22:00 · 22:00–06:00 (Time zone: Europe/Madrid)' }).waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="compliance-row"] td:first-of-type')].some((td) => td.textContent === '06:00–14:00'));
    ok('shifts 06:00, 14:00, 22:00 in Europe/Madrid; the table follows');
    const audit = await api(page, '/api/auditLog/1');
    if (!audit.body.entries.some((e) => e.action === 'company.complianceSettings')) throw new Error('not audited');
    ok('the change is in the audit log');
  });

  await test('CSV and PDF downloads', async (ok) => {
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('compliance-csv').click()]);
    const csvPath = `${artifacts}/${csv.suggestedFilename()}`;
    await csv.saveAs(csvPath);
    const lines = readFileSync(csvPath, 'utf8').replace(/^\ufeff/, '').trim().split(/\r\n/);
    if (!lines[0].startsWith('Unit,Shift,Beds,Turns,Turns on time,On time (%)')) throw new Error(`CSV header: ${lines[0]}`);
    if (!lines.some((l) => l.startsWith('Main · floor 1,06:00–14:00,'))) throw new Error(`CSV rows: ${lines.join(' | ')}`);
    ok(`${csv.suggestedFilename()}: ${lines.length - 1} rows; ${lines[1]}`);
    const [pdf] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('compliance-pdf').click()]);
    const name = pdf.suggestedFilename();
    if (!/^turn-compliance_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.pdf$/.test(name)) throw new Error(`PDF named ${name}`);
    const pdfPath = `${artifacts}/${name}`;
    await pdf.saveAs(pdfPath);
    execFileSync('pdftoppm', ['-png', '-r', '80', pdfPath, pdfPath.replace(/\.pdf$/, '')]);
    const text = execFileSync('pdftotext', ['-layout', pdfPath, '-']).toString().replace(/\s+/g, ' ');
    for (const part of ['Turn compliance', 'Shifts:', 'Time zone: Europe/Madrid', 'Main · floor 1', '06:00–14:00', 'Page 1 / 1']) {
      if (!text.includes(part)) throw new Error(`"${part}" not in the PDF: ${text}`);
    }
    ok(`${name}: ${text.slice(0, 160)}…`);
  });

  await test('the page on a phone (390 × 844)', async (ok) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(500);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    if (wide > 400) throw new Error(`the page is ${wide}px wide`);
    await shot('page-phone.png');
    ok('no sideways scrolling; the table scrolls in its own box');
  });

  await test('the wall board: "Patient turned" never covers the posture line', async (ok) => {
    await page.setViewportSize({ width: 2560, height: 1440 });
    await page.goto(new URL('/ward', page.url()).href);
    const tile = `${TILE}:has([data-testid="ward-posture"]):has([data-testid="record-turn"])`;
    await page.waitForSelector(tile, { timeout: 60_000 });
    const checks = await page.$$eval(tile, (els) =>
      els.map((el) => {
        const posture = el.querySelector('[data-testid="ward-posture"]').getBoundingClientRect();
        const button = el.querySelector('[data-testid="record-turn"]').getBoundingClientRect();
        const body = el.querySelector('.ward-tile-body').getBoundingClientRect();
        const overlap = posture.bottom > button.top + 0.5 && button.bottom > posture.top + 0.5 && posture.right > button.left + 0.5 && button.right > posture.left + 0.5;
        return { text: el.innerText.replace(/\s+/g, ' ').trim(), overlap, clipped: posture.bottom > body.bottom + 0.5, height: posture.height };
      }),
    );
    for (const c of checks) {
      if (c.overlap || c.clipped || c.height < 12) throw new Error(`posture covered or cut: ${JSON.stringify(c)}`);
    }
    ok(`${checks.length} streaming tiles: posture above the button: ${checks.map((c) => c.text).join(' | ')}`);
    await page.screenshot({ path: `${artifacts}/wall-2560x1440.png` });
  });
}
