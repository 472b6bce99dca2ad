//! The company-variants section of the branding page: an administrator switches the three variants
//! of their company (spec §1, §6) and saves them. Other roles see nothing (the hub refuses them
//! anyway).

import { useAtom, useStore } from 'jotai';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { companyVariantsAtom, VARIANT_SWITCHES, type CompanyVariants } from '../../lib/companyVariants';
import { showApiError, showToast } from '../../lib/messages';
import { useIsAdmin } from '../../lib/session';
import { saveCompanyVariants } from './api';
import './company-variants.css';

export function CompanyVariantsSection() {
  const isAdmin = useIsAdmin();
  if (!isAdmin) return null;
  return <VariantsForm />;
}

function VariantsForm() {
  const { t } = useTranslation();
  const store = useStore();
  const [saved, setSaved] = useAtom(companyVariantsAtom);
  const [draft, setDraft] = useState<CompanyVariants>(saved);
  const [busy, setBusy] = useState(false);
  // The stored setting may arrive after the form opens (start-up load): follow it until edited.
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (!touched) setDraft(saved);
  }, [saved, touched]);

  const dirty = VARIANT_SWITCHES.some((k) => draft[k] !== saved[k]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || !dirty) return;
    setBusy(true);
    try {
      const stored = await saveCompanyVariants(draft);
      setSaved(stored);
      setDraft(stored);
      setTouched(false);
      showToast(store, 'variants.saved');
    } catch (err) {
      showApiError(store, err, 'variants.saveFailed');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="company-variants" aria-labelledby="company-variants-title" data-testid="company-variants">
      <h2 id="company-variants-title">{t('variants.title')}</h2>
      <p className="muted">{t('variants.intro')}</p>
      <form onSubmit={submit}>
        {VARIANT_SWITCHES.map((key) => (
          <label key={key} className="company-variant">
            <input
              type="checkbox"
              name={key}
              checked={draft[key]}
              disabled={busy}
              onChange={(e) => {
                setTouched(true);
                setDraft((d) => ({ ...d, [key]: e.target.checked }));
              }}
            />
            <span>
              <span className="company-variant-name">{t(`variants.${key}.label`)}</span>
              <span className="company-variant-help">{t(`variants.${key}.help`)}</span>
            </span>
          </label>
        ))}
        <button type="submit" className="btn btn-primary" disabled={busy || !dirty}>
          {busy ? t('variants.saving') : t('variants.save')}
        </button>
      </form>
    </section>
  );
}
