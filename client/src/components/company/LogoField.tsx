//! The logo form (spec §4 "Logo form"): empty → 'Cargando...' while the file is read → preview, then
//! deleted (empty again) or replaced through Edit. Files over 1 MB or not PNG/JPEG are refused with the
//! §5 messages and the previous logo stays.

import { useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LOGO_ACCEPT, logoFileError } from '../../lib/companyLimits';
import { dataUrlHead, hasImageMagic, readFileAsDataUrl } from '../../lib/logoFile';
import './company.css';

export function LogoField({ value, onChange, disabled }: { value: string; onChange: (logo: string) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [reading, setReading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const pick = () => input.current?.click();

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const refused = logoFileError(file);
    if (refused) {
      setError(refused);
      return;
    }
    setError(null);
    setReading(true);
    try {
      const dataUrl = await readFileAsDataUrl(file);
      if (!hasImageMagic(dataUrlHead(dataUrl))) setError('logoNotImage');
      else onChange(dataUrl);
    } catch {
      setError('logoNotImage');
    } finally {
      setReading(false);
    }
  };

  return (
    <div className="logo-field" data-testid="logo-field" data-state={reading ? 'loading' : value ? 'preview' : 'empty'}>
      <span className="logo-field-label" id={`${inputId}-label`}>
        {t('branding.logo')}
      </span>
      <input
        ref={input}
        id={inputId}
        type="file"
        accept={LOGO_ACCEPT}
        className="visually-hidden"
        aria-labelledby={`${inputId}-label`}
        data-testid="logo-input"
        onChange={onFile}
        disabled={disabled}
      />
      <div className="logo-field-box">
        {reading ? (
          <span className="muted" role="status">
            {t('branding.loading')}
          </span>
        ) : value ? (
          <img src={value} alt={t('branding.logoPreview')} className="logo-preview" data-testid="logo-preview" />
        ) : (
          <span className="muted">{t('branding.noLogo')}</span>
        )}
      </div>
      <div className="logo-field-actions">
        {value ? (
          <>
            <button type="button" className="btn btn-ghost" onClick={pick} disabled={disabled || reading}>
              {t('branding.editLogo')}
            </button>
            <button
              type="button"
              className="btn btn-danger"
              onClick={() => {
                setError(null);
                onChange('');
              }}
              disabled={disabled || reading}
            >
              {t('branding.deleteLogo')}
            </button>
          </>
        ) : (
          <button type="button" className="btn btn-ghost" onClick={pick} disabled={disabled || reading}>
            {t('branding.selectLogo')}
          </button>
        )}
      </div>
      {error ? (
        <div className="form-error" role="alert" data-testid="logo-error">
          {t(error)}
        </div>
      ) : null}
    </div>
  );
}
