//! A small static preview of a stored pressure map (a log entry's downsampled grid), coloured with
//! the live map's palette and scaled to its own maximum.

import { useAtomValue } from 'jotai';
import { lutFor } from '../../lib/heatmap/palettes';
import { viewOptionsAtom } from '../../lib/heatmap/viewOptions';

export function MapPreview({ grid, label }: { grid: number[][] | null; label: string }) {
  const lut = lutFor(useAtomValue(viewOptionsAtom).mapColorIndex);
  if (!grid || grid.length === 0 || !Array.isArray(grid[0]) || grid[0].length === 0) {
    return <span className="muted">—</span>;
  }
  const rows = grid.length;
  const cols = grid[0].length;
  const max = Math.max(1, ...grid.map((r) => Math.max(...r)));
  const colour = (v: number) => {
    const i = Math.round((Math.max(0, v) / max) * 255) * 4;
    return `rgb(${lut[i]},${lut[i + 1]},${lut[i + 2]})`;
  };
  return (
    <svg
      className="map-preview"
      viewBox={`0 0 ${cols} ${rows}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
      data-testid="map-preview"
      data-size={`${rows}x${cols}`}
    >
      {grid.map((row, r) => row.map((v, c) => <rect key={`${r}-${c}`} x={c} y={r} width={1.02} height={1.02} fill={colour(v)} />))}
    </svg>
  );
}
