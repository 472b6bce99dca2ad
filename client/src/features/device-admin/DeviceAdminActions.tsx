//! The edit and info buttons for one device and the modals they open: on the device card, and
//! reusable as `deviceActions` in the device page's patient/device panel. The modals are rendered in
//! document.body: a hovered card is transformed, which would move a fixed backdrop inside it.

import { useState, type MouseEvent } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { UserDevice } from '../../lib/api';
import { DeviceEditModal } from './DeviceEditModal';
import { DeviceInfoModal } from './DeviceInfoModal';
import './device-admin.css';

export function DeviceAdminActions({ device }: { device: UserDevice }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<'edit' | 'info' | null>(null);
  // The buttons sit inside a clickable card: keep their clicks and keys from opening the device.
  const openModal = (which: 'edit' | 'info') => (e: MouseEvent) => {
    e.stopPropagation();
    setOpen(which);
  };
  return (
    <div className="device-card-admin-actions" onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
      <button type="button" className="btn btn-ghost" onClick={openModal('info')} data-testid="device-info-button" aria-label={t('deviceSettings.infoTitle')}>
        {t('deviceSettings.info')}
      </button>
      <button type="button" className="btn btn-ghost" onClick={openModal('edit')} data-testid="device-edit-button" aria-label={t('deviceSettings.editTitle')}>
        {t('deviceSettings.edit')}
      </button>
      {open === 'edit' ? createPortal(<DeviceEditModal device={device} onClose={() => setOpen(null)} />, document.body) : null}
      {open === 'info' ? createPortal(<DeviceInfoModal device={device} onClose={() => setOpen(null)} />, document.body) : null}
    </div>
  );
}
