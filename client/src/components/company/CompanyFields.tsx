//! Company name and address inputs with the §5 limits: the inputs stop at 25 and 200 characters and
//! 'Maximum 25 characters allowed' shows once the name reaches its limit. Shared by the branding page,
//! the card's edit modal and the admin panel's company popup.

import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { companyNameAtLimit, MAX_ADDRESS, MAX_COMPANY_NAME } from '../../lib/companyLimits';
import './company.css';

export interface CompanyText {
  companyName: string;
  address: string;
}

export function CompanyFields({
  value,
  onChange,
  disabled,
}: {
  value: CompanyText;
  onChange: (next: CompanyText) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const limitId = useId();
  const atLimit = companyNameAtLimit(value.companyName);
  return (
    <>
      <label className="field">
        <span>{t('branding.companyName')}</span>
        <input
          type="text"
          name="companyName"
          value={value.companyName}
          maxLength={MAX_COMPANY_NAME}
          aria-describedby={atLimit ? limitId : undefined}
          disabled={disabled}
          onChange={(e) => onChange({ ...value, companyName: e.target.value.slice(0, MAX_COMPANY_NAME) })}
        />
        {atLimit ? (
          <small id={limitId} className="field-hint" data-testid="company-name-limit">
            {t('branding.maxCompanyName', { max: MAX_COMPANY_NAME })}
          </small>
        ) : null}
      </label>
      <label className="field">
        <span>{t('branding.address')}</span>
        <textarea
          name="address"
          rows={2}
          value={value.address}
          maxLength={MAX_ADDRESS}
          disabled={disabled}
          onChange={(e) => onChange({ ...value, address: e.target.value.slice(0, MAX_ADDRESS) })}
        />
      </label>
    </>
  );
}
