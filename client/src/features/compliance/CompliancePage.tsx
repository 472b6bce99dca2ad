//! Turn compliance (issue 23, item 4) at /ward/compliance: for a date range, per unit and shift,
//! the share of turns on time, the time to attend alarms (mean and 90th percentile), alarms per
//! bed-day and minutes over the interval per patient — as charts (uPlot), a table, a CSV and the
//! hub's PDF with the company's branding. The figures are the hub's (`mat_core::compliance`);
//! this page only shows them.

import { useStore } from 'jotai';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { DateField } from '../../components/DateField';
import { TopBar } from '../../components/TopBar';
import { ApiError } from '../../lib/api';
import { formatFixed, useFormat } from '../../lib/format';
import { notify } from '../../lib/notifications';
import { saveBlob } from '../../lib/saveFile';
import { BarChart } from './BarChart';
import { downloadCompliancePdf, getCompliance, getShiftSettings, type ComplianceJson, type ComplianceRow, type ShiftSettingsJson } from './complianceApi';
import { CSV_COLUMNS, attendChartScale, attendTime, complianceCsv, isoDay, lastDays, rowsOf, unitsOf, type UnitOfRow } from './figures';
import { ShiftSettings } from './ShiftSettings';
import './compliance.css';

/** Days the page opens with (the week up to today). */
export const DEFAULT_RANGE_DAYS = 7;

const COLOURS = { onTime: '#2e8b57', mean: '#1f6fb2', p90: '#c8691c', alarms: '#b03a48', over: '#7a4fa3' };

export function CompliancePage() {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? i18n.language;
  const format = useFormat();
  const store = useStore();
  const [range, setRange] = useState(() => lastDays(DEFAULT_RANGE_DAYS));
  const [unit, setUnit] = useState<string | null>(null);
  const [data, setData] = useState<ComplianceJson | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [settings, setSettings] = useState<ShiftSettingsJson | null>(null);
  const [downloading, setDownloading] = useState(false);
  const rangeValid = range.from !== '' && range.to !== '' && range.from <= range.to;

  useEffect(() => {
    getShiftSettings()
      .then(setSettings)
      .catch((err) => console.error('shift settings failed', err));
  }, []);

  useEffect(() => {
    if (!rangeValid) return;
    let cancelled = false;
    setError(null);
    getCompliance(range.from, range.to)
      .then((answer) => {
        if (!cancelled) setData(answer);
      })
      .catch((err) => {
        if (cancelled) return;
        setData(null);
        setError(err instanceof ApiError && ['invalidRange', 'invalidDate'].includes(err.code) ? err.code : 'compliance.loadFailed');
      });
    return () => {
      cancelled = true;
    };
    // The figures depend on the shifts too: read again after an administrator changes them.
  }, [range.from, range.to, rangeValid, settings]);

  // The hub sends each row's building and floor; the PDF labels them with the same words.
  const unitName = (u: UnitOfRow) => (u.unit === '' ? t('compliance.noUnit') : t('ward.unitLabel', { building: u.building || '—', floor: u.floor || '—' }));
  const units = useMemo(() => unitsOf(data?.rows ?? []), [data]);
  const rows = useMemo(() => rowsOf(data?.rows ?? [], unit), [data, unit]);
  const several = new Set(rows.map((r) => r.unit)).size > 1;
  const labels = rows.map((r) => (several ? `${unitName(r)} ${r.shiftLabel}` : r.shiftLabel));
  const min = t('compliance.minutesUnit');
  // The time to attend in seconds while every one is short, else in minutes.
  const attendScale = attendChartScale(rows);
  const attend = (seconds: number | null | undefined) => (seconds == null ? null : seconds / attendScale.divisor);

  const downloadCsv = () => {
    const csv = complianceCsv(rows, CSV_COLUMNS.map((k) => t(k)), unitName);
    saveBlob(new Blob(['\ufeff', csv], { type: 'text/csv;charset=utf-8' }), `turn-compliance_${range.from}_${range.to}.csv`);
  };
  const downloadPdf = async () => {
    setDownloading(true);
    try {
      const { blob, fileName } = await downloadCompliancePdf(range.from, range.to, lng);
      saveBlob(blob, fileName);
    } catch (err) {
      console.error('compliance PDF failed', err);
      notify(store, { kind: 'error', key: 'compliance.pdfFailed' }, 3000);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div className="page compliance-page">
      <TopBar>
        <Link className="btn btn-ghost" to="/ward" data-testid="compliance-ward-link">
          {t('ward.title')}
        </Link>
      </TopBar>
      <main className="compliance-content">
        <h1>{t('compliance.title')}</h1>
        <ShiftSettings settings={settings} onSaved={setSettings} />
        <form className="compliance-controls" onSubmit={(e) => e.preventDefault()}>
          <div className="compliance-control">
            <span id="compliance-from-label">{t('compliance.from')}</span>
            <DateField id="compliance-from" name="from" value={range.from} max={isoDay(new Date())} invalid={!rangeValid} onChange={(from) => setRange((r) => ({ ...r, from }))} />
          </div>
          <div className="compliance-control">
            <span id="compliance-to-label">{t('compliance.to')}</span>
            <DateField id="compliance-to" name="to" value={range.to} max={isoDay(new Date())} invalid={!rangeValid} onChange={(to) => setRange((r) => ({ ...r, to }))} />
          </div>
          <label className="compliance-control">
            {t('compliance.unit')}
            <select value={unit ?? ''} data-testid="compliance-unit" onChange={(e) => setUnit(e.target.value === '' ? null : e.target.value.slice(1))}>
              <option value="">{t('ward.allUnits')}</option>
              {units.map((u) => (
                // A leading '=' keeps the unit '' (no building, no floor) apart from "all units".
                <option key={u.unit} value={`=${u.unit}`}>
                  {unitName(u)}
                </option>
              ))}
            </select>
          </label>
          <div className="compliance-downloads">
            <button type="button" className="btn" disabled={!data} onClick={downloadCsv} data-testid="compliance-csv">
              {t('compliance.downloadCsv')}
            </button>
            <button type="button" className="btn" disabled={!data || downloading} onClick={() => void downloadPdf()} data-testid="compliance-pdf">
              {t('compliance.downloadPdf')}
            </button>
          </div>
        </form>
        {!rangeValid ? (
          <p className="compliance-warning" role="alert">
            {t('compliance.rangeInvalid')}
          </p>
        ) : null}
        {error ? (
          <p className="compliance-warning" role="alert" data-testid="compliance-error">
            {t(error)}
          </p>
        ) : null}
        {data && rows.length === 0 ? <p className="devices-empty">{t('compliance.noBeds')}</p> : null}
        {data && rows.length > 0 ? (
          <>
            <p className="compliance-period" data-testid="compliance-period">
              {t('compliance.period', { from: format.date(new Date(`${data.from}T12:00:00`)), to: format.date(new Date(`${data.to}T12:00:00`)), zone: data.timeZone })}
            </p>
            <div className="compliance-charts">
              <BarChart testId="chart-on-time" title={t('compliance.onTimeShare')} labels={labels} unit="%" yMax={100} series={[{ label: t('compliance.onTime'), color: COLOURS.onTime, values: rows.map((r) => (r.onTimeShare == null ? null : r.onTimeShare * 100)) }]} />
              <BarChart
                testId="chart-attend"
                title={t('compliance.timeToAttend')}
                labels={labels}
                unit={attendScale.unit === 'seconds' ? t('units.seconds') : min}
                series={[
                  { label: t('compliance.mean'), color: COLOURS.mean, values: rows.map((r) => attend(r.attendMeanSeconds)) },
                  { label: t('compliance.p90'), color: COLOURS.p90, values: rows.map((r) => attend(r.attendP90Seconds)) },
                ]}
              />
              <BarChart testId="chart-alarms" title={t('compliance.alarmsPerBedDay')} labels={labels} unit={t('compliance.perBedDay')} series={[{ label: t('compliance.alarms'), color: COLOURS.alarms, values: rows.map((r) => r.alarmsPerBedDay ?? null) }]} />
              <BarChart testId="chart-over" title={t('compliance.minutesOver')} labels={labels} unit={min} series={[{ label: t('compliance.perPatient'), color: COLOURS.over, values: rows.map((r) => r.minutesOverPerPatient ?? null) }]} />
            </div>
            <ComplianceTable rows={rows} unitName={unitName} />
            <p className="compliance-note">{t('compliance.note')}</p>
          </>
        ) : null}
      </main>
    </div>
  );
}

function ComplianceTable({ rows, unitName }: { rows: ComplianceRow[]; unitName: (unit: UnitOfRow) => string }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? i18n.language;
  const format = useFormat();
  const dash = '—';
  const units = { minutes: t('compliance.minutesUnit'), seconds: t('units.seconds') };
  const duration = (s: number | null | undefined) => (s == null ? dash : attendTime(s, units, (n) => format.number(n, 0)));
  return (
    <div className="compliance-table-wrap">
      <table className="compliance-table" data-testid="compliance-table">
        <thead>
          <tr>
            <th scope="col">{t('compliance.unit')}</th>
            <th scope="col">{t('compliance.shift')}</th>
            <th scope="col">{t('compliance.beds')}</th>
            <th scope="col">{t('compliance.turns')}</th>
            <th scope="col">{t('compliance.onTime')}</th>
            <th scope="col">{t('compliance.attendMean')}</th>
            <th scope="col">{t('compliance.attendP90')}</th>
            <th scope="col">{t('compliance.alarms')}</th>
            <th scope="col">{t('compliance.alarmsPerBedDay')}</th>
            <th scope="col">{t('compliance.minutesOver')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.unit}|${r.shift}`} data-testid="compliance-row">
              <th scope="row">{unitName(r)}</th>
              <td>{r.shiftLabel}</td>
              <td>{r.beds}</td>
              <td>{r.turns}</td>
              <td data-testid="cell-on-time">{r.onTimeShare == null ? dash : `${format.percent(r.onTimeShare)} (${r.turnsOnTime}/${r.turns})`}</td>
              <td data-testid="cell-attend-mean">{duration(r.attendMeanSeconds)}</td>
              <td data-testid="cell-attend-p90">{duration(r.attendP90Seconds)}</td>
              <td>
                {r.alarms}
                {r.alarms > r.alarmsAttended ? <span className="compliance-unattended"> {t('compliance.unattended', { count: r.alarms - r.alarmsAttended })}</span> : null}
              </td>
              <td data-testid="cell-per-bed-day">{r.alarmsPerBedDay == null ? dash : formatFixed(r.alarmsPerBedDay, lng, 2)}</td>
              <td data-testid="cell-over">{r.minutesOverPerPatient == null ? dash : `${format.number(r.minutesOverPerPatient, 0)} ${t('compliance.minutesUnit')}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
