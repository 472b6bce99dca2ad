//! A value shown once with a copy button (device secrets, quick-registration logins).

import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export function CopyValue({ label, value, testId }: { label: string; value: string; testId?: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <div className="copy-value">
      <span className="copy-value-label">{label}</span>
      <div className="copy-value-row">
        <code data-testid={testId}>{value}</code>
        <button type="button" className="btn btn-ghost" onClick={copy}>
          {t('admin.copy')}
        </button>
      </div>
      {copied ? (
        <small className={copied === 'yes' ? 'muted' : 'form-error'} role="status">
          {t(copied === 'yes' ? 'admin.copied' : 'admin.copyFailed')}
        </small>
      ) : null}
    </div>
  );
}
