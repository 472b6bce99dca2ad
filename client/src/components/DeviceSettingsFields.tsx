//! Name, room and bed inputs (the bed is labelled Device, spec §2).

import { useTranslation } from 'react-i18next';
import type { DeviceSettings } from '../lib/deviceSettings';

export function DeviceSettingsFields({ value, onChange, disabled }: { value: DeviceSettings; onChange: (next: DeviceSettings) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const field = (key: keyof DeviceSettings, label: string) => (
    <label className="field">
      <span>{t(label)} *</span>
      <input type="text" name={key} value={value[key]} disabled={disabled} onChange={(e) => onChange({ ...value, [key]: e.target.value })} />
    </label>
  );
  return (
    <>
      {field('name', 'deviceSettings.name')}
      {field('room', 'deviceSettings.room')}
      {field('bed', 'deviceSettings.bed')}
    </>
  );
}
