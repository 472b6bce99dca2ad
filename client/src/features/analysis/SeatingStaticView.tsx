//! A seat's or a saddle's static result (issue 21): the map with the centre of pressure and both
//! ischial peaks, the left/right and front/back loads, the peak pressure index, the dispersion
//! index, the contact area, the peak and mean pressures (mmHg), and the histogram. Never feet.

import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { companyVariantsAtom } from '../../lib/companyVariants';
import { formatNumber } from '../../lib/format';
import { formatMmhg, formatMmhgReading, pressureScaleAtom, useResultPressureDisplay } from '../../lib/pressureUnits';
import { PressureBasis } from './PressureBasis';
import type { SeatingStaticResult } from './engineResult';
import { HistogramPanel } from './HistogramPanel';
import { ResultMap, type MapMarker } from './ResultMap';
import type { Grid } from './record';
import { usePreviewView, ViewToggles } from './ViewToggles';

export interface SeatingStaticViewProps {
  grid: Grid;
  result: SeatingStaticResult;
  /** The type of the device the record was captured on (its pressure scale). */
  deviceType: string;
  /** The device's cell pitch, cm: the markers' cm positions back to cells. */
  cellCm: number;
  showHistogram: boolean;
  fileDate: string;
}

export function SeatingStaticView({ grid, result, deviceType, cellCm, showHistogram, fileDate }: SeatingStaticViewProps) {
  const { t, i18n } = useTranslation();
  const variants = useAtomValue(companyVariantsAtom);
  const scale = useAtomValue(pressureScaleAtom);
  const display = useResultPressureDisplay(deviceType, result.pressureCalibration);
  const n = (v: number, d = 1) => formatNumber(v, i18n.language, d);
  const [view, changeView] = usePreviewView();
  const cell = (cm: number) => cm / cellCm - 0.5;
  const markers: MapMarker[] = [];
  if (result.centerOfPressureCm && !variants.hideCentreOfPressure) {
    markers.push({ id: 'cop', x: cell(result.centerOfPressureCm[0]), y: cell(result.centerOfPressureCm[1]), kind: 'cop', label: t('analysisFamily.seating.cop') });
  }
  for (const [id, peak] of [['leftIschial', result.leftIschial], ['rightIschial', result.rightIschial]] as const) {
    if (peak) markers.push({ id, x: cell(peak.positionCm[0]), y: cell(peak.positionCm[1]), kind: 'max', label: t(`analysisFamily.seating.${id}`) });
  }
  const mmhg = (v: number) => formatMmhg(v, display, scale, i18n.language);
  // The highest cell's figures (the maximum, an ischial peak on it): "≥" where that cell saturated.
  const reading = (v: number) => formatMmhgReading(v, result.maxPressureMmhg, result.maxAtFullScale === true, display, scale, i18n.language);
  return (
    <div className="result-static" data-testid="result-seating-static">
      <ViewToggles view={view} onChange={changeView} />
      <div className="result-row">
        <ResultMap grid={grid} view={view} testId="static-map" label={t('analysis.static.map')} markers={markers} display={display} />
        <div className="result-panels">
          <section className="result-tile-group" data-testid="seating-loads">
            <h4>{t('analysisFamily.seating.loads')}</h4>
            <dl className="result-dl">
              <dt>{t('analysisFamily.seating.leftRight')}</dt>
              <dd data-testid="seating-left-right">
                {n(result.leftLoadPercent)} % / {n(result.rightLoadPercent)} %
              </dd>
              <dt>{t('analysisFamily.seating.frontBack')}</dt>
              <dd data-testid="seating-front-back">
                {n(result.frontLoadPercent)} % / {n(result.backLoadPercent)} %
              </dd>
              <dt>{t('analysisFamily.seating.contactArea')}</dt>
              <dd data-testid="seating-contact">{n(result.contactAreaCm2, 0)} cm²</dd>
            </dl>
          </section>
          <section className="result-tile-group" data-testid="seating-ischial">
            <h4>{t('analysisFamily.seating.ischialRegion')}</h4>
            <dl className="result-dl">
              <dt title={t('analysisFamily.seating.ppiHint')}>{t('analysisFamily.seating.ppi')}</dt>
              <dd data-testid="seating-ppi">{mmhg(result.peakPressureIndexMmhg)}</dd>
              <dt title={t('analysisFamily.seating.dispersionHint')}>{t('analysisFamily.seating.dispersion')}</dt>
              <dd data-testid="seating-dispersion">{n(result.dispersionIndex)} %</dd>
              <dt>{t('analysisFamily.seating.leftIschial')}</dt>
              <dd data-testid="seating-left-ischial">{result.leftIschial ? reading(result.leftIschial.peakMmhg) : '—'}</dd>
              <dt>{t('analysisFamily.seating.rightIschial')}</dt>
              <dd data-testid="seating-right-ischial">{result.rightIschial ? reading(result.rightIschial.peakMmhg) : '—'}</dd>
              <dt>{t('analysis.static.maxPressure')}</dt>
              <dd data-testid="seating-max">{reading(result.maxPressureMmhg)}</dd>
              <dt>{t('analysis.static.avgPressure')}</dt>
              <dd>{mmhg(result.meanPressureMmhg)}</dd>
              <PressureBasis calibration={result.pressureCalibration} display={display} />
            </dl>
          </section>
        </div>
      </div>
      {showHistogram ? <HistogramPanel histogram={result.histogram} fileDate={fileDate} display={display} /> : null}
    </div>
  );
}
