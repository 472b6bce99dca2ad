//! The static result (spec §2): heat map / contour and 2D / 3D toggles, the map with centre-of-pressure and pressure-maximum markers, the
//! left and right foot panels (front, back, global), the global panel, the foot-print edge warning,
//! the 8-bin histogram with its download on seating, horse and mattress devices, and the mattress
//! extras. Figures come from the engine's stored result; without it only the map is shown.

import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { companyVariantsAtom } from '../../lib/companyVariants';
import type { StaticResult } from './engineResult';
import { HistogramPanel } from './HistogramPanel';
import { MattressPanel } from './MattressPanel';
import { ResultMap, type MapMarker } from './ResultMap';
import { usePreviewView, ViewToggles } from './ViewToggles';
import type { Grid } from './record';
import { formatNumber } from '../../lib/format';
import { formatPressure, formatPressureReading, useResultPressureDisplay } from '../../lib/pressureUnits';
import { PressureBasis } from './PressureBasis';

export interface StaticViewProps {
  grid: Grid;
  result: StaticResult | null;
  /** The type of the device the record was captured on (its pressure scale and cell pitch). */
  deviceType: string;
  /** The device's cell pitch, cm: centres of pressure in cm. */
  cellCm: number | null;
  /** Seating, horse and mattress devices show the histogram and its download. */
  showHistogram: boolean;
  fileDate: string;
}

function markersOf(result: StaticResult, hideGlobalCop: boolean, t: (k: string) => string): MapMarker[] {
  const out: MapMarker[] = [];
  const cop = (id: string, p: [number, number] | null, label: string) => p && out.push({ id, x: p[0], y: p[1], kind: 'cop', label });
  const max = (id: string, p: [number, number, number] | null, label: string) => p && out.push({ id, x: p[0], y: p[1], kind: 'max', label });
  cop('leftCop', result.LeftCenterOfPressure, t('analysis.static.leftCop'));
  cop('rightCop', result.RightCenterOfPressure, t('analysis.static.rightCop'));
  if (!hideGlobalCop) cop('globalCop', result.GlobalCenterOfPressure, t('analysis.static.globalCop'));
  max('globalMax', result.GlobalPressureMaximum, t('analysis.static.pressureMaximum'));
  return out;
}

export function StaticView({ grid, result, deviceType, cellCm, showHistogram, fileDate }: StaticViewProps) {
  const { t, i18n } = useTranslation();
  const variants = useAtomValue(companyVariantsAtom);
  const display = useResultPressureDisplay(deviceType, result?.pressureCalibration);
  const n = (v: number) => formatNumber(v, i18n.language);
  const p = (v: number) => (display ? formatPressure(v, display, i18n.language) : '—');
  // The highest cell: "≥" at the sensor's full scale.
  const reading = (v: number) => (display ? formatPressureReading(v, display, i18n.language) : '—');
  // Cells → cm from the map's origin (top left), the reports' convention.
  const cm = (cells: number) => (cellCm ? `${formatNumber(cells * cellCm, i18n.language, 1)} cm` : '—');
  const [view, changeView] = usePreviewView();
  return (
    <div className="result-static" data-testid="result-static">
      {result?.footprintEdgeWarning ? (
        <div className="form-error" role="alert" data-testid="edge-warning">
          {t('analysis.static.edgeWarning')}
        </div>
      ) : null}
      <ViewToggles view={view} onChange={changeView} />
      <div className="result-row">
        <ResultMap
          grid={grid}
          view={view}
          testId="static-map"
          label={t('analysis.static.map')}
          markers={result ? markersOf(result, variants.hideCentreOfPressure, t) : []}
          display={display}
        />
        {result ? (
          <div className="result-panels">
            {(['Left', 'Right'] as const).map((side) => (
              <section key={side} className="result-tile-group" data-testid={`foot-${side.toLowerCase()}`}>
                <h4>{t(`analysis.static.${side.toLowerCase()}Foot`)}</h4>
                <table className="result-table">
                  <thead>
                    <tr>
                      <th />
                      <th>{t('analysis.static.distribution')}</th>
                      <th>{t('analysis.static.surface')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {(['Front', 'Back', 'Global'] as const).map((part) => (
                      <tr key={part}>
                        <th>{t(`analysis.static.${part.toLowerCase()}`)}</th>
                        <td>{n(result[`${side}${part}PressureDistribution`])} %</td>
                        <td>{n(result[`${side}${part}Surface`])} cm²</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
            ))}
            <section className="result-tile-group" data-testid="global-panel">
              <h4>{t('analysis.static.global')}</h4>
              <dl className="result-dl">
                <dt>{t('analysis.static.activePoints')}</dt>
                <dd>{result.activePointsTotal}</dd>
                <dt>{t('analysis.static.avgPressure')}</dt>
                <dd>{p(result.avgPressure)}</dd>
                <dt>{t('analysis.static.maxPressure')}</dt>
                <dd data-testid="static-max-pressure">{reading(result.maxPressure)}</dd>
                <dt>{t('analysis.static.medianPressure')}</dt>
                <dd>{p(result.medianPressure)}</dd>
                <dt>{t('analysis.static.leftRight')}</dt>
                <dd>
                  {n(result.leftPercentage)} % / {n(result.rightPercentage)} %
                </dd>
                {!variants.hideCentreOfPressure && result.GlobalCenterOfPressure ? (
                  <>
                    <dt>{t('analysis.static.globalCop')}</dt>
                    <dd data-testid="global-cop-value">
                      x {cm(result.GlobalCenterOfPressure[0])} · y {cm(result.GlobalCenterOfPressure[1])}
                    </dd>
                  </>
                ) : null}
                <PressureBasis calibration={result.pressureCalibration} display={display} />
              </dl>
            </section>
          </div>
        ) : (
          <p className="muted" data-testid="figures-unavailable">
            {t('analysis.figuresUnavailable')}
          </p>
        )}
      </div>
      {result && showHistogram ? <HistogramPanel histogram={result.histogram} fileDate={fileDate} display={display} /> : null}
      {result?.mattress ? <MattressPanel mattress={result.mattress} /> : null}
    </div>
  );
}
