//! A registered device's one-time secrets (docs/api.md: the hub keeps only their hash), with a
//! warning that they will not be shown again. A Sensing Horse's parent has none; its members do.

import { useTranslation } from 'react-i18next';
import type { RegisteredDevice } from './adminApi';
import { CopyValue } from './CopyValue';

export function secretsOf(device: RegisteredDevice): Array<{ serial: string; secret: string }> {
  const own = device.deviceSecret ? [{ serial: device.hardwareSerial, secret: device.deviceSecret }] : [];
  const members = (device.members ?? []).flatMap((m) => (m.deviceSecret ? [{ serial: m.hardwareSerial, secret: m.deviceSecret }] : []));
  return [...own, ...members];
}

export function DeviceSecrets({ device }: { device: RegisteredDevice }) {
  const { t } = useTranslation();
  const secrets = secretsOf(device);
  if (secrets.length === 0) return null;
  return (
    <div className="device-secrets" data-testid="device-secrets">
      <div className="secret-warning" role="alert">
        {t('admin.secretWarning')}
      </div>
      {secrets.map((s) => (
        <CopyValue key={s.serial} label={t('admin.secretFor', { serial: s.serial })} value={s.secret} testId={`secret-${s.serial}`} />
      ))}
    </div>
  );
}
