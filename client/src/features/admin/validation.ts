//! The admin popups' client checks (spec §5), each answering the §8 toast key of the first rule
//! broken, or null. The hub checks the same rules again (docs/api.md "Validation keys").

export const MIN_PASSWORD_LENGTH = 6;
export const DEFAULT_SUBDEVICES = 2;

/** A basic address: something@something.tld, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface UserFields {
  email: string;
  password: string;
  passwordRepeat: string;
}

export type UserErrorKey = 'emptyEmail' | 'incorrectEmail' | 'passwordsUnmatch' | 'shortPassword';

export function userError({ email, password, passwordRepeat }: UserFields): UserErrorKey | null {
  if (email.trim() === '' || password === '') return 'emptyEmail';
  if (!EMAIL_PATTERN.test(email.trim())) return 'incorrectEmail';
  if (password !== passwordRepeat) return 'passwordsUnmatch';
  if (password.length < MIN_PASSWORD_LENGTH) return 'shortPassword';
  return null;
}

export interface DeviceFields {
  hardwareSerial: string;
  name: string;
  deviceType: string;
  /** As typed; only read for types with sub-devices (the Sensing Horse). */
  numberOfSubdevices: string;
}

/** `asksForSubdevices`: the type is registered with sub-devices (spec §5: the Sensing Horse; the hub's
 * device-type table says which, see `useAsksForSubdevices`). */
export function deviceError(d: DeviceFields, asksForSubdevices: boolean): 'deviceParameters' | null {
  if (d.hardwareSerial.trim() === '' || d.name.trim() === '' || d.deviceType === '') return 'deviceParameters';
  if (asksForSubdevices && !/^\d+$/.test(d.numberOfSubdevices.trim())) return 'deviceParameters';
  return null;
}

/** The registration body's device part: sub-devices only for the horse. */
export function deviceBody(d: DeviceFields, asksForSubdevices: boolean) {
  return {
    hardwareSerial: d.hardwareSerial.trim(),
    name: d.name.trim(),
    deviceType: d.deviceType,
    ...(asksForSubdevices ? { numberOfSubdevices: Number(d.numberOfSubdevices.trim()) } : {}),
  };
}
