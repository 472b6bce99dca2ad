//! REST client for the hub (docs/api.md). Every call but login carries the bearer token; any 401
//! drops the token, which sends the guarded routes back to /login.

import type * as Api from '../api/types';
import { dropToken, readToken } from './session';

/** A non-OK answer. `code` is the hub's `error` field (an i18n key where one fits). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message?: string) {
    super(message ?? 'Network response was not ok');
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

export type { LoginResponse, Oid, PatientStatus, CardStatus, SideStatus, RepositioningTier, RepositioningClock } from '../api/types';

/** A device as the hub lists it (`DeviceJson`); navigation state may carry only part of it. */
export type UserDevice = Pick<Api.DeviceJson, '_id' | 'name' | 'deviceType'> & Partial<Api.DeviceJson>;

/** The REST form of a device configuration (`DeviceConfJson`); the socket's `deviceConf` has a plain
 * string id and may leave fields out. */
export type DeviceConfDto = Partial<Omit<Api.DeviceConfJson, 'deviceId'>> & { deviceId: Api.Oid | string };

/** Reads an id that may come as `"abc"` or `{ $oid: "abc" }`. */
export function oidOf(value: unknown): string | null {
  if (typeof value === 'string') return value.length > 0 ? value : null;
  if (value && typeof value === 'object' && '$oid' in value) {
    const inner = (value as Api.Oid).$oid;
    return typeof inner === 'string' && inner.length > 0 ? inner : null;
  }
  return null;
}

async function errorCode(res: Response): Promise<{ code: string; message?: string }> {
  try {
    const body = (await res.json()) as { error?: unknown; message?: unknown };
    return {
      code: typeof body.error === 'string' ? body.error : `http${res.status}`,
      message: typeof body.message === 'string' ? body.message : undefined,
    };
  } catch {
    return { code: `http${res.status}` };
  }
}

/** Calls an authenticated endpoint and parses JSON. */
export async function apiFetch<T>(path: string, init: RequestInit = {}): Promise<T> {
  const token = readToken();
  // Signed out already (a late call after logout): nothing to drop, nothing to send.
  if (!token) throw new ApiError(401, 'unauthorized');
  const headers = new Headers(init.headers);
  headers.set('Authorization', `Bearer ${token}`);
  if (init.body !== undefined) headers.set('Content-Type', 'application/json');
  const res = await fetch(path, { ...init, headers });
  if (res.status === 401) {
    dropToken();
    const { code, message } = await errorCode(res);
    throw new ApiError(401, code, message);
  }
  if (!res.ok) {
    const { code, message } = await errorCode(res);
    throw new ApiError(res.status, code, message);
  }
  // 204 No Content (an unpairing, a logout): nothing to parse.
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** POST /api/auth/login. A wrong e-mail or password rejects with code `incorrectCredentials`. */
export async function login(email: string, password: string): Promise<Api.LoginResponse> {
  const res = await fetch('/api/auth/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) {
    const { code, message } = await errorCode(res);
    throw new ApiError(res.status, res.status === 401 ? 'incorrectCredentials' : code, message);
  }
  return (await res.json()) as Api.LoginResponse;
}

export const getUserDevices = (): Promise<UserDevice[]> => apiFetch<UserDevice[]>('/api/userDevices');

export const getDeviceConfCompany = (): Promise<DeviceConfDto[]> =>
  apiFetch<DeviceConfDto[]>('/api/deviceConfCompany');

/** One entry of GET /api/iotAlarms/{id}. */
export type AlarmEntry = Api.AlarmJson;
/** One entry of GET /api/iotLogs/{id}. */
export type DeviceLogEntry = Api.DeviceLogJson;
/** One entry of GET /api/presenceLogs/{id}: logId '1' entrance, '0' exit. */
export type PresenceEntry = Api.PresenceJson;

const seg = encodeURIComponent;

export const getAlarms = (deviceId: string): Promise<AlarmEntry[]> => apiFetch(`/api/iotAlarms/${seg(deviceId)}`);
export const attendAlarms = (deviceId: string): Promise<Api.Attended> =>
  apiFetch(`/api/iotAlarms/${seg(deviceId)}`, { method: 'PUT' });
export const getDeviceLogs = (deviceId: string): Promise<DeviceLogEntry[]> => apiFetch(`/api/iotLogs/${seg(deviceId)}`);
export const getPresenceLogs = (deviceId: string): Promise<PresenceEntry[]> => apiFetch(`/api/presenceLogs/${seg(deviceId)}`);
export const getRepositioning = (deviceId: string): Promise<Api.RepositioningClock> =>
  apiFetch(`/api/device/${seg(deviceId)}/repositioning`);
export const setRepositioning = (deviceId: string, minutes: number | null): Promise<Api.RepositioningInterval> =>
  apiFetch(`/api/device/${seg(deviceId)}/repositioning`, { method: 'PUT', body: JSON.stringify({ minutes }) });
export const getTare = (deviceId: string): Promise<Api.TareJson> => apiFetch(`/api/device/${seg(deviceId)}/tare`);
export const zeroTare = (deviceId: string): Promise<Api.TareJson> =>
  apiFetch(`/api/device/${seg(deviceId)}/tare`, { method: 'POST' });
