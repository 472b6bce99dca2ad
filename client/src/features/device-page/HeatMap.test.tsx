import { act, render, screen } from '@testing-library/react';
import { Provider as JotaiProvider } from 'jotai';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { createAppStore } from '../../lib/devicesStore';
import { lutFor } from '../../lib/heatmap/palettes';
import type { PreparedMap } from '../../lib/heatmap/prepare';
import type { DrawSettings, HeatMapRenderer, RendererFactory, RendererRequest } from '../../lib/heatmap/renderer';
import { DEFAULT_VIEW_OPTIONS, viewOptionsAtom, type ViewOptions } from '../../lib/heatmap/viewOptions';
import { initI18nWithResources } from '../../lib/i18n';
import { LiveMapStore } from '../../lib/liveMaps';
import { ServicesContext } from '../../lib/services';
import { allResources } from '../../test/translations';
import { deviceInfoFamily } from '../../lib/devicesStore';
import { deviceTypesAtom, tableFromList, type DeviceTypeInfo } from '../../lib/deviceTypes';
import { companyVariantsAtom, NO_VARIANTS } from '../../lib/companyVariants';
import { pressureScaleAtom } from '../../lib/pressureUnits';
import type { UserDevice } from '../../lib/api';
import { DEVICE_TYPE_TABLE, PRESSURE_SCALE } from '../../test/renderApp';
import { HeatMap } from './HeatMap';

interface Made {
  request: RendererRequest;
  draws: Array<{ map: PreparedMap | null; settings: DrawSettings }>;
  destroyed: boolean;
}

function recordingFactory() {
  const made: Made[] = [];
  const factory: RendererFactory = (_container, request) => {
    const m: Made = { request, draws: [], destroyed: false };
    made.push(m);
    return Promise.resolve<HeatMapRenderer>({
      kind: request.mode === '3d' ? 'three-webgl' : 'canvas2d',
      draw: (map, settings) => m.draws.push({ map, settings }),
      destroy: () => {
        m.destroyed = true;
      },
    });
  };
  return { made, factory, last: () => made[made.length - 1], lastDraw: () => made[made.length - 1].draws.at(-1)! };
}

const frame = (rows: number, cols: number, values: number[], seq = 1) => ({
  deviceId: 'd1',
  seq,
  deviceTimeMs: seq,
  hubTimeMs: seq,
  rows,
  cols,
  bytesPerCell: 1,
  cells: Uint8Array.from(values),
  presence: 'PRESENCE',
  blank: false,
});

async function renderMap(props: { hideBelowScroll?: boolean } = {}) {
  const store = createAppStore();
  const liveMaps = new LiveMapStore();
  const rec = recordingFactory();
  const i18n = await initI18nWithResources(allResources(), 'en');
  render(
    <JotaiProvider store={store}>
      <I18nextProvider i18n={i18n}>
        <ServicesContext.Provider value={{ socket: null, liveMaps }}>
          <HeatMap deviceId="d1" createRenderer={rec.factory} {...props} />
        </ServicesContext.Provider>
      </I18nextProvider>
    </JotaiProvider>,
  );
  await act(async () => {});
  const setOptions = (o: Partial<ViewOptions>) => act(() => store.set(viewOptionsAtom, { ...store.get(viewOptionsAtom), ...o }));
  const write = (f: ReturnType<typeof frame>) => act(() => void liveMaps.write(f));
  return { store, liveMaps, rec, setOptions, write, map: screen.getByTestId('heatmap') };
}

describe('heat map', () => {
  it('draws each frame at the rows × cols the hub sent', async () => {
    const { rec, write, map } = await renderMap();
    write(frame(2, 5, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
    expect(map).toHaveAttribute('data-rows', '2');
    expect(map).toHaveAttribute('data-cols', '5');
    expect(map.style.aspectRatio).toBe('5 / 2');
    expect(rec.lastDraw().map).toMatchObject({ rows: 2, cols: 5 });
    expect(rec.lastDraw().map?.values).toHaveLength(10);
    write(frame(1, 4, [10, 20, 30, 40], 2));
    expect(map.style.aspectRatio).toBe('4 / 1');
    expect(rec.lastDraw().map).toMatchObject({ rows: 1, cols: 4 });
  });

  it('zeroes the cells under the threshold at once and in later frames', async () => {
    const { rec, write, map, setOptions } = await renderMap();
    write(frame(2, 3, [0, 10, 20, 40, 50, 90]));
    expect(map).toHaveAttribute('data-zeroed', '0');
    expect(map).toHaveAttribute('data-min-active', '10');
    setOptions({ thresholdValue: 25 });
    expect(map).toHaveAttribute('data-zeroed', '2');
    expect(map).toHaveAttribute('data-min-active', '40');
    expect([...rec.lastDraw().map!.values]).toEqual([0, 0, 0, 40, 50, 90]);
    write(frame(2, 3, [24, 25, 26, 0, 0, 0], 2));
    expect([...rec.lastDraw().map!.values]).toEqual([0, 25, 26, 0, 0, 0]);
  });

  it('scales to the manual scale when it is on, else to each frame', async () => {
    const { rec, write, map, setOptions } = await renderMap();
    write(frame(1, 2, [0, 150]));
    expect(map).toHaveAttribute('data-scale', '150');
    expect(screen.getByTestId('map-legend-max')).toHaveTextContent('150');
    setOptions({ manualScale: true, manualScaleValue: 300 });
    expect(rec.lastDraw().map?.scale).toBe(300);
    expect(map).toHaveAttribute('data-scale', '300');
    expect(screen.getByTestId('map-legend-max')).toHaveTextContent('300');
    setOptions({ manualScale: false });
    expect(rec.lastDraw().map?.scale).toBe(150);
  });

  it('draws with the chosen palette, smoothing and contour', async () => {
    const { rec, write, map, setOptions } = await renderMap();
    write(frame(1, 2, [0, 100]));
    expect(rec.lastDraw().settings).toEqual({ lut: lutFor(0), interpolate: false, contour: false });
    setOptions({ mapColorIndex: 4 });
    expect(rec.lastDraw().settings.lut).toBe(lutFor(4));
    expect(map).toHaveAttribute('data-palette', '4');
    setOptions({ smoothenIndex: 1 });
    expect(rec.lastDraw().settings.interpolate).toBe(true);
    setOptions({ contoursEnabled: true });
    expect(rec.lastDraw().settings.contour).toBe(true);
    expect(map).toHaveAttribute('data-mode', 'contour');
    expect(rec.made).toHaveLength(1);
  });

  it('3D swaps in the surface renderer with the saved camera, and its camera moves are kept', async () => {
    const { rec, write, map, setOptions, store } = await renderMap();
    write(frame(1, 2, [0, 100]));
    const camera = { ...DEFAULT_VIEW_OPTIONS.cameraPosition, eye: { x: 2, y: 0, z: 1 } };
    setOptions({ is3Dmode: true, cameraPosition: camera });
    await act(async () => {});
    expect(rec.made).toHaveLength(2);
    expect(rec.made[0].destroyed).toBe(true);
    expect(rec.last().request).toMatchObject({ mode: '3d', camera });
    expect(map).toHaveAttribute('data-renderer', 'three-webgl');
    expect(rec.lastDraw().map).toMatchObject({ rows: 1, cols: 2 });
    const moved = { ...camera, eye: { x: 0, y: 2, z: 2 } };
    act(() => rec.last().request.onCamera?.(moved));
    expect(store.get(viewOptionsAtom).cameraPosition).toEqual(moved);
    setOptions({ is3Dmode: false });
    await act(async () => {});
    expect(rec.made[1].destroyed).toBe(true);
    expect(rec.last().request.mode).toBe('flat');
  });

  it('on non-seating pages stops drawing from 950 px of scroll and resumes above it', async () => {
    const { rec, map } = await renderMap({ hideBelowScroll: true });
    const scrollTo = async (y: number) => {
      vi.spyOn(window, 'scrollY', 'get').mockReturnValue(y);
      await act(async () => {
        window.dispatchEvent(new Event('scroll'));
      });
    };
    await scrollTo(949);
    expect(map).toHaveAttribute('data-shown', 'true');
    expect(rec.made).toHaveLength(1);
    await scrollTo(950);
    expect(map).toHaveAttribute('data-shown', 'false');
    expect(rec.made[0].destroyed).toBe(true);
    expect(screen.getByText('Scroll up to see the live map.')).toBeInTheDocument();
    await scrollTo(100);
    expect(map).toHaveAttribute('data-shown', 'true');
    expect(rec.made).toHaveLength(2);
  });

  it('always draws on pages that do not hide it', async () => {
    const { rec, map } = await renderMap();
    vi.spyOn(window, 'scrollY', 'get').mockReturnValue(5000);
    await act(async () => {
      window.dispatchEvent(new Event('scroll'));
    });
    expect(map).toHaveAttribute('data-shown', 'true');
    expect(rec.made[0].destroyed).toBe(false);
  });

  it('says so when the renderer cannot start', async () => {
    const store = createAppStore();
    const i18n = await initI18nWithResources(allResources(), 'en');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    store.set(viewOptionsAtom, { ...DEFAULT_VIEW_OPTIONS, is3Dmode: true });
    render(
      <JotaiProvider store={store}>
        <I18nextProvider i18n={i18n}>
          <ServicesContext.Provider value={{ socket: null, liveMaps: new LiveMapStore() }}>
            <HeatMap deviceId="d1" createRenderer={() => Promise.reject(new Error('no WebGL'))} />
          </ServicesContext.Provider>
        </I18nextProvider>
      </JotaiProvider>,
    );
    expect(await screen.findByText('The 3D view needs WebGL, which this browser does not offer.')).toBeInTheDocument();
  });

  it('states the colour bar in mmHg, in kPa when chosen, and in the fitness kPa (issue 22)', async () => {
    const { store, write, setOptions } = await renderMap();
    act(() => {
      store.set(deviceTypesAtom, tableFromList(DEVICE_TYPE_TABLE as unknown as DeviceTypeInfo[]));
      store.set(pressureScaleAtom, PRESSURE_SCALE as never);
      store.set(deviceInfoFamily('d1'), { deviceType: 'Mattress Mat IoT', name: 'Bed' } as unknown as UserDevice);
    });
    // A bed mat's step is 0.4 mmHg: a frame topping at 195 steps is 78 mmHg.
    write(frame(1, 2, [0, 195]));
    expect(screen.getByTestId('map-legend')).toHaveAttribute('data-unit', 'mmHg');
    expect(screen.getByTestId('map-legend-max')).toHaveTextContent(/^78\smmHg$/);
    expect(screen.getByTestId('map-legend')).toHaveTextContent(/^0\smmHg/);
    setOptions({ pressureUnit: 'kPa' });
    write(frame(1, 2, [0, 195], 2));
    expect(screen.getByTestId('map-legend-max')).toHaveTextContent(/^10\.4\skPa$/);
    act(() => {
      store.set(companyVariantsAtom, { ...NO_VARIANTS, fitness: true });
      store.set(deviceInfoFamily('d1'), { deviceType: 'Fitness Mat', name: 'Mat' } as unknown as UserDevice);
    });
    write(frame(1, 2, [0, 100], 3));
    expect(screen.getByTestId('map-legend-max')).toHaveTextContent(/^6\skPa$/);
    expect(screen.getByTestId('map-legend-basis')).toHaveTextContent('kPa (fitness scale)');
  });

  it('a seat reads a sitter in plausible mmHg and says which scale (issue 22 item 1)', async () => {
    const { store, write } = await renderMap();
    act(() => {
      store.set(deviceTypesAtom, tableFromList(DEVICE_TYPE_TABLE as unknown as DeviceTypeInfo[]));
      store.set(pressureScaleAtom, PRESSURE_SCALE as never);
      store.set(deviceInfoFamily('d1'), { deviceType: 'Seating Mat IoT', name: 'Chair' } as unknown as UserDevice);
    });
    // A seat's step is 1 mmHg: an ischial peak of 180 steps is 180 mmHg (the old count read 5.3).
    write(frame(1, 2, [0, 180]));
    expect(screen.getByTestId('map-legend-max')).toHaveTextContent(/^180\smmHg$/);
    expect(screen.getByTestId('map-legend-basis')).toHaveTextContent("Sensor's documented scale");
  });
});
