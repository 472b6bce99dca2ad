//! The company a new user or device belongs to (GET /api/auth/companies, admin only).

import { useTranslation } from 'react-i18next';
import type { CompanyRecord } from './adminApi';
import { oidOf } from '../../lib/api';

export function CompanySelect({
  companies,
  value,
  onChange,
  optional,
}: {
  companies: CompanyRecord[];
  value: string;
  onChange: (companyId: string) => void;
  /** Offers "none" (quick registration: a company named after the serial). */
  optional?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <label className="field">
      <span>{t('admin.company')}</span>
      <select name="company" value={value} onChange={(e) => onChange(e.target.value)}>
        {optional ? <option value="">{t('admin.companyFromSerial')}</option> : null}
        {companies.map((c) => {
          const id = oidOf(c._id) ?? c.companyName;
          return (
            <option key={id} value={id}>
              {c.companyName}
            </option>
          );
        })}
      </select>
    </label>
  );
}
