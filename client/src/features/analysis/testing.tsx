// Test helper: renders a piece of the analysis feature with a jotai store, real translations (en)
// and a fake map renderer, and reads the toasts it raised.
import { act, render } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { vi } from 'vitest';
import { deviceTypesAtom, tableFromList, type DeviceTypeInfo } from '../../lib/deviceTypes';
import type { HeatMapRenderer } from '../../lib/heatmap/renderer';
import { pressureScaleAtom } from '../../lib/pressureUnits';
import DEVICE_TYPES from '../../test/fixtures/deviceTypes.json';
import PRESSURE_SCALE from '../../test/fixtures/pressureScale.json';
import { initI18nWithResources } from '../../lib/i18n';
import { toastsAtom } from '../../lib/notifications';
import { allResources } from '../../test/translations';
import type { AnalysisRecord } from './record';

export const fakeMapRenderer = () => Promise.resolve<HeatMapRenderer>({ kind: 'canvas2d', draw: vi.fn(), destroy: vi.fn() });

/** A store holding what a signed-in session has loaded from the hub: its pressure scale and device types. */
export function analysisStore() {
  const store = createStore();
  store.set(pressureScaleAtom, PRESSURE_SCALE as never);
  store.set(deviceTypesAtom, tableFromList(DEVICE_TYPES as DeviceTypeInfo[]));
  return store;
}

export async function renderAnalysis(ui: ReactElement, store = analysisStore()) {
  const i18n = await initI18nWithResources(allResources(), 'en');
  const utils = render(
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>{ui}</I18nextProvider>
    </Provider>,
  );
  return { ...utils, store, i18n, toasts: () => store.get(toastsAtom).map((t) => t.key) };
}

export function record(over: Partial<AnalysisRecord> & { id?: string } = {}): AnalysisRecord {
  const { id = 'a1', ...rest } = over;
  return {
    _id: { $oid: id },
    patientId: 'p1',
    userId: 'u1',
    analysisType: 'Static',
    creationDate: 1_763_900_000,
    notes: '',
    mapPreview: [
      [0, 10],
      [20, 0],
    ],
    additionalParameters: [],
    ...rest,
  };
}

/** Lets stubbed fetches and their state updates finish under fake timers (20 ms of fake time). */
export async function settle() {
  for (let i = 0; i < 20; i++) await act(() => vi.advanceTimersByTimeAsync(1));
}
