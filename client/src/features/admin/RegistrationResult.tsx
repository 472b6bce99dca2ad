//! What a popup shows after a registration: the device, anything else shown once (a generated
//! login), its one-time secrets and Done.

import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { RegisteredDevice } from './adminApi';
import { DeviceSecrets } from './DeviceSecrets';

export function RegistrationResult({ device, onDone, children }: { device: RegisteredDevice; onDone: () => void; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <p>{t('admin.deviceRegistered', { serial: device.hardwareSerial, name: device.name })}</p>
      {children}
      <DeviceSecrets device={device} />
      <div className="modal-actions">
        <button type="button" className="btn btn-primary" onClick={onDone}>
          {t('admin.done')}
        </button>
      </div>
    </>
  );
}
