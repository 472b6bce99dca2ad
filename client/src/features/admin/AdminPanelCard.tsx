//! The admin-panel card on the device grid: offered to administrators (role 1), not to two named
//! companies (docs/decisions.md "Administration"). Opens /adminPanel with the role in navigation
//! state, and the company's branding page.

import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ROLE_ADMIN, useIsAdmin } from '../../lib/session';
import './admin.css';

export function AdminPanelCard() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (!useIsAdmin()) return null;
  return (
    <div className="device-card admin-card" data-testid="admin-card">
      <span className="device-card-type">{t('admin.cardTitle')}</span>
      <button type="button" className="btn btn-primary btn-block" onClick={() => navigate('/adminPanel', { state: { userRole: ROLE_ADMIN } })}>
        {t('admin.title')}
      </button>
      <button type="button" className="btn btn-ghost btn-block" onClick={() => navigate('/brandingOptions')}>
        {t('branding.title')}
      </button>
    </div>
  );
}
