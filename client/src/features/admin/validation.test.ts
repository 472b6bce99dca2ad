import { describe, expect, it } from 'vitest';
import { DEFAULT_SUBDEVICES, deviceBody, deviceError, MIN_PASSWORD_LENGTH, userError } from './validation';

const user = (email: string, password: string, passwordRepeat = password) => ({ email, password, passwordRepeat });

describe('user creation checks (spec §5)', () => {
  it('e-mail and password are required: emptyEmail', () => {
    expect(userError(user('', 'secret1'))).toBe('emptyEmail');
    expect(userError(user('   ', 'secret1'))).toBe('emptyEmail');
    expect(userError(user('a@b.co', ''))).toBe('emptyEmail');
  });

  it('the e-mail must match the pattern: incorrectEmail', () => {
    for (const bad of ['plain', 'a@b', '@b.co', 'a@.co', 'a b@c.co', 'a@b.co x']) expect(userError(user(bad, 'secret1'))).toBe('incorrectEmail');
    for (const good of ['a@b.co', 'nurse.one@clinic.example.org', ' a@b.co ']) expect(userError(user(good, 'secret1'))).toBeNull();
  });

  it('the repeat must equal the password: passwordsUnmatch', () => {
    expect(userError(user('a@b.co', 'secret1', 'secret2'))).toBe('passwordsUnmatch');
    expect(userError(user('a@b.co', 'secret1', ''))).toBe('passwordsUnmatch');
  });

  it('the password has at least 6 characters: 5 is shortPassword, 6 passes', () => {
    expect(MIN_PASSWORD_LENGTH).toBe(6);
    expect(userError(user('a@b.co', '12345'))).toBe('shortPassword');
    expect(userError(user('a@b.co', '123456'))).toBeNull();
  });
});

describe('device registration checks (spec §5)', () => {
  const horse = (numberOfSubdevices: string) => ({ hardwareSerial: 'SH-1', name: 'Horse', deviceType: 'Sensing Horse', numberOfSubdevices });

  it('serial and name are required: deviceParameters', () => {
    expect(deviceError({ hardwareSerial: '', name: 'Bed 1', deviceType: 'Mattress Mat IoT', numberOfSubdevices: '2' }, false)).toBe('deviceParameters');
    expect(deviceError({ hardwareSerial: 'MM-1', name: ' ', deviceType: 'Mattress Mat IoT', numberOfSubdevices: '2' }, false)).toBe('deviceParameters');
    expect(deviceError({ hardwareSerial: 'MM-1', name: 'Bed 1', deviceType: 'Mattress Mat IoT', numberOfSubdevices: '2' }, false)).toBeNull();
  });

  it('sub-devices must be numeric for the Sensing Horse, default 2', () => {
    expect(DEFAULT_SUBDEVICES).toBe(2);
    expect(deviceError(horse('2'), true)).toBeNull();
    for (const bad of ['', 'two', '2.5', '-1', '2a']) expect(deviceError(horse(bad), true)).toBe('deviceParameters');
  });

  it('other types ignore the sub-device field and do not send it', () => {
    const mat = { hardwareSerial: ' MM-1 ', name: ' Bed 1 ', deviceType: 'Mattress Mat IoT', numberOfSubdevices: 'x' };
    expect(deviceError(mat, false)).toBeNull();
    expect(deviceBody(mat, false)).toEqual({ hardwareSerial: 'MM-1', name: 'Bed 1', deviceType: 'Mattress Mat IoT' });
    expect(deviceBody(horse('4'), true)).toEqual({ hardwareSerial: 'SH-1', name: 'Horse', deviceType: 'Sensing Horse', numberOfSubdevices: 4 });
  });
});
