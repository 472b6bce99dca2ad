//! The hub's API types by name, from src/api/schema.ts (generated from the hub's OpenAPI
//! document: `npm run api:types`). Client modules import their DTOs from here instead of
//! declaring them again.

import type { components } from './schema';

type Schemas = components['schemas'];

export type Oid = Schemas['Oid'];
export type LoginResponse = Schemas['LoginResponse'];
export type CompanyJson = Schemas['CompanyJson'];
export type CompanyVariants = Schemas['VariantsJson'];
export type DeviceJson = Schemas['DeviceJson'];
export type DeviceConfJson = Schemas['DeviceConfJson'];
export type DeviceSettingsInput = Schemas['DeviceSettingsInput'];
export type DeviceTypeInfo = Schemas['DeviceTypeInfo'];
export type PressureScale = Schemas['PressureScale'];
export type PressureUnit = Schemas['PressureUnit'];
export type PageFamily = Schemas['PageFamily'];
export type CaptureOffer = Schemas['CaptureOffer'];
export type AnalysisFamily = Schemas['AnalysisFamily'];
export type PatientStatus = Schemas['PatientStatus'];
export type CardStatus = Schemas['CardStatus'];
export type SideStatus = Schemas['SideStatus'];
export type RepositioningTier = Schemas['RepositioningTier'];
export type RepositioningClock = Schemas['RepositioningClock'];
export type TareJson = Schemas['TareJson'];
export type WardClockJson = Schemas['WardClockJson'];
export type WardSettingsJson = Schemas['WardSettingsJson'];
export type ComplianceJson = Schemas['ComplianceJson'];
export type ComplianceRow = Schemas['ComplianceRow'];
export type ShiftSettingsJson = Schemas['ShiftSettingsJson'];

export type PairingCodeJson = Schemas['PairingCodeJson'];
export type BoardSessionJson = Schemas['BoardSessionJson'];
export type BoardScreenJson = Schemas['BoardScreenJson'];
export type RepositioningInterval = Schemas['RepositioningInterval'];
export type AlarmJson = Schemas['AlarmJson'];
export type AlarmManagerInput = Schemas['AlarmManagerInput'];
export type AlarmManagerJson = Schemas['AlarmManagerJson'];
export type DeadLetterJson = Schemas['DeadLetterJson'];
export type Attended = Schemas['Attended'];
export type DeviceLogJson = Schemas['DeviceLogJson'];
export type PresenceJson = Schemas['PresenceJson'];
export type PatientJson = Schemas['PatientJson'];
export type SelectedPatientAnswer = Schemas['SelectedPatient'];
export type BedsidePatient = Schemas['BedsidePatient'];
export type PatientDeleted = Schemas['PatientDeleted'];
export type RegisteredDevice = Schemas['RegisteredDevice'];
export type QuickRegistration = Schemas['QuickRegistration'];
