// Tour: every analysis on its own device (issue 21). A patient is registered and selected through
// the REST API, then the hub captures on the demo's simulated devices over the socket, as the
// capture buttons do (the four devices side by side): a static and a dynamic capture on the seat,
// the bed, the rehab mat and the podology plate, and a balance test on the plate. Each device page then shows its own history
// and draws each result by its device's family: a seat as a seat, a bed as body regions, the
// rehab mat's body centre, the plate's feet and gait; the balance view with its ellipse; the
// video player at each speed.

import { hubSocket, captureOutcome, capture, api } from '../hub-session.mjs';

export const name = 'families';
// About how long this tour takes (2 at a time on 2 cores); e2e/run.mjs starts the longest first.
export const expectedSeconds = 70;





const DEVICES = [
  { type: 'Seating Mat IoT', route: '/SeatingMatIoT', key: 'seat', dynamic: 'seatingDynamic' },
  { type: 'Mattress Mat IoT', route: '/mattressMatIoT', key: 'bed', dynamic: 'seatingDynamic' },
  { type: 'Rehab Mat', route: '/RehabMat', key: 'rehab', dynamic: 'Rehab' },
  { type: 'Podology IoT', route: '/PodiatryIoT', key: 'plate', dynamic: 'Dynamic' },
];


export async function run({ base, page, test, login, artifacts }) {
  const shotOf = (testId, file) => page.getByTestId(testId).screenshot({ path: `${artifacts}/${file}` });
  const ids = {};

  await test('captures on each device', async (ok) => {
    await login();
    const userId = await page.evaluate(() => localStorage.getItem('userId'));
    const token = await page.evaluate(() => localStorage.getItem('user'));
    const devices = (await api(page, '/api/userDevices')).body;
    for (const d of DEVICES) {
      const found = devices.find((x) => x.deviceType === d.type);
      if (!found) throw new Error(`no ${d.type} in the demo`);
      ids[d.key] = found._id.$oid;
    }
    const created = await api(page, `/api/podometry/patients/${userId}`, {
      method: 'POST',
      body: JSON.stringify({ name: 'Rosa Families', weight: 72, height: 165, gender: 'Female', agreeDataTreatment: true }),
    });
    if (created.status !== 201) throw new Error(`patient not created: ${created.status}`);
    const patientId = created.body._id.$oid;
    await api(page, `/api/podometry/patient/select/${userId}`, { method: 'PUT', body: JSON.stringify({ patientId }) });
    // The devices capture side by side, each through a socket of its own (a refusal comes back
    // on the socket that asked, without naming the device); each device's captures in turn.
    const onEach = (captures) =>
      Promise.all(
        DEVICES.map(async (d) => {
          const socket = await hubSocket(base, token);
          try {
            for (const [kind, seconds] of captures(d)) await capture(socket, ids[d.key], patientId, kind, seconds);
          } finally {
            socket.close();
          }
        }),
      );
    await onEach(() => [['Static']]);
    ok('a static capture on the seat, the bed, the rehab mat and the plate');
    await onEach((d) => (d.key === 'plate' ? [['Balance'], ['Dynamic', 15]] : [['Dynamic', 15]]));
    ok('a balance test on the plate; a 15 s dynamic capture on each');
    await page.waitForTimeout(1500);
  });

  for (const d of DEVICES) {
    await test(`${d.key}: its own history and results`, async (ok) => {
      await page.goto(`${base}/devices`);
      await page.locator(`[data-testid="device-card"][data-device-type="${d.type}"]`).first().click();
      await page.waitForURL((u) => u.pathname === d.route);
      await page.getByTestId('history-card').first().waitFor();
      const types = await page.getByTestId('history-card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-analysis-type')));
      const expected = d.key === 'plate' ? ['Dynamic', 'Balance', 'Static'] : [d.dynamic, 'Static'];
      if (JSON.stringify(types) !== JSON.stringify(expected)) throw new Error(`history lists ${types.join(', ')}, expected ${expected.join(', ')}`);
      ok(`the history lists this device's analyses only: ${types.join(', ')}`);
      for (const kind of ['Static', d.dynamic]) {
        await page.locator(`[data-testid="history-card"][data-analysis-type="${kind}"]`).first().getByTestId('history-open').click();
        const preview = page.locator(`[data-testid="result-preview"][data-analysis-type="${kind}"]`);
        await preview.waitFor();
        const shownAs = await preview.getAttribute('data-device-type');
        if (shownAs !== d.type) throw new Error(`${kind} drawn as ${shownAs}`);
        if ((await page.getByTestId('figures-unavailable').count()) !== 0) throw new Error(`${kind}: no figures`);
        const text = await preview.textContent();
        if (d.key !== 'plate' && d.key !== 'rehab' && /foot|rocker/i.test(text ?? '')) throw new Error(`${kind} on the ${d.key} talks about feet: ${text}`);
        if (kind === 'Static' && (d.key === 'seat' || d.key === 'bed')) {
          // The histogram's bars are named by their bins' upper limits in the result's unit.
          const ticks = (await page.getByTestId('histogram-chart').getAttribute('data-x-ticks'))?.split(' | ') ?? [];
          if (ticks.length !== 8 || !ticks.every((t) => /^[\d.,]+$/.test(t))) throw new Error(`histogram bins named ${ticks.join(', ')}`);
          ok(`the histogram's bins end at ${ticks.join(', ')} (mmHg)`);
        }
        if (kind === 'Static' && d.key === 'bed') {
          // The profile along the bed is a share of the total pressure, and says so.
          const title = await page.getByTestId('mattress-profile').getAttribute('aria-label');
          if (title !== 'Share of the total pressure along the mattress (% per 4 cm)') throw new Error(`the profile is titled ${title}`);
          ok(`the profile: ${title}`);
        }
        if (kind === 'seatingDynamic') {
          // A bed's dynamic capture is pressure over time, no seat's analysis: named so, and
          // without the seated figures (the ischial dispersion index, push-ups).
          const title = (await preview.locator('h3').textContent())?.split(' · ')[0];
          const card = (await page.locator('[data-testid="history-card"][data-analysis-type="seatingDynamic"]').first().getByTestId('history-type').textContent()) ?? '';
          const dispersion = await page.getByTestId('seating-dispersion').count();
          const [name, tiles] = d.key === 'bed' ? ['Pressure over time', 0] : ['Seating analysis', 1];
          if (title !== name || card !== name) throw new Error(`the ${d.key}'s dynamic capture is named "${title}" (card "${card}"), expected "${name}"`);
          if (dispersion !== tiles) throw new Error(`the ${d.key}'s dynamic capture shows ${dispersion} dispersion tiles`);
          ok(`the ${d.key}'s dynamic capture: "${name}", ${tiles ? 'with' : 'without'} a dispersion index`);
        }
        await page.waitForTimeout(400);
        await shotOf('result-preview', `${d.key}-${kind}.png`);
        ok(`${kind} drawn as ${shownAs}`);
        await page.getByTestId('result-close').click();
      }
    });
  }

  await test('plate: balance view and the player at each speed', async (ok) => {
    await page.goto(`${base}/devices`);
    await page.locator('[data-testid="device-card"][data-device-type="Podology IoT"]').first().click();
    await page.getByTestId('history-card').first().waitFor();
    await page.locator('[data-testid="history-card"][data-analysis-type="Balance"]').first().getByTestId('history-open').click();
    await page.getByTestId('balance-body-ellipse').waitFor();
    ok('the body 95 % ellipse is drawn');
    await shotOf('result-preview', 'plate-balance.png');
    await page.getByTestId('result-close').click();
    await page.locator('[data-testid="history-card"][data-analysis-type="Dynamic"]').first().getByTestId('history-open').click();
    const player = page.getByTestId('player');
    await player.waitFor();
    const labels = await page.locator('[data-testid="player-speed"] option').allTextContents();
    if (labels.join() !== '1,2,3') throw new Error(`speeds ${labels}`);
    // The time between two frames while playing, at each speed (the median of the first few).
    // A walk is kept from the first empty plate, so from the first frame the video plays on
    // through the empty start (it stops only where a walker leaves the plate, spec §4): it is
    // still playing 700 ms after Play at every speed.
    // A browser starved of CPU (the tours run two at a time beside the API fuzzer on two cores)
    // draws late at any speed: the three speeds are measured again, up to three times in all,
    // until they order; a player whose speeds do not differ fails all three.
    const measure = async () => {
      const intervals = [];
      for (const label of labels) {
        await page.getByTestId('player-speed').selectOption({ label });
        await page.getByRole('button', { name: 'First frame' }).click();
        const ms = await page.evaluate(
          () =>
            new Promise((resolve) => {
              const el = document.querySelector('[data-testid="player"]');
              const times = [];
              const seen = new MutationObserver(() => times.push(performance.now()));
              seen.observe(el, { attributes: true, attributeFilter: ['data-index'] });
              document.querySelector('[data-testid="player-play"]')?.click();
              setTimeout(() => {
                seen.disconnect();
                const gaps = times.slice(1).map((t, i) => t - times[i]).sort((x, y) => x - y);
                resolve(gaps.length ? gaps[Math.floor(gaps.length / 2)] : Infinity);
              }, 700);
            }),
        );
        intervals.push(Math.round(ms));
        if ((await player.getAttribute('data-playing')) !== 'true') {
          throw new Error(`speed ${label}: the video stopped at frame ${await player.getAttribute('data-index')} within 700 ms of the first`);
        }
        await shotOf('result-preview', `player-speed-${label}.png`);
        const pause = page.getByTestId('player-pause');
        if (await pause.count()) await pause.click();
      }
      return intervals;
    };
    const tries = [];
    let intervals = [];
    do {
      intervals = await measure();
      tries.push(intervals.join(','));
    } while (!(intervals[0] > intervals[1] && intervals[1] > intervals[2]) && tries.length < 3);
    if (!(intervals[0] > intervals[1] && intervals[1] > intervals[2])) throw new Error(`ms per frame at speeds 1, 2, 3, three times: ${tries.join(' | ')}`);
    ok(`ms per frame at speeds 1, 2, 3: ${tries.join(' | ')}`);
  });
}
