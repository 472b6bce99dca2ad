//! A small modal dialog for the history's editors and confirmations (Escape or × closes it).

import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function Modal({ title, onClose, children, testId, width }: { title: string; onClose: () => void; children: ReactNode; testId: string; width?: number }) {
  const { t } = useTranslation();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div
        className="modal card"
        role="dialog"
        aria-modal="true"
        aria-label={title}
        data-testid={testId}
        style={width ? { width: `min(${width}px, 95vw)` } : undefined}
        onClick={(e) => e.stopPropagation()}
      >
        <header className="modal-head">
          <h3>{title}</h3>
          <button type="button" className="btn-icon" onClick={onClose} aria-label={t('analysis.close')}>
            ×
          </button>
        </header>
        {children}
      </div>
    </div>
  );
}
