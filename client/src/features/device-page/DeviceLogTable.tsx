//! The device log table (spec §2): Date, Max Pressure, Position, Confidence and a heat-map preview;
//! sorted by date (newest first, toggled from the header), 10 a page, exported as a JSON file.

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getDeviceLogs, type DeviceLogEntry } from '../../lib/api';
import type { DeviceTypeInfo } from '../../lib/deviceTypes';
import { formatDateTime, formatNumber } from '../../lib/format';
import { atFullScale, formatPressureReading, stepsToDisplay, usePressureDisplay } from '../../lib/pressureUnits';
import { entrySeconds, positionKey, sortByDate } from './logTable';
import { MapPreview } from './MapPreview';
import { INLINE } from '../../lib/messages';
import { pressureBasisText } from '../../lib/pressureBasis';
import { PagedTable } from './PagedTable';
import { usePolling } from './usePolling';
import { downloadJson } from './download';

/** Logs refresh with the room-log cadence of spec §9 (3 s). */
export const LOG_REFRESH_MS = 3000;

export function DeviceLogTable({ deviceId, deviceName, info }: { deviceId: string; deviceName: string; info: DeviceTypeInfo }) {
  const { t, i18n } = useTranslation();
  const logs = usePolling(() => getDeviceLogs(deviceId), LOG_REFRESH_MS, `iotLogs/${deviceId}`);
  const [direction, setDirection] = useState<'asc' | 'desc'>('desc');
  const entries = sortByDate(logs.data ?? [], direction);
  const lng = i18n.resolvedLanguage ?? 'en';
  const display = usePressureDisplay(info.name);
  const basis = pressureBasisText(t, lng, display);

  const exportLog = () =>
    downloadJson(
      `device_log_${deviceName}`,
      entries.map((e: DeviceLogEntry) => ({
        ...e,
        positionLabel: t(positionKey(e, info.posture)),
        // maxPressure is in the device's cell steps; this is what the table showed.
        // `atFullScale`: the cell saturated, the pressure was this or more (the table's "≥").
        maxPressureShown: display
          ? { value: stepsToDisplay(e.maxPressure, display), unit: display.unit, scale: basis, atFullScale: atFullScale(e.maxPressure, display) }
          : null,
      })),
    );

  return (
    <section className="card log-panel" data-testid="device-log">
      <div className="panel-heading">
        <h2>{t('pages.log.title')}</h2>
        <button type="button" className="btn btn-ghost" onClick={exportLog} disabled={entries.length === 0} data-testid="log-export">
          {t('pages.log.export')}
        </button>
      </div>
      {basis ? (
        <p className="muted log-scale" data-testid="log-pressure-basis">
          {t('analysis.pressureBasis.label')}: {basis}
        </p>
      ) : null}
      <PagedTable
        polled={logs}
        items={entries}
        emptyKey={INLINE.deviceLogEmpty}
        head={
          <>
            <th aria-sort={direction === 'asc' ? 'ascending' : 'descending'}>
              <button type="button" className="sort-button" data-testid="sort-date" onClick={() => setDirection(direction === 'asc' ? 'desc' : 'asc')}>
                {t('pages.log.date')} <span aria-hidden="true">{direction === 'asc' ? '▲' : '▼'}</span>
              </button>
            </th>
            <th>{t('pages.log.maxPressure')}</th>
            <th>{t('pages.log.position')}</th>
            <th>{t('pages.log.confidence')}</th>
            <th>{t('pages.log.preview')}</th>
          </>
        }
        row={(e, i) => (
          <tr key={`${entrySeconds(e)}-${i}`} data-testid="log-row">
            <td>{formatDateTime(entrySeconds(e) * 1000, lng)}</td>
            <td data-testid="log-max-pressure">{display ? formatPressureReading(e.maxPressure, display, lng) : formatNumber(e.maxPressure, lng)}</td>
            <td data-testid="log-position">
              {t(positionKey(e, info.posture))}
              {info.posture && e.position && e.posture?.certain === false ? <span className="posture-uncertain"> · {t('pages.position.uncertain')}</span> : null}
            </td>
            <td>{info.posture && e.position ? `${formatNumber((e.posture?.confidence ?? 0) * 100, lng, 0)} %` : '—'}</td>
            <td>
              <MapPreview grid={e.pressureMap} label={t('pages.log.preview')} />
            </td>
          </tr>
        )}
      />
    </section>
  );
}
