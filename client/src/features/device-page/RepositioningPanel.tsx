//! The repositioning clock on the device page: the escalation tier (ok, dueSoon, due, overdue), the
//! time until the next turn is due (and how long the bed or seat has been empty while the patient
//! is up), the posture the hub reads now (as the ward tile says it), and the patient's interval, which a nurse can change
//! (PUT /api/device/{id}/repositioning; the hub's limits, 15–1440 min, are checked here too).

import { useAtomValue, useStore } from 'jotai';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, getRepositioning, setRepositioning } from '../../lib/api';
import { EmptyMatNote } from '../../components/EmptyMatNote';
import { useDeviceType } from '../../lib/deviceTypes';
import { deviceViewFamily } from '../../lib/devicesStore';
import { notify } from '../../lib/notifications';
import { formatDuration, useFormat } from '../../lib/format';
import { postureLine } from '../../lib/postureLine';
import { PostureText } from '../../components/PostureText';
import { checkInterval, countdownState } from './repositioning';
import { usePolling } from './usePolling';

/** How often the page re-reads the clock (the countdown ticks locally in between). */
export const REPOSITIONING_POLL_MS = 5000;

/** `refreshKey`: a change re-reads the clock at once (a turn was recorded). */
export function RepositioningPanel({ deviceId, refreshKey = 0 }: { deviceId: string; refreshKey?: number }) {
  const { t, i18n } = useTranslation();
  const fmt = useFormat();
  const store = useStore();
  const view = useAtomValue(deviceViewFamily(deviceId));
  const location = useDeviceType(view.deviceType)?.location;
  const clock = usePolling(() => getRepositioning(deviceId), REPOSITIONING_POLL_MS, `repositioning/${deviceId}`);
  const [fetchedAt, setFetchedAt] = useState(() => Date.now());
  const [now, setNow] = useState(() => Date.now());
  const [input, setInput] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [saving, setSaving] = useState(false);
  const data = clock.data;
  const { refresh } = clock;

  useEffect(() => {
    setFetchedAt(Date.now());
    if (data) setInput((current) => (current === '' ? String(data.minutes) : current));
  }, [data]);
  // A tier change pushed by the hub re-reads the countdown at once.
  useEffect(() => {
    refresh();
  }, [view.repositioning, refreshKey, refresh]);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

  const tier = view.repositioning;
  // The posture the hub reads now, as the ward tile says it (a bed's; a seat reads none).
  const posture = data ? postureLine(data, t, fmt) : null;
  const remainingMs = data?.dueInSeconds == null ? null : Math.max(0, data.dueInSeconds * 1000 - (now - fetchedAt));

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!data) return;
    const check = checkInterval(input, data.minMinutes, data.maxMinutes);
    if (!check.ok) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setSaving(true);
    try {
      const saved = await setRepositioning(deviceId, check.minutes);
      setInput(String(saved.minutes));
      notify(store, { kind: 'success', key: 'pages.repositioning.saved', params: { minutes: saved.minutes } }, 2500);
      refresh();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'invalidRepositioningInterval') setInvalid(true);
      else notify(store, { kind: 'error', key: 'pages.repositioning.saveFailed' }, 2500);
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="card repositioning-panel" data-testid="repositioning" data-tier={tier}>
      <h2>{t('pages.repositioning.title')}</h2>
      <div className={`tier-chip tier-${tier}`} data-testid="repositioning-tier">
        {t(`pages.repositioning.tier.${tier}`)}
      </div>
      <p className="repositioning-due" data-testid="repositioning-due">
        {!data
          ? clock.failed
            ? t('pages.repositioning.unavailable')
            : t('pages.loading')
          : countdownState(remainingMs) === 'dueIn'
            ? t('pages.repositioning.dueIn', { time: formatDuration((remainingMs ?? 0) / 1000, i18n.resolvedLanguage ?? i18n.language) })
            : t(`pages.repositioning.${countdownState(remainingMs)}`)}
      </p>
      {posture ? (
        <p className="repositioning-posture" data-testid="repositioning-posture" title={posture.full} aria-label={posture.full}>
          <PostureText line={posture} />
        </p>
      ) : null}
      {data ? (
        <EmptyMatNote
          location={location}
          unloadedForSeconds={data.unloadedForSeconds}
          offloadSeconds={data.offloadSeconds}
          readAtMs={fetchedAt}
          now={now}
          testId="repositioning-empty"
        />
      ) : null}
      <form className="repositioning-form" onSubmit={save} noValidate>
        <label htmlFor={`interval-${deviceId}`}>{t('pages.repositioning.interval')}</label>
        <div className="repositioning-row">
          <input
            id={`interval-${deviceId}`}
            type="number"
            inputMode="numeric"
            min={data?.minMinutes}
            max={data?.maxMinutes}
            step={1}
            value={input}
            disabled={!data || saving}
            aria-invalid={invalid}
            aria-describedby={invalid ? `interval-error-${deviceId}` : undefined}
            onChange={(e) => {
              setInput(e.target.value);
              setInvalid(false);
            }}
          />
          <span className="muted">{t('pages.repositioning.minutes')}</span>
          <button type="submit" className="btn btn-primary" disabled={!data || saving}>
            {saving ? t('pages.saving') : t('pages.save')}
          </button>
        </div>
        {invalid && data ? (
          <div className="form-error" role="alert" id={`interval-error-${deviceId}`}>
            {t('pages.repositioning.invalid', { min: data.minMinutes, max: data.maxMinutes })}
          </div>
        ) : null}
      </form>
    </section>
  );
}
