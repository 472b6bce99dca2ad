//! Turn compliance's REST calls: the figures of a date range (`GET /api/compliance/{from}/{to}`),
//! their PDF (`GET /api/compliancePdf/{from}/{to}/{language}`) and the company's shift settings
//! (`GET`/`PUT /api/complianceSettings`, administrators set them).

import type { ComplianceJson, ComplianceRow, ShiftSettingsJson } from '../../api/types';
import { ApiError, apiFetch } from '../../lib/api';
import { readToken } from '../../lib/session';

export type { ComplianceJson, ComplianceRow, ShiftSettingsJson };

const seg = (s: string) => encodeURIComponent(s);

export const getCompliance = (from: string, to: string): Promise<ComplianceJson> =>
  apiFetch<ComplianceJson>(`/api/compliance/${seg(from)}/${seg(to)}`);

export const getShiftSettings = (): Promise<ShiftSettingsJson> => apiFetch<ShiftSettingsJson>('/api/complianceSettings');

export const putShiftSettings = (settings: ShiftSettingsJson): Promise<ShiftSettingsJson> =>
  apiFetch<ShiftSettingsJson>('/api/complianceSettings', { method: 'PUT', body: JSON.stringify(settings) });

/** The PDF and the name the hub gives it. */
export async function downloadCompliancePdf(from: string, to: string, language: string): Promise<{ blob: Blob; fileName: string }> {
  const res = await fetch(`/api/compliancePdf/${seg(from)}/${seg(to)}/${seg(language)}`, {
    headers: { Authorization: `Bearer ${readToken() ?? ''}` },
  });
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
  const named = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '');
  return { blob: await res.blob(), fileName: named?.[1] ?? `turn-compliance_${from}_${to}.pdf` };
}
