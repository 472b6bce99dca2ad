//! The hub's analysis calls (docs/api.md "Analyses" and "Reports"): history pages and counts for
//! the company or one patient, notes, deletion, PDF reports and the raw-data export.

import { ApiError, apiFetch } from '../../lib/api';
import { saveBlob } from '../../lib/saveFile';
import { readToken } from '../../lib/session';
import { STORAGE } from '../../lib/storageKeys';
import type { AnalysisRecord } from './record';

export interface HistoryPage {
  analyses: AnalysisRecord[];
  currentPageCount: number;
  totalPages: number;
  totalAnalysis: number;
  /** MB, 2 decimals. */
  totalSize: number;
}

export interface HistoryCount {
  totalAnalysis: number;
  totalPages: number;
  totalSize: number;
}

/** The signed-in user's id (the `{userId}` of the history paths). */
function userId(): string {
  return encodeURIComponent(localStorage.getItem(STORAGE.userId) ?? '');
}

const seg = encodeURIComponent;

/** One history page (1-based), 10 a page, newest first; `patientId` narrows it to one patient. */
export function fetchHistoryPage(page: number, patientId: string | null, analysisType = 'all'): Promise<HistoryPage> {
  const path = patientId
    ? `/api/podometryAnalysisPatient/${userId()}/${seg(patientId)}/${seg(analysisType)}/${page}`
    : `/api/podometryAnalysisPage/${userId()}/${seg(analysisType)}/${page}`;
  return apiFetch<HistoryPage>(path);
}

/** One page of the analyses made on one device (a device page's default history, issue 21). */
export function fetchDeviceHistoryPage(page: number, deviceId: string, analysisType = 'all'): Promise<HistoryPage> {
  return apiFetch<HistoryPage>(`/api/deviceAnalysisPage/${userId()}/${seg(deviceId)}/${seg(analysisType)}/${page}`);
}

/** Counts for one device's analyses. */
export function fetchDeviceHistoryCount(deviceId: string, analysisType = 'all'): Promise<HistoryCount> {
  return apiFetch<HistoryCount>(`/api/deviceAnalysisCount/${userId()}/${seg(deviceId)}/${seg(analysisType)}`);
}

/** Counts (and storage used) for the company or one patient. */
export function fetchHistoryCount(patientId: string | null, analysisType = 'all'): Promise<HistoryCount> {
  const path = patientId
    ? `/api/podometryAnalysisCountPatient/${userId()}/${seg(patientId)}/${seg(analysisType)}`
    : `/api/podometryAnalysisCount/${userId()}/${seg(analysisType)}`;
  return apiFetch<HistoryCount>(path);
}

/** The company's patients' names by id (the history cards name the patient of each analysis). */
export async function fetchPatientNames(): Promise<Map<string, string>> {
  const patients = await apiFetch<Array<{ _id: { $oid: string }; name: string }>>(`/api/podometry/patients/${userId()}`);
  return new Map(patients.map((p) => [p._id.$oid, p.name]));
}

export const saveNotes = (id: string, notes: string): Promise<AnalysisRecord> =>
  apiFetch<AnalysisRecord>(`/api/podometryAnalysis/specific/${seg(id)}`, { method: 'PUT', body: JSON.stringify({ notes }) });

export const deleteAnalysis = (id: string): Promise<unknown> =>
  apiFetch<unknown>(`/api/podometryAnalysis/specific/${seg(id)}`, { method: 'DELETE' });

/** A downloaded file: its bytes and the name the hub gave it. */
export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

/** The file name of a `Content-Disposition` header (`filename*=UTF-8''…` or `filename="…"`). */
export function fileNameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/.exec(header);
  const name = (plain?.[1] ?? plain?.[2] ?? '').trim();
  return name || fallback;
}

async function download(path: string, init: RequestInit, fallback: string): Promise<DownloadedFile> {
  const headers = new Headers(init.headers);
  headers.set('Authorization', `Bearer ${readToken() ?? ''}`);
  if (init.body !== undefined) headers.set('Content-Type', 'application/json');
  const res = await fetch(path, { ...init, headers });
  if (!res.ok) {
    let code = `http${res.status}`;
    try {
      const body = (await res.json()) as { error?: unknown };
      if (typeof body.error === 'string') code = body.error;
    } catch {
      // not JSON
    }
    throw new ApiError(res.status, code);
  }
  return { blob: await res.blob(), fileName: fileNameFromDisposition(res.headers.get('Content-Disposition'), fallback) };
}

export type PdfWidget = 'mainPage' | 'pressureMap' | 'results' | 'histogram' | 'notes';

export interface PdfLayoutOptions {
  widgets: PdfWidget[];
  language: string;
  /** Palette id (reports/palettes.json). */
  palette: string;
  /** Top of the colour scale when the user's manual scale is on. */
  manualScale?: number;
  /** The user's clock on the record's day (minutes east of UTC) and zone name. */
  utcOffsetMinutes?: number;
  timeZone?: string;
}

/** `POST /api/downloadAnalysisPDF/{id}/{x}`; `x` (the old client's view index) is 0. */
export const downloadAnalysisPdf = (id: string, layoutOptions: PdfLayoutOptions): Promise<DownloadedFile> =>
  download(`/api/downloadAnalysisPDF/${seg(id)}/0`, { method: 'POST', body: JSON.stringify({ layoutOptions }) }, 'analysis_report.pdf');

export type PaperSize = 'A3' | 'A4';

export const downloadRealScalePdf = (
  id: string,
  layout: PaperSize,
  language: string,
  palette: string,
  clock: { utcOffsetMinutes?: number; timeZone?: string } = {},
): Promise<DownloadedFile> =>
  download(`/api/downloadRealScalePDF/${seg(id)}`, { method: 'POST', body: JSON.stringify({ layout, language, palette, ...clock }) }, 'real_scale.pdf');

export type ExportKind = 'processed' | 'unprocessed';

export const downloadRawExport = (id: string, kind: ExportKind): Promise<DownloadedFile> =>
  download(`/api/analysisExport/${seg(id)}/${kind}`, { method: 'GET' }, `${kind}_analysis.json`);

/** Hands a downloaded file to the browser under its name. */
export function saveFile({ blob, fileName }: DownloadedFile): void {
  saveBlob(blob, fileName);
}
