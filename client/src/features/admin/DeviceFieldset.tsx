//! Serial, name, type and (Sensing Horse only) number of sub-devices for a new device.

import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/TextField';
import { useAsksForSubdevices, useRegistrableDeviceTypes } from './deviceTypeOptions';
import { type DeviceFields } from './validation';

export function DeviceFieldset({
  value,
  onChange,
  quick = false,
}: {
  value: DeviceFields;
  onChange: (next: DeviceFields) => void;
  /** Quick registration takes only serial and type (the hub names the device after its serial). */
  quick?: boolean;
}) {
  const { t } = useTranslation();
  const types = useRegistrableDeviceTypes();
  const asksForSubdevices = useAsksForSubdevices(value.deviceType);
  return (
    <>
      <TextField label={t('admin.serial')} name="hardwareSerial" required value={value.hardwareSerial} onChange={(hardwareSerial) => onChange({ ...value, hardwareSerial })} />
      {!quick ? <TextField label={t('admin.deviceName')} name="deviceName" required value={value.name} onChange={(name) => onChange({ ...value, name })} /> : null}
      <label className="field">
        <span>{t('admin.deviceType')}</span>
        <select name="deviceType" value={value.deviceType} onChange={(e) => onChange({ ...value, deviceType: e.target.value })}>
          {types.map((type) => (
            <option key={type} value={type}>
              {t(`deviceTypes.${type}`, { defaultValue: type })}
            </option>
          ))}
        </select>
      </label>
      {!quick && asksForSubdevices ? (
        <TextField
          label={t('admin.numberOfSubdevices')}
          name="numberOfSubdevices"
          inputMode="numeric"
          value={value.numberOfSubdevices}
          onChange={(numberOfSubdevices) => onChange({ ...value, numberOfSubdevices })}
        />
      ) : null}
    </>
  );
}
