import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider as JotaiProvider } from 'jotai';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { Notifications } from '../../components/Notifications';
import { createAppStore } from '../../lib/devicesStore';
import { DEFAULT_VIEW_OPTIONS, viewOptionsAtom } from '../../lib/heatmap/viewOptions';
import { initI18nWithResources } from '../../lib/i18n';
import { companyVariantsAtom, NO_VARIANTS } from '../../lib/companyVariants';
import { pressureScaleAtom } from '../../lib/pressureUnits';
import { DEVICE_TYPE_TABLE, PRESSURE_SCALE, stubFetch } from '../../test/renderApp';
import { deviceTypesAtom, tableFromList, type DeviceTypeInfo } from '../../lib/deviceTypes';
import { allResources } from '../../test/translations';
import type { LayoutSettingsDto } from './layoutSettings';
import { SAVE_DELAY_MS } from './useLayoutSettings';
import { ViewOptionsToolbar } from './ViewOptionsToolbar';

const PATH = '/api/LayoutSettings/u1';

/** The hub's LayoutSettings as the toolbar sees it: GET answers the stored record (or the
 * defaults), PUT stores the body (201 the first time, 200 after). */
function layoutHub(initial: Partial<LayoutSettingsDto> | null = null, { failSave = false, failLoad = false } = {}) {
  let stored: Partial<LayoutSettingsDto> | null = initial;
  const saves: Array<{ body: LayoutSettingsDto; status: number }> = [];
  const fetch = stubFetch({
    [PATH]: (init) => {
      if (init?.method === 'PUT') {
        if (failSave) return { status: 500, body: { error: 'internal' } };
        const body = JSON.parse(String(init.body)) as LayoutSettingsDto;
        const status = stored ? 200 : 201;
        stored = body;
        saves.push({ body, status });
        return { status, body };
      }
      if (failLoad) return { status: 500, body: { error: 'internal' } };
      return { body: stored ?? { ...DEFAULT_VIEW_OPTIONS } };
    },
  });
  return { fetch, saves, stored: () => stored };
}

async function renderToolbar(store = createAppStore(), deviceType?: string) {
  localStorage.setItem('user', 'T0K');
  localStorage.setItem('userId', 'u1');
  const i18n = await initI18nWithResources(allResources(), 'en');
  const utils = render(
    <JotaiProvider store={store}>
      <I18nextProvider i18n={i18n}>
        <ViewOptionsToolbar deviceType={deviceType} />
        <Notifications />
      </I18nextProvider>
    </JotaiProvider>,
  );
  const toolbar = screen.getByTestId('view-options');
  await waitFor(() => expect(toolbar).not.toHaveAttribute('data-state', 'loading'));
  return { ...utils, store, toolbar };
}

const opts = (store: ReturnType<typeof createAppStore>) => store.get(viewOptionsAtom);

describe('view options toolbar', () => {
  it('loads the user settings on open, with the controls disabled meanwhile', async () => {
    layoutHub({ ...DEFAULT_VIEW_OPTIONS, mapColorIndex: 3, thresholdValue: 20, contoursEnabled: true, manualScale: true, manualScaleValue: 400 });
    localStorage.setItem('user', 'T0K');
    localStorage.setItem('userId', 'u1');
    const i18n = await initI18nWithResources(allResources(), 'en');
    const store = createAppStore();
    render(
      <JotaiProvider store={store}>
        <I18nextProvider i18n={i18n}>
          <ViewOptionsToolbar />
        </I18nextProvider>
      </JotaiProvider>,
    );
    expect(screen.getByTestId('view-options')).toHaveAttribute('data-state', 'loading');
    expect(screen.getByTestId('palette-button')).toBeDisabled();
    await waitFor(() => expect(screen.getByTestId('view-options')).toHaveAttribute('data-state', 'ready'));
    expect(screen.getByTestId('palette-button')).toHaveTextContent('Colour: Viridis');
    expect(screen.getByTestId('threshold-value')).toHaveTextContent('20');
    expect(screen.getByTestId('contour-toggle')).toBeChecked();
    expect(screen.getByTestId('3d-toggle')).not.toBeChecked();
    expect(screen.getByTestId('manual-scale-toggle')).toBeChecked();
    expect(screen.getByTestId('manual-scale-value')).toHaveValue(400);
  });

  it('the colour button cycles the 13 palettes and wraps', async () => {
    layoutHub();
    const { store } = await renderToolbar();
    const button = screen.getByTestId('palette-button');
    expect(button).toHaveTextContent('Colour: Pressure');
    const seen: number[] = [];
    for (let i = 0; i < 13; i++) {
      fireEvent.click(button);
      seen.push(opts(store).mapColorIndex);
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0]);
    expect(button).toHaveTextContent('Colour: Pressure');
    fireEvent.click(button);
    expect(button).toHaveTextContent('Colour: Jet');
  });

  it('contour and 3D turn each other off', async () => {
    layoutHub();
    const { store } = await renderToolbar();
    const contour = screen.getByTestId('contour-toggle');
    const threeD = screen.getByTestId('3d-toggle');
    fireEvent.click(contour);
    expect(contour).toBeChecked();
    fireEvent.click(threeD);
    expect(threeD).toBeChecked();
    expect(contour).not.toBeChecked();
    expect(opts(store)).toMatchObject({ is3Dmode: true, contoursEnabled: false });
    fireEvent.click(contour);
    expect(contour).toBeChecked();
    expect(threeD).not.toBeChecked();
    fireEvent.click(contour);
    expect(opts(store)).toMatchObject({ is3Dmode: false, contoursEnabled: false });
  });

  it('the threshold slider runs 0–75 in steps of 5', async () => {
    layoutHub();
    const { store } = await renderToolbar();
    const slider = screen.getByTestId('threshold');
    expect(slider).toHaveAttribute('min', '0');
    expect(slider).toHaveAttribute('max', '75');
    expect(slider).toHaveAttribute('step', '5');
    fireEvent.change(slider, { target: { value: '35' } });
    expect(screen.getByTestId('threshold-value')).toHaveTextContent('35');
    expect(opts(store).thresholdValue).toBe(35);
    fireEvent.change(slider, { target: { value: '75' } });
    expect(opts(store).thresholdValue).toBe(75);
  });

  it('smoothing is chosen from its levels', async () => {
    layoutHub();
    const { store } = await renderToolbar();
    fireEvent.change(screen.getByTestId('smoothing'), { target: { value: '2' } });
    expect(opts(store).smoothenIndex).toBe(2);
    expect(screen.getByTestId('smoothing')).toHaveDisplayValue('Medium');
  });

  it('the manual scale is clamped to 50–1000 in steps of 50 and empty resets it to 200', async () => {
    layoutHub();
    const { store } = await renderToolbar();
    const input = screen.getByTestId('manual-scale-value');
    expect(input).toBeDisabled();
    fireEvent.click(screen.getByTestId('manual-scale-toggle'));
    expect(input).toBeEnabled();
    expect(opts(store).manualScale).toBe(true);
    const enter = (text: string, commit: 'blur' | 'enter' = 'blur') => {
      fireEvent.change(input, { target: { value: text } });
      if (commit === 'blur') fireEvent.blur(input);
      else fireEvent.keyDown(input, { key: 'Enter' });
    };
    enter('5000');
    expect(input).toHaveValue(1000);
    expect(opts(store).manualScaleValue).toBe(1000);
    enter('1000');
    expect(opts(store).manualScaleValue).toBe(1000);
    enter('');
    expect(input).toHaveValue(200);
    expect(opts(store).manualScaleValue).toBe(200);
    enter('10', 'enter');
    expect(opts(store).manualScaleValue).toBe(50);
    enter('50');
    expect(opts(store).manualScaleValue).toBe(50);
    enter('49');
    expect(opts(store).manualScaleValue).toBe(50);
    enter('1001');
    expect(opts(store).manualScaleValue).toBe(1000);
    enter('330', 'enter');
    expect(input).toHaveValue(350);
  });

  it('saves changes (created the first time, updated after) and loads them back on the next open', async () => {
    const hub = layoutHub();
    const first = await renderToolbar();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(screen.getByTestId('palette-button'));
    fireEvent.click(screen.getByTestId('palette-button'));
    fireEvent.change(screen.getByTestId('threshold'), { target: { value: '45' } });
    act(() => vi.advanceTimersByTime(SAVE_DELAY_MS - 1));
    expect(hub.saves).toHaveLength(0);
    await act(async () => vi.advanceTimersByTime(1));
    vi.useRealTimers();
    await waitFor(() => expect(first.toolbar).toHaveAttribute('data-state', 'saved'));
    expect(hub.saves).toHaveLength(1);
    expect(hub.saves[0].status).toBe(201);
    expect(hub.saves[0].body).toMatchObject({ mapColorIndex: 2, thresholdValue: 45, manualScaleValue: 200 });
    fireEvent.click(screen.getByTestId('contour-toggle'));
    fireEvent.click(screen.getByTestId('manual-scale-toggle'));
    fireEvent.change(screen.getByTestId('manual-scale-value'), { target: { value: '650' } });
    fireEvent.blur(screen.getByTestId('manual-scale-value'));
    // One save for the three changes, once they stop.
    await waitFor(() => expect(hub.saves).toHaveLength(2));
    await new Promise((r) => setTimeout(r, SAVE_DELAY_MS + 50));
    expect(hub.saves).toHaveLength(2);
    expect(hub.saves[1].status).toBe(200);
    const saved = first.store.get(viewOptionsAtom);
    first.unmount();

    // A new page (new store): the options come back from the hub.
    const second = await renderToolbar(createAppStore());
    expect(second.store.get(viewOptionsAtom)).toEqual(saved);
    expect(screen.getByTestId('palette-button')).toHaveTextContent('Colour: Hot');
    expect(screen.getByTestId('threshold-value')).toHaveTextContent('45');
    expect(screen.getByTestId('contour-toggle')).toBeChecked();
    expect(screen.getByTestId('manual-scale-value')).toHaveValue(650);
    expect(hub.saves).toHaveLength(2);
  });

  it('sends a change still waiting when the page closes', async () => {
    const hub = layoutHub();
    const { unmount } = await renderToolbar();
    fireEvent.click(screen.getByTestId('palette-button'));
    unmount();
    await waitFor(() => expect(hub.saves).toHaveLength(1));
    expect(hub.saves[0].body.mapColorIndex).toBe(1);
  });

  it('sends a change still waiting when the browser leaves the page (reload)', async () => {
    const hub = layoutHub();
    const { toolbar } = await renderToolbar();
    fireEvent.change(screen.getByTestId('threshold'), { target: { value: '15' } });
    expect(toolbar).toHaveAttribute('data-state', 'pending');
    expect(screen.getByTestId('view-save')).toHaveTextContent('Saving…');
    act(() => {
      window.dispatchEvent(new Event('pagehide'));
    });
    await waitFor(() => expect(hub.saves).toHaveLength(1));
    expect(hub.saves[0].body.thresholdValue).toBe(15);
    expect(hub.fetch.mock.calls.at(-1)?.[1]).toMatchObject({ method: 'PUT', keepalive: true });
  });

  it('tells the user when the settings cannot be loaded or saved', async () => {
    layoutHub(null, { failLoad: true, failSave: true });
    await renderToolbar();
    expect(await screen.findByText('Your view options could not be loaded.')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('palette-button'));
    expect(await screen.findByText('Your view options could not be saved.', {}, { timeout: 2000 })).toBeInTheDocument();
    expect(screen.getByTestId('view-options')).toHaveAttribute('data-state', 'error');
  });

  it('the pressure unit is mmHg until kPa is chosen, and the choice is saved with the view options', async () => {
    const hub = layoutHub();
    const store = createAppStore();
    store.set(pressureScaleAtom, PRESSURE_SCALE as never);
    await renderToolbar(store);
    const unit = screen.getByTestId('pressure-unit');
    expect(unit).toHaveValue('mmHg');
    expect([...unit.querySelectorAll('option')].map((o) => o.value)).toEqual(['mmHg', 'kPa']);
    fireEvent.change(unit, { target: { value: 'kPa' } });
    expect(opts(store).pressureUnit).toBe('kPa');
    await waitFor(() => expect(hub.saves).toHaveLength(1), { timeout: SAVE_DELAY_MS + 1000 });
    expect(hub.saves[0]?.body.pressureUnit).toBe('kPa');
  });

  it('reads back a saved kPa choice, and a fitness company reads its fixed kPa scale instead', async () => {
    layoutHub({ ...DEFAULT_VIEW_OPTIONS, pressureUnit: 'kPa' });
    const store = createAppStore();
    store.set(pressureScaleAtom, PRESSURE_SCALE as never);
    await renderToolbar(store);
    expect(screen.getByTestId('pressure-unit')).toHaveValue('kPa');
    act(() => store.set(companyVariantsAtom, { ...NO_VARIANTS, fitness: true }));
    expect(screen.queryByTestId('pressure-unit')).toBeNull();
    expect(screen.getByTestId('pressure-unit-fitness')).toHaveTextContent('kPa (fitness scale)');
  });

  it('says what the threshold and the manual scale are in the unit on the shown device', async () => {
    layoutHub({ ...DEFAULT_VIEW_OPTIONS, thresholdValue: 35, manualScaleValue: 200 });
    const store = createAppStore();
    store.set(pressureScaleAtom, PRESSURE_SCALE as never);
    store.set(deviceTypesAtom, tableFromList(DEVICE_TYPE_TABLE as unknown as DeviceTypeInfo[]));
    await renderToolbar(store, 'Mattress Mat IoT');
    // A bed's step is 0.4 mmHg: 35 steps hide the cells under 14.0 mmHg, 200 steps are 80.0 mmHg.
    expect(screen.getByTestId('threshold-pressure')).toHaveTextContent('(14.0 mmHg)');
    expect(screen.getByTestId('manual-scale-pressure')).toHaveTextContent('(80.0 mmHg)');
    fireEvent.change(screen.getByTestId('threshold'), { target: { value: '40' } });
    expect(screen.getByTestId('threshold-pressure')).toHaveTextContent('(16.0 mmHg)');
    fireEvent.change(screen.getByTestId('pressure-unit'), { target: { value: 'kPa' } });
    expect(screen.getByTestId('threshold-pressure')).toHaveTextContent('(2.13 kPa)');
  });

  it('says nothing beside them without a device (its steps are unknown)', async () => {
    layoutHub();
    const store = createAppStore();
    store.set(pressureScaleAtom, PRESSURE_SCALE as never);
    await renderToolbar(store);
    expect(screen.queryByTestId('threshold-pressure')).toBeNull();
    expect(screen.queryByTestId('manual-scale-pressure')).toBeNull();
  });
});
