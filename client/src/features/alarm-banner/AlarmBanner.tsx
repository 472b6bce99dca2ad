//! The unattended alarms, on every signed-in screen until someone attends them (issue 23): each
//! with its kind, bed, room, device and how long it has waited, a link to the bed and Attend; and
//! the audible signal of the highest waiting priority (`lib/alarmTone`), muted per session, with
//! the muted state visible; what the hospital's alarm manager reported of it (accepted by a nurse…). The spec's once-only `alarmOn` toast is shown as before (`lib/alarms`).

import { atom, useAtom, useAtomValue, useStore } from 'jotai';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { attendDevice } from '../../lib/alarms';
import { alarmPriority, highestPriority, ToneScheduler, WebAudioTone, type TonePriority } from '../../lib/alarmTone';
import { useDeviceType } from '../../lib/deviceTypes';
import { deviceViewFamily } from '../../lib/devicesStore';
import { useFormat } from '../../lib/format';
import { ManagerStatusText } from '../../components/ManagerStatusText';
import { bannerOrder, managerStatusFamily, pendingAlarmsAtom, type PendingAlarm } from '../../lib/pendingAlarms';
import { AlarmReasonText } from '../turns';
import { useAlarmSync } from './useAlarmSync';
import './alarmBanner.css';

/** Muted for this signed-in page session only: never stored, so no station stays silent by
 * accident after a reload or the next sign-in. */
export const toneMutedAtom = atom(false);

/** The priority the tone should sound: the highest among the waiting alarms. */
export const tonePriorityAtom = atom<TonePriority | null>((get) =>
  highestPriority(get(pendingAlarmsAtom).map((a) => alarmPriority(a.kind, get(deviceViewFamily(a.deviceId)).repositioning))),
);

/** Seconds since the clock's start, ticking once a second while alarms wait. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

/** Creates the Web Audio tone as soon as the browser lets the page sound (autoplay rules): at once
 * when the page has already had a click or a key press — signing in is one, so a nurse who signs
 * in and walks away still hears the ward's alarms — else on the first pointer or key press. */
function useArmedTone(): { tone: WebAudioTone; armed: boolean } {
  const tone = useMemo(() => new WebAudioTone(), []);
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    const arm = () => {
      tone.arm();
      setArmed(true);
    };
    window.addEventListener('pointerdown', arm, { once: true, capture: true });
    window.addEventListener('keydown', arm, { once: true, capture: true });
    if (typeof navigator !== 'undefined' && navigator.userActivation?.hasBeenActive) arm();
    return () => {
      window.removeEventListener('pointerdown', arm, { capture: true });
      window.removeEventListener('keydown', arm, { capture: true });
    };
  }, [tone]);
  return { tone, armed };
}

export function AlarmBanner() {
  useAlarmSync();
  const { t } = useTranslation();
  const pending = useAtomValue(pendingAlarmsAtom);
  const priority = useAtomValue(tonePriorityAtom);
  const [muted, setMuted] = useAtom(toneMutedAtom);
  const { tone, armed } = useArmedTone();
  const [bursts, setBursts] = useState(0);
  const scheduler = useRef<ToneScheduler | null>(null);
  const now = useNow(pending.length > 0);

  useEffect(() => {
    const s = new ToneScheduler((pattern) => {
      tone.play(pattern);
      setBursts(tone.played);
    });
    scheduler.current = s;
    return () => s.stop();
  }, [tone]);

  useEffect(() => {
    scheduler.current?.update(priority, muted, armed);
  }, [priority, muted, armed]);

  if (pending.length === 0) return null;
  const ordered = bannerOrder(pending);
  return (
    <section
      className="alarm-banner"
      aria-label={t('alarmBanner.title', { count: pending.length })}
      data-testid="alarm-banner"
      data-tone-priority={priority ?? ''}
      data-tone-bursts={bursts}
      data-audio-state={tone.state}
      data-muted={muted}
    >
      <header className="alarm-banner-head">
        <h2>{t('alarmBanner.title', { count: pending.length })}</h2>
        <span className={`alarm-sound-state${muted ? ' is-muted' : ''}`} data-testid="alarm-sound-state">
          {muted ? t('alarmBanner.soundMuted') : armed ? t(`alarmBanner.sounding.${priority ?? 'low'}`) : t('alarmBanner.soundArm')}
        </span>
        <button type="button" className="btn btn-ghost alarm-mute" aria-pressed={muted} data-testid="alarm-mute" onClick={() => setMuted(!muted)}>
          {muted ? t('alarmBanner.unmute') : t('alarmBanner.mute')}
        </button>
      </header>
      <ul>
        {ordered.map((alarm) => (
          <AlarmRow key={alarm.key} alarm={alarm} now={now} />
        ))}
      </ul>
    </section>
  );
}

function AlarmRow({ alarm, now }: { alarm: PendingAlarm; now: number }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const store = useStore();
  const navigate = useNavigate();
  const view = useAtomValue(deviceViewFamily(alarm.deviceId));
  const managerStatus = useAtomValue(managerStatusFamily(alarm.deviceId));
  // A room set's sensor opens its room set's page.
  const parent = useAtomValue(deviceViewFamily(view.parent ?? ''));
  const target = view.parent && parent.device ? parent : view;
  const info = useDeviceType(target.deviceType);
  const [attending, setAttending] = useState(false);
  const typeLabel = t(`deviceTypes.${view.deviceType}`, { defaultValue: view.deviceType });
  const bed = view.bed || target.bed;
  const room = view.device?.room || target.device?.room || '';
  const kind = alarm.kind === 'Missing' ? 'missing' : 'ulcerRisk';
  const waited = Math.max(0, Math.floor((now - alarm.raisedAtMs) / 1000));

  const open = () => {
    if (!info?.route) return;
    navigate(info.route, { state: { device: target.device ?? { _id: { $oid: target.id }, name: target.name, deviceType: target.deviceType } } });
  };
  const attend = async () => {
    setAttending(true);
    await attendDevice(store, alarm.deviceId, typeLabel);
    setAttending(false);
  };

  return (
    <li className={`alarm-row alarm-${kind}`} data-testid="alarm-banner-row" data-device-id={alarm.deviceId} data-kind={alarm.kind}>
      <span className="alarm-kind">
        {t(`alarmBanner.kind.${kind}`)}
        <AlarmReasonText reason={alarm.reason} />
      </span>
      <span className="alarm-where">
        {bed ? <span>{t('alarmBanner.bed', { bed })}</span> : null}
        {room ? <span>{t('alarmBanner.room', { room })}</span> : null}
        <span className="alarm-device">{target === view ? view.name : `${target.name} · ${typeLabel}`}</span>
        {managerStatus?.alarm === alarm.key ? <ManagerStatusText status={managerStatus} testId="alarm-banner-manager-status" /> : null}
      </span>
      <span className="alarm-age" data-testid="alarm-age">
        {t('alarmBanner.waiting', { time: fmt.duration(waited) })}
      </span>
      <span className="alarm-actions">
        <button type="button" className="btn btn-ghost" onClick={open} disabled={!info?.route} data-testid="alarm-open">
          {t('alarmBanner.open')}
        </button>
        <button type="button" className="btn btn-attend" onClick={attend} disabled={attending} data-testid="alarm-attend">
          {t('pages.attend')}
        </button>
      </span>
    </li>
  );
}
