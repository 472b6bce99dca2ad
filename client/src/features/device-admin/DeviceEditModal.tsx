//! The card's edit modal (spec §2): company logo, name and address, device name and location. The
//! company part is saved only when changed and only offered to administrators (the hub refuses
//! anyone else); the device part (PUT /api/device/{id}, location = room, bed kept) always. The full
//! settings page is one link away.

import { useStore } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { oidOf, type UserDevice } from '../../lib/api';
import { showToast } from '../../lib/messages';
import { CompanyFields } from '../../components/company/CompanyFields';
import { LogoField } from '../../components/company/LogoField';
import { Modal } from '../../components/Modal';
import { TextField } from '../../components/TextField';
import { saveCompanyBranding, setCompanyBranding, useCompanyBranding, type CompanyBranding } from '../../lib/company';
import { settingsOf } from '../../lib/deviceSettings';
import { useDeviceType } from '../../lib/deviceTypes';
import { useIsAdmin } from '../../lib/session';
import { useSaveDeviceSettings } from '../../lib/useSaveDeviceSettings';
import '../../components/forms.css';

export function DeviceEditModal({ device, onClose }: { device: UserDevice; onClose: () => void }) {
  const { t } = useTranslation();
  const store = useStore();
  const navigate = useNavigate();
  const admin = useIsAdmin();
  const settingsRoute = useDeviceType(device.deviceType)?.settingsRoute;
  const loaded = useCompanyBranding();
  const [company, setCompany] = useState<CompanyBranding | null>(null);
  const companyForm = company ?? loaded;
  const [settings, setSettings] = useState(() => settingsOf(device));
  const [savingCompany, setSavingCompany] = useState(false);
  const { saving, save } = useSaveDeviceSettings();
  const id = oidOf(device._id) as string;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving || savingCompany) return;
    if (admin && company && loaded && JSON.stringify(company) !== JSON.stringify(loaded)) {
      setSavingCompany(true);
      try {
        setCompanyBranding(store, await saveCompanyBranding(company));
        showToast(store, 'companyUpdated');
      } catch {
        showToast(store, 'failedUpdateCompanySettings');
        setSavingCompany(false);
        return;
      }
      setSavingCompany(false);
    }
    if (await save(id, settings)) onClose();
  };

  const busy = saving || savingCompany;
  return (
    <Modal title={t('deviceSettings.editTitle')} onClose={onClose} testId="device-edit-modal">
      <form className="form-stack" onSubmit={submit} noValidate>
        {companyForm ? (
          <fieldset className="form-fieldset" disabled={!admin || busy}>
            <legend>{t('devices.company')}</legend>
            <LogoField value={companyForm.logo} onChange={(logo) => setCompany({ ...companyForm, logo })} disabled={!admin || busy} />
            <CompanyFields value={companyForm} onChange={(text) => setCompany({ ...companyForm, ...text })} disabled={!admin || busy} />
            {!admin ? <small className="muted">{t('deviceSettings.companyAdminOnly')}</small> : null}
          </fieldset>
        ) : null}
        <fieldset className="form-fieldset" disabled={busy}>
          <legend>{t('deviceSettings.deviceSection')}</legend>
          <TextField label={t('deviceSettings.name')} name="name" required value={settings.name} onChange={(name) => setSettings({ ...settings, name })} />
          <TextField label={t('deviceSettings.location')} name="room" required value={settings.room} onChange={(room) => setSettings({ ...settings, room })} />
        </fieldset>
        <div className="modal-actions">
          <button type="button" className="btn btn-ghost" disabled={!settingsRoute} onClick={() => settingsRoute && navigate(settingsRoute, { state: { device } })}>
            {t('deviceSettings.allSettings')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t('deviceSettings.update')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
