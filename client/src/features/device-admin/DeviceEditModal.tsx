//! The card's edit dialog (spec §2, issue 22): the device only — name, room and its location
//! (named by the device family: Bed, Seat, Floor…), all three required (PUT /api/device/{id}).
//! The company's logo, name and address stay on the branding page, for administrators. The full
//! settings page is one link away.

import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { oidOf, type UserDevice } from '../../lib/api';
import { DeviceSettingsFields } from '../../components/DeviceSettingsFields';
import { Modal } from '../../components/Modal';
import { settingsOf } from '../../lib/deviceSettings';
import { useDeviceType } from '../../lib/deviceTypes';
import { useSaveDeviceSettings } from '../../lib/useSaveDeviceSettings';
import '../../components/forms.css';

export function DeviceEditModal({ device, onClose }: { device: UserDevice; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const info = useDeviceType(device.deviceType);
  const settingsRoute = info?.settingsRoute;
  const [settings, setSettings] = useState(() => settingsOf(device));
  const { saving, save } = useSaveDeviceSettings();
  const id = oidOf(device._id) as string;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    if (await save(id, settings)) onClose();
  };

  return (
    <Modal title={t('deviceSettings.editTitle')} onClose={onClose} testId="device-edit-modal">
      <form className="form-stack" onSubmit={submit} noValidate>
        <fieldset className="form-fieldset" disabled={saving}>
          <legend>{t('deviceSettings.deviceSection')}</legend>
          <DeviceSettingsFields value={settings} onChange={setSettings} disabled={saving} location={info?.location} />
        </fieldset>
        <div className="modal-actions">
          <button type="button" className="btn btn-ghost" disabled={!settingsRoute} onClick={() => settingsRoute && navigate(settingsRoute, { state: { device } })}>
            {t('deviceSettings.allSettings')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={saving}>
            {t('deviceSettings.update')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
