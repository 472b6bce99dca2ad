//! Language selector (spec §2: top left of the devices screen); the choice is kept as
//! `preferredLanguage`.

import { useTranslation } from 'react-i18next';
import { changeLanguage, FALLBACK_LANGUAGE, LANGUAGES, LANGUAGE_NAMES, type Language } from '../lib/i18n';

export function LanguageSelector() {
  const { t, i18n } = useTranslation();
  const current = (LANGUAGES as readonly string[]).includes(i18n.resolvedLanguage ?? '')
    ? (i18n.resolvedLanguage as Language)
    : FALLBACK_LANGUAGE;
  return (
    <label className="language-selector">
      <span className="visually-hidden">{t('nav.language')}</span>
      <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" className="language-icon">
        <path
          fill="currentColor"
          d="M12 2a10 10 0 100 20 10 10 0 000-20zm6.9 6h-2.9a15.7 15.7 0 00-1.4-3.6A8 8 0 0118.9 8zM12 4c.8 1.2 1.5 2.5 1.9 4h-3.8c.4-1.5 1.1-2.8 1.9-4zM4.3 14a8.2 8.2 0 010-4h3.4a16.5 16.5 0 000 4H4.3zm.8 2h2.9c.3 1.3.8 2.5 1.4 3.6A8 8 0 015.1 16zM8 8H5.1a8 8 0 014.3-3.6C8.8 5.5 8.3 6.7 8 8zm4 12c-.8-1.2-1.5-2.5-1.9-4h3.8c-.4 1.5-1.1 2.8-1.9 4zm2.3-6H9.7a14.7 14.7 0 010-4h4.6a14.7 14.7 0 010 4zm.3 5.6c.6-1.1 1.1-2.3 1.4-3.6h2.9a8 8 0 01-4.3 3.6zm1.7-5.6a16.5 16.5 0 000-4h3.4a8.2 8.2 0 010 4h-3.4z"
        />
      </svg>
      <select
        aria-label={t('nav.language')}
        value={current}
        onChange={(e) => void changeLanguage(i18n, e.target.value as Language)}
      >
        {LANGUAGES.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {LANGUAGE_NAMES[lng]}
          </option>
        ))}
      </select>
    </label>
  );
}
