//! Create device: serial and name required, sub-devices (Sensing Horse only) numeric with default 2;
//! deviceCreated / failedToRegisterDevice. The secrets the hub answers are shown once.

import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { registerDevice, type CompanyRecord, type RegisteredDevice } from './adminApi';
import { CompanySelect } from './CompanySelect';
import { DeviceFieldset } from './DeviceFieldset';
import { useAsksForSubdevices, useRegistrableDeviceTypes } from './deviceTypeOptions';
import { PopupSubmit } from './PopupSubmit';
import { RegistrationResult } from './RegistrationResult';
import { Modal } from '../../components/Modal';
import { useAdminCall } from './useAdminCall';
import { DEFAULT_SUBDEVICES, deviceBody, deviceError, type DeviceFields } from './validation';

export const emptyDeviceFields = (deviceType = ''): DeviceFields => ({
  hardwareSerial: '',
  name: '',
  deviceType,
  numberOfSubdevices: String(DEFAULT_SUBDEVICES),
});

export function CreateDevicePopup({ companies, defaultCompany, onClose }: { companies: CompanyRecord[]; defaultCompany: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [company, setCompany] = useState(defaultCompany);
  const types = useRegistrableDeviceTypes();
  const [device, setDevice] = useState<DeviceFields>(() => emptyDeviceFields(types[0]));
  const subdevices = useAsksForSubdevices(device.deviceType);
  const [registered, setRegistered] = useState<RegisteredDevice | null>(null);
  const call = useAdminCall('deviceCreated', 'failedToRegisterDevice');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const error = deviceError(device, subdevices);
    if (error) return call.refuse(error);
    const result = await call.run(() => registerDevice({ ...deviceBody(device, subdevices), added_by: company || undefined }));
    if (result) setRegistered(result);
  };
  return (
    <Modal title={t('admin.createDevice')} onClose={onClose} testId="create-device-popup">
      {registered ? (
        <RegistrationResult device={registered} onDone={onClose} />
      ) : (
        <form className="form-stack" onSubmit={submit} noValidate>
          <CompanySelect companies={companies} value={company} onChange={setCompany} />
          <DeviceFieldset value={device} onChange={setDevice} />
          <PopupSubmit reason={call.reason} label="admin.create" disabled={call.busy} />
        </form>
      )}
    </Modal>
  );
}
