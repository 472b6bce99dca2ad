//! What a popup shows after a registration or a secret rotation: the device (or `message`),
//! anything else shown once (a generated login), its one-time secrets and Done.

import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { RegisteredDevice } from './adminApi';
import { DeviceSecrets } from './DeviceSecrets';

export function RegistrationResult({
  device,
  onDone,
  message,
  children,
}: {
  device: RegisteredDevice;
  onDone: () => void;
  message?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <p>{message ?? t('admin.deviceRegistered', { serial: device.hardwareSerial, name: device.name })}</p>
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
