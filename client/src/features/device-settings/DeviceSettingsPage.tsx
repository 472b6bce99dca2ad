//! /deviceSettings and /roomSettings (spec §2): a device's name, room and location (named by the
//! device family: Bed, Seat, Floor…; issue 22), all required. Update → deviceInfoUpdated and /devices. The device comes in navigation state; without
//! one the page returns to /devices. Which route a type uses is the hub's device-type table's
//! `settingsRoute`.

import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { FormPage } from '../../components/FormPage';
import { oidOf } from '../../lib/api';
import { useDeviceType } from '../../lib/deviceTypes';
import { deviceFromState, useLeaveWhen } from '../../lib/deviceRoute';
import { DeviceSettingsFields } from '../../components/DeviceSettingsFields';
import { settingsOf, type DeviceSettings } from '../../lib/deviceSettings';
import { useSaveDeviceSettings } from '../../lib/useSaveDeviceSettings';

export function DeviceSettingsPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const device = useMemo(() => deviceFromState(location.state), [location.state]);
  const [form, setForm] = useState<DeviceSettings>(() => settingsOf(device ?? {}));
  const { saving, save } = useSaveDeviceSettings();

  const info = useDeviceType(device?.deviceType);
  const room = info?.pageFamily === 'roomSet';
  useLeaveWhen(!device);

  if (!device) return null;
  const id = oidOf(device._id) as string;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    if (await save(id, form)) navigate('/devices');
  };

  return (
    <FormPage
      title={t(room ? 'deviceSettings.roomTitle' : 'deviceSettings.title')}
      subtitle={t(`deviceTypes.${device.deviceType}`, { defaultValue: device.deviceType })}
      narrow
    >
      <form className="card form-card" onSubmit={submit} noValidate data-testid="device-settings-form">
        <DeviceSettingsFields value={form} onChange={setForm} disabled={saving} location={info?.location} />
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {t('deviceSettings.update')}
        </button>
      </form>
    </FormPage>
  );
}
