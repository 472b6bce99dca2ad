//! Rotate a device's secret (issue 14 §5): pick one of the company's devices, confirm in a second
//! step that names the device (issue 22: a click alone never rotates), and see the new secret once
//! with a copy button (the same component as at registration). The hub then refuses
//! the old secret and disconnects a device still connected with it.

import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/Modal';
import { getUserDevices, oidOf, type UserDevice } from '../../lib/api';
import { FALLBACK_ERROR_KEY, messageKeyForError } from '../../lib/messages';
import { rotateDeviceSecret, type RegisteredDevice } from './adminApi';
import { PopupSubmit } from './PopupSubmit';
import { RegistrationResult } from './RegistrationResult';

export function RotateSecretPopup({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [devices, setDevices] = useState<UserDevice[] | null>(null);
  const [deviceId, setDeviceId] = useState('');
  const [busy, setBusy] = useState(false);
  const [reason, setReason] = useState<string | null>(null);
  const [result, setResult] = useState<RegisteredDevice | null>(null);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    getUserDevices()
      .then((list) => {
        // Parents (a horse, a room set) never connect: their members have the secrets.
        const connecting = list.filter((d) => (d.system?.devices ?? []).length === 0);
        setDevices(connecting);
        setDeviceId(oidOf(connecting[0]?._id) ?? '');
      })
      .catch((err) => {
        setDevices([]);
        setReason(messageKeyForError(err));
      });
  }, []);

  const chosen = (devices ?? []).find((d) => oidOf(d._id) === deviceId);

  /** The first submit asks; only the confirmation rotates. */
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!deviceId || busy) return;
    if (!confirming) {
      setConfirming(true);
      return;
    }
    setBusy(true);
    setReason(null);
    try {
      setResult(await rotateDeviceSecret(deviceId));
    } catch (err) {
      const key = messageKeyForError(err);
      setReason(key === FALLBACK_ERROR_KEY ? 'admin.rotateFailed' : key);
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  return (
    <Modal title={t('admin.rotateSecret')} onClose={onClose} testId="rotate-secret-popup">
      {result ? (
        <RegistrationResult device={result} onDone={onClose} message={t('admin.secretRotated', { serial: result.hardwareSerial, name: result.name })} />
      ) : (
        <form className="form-stack" onSubmit={submit} noValidate>
          <label className="field">
            <span>{t('admin.device')}</span>
            <select
              value={deviceId}
              onChange={(e) => {
                setDeviceId(e.target.value);
                setConfirming(false);
              }} disabled={!devices || devices.length === 0} data-testid="rotate-device">
              {(devices ?? []).map((d) => {
                const id = oidOf(d._id) ?? '';
                return (
                  <option key={id} value={id}>
                    {`${d.name} (${d.hardwareSerial ?? id})`}
                  </option>
                );
              })}
            </select>
          </label>
          <p className="secret-warning">{t('admin.rotateWarning')}</p>
          {confirming && chosen ? (
            <div className="form-error" role="alert" data-testid="rotate-confirm">
              <p>{t('admin.rotateConfirm', { name: chosen.name, serial: chosen.hardwareSerial ?? deviceId })}</p>
              <button type="button" className="btn btn-ghost" onClick={() => setConfirming(false)} data-testid="rotate-cancel">
                {t('admin.rotateCancel')}
              </button>
            </div>
          ) : null}
          <PopupSubmit reason={reason} label={confirming ? 'admin.rotateConfirmButton' : 'admin.rotate'} disabled={busy || !deviceId} />
        </form>
      )}
    </Modal>
  );
}
