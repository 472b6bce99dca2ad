//! Serial, name, type and (Sensing Horse only) number of sub-devices for a new device.

import { useTranslation } from 'react-i18next';
import { registrableDeviceTypes } from './deviceTypeOptions';
import { asksForSubdevices, type DeviceFields } from './validation';

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
  return (
    <>
      <label className="field">
        <span>{t('admin.serial')} *</span>
        <input type="text" name="hardwareSerial" autoComplete="off" value={value.hardwareSerial} onChange={(e) => onChange({ ...value, hardwareSerial: e.target.value })} />
      </label>
      {!quick ? (
        <label className="field">
          <span>{t('admin.deviceName')} *</span>
          <input type="text" name="deviceName" autoComplete="off" value={value.name} onChange={(e) => onChange({ ...value, name: e.target.value })} />
        </label>
      ) : null}
      <label className="field">
        <span>{t('admin.deviceType')}</span>
        <select name="deviceType" value={value.deviceType} onChange={(e) => onChange({ ...value, deviceType: e.target.value })}>
          {registrableDeviceTypes().map((type) => (
            <option key={type} value={type}>
              {t(`deviceTypes.${type}`, { defaultValue: type })}
            </option>
          ))}
        </select>
      </label>
      {!quick && asksForSubdevices(value.deviceType) ? (
        <label className="field">
          <span>{t('admin.numberOfSubdevices')}</span>
          <input
            type="text"
            inputMode="numeric"
            name="numberOfSubdevices"
            value={value.numberOfSubdevices}
            onChange={(e) => onChange({ ...value, numberOfSubdevices: e.target.value })}
          />
        </label>
      ) : null}
    </>
  );
}
