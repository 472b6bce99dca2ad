//! A stored pressure map drawn by the shared map renderer (lib/heatmap: pixi.js flat views, three.js
//! 3-D surface) under view options (palette, smoothing, threshold, contour, 3-D), with an SVG layer
//! on top of the flat views for markers (centres of pressure, pressure maxima), a track and rings,
//! all in cell coordinates (x = column, y = row). Its colours run from zero to the capture's own
//! highest cell (a player: the whole capture's), as the PDF's map does (`reports`' `scale_max`),
//! unless the user set a manual scale; given the device's pressure display, a colour bar in the
//! user's unit says so under the map.

import { useAtomValue } from 'jotai';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { legendText, MapLegend } from '../../components/MapLegend';
import { lutFor } from '../../lib/heatmap/palettes';
import { interpolates, prepareMap } from '../../lib/heatmap/prepare';
import { createMapRenderer, type DrawSettings, type HeatMapRenderer, type RendererFactory } from '../../lib/heatmap/renderer';
import { viewOptionsAtom, type ViewOptions } from '../../lib/heatmap/viewOptions';
import type { PressureDisplay } from '../../lib/pressureUnits';
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
  /** The device's pressure display: given (null while the hub's scale loads), the colour bar is shown. */
  display?: PressureDisplay | null;
  /** The least top of the automatic scale, in cells: a player's whole capture's highest cell, so
   * that a light step does not look as strong as a heavy one. The map's own highest by default. */
  autoFloor?: number;
}

const settingsOf = (v: ViewOptions): DrawSettings => ({ lut: lutFor(v.mapColorIndex), interpolate: interpolates(v.smoothenIndex), contour: v.contoursEnabled });

export function ResultMap({ grid, testId, label, view, markers = [], track, rings, children, createRenderer = createMapRenderer, display, autoFloor = 1 }: ResultMapProps) {
  const { t, i18n } = useTranslation();
  const userView = useAtomValue(viewOptionsAtom);
  const options = view ?? userView;
  const prepared = useMemo(() => prepareMap(gridToFrame(grid), options, autoFloor), [grid, options, autoFloor]);
  const host = useRef<HTMLDivElement>(null);
  const renderer = useRef<HeatMapRenderer | null>(null);
  const latest = useRef({ prepared, options });
  latest.current = { prepared, options };
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
        r.draw(now.prepared, settingsOf(now.options));
      })
      .catch((err) => console.error('result map renderer failed', err));
    return () => {
      disposed = true;
      renderer.current?.destroy();
      renderer.current = null;
    };
  }, [createRenderer, mode, grid.rows, grid.cols]);

  useEffect(() => {
    renderer.current?.draw(prepared, settingsOf(options));
  }, [prepared, options]);

  const lng = i18n.resolvedLanguage ?? i18n.language;
  const map = (
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
  if (display === undefined) return map;
  return (
    <figure className="result-map-figure" data-scale={prepared.scale}>
      {map}
      <MapLegend
        palette={options.mapColorIndex}
        low={legendText(0, display, lng)}
        high={legendText(prepared.scale, display, lng)}
        display={display}
        testId={`${testId}-legend`}
      >
        <span className="muted">{options.manualScale ? t('view.scaleManual') : t('view.scaleAuto')}</span>
      </MapLegend>
    </figure>
  );
}
