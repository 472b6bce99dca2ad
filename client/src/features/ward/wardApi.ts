//! The board's REST calls beyond the device list and statuses: every repositioning clock of the
//! company with the latest posture (`GET /api/wardBoard`), and the company's board settings.

import type { WardClockJson, WardSettingsJson } from '../../api/types';
import { apiFetch } from '../../lib/api';

export type { WardClockJson, WardSettingsJson };

export const getWardClocks = (): Promise<WardClockJson[]> => apiFetch<WardClockJson[]>('/api/wardBoard');

/** The company's board settings (`GET /api/wardSettings`); administrators change them (`PUT`). */
export const getWardSettings = (): Promise<WardSettingsJson> => apiFetch<WardSettingsJson>('/api/wardSettings');
export const putWardSettings = (settings: WardSettingsJson): Promise<WardSettingsJson> =>
  apiFetch<WardSettingsJson>('/api/wardSettings', { method: 'PUT', body: JSON.stringify(settings) });
