//! The colour bar under a pressure map: its bottom and top in the user's unit with the palette
//! between them, then what sets the top (automatic or manual scale, the scale's basis). The live
//! map (`HeatMap`, whose top follows each frame through the ref) and a stored capture's map
//! (`ResultMap`) share it.

import { forwardRef, type ReactNode } from 'react';
import { paletteGradient } from '../lib/heatmap/palettes';
import { formatPressureMark, type PressureDisplay } from '../lib/pressureUnits';

/** A colour-bar end (cell steps) with its unit; the bare rounded value until the hub's scale is known. */
export function legendText(steps: number, display: PressureDisplay | null, lng: string): string {
  return display ? formatPressureMark(steps, display, lng) : String(Math.round(steps));
}

export interface MapLegendProps {
  /** The view options' palette index. */
  palette: number;
  /** The bar's two ends, as `legendText` writes them. */
  low: string;
  high: string;
  display: PressureDisplay | null;
  /** The legend's test id; its top's is `${testId}-max`. */
  testId: string;
  /** What follows the bar: the scale's kind, its basis. */
  children?: ReactNode;
}

/** The colour bar; the ref is its top's text, for a live map to rewrite without a render. */
export const MapLegend = forwardRef<HTMLSpanElement, MapLegendProps>(function MapLegend({ palette, low, high, display, testId, children }, topRef) {
  return (
    <div className="map-legend" data-testid={testId} data-unit={display?.unit ?? ''}>
      <span>{low}</span>
      <span className="map-legend-bar" style={{ background: paletteGradient(palette) }} />
      <span ref={topRef} data-testid={`${testId}-max`}>
        {high}
      </span>
      {children}
    </div>
  );
});
