//! The seating dynamic result (spec §2, §4): the mean map, the peak pressure index and dispersion
//! index, and the plot panels read from the record's parameters (docs/analysis.md "Seating
//! dynamic"): seven panels, six without push-ups, at most 4 expanded at once, each closed panel
//! giving its figure over the capture on its head ("Contact area · mean 412 cm²"). A bed's dynamic
//! capture shows the same panels without the dispersion index or push-ups (the engine computes
//! neither lying down).

import { useStore } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { liesDown } from './analysisTypeLabel';
import { Chart, scatterData } from './Chart';
import type { Histogram } from './engineResult';
import { HistogramPanel } from './HistogramPanel';
import { INLINE } from '../../lib/messages';
import { ResultMap } from './ResultMap';
import { numberParameter, parameter, seriesParameter, type AnalysisRecord, type Grid } from './record';
import { seatingPanels, toggleExpanded, type SeatingPanel } from './seatingPanels';
import { formatPressure, formatPressureReading, stepsToDisplay, usePressureDisplay } from '../../lib/pressureUnits';
import { PressureBasis } from './PressureBasis';
import { useDeviceType } from '../../lib/deviceTypes';
import { formatNumber } from '../../lib/format';
import { showToast } from '../../lib/messages';

interface PushUp {
  startS: number;
  durationS: number;
}

/** x values (s) for a per-frame series spread over the analysis time. */
function timeAxis(count: number, seconds: number | null): number[] {
  const span = seconds && count > 1 ? seconds / (count - 1) : 1;
  return Array.from({ length: count }, (_, i) => i * span);
}

export function SeatingView({ record, grid, deviceType, fileDate }: { record: AnalysisRecord; grid: Grid | null; deviceType: string; fileDate: string }) {
  const { t, i18n } = useTranslation();
  const store = useStore();
  const pushUps = parameter(record, 'pushUps') as PushUp[] | undefined;
  const panels = seatingPanels(Array.isArray(pushUps) && pushUps.length > 0);
  const [expanded, setExpanded] = useState<SeatingPanel[]>([]);
  const seconds = numberParameter(record, 'analysisTime');
  const ppi = numberParameter(record, 'peakPressureIndex');
  // The PPI as its 10 cm window's mean pressure, cell steps (the hub's engine divides; the PDF
  // prints the same figure), shown in the user's unit.
  const ppiMean = numberParameter(record, 'peakPressureIndexMean');
  // None on a bed, whose body lies down with no ischial windows, even on a record stored with
  // one before the hub read beds lying (mat-core's `SeatingResult::dispersion_index_on`).
  const lying = liesDown(useDeviceType(deviceType)?.analysisFamily);
  const dispersion = lying ? null : numberParameter(record, 'dispersionIndex');
  const histogram = parameter(record, 'histogramHistoric') as Histogram | undefined;
  const n = (v: number) => formatNumber(v, i18n.language);
  const display = usePressureDisplay(deviceType);
  // The series in the user's unit; the charts' axis says which.
  const pressure = (values: number[]) => values.map((v) => (display ? stepsToDisplay(v, display) : v));

  const toggle = (panel: SeatingPanel) => {
    const outcome = toggleExpanded(expanded, panel);
    if (outcome.refused) showToast(store, 'seatingPlots.maxGraphics');
    setExpanded(outcome.expanded);
  };

  const lateralityValues = (parameter(record, 'lateralityHistoric') as Array<{ l: number; r: number }> | undefined) ?? [];
  /** A panel's figure over the capture, read on its head while it is closed ("mean 412 cm²"):
   * the panels are not blank boxes to open one by one. Null where a figure would say nothing. */
  const summaryOf = (panel: SeatingPanel): string | null => {
    const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);
    // A reduce, not Math.max(...values): a 24 h capture's series is longer than a call's arguments may be.
    const highest = (values: number[]) => values.reduce((a, b) => Math.max(a, b), -Infinity);
    const withUnit = (steps: number | null, reading = false) =>
      steps == null ? null : display ? (reading ? formatPressureReading(steps, display, i18n.language) : formatPressure(steps, display, i18n.language)) : n(steps);
    switch (panel) {
      case 'activePoints': {
        const m = mean(seriesParameter(record, 'activePoints'));
        return m == null ? null : t('analysis.seating.summary.mean', { value: formatNumber(m, i18n.language, 0) });
      }
      case 'contactArea': {
        const m = mean(seriesParameter(record, 'contactArea'));
        return m == null ? null : t('analysis.seating.summary.mean', { value: `${formatNumber(m, i18n.language, 0)}\u00a0cm²` });
      }
      case 'maxPressure': {
        const values = seriesParameter(record, 'maxPressureHistoric');
        return values.length ? t('analysis.seating.summary.highest', { value: withUnit(highest(values), true) }) : null;
      }
      case 'meanPressure': {
        const m = mean(seriesParameter(record, 'meanPressureHistoric'));
        return m == null ? null : t('analysis.seating.summary.mean', { value: withUnit(m) });
      }
      case 'laterality': {
        const l = mean(lateralityValues.map((v) => v.l));
        const r = mean(lateralityValues.map((v) => v.r));
        if (l == null || r == null) return null;
        const pct = (v: number) => `${formatNumber(v * 100, i18n.language, 0)}\u00a0%`;
        return `${t('analysis.seating.left')} ${pct(l)} · ${t('analysis.seating.right')} ${pct(r)}`;
      }
      case 'pushUps':
        return pushUps?.length ? n(pushUps.length) : null;
      case 'centerOfPressure': {
        // How far the centre of pressure moved: its range across and along, cm.
        const points = ((parameter(record, 'centerOfPressure') as Array<[number, number]> | undefined) ?? []).filter(Array.isArray);
        if (points.length < 2) return null;
        const range = (i: 0 | 1) => highest(points.map((p) => p[i])) + highest(points.map((p) => -p[i]));
        return t('analysis.seating.summary.range', { x: formatNumber(range(0), i18n.language, 1), y: formatNumber(range(1), i18n.language, 1) });
      }
    }
  };

  const noData = <p className="muted" data-testid="seating-no-data">{t('seatingPlots.noDataMessage')}</p>;
  const chartOf = (panel: SeatingPanel) => {
    const line = (name: string, values: number[], colour: string, yLabel?: string) =>
      values.length === 0 ? (
        noData
      ) : (
        <Chart
          testId={`seating-chart-${panel}`}
          title={t(`analysis.seating.${panel}`)}
          showTitle={false}
          xLabel={t('units.seconds')}
          yLabel={yLabel}
          series={[{ label: name, colour }]}
          data={[timeAxis(values.length, seconds), values]}
        />
      );
    switch (panel) {
      case 'activePoints':
        return line(t('analysis.seating.activePoints'), seriesParameter(record, 'activePoints'), '#2563eb');
      case 'contactArea':
        return line('cm²', seriesParameter(record, 'contactArea'), '#0f766e');
      case 'maxPressure':
        return line(t('analysis.seating.maxPressure'), pressure(seriesParameter(record, 'maxPressureHistoric')), '#dc2626', display?.unit);
      case 'meanPressure':
        return line(t('analysis.seating.meanPressure'), pressure(seriesParameter(record, 'meanPressureHistoric')), '#ea580c', display?.unit);
      case 'laterality': {
        const values = lateralityValues;
        if (values.length === 0) return noData;
        return (
          <Chart
            testId="seating-chart-laterality"
            title={t('analysis.seating.laterality')}
            showTitle={false}
            xLabel={t('units.seconds')}
            yLabel="%"
            series={[
              { label: t('analysis.seating.left'), colour: '#2563eb' },
              { label: t('analysis.seating.right'), colour: '#dc2626' },
            ]}
            data={[timeAxis(values.length, seconds), values.map((v) => v.l * 100), values.map((v) => v.r * 100)]}
          />
        );
      }
      case 'centerOfPressure': {
        const points = ((parameter(record, 'centerOfPressure') as Array<[number, number]> | undefined) ?? []).filter(Array.isArray);
        if (points.length === 0) return noData;
        return <Chart testId="seating-chart-centerOfPressure" title={t('analysis.seating.centerOfPressure')} showTitle={false} xLabel="cm" yLabel="cm" series={[{ label: 'CoP', colour: '#6d28d9', points: true }]} data={scatterData(points)} />;
      }
      case 'pushUps':
        return (
          <ul data-testid="seating-pushups">
            {(pushUps ?? []).map((p, i) => (
              <li key={i}>{t('analysis.seating.pushUpAt', { start: n(p.startS), duration: n(p.durationS) })}</li>
            ))}
          </ul>
        );
    }
  };

  // A record whose engine found nothing to compute (no indices, no series) says so (spec §8
  // dynamic.seatingError) instead of empty tiles and charts.
  const computed = ppi != null || dispersion != null || seriesParameter(record, 'activePoints').length > 0;
  return (
    <div className="result-seating" data-testid="result-seating">
      {computed ? null : (
        <p className="form-error" role="alert" data-testid="seating-error">
          {t(INLINE.dynamicSeatingError)}
        </p>
      )}
      <div className="result-row">
        {grid ? <ResultMap grid={grid} testId="seating-map" label={t('analysis.static.map')} display={display} /> : null}
        <div className="result-tiles">
          <div className="result-tile" title={t('analysisFamily.seating.ppiHint')}>
            <span>{t('analysis.seating.ppi')}</span>
            <strong data-testid="seating-ppi">{ppiMean != null && display ? formatPressure(ppiMean, display, i18n.language) : '—'}</strong>
          </div>
          {/* A bed's record has none: its windows are a seated person's ischial tuberosities. */}
          {dispersion != null ? (
            <div className="result-tile">
              <span>{t('analysis.seating.dispersion')}</span>
              <strong data-testid="seating-dispersion">{`${n(dispersion)} %`}</strong>
            </div>
          ) : null}
          <dl className="result-tile">
            <PressureBasis calibration={null} display={display} />
          </dl>
        </div>
      </div>
      <div className="seating-panels" data-testid="seating-panels">
        {panels.map((panel) => {
          const open = expanded.includes(panel);
          const summary = summaryOf(panel);
          return (
            <section key={panel} className="seating-panel" data-testid={`seating-panel-${panel}`} data-expanded={String(open)}>
              <button type="button" className="seating-panel-head" aria-expanded={open} onClick={() => toggle(panel)}>
                <span>{t(`analysis.seating.${panel}`)}</span>
                {summary ? (
                  <span className="seating-panel-summary" data-testid={`seating-summary-${panel}`}>
                    {summary}
                  </span>
                ) : null}
              </button>
              {open ? chartOf(panel) : null}
            </section>
          );
        })}
      </div>
      {histogram && Array.isArray(histogram.counts) ? <HistogramPanel histogram={histogram} fileDate={fileDate} display={display} /> : null}
    </div>
  );
}
