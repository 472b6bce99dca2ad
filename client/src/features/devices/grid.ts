//! Columns of the device grid (spec §2): 1 on small screens, 3 from 768 px, 4 from 1024, 5 from 1280,
//! 6 from 1536. The layout itself is CSS (devices.css); a test checks that file against this table.

export const GRID_CLASS = 'device-grid';

export const GRID_BREAKPOINTS: ReadonlyArray<{ minWidth: number; columns: number }> = [
  { minWidth: 0, columns: 1 },
  { minWidth: 768, columns: 3 },
  { minWidth: 1024, columns: 4 },
  { minWidth: 1280, columns: 5 },
  { minWidth: 1536, columns: 6 },
];

export function columnsForWidth(width: number): number {
  let columns = 1;
  for (const bp of GRID_BREAKPOINTS) if (width >= bp.minWidth) columns = bp.columns;
  return columns;
}
