//! /adminPanel (spec §2 "Login and admin"): back button, title, four large buttons opening popups
//! (create company, user, device, all), the quick registration popup, device secret rotation and
//! a link to the audit log. The role arrives in
//! navigation state but decides nothing here: the hub judges every call, and its refusal of the
//! company list (403 for staff) replaces the buttons with a clear message.

import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { FormPage } from '../../components/FormPage';
import { ApiError, oidOf } from '../../lib/api';
import { listCompanies, type CompanyRecord } from './adminApi';
import { CreateAllPopup } from './CreateAllPopup';
import { CreateCompanyPopup } from './CreateCompanyPopup';
import { CreateDevicePopup } from './CreateDevicePopup';
import { CreateUserPopup } from './CreateUserPopup';
import { QuickRegistrationPopup } from './QuickRegistrationPopup';
import { RotateSecretPopup } from './RotateSecretPopup';
import './admin.css';

type Popup = 'company' | 'user' | 'device' | 'all' | 'quick' | 'rotate';

const BUTTONS: ReadonlyArray<{ popup: Popup; label: string; hint: string }> = [
  { popup: 'company', label: 'admin.createCompany', hint: 'admin.createCompanyHint' },
  { popup: 'user', label: 'admin.createUser', hint: 'admin.createUserHint' },
  { popup: 'device', label: 'admin.createDevice', hint: 'admin.createDeviceHint' },
  { popup: 'all', label: 'admin.createAll', hint: 'admin.createAllHint' },
];

export function AdminPanelPage() {
  const { t } = useTranslation();
  const [companies, setCompanies] = useState<CompanyRecord[] | null>(null);
  const [refusal, setRefusal] = useState<'forbidden' | 'loadFailed' | null>(null);
  const [popup, setPopup] = useState<Popup | null>(null);

  const reload = useCallback(() => {
    listCompanies()
      .then((list) => {
        setCompanies(Array.isArray(list) ? list : []);
        setRefusal(null);
      })
      .catch((err) => setRefusal(err instanceof ApiError && err.status === 403 ? 'forbidden' : 'loadFailed'));
  }, []);
  useEffect(reload, [reload]);

  const close = useCallback(() => setPopup(null), []);
  const firstCompany = companies?.[0] ? (oidOf(companies[0]._id) ?? companies[0].companyName) : '';

  return (
    <FormPage title={t('admin.title')}>
      {refusal ? (
        <div className="form-error" role="alert" data-testid="admin-refusal">
          {t(`admin.${refusal}`)}
        </div>
      ) : !companies ? (
        <div className="muted">{t('admin.loading')}</div>
      ) : (
        <>
          <div className="admin-actions">
            {BUTTONS.map((b) => (
              <button key={b.popup} type="button" className="btn btn-ghost admin-big-button" onClick={() => setPopup(b.popup)}>
                {t(b.label)}
                <small>{t(b.hint)}</small>
              </button>
            ))}
          </div>
          <p>
            <button type="button" className="btn btn-ghost" onClick={() => setPopup('quick')}>
              {t('admin.quickRegistration')}
            </button>{' '}
            <button type="button" className="btn btn-ghost" onClick={() => setPopup('rotate')}>
              {t('admin.rotateSecret')}
            </button>{' '}
            <Link className="btn btn-ghost" to="/adminPanel/auditLog" data-testid="audit-log-link">
              {t('admin.auditLog')}
            </Link>{' '}
            <Link className="btn btn-ghost" to="/adminPanel/alarmManager" data-testid="alarm-manager-link">
              {t('alarmManager.title')}
            </Link>
          </p>
        </>
      )}
      {companies && popup === 'company' ? <CreateCompanyPopup onClose={close} onCreated={reload} /> : null}
      {companies && popup === 'user' ? <CreateUserPopup companies={companies} defaultCompany={firstCompany} onClose={close} /> : null}
      {companies && popup === 'device' ? <CreateDevicePopup companies={companies} defaultCompany={firstCompany} onClose={close} /> : null}
      {companies && popup === 'all' ? <CreateAllPopup onClose={close} onCreated={reload} /> : null}
      {companies && popup === 'quick' ? <QuickRegistrationPopup companies={companies} onClose={close} onCreated={reload} /> : null}
      {companies && popup === 'rotate' ? <RotateSecretPopup onClose={close} /> : null}
    </FormPage>
  );
}
