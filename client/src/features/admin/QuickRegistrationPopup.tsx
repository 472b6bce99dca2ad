//! Quick registration (spec §4): registers a device and answers a generated login (an e-mail from the
//! serial and a 12-character password), shown once with copy buttons, plus the device's secrets.

import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { quickRegister, type CompanyRecord, type QuickRegistration } from './adminApi';
import { CompanySelect } from './CompanySelect';
import { CopyValue } from './CopyValue';
import { emptyDeviceFields } from './CreateDevicePopup';
import { useRegistrableDeviceTypes } from './deviceTypeOptions';
import { DeviceFieldset } from './DeviceFieldset';
import { PopupSubmit } from './PopupSubmit';
import { RegistrationResult } from './RegistrationResult';
import { Modal } from '../../components/Modal';
import { useAdminCall } from './useAdminCall';
import type { DeviceFields } from './validation';

export function QuickRegistrationPopup({ companies, onClose, onCreated }: { companies: CompanyRecord[]; onClose: () => void; onCreated: () => void }) {
  const { t } = useTranslation();
  const [company, setCompany] = useState('');
  const types = useRegistrableDeviceTypes();
  const [device, setDevice] = useState<DeviceFields>(() => emptyDeviceFields(types[0]));
  const [result, setResult] = useState<QuickRegistration | null>(null);
  const call = useAdminCall('deviceCreated', 'failedToRegisterDevice');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (device.hardwareSerial.trim() === '') return call.refuse('deviceParameters');
    const answer = await call.run(() =>
      quickRegister({ hardwareSerial: device.hardwareSerial.trim(), deviceType: device.deviceType, ...(company ? { company } : {}) }),
    );
    if (answer) {
      onCreated();
      setResult(answer);
    }
  };
  return (
    <Modal title={t('admin.quickRegistration')} onClose={onClose} testId="quick-registration-popup">
      {result ? (
        <RegistrationResult device={result.device} onDone={onClose}>
          <div className="secret-warning" role="alert">
            {t('admin.loginWarning')}
          </div>
          <CopyValue label={t('admin.email')} value={result.email} testId="quick-email" />
          <CopyValue label={t('admin.password')} value={result.password} testId="quick-password" />
        </RegistrationResult>
      ) : (
        <form className="form-stack" onSubmit={submit} noValidate>
          <CompanySelect companies={companies} value={company} onChange={setCompany} optional />
          <DeviceFieldset value={device} onChange={setDevice} quick />
          <PopupSubmit reason={call.reason} label="admin.register" disabled={call.busy} />
        </form>
      )}
    </Modal>
  );
}
