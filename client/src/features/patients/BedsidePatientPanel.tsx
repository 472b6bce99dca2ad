//! The patient at a bed, seat or room set (issue 22): the device's own patient, assigned and
//! released by staff here (PUT /api/device/{id}/patient). It is not the signed-in user's selection:
//! the device's alarms, logs and captures are the patient assigned here, while plates follow each
//! clinician's selection. The panel is headed by the device family's place (bed, seat, room set).

import { useAtomValue, useStore } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { oidOf, type UserDevice } from '../../lib/api';
import { bedsidePatientsAtom, type SelectedPatient } from '../../lib/clinicalContext';
import type { BedsidePatient } from '../../api/types';
import { deviceInfoFamily, deviceViewFamily, type AppStore } from '../../lib/devicesStore';
import { notify } from '../../lib/notifications';
import { listPatients, patientId, setBedsidePatient, type Patient } from './patientApi';
import { PatientSelectModal } from './PatientSelectModal';
import { PatientFormModal } from './PatientFormModal';

/** Keeps the capture's patient where captures read it. */
function remember(store: AppStore, deviceId: string, patient: SelectedPatient | null): void {
  store.set(bedsidePatientsAtom, { ...store.get(bedsidePatientsAtom), [deviceId]: patient });
}

export function BedsidePatientPanel({ device }: { device: UserDevice }) {
  const { t } = useTranslation();
  const store = useStore();
  const deviceId = oidOf(device._id) as string;
  // The device's record in the shared store (the cards read the same one), else the page's.
  const record = useAtomValue(deviceViewFamily(deviceId)).device ?? device;
  const currentId = record.currentPatient ?? null;
  const currentName = record.currentPatientName ?? '';
  const [details, setDetails] = useState<SelectedPatient | null>(null);
  const [open, setOpen] = useState<null | 'assign' | 'create'>(null);
  const [busy, setBusy] = useState(false);
  const patient: SelectedPatient | null = currentId ? (details?.id === currentId ? details : { id: currentId, name: currentName }) : null;

  // The assigned patient's height and weight, for the panel and the captures' parameters.
  useEffect(() => {
    let live = true;
    if (!currentId) {
      remember(store, deviceId, null);
      return;
    }
    remember(store, deviceId, { id: currentId, name: currentName });
    listPatients()
      .then((all) => {
        const found = all.find((p) => patientId(p) === currentId);
        if (!live || !found) return;
        const summary = { id: currentId, name: found.name, height: found.height, weight: found.weight };
        setDetails(summary);
        remember(store, deviceId, summary);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [store, deviceId, currentId, currentName]);

  /** Writes the hub's answer into the device's record, which the page and the cards show. */
  const stored = (answer: BedsidePatient) =>
    store.set(deviceInfoFamily(deviceId), {
      ...record,
      currentPatient: answer.currentPatient ?? null,
      currentPatientName: answer.currentPatientName ?? null,
    });

  const assign = async (id: string): Promise<Patient | null> => {
    stored(await setBedsidePatient(deviceId, id));
    return (await listPatients()).find((p) => patientId(p) === id) ?? null;
  };

  const release = async () => {
    if (busy) return;
    setBusy(true);
    try {
      stored(await setBedsidePatient(deviceId, null));
      notify(store, { kind: 'success', key: 'bedside.released' });
    } catch {
      notify(store, { kind: 'error', key: 'bedside.failed' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="device-panel card bedside-panel" data-testid="bedside-panel" aria-label={t('bedside.heading')}>
      <h2>{t('bedside.heading')}</h2>
      {patient ? (
        <dl data-testid="bedside-patient" data-patient-id={patient.id}>
          <dt>{t('patients.name')}</dt>
          <dd data-testid="bedside-patient-name">{patient.name}</dd>
          {patient.height !== undefined ? (
            <>
              <dt>{t('patients.height')}</dt>
              <dd>{t('patients.cm', { value: patient.height })}</dd>
              <dt>{t('patients.weight')}</dt>
              <dd>{t('patients.kg', { value: patient.weight })}</dd>
            </>
          ) : null}
        </dl>
      ) : (
        <p className="muted" role="status" data-testid="bedside-free">
          {t('bedside.free')}
        </p>
      )}
      <p className="muted bedside-note">{t('bedside.note')}</p>
      <div className="patient-panel-actions">
        <button type="button" className="btn btn-primary" data-testid="bedside-assign" onClick={() => setOpen('assign')}>
          {patient ? t('bedside.change') : t('bedside.assign')}
        </button>
        {patient ? (
          <button type="button" className="btn" data-testid="bedside-release" disabled={busy} onClick={release}>
            {t('bedside.release')}
          </button>
        ) : null}
      </div>
      {open === 'assign' ? (
        <PatientSelectModal
          title={t('bedside.assignTitle')}
          doneKey="bedside.assigned"
          currentId={patient?.id ?? null}
          choose={assign}
          onClose={() => setOpen(null)}
          onCreate={() => setOpen('create')}
          onSelected={() => setOpen(null)}
        />
      ) : null}
      {open === 'create' ? <PatientFormModal mode="create" onClose={() => setOpen(null)} onSaved={() => setOpen('assign')} /> : null}
    </section>
  );
}
