//! The stored analysis record (spec §3, docs/api.md "Analyses") and readers for what it holds:
//! `mapPreview` (one map, or frames) and the ordered `additionalParameters` (docs/analysis.md).
//! Pure: no I/O.

import type { Oid } from '../../lib/api';

export type AnalysisType = 'Static' | 'Dynamic' | 'Balance' | 'seatingDynamic' | 'Fitting' | 'Rehab';

export interface NamedParameter {
  name: string;
  value: unknown;
}

export interface AnalysisRecord {
  _id: Oid;
  patientId: string;
  userId: string;
  deviceId?: string | null;
  analysisType: AnalysisType | string;
  /** Unix seconds (or `{ $date }`, spec §3). */
  creationDate: number | { $date: number | string };
  notes: string;
  mapPreview: unknown;
  additionalParameters: unknown;
}

/** A map as rows × cols numbers, row-major. */
export interface Grid {
  rows: number;
  cols: number;
  cells: number[];
}

/** Unix seconds of a record's creation date, whichever way it was stored. */
export function creationSeconds(record: Pick<AnalysisRecord, 'creationDate'>): number {
  const d = record.creationDate;
  if (typeof d === 'number') return d;
  if (d && typeof d === 'object') {
    const inner = d.$date;
    if (typeof inner === 'number') return inner > 1e11 ? Math.floor(inner / 1000) : inner;
    const parsed = Date.parse(inner);
    if (!Number.isNaN(parsed)) return Math.floor(parsed / 1000);
  }
  return 0;
}

function gridOf(value: unknown): Grid | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const first = value[0];
  if (!Array.isArray(first) || first.length === 0) return null;
  const cols = first.length;
  const cells: number[] = [];
  for (const row of value) {
    if (!Array.isArray(row) || row.length !== cols) return null;
    for (const cell of row) {
      if (typeof cell !== 'number' || !Number.isFinite(cell)) return null;
      cells.push(cell);
    }
  }
  return { rows: value.length, cols, cells };
}

/** The frames of a `mapPreview` (a 2-D map is one frame); empty when it holds no valid map. */
export function previewFrames(preview: unknown): Grid[] {
  if (!Array.isArray(preview) || preview.length === 0) return [];
  const isFrames = Array.isArray(preview[0]) && Array.isArray((preview[0] as unknown[])[0]);
  const grids = (isFrames ? preview : [preview]).map(gridOf);
  return grids.every((g): g is Grid => g !== null) ? grids : [];
}

/** The cell-wise mean of frames (the static map of a series of frames); null without frames. */
export function meanGrid(frames: Grid[]): Grid | null {
  if (frames.length === 0) return null;
  if (frames.length === 1) return frames[0];
  const { rows, cols } = frames[0];
  const sums = new Array<number>(rows * cols).fill(0);
  for (const f of frames) f.cells.forEach((v, i) => (sums[i] += v));
  return { rows, cols, cells: sums.map((s) => Math.round(s / frames.length)) };
}

/** The ordered parameters; entries may be `{ name, value }` or `[name, value]` pairs. */
export function parameters(record: Pick<AnalysisRecord, 'additionalParameters'>): NamedParameter[] {
  const list = record.additionalParameters;
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry): NamedParameter[] => {
    if (Array.isArray(entry) && typeof entry[0] === 'string') return [{ name: entry[0], value: entry[1] }];
    if (entry && typeof entry === 'object' && typeof (entry as NamedParameter).name === 'string') {
      return [{ name: (entry as NamedParameter).name, value: (entry as NamedParameter).value }];
    }
    return [];
  });
}

/** The value of the parameter called `name`, if the record has it. */
export function parameter(record: Pick<AnalysisRecord, 'additionalParameters'>, name: string): unknown {
  return parameters(record).find((p) => p.name === name)?.value;
}

/** A numeric series parameter (non-numbers dropped); empty when absent. */
export function seriesParameter(record: Pick<AnalysisRecord, 'additionalParameters'>, name: string): number[] {
  const value = parameter(record, name);
  return Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : [];
}

/** A number parameter, or null. */
export function numberParameter(record: Pick<AnalysisRecord, 'additionalParameters'>, name: string): number | null {
  const value = parameter(record, name);
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
