//! One open result preview: a closable panel showing the stored record with the view of its kind.

import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { oidOf } from '../../lib/api';
import { useAnalysisTypeKey, useRecordDeviceType } from './analysisTypeLabel';
import { BalanceView } from './BalanceView';
import { BodyCentreView } from './BodyCentreView';
import { isoDate, displayDateTime } from './dates';
import { BedStaticView } from './BedStaticView';
import { DynamicPlayer } from './DynamicPlayer';
import { engineResult, resultOf } from './engineResult';
import { useDeviceType } from '../../lib/deviceTypes';
import { usePressureDisplay } from '../../lib/pressureUnits';
import type { MapRendererFactory } from './ResultMap';
import { ResultMap } from './ResultMap';
import { creationSeconds, meanGrid, previewFrames, type AnalysisRecord, type Grid } from './record';
import { SeatingStaticView } from './SeatingStaticView';
import { SeatingView } from './SeatingView';
import { StaticView } from './StaticView';

export interface ResultPreviewProps {
  record: AnalysisRecord;
  /** The page's device type: the record is drawn by its own device's type when the company
   * still has that device, by this one otherwise. */
  deviceType: string;
  onClose: () => void;
  createRenderer?: MapRendererFactory;
}

function ResultBody({ record, frames, deviceType, createRenderer }: Omit<ResultPreviewProps, 'onClose'> & { frames: Grid[] }) {
  const { t } = useTranslation();
  const info = useDeviceType(deviceType);
  const showHistogram = info?.staticHistogram ?? false;
  const display = usePressureDisplay(deviceType);
  const grid = useMemo(() => meanGrid(frames), [frames]);
  const fileDate = isoDate(creationSeconds(record));
  switch (record.analysisType) {
    case 'Static': {
      if (!grid) return null;
      const figures = engineResult(record);
      if (figures?.analysisType === 'seatingStatic') {
        return <SeatingStaticView grid={grid} result={figures.result} deviceType={deviceType} cellCm={info?.cellPitchCm ?? info?.cellSizeCm ?? 2} showHistogram={showHistogram} fileDate={fileDate} />;
      }
      if (figures?.analysisType === 'bedStatic') return <BedStaticView grid={grid} result={figures.result} deviceType={deviceType} showHistogram={showHistogram} fileDate={fileDate} />;
      return <StaticView grid={grid} result={resultOf(record, 'Static')} deviceType={deviceType} cellCm={info?.cellPitchCm ?? null} showHistogram={showHistogram} fileDate={fileDate} />;
    }
    case 'Dynamic':
      return <DynamicPlayer frames={frames} result={resultOf(record, 'Dynamic')} createRenderer={createRenderer} display={display} />;
    case 'seatingDynamic':
      return <SeatingView record={record} grid={grid} deviceType={deviceType} fileDate={fileDate} />;
    case 'Balance': {
      const result = resultOf(record, 'Balance');
      if (result) return <BalanceView result={result} />;
      break;
    }
    case 'Fitting':
    case 'Rehab': {
      const result = resultOf(record, record.analysisType);
      if (result && grid) return <BodyCentreView grid={grid} result={result} display={display} />;
      break;
    }
  }
  return (
    <div className="result-row">
      {grid ? <ResultMap grid={grid} testId="fallback-map" label={t('analysis.static.map')} createRenderer={createRenderer} display={display} /> : null}
      <p className="muted" data-testid="figures-unavailable">
        {t('analysis.figuresUnavailable')}
      </p>
    </div>
  );
}

export function ResultPreview({ record, deviceType, onClose, createRenderer }: ResultPreviewProps) {
  const { t, i18n } = useTranslation();
  const id = oidOf(record._id) ?? '';
  const frames = useMemo(() => previewFrames(record.mapPreview), [record.mapPreview]);
  const shownAs = useRecordDeviceType(record, deviceType) ?? deviceType;
  const typeKey = useAnalysisTypeKey(record.analysisType, shownAs);
  return (
    <section className="card result-preview" data-testid="result-preview" data-analysis-id={id} data-analysis-type={record.analysisType} data-device-type={shownAs}>
      <header className="result-preview-head">
        <h3>
          {t(typeKey, { defaultValue: record.analysisType })}
          <span className="muted"> · {displayDateTime(creationSeconds(record), i18n.language)}</span>
        </h3>
        <button type="button" className="btn-icon" onClick={onClose} aria-label={t('analysis.close')} data-testid="result-close">
          ×
        </button>
      </header>
      {frames.length > 0 ? (
        <ResultBody record={record} frames={frames} deviceType={shownAs} createRenderer={createRenderer} />
      ) : (
        <p className="muted">{t('analysis.noMap')}</p>
      )}
    </section>
  );
}
