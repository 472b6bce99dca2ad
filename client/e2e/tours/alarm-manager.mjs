// Tour: the hub sends its alarms to a hospital's alarm manager (IHE PCD-04, docs/interfaces.md).
// An independent test manager (hub/tests/alarm_manager/manager.py: a Python MLLP listener parsing
// every report with the PyPI `hl7` package) runs beside the hub; the demo administrator opens the
// alarm-manager page from the admin panel, sets the company's manager, and a simulated patient's
// alarm (the demo beds empty out; the absence delay is 5 s here) reaches that manager as a valid
// ORU^R40 report; the page then shows the link connected and nothing waiting. The manager then
// reports the alarm accepted by a named nurse (IHE PCD-05, ORA^R41 sent with the `hl7` package's
// MLLP client to the hub's status listener): the device's card, the alarm banner and the alarm
// history show "Accepted by Grace Okafor". Last, TLS: the form asks for the certificate authority
// and the hub refuses a text that is no certificate (the TLS delivery itself is proven by
// hub/tests/alarm_manager.rs against a TLS listener).

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { REPO_DIR } from '../harness.mjs';

const EN = JSON.parse(readFileSync(new URL('../../public/local/en/translation.json', import.meta.url), 'utf8'));
const msg = (key) => {
  const text = key.split('.').reduce((node, part) => node?.[part], EN);
  if (typeof text !== 'string') throw new Error(`no English text for ${key}`);
  return text;
};

export const name = 'alarm-manager';
// About how long this tour takes (2 at a time on 2 cores); e2e/run.mjs starts the longest first.
export const expectedSeconds = 80;
export const hubArgs = ['--absence-delay-secs', '5', '--alarm-status-listen', '127.0.0.1:0'];

const ADMIN = { email: 'admin@example.com', password: 'admin1234' };

/** The test manager's python, in a venv made on first use (as the Rust tests do). */
function managerPython() {
  const venv = join(REPO_DIR, 'target', 'e2e-alarm-manager-venv');
  const python = join(venv, 'bin', 'python');
  if (!existsSync(python) || spawnSync(python, ['-c', 'import hl7']).status !== 0) {
    if (spawnSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' }).status !== 0) throw new Error('python3 -m venv failed');
    const pip = spawnSync(join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', 'hl7==0.4.5'], { stdio: 'inherit' });
    if (pip.status !== 0) throw new Error('pip install hl7 failed');
  }
  return python;
}

/** Starts the test manager; resolves with its port and the reports it receives. */
function startManager() {
  const script = join(REPO_DIR, 'hub', 'tests', 'alarm_manager', 'manager.py');
  const child = spawn(managerPython(), [script, '--port', '0', '--default', 'AA'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const reports = [];
  const answers = [];
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const listening = /^listening (\d+)$/.exec(line);
      if (listening) resolve({ child, port: Number(listening[1]), reports, answers });
      else {
        const value = JSON.parse(line);
        if (value.pcd05) answers.push(value.pcd05);
        else reports.push(value);
      }
    });
    child.on('exit', (code) => reject(new Error(`the test manager exited (${code})`)));
  });
}

/** Has the manager send a PCD-05 command (manager.py's stdin) and resolves with the hub's ACK. */
async function sendStatus(manager, page, command) {
  const before = manager.answers.length;
  manager.child.stdin.write(`${JSON.stringify(command)}\n`);
  const deadline = Date.now() + 20_000;
  while (manager.answers.length <= before && Date.now() < deadline) await page.waitForTimeout(100);
  if (manager.answers.length <= before) throw new Error('the hub did not answer the status report');
  return manager.answers[before];
}

export async function run({ page, test, shot, login }) {
  const manager = await startManager();
  try {
    await test('the administrator opens the alarm manager page from the admin panel', async (ok) => {
      await login(page, ADMIN);
      await page.goto(new URL('/adminPanel', page.url()).href);
      await page.getByTestId('alarm-manager-link').click();
      await page.waitForURL((u) => u.pathname === '/adminPanel/alarmManager');
      await page.getByTestId('alarm-manager-destination').waitFor();
      const destination = await page.getByTestId('alarm-manager-destination').textContent();
      if (destination !== msg('alarmManager.noDestination')) throw new Error(`destination before: ${destination}`);
      ok(`no manager yet: "${destination}"`);
      await shot('before.png');
    });

    await test('a bad port is refused by the hub', async (ok) => {
      await page.getByLabel(`${msg('alarmManager.host')} *`).fill('127.0.0.1');
      await page.getByLabel(`${msg('alarmManager.port')} *`).fill('70000');
      await page.getByRole('button', { name: msg('alarmManager.save') }).click();
      await page.getByTestId('alarm-manager-error').waitFor();
      ok(`refused: ${await page.getByTestId('alarm-manager-error').textContent()}`);
      await shot('refused.png');
    });

    await test('the administrator sets the company manager', async (ok) => {
      await page.getByLabel(`${msg('alarmManager.port')} *`).fill(String(manager.port));
      await page.getByLabel(msg('alarmManager.sendingApplication')).fill('PMAT_WARD3');
      await page.getByLabel(msg('alarmManager.sendingFacility')).fill('ST_MARY');
      await page.getByLabel(msg('alarmManager.receivingApplication')).fill('TEST_AM');
      await page.getByRole('button', { name: msg('alarmManager.save') }).click();
      await page.getByTestId('alarm-manager-saved').waitFor();
      const destination = await page.getByTestId('alarm-manager-destination').textContent();
      if (destination !== `mllp://127.0.0.1:${manager.port}`) throw new Error(`destination after: ${destination}`);
      ok(`alarms now go to ${destination}`);
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot('saved.png');
    });

    await test("a simulated patient's alarm reaches the manager as a valid PCD-04 report", async (ok) => {
      const deadline = Date.now() + 180_000;
      while (!manager.reports.some((r) => r.phase === 'start') && Date.now() < deadline) await page.waitForTimeout(500);
      const report = manager.reports.find((r) => r.phase === 'start');
      if (!report) throw new Error('no report within 3 minutes');
      if (report.problems.length) throw new Error(`the manager found problems: ${report.problems.join('; ')}`);
      ok(`${report.controlId}: ${report.event}, priority ${report.priority}, "${report.text}", from ${report.source}`);
      await page.waitForFunction(() => document.querySelector('[data-testid="alarm-manager-link"]')?.getAttribute('data-state') === 'up', null, { timeout: 20_000 });
      ok(`link ${await page.getByTestId('alarm-manager-link').textContent()}, waiting: ${await page.getByTestId('alarm-manager-pending').textContent()}`);
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot('delivered.png');
    });

    await test('the manager reports the alarm accepted by a named nurse, and the card shows it', async (ok) => {
      const report = manager.reports.find((r) => r.phase === 'start');
      const listener = await page.getByTestId('alarm-manager-status-listener').textContent();
      const to = listener.replace(/^mllp:\/\//, '');
      ok(`status reports go to ${listener}`);
      const deviceId = report.alarm.replace(/-\d+$/, '');
      await page.goto(new URL('/devices', page.url()).href);
      const card = page.locator(`[data-testid="device-card"][data-device-id="${deviceId}"]`);
      await card.waitFor();
      const answer = await sendStatus(manager, page, {
        status: { to, alarm: report.alarm, value: 'accepted', who: 'N42^Okafor^Grace', controlId: `st-${report.alarm}` },
      });
      if (answer.ack !== 'AA') throw new Error(`the hub answered ${JSON.stringify(answer)}`);
      ok(`ORA^R41 "accepted" for ${report.alarm} acknowledged ${answer.ack}`);
      const line = card.getByTestId('card-manager-status');
      await line.waitFor({ timeout: 20_000 });
      const text = await line.textContent();
      if (!text.includes(`${msg('alarmManager.statuses.accepted')} by Grace Okafor`)) throw new Error(`card: ${text}`);
      ok(`card: "${text}"`);
      const banner = page.locator(`[data-testid="alarm-banner-row"][data-device-id="${deviceId}"]`).getByTestId('alarm-banner-manager-status');
      if (await banner.count()) ok(`banner: "${await banner.textContent()}"`);
      else throw new Error('the banner row does not show the status');
      await card.scrollIntoViewIfNeeded();
      await shot('accepted-card.png');
    });

    await test("the alarm's history lists what the manager reported", async (ok) => {
      const report = manager.reports.find((r) => r.phase === 'start');
      const deviceId = report.alarm.replace(/-\d+$/, '');
      await page.locator(`[data-testid="device-card"][data-device-id="${deviceId}"]`).click();
      const cell = page.getByTestId('alarm-history').locator('[data-testid="alarm-manager-statuses"]', { hasText: 'Grace Okafor' }).first();
      await cell.waitFor({ timeout: 20_000 });
      ok(`history: "${await cell.textContent()}"`);
      await page.getByTestId('alarm-history').scrollIntoViewIfNeeded();
      await shot('accepted-history.png');
    });

    await test('the change is in the audit log', async (ok) => {
      await page.goto(new URL('/adminPanel/auditLog', page.url()).href);
      await page.locator('[data-testid="audit-row"][data-action="alarmManager.update"]').first().waitFor();
      ok('alarmManager.update recorded');
      await shot('audit.png');
    });

    await test('TLS asks for the certificate authority, and the hub refuses text that is no certificate', async (ok) => {
      await page.goto(new URL('/adminPanel/alarmManager', page.url()).href);
      await page.getByTestId('alarm-manager-form').waitFor();
      await page.getByLabel(msg('alarmManager.tls')).check();
      const ca = page.getByLabel(`${msg('alarmManager.caPem')} *`);
      await ca.fill('-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n');
      await page.getByRole('button', { name: msg('alarmManager.save') }).click();
      await page.getByTestId('alarm-manager-error').waitFor();
      ok(`refused: ${await page.getByTestId('alarm-manager-error').textContent()}`);
      const destination = await page.getByTestId('alarm-manager-destination').textContent();
      if (destination !== `mllp://127.0.0.1:${manager.port}`) throw new Error(`the refused change moved the destination: ${destination}`);
      ok(`alarms still go to ${destination}`);
      await page.getByTestId('alarm-manager-error').scrollIntoViewIfNeeded();
      await shot('tls-refused.png');
    });
  } finally {
    manager.child.kill();
  }
}
