//! A small modal dialog for the history's editors and confirmations (Escape or × closes it).

import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function Modal({ title, onClose, children, testId, width }: { title: string; onClose: () => void; children: ReactNode; testId: string; width?: number }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  // Focus moves into the dialog when it opens and back where it was when it closes.
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    box.current?.focus();
    return () => before?.focus?.();
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div
        ref={box}
        tabIndex={-1}
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
