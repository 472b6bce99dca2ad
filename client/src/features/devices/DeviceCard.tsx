//! One device card: company, bed or device label, ID (the device name) and status with its colour
//! (spec §2); the left and right status of a horse; the repositioning tier where the type runs the
//! clock; and, while an alarm waits (`unattendedAlarm`), an orange card with an Attend button
//! (spec §4); once attended, who attended it and when (issue 23); what the hospital's alarm
//! manager reported of its latest alarm (IHE PCD-05: accepted by a named nurse…); beds, seats and room sets name
//! the patient assigned to them (issue 22). Everything about the type comes from the hub's
//! device-type table.

import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import type { UserDevice } from '../../lib/api';
import { useTranslation } from 'react-i18next';
import { locationLabelKey } from '../../components/DeviceSettingsFields';
import { ManagerStatusText } from '../../components/ManagerStatusText';
import { StatusBadge } from '../../components/StatusBadge';
import { companyVariantsAtom, showsCompanyOnCards } from '../../lib/companyVariants';
import { useDeviceType } from '../../lib/deviceTypes';
import { deviceViewFamily } from '../../lib/devicesStore';
import { useFormat } from '../../lib/format';
import { attendanceFamily, managerStatusFamily, pendingAlarmsAtom } from '../../lib/pendingAlarms';
import { AlarmReasonText } from '../turns';
import { STATUS_COLORS, statusColor } from '../../lib/status';
import { useDeviceActions } from '../../lib/useDeviceActions';

/** `actions`: what the app adds to the card for its device (the edit and info buttons). */
export function DeviceCard({ deviceId, company, actions }: { deviceId: string; company: string; actions?: (device: UserDevice) => ReactNode }) {
  const { t } = useTranslation();
  const view = useAtomValue(deviceViewFamily(deviceId));
  const info = useDeviceType(view.deviceType);
  const attendance = useAtomValue(attendanceFamily(deviceId));
  const ulcerReason = useAtomValue(pendingAlarmsAtom).find((a) => a.deviceId === deviceId && a.kind === 'Ulcer Risk')?.reason;
  const managerStatus = useAtomValue(managerStatusFamily(deviceId));
  const fmt = useFormat();
  const typeLabel = t(`deviceTypes.${view.deviceType}`, { defaultValue: view.deviceType });
  const showBed = info?.cardShowsBed ?? true;
  const alarm = view.unattendedAlarm;
  // Company variant (spec §2): 'Sit' labels the bed line and the company line is hidden.
  const variants = useAtomValue(companyVariantsAtom);
  const showCompany = company !== '' && showsCompanyOnCards(variants);

  const { open, onKeyDown, attend, attending } = useDeviceActions(deviceId, typeLabel);

  // A focusable element with role=button rather than <button>, whose content model would not
  // allow the card's block content (and its own Attend button).
  return (
    <div
      role="button"
      tabIndex={0}
      className={`device-card${alarm ? ' device-card-alarm' : ''}`}
      data-testid="device-card"
      data-device-id={view.id}
      data-device-type={view.deviceType}
      data-status={view.cardStatus}
      data-alarm={alarm}
      data-repositioning={info?.repositioningClock ? view.repositioning : undefined}
      style={{ ['--status-color' as string]: alarm ? STATUS_COLORS.Alarm : statusColor(view.cardStatus) }}
      onClick={open}
      onKeyDown={onKeyDown}
    >
      <span className="device-card-type">{typeLabel}</span>
      {showBed ? (
        <div className="device-card-bed">
          <span className="device-card-bed-label" data-testid="card-location-label">
            {variants.seatingLabels ? t('variants.sit') : t(locationLabelKey(info?.location))}
          </span>
          <span data-testid="card-bed">{view.bed || '—'}</span>
        </div>
      ) : null}
      <dl>
        {showCompany ? (
          <>
            <dt>{t('devices.company')}</dt>
            <dd title={company}>{company}</dd>
          </>
        ) : null}
        <dt>{t('devices.id')}</dt>
        <dd title={view.name}>{view.name}</dd>
        {info?.bedsidePatient ? (
          <>
            <dt>{t('bedside.cardLabel')}</dt>
            <dd data-testid="card-patient" title={view.device?.currentPatientName ?? ''}>
              {view.device?.currentPatientName || t('bedside.free')}
            </dd>
          </>
        ) : null}
      </dl>
      <div className="device-card-status">
        <StatusBadge status={view.cardStatus} />
        {info?.pageFamily === 'horse' && view.sides?.length
          ? view.sides.map((s) => <StatusBadge key={s.side} status={s.cardStatus} label={t(`device.side.${s.side}`)} />)
          : null}
      </div>
      {info?.repositioningClock ? (
        <div className={`tier-chip tier-${view.repositioning}`} data-testid="card-repositioning">
          {t(`pages.repositioning.tier.${view.repositioning}`)}
        </div>
      ) : null}
      {alarm && ulcerReason ? <AlarmReasonText reason={ulcerReason} className="device-card-reason" /> : null}
      {!alarm && attendance ? (
        <div className="device-card-attended" data-testid="card-attended">
          {attendance.by
            ? t('alarmBanner.attendedBy', { time: fmt.dateTime(attendance.atMs), who: attendance.by })
            : t('alarmBanner.attendedAt', { time: fmt.dateTime(attendance.atMs) })}
        </div>
      ) : null}
      {managerStatus ? (
        <div className="device-card-manager-status">
          <ManagerStatusText status={managerStatus} testId="card-manager-status" />
        </div>
      ) : null}
      {alarm ? (
        <button type="button" className="btn btn-attend" data-testid="attend" onClick={attend} disabled={attending}>
          {t('pages.attend')}
        </button>
      ) : null}
      {view.device && actions ? actions(view.device) : null}
    </div>
  );
}
