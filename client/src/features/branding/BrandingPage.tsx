//! /brandingOptions (spec §2 "Login and admin", §4 "Logo form"): back button, logo section, company
//! name and address, Save. Save → companyUpdated and /devices; failure → failedUpdateCompanySettings.
//! Saving needs role 1; the hub refuses anyone else (403) and the failure toast says so.

import { useStore } from 'jotai';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { FormPage } from '../../components/FormPage';
import { showToast } from '../../lib/messages';
import { CompanyFields } from '../../components/company/CompanyFields';
import { LogoField } from '../../components/company/LogoField';
import { getCompanyBranding, saveCompanyBranding, setCompanyBranding, type CompanyBranding } from '../../lib/company';
import './branding.css';

/** `variantsSection`: where the lead mounts the company-variants settings (issue 11 item 5). */
export function BrandingPage({ variantsSection }: { variantsSection?: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const store = useStore();
  const [form, setForm] = useState<CompanyBranding | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    getCompanyBranding()
      .then((b) => live && setForm(b))
      .catch(() => live && setLoadFailed(true));
    return () => {
      live = false;
    };
  }, []);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!form || saving) return;
    setSaving(true);
    try {
      const saved = await saveCompanyBranding({ ...form, companyName: form.companyName.trim(), address: form.address.trim() });
      setCompanyBranding(store, saved);
      showToast(store, 'companyUpdated');
      navigate('/devices');
    } catch {
      showToast(store, 'failedUpdateCompanySettings');
      setSaving(false);
    }
  };

  return (
    <FormPage title={t('branding.title')} narrow>
      {loadFailed ? (
        <div className="form-error" role="alert">
          {t('branding.loadFailed')}
        </div>
      ) : !form ? (
        <div className="muted">{t('branding.loading')}</div>
      ) : (
        <form className="card form-card" onSubmit={save} noValidate data-testid="branding-form">
          <LogoField value={form.logo} onChange={(logo) => setForm({ ...form, logo })} disabled={saving} />
          <CompanyFields value={form} onChange={(text) => setForm({ ...form, ...text })} disabled={saving} />
          <button type="submit" className="btn btn-primary" disabled={saving || form.companyName.trim() === ''}>
            {saving ? t('branding.saving') : t('branding.save')}
          </button>
        </form>
      )}
      {variantsSection ? <section className="branding-variants">{variantsSection}</section> : null}
    </FormPage>
  );
}
