// Shared fixtures for the admin, branding and device-settings tests: a stored session with a role
// and the English messages the toasts must show.
import { loadTranslation } from './translations';

export function signInAs(role: number, company = 'Acme Care'): void {
  localStorage.setItem('user', 'T0K');
  localStorage.setItem('company', company);
  localStorage.setItem('role', String(role));
}

const en = loadTranslation('en') as Record<string, unknown>;

/** The English text of a (dotted) key. */
export function english(key: string): string {
  const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], en);
  if (typeof value !== 'string') throw new Error(`no English text for ${key}`);
  return value;
}

/** A PNG's first bytes followed by filler, `size` bytes in all. */
export function pngFile(size: number, name = 'logo.png'): File {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new File([bytes], name, { type: 'image/png' });
}
