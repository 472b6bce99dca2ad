//! One open result preview: a closable panel showing the stored record with the view of its kind.

import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { oidOf } from '../../lib/api';
import { BalanceView } from './BalanceView';
import { BodyCentreView } from './BodyCentreView';
import { isoDate, displayDateTime } from './dates';
import { DynamicPlayer } from './DynamicPlayer';
import { resultOf } from './engineResult';
import { useDeviceType } from '../../lib/deviceTypes';
import type { MapRendererFactory } from './ResultMap';
import { ResultMap } from './ResultMap';
import { creationSeconds, meanGrid, previewFrames, type AnalysisRecord, type Grid } from './record';
import { SeatingView } from './SeatingView';
import { StaticView } from './StaticView';

export interface ResultPreviewProps {
  record: AnalysisRecord;
  deviceType: string;
  onClose: () => void;
  createRenderer?: MapRendererFactory;
}

function ResultBody({ record, frames, deviceType, createRenderer }: Omit<ResultPreviewProps, 'onClose'> & { frames: Grid[] }) {
  const { t } = useTranslation();
  const showHistogram = useDeviceType(deviceType)?.staticHistogram ?? false;
  const grid = useMemo(() => meanGrid(frames), [frames]);
  const fileDate = isoDate(creationSeconds(record));
  switch (record.analysisType) {
    case 'Static':
      return grid ? <StaticView grid={grid} result={resultOf(record, 'Static')} showHistogram={showHistogram} fileDate={fileDate} /> : null;
    case 'Dynamic':
      return <DynamicPlayer frames={frames} result={resultOf(record, 'Dynamic')} createRenderer={createRenderer} />;
    case 'seatingDynamic':
      return <SeatingView record={record} grid={grid} fileDate={fileDate} />;
    case 'Balance': {
      const result = resultOf(record, 'Balance');
      if (result) return <BalanceView result={result} />;
      break;
    }
    case 'Fitting':
    case 'Rehab': {
      const result = resultOf(record, record.analysisType);
      if (result && grid) return <BodyCentreView grid={grid} result={result} />;
      break;
    }
  }
  return (
    <div className="result-row">
      {grid ? <ResultMap grid={grid} testId="fallback-map" label={t('analysis.static.map')} createRenderer={createRenderer} /> : null}
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
  return (
    <section className="card result-preview" data-testid="result-preview" data-analysis-id={id} data-analysis-type={record.analysisType}>
      <header className="result-preview-head">
        <h3>
          {t(`analysis.types.${record.analysisType}`, { defaultValue: record.analysisType })}
          <span className="muted"> · {displayDateTime(creationSeconds(record), i18n.language)}</span>
        </h3>
        <button type="button" className="btn-icon" onClick={onClose} aria-label={t('analysis.close')} data-testid="result-close">
          ×
        </button>
      </header>
      {frames.length > 0 ? (
        <ResultBody record={record} frames={frames} deviceType={deviceType} createRenderer={createRenderer} />
      ) : (
        <p className="muted">{t('analysis.noMap')}</p>
      )}
    </section>
  );
}
