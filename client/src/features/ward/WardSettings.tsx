//! The company's board settings: patients' names in full or as initials. Everyone's board reads
//! them; an administrator of the company switches them here (the hub audits the change).

import { useAtomValue, useStore } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../lib/notifications';
import { isAdminAtom } from '../../lib/session';
import { getWardSettings, putWardSettings, type WardSettingsJson } from './wardApi';

/** The settings (names in full until they are read). */
export function useWardSettings(): [WardSettingsJson, (next: WardSettingsJson) => void] {
  const [settings, setSettings] = useState<WardSettingsJson>({ patientInitials: false });
  useEffect(() => {
    let cancelled = false;
    getWardSettings()
      .then((s) => {
        if (!cancelled) setSettings(s);
      })
      .catch((err) => console.error('ward settings failed', err));
    return () => {
      cancelled = true;
    };
  }, []);
  return [settings, setSettings];
}

export function PatientNamesSwitch({ settings, onSaved }: { settings: WardSettingsJson; onSaved: (s: WardSettingsJson) => void }) {
  const { t } = useTranslation();
  const store = useStore();
  const admin = useAtomValue(isAdminAtom);
  const [saving, setSaving] = useState(false);
  if (!admin) return null;
  const toggle = async () => {
    setSaving(true);
    try {
      onSaved(await putWardSettings({ patientInitials: !settings.patientInitials }));
    } catch (err) {
      console.error('ward settings not saved', err);
      notify(store, { kind: 'error', key: 'ward.settingsFailed' }, 2500);
    } finally {
      setSaving(false);
    }
  };
  return (
    <label className="ward-setting">
      <input type="checkbox" checked={settings.patientInitials} disabled={saving} onChange={toggle} data-testid="ward-initials" />
      {t('ward.initials')}
    </label>
  );
}
