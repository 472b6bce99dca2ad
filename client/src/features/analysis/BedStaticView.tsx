//! A bed's static result (issue 21): the map, each body region's peak and mean pressure (mmHg)
//! and contact area head to heels, the region bearing the peak, the profile along the bed, the
//! height, weight, BMI and contact-area tiles, and the histogram. Never feet.

import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../lib/format';
import { formatMmhg, formatMmhgReading, pressureScaleAtom, usePressureDisplay } from '../../lib/pressureUnits';
import { PressureBasis } from './PressureBasis';
import type { BedStaticResult } from './engineResult';
import { HistogramPanel } from './HistogramPanel';
import { MattressPanel } from './MattressPanel';
import { ResultMap } from './ResultMap';
import type { Grid } from './record';
import { usePreviewView, ViewToggles } from './ViewToggles';

export interface BedStaticViewProps {
  grid: Grid;
  result: BedStaticResult;
  /** The type of the device the record was captured on (its pressure scale). */
  deviceType: string;
  showHistogram: boolean;
  fileDate: string;
}

export function BedStaticView({ grid, result, deviceType, showHistogram, fileDate }: BedStaticViewProps) {
  const { t, i18n } = useTranslation();
  const scale = useAtomValue(pressureScaleAtom);
  const display = usePressureDisplay(deviceType);
  const n = (v: number, d = 1) => formatNumber(v, i18n.language, d);
  const mmhg = (v: number) => formatMmhg(v, display, scale, i18n.language);
  // The highest cell's figures (the maximum, a region's peak on it): "≥" where that cell saturated.
  const reading = (v: number) => formatMmhgReading(v, result.maxPressureMmhg, result.maxAtFullScale === true, display, scale, i18n.language);
  const [view, changeView] = usePreviewView();
  return (
    <div className="result-static" data-testid="result-bed-static">
      <ViewToggles view={view} onChange={changeView} />
      <div className="result-row">
        <ResultMap grid={grid} view={view} testId="static-map" label={t('analysis.static.map')} display={display} />
        <div className="result-panels">
          <section className="result-tile-group" data-testid="bed-regions">
            <h4>{t('analysisFamily.bed.regions')}</h4>
            {result.regions.length === 0 ? (
              <p className="muted">{t('analysisFamily.bed.noBody')}</p>
            ) : (
              <table className="result-table">
                <thead>
                  <tr>
                    <th />
                    <th>{t('analysisFamily.bed.peak')}</th>
                    <th>{t('analysisFamily.bed.mean')}</th>
                    <th>{t('analysisFamily.bed.contact')}</th>
                  </tr>
                </thead>
                <tbody>
                  {result.regions.map((r) => (
                    <tr key={r.region} data-testid={`bed-region-${r.region}`} className={r.region === result.peakRegion ? 'result-peak-row' : undefined}>
                      <th>{t(`analysisFamily.bed.region.${r.region}`)}</th>
                      <td>{reading(r.peakMmhg)}</td>
                      <td>{mmhg(r.meanMmhg)}</td>
                      <td>{n(r.contactAreaCm2, 0)} cm²</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {result.peakRegion ? (
              <p data-testid="bed-peak-region">
                {t('analysisFamily.bed.peakIn', { region: t(`analysisFamily.bed.region.${result.peakRegion}`), value: reading(result.maxPressureMmhg) })}
              </p>
            ) : null}
            <dl className="result-dl">
              <PressureBasis calibration={null} display={display} />
            </dl>
          </section>
        </div>
      </div>
      <MattressPanel mattress={result.mattress} />
      {showHistogram ? <HistogramPanel histogram={result.histogram} fileDate={fileDate} display={display} /> : null}
    </div>
  );
}
