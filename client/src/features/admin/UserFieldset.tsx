//! E-mail, password and repeat for a new user (checked by `userError`).

import { useTranslation } from 'react-i18next';
import type { UserFields } from './validation';

export function UserFieldset({ value, onChange }: { value: UserFields; onChange: (next: UserFields) => void }) {
  const { t } = useTranslation();
  return (
    <>
      <label className="field">
        <span>{t('admin.email')}</span>
        <input type="email" name="email" autoComplete="off" value={value.email} onChange={(e) => onChange({ ...value, email: e.target.value })} />
      </label>
      <label className="field">
        <span>{t('admin.password')}</span>
        <input
          type="password"
          name="password"
          autoComplete="new-password"
          value={value.password}
          onChange={(e) => onChange({ ...value, password: e.target.value })}
        />
      </label>
      <label className="field">
        <span>{t('admin.passwordRepeat')}</span>
        <input
          type="password"
          name="passwordRepeat"
          autoComplete="new-password"
          value={value.passwordRepeat}
          onChange={(e) => onChange({ ...value, passwordRepeat: e.target.value })}
        />
      </label>
    </>
  );
}
