//! One stored analysis in the history: type, date, notes, and its actions (open the preview,
//! notes, PDF when the device type has reports, raw data, delete).

import { useTranslation } from 'react-i18next';
import { oidOf } from '../../lib/api';
import { useAnalysisTypeKey, useRecordDeviceType } from './analysisTypeLabel';
import { displayDateTime } from './dates';
import { creationSeconds, type AnalysisRecord } from './record';

export type CardAction = 'open' | 'notes' | 'pdf' | 'raw' | 'delete';

export function HistoryCard({
  record,
  deviceType,
  patientName,
  open,
  pdfReports,
  onAction,
}: {
  record: AnalysisRecord;
  /** The page's device type (the record's own device's when this browser knows it). */
  deviceType?: string;
  patientName?: string;
  open: boolean;
  pdfReports: boolean;
  onAction: (action: CardAction) => void;
}) {
  const { t, i18n } = useTranslation();
  const typeKey = useAnalysisTypeKey(record.analysisType, useRecordDeviceType(record, deviceType));
  const id = oidOf(record._id) ?? '';
  return (
    <li className={`history-card card${open ? ' open' : ''}`} data-testid="history-card" data-analysis-id={id} data-analysis-type={record.analysisType}>
      <div className="history-card-main">
        <strong data-testid="history-type">{t(typeKey, { defaultValue: record.analysisType })}</strong>
        <span className="muted">
          {patientName ? <span data-testid="history-patient">{patientName} · </span> : null}
          {displayDateTime(creationSeconds(record), i18n.language)}
        </span>
        {record.notes ? (
          <p className="history-notes" data-testid="history-notes">
            {record.notes}
          </p>
        ) : null}
      </div>
      <div className="history-actions">
        <button type="button" className="btn btn-primary" onClick={() => onAction('open')} data-testid="history-open">
          {t('analysis.history.open')}
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => onAction('notes')} data-testid="history-notes-edit">
          {t('analysis.history.notes')}
        </button>
        {pdfReports ? (
          <button type="button" className="btn btn-ghost" onClick={() => onAction('pdf')} data-testid="history-pdf" aria-label={t('analysis.pdf.title')}>
            PDF
          </button>
        ) : null}
        <button type="button" className="btn btn-ghost" onClick={() => onAction('raw')} data-testid="history-raw">
          {t('analysis.history.rawData')}
        </button>
        <button type="button" className="btn btn-danger" onClick={() => onAction('delete')} data-testid="history-delete">
          {t('analysis.history.delete')}
        </button>
      </div>
    </li>
  );
}
