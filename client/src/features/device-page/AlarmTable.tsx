//! The alarm history of a device and its sub-devices (GET /api/iotAlarms/{id}, refreshed every 3 s):
//! which sensor, the kind, when it was raised, whether and when it was attended, and the time to
//! attend in days, hours, minutes and seconds, and what the hospital's alarm manager reported of it
//! (IHE PCD-05: delivered, accepted by a named nurse…). Pending alarms can be attended from here.

import { useAtomValue, useStore } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ManagerStatusText } from '../../components/ManagerStatusText';
import { attendDevice } from '../../lib/alarms';
import { getAlarms } from '../../lib/api';
import { deviceViewFamily } from '../../lib/devicesStore';
import { formatDateTime, formatDuration } from '../../lib/format';
import { reasonOf } from '../../lib/pendingAlarms';
import { AlarmReasonText } from '../turns';
import { PagedTable } from './PagedTable';
import { usePolling } from './usePolling';

export const ALARM_REFRESH_MS = 3000;

function MemberName({ id }: { id: string }) {
  const view = useAtomValue(deviceViewFamily(id));
  return <>{view.name || id}</>;
}

export function AlarmTable({ deviceId, kindLabel }: { deviceId: string; kindLabel: string }) {
  const { t, i18n } = useTranslation();
  const store = useStore();
  const alarms = usePolling(() => getAlarms(deviceId), ALARM_REFRESH_MS, `iotAlarms/${deviceId}`);
  const view = useAtomValue(deviceViewFamily(deviceId));
  const [busy, setBusy] = useState(false);
  const list = alarms.data ?? [];
  const pending = list.some((a) => !a.hasBeenAttended) || view.unattendedAlarm;
  const lng = i18n.resolvedLanguage ?? 'en';

  const attend = async () => {
    setBusy(true);
    await attendDevice(store, deviceId, kindLabel);
    setBusy(false);
    alarms.refresh();
  };

  return (
    <section className="card log-panel" data-testid="alarm-history">
      <div className="panel-heading">
        <h2>{t('pages.alarms.title')}</h2>
        {pending ? (
          <button type="button" className="btn btn-attend" onClick={attend} disabled={busy} data-testid="page-attend">
            {t('pages.attend')}
          </button>
        ) : null}
      </div>
      <PagedTable
        polled={alarms}
        items={list}
        emptyKey="pages.alarms.empty"
        head={
          <>
            <th>{t('pages.alarms.device')}</th>
            <th>{t('pages.alarms.kind')}</th>
            <th>{t('pages.alarms.raised')}</th>
            <th>{t('pages.alarms.attended')}</th>
            <th>{t('pages.alarms.timeToAttend')}</th>
            <th>{t('alarmManager.historyColumn')}</th>
          </>
        }
        row={(a) => (
          <tr key={a._id.$oid} data-testid="alarm-row" data-attended={a.hasBeenAttended}>
            <td>
              <MemberName id={a.deviceId} />
            </td>
            <td>
              {t(`pages.alarms.kinds.${a.kind}`, { defaultValue: a.kind })}
              <AlarmReasonText reason={reasonOf(a.reason)} />
            </td>
            <td>{formatDateTime(a.creationDate * 1000, lng)}</td>
            <td>
              {a.hasBeenAttended && a.attendedTime != null ? (
                formatDateTime(a.attendedTime * 1000, lng)
              ) : (
                <span className="pending-label">{t('pages.alarms.pending')}</span>
              )}
            </td>
            <td data-testid="time-to-attend">{a.timeToAttend != null ? formatDuration(a.timeToAttend, lng) : '—'}</td>
            <td data-testid="alarm-manager-statuses">
              {a.managerStatuses.length
                ? a.managerStatuses.map((s, i) => (
                    <div key={i}>
                      <ManagerStatusText status={s} />
                    </div>
                  ))
                : '—'}
            </td>
          </tr>
        )}
      />
    </section>
  );
}
