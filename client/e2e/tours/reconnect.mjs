// Tour (issue 25, item 5): the hub dies under an open page and comes back on the same address (as a
// live hub answers behind HAProxy). The page says it is reconnecting, its socket reopens and
// re-joins by itself, and the live map and the grid come back, without a page reload. (On a hub
// restarted after SIGKILL on the same data, some demo mats stay Offline while they stream: a hub
// bug reported with issue 25, not the page's; the grid is checked against what the hub says.)
// While the socket is lost nothing on screen is live: the device page greys its last map and its
// presence badge says NOT LIVE with when the last map came; a ward board open in a second tab
// marks every tile "Not live · as of …" over greyed maps; both are live again once back.

import { spawn } from 'node:child_process';
import { HUB_BIN, stopProcess } from '../harness.mjs';
import { cardsAgreeWithHub } from '../hub-session.mjs';

export const name = 'reconnect';

/** The hub's own arguments with `--http` pinned to the address it got, so a restart keeps it. */
function sameAddressArgs(hub, base) {
  const args = hub.spawnargs.slice(1);
  const at = args.indexOf('--http');
  if (at < 0) throw new Error(`no --http in ${args.join(' ')}`);
  args[at + 1] = new URL(base).host;
  return args;
}

/** Starts the hub again with `args`; resolves once it listens. */
function restartHub(args) {
  return new Promise((resolve, reject) => {
    const hub = spawn(HUB_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`the restarted hub did not listen within 90 s: ${err.slice(-2000)}`)), 90_000);
    hub.stderr.setEncoding('utf8');
    hub.stderr.on('data', (c) => {
      err = (err + c).slice(-20_000);
    });
    hub.stdout.setEncoding('utf8');
    hub.stdout.on('data', (c) => {
      out += c;
      if (/listening http=/.test(out)) {
        clearTimeout(timer);
        resolve(hub);
      }
    });
    hub.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the restarted hub exited (code ${code}): ${err.slice(-2000)}`));
    });
  });
}

const seq = (page) => page.getByTestId('heatmap').getAttribute('data-seq');

/** The device page's stale marks: presence badge, map, its label. */
const staleness = (page) =>
  page.evaluate(() => ({
    presence: document.querySelector('[data-testid="presence"]')?.getAttribute('data-stale') ?? null,
    presenceText: document.querySelector('[data-testid="presence"]')?.textContent ?? '',
    map: document.querySelector('[data-testid="heatmap"]')?.getAttribute('data-stale') ?? null,
    mapLabel: document.querySelector('[data-testid="heatmap-stale"]')?.textContent ?? null,
    blank: document.querySelector('[data-testid="heatmap"]')?.getAttribute('data-blank') ?? null,
  }));

/** The ward board's tiles: how many, how many say they are not live, and whether the maps are greyed. */
const boardStaleness = (board) =>
  board.evaluate(() => ({
    tiles: document.querySelectorAll('[data-testid="ward-tile"]').length,
    stale: document.querySelectorAll('[data-testid="ward-tile"][data-stale="true"] [data-testid="ward-stale"]').length,
    text: document.querySelector('[data-testid="ward-stale"]')?.textContent ?? null,
    canvas: document.querySelector('.ward-canvas-host')?.getAttribute('data-stale') ?? null,
  }));

export async function run({ base, page, context, test, shot, login, hub, log }) {
  let restarted = null;
  let opened = null;
  let board = null;
  try {
    await test('a live page before the hub dies', async (ok) => {
      await login();
      await page.waitForSelector('[data-testid="device-card"][data-device-type="Mattress Mat IoT"][data-status="Correct"]', { timeout: 60_000 });
      ok('the grid shows a Correct mattress');
      // Survives only as long as the page is not reloaded.
      await page.evaluate(() => {
        window.__sameDocument = 'not reloaded';
      });
      const card = page.locator('[data-testid="device-card"][data-device-type="Mattress Mat IoT"][data-status="Correct"]').first();
      opened = await card.getAttribute('data-device-id');
      await card.click();
      await page.waitForURL((u) => u.pathname === '/mattressMatIoT');
      await page.getByTestId('heatmap').waitFor();
      const before = await seq(page);
      await page.waitForFunction((s) => document.querySelector('[data-testid="heatmap"]')?.getAttribute('data-seq') !== s, before, { timeout: 30_000 });
      ok(`live maps arrive (seq ${before} → ${await seq(page)})`);
      if (await page.getByTestId('socket-down').count()) throw new Error('the socket banner shows while connected');
      const live = await staleness(page);
      if (live.presence !== null || live.map !== 'false' || live.mapLabel !== null) throw new Error(`marked stale while live: ${JSON.stringify(live)}`);
      await shot('1-live-before.png');
      // A ward board in a second tab (the same signed-in browser, its own socket).
      board = await context.newPage();
      await board.setViewportSize({ width: 1280, height: 900 });
      await board.goto(`${base}/ward`);
      await board.waitForSelector('.ward-canvas-host[data-renderer="pixi-webgl"]', { timeout: 30_000 });
      await board.waitForFunction(() => [...document.querySelectorAll('[data-testid="ward-tile-map"]')].some((m) => m.dataset.blank === 'false'), null, {
        timeout: 30_000,
      });
      const boardBefore = await boardStaleness(board);
      if (boardBefore.stale || boardBefore.canvas) throw new Error(`the board is marked stale while live: ${JSON.stringify(boardBefore)}`);
      ok(`a ward board in a second tab: ${boardBefore.tiles} live tiles`);
      await page.bringToFront();
    });

    await test('the hub is killed: the page says it is reconnecting', async (ok) => {
      const args = sameAddressArgs(hub, base);
      hub.kill('SIGKILL');
      await new Promise((r) => (hub.exitCode !== null || hub.signalCode !== null ? r() : hub.once('exit', r)));
      ok('hub killed (SIGKILL)');
      await page.getByTestId('socket-reconnecting').waitFor({ timeout: 15_000 });
      const text = (await page.getByTestId('socket-down').innerText()).replace(/\s+/g, ' ');
      if (!/Socket disconnected/.test(text) || !/Reconnecting…/.test(text)) throw new Error(`banner says "${text}"`);
      ok(`banner: "${text}"`);
      // Two more failed attempts while the hub is away: still reconnecting, still the same page.
      // Longer than the 5 s after which a quiet mat's map is blanked: the lost link does not blank it.
      await page.waitForTimeout(6_000);
      await page.getByTestId('socket-reconnecting').waitFor();
      const stale = await staleness(page);
      if (stale.presence !== 'true' || !/NOT LIVE/.test(stale.presenceText) || !/last seen \d{1,2}:\d{2}:\d{2}/.test(stale.presenceText)) {
        throw new Error(`the presence badge while reconnecting: ${JSON.stringify(stale)}`);
      }
      if (stale.map !== 'true' || stale.blank !== 'false' || !/^Not live · last map at \d{1,2}:\d{2}:\d{2}$/.test(stale.mapLabel ?? '')) {
        throw new Error(`the map while reconnecting: ${JSON.stringify(stale)}`);
      }
      ok(`device page: "${stale.presenceText}", the last map greyed: "${stale.mapLabel}"`);
      await shot('2-reconnecting.png');
      await board.getByTestId('socket-reconnecting').waitFor({ timeout: 15_000 });
      const boardStale = await boardStaleness(board);
      if (boardStale.stale !== boardStale.tiles || boardStale.canvas !== 'true' || !/^Not live · as of \d{1,2}:\d{2}:\d{2}$/.test(boardStale.text ?? '')) {
        throw new Error(`the ward board while reconnecting: ${JSON.stringify(boardStale)}`);
      }
      ok(`ward board: all ${boardStale.tiles} tiles "${boardStale.text}", the maps greyed`);
      await shot('2-ward-reconnecting.png', board);
      restarted = await restartHub(args);
      ok(`hub started again on ${new URL(base).host}`);
    });

    await test('the socket comes back by itself: live maps again, no reload', async (ok) => {
      await page.getByTestId('socket-down').waitFor({ state: 'detached', timeout: 30_000 });
      ok('the banner is gone');
      const after = await seq(page);
      await page.waitForFunction((s) => document.querySelector('[data-testid="heatmap"]')?.getAttribute('data-seq') !== s, after, { timeout: 60_000 });
      ok(`live maps from the new hub (seq ${after} → ${await seq(page)}): the device page re-joined its device`);
      const live = await staleness(page);
      if (live.presence !== null || live.map !== 'false' || live.mapLabel !== null) throw new Error(`still marked stale: ${JSON.stringify(live)}`);
      ok(`live again: "${live.presenceText}", the map in colour`);
      await shot('3-live-after.png');
      await board.getByTestId('socket-down').waitFor({ state: 'detached', timeout: 30_000 });
      const boardLive = await boardStaleness(board);
      if (boardLive.stale || boardLive.canvas) throw new Error(`the board is still marked stale: ${JSON.stringify(boardLive)}`);
      ok('the ward board is live again');
      await shot('3-ward-live-after.png', board);
      await board.close();
      board = null;
      await page.goBack();
      await page.waitForURL((u) => u.pathname === '/devices');
      await page.waitForSelector('[data-testid="device-card"][data-device-type="Mattress Mat IoT"][data-status="Correct"]', { timeout: 60_000 });
      ok('the grid shows a Correct mattress again');
      // Every card says what the new hub says (its REST answer), without a reload.
      ok(`all ${await cardsAgreeWithHub(page, 20_000)} cards show the status the new hub gives`);
      const openedStatus = await page.getAttribute(`[data-testid="device-card"][data-device-id="${opened}"]`, 'data-status');
      log(`  note - the mat whose page was open (${opened}) is ${openedStatus} on the restarted hub`);
      const marker = await page.evaluate(() => window.__sameDocument);
      if (marker !== 'not reloaded') throw new Error('the page was reloaded');
      ok('the same document throughout: no page reload');
      await page.waitForTimeout(500);
      await shot('4-grid-after.png');
    });
  } finally {
    if (board) await board.close().catch(() => {});
    if (restarted) await stopProcess(restarted);
    log('# restarted hub stopped');
  }
}
