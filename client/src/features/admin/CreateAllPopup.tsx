//! Create all: a company, its first user and device in one call (the hub validates everything before
//! writing anything); registrationsSuccess / failedToRegister.

import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CompanyFields, type CompanyText } from '../../components/company/CompanyFields';
import { companyBody, registerAll, type RegisteredDevice } from './adminApi';
import { emptyDeviceFields } from './CreateDevicePopup';
import { useAsksForSubdevices, useRegistrableDeviceTypes } from './deviceTypeOptions';
import { DeviceFieldset } from './DeviceFieldset';
import { PopupSubmit } from './PopupSubmit';
import { RegistrationResult } from './RegistrationResult';
import { Modal } from '../../components/Modal';
import { useAdminCall } from './useAdminCall';
import { UserFieldset } from './UserFieldset';
import { deviceBody, deviceError, userError, type DeviceFields, type UserFields } from './validation';

export function CreateAllPopup({ onClose, onCreated }: { onClose: () => void; onCreated: () => void }) {
  const { t } = useTranslation();
  const [company, setCompany] = useState<CompanyText>({ companyName: '', address: '' });
  const [user, setUser] = useState<UserFields>({ email: '', password: '', passwordRepeat: '' });
  const types = useRegistrableDeviceTypes();
  const [device, setDevice] = useState<DeviceFields>(() => emptyDeviceFields(types[0]));
  const subdevices = useAsksForSubdevices(device.deviceType);
  const [registered, setRegistered] = useState<RegisteredDevice | null>(null);
  const call = useAdminCall('registrationsSuccess', 'failedToRegister');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const error = userError(user) ?? deviceError(device, subdevices);
    if (error) return call.refuse(error);
    const result = await call.run(() =>
      registerAll({
        company: companyBody({ companyName: company.companyName.trim(), address: company.address.trim() }),
        user: { ...user, email: user.email.trim() },
        device: deviceBody(device, subdevices),
      }),
    );
    if (result) {
      onCreated();
      setRegistered(result.device);
    }
  };
  return (
    <Modal title={t('admin.createAll')} onClose={onClose} testId="create-all-popup">
      {registered ? (
        <RegistrationResult device={registered} onDone={onClose} />
      ) : (
        <form className="form-stack" onSubmit={submit} noValidate>
          <fieldset className="form-fieldset">
            <legend>{t('admin.companySection')}</legend>
            <CompanyFields value={company} onChange={setCompany} />
          </fieldset>
          <fieldset className="form-fieldset">
            <legend>{t('admin.userSection')}</legend>
            <UserFieldset value={user} onChange={setUser} />
          </fieldset>
          <fieldset className="form-fieldset">
            <legend>{t('admin.deviceSection')}</legend>
            <DeviceFieldset value={device} onChange={setDevice} />
          </fieldset>
          <PopupSubmit reason={call.reason} label="admin.create" disabled={call.busy || company.companyName.trim() === ''} />
        </form>
      )}
    </Modal>
  );
}
