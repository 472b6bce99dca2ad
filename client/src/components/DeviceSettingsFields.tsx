//! Name, room and location inputs, all required. The location field (`bed`, spec §3) is named by
//! the device family from the hub's device-type table (Bed, Seat, Floor, Saddle…; issue 22).

import { useTranslation } from 'react-i18next';
import type { DeviceSettings } from '../lib/deviceSettings';
import type { DeviceTypeInfo } from '../lib/deviceTypes';
import { TextField } from './TextField';

/** The label of a device's location field for its type. */
export const locationLabelKey = (location: DeviceTypeInfo['location'] | undefined): string => (location ? `locations.${location}` : 'deviceSettings.bed');

export function DeviceSettingsFields({
  value,
  onChange,
  disabled,
  location,
}: {
  value: DeviceSettings;
  onChange: (next: DeviceSettings) => void;
  disabled?: boolean;
  location?: DeviceTypeInfo['location'];
}) {
  const { t } = useTranslation();
  const label = { name: t('deviceSettings.name'), room: t('deviceSettings.room'), bed: t(locationLabelKey(location)) };
  return (
    <>
      {(['name', 'room', 'bed'] as const).map((key) => (
        <TextField
          key={key}
          label={label[key]}
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
