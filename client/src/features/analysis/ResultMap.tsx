//! A stored pressure map drawn by the shared map renderer (lib/heatmap: pixi.js flat views, three.js
//! 3-D surface) under view options (palette, smoothing, threshold, contour, 3-D), with an SVG layer
//! on top of the flat views for markers (centres of pressure, pressure maxima), a track and rings,
//! all in cell coordinates (x = column, y = row).

import { useAtomValue } from 'jotai';
import { useEffect, useRef, type ReactNode } from 'react';
import { lutFor } from '../../lib/heatmap/palettes';
import { interpolates, prepareMap } from '../../lib/heatmap/prepare';
import { createMapRenderer, type DrawSettings, type HeatMapRenderer, type RendererFactory } from '../../lib/heatmap/renderer';
import { viewOptionsAtom, type ViewOptions } from '../../lib/heatmap/viewOptions';
import { gridToFrame } from './gridFrame';
import type { Grid } from './record';

export type MapRendererFactory = RendererFactory;

export interface MapMarker {
  id: string;
  x: number;
  y: number;
  kind: 'cop' | 'max';
  label: string;
}

export interface ResultMapProps {
  grid: Grid;
  testId: string;
  label: string;
  /** How to draw it; the user's own view options by default. */
  view?: ViewOptions;
  markers?: MapMarker[];
  track?: Array<[number, number]>;
  /** Circles around a centre, in cells. */
  rings?: { centre: [number, number]; radii: readonly number[] };
  children?: ReactNode;
  createRenderer?: MapRendererFactory;
}

const settingsOf = (v: ViewOptions): DrawSettings => ({ lut: lutFor(v.mapColorIndex), interpolate: interpolates(v.smoothenIndex), contour: v.contoursEnabled });

export function ResultMap({ grid, testId, label, view, markers = [], track, rings, children, createRenderer = createMapRenderer }: ResultMapProps) {
  const userView = useAtomValue(viewOptionsAtom);
  const options = view ?? userView;
  const host = useRef<HTMLDivElement>(null);
  const renderer = useRef<HeatMapRenderer | null>(null);
  const latest = useRef({ grid, options });
  latest.current = { grid, options };
  const mode = options.is3Dmode ? '3d' : 'flat';

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    let disposed = false;
    createRenderer(el, { mode, camera: latest.current.options.cameraPosition })
      .then((r) => {
        if (disposed) return r.destroy();
        renderer.current = r;
        const now = latest.current;
        r.draw(prepareMap(gridToFrame(now.grid), now.options), settingsOf(now.options));
      })
      .catch((err) => console.error('result map renderer failed', err));
    return () => {
      disposed = true;
      renderer.current?.destroy();
      renderer.current = null;
    };
  }, [createRenderer, mode, grid.rows, grid.cols]);

  useEffect(() => {
    renderer.current?.draw(prepareMap(gridToFrame(grid), options), settingsOf(options));
  }, [grid, options]);

  return (
    <div className="result-map" data-testid={testId} data-mode={mode} role="img" aria-label={label} style={{ aspectRatio: `${grid.cols} / ${grid.rows}` }}>
      <div ref={host} className="result-map-canvas" />
      {mode === 'flat' ? (
        <svg className="result-map-overlay" viewBox={`0 0 ${grid.cols} ${grid.rows}`} preserveAspectRatio="none" aria-hidden="true">
          {rings
            ? rings.radii.map((r) => (
                <ellipse key={r} cx={rings.centre[0] + 0.5} cy={rings.centre[1] + 0.5} rx={r} ry={r} className="result-ring" data-radius={r} />
              ))
            : null}
          {track && track.length > 1 ? <polyline className="result-track" points={track.map(([x, y]) => `${x + 0.5},${y + 0.5}`).join(' ')} /> : null}
          {markers.map((m) =>
            m.kind === 'cop' ? (
              <g key={m.id} className="marker-cop" data-marker={m.id}>
                <circle cx={m.x + 0.5} cy={m.y + 0.5} r={Math.max(0.8, grid.cols / 40)} />
              </g>
            ) : (
              <g key={m.id} className="marker-max" data-marker={m.id}>
                <rect x={m.x} y={m.y} width={1} height={1} />
              </g>
            ),
          )}
        </svg>
      ) : null}
      {children}
    </div>
  );
}
