import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createStore } from 'jotai';
import { describe, expect, it, vi } from 'vitest';
import { lutFor } from '../../lib/heatmap/palettes';
import type { DrawSettings, HeatMapRenderer, RendererFactory, RendererRequest } from '../../lib/heatmap/renderer';
import { DEFAULT_VIEW_OPTIONS, viewOptionsAtom } from '../../lib/heatmap/viewOptions';
import { DynamicPlayer } from './DynamicPlayer';
import type { Grid } from './record';
import { StaticView } from './StaticView';
import { renderAnalysis } from './testing';

const full = (v: number): Grid => ({ rows: 2, cols: 2, cells: [v, v, v, v] });

function recordingFactory() {
  const requests: RendererRequest[] = [];
  const draws: DrawSettings[] = [];
  const factory: RendererFactory = (_el, request) => {
    requests.push(request);
    return Promise.resolve<HeatMapRenderer>({ kind: request.mode === '3d' ? 'three-webgl' : 'canvas2d', draw: (_m, s) => void draws.push(s), destroy: vi.fn() });
  };
  return { factory, requests, draws, last: () => draws[draws.length - 1] };
}

describe('result view toggles', () => {
  it('start from the user view options; contour and 3D exclude each other; 3D asks for a 3-D renderer', async () => {
    const store = createStore();
    store.set(viewOptionsAtom, { ...DEFAULT_VIEW_OPTIONS, mapColorIndex: 2 });
    const rec = recordingFactory();
    await renderAnalysis(<DynamicPlayer frames={[full(50), full(60)]} result={null} createRenderer={rec.factory} />, store);
    await waitFor(() => expect(rec.draws.length).toBeGreaterThan(0));
    expect(rec.last()).toEqual({ lut: lutFor(2), interpolate: false, contour: false });
    fireEvent.click(screen.getByTestId('toggle-contour'));
    await waitFor(() => expect(rec.last().contour).toBe(true));
    fireEvent.click(screen.getByTestId('toggle-3d'));
    expect(screen.getByTestId('toggle-contour')).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByTestId('toggle-3d')).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(rec.requests.map((r) => r.mode)).toContain('3d'));
    fireEvent.click(screen.getByTestId('toggle-contour'));
    expect(screen.getByTestId('toggle-3d')).toHaveAttribute('aria-pressed', 'false');
    // The user's own options are untouched.
    expect(store.get(viewOptionsAtom).contoursEnabled).toBe(false);
  });

  it('colour cycles the palettes and smoothing its levels in the player', async () => {
    const rec = recordingFactory();
    await renderAnalysis(<DynamicPlayer frames={[full(50), full(60)]} result={null} createRenderer={rec.factory} />);
    await waitFor(() => expect(rec.draws.length).toBeGreaterThan(0));
    fireEvent.click(screen.getByTestId('toggle-colour'));
    await waitFor(() => expect(rec.last().lut).toEqual(lutFor(1)));
    expect(screen.getByTestId('toggle-smoothing')).toHaveAttribute('data-level', 'off');
    fireEvent.click(screen.getByTestId('toggle-smoothing'));
    expect(screen.getByTestId('toggle-smoothing')).toHaveAttribute('data-level', 'low');
    await waitFor(() => expect(rec.last().interpolate).toBe(true));
  });

  it('the static view offers heat map / contour and 2D / 3D only', async () => {
    await renderAnalysis(<StaticView grid={full(50)} result={null} deviceType="Podology IoT" cellCm={2} showHistogram={false} fileDate="2026-11-22" />);
    expect(screen.getByTestId('toggle-contour')).toBeInTheDocument();
    expect(screen.getByTestId('toggle-3d')).toBeInTheDocument();
    expect(screen.queryByTestId('toggle-colour')).toBeNull();
  });
});
