//! One bed, seat or room set on the ward board: its live map (drawn by the board's one WebGL
//! canvas over the tile's map slot), bed label, patient, posture with confidence, the countdown to
//! the next turn (and, while the patient is up, for how long the bed or seat has been empty), the
//! tier colour, a waiting alarm's kind and age with Attend (the banner's call, `lib/alarms`),
//! Missing and Offline. The whole tile opens the device's page.
//!
//! Two slots are left for issue 23's other items, filled by the app when they exist: `turnAction`
//! (recording "Patient turned") and `alarmReason` (why an Ulcer Risk alarm was raised).

import { useAtomValue } from 'jotai';
import { useLayoutEffect, useRef, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyMatNote } from '../../components/EmptyMatNote';
import { StatusBadge } from '../../components/StatusBadge';
import { locationLabelKey } from '../../components/DeviceSettingsFields';
import { companyVariantsAtom } from '../../lib/companyVariants';
import { useDeviceType } from '../../lib/deviceTypes';
import { useFormat } from '../../lib/format';
import { ManagerStatusText } from '../../components/ManagerStatusText';
import { attendanceFamily, managerStatusFamily } from '../../lib/pendingAlarms';
import { useDeviceActions } from '../../lib/useDeviceActions';
import { useLiveLink } from '../../lib/liveLink';
import { INLINE } from '../../lib/messages';
import { postureLine } from '../../lib/postureLine';
import { PostureText } from '../../components/PostureText';
import { textEms, twoLineEms } from './textFit';
import type { WardTileModel } from './tiles';
import { countdownShown, secondsLeft, urgencyOf } from './urgency';
import type { WardMapRenderer } from './wardRenderer';

export interface WardTileProps {
  tile: WardTileModel;
  now: number;
  renderer: WardMapRenderer | null;
  /** Whether the renderer failed (no WebGL): the map slot says so. */
  mapUnavailable: boolean;
  /** Slot: the "Patient turned" action for this device (issue 23, item 3). */
  turnAction?: ReactNode;
  /** Slot: the reason of the device's Ulcer Risk alarm (issue 23, item 3). */
  alarmReason?: ReactNode;
  /** A paired wall screen's board: no Attend (a person attends, signed in elsewhere). */
  readOnly?: boolean;
}

/** The style that sets a large text no larger than fits its column on one line (ward.css). */
const fits = (text: string) => ({ '--text-ems': textEms(text) }) as CSSProperties;
/** The same for a text that may take two lines: no larger than fits them (never three). */
const fitsTwoLines = (text: string) => ({ '--text-ems': twoLineEms(text) }) as CSSProperties;

export function WardTile({ tile, now, renderer, mapUnavailable, turnAction, alarmReason, readOnly = false }: WardTileProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const info = useDeviceType(tile.deviceType);
  const attendance = useAtomValue(attendanceFamily(tile.id));
  // What the hospital's alarm manager reported of the tile's alarm (IHE PCD-05).
  const managerStatus = useAtomValue(managerStatusFamily(tile.id));
  const variants = useAtomValue(companyVariantsAtom);
  const slotRef = useRef<HTMLDivElement>(null);
  // While the socket is lost the tile is as of that moment: greyed and saying so (lib/liveLink).
  const link = useLiveLink();
  const urgency = urgencyOf(tile);
  const offline = tile.cardStatus === 'Offline';
  const typeLabel = t(`deviceTypes.${tile.deviceType}`, { defaultValue: tile.deviceType });
  const frame = info?.frame ?? null;
  // The posture line, fitted whole to its column like the large texts (never "Right Lateral · 99 …").
  const posture = postureLine(tile, t, fmt);

  useLayoutEffect(() => {
    const slot = slotRef.current;
    if (!renderer || !slot || !tile.mapDeviceId) return;
    return renderer.attach(tile.mapDeviceId, slot);
  }, [renderer, tile.mapDeviceId]);

  const { open, onKeyDown, attend, attending } = useDeviceActions(tile.id, typeLabel);

  const left = offline ? null : secondsLeft(tile.dueInSeconds, tile.readAtMs, now);
  const waited = tile.alarm ? Math.max(0, Math.floor((now - tile.alarm.raisedAtMs) / 1000)) : 0;
  const alarmKind = tile.alarm?.kind === 'Missing' ? 'missing' : 'ulcerRisk';

  return (
    <article
      role="button"
      tabIndex={0}
      className={`ward-tile urgency-${urgency}${tile.alarm ? ' has-alarm' : ''}${tile.mapDeviceId ? '' : ' no-map'}${link.stale ? ' is-stale' : ''}`}
      data-testid="ward-tile"
      data-device-id={tile.id}
      data-urgency={urgency}
      data-stale={link.stale ? 'true' : undefined}
      data-alarm={tile.alarm?.kind ?? ''}
      aria-label={`${tile.label} · ${t(`ward.urgency.${urgency}`)}`}
      onClick={open}
      onKeyDown={onKeyDown}
    >
      <div className="ward-tile-head">
        <span className="ward-bed" data-testid="ward-bed" style={fits(tile.label)}>
          {tile.label}
        </span>
        <span className="ward-name" title={t(variants.seatingLabels ? 'variants.sit' : locationLabelKey(info?.location))}>
          {tile.name}
        </span>
        {link.stale ? (
          <span className="ward-stale" data-testid="ward-stale">
            {link.lostAtMs != null ? t('ward.stale', { time: fmt.time(link.lostAtMs) }) : t('device.presence.notLive')}
          </span>
        ) : null}
      </div>
      {tile.mapDeviceId ? (
        <div
          ref={slotRef}
          className="ward-tile-map"
          data-testid="ward-tile-map"
          style={frame ? { aspectRatio: `${frame.cols} / ${frame.rows}` } : undefined}
        >
          {offline ? (
            <span className="ward-map-note">{t('ward.map.offline')}</span>
          ) : mapUnavailable ? (
            <span className="ward-map-note">{t('view.unavailable')}</span>
          ) : (
            <span className="ward-map-note ward-map-waiting">{t(INLINE.socketEmpty)}</span>
          )}
        </div>
      ) : null}
      <div className="ward-tile-body">
        <div className="ward-countdown" data-testid="ward-countdown">
          {offline ? (
            <StatusBadge status="Offline" />
          ) : tile.alarm?.kind === 'Missing' ? null : urgency === 'missing' ? (
            <span className="ward-missing" style={fitsTwoLines(t('ward.missing'))}>
              {t('ward.missing')}
            </span>
          ) : !tile.hasClock ? (
            <StatusBadge status={tile.cardStatus} />
          ) : left === null ? (
            <span className="ward-countdown-none">{t('ward.countdown.nobody')}</span>
          ) : left === 0 ? (
            <span className="ward-countdown-time" style={fits(t('ward.countdown.now'))}>
              {t('ward.countdown.now')}
            </span>
          ) : (
            <>
              <span className="ward-countdown-label">{t('ward.countdown.next')}</span>{' '}
              <span className="ward-countdown-time" style={fits(fmt.narrowDuration(countdownShown(left)))}>
                {fmt.narrowDuration(countdownShown(left))}
              </span>
            </>
          )}
        </div>
        {tile.members.length ? (
          <ul className="ward-members" data-testid="ward-members">
            {tile.members.map((m) => (
              <li key={m.id}>
                <StatusBadge status={m.cardStatus} label={m.role ? t(`pages.room.${m.role}`) : undefined} />
              </li>
            ))}
          </ul>
        ) : null}
        <div className="ward-patient" data-testid="ward-patient">
          {tile.patient ?? <span className="muted">{t('bedside.free')}</span>}
        </div>
        {/* In the posture's place (nobody lies there to have one), fitted to one line like it; a
            Missing patient's tile says more already. */}
        {!offline && tile.hasClock && urgency !== 'missing' ? (
          <EmptyMatNote
            location={info?.location}
            unloadedForSeconds={tile.unloadedForSeconds}
            offloadSeconds={tile.offloadSeconds}
            readAtMs={tile.readAtMs}
            now={now}
            testId="ward-empty"
            className="ward-posture"
            styleFor={fits}
            compact
          />
        ) : null}
        {posture && !offline ? (
          <div className="ward-posture" data-testid="ward-posture" style={fits(posture.whole)} title={posture.full} aria-label={posture.full}>
            <PostureText line={posture} uncertainTestId="ward-posture-uncertain" />
          </div>
        ) : null}
        {tile.hasClock && !offline && urgency !== 'missing' ? (
          <span className={`tier-chip tier-${tile.tier ?? 'ok'}`} data-testid="ward-tier">
            {t(`pages.repositioning.tier.${tile.tier ?? 'ok'}`)}
          </span>
        ) : null}
        {!tile.alarm && attendance ? (
          <div className="ward-attended" data-testid="ward-attended">
            {attendance.by
              ? t('alarmBanner.attendedBy', { time: fmt.time(attendance.atMs), who: attendance.by })
              : t('alarmBanner.attendedAt', { time: fmt.time(attendance.atMs) })}
          </div>
        ) : null}
        {tile.alarm ? (
          <div className="ward-alarm" data-testid="ward-alarm">
            <span className="ward-alarm-kind">{t(`alarmBanner.kind.${alarmKind}`)}</span>
            <span className="ward-alarm-age" data-testid="ward-alarm-age">
              {t('alarmBanner.waiting', { time: fmt.duration(waited) })}
            </span>
            {alarmReason}
            {managerStatus ? <ManagerStatusText status={managerStatus} testId="ward-manager-status" /> : null}
            {readOnly ? null : (
              <button type="button" className="btn btn-attend" data-testid="ward-attend" onClick={attend} disabled={attending}>
                {t('pages.attend')}
              </button>
            )}
          </div>
        ) : null}
      </div>
      {/* Its own row under the text, so on the wall's short tiles it never covers the posture. */}
      {turnAction ? <div className="ward-tile-action">{turnAction}</div> : null}
    </article>
  );
}
