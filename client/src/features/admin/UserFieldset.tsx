//! E-mail, password and repeat for a new user (checked by `userError`).

import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/TextField';
import type { UserFields } from './validation';

export function UserFieldset({ value, onChange }: { value: UserFields; onChange: (next: UserFields) => void }) {
  const { t } = useTranslation();
  return (
    <>
      <TextField label={t('admin.email')} name="email" type="email" value={value.email} onChange={(email) => onChange({ ...value, email })} />
      {(['password', 'passwordRepeat'] as const).map((key) => (
        <TextField
          key={key}
          label={t(`admin.${key}`)}
          name={key}
          type="password"
          autoComplete="new-password"
          value={value[key]}
          onChange={(text) => onChange({ ...value, [key]: text })}
        />
      ))}
    </>
  );
}
