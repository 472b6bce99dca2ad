//! The patient and device panel of a device page (spec §2): the device's company, name and status
//! (left and right for the horse); the selected patient (name, height, weight) or the red notice —
//! on a bed, seat or room set with a patient assigned, the note that its captures are that
//! patient's instead of the notice; select, edit, new and info buttons, and the device's own actions.

import { useAtomValue, useStore } from 'jotai';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DeviceStatus } from '../../components/DeviceStatus';
import { oidOf, type UserDevice } from '../../lib/api';
import { bedsidePatientsAtom } from '../../lib/clinicalContext';
import { deviceViewFamily } from '../../lib/devicesStore';
import { notify } from '../../lib/notifications';
import { useSession } from '../../lib/session';
import { fetchSelectedPatient, type Patient } from './patientApi';
import { PatientFormModal } from './PatientFormModal';
import { PatientInfoModal } from './PatientInfoModal';
import { PatientSelectModal } from './PatientSelectModal';
import { applySelection, forgetOtherUsersSelection, selectedPatientRecordAtom, selectionLoadAtom } from './selection';

type Open = null | 'select' | 'create' | 'edit' | 'info';

export function PatientPanel({ device, deviceActions }: { device: UserDevice; deviceActions?: ReactNode }) {
  const { t } = useTranslation();
  const store = useStore();
  const id = oidOf(device._id) as string;
  const view = useAtomValue(deviceViewFamily(id));
  const patient = useAtomValue(selectedPatientRecordAtom);
  const load = useAtomValue(selectionLoadAtom);
  const bedside = useAtomValue(bedsidePatientsAtom)[id] ?? null;
  const [open, setOpen] = useState<Open>(null);

  useEffect(() => {
    let live = true;
    forgetOtherUsersSelection(store);
    store.set(selectionLoadAtom, 'loading');
    fetchSelectedPatient()
      .then((p) => {
        if (!live) return;
        applySelection(store, p);
        store.set(selectionLoadAtom, 'ready');
      })
      .catch(() => live && store.set(selectionLoadAtom, 'failed'));
    return () => {
      live = false;
    };
  }, [store]);

  const needSelection = (next: Open) => {
    if (!patient) {
      notify(store, { kind: 'error', key: 'selectPatient' });
      return;
    }
    setOpen(next);
  };

  const close = () => setOpen(null);
  const saved = (p: Patient) => {
    // An edit of the selected patient refreshes what the panel and the captures show.
    if (open === 'edit') applySelection(store, p);
    close();
  };

  const company = useSession()?.companyName ?? '';
  const name = view.name || device.name;

  return (
    <section className="patient-panel card" data-testid="patient-panel" aria-label={t('patients.panelTitle')}>
      <div className="patient-panel-device">
        <h2>{t('patients.deviceHeading')}</h2>
        <dl>
          {company ? (
            <>
              <dt>{t('devices.company')}</dt>
              <dd data-testid="panel-company">{company}</dd>
            </>
          ) : null}
          <dt>{t('devices.id')}</dt>
          <dd data-testid="panel-device-name">{name}</dd>
          <dt>{t('devices.status')}</dt>
          <dd>
            <DeviceStatus view={view} />
          </dd>
        </dl>
        {deviceActions ? <div className="patient-panel-actions">{deviceActions}</div> : null}
      </div>
      <div className="patient-panel-patient">
        <h2>{t('patients.patientHeading')}</h2>
        {load === 'loading' && !patient ? (
          <p className="muted">{t('patients.loading')}</p>
        ) : patient ? (
          <dl data-testid="selected-patient" data-patient-id={oidOf(patient._id) ?? ''}>
            <dt>{t('patients.name')}</dt>
            <dd data-testid="selected-patient-name">{patient.name}</dd>
            <dt>{t('patients.height')}</dt>
            <dd>{t('patients.cm', { value: patient.height })}</dd>
            <dt>{t('patients.weight')}</dt>
            <dd>{t('patients.kg', { value: patient.weight })}</dd>
          </dl>
        ) : bedside ? null : (
          <p className="no-patient" role="status" data-testid="no-patient">
            {load === 'failed' ? t('errorSelectingPatient') : t('patients.noneSelected')}
          </p>
        )}
        {bedside ? (
          // A bed's, seat's or room set's patient: its captures are theirs, whoever is selected
          // (`capturePatient`); without a selection, no red notice either.
          <p className="bedside-capture-note" role="status" data-testid="bedside-capture-note" data-patient-id={bedside.id}>
            {t('patients.bedsideCaptures', { name: bedside.name })}
          </p>
        ) : null}
        <div className="patient-panel-actions">
          <button type="button" className="btn btn-primary" data-testid="patient-select-open" onClick={() => setOpen('select')}>
            {t('patients.select')}
          </button>
          <button type="button" className="btn" data-testid="patient-edit-open" onClick={() => needSelection('edit')}>
            {t('patients.edit')}
          </button>
          <button type="button" className="btn" data-testid="patient-new-open" onClick={() => setOpen('create')}>
            {t('patients.new')}
          </button>
          <button type="button" className="btn" data-testid="patient-info-open" onClick={() => needSelection('info')}>
            {t('patients.info')}
          </button>
        </div>
      </div>
      {open === 'select' ? (
        <PatientSelectModal
          currentId={patient ? oidOf(patient._id) : null}
          onClose={close}
          onCreate={() => setOpen('create')}
          onSelected={(p) => {
            applySelection(store, p);
            close();
          }}
        />
      ) : null}
      {open === 'create' ? <PatientFormModal mode="create" onClose={close} onSaved={saved} /> : null}
      {open === 'edit' && patient ? <PatientFormModal mode="edit" patient={patient} onClose={close} onSaved={saved} /> : null}
      {open === 'info' && patient ? (
        <PatientInfoModal patient={patient} onClose={close} onDeleted={() => applySelection(store, null)} />
      ) : null}
    </section>
  );
}
