//! A stored pressure map drawn by the shared heat-map renderer (pixi.js, lib/heatmap), with an SVG
//! layer on top for markers (centres of pressure, pressure maxima), a track and rings, all in
//! cell coordinates (x = column, y = row).

import { useEffect, useRef, type ReactNode } from 'react';
import { createHeatMapRenderer, type HeatMapRenderer } from '../../lib/heatmap/renderer';
import { gridToFrame } from './gridFrame';
import type { Grid } from './record';

export type MapRendererFactory = (container: HTMLElement, size: { rows: number; cols: number }) => Promise<HeatMapRenderer>;

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
  markers?: MapMarker[];
  track?: Array<[number, number]>;
  /** Circles around a centre, in cells. */
  rings?: { centre: [number, number]; radii: readonly number[] };
  children?: ReactNode;
  createRenderer?: MapRendererFactory;
}

export function ResultMap({ grid, testId, label, markers = [], track, rings, children, createRenderer = createHeatMapRenderer }: ResultMapProps) {
  const host = useRef<HTMLDivElement>(null);
  const renderer = useRef<HeatMapRenderer | null>(null);
  const latest = useRef(grid);
  latest.current = grid;

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    let disposed = false;
    createRenderer(el, { rows: grid.rows, cols: grid.cols })
      .then((r) => {
        if (disposed) return r.destroy();
        renderer.current = r;
        r.draw(gridToFrame(latest.current));
      })
      .catch((err) => console.error('result map renderer failed', err));
    return () => {
      disposed = true;
      renderer.current?.destroy();
      renderer.current = null;
    };
    // The renderer is made once per map size; later maps are drawn into it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [createRenderer, grid.rows, grid.cols]);

  useEffect(() => {
    renderer.current?.draw(gridToFrame(grid));
  }, [grid]);

  return (
    <div className="result-map" data-testid={testId} role="img" aria-label={label} style={{ aspectRatio: `${grid.cols} / ${grid.rows}` }}>
      <div ref={host} className="result-map-canvas" />
      <svg className="result-map-overlay" viewBox={`0 0 ${grid.cols} ${grid.rows}`} preserveAspectRatio="none" aria-hidden="true">
        {rings
          ? rings.radii.map((r) => (
              <ellipse key={r} cx={rings.centre[0] + 0.5} cy={rings.centre[1] + 0.5} rx={r} ry={r} className="result-ring" data-radius={r} />
            ))
          : null}
        {track && track.length > 1 ? (
          <polyline className="result-track" points={track.map(([x, y]) => `${x + 0.5},${y + 0.5}`).join(' ')} />
        ) : null}
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
      {children}
    </div>
  );
}
