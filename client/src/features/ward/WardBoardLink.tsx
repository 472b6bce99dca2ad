//! The navigation entry to the ward board, for the devices screen's top bar.

import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

export function WardBoardLink() {
  const { t } = useTranslation();
  return (
    <Link className="btn btn-ghost" to="/ward" data-testid="ward-link">
      {t('ward.open')}
    </Link>
  );
}
