import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTranslation, LOCAL_DIR } from '../test/translations';
import { VARIANT_SWITCHES } from './companyVariants';
import { FALLBACK_LANGUAGE, initI18nWithResources, LANGUAGES } from './i18n';
import { ALERTS, FALLBACK_ERROR_KEY, HUB_ERROR_KEYS, INLINE, TOASTS } from './messages';
import { SESSION_END_MESSAGE } from './session';

/** Flattens nested translation objects to dotted keys. */
function flatten(obj: Record<string, unknown>, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) for (const [kk, vv] of flatten(v as Record<string, unknown>, key)) out.set(kk, vv);
    else out.set(key, v);
  }
  return out;
}

const isFilled = (v: unknown) => typeof v === 'string' && v.trim().length > 0;

const ALL_OTHERS = ['es', 'el', 'fr', 'it', 'nl', 'ru', 'ja'];
/**
 * English values another language may keep as they are: names and true cognates, with the
 * languages where that is right. Anything else equal to English is an untranslated string.
 */
const SAME_AS_ENGLISH: Readonly<Record<string, readonly string[]>> = {
  ID: ALL_OTHERS.filter((l) => l !== 'el'),
  'North Sky': ALL_OTHERS,
  Correct: ['fr', 'nl'],
  ABSENCE: ['fr'],
  Password: ['it'],
  Alarm: ['nl'],
  Offline: ['nl'],
  Bed: ['nl'],
  'Bed {{bed}}': ['nl'],
  Mat: ['nl'],
  Status: ['nl'],
  // The date field's day placeholder: día and dag start with D too.
  DD: ['es', 'nl'],
  // Palette names are the colour maps' proper names; "3D" is the same everywhere.
  '3D': ALL_OTHERS,
  Jet: ALL_OTHERS,
  Viridis: ALL_OTHERS,
  Plasma: ALL_OTHERS,
  Inferno: ALL_OTHERS,
  Magma: ALL_OTHERS,
  Cividis: ALL_OTHERS,
  Turbo: ALL_OTHERS,
  Portland: ALL_OTHERS,
  Contour: ['fr', 'nl'],
  'E-mail': ['el', 'fr', 'it', 'nl', 'ru'],
  Patient: ['fr'],
  Patients: ['fr'],
  // The minute's symbol (SI-accepted "min") in the Latin-script languages.
  min: ['es', 'fr', 'it', 'nl'],
  // The second's SI symbol, likewise, and in Greek as its capture countdown writes it.
  s: ['es', 'el', 'fr', 'it', 'nl'],
  Profession: ['fr'],
  Notes: ['fr'],
  Analyses: ['fr', 'nl'],
  Test: ['fr', 'it', 'nl'],
  'Semi-tandem (Insep)': ['fr', 'it', 'nl'],
  Fitting: ['nl'],
  // Only placeholders and SI units.
  '{{height}} cm · {{weight}} kg': ALL_OTHERS,
  '{{value}} kg': ALL_OTHERS,
  '{{value}} cm': ALL_OTHERS,
  '{{seconds}} s': ALL_OTHERS,
  Sensor: ['es', 'nl'],
  minutes: ['fr'],
  Date: ['fr'],
  Position: ['fr'],
  Pages: ['fr'],
  Port: ['fr'],
  Message: ['fr'],
  Phase: ['fr'],
};

/** Every source file of the client (not tests, not test helpers). */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !p.includes(`${join('src', 'test')}`)) files.push(p);
    }
  };
  walk(resolve(__dirname, '..'));
  return files;
}

/** The i18n keys the code uses: literal `t('…')`, `key: '…'`, `showToast(…, '…')`, and the catalogues. */
function usedKeys(): Set<string> {
  const used = new Set<string>();
  for (const f of sourceFiles()) {
    const src = readFileSync(f, 'utf8');
    for (const m of src.matchAll(/\bt\(\s*'([^'$`{}]+)'/g)) used.add(m[1]);
    for (const m of src.matchAll(/\bkey: '([^']+)'/g)) used.add(m[1]);
    for (const m of src.matchAll(/\bshow(?:Toast|ApiError)\(\s*\w+\s*,\s*(?:\w+\s*,\s*)?'([^']+)'/g)) used.add(m[1]);
  }
  for (const key of Object.keys(TOASTS)) used.add(key);
  for (const key of HUB_ERROR_KEYS) used.add(key);
  for (const key of [...Object.values(ALERTS), ...Object.values(INLINE), ...Object.values(SESSION_END_MESSAGE), FALLBACK_ERROR_KEY]) used.add(key);
  // Keys built from values: every status, presence, side, device type and variant switch.
  for (const s of ['Missing', 'Alarm', 'Correct', 'Offline']) used.add(`status.${s}`);
  for (const p of ['PRESENCE', 'ABSENCE', 'unknown']) used.add(`device.presence.${p}`);
  for (const s of ['left', 'right']) used.add(`device.side.${s}`);
  for (const v of VARIANT_SWITCHES) for (const part of ['label', 'help']) used.add(`variants.${v}.${part}`);
  return used;
}

describe('translations (spec §1)', () => {
  const en = flatten(loadTranslation('en'));

  it('there is a file for each of the eight languages and no other', () => {
    expect([...LANGUAGES].sort()).toEqual(['el', 'en', 'es', 'fr', 'it', 'ja', 'nl', 'ru']);
    expect(readdirSync(LOCAL_DIR).sort()).toEqual([...LANGUAGES].sort());
    expect(FALLBACK_LANGUAGE).toBe('en');
  });

  it('en has keys and no empty value', () => {
    expect(en.size).toBeGreaterThan(20);
    for (const [k, v] of en) expect(isFilled(v), `en: ${k}`).toBe(true);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has exactly the keys of en, none empty', (lng) => {
    const other = flatten(loadTranslation(lng));
    const missing = [...en.keys()].filter((k) => !isFilled(other.get(k)));
    const extra = [...other.keys()].filter((k) => !en.has(k));
    expect(missing, `${lng} missing or empty`).toEqual([]);
    expect(extra, `${lng} has keys en lacks`).toEqual([]);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s is translated: a value equal to English is a listed name or cognate', (lng) => {
    const other = flatten(loadTranslation(lng));
    const same = [...en.keys()].filter((k) => other.get(k) === en.get(k));
    const unlisted = same.filter((k) => !(SAME_AS_ENGLISH[en.get(k) as string] ?? []).includes(lng));
    expect(unlisted.map((k) => `${k}: ${String(en.get(k))}`), `${lng} copies English`).toEqual([]);
  });

  it.each(LANGUAGES)('every key the code uses exists in %s', (lng) => {
    const translations = flatten(loadTranslation(lng));
    const used = usedKeys();
    expect(used.size).toBeGreaterThan(150);
    const missing = [...used].filter((k) => !isFilled(translations.get(k)));
    expect(missing).toEqual([]);
  });

  it('uses the spec §8 keys and inline text', async () => {
    expect(en.get('incorrectCredentials')).toBeTruthy();
    expect(en.get('connectDevice')).toBeTruthy();
    expect(en.get('socketDisconnected')).toBe('Something went wrong (Socket disconnected)');
    const i18n = await initI18nWithResources({ es: { translation: loadTranslation('es') } }, 'es');
    expect(i18n.t('incorrectCredentials')).not.toBe(en.get('incorrectCredentials'));
  });
});

describe('language detection (spec §1)', () => {
  const serveTranslations = () => {
    const requested: string[] = [];
    const fetch = async (input: RequestInfo | URL) => {
      const url = String(input);
      requested.push(url);
      const m = /^\/local\/([a-z]+)\/translation\.json$/.exec(url);
      if (!m || !(LANGUAGES as readonly string[]).includes(m[1])) return new Response('{}', { status: 404 });
      return new Response(JSON.stringify(loadTranslation(m[1])), { status: 200 });
    };
    globalThis.fetch = fetch as typeof globalThis.fetch;
    return requested;
  };

  it('prefers localStorage preferredLanguage and loads /local/{lng}/translation.json', async () => {
    const { vi } = await import('vitest');
    const requested = serveTranslations();
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['ja-JP']);
    localStorage.setItem('preferredLanguage', 'fr');
    const { initI18n } = await import('./i18n');
    const i18n = await initI18n();
    expect(i18n.resolvedLanguage).toBe('fr');
    expect(i18n.t('nav.logout')).toBe('Se déconnecter');
    expect(requested).toContain('/local/fr/translation.json');
  });

  it('falls back to the browser language, then en', async () => {
    const { vi } = await import('vitest');
    serveTranslations();
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['ja-JP', 'en']);
    const { initI18n } = await import('./i18n');
    const i18n = await initI18n();
    expect(i18n.resolvedLanguage).toBe('ja');
    expect(i18n.t('nav.logout')).toBe('ログアウト');

    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['pt-BR']);
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('pt-BR');
    localStorage.clear();
    const i18n2 = await initI18n();
    expect(i18n2.t('nav.logout')).toBe('Log out');
  });

  it('changing language stores preferredLanguage', async () => {
    serveTranslations();
    const { initI18n, changeLanguage } = await import('./i18n');
    const i18n = await initI18n();
    await changeLanguage(i18n, 'nl');
    expect(localStorage.getItem('preferredLanguage')).toBe('nl');
    expect(i18n.t('nav.logout')).toBe('Afmelden');
  });

  it('every device type has a translated name', async () => {
    const { default: DEVICE_TYPE_TABLE } = await import('../test/fixtures/deviceTypes.json');
    const en = flatten(loadTranslation('en'));
    for (const { name } of DEVICE_TYPE_TABLE) expect(en.has(`deviceTypes.${name}`), name).toBe(true);
  });
});
