//! A card status shown as a coloured dot and its translated name.

import { useTranslation } from 'react-i18next';
import type { CardStatus } from '../lib/api';
import { statusColor } from '../lib/status';

export function StatusBadge({ status, label }: { status: CardStatus; label?: string }) {
  const { t } = useTranslation();
  const color = statusColor(status);
  return (
    <span className="status-badge" data-status={status} style={{ color, borderColor: color }}>
      <span className="status-dot" style={{ backgroundColor: color }} aria-hidden="true" />
      {label ? <span className="status-side">{label}</span> : null}
      <span className="status-text">{t(`status.${status}`)}</span>
    </span>
  );
}
