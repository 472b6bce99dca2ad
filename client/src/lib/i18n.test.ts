import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTranslation, LOCAL_DIR } from '../test/translations';
import { FALLBACK_LANGUAGE, initI18nWithResources, LANGUAGES } from './i18n';

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

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s is translated, not a copy of English', (lng) => {
    const other = flatten(loadTranslation(lng));
    const same = [...en.keys()].filter((k) => other.get(k) === en.get(k));
    // Product names, "ID" and the like may legitimately stay the same; most text must not.
    expect(same.length / en.size).toBeLessThan(0.35);
  });

  it('every literal key used in the source exists in en', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !p.includes(`${join('src', 'test')}`)) files.push(p);
      }
    };
    walk(resolve(__dirname, '..'));
    const used = new Set<string>();
    for (const f of files) {
      const src = readFileSync(f, 'utf8');
      for (const m of src.matchAll(/\bt\(\s*'([^'$`{}]+)'/g)) used.add(m[1]);
      for (const m of src.matchAll(/\bkey: '([^']+)'/g)) used.add(m[1]);
    }
    expect(used.size).toBeGreaterThan(20);
    const missing = [...used].filter((k) => !en.has(k));
    expect(missing).toEqual([]);
    // Keys built from values: every status, presence, side and device type must be present.
    for (const s of ['Missing', 'Alarm', 'Correct', 'Offline']) expect(en.has(`status.${s}`)).toBe(true);
    for (const p of ['PRESENCE', 'ABSENCE', 'unknown']) expect(en.has(`device.presence.${p}`)).toBe(true);
    for (const s of ['left', 'right']) expect(en.has(`device.side.${s}`)).toBe(true);
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
