//! The back button of device pages: returns to the device grid.

import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

export function BackButton({ to = '/devices' }: { to?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <button type="button" className="btn btn-ghost back-button" onClick={() => navigate(to)}>
      <span aria-hidden="true">←</span> {t('nav.back')}
    </button>
  );
}
