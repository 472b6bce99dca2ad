//! Logout: asks the hub to revoke the token, clears the stored token, user id and company and goes to /login.

import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { logout } from '../../lib/session';

export function LogoutButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className="btn btn-ghost"
      data-testid="logout"
      onClick={() => {
        void logout();
        navigate('/login', { replace: true });
      }}
    >
      {t('nav.logout')}
    </button>
  );
}
