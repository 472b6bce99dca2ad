//! i18next set-up (spec §1): translations fetched from /local/{lng}/translation.json; language from
//! local storage `preferredLanguage`, then the browser; fallback en. Changing language stores it.

import i18next, { type i18n as I18n, type Resource } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import { STORAGE } from './storageKeys';

export const LANGUAGES = ['es', 'el', 'en', 'fr', 'it', 'nl', 'ru', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'en';

/** Each language's name in that language, as the selector lists it (names, not UI text). */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  es: 'Español',
  el: 'Ελληνικά',
  en: 'English',
  fr: 'Français',
  it: 'Italiano',
  nl: 'Nederlands',
  ru: 'Русский',
  ja: '日本語',
};

export const TRANSLATION_PATH = '/local/{{lng}}/translation.json';

const common = {
  supportedLngs: [...LANGUAGES],
  nonExplicitSupportedLngs: true,
  load: 'languageOnly' as const,
  fallbackLng: FALLBACK_LANGUAGE,
  interpolation: { escapeValue: false },
  returnEmptyString: false,
};

/** The app's i18n: HTTP backend and language detection. */
export async function initI18n(): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance
    .use(HttpBackend)
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      ...common,
      backend: { loadPath: TRANSLATION_PATH },
      detection: {
        order: ['localStorage', 'navigator'],
        lookupLocalStorage: STORAGE.language,
        caches: ['localStorage'],
      },
      react: { useSuspense: true },
    });
  syncHtmlLang(instance);
  return instance;
}

/** An instance with in-memory resources, for tests and for rendering without a server. */
export async function initI18nWithResources(resources: Resource, lng: string = FALLBACK_LANGUAGE): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({ ...common, lng, resources, react: { useSuspense: false } });
  return instance;
}

function syncHtmlLang(instance: I18n): void {
  const apply = (lng: string) => {
    if (typeof document === 'undefined') return;
    document.documentElement.lang = lng;
    document.title = instance.t('app.title');
  };
  apply(instance.resolvedLanguage ?? FALLBACK_LANGUAGE);
  instance.on('languageChanged', apply);
}

/** Switches language and remembers the choice as `preferredLanguage`. */
export async function changeLanguage(instance: I18n, lng: Language): Promise<void> {
  localStorage.setItem(STORAGE.language, lng);
  await instance.changeLanguage(lng);
}
