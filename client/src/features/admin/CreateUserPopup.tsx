//! Create user (role 2, in the chosen company): emptyEmail, incorrectEmail, passwordsUnmatch,
//! shortPassword; accountCreated / failedAccount.

import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { createUser, type CompanyRecord } from './adminApi';
import { CompanySelect } from './CompanySelect';
import { PopupSubmit } from './PopupSubmit';
import { Modal } from '../../components/Modal';
import { useAdminCall } from './useAdminCall';
import { UserFieldset } from './UserFieldset';
import { userError, type UserFields } from './validation';

export function CreateUserPopup({ companies, defaultCompany, onClose }: { companies: CompanyRecord[]; defaultCompany: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [company, setCompany] = useState(defaultCompany);
  const [user, setUser] = useState<UserFields>({ email: '', password: '', passwordRepeat: '' });
  const call = useAdminCall('accountCreated', 'failedAccount');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const error = userError(user);
    if (error) return call.refuse(error);
    const created = await call.run(() => createUser({ ...user, email: user.email.trim(), company }));
    if (created) onClose();
  };
  return (
    <Modal title={t('admin.createUser')} onClose={onClose} testId="create-user-popup">
      <form className="form-stack" onSubmit={submit} noValidate>
        <CompanySelect companies={companies} value={company} onChange={setCompany} />
        <UserFieldset value={user} onChange={setUser} />
        <PopupSubmit reason={call.reason} label="admin.create" disabled={call.busy} />
      </form>
    </Modal>
  );
}
