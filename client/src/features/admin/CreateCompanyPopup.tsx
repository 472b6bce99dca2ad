//! Create company (defaults pageColor #f5f5f5, layoutNumber 2): companyCreated / companyCreationFailed.

import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CompanyFields, type CompanyText } from '../../components/company/CompanyFields';
import { createCompany, type CompanyRecord } from './adminApi';
import { PopupSubmit } from './PopupSubmit';
import { Modal } from '../../components/Modal';
import { useAdminCall } from './useAdminCall';

export function CreateCompanyPopup({ onClose, onCreated }: { onClose: () => void; onCreated: (c: CompanyRecord) => void }) {
  const { t } = useTranslation();
  const [form, setForm] = useState<CompanyText>({ companyName: '', address: '' });
  const call = useAdminCall('companyCreated', 'companyCreationFailed');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const company = await call.run(() => createCompany({ companyName: form.companyName.trim(), address: form.address.trim() }));
    if (company) {
      onCreated(company);
      onClose();
    }
  };
  return (
    <Modal title={t('admin.createCompany')} onClose={onClose} testId="create-company-popup">
      <form className="form-stack" onSubmit={submit} noValidate>
        <CompanyFields value={form} onChange={setForm} />
        <PopupSubmit reason={call.reason} label="admin.create" disabled={call.busy || form.companyName.trim() === ''} />
      </form>
    </Modal>
  );
}
