import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { companyVariantsAtom, NO_VARIANTS } from '../../lib/companyVariants';
import { viewOptionsAtom } from '../../lib/heatmap/viewOptions';
import { BodyCentreView } from './BodyCentreView';
import { DynamicPlayer } from './DynamicPlayer';
import { BedStaticView } from './BedStaticView';
import type { BedStaticResult, DynamicResult, MattressResult, SeatingStaticResult, StaticResult } from './engineResult';
import { MattressPanel, sharesOfTotal } from './MattressPanel';
import type { Grid } from './record';
import { SeatingStaticView } from './SeatingStaticView';
import { SeatingView } from './SeatingView';
import { StaticView } from './StaticView';
import { analysisStore, fakeMapRenderer, record, renderAnalysis } from './testing';

const full = (v: number): Grid => ({ rows: 2, cols: 2, cells: [v, v, v, v] });

describe('dynamic player', () => {
  const frames = [full(50), full(60), full(70), full(80)]; // 10 playback frames

  const player = () => screen.getByTestId('player');
  const index = () => Number(player().getAttribute('data-index'));

  it('advances one frame per 20 ms × speed value, "1" slowest and "3" fastest, and stops at the last frame', async () => {
    vi.useFakeTimers();
    await renderAnalysis(<DynamicPlayer frames={frames} result={null} createRenderer={fakeMapRenderer} />);
    expect(player().getAttribute('data-length')).toBe('10');
    const options = screen.getAllByRole('option') as HTMLOptionElement[];
    expect(options.map((o) => o.textContent)).toEqual(['1', '2', '3']);
    expect((screen.getByTestId('player-speed') as HTMLSelectElement).value).toBe(options[0].value);
    fireEvent.click(screen.getByTestId('player-play'));
    // "1": 200 ms a frame.
    act(() => void vi.advanceTimersByTime(199));
    expect(index()).toBe(0);
    act(() => void vi.advanceTimersByTime(1));
    expect(index()).toBe(1);
    // "2": 100 ms a frame.
    fireEvent.change(screen.getByTestId('player-speed'), { target: { value: options[1].value } });
    act(() => void vi.advanceTimersByTime(99));
    expect(index()).toBe(1);
    act(() => void vi.advanceTimersByTime(1));
    expect(index()).toBe(2);
    // "3": 20 ms a frame, the fastest.
    fireEvent.change(screen.getByTestId('player-speed'), { target: { value: options[2].value } });
    act(() => void vi.advanceTimersByTime(20));
    expect(index()).toBe(3);
    act(() => void vi.advanceTimersByTime(20 * 20));
    expect(index()).toBe(9);
    expect(player().getAttribute('data-playing')).toBe('false');
  });

  it('any step, first or last pauses', async () => {
    vi.useFakeTimers();
    await renderAnalysis(<DynamicPlayer frames={frames} result={null} createRenderer={fakeMapRenderer} />);
    for (const name of ['Next frame', 'Previous frame', 'Last frame', 'First frame']) {
      fireEvent.click(screen.getByTestId('player-play'));
      act(() => void vi.advanceTimersByTime(40));
      expect(player().getAttribute('data-playing')).toBe('true');
      const before = index();
      fireEvent.click(screen.getByRole('button', { name }));
      expect(player().getAttribute('data-playing')).toBe('false');
      const expected = { 'Next frame': before + 1, 'Previous frame': before - 1, 'Last frame': 9, 'First frame': 0 }[name];
      expect(index()).toBe(expected);
      act(() => void vi.advanceTimersByTime(200));
      expect(index()).toBe(expected);
    }
  });

  it('a pointer press on the map pauses the video in 3D only (spec §4)', async () => {
    vi.useFakeTimers();
    await renderAnalysis(<DynamicPlayer frames={frames} result={null} createRenderer={fakeMapRenderer} />);
    fireEvent.click(screen.getByTestId('player-play'));
    fireEvent.pointerDown(screen.getByTestId('video-map-area'));
    expect(player().getAttribute('data-playing')).toBe('true');
    fireEvent.click(screen.getByTestId('toggle-3d'));
    fireEvent.pointerDown(screen.getByTestId('video-map-area'));
    expect(player().getAttribute('data-playing')).toBe('false');
    vi.useRealTimers();
  });

  it('stops when the map empties while playing, and shows getOff 1.5 s later', async () => {
    vi.useFakeTimers();
    const { toasts } = await renderAnalysis(
      <DynamicPlayer frames={[full(50), full(0), full(0)]} result={null} createRenderer={fakeMapRenderer} />,
    );
    fireEvent.click(screen.getByTestId('player-play'));
    act(() => void vi.advanceTimersByTime(600)); // at speed "1" (200 ms a frame): frames 1, 2 interpolate 33 and 17; frame 3 is empty
    expect(index()).toBe(3);
    expect(player().getAttribute('data-playing')).toBe('false');
    act(() => void vi.advanceTimersByTime(1499));
    expect(toasts()).not.toContain('getOff');
    act(() => void vi.advanceTimersByTime(1));
    expect(toasts()).toContain('getOff');
  });

  it('opens at the first frame with pressure: a walk kept from the empty plate shows its first contact, not a blank map', async () => {
    vi.useFakeTimers();
    await renderAnalysis(<DynamicPlayer frames={[full(0), full(0), full(50), full(60)]} result={null} createRenderer={fakeMapRenderer} />);
    expect(index()).toBe(6);
    expect(player().getAttribute('data-playing')).toBe('false');
    fireEvent.click(screen.getByTestId('player-play'));
    act(() => void vi.advanceTimersByTime(200));
    expect(index()).toBe(7);
    // First goes to the very first frame; a video with no pressure at all opens there too.
    fireEvent.click(screen.getByRole('button', { name: 'First frame' }));
    expect(index()).toBe(0);
    vi.useRealTimers();
  });

  it('rockers to 3 decimals, shares to 1; errors per foot', async () => {
    const result: DynamicResult = {
      feetSeparated: true,
      durationS: 15,
      left: {
        contactFrames: 20,
        error: null,
        rockers: { stanceS: 0.6, heelRockerS: 0.1234, ankleRockerS: 0.3, forefootRockerS: 0.1766, heelRockerShare: 20.56, ankleRockerShare: 50, forefootRockerShare: 29.44 },
      },
      right: { contactFrames: 1, error: 'dynamic.error2', rockers: null },
    };
    const { i18n } = await renderAnalysis(<DynamicPlayer frames={frames} result={result} createRenderer={fakeMapRenderer} />);
    expect(screen.getByTestId('left-heel-s')).toHaveTextContent('0.123 s');
    expect(screen.getByTestId('left-heel-share')).toHaveTextContent('20.6 %');
    expect(screen.getByTestId('rockers-right-error').textContent).toBe(i18n.t('dynamic.error2'));
    expect(screen.queryByTestId('rockers-left-error')).toBeNull();
  });
});

const staticResult = (over: Partial<StaticResult> = {}): StaticResult => ({
  LeftCenterOfPressure: [10, 20],
  RightCenterOfPressure: [30, 20],
  GlobalCenterOfPressure: [20, 20],
  LeftPressureMaximum: [10, 10, 200],
  RightPressureMaximum: [30, 10, 180],
  GlobalPressureMaximum: [10, 10, 200],
  LeftFrontPressureDistribution: 30,
  LeftBackPressureDistribution: 20,
  LeftGlobalPressureDistribution: 50,
  RightFrontPressureDistribution: 25,
  RightBackPressureDistribution: 25,
  RightGlobalPressureDistribution: 50,
  LeftFrontSurface: 40,
  LeftBackSurface: 30,
  LeftGlobalSurface: 70,
  RightFrontSurface: 38,
  RightBackSurface: 30,
  RightGlobalSurface: 68,
  activePointsTotal: 120,
  avgPressure: 50,
  maxPressure: 200,
  medianPressure: 45,
  leftPercentage: 50,
  rightPercentage: 50,
  footprintEdgeWarning: false,
  feetSeparated: true,
  histogram: { binUpperBounds: [25, 50, 75, 100, 125, 150, 175, 200], counts: [1, 2, 3, 4, 5, 6, 7, 8], percentages: [2.8, 5.6, 8.3, 11.1, 13.9, 16.7, 19.4, 22.2] },
  ...over,
});

describe('static result', () => {
  it('foot panels, global panel, CoP and maximum markers; no histogram on a podology plate', async () => {
    const { container } = await renderAnalysis(<StaticView grid={full(50)} result={staticResult()} deviceType="Podology IoT" cellCm={2} showHistogram={false} fileDate="2026-11-22" />);
    expect(within(screen.getByTestId('foot-left')).getByText('30 %')).toBeInTheDocument();
    expect(within(screen.getByTestId('foot-right')).getByText('68 cm²')).toBeInTheDocument();
    // 20 cells of 2 cm from the map's corner.
    expect(screen.getByTestId('global-cop-value')).toHaveTextContent('x 40 cm · y 40 cm');
    // Without a weighed patient: the plate's documented scale (200 steps × 1 kPa = 1500.1 mmHg), said so.
    expect(screen.getByText(/^1[,\u00a0\u202f]?500\.1\s?mmHg$/)).toBeInTheDocument();
    expect(screen.getByTestId('pressure-basis')).toHaveTextContent("Sensor's documented scale");
    expect([...container.querySelectorAll('[data-marker]')].map((m) => m.getAttribute('data-marker'))).toEqual(['leftCop', 'rightCop', 'globalCop', 'globalMax']);
    expect(screen.queryByTestId('histogram')).toBeNull();
    expect(screen.queryByTestId('edge-warning')).toBeNull();
  });

  it('a weighed patient: pressures through the calibration stored with the result, and the page says so', async () => {
    const calibration = { weightKg: 72, loadShare: 0.7, cellAreaCm2: 4, kpaPerStep: 0.1 };
    await renderAnalysis(
      <StaticView
        grid={full(50)}
        result={staticResult({
          pressureCalibration: calibration,
          histogram: { binUpperBounds: [25, 50, 75, 100, 125, 150, 175, 200], counts: [1, 2, 3, 4, 5, 6, 7, 12], percentages: [2.5, 5, 7.5, 10, 12.5, 15, 17.5, 30] },
        })}
        deviceType="Podology IoT"
        cellCm={2}
        showHistogram
        fileDate="2026-11-22"
      />,
    );
    // 200 steps × 0.1 kPa = 20 kPa = 150.0 mmHg; bins in mmHg too.
    expect(screen.getByText('150.0 mmHg')).toBeInTheDocument();
    expect(screen.getByTestId('pressure-basis')).toHaveTextContent("Patient's weight: 70 % of 72 kg on the surface");
    expect(within(screen.getByTestId('histogram')).getAllByRole('listitem')[0]).toHaveTextContent('≤ 18.8 mmHg: 1');
    // Every bin's share to one decimal and the pressure to the unit's, whole ones too, as the PDF.
    expect(within(screen.getByTestId('histogram')).getAllByRole('listitem')[7]).toHaveTextContent(/^≤ 150\.0\s?mmHg: 12 \(30\.0\s?%\)$/);
    // The chart's bins are named by their upper limits in the same unit, not numbered.
    const chart = screen.getByTestId('histogram-chart');
    expect(chart).toHaveAttribute('data-x-ticks', '18.8 | 37.5 | 56.3 | 75.0 | 93.8 | 112.5 | 131.3 | 150.0');
    expect(chart).toHaveAttribute('aria-label', 'Pressure histogram');
  });

  it('hideCentreOfPressure hides the global marker and value; fitness shows kPa × 0.06', async () => {
    const store = analysisStore();
    store.set(companyVariantsAtom, { ...NO_VARIANTS, hideCentreOfPressure: true, fitness: true });
    const { container } = await renderAnalysis(<StaticView grid={full(50)} result={staticResult()} deviceType="Fitness Mat" cellCm={1} showHistogram fileDate="2026-11-22" />, store);
    expect(container.querySelector('[data-marker="globalCop"]')).toBeNull();
    expect(container.querySelector('[data-marker="leftCop"]')).not.toBeNull();
    expect(screen.queryByTestId('global-cop-value')).toBeNull();
    expect(screen.getByText('12.00 kPa')).toBeInTheDocument(); // max 200 × 0.06
    // The fitness variant's numbers say which scale they read.
    expect(screen.getByTestId('pressure-basis')).toHaveTextContent('kPa (fitness scale)');
    expect(screen.getByTestId('histogram')).toBeInTheDocument();
  });

  it('edge warning; 8-bin histogram with download on seating, horse and mattress', async () => {
    const create = vi.fn(() => 'blob:x');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: create, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await renderAnalysis(<StaticView grid={full(50)} result={staticResult({ footprintEdgeWarning: true })} deviceType="Seating Mat IoT" cellCm={2} showHistogram fileDate="2026-11-22" />);
    expect(screen.getByTestId('edge-warning')).toBeInTheDocument();
    expect(within(screen.getByTestId('histogram')).getAllByRole('listitem')).toHaveLength(8);
    fireEvent.click(screen.getByTestId('histogram-download'));
    expect(click).toHaveBeenCalledTimes(1);
    expect((click.mock.instances[0] as unknown as HTMLAnchorElement).download).toBe('histogram_2026-11-22.json');
  });

  it('without stored figures only the map is shown', async () => {
    await renderAnalysis(<StaticView grid={full(50)} result={null} deviceType="Podology IoT" cellCm={2} showHistogram fileDate="2026-11-22" />);
    expect(screen.getByTestId('figures-unavailable')).toBeInTheDocument();
    expect(screen.getByTestId('static-map')).toBeInTheDocument();
  });
});

describe('mattress profile', () => {
  it('is each column\'s share of the total pressure, in %, along the mattress', async () => {
    expect(sharesOfTotal([30, 10, 0, 60])).toEqual([30, 10, 0, 60]);
    expect(sharesOfTotal([1, 3])).toEqual([25, 75]);
    expect(sharesOfTotal([0, 0])).toEqual([0, 0]);
    const mattress: MattressResult = { profile: [0, 4, 8].map((positionCm) => ({ positionCm, totalPressure: 7 })), profileLengthCm: 12, contactAreaCm2: 48, heightCm: null, weightKg: null, bmi: null };
    await renderAnalysis(<MattressPanel mattress={mattress} />);
    expect(screen.getByTestId('mattress-profile')).toHaveAttribute('data-points', '3');
    // The title says what the curve is; the columns' 4 cm come from the result's length.
    expect(screen.getByTestId('mattress-profile')).toHaveAttribute('aria-label', 'Share of the total pressure along the mattress (% per 4 cm)');
  });
});

describe('mattress tiles', () => {
  it('BMI to 1 decimal, height, weight and contact area; blank when unknown', async () => {
    const mattress: MattressResult = { profile: [{ positionCm: 0, totalPressure: 5 }], profileLengthCm: 192, contactAreaCm2: 1600, heightCm: 170, weightKg: 70, bmi: 24.2 };
    const { rerender } = await renderAnalysis(<MattressPanel mattress={mattress} />);
    expect(screen.getByTestId('tile-bmi')).toHaveTextContent(/^24\.2 kg\/m²$/);
    expect(screen.getByTestId('tile-height')).toHaveTextContent('170 cm');
    expect(screen.getByTestId('tile-contact')).toHaveTextContent('1,600 cm²');
    rerender(<MattressPanel mattress={{ ...mattress, bmi: 24, heightCm: null }} />);
    expect(screen.getByTestId('tile-bmi')).toHaveTextContent(/^24\.0 kg\/m²$/);
    expect(screen.getByTestId('tile-height')).toHaveTextContent('—');
  });
});

describe('body centre', () => {
  it.each([
    ['Good', 'rgb(46, 157, 79)'],
    ['Bad', 'rgb(240, 140, 0)'],
    ['Uncomplete', 'rgb(214, 40, 40)'],
  ])('%s in its colour, with rings 11/18/25 around the target', async (quality, colour) => {
    const { container } = await renderAnalysis(
      <BodyCentreView
        grid={{ rows: 48, cols: 48, cells: new Array(48 * 48).fill(10) }}
        result={{ distanceCm: 1, quality, meanCenterOfPressure: [24, 24], target: [23.5, 23.5], trace: [[24, 24], [25, 24]], rings: [{ radius: 11, share: 90 }, { radius: 18, share: 100 }, { radius: 25, share: 100 }] }}
      />,
    );
    expect(screen.getByTestId('body-centre-quality')).toHaveStyle({ color: colour });
    expect([...container.querySelectorAll('[data-radius]')].map((r) => r.getAttribute('data-radius'))).toEqual(['11', '18', '25']);
  });
});

describe('seating result', () => {
  const seating = (pushUps: boolean) =>
    record({
      analysisType: 'seatingDynamic',
      additionalParameters: [
        { name: 'activePoints', value: [10, 12, 11] },
        { name: 'lateralityHistoric', value: [{ l: 0.5, r: 0.5 }] },
        { name: 'analysisTime', value: 2 },
        { name: 'peakPressureIndex', value: 812 },
        { name: 'dispersionIndex', value: 37.5 },
        { name: 'peakPressureIndexMean', value: 32.48 },
        ...(pushUps ? [{ name: 'pushUps', value: [{ startS: 1, durationS: 1.2 }] }] : []),
      ],
    });

  it('six panels without push-ups, seven with; PPI and dispersion index', async () => {
    const { unmount } = await renderAnalysis(<SeatingView record={seating(false)} grid={full(20)} deviceType="Seating Mat IoT" fileDate="2026-11-22" />);
    expect(within(screen.getByTestId('seating-panels')).getAllByRole('button')).toHaveLength(6);
    // The PPI is the hub's window mean (812 over 25 cells = 32.48 steps of 1 mmHg), with its unit
    // and scale; never the bare sum.
    expect(screen.getByTestId('seating-ppi')).toHaveTextContent(/^32\.5\s?mmHg$/);
    expect(screen.getByTestId('pressure-basis')).toHaveTextContent("Sensor's documented scale");
    expect(screen.getByTestId('seating-dispersion')).toHaveTextContent('37.5 %');
    expect(screen.queryByTestId('seating-error')).toBeNull();
    unmount();
    await renderAnalysis(<SeatingView record={seating(true)} grid={full(20)} deviceType="Seating Mat IoT" fileDate="2026-11-22" />);
    expect(within(screen.getByTestId('seating-panels')).getAllByRole('button')).toHaveLength(7);
  });

  it('each closed panel gives its figure over the capture, with its unit; a saturated highest is "≥"', async () => {
    const rec = record({
      analysisType: 'seatingDynamic',
      additionalParameters: [
        { name: 'activePoints', value: [10, 12, 11] },
        { name: 'contactArea', value: [400, 420] },
        { name: 'maxPressureHistoric', value: [120, 255, 200] },
        { name: 'meanPressureHistoric', value: [30, 34] },
        { name: 'lateralityHistoric', value: [{ l: 0.4, r: 0.6 }, { l: 0.5, r: 0.5 }] },
        { name: 'centerOfPressure', value: [[10, 20], [13.2, 19], [11, 21.5]] },
        { name: 'analysisTime', value: 2 },
        { name: 'peakPressureIndex', value: 812 },
      ],
    });
    await renderAnalysis(<SeatingView record={rec} grid={full(20)} deviceType="Seating Mat IoT" fileDate="2026-11-22" />);
    expect(screen.getByTestId('seating-summary-activePoints')).toHaveTextContent('mean 11');
    expect(screen.getByTestId('seating-summary-contactArea')).toHaveTextContent(/^mean 410\s?cm²$/);
    // A seat's cells are 1 mmHg steps, 255 its full scale: the sensor saturated there.
    expect(screen.getByTestId('seating-summary-maxPressure')).toHaveTextContent(/^highest ≥\s?255\.0\s?mmHg$/);
    expect(screen.getByTestId('seating-summary-meanPressure')).toHaveTextContent(/^mean 32\.0\s?mmHg$/);
    expect(screen.getByTestId('seating-summary-laterality')).toHaveTextContent(/^Left 45\s?% · Right 55\s?%$/);
    // The centre of pressure moved 3.2 cm across and 2.5 cm along.
    expect(screen.getByTestId('seating-summary-centerOfPressure')).toHaveTextContent(/^moved 3\.2 × 2\.5\s?cm$/);
  });

  it('a bed\'s pressure over time: no dispersion index (the engine computes none lying down, an old record keeps one)', async () => {
    const bed = record({
      analysisType: 'seatingDynamic',
      additionalParameters: [
        { name: 'activePoints', value: [300, 310] },
        { name: 'analysisTime', value: 1 },
        { name: 'peakPressureIndex', value: 900 },
        { name: 'peakPressureIndexMean', value: 100 },
        // Stored before the hub read beds lying: a dispersion index it no longer gives.
        { name: 'dispersionIndex', value: 3.54 },
      ],
    });
    await renderAnalysis(<SeatingView record={bed} grid={full(20)} deviceType="Mattress Mat IoT" fileDate="2026-11-22" />);
    // 100 steps of a bed mat's 0.4 mmHg.
    expect(screen.getByTestId('seating-ppi')).toHaveTextContent(/^40\.0\s?mmHg$/);
    expect(screen.queryByTestId('seating-dispersion')).toBeNull();
    expect(within(screen.getByTestId('seating-panels')).getAllByRole('button')).toHaveLength(6);
  });

  it('the PPI tile follows the user\'s kPa and the fitness kPa', async () => {
    const store = analysisStore();
    store.set(viewOptionsAtom, { ...store.get(viewOptionsAtom), pressureUnit: 'kPa' });
    const { unmount } = await renderAnalysis(<SeatingView record={seating(false)} grid={full(20)} deviceType="Seating Mat IoT" fileDate="2026-11-22" />, store);
    // 32.48 mmHg = 4.33 kPa.
    expect(screen.getByTestId('seating-ppi')).toHaveTextContent(/^4\.33\s?kPa$/);
    unmount();
    const fitness = analysisStore();
    fitness.set(companyVariantsAtom, { ...NO_VARIANTS, fitness: true });
    await renderAnalysis(<SeatingView record={seating(false)} grid={full(20)} deviceType="Seating Mat IoT" fileDate="2026-11-22" />, fitness);
    // 32.48 steps × 0.06 kPa.
    expect(screen.getByTestId('seating-ppi')).toHaveTextContent(/^1\.95\s?kPa$/);
    expect(screen.getByTestId('pressure-basis')).toHaveTextContent('kPa (fitness scale)');
  });

  it('a record with nothing computed says dynamic.seatingError', async () => {
    await renderAnalysis(<SeatingView record={record({ analysisType: 'seatingDynamic', additionalParameters: [] })} grid={full(20)} deviceType="Seating Mat IoT" fileDate="2026-11-22" />);
    expect(screen.getByTestId('seating-error')).toHaveTextContent('The seating analysis could not be computed from this capture.');
  });

  it('a fifth expanded panel is refused with seatingPlots.maxGraphics', async () => {
    const { toasts } = await renderAnalysis(<SeatingView record={seating(true)} grid={full(20)} deviceType="Seating Mat IoT" fileDate="2026-11-22" />);
    const heads = within(screen.getByTestId('seating-panels')).getAllByRole('button');
    heads.slice(0, 4).forEach((h) => fireEvent.click(h));
    expect(heads.filter((h) => h.getAttribute('aria-expanded') === 'true')).toHaveLength(4);
    expect(toasts()).toEqual([]);
    fireEvent.click(heads[4]);
    expect(heads[4]).toHaveAttribute('aria-expanded', 'false');
    expect(toasts()).toEqual(['seatingPlots.maxGraphics']);
    fireEvent.click(heads[0]);
    fireEvent.click(heads[4]);
    expect(heads[4]).toHaveAttribute('aria-expanded', 'true');
    // maxPressureHistoric is not in this record: its panel says so.
    expect(screen.getByTestId('seating-panel-maxPressure')).toHaveTextContent('No data to plot for this analysis.');
  });
});

describe('seat and bed static results at the sensor\'s full scale', () => {
  const histogram = { binUpperBounds: [1, 2, 3, 4, 5, 6, 7, 8], counts: [0, 0, 0, 0, 0, 0, 0, 1], percentages: [0, 0, 0, 0, 0, 0, 0, 100] };
  const seat = (maxAtFullScale?: boolean): SeatingStaticResult => ({
    leftLoadPercent: 46,
    rightLoadPercent: 54,
    frontLoadPercent: 40,
    backLoadPercent: 60,
    leftIschial: { positionCm: [7, 21], peakMmhg: 204.3 },
    rightIschial: { positionCm: [19, 21], peakMmhg: 255 },
    peakPressureIndexMmhg: 136.7,
    dispersionIndex: 56.1,
    contactAreaCm2: 416,
    maxPressureMmhg: 255,
    ...(maxAtFullScale === undefined ? {} : { maxAtFullScale }),
    meanPressureMmhg: 87.4,
    centerOfPressureCm: [13, 20],
    histogram,
  });

  it('a seat: the maximum and the ischial peak on that cell read "≥", the other peak and a result without the flag do not', async () => {
    const { unmount } = await renderAnalysis(<SeatingStaticView grid={full(255)} result={seat(true)} deviceType="Seating Mat IoT" cellCm={2} showHistogram={false} fileDate="2026-11-22" />);
    expect(screen.getByTestId('seating-max')).toHaveTextContent(/^≥\s255\.0\s?mmHg$/);
    expect(screen.getByTestId('seating-right-ischial')).toHaveTextContent(/^≥\s255\.0\s?mmHg$/);
    expect(screen.getByTestId('seating-left-ischial')).toHaveTextContent(/^204\.3\s?mmHg$/);
    unmount();
    // A result stored before the flag existed reads as it always did.
    await renderAnalysis(<SeatingStaticView grid={full(255)} result={seat()} deviceType="Seating Mat IoT" cellCm={2} showHistogram={false} fileDate="2026-11-22" />);
    expect(screen.getByTestId('seating-max')).toHaveTextContent(/^255\.0\s?mmHg$/);
  });

  it('a bed: the region whose peak is the saturated cell reads "≥", the others do not', async () => {
    const mattress: MattressResult = { profile: [], profileLengthCm: 0, contactAreaCm2: 0, heightCm: null, weightKg: null, bmi: null };
    const bed: BedStaticResult = {
      regions: [
        { region: 'head', peakMmhg: 20, meanMmhg: 12, contactAreaCm2: 400 },
        { region: 'sacrum', peakMmhg: 102, meanMmhg: 40, contactAreaCm2: 900 },
      ],
      peakRegion: 'sacrum',
      maxPressureMmhg: 102,
      maxAtFullScale: true,
      meanPressureMmhg: 20,
      mattress,
      histogram,
    };
    await renderAnalysis(<BedStaticView grid={full(255)} result={bed} deviceType="Mattress Mat IoT" showHistogram={false} fileDate="2026-11-22" />);
    expect(within(screen.getByTestId('bed-region-sacrum')).getAllByRole('cell')[0]).toHaveTextContent(/^≥\s102\.0\s?mmHg$/);
    expect(within(screen.getByTestId('bed-region-head')).getAllByRole('cell')[0]).toHaveTextContent(/^20\.0\s?mmHg$/);
    expect(screen.getByTestId('bed-peak-region')).toHaveTextContent(/≥\s102\.0\s?mmHg/);
  });
});
