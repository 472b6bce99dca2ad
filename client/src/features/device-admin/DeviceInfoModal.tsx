//! The card's read-only info modal (spec §2): company logo, company, address, device name and device.

import { useTranslation } from 'react-i18next';
import type { UserDevice } from '../../lib/api';
import { locationLabelKey } from '../../components/DeviceSettingsFields';
import { Modal } from '../../components/Modal';
import { useCompanyBranding } from '../../lib/company';
import { useDeviceType } from '../../lib/deviceTypes';

export function DeviceInfoModal({ device, onClose }: { device: UserDevice; onClose: () => void }) {
  const { t } = useTranslation();
  const company = useCompanyBranding();
  const location = useDeviceType(device.deviceType)?.location;
  const rows: Array<[string, string]> = [
    ['devices.company', company?.companyName ?? ''],
    ['branding.address', company?.address ?? ''],
    ['deviceSettings.name', device.name],
    ['deviceSettings.deviceType', t(`deviceTypes.${device.deviceType}`, { defaultValue: device.deviceType })],
    ['deviceSettings.room', device.room ?? ''],
    [locationLabelKey(location), device.bed ?? ''],
  ];
  return (
    <Modal title={t('deviceSettings.infoTitle')} onClose={onClose} testId="device-info-modal">
      {company?.logo ? <img src={company.logo} alt={t('branding.logo')} className="logo-preview" /> : null}
      <dl className="info-list">
        {rows.map(([label, value]) => (
          <div key={label} style={{ display: 'contents' }}>
            <dt>{t(label)}</dt>
            <dd>{value || '—'}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}
