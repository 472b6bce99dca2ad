//! The admin panel's calls (docs/api.md "Authentication and companies", "Devices"). All need role 1;
//! the hub answers 403 `forbidden` otherwise.

import type { CompanyText } from '../../components/company/CompanyFields';
import type { CompanyJson } from '../../api/types';
import { apiFetch } from '../../lib/api';

/** Spec §9: a new company's defaults. */
export const NEW_COMPANY_DEFAULTS = { pageColor: '#f5f5f5', layoutNumber: 2 } as const;

export type CompanyRecord = CompanyJson;

export interface UserInput {
  email: string;
  password: string;
  passwordRepeat: string;
  /** Company id or name. */
  company: string;
}

export interface DeviceInput {
  hardwareSerial: string;
  name: string;
  deviceType: string;
  room?: string;
  bed?: string;
  numberOfSubdevices?: number;
  /** Company id or name; the caller's when absent. */
  added_by?: string;
}

export type { QuickRegistration, RegisteredDevice } from '../../api/types';
import type { QuickRegistration, RegisteredDevice } from '../../api/types';

const post = <T>(path: string, body: unknown) => apiFetch<T>(path, { method: 'POST', body: JSON.stringify(body) });

export const companyBody = (c: CompanyText) => ({ companyName: c.companyName, address: c.address, ...NEW_COMPANY_DEFAULTS });

export const createCompany = (c: CompanyText) => post<CompanyRecord>('/api/auth/company/register', companyBody(c));

export const listCompanies = () => apiFetch<CompanyRecord[]>('/api/auth/companies');

export const createUser = (u: UserInput) => post<{ id: string; email: string; role: number; companyId: string }>('/api/auth/signup', u);

export const registerDevice = (d: DeviceInput) => post<RegisteredDevice>('/api/deviceandconfRegistration', d);

export const registerAll = (body: { company: ReturnType<typeof companyBody>; user: Omit<UserInput, 'company'>; device: DeviceInput }) =>
  post<{ id: string; device: RegisteredDevice }>('/api/registerAll', body);

export const quickRegister = (body: { hardwareSerial: string; deviceType: string; company?: string }) =>
  post<QuickRegistration>('/api/quickRegistration', body);

/** POST /api/device/{id}/secret: a new secret for a device of the caller's company, shown once. */
export const rotateDeviceSecret = (deviceId: string) =>
  apiFetch<RegisteredDevice>(`/api/device/${encodeURIComponent(deviceId)}/secret`, { method: 'POST' });

/** One entry of GET /api/auditLog/{page}. */
export interface AuditEntry {
  id: string;
  /** Unix milliseconds. */
  at: number;
  userId: string;
  userEmail: string;
  /** `entity.verb`, e.g. `device.rotateSecret`. */
  action: string;
  entityType: string;
  entityId: string;
  companyId: string;
  summary: string;
}

export interface AuditPage {
  entries: AuditEntry[];
  page: number;
  perPage: number;
  total: number;
}

/** GET /api/auditLog/{page} (from 1), newest first. */
export const getAuditLog = (page: number) => apiFetch<AuditPage>(`/api/auditLog/${page}`);
