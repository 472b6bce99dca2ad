// Loads the real translation files from public/local for tests.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { LANGUAGES } from '../lib/i18n';

export const LOCAL_DIR = resolve(__dirname, '../../public/local');

export function loadTranslation(lng: string): Record<string, unknown> {
  return JSON.parse(readFileSync(resolve(LOCAL_DIR, lng, 'translation.json'), 'utf8')) as Record<string, unknown>;
}

export function allResources() {
  return Object.fromEntries(LANGUAGES.map((l) => [l, { translation: loadTranslation(l) }]));
}
