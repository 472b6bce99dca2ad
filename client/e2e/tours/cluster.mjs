// Tour (issue 25): a cluster of three hubs behind HAProxy (scripts/cluster.sh: nats-server, the
// SurrealDB server, three hubs, simulated mats spread over them), seen by a nurse's browser. The
// grid shows every hub's mats through the one address; a mat owned by another hub than the
// browser's streams its live map to the device page through NATS; when that hub is killed the mat
// moves and its page goes on; when the browser's own hub is killed, HAProxy sends the socket to a
// live hub, which it re-joins by itself without a page reload, and the grid says what the
// surviving hubs say.

import { servingHub, startCluster } from '../cluster.mjs';
import { cardsAgreeWithHub } from '../hub-session.mjs';

export const name = 'cluster';
export const expectedSeconds = 180;
export const start = (dataDir) => startCluster(dataDir, { hubs: 3, matsPerHub: 2 });

const seq = (page) => page.getByTestId('heatmap').getAttribute('data-seq');

/** Resolves the seconds until the device page's map has a new sequence number (a new live map). */
async function nextMap(page, timeout) {
  const t0 = Date.now();
  const before = await seq(page);
  await page.waitForFunction((s) => document.querySelector('[data-testid="heatmap"]')?.getAttribute('data-seq') !== s, before, { timeout });
  return (Date.now() - t0) / 1000;
}

/** Waits until HAProxy sends the browser to exactly one hub; resolves that hub's name. */
async function waitServingHub(stats, timeoutMs) {
  const t0 = Date.now();
  for (;;) {
    const hub = await servingHub(stats);
    if (hub) return hub;
    if (Date.now() - t0 > timeoutMs) throw new Error('HAProxy shows no single hub serving the browser');
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A hub's `hub_devices_connected` gauge (its own /metrics, not through HAProxy). */
async function devicesConnected(hub) {
  const res = await fetch(`${hub.http}/metrics`);
  if (!res.ok) throw new Error(`${hub.name}'s /metrics answered ${res.status}`);
  const m = /^hub_devices_connected (\d+)$/m.exec(await res.text());
  if (!m) throw new Error(`${hub.name}'s /metrics has no hub_devices_connected`);
  return Number(m[1]);
}

/** Waits until every mat of `ids` has a card that is not Offline. */
function matsOnline(page, ids, timeout) {
  return page.waitForFunction(
    (wanted) =>
      wanted.every((id) => {
        const card = document.querySelector(`[data-testid="device-card"][data-device-id="${id}"]`);
        return card && card.dataset.status !== 'Offline';
      }),
    ids,
    { timeout, polling: 500 },
  );
}

export async function run({ page, test, shot, login, target }) {
  const mats = Object.fromEntries(target.hubs.map((h) => [h.name, target.matsOf(h.name)]));
  const allIds = Object.values(mats)
    .flat()
    .map((m) => m.deviceId);
  let browserHub = null;
  let otherHub = null;
  let opened = null;
  const connectedBefore = {};
  // HAProxy answers a browser's socket itself (502/503) only if it sends it to a dead hub.
  const proxyRefusals = [];
  page.on('console', (m) => {
    if (/Unexpected response code: 5\d\d/.test(m.text())) proxyRefusals.push(m.text());
  });

  await test('one address, every hub: the grid shows the mats of all three hubs', async (ok) => {
    await login();
    await page.waitForURL((u) => u.pathname === '/devices');
    await matsOnline(page, allIds, 90_000);
    for (const h of target.hubs) ok(`${h.name}'s mats (${mats[h.name].map((m) => m.serial).join(', ')}) are on the grid and not Offline`);
    for (const h of target.hubs) connectedBefore[h.name] = await devicesConnected(h);
    ok(`devices connected to each hub: ${target.hubs.map((h) => `${h.name} ${connectedBefore[h.name]}`).join(', ')}`);
    browserHub = await waitServingHub(target.stats, 15_000);
    ok(`HAProxy serves this browser from ${browserHub}`);
    const n = await cardsAgreeWithHub(page, 20_000);
    ok(`all ${n} cards show what ${browserHub} answers`);
    await page.evaluate(() => {
      window.__sameDocument = 'not reloaded';
    });
    await shot('1-grid-three-hubs.png');
  });

  await test("a mat of another hub: its live map reaches this hub's browser through NATS", async (ok) => {
    if (!browserHub) throw new Error('no serving hub known');
    // Not the demo's hub-1 if there is a choice: its scripted devices die with it.
    otherHub = target.hubs.map((h) => h.name).find((n) => n !== browserHub && n !== 'hub-1') ?? target.hubs.find((h) => h.name !== browserHub).name;
    opened = mats[otherHub][0];
    await page.locator(`[data-testid="device-card"][data-device-id="${opened.deviceId}"]`).click();
    await page.waitForURL((u) => u.pathname === '/mattressMatIoT');
    await page.getByTestId('heatmap').waitFor();
    const first = await nextMap(page, 30_000);
    const second = await nextMap(page, 10_000);
    ok(`${opened.serial} (run by ${otherHub}) streams to the page on ${browserHub}: new maps after ${first.toFixed(1)} s and ${second.toFixed(1)} s`);
    // `hub provision` names its mats "PREFIX N" for serial PREFIX-0000N.
    const shownName = opened.serial.replace(/-0*/, ' ');
    if (!(await page.locator('body').innerText()).includes(shownName)) throw new Error(`the page does not name the mat ${shownName}`);
    ok(`the page is ${shownName}'s`);
    await shot('2-other-hubs-mat-live.png');
  });

  await test("the mat's hub is killed: the mat moves to a live hub and its page goes on", async (ok) => {
    const dying = target.hubs.find((h) => h.name === otherHub);
    process.kill(dying.pid, 'SIGKILL');
    const killedAt = Date.now();
    ok(`${otherHub} killed (SIGKILL, pid ${dying.pid})`);
    // Maps in flight may still arrive for a moment; then the mat is silent until it reconnects.
    await page.waitForTimeout(1_500);
    await nextMap(page, 30_000);
    ok(`new live maps ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill: the mat runs on another hub`);
    await nextMap(page, 10_000);
    if (await page.getByTestId('socket-down').count()) throw new Error("the socket banner shows, but the browser's hub is alive");
    ok("the browser's socket never dropped (its hub is alive)");
    await shot('3-after-its-hub-died.png');
  });

  await test("the browser's own hub is killed: the socket moves through HAProxy and re-joins, no reload", async (ok) => {
    const dying = target.hubs.find((h) => h.name === browserHub);
    process.kill(dying.pid, 'SIGKILL');
    const killedAt = Date.now();
    ok(`${browserHub} killed (SIGKILL, pid ${dying.pid})`);
    await page.waitForTimeout(1_500);
    await nextMap(page, 45_000);
    await page.getByTestId('socket-down').waitFor({ state: 'detached', timeout: 30_000 });
    ok(`live maps again ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill, the socket banner gone`);
    const now = await waitServingHub(target.stats, 15_000);
    if (now === browserHub || now === otherHub) throw new Error(`HAProxy still names ${now}`);
    ok(`HAProxy now serves this browser from ${now}`);
    if ((await page.evaluate(() => window.__sameDocument)) !== 'not reloaded') throw new Error('the page was reloaded');
    ok('the same document throughout: no page reload');
    if (proxyRefusals.length) throw new Error(`the socket's reconnect met HAProxy's own answer: ${proxyRefusals.join(' | ')}`);
    ok('the reconnect went straight to a live hub (no 5xx from HAProxy)');
    await shot('4-after-the-browsers-hub-died.png');
  });

  await test('the grid on the last hub: every simulated mat back, every card as the hub says', async (ok) => {
    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/devices');
    // A card alone could be a dead hub's last word; the last hub must hold the connections.
    const last = target.hubs.find((h) => h.name !== browserHub && h.name !== otherHub);
    const moved = mats[browserHub].length + mats[otherHub].length;
    const t0 = Date.now();
    let connected = await devicesConnected(last);
    while (connected < connectedBefore[last.name] + moved && Date.now() - t0 < 30_000) {
      await new Promise((r) => setTimeout(r, 500));
      connected = await devicesConnected(last);
    }
    if (connected < connectedBefore[last.name] + moved) {
      throw new Error(`${last.name} holds ${connected} device connections, expected ${connectedBefore[last.name]} + the ${moved} mats of the killed hubs`);
    }
    ok(`${last.name} holds ${connected} device connections (${connectedBefore[last.name]} before + the ${moved} simulated mats of the killed hubs)`);
    await matsOnline(page, allIds, 60_000);
    ok(`all ${allIds.length} simulated mats of the three hubs are on the grid and not Offline`);
    const n = await cardsAgreeWithHub(page, 30_000);
    ok(`all ${n} cards show what the last hub answers`);
    await page.waitForTimeout(500);
    await shot('5-grid-on-the-last-hub.png');
  });
}
