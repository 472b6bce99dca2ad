//! Name, room and bed inputs (the bed is labelled Device, spec §2), all required.

import { useTranslation } from 'react-i18next';
import type { DeviceSettings } from '../lib/deviceSettings';
import { TextField } from './TextField';

export function DeviceSettingsFields({ value, onChange, disabled }: { value: DeviceSettings; onChange: (next: DeviceSettings) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      {(['name', 'room', 'bed'] as const).map((key) => (
        <TextField
          key={key}
          label={t(`deviceSettings.${key}`)}
          name={key}
          required
          disabled={disabled}
          value={value[key]}
          onChange={(text) => onChange({ ...value, [key]: text })}
        />
      ))}
    </>
  );
}
