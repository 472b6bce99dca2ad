//! /adminPanel/alarmManager: the company's alarm manager (IHE PCD-04 over MLLP, docs/interfaces.md)
//! — where the hub sends alarms for staff phones and pagers (over TLS with the CA to trust), the link's state, the reports waiting
//! and the ones the manager refused, each with a resend button; where the hub listens for the
//! manager's status reports (PCD-05), when it does. The hub checks every value and
//! who may change it (403 for staff).

import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormPage } from '../../components/FormPage';
import { TextField } from '../../components/TextField';
import { ApiError } from '../../lib/api';
import { useFormat } from '../../lib/format';
import {
  ALARM_KINDS,
  getAlarmManager,
  getDeadLetters,
  putAlarmManager,
  resendDeadLetter,
  type AlarmManagerInput,
  type AlarmManagerJson,
  type DeadLetterJson,
} from './alarmManagerApi';
import './alarmManager.css';

interface Draft {
  enabled: boolean;
  host: string;
  port: string;
  sendingApplication: string;
  sendingFacility: string;
  receivingApplication: string;
  receivingFacility: string;
  kinds: string[];
  tls: boolean;
  caPem: string;
}

const EMPTY: Draft = {
  enabled: true,
  host: '',
  port: '2575',
  sendingApplication: '',
  sendingFacility: '',
  receivingApplication: '',
  receivingFacility: '',
  kinds: [...ALARM_KINDS],
  tls: false,
  caPem: '',
};

/** The form's text of stored settings. */
export const draftOf = (settings: AlarmManagerInput | null | undefined): Draft =>
  settings ? { ...settings, port: String(settings.port), kinds: [...settings.kinds], tls: settings.tls ?? false, caPem: settings.caPem ?? '' } : EMPTY;

/** The body the form sends (the hub checks it). */
export const inputOf = (draft: Draft): AlarmManagerInput => ({ ...draft, host: draft.host.trim(), port: Number(draft.port) });

type Refusal = 'forbidden' | 'loadFailed';

export function AlarmManagerPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const [view, setView] = useState<AlarmManagerJson | null>(null);
  const [letters, setLetters] = useState<DeadLetterJson[]>([]);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const reload = useCallback(async (resetDraft: boolean) => {
    try {
      const [current, dead] = await Promise.all([getAlarmManager(), getDeadLetters()]);
      setView(current);
      setLetters(dead);
      if (resetDraft) setDraft(draftOf(current.settings));
      setRefusal(null);
    } catch (err) {
      setRefusal(err instanceof ApiError && err.status === 403 ? 'forbidden' : 'loadFailed');
    }
  }, []);

  useEffect(() => {
    void reload(true);
    // The link's state and the queue change on their own: refresh them (not the form) every 5 s.
    const timer = window.setInterval(() => void reload(false), 5000);
    return () => window.clearInterval(timer);
  }, [reload]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    setSaveError(null);
    try {
      const answer = await putAlarmManager(inputOf(draft));
      setView(answer);
      setDraft(draftOf(answer.settings));
      setSaved(true);
    } catch (err) {
      const code = err instanceof ApiError ? err.code : 'networkError';
      setSaveError(code === 'invalidAlarmManager' ? t('alarmManager.invalid') : code === 'forbidden' ? t('admin.forbidden') : t('alarmManager.saveFailed'));
    }
  };

  const resend = async (controlId: string) => {
    try {
      await resendDeadLetter(controlId);
    } finally {
      await reload(false);
    }
  };

  const toggleKind = (kind: string, on: boolean) =>
    setDraft({ ...draft, kinds: on ? ALARM_KINDS.filter((k) => k === kind || draft.kinds.includes(k)) : draft.kinds.filter((k) => k !== kind) });

  if (refusal) {
    return (
      <FormPage title={t('alarmManager.title')}>
        <div className="form-error" role="alert" data-testid="alarm-manager-refusal">
          {t(refusal === 'forbidden' ? 'admin.forbidden' : 'alarmManager.loadFailed')}
        </div>
      </FormPage>
    );
  }
  if (!view) {
    return (
      <FormPage title={t('alarmManager.title')}>
        <div className="muted">{t('admin.loading')}</div>
      </FormPage>
    );
  }
  const link = view.link;
  return (
    <FormPage title={t('alarmManager.title')} subtitle={t('alarmManager.subtitle')}>
      <section className="card alarm-manager-card alarm-manager-status" data-testid="alarm-manager-status">
        <h2>{t('alarmManager.statusTitle')}</h2>
        <dl>
          <dt>{t('alarmManager.destination')}</dt>
          <dd data-testid="alarm-manager-destination">{view.destination ?? t('alarmManager.noDestination')}</dd>
          {view.statusListener ? (
            <>
              <dt>{t('alarmManager.statusListener')}</dt>
              <dd data-testid="alarm-manager-status-listener">{view.statusListener}</dd>
            </>
          ) : null}
          {view.hubDefault ? (
            <>
              <dt>{t('alarmManager.hubDefault')}</dt>
              <dd>{view.hubDefault}</dd>
            </>
          ) : null}
          {link ? (
            <>
              <dt>{t('alarmManager.link')}</dt>
              <dd>
                <span className={`link-state link-${link.state}`} data-testid="alarm-manager-link" data-state={link.state}>
                  {t(`alarmManager.linkStates.${link.state}`, { defaultValue: link.state })}
                </span>
                {link.sinceMs > 0 ? <span className="muted"> {t('alarmManager.since', { time: format.dateTime(link.sinceMs) })}</span> : null}
                {link.lastError ? <div className="muted">{link.lastError}</div> : null}
              </dd>
            </>
          ) : null}
          <dt>{t('alarmManager.pending')}</dt>
          <dd data-testid="alarm-manager-pending">{format.number(view.pending)}</dd>
          <dt>{t('alarmManager.deadLetters')}</dt>
          <dd data-testid="alarm-manager-dead">{format.number(view.deadLetters)}</dd>
        </dl>
      </section>

      <form className="card alarm-manager-card form-stack alarm-manager-form" onSubmit={save} data-testid="alarm-manager-form">
        <h2>{t('alarmManager.settingsTitle')}</h2>
        <label className="checkbox">
          <input type="checkbox" name="enabled" checked={draft.enabled} onChange={(e) => setDraft({ ...draft, enabled: e.target.checked })} />
          {t('alarmManager.enabled')}
        </label>
        <div className="alarm-manager-address">
          <TextField label={t('alarmManager.host')} name="host" required value={draft.host} onChange={(host) => setDraft({ ...draft, host })} />
          <TextField label={t('alarmManager.port')} name="port" inputMode="numeric" required value={draft.port} onChange={(port) => setDraft({ ...draft, port })} />
        </div>
        <label className="checkbox">
          <input type="checkbox" name="tls" checked={draft.tls} onChange={(e) => setDraft({ ...draft, tls: e.target.checked })} />
          {t('alarmManager.tls')}
        </label>
        {draft.tls ? (
          <div>
            <label className="field">
              <span>{t('alarmManager.caPem')} *</span>
              <textarea
                name="caPem"
                rows={6}
                className="alarm-manager-ca"
                spellCheck={false}
                placeholder="-----BEGIN CERTIFICATE-----"
                aria-describedby="alarm-manager-ca-hint"
                value={draft.caPem}
                onChange={(e) => setDraft({ ...draft, caPem: e.target.value })}
              />
            </label>
            <small id="alarm-manager-ca-hint" className="field-hint">
              {t('alarmManager.caPemHint')}
            </small>
          </div>
        ) : null}
        <TextField label={t('alarmManager.sendingApplication')} name="sendingApplication" value={draft.sendingApplication} onChange={(sendingApplication) => setDraft({ ...draft, sendingApplication })} />
        <TextField label={t('alarmManager.sendingFacility')} name="sendingFacility" value={draft.sendingFacility} onChange={(sendingFacility) => setDraft({ ...draft, sendingFacility })} />
        <TextField label={t('alarmManager.receivingApplication')} name="receivingApplication" value={draft.receivingApplication} onChange={(receivingApplication) => setDraft({ ...draft, receivingApplication })} />
        <TextField label={t('alarmManager.receivingFacility')} name="receivingFacility" value={draft.receivingFacility} onChange={(receivingFacility) => setDraft({ ...draft, receivingFacility })} />
        <fieldset className="form-fieldset">
          <legend>{t('alarmManager.kinds')}</legend>
          {ALARM_KINDS.map((kind) => (
            <label key={kind} className="checkbox">
              <input type="checkbox" name={`kind-${kind}`} checked={draft.kinds.includes(kind)} onChange={(e) => toggleKind(kind, e.target.checked)} />
              {t(`alarmManager.kindNames.${kind}`)}
            </label>
          ))}
        </fieldset>
        {saveError ? (
          <div className="form-error" role="alert" data-testid="alarm-manager-error">
            {saveError}
          </div>
        ) : null}
        {saved ? (
          <div className="muted" role="status" data-testid="alarm-manager-saved">
            {t('alarmManager.saved')}
          </div>
        ) : null}
        <div className="modal-actions">
          <button type="submit" className="btn">
            {t('alarmManager.save')}
          </button>
        </div>
      </form>

      <section className="card alarm-manager-card" data-testid="dead-letters">
        <h2>{t('alarmManager.deadLettersTitle')}</h2>
        {letters.length === 0 ? (
          <p className="muted">{t('alarmManager.noDeadLetters')}</p>
        ) : (
          <table className="audit-table">
            <thead>
              <tr>
                <th scope="col">{t('alarmManager.queuedAt')}</th>
                <th scope="col">{t('alarmManager.controlId')}</th>
                <th scope="col">{t('alarmManager.phase')}</th>
                <th scope="col">{t('alarmManager.answer')}</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {letters.map((letter) => (
                <tr key={letter.controlId} data-testid="dead-letter" data-control-id={letter.controlId}>
                  <td>{format.dateTime(letter.createdMs)}</td>
                  <td>
                    <code>{letter.controlId}</code>
                  </td>
                  <td>{t(`alarmManager.phases.${letter.phase}`, { defaultValue: letter.phase })}</td>
                  <td>{letter.lastError}</td>
                  <td>
                    <button type="button" className="btn btn-ghost" onClick={() => void resend(letter.controlId)}>
                      {t('alarmManager.resend')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </FormPage>
  );
}
