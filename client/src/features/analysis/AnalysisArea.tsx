//! The analysis area of a device page (spec §2 "Analysis history", §4 "Previews"): the open result
//! preview (one at a time: opening one closes the other; × closes it; leaving the page resets it)
//! and the history cards with pagination — this device's analyses, or with the filter every
//! analysis of the selected patient (issue 21) — the storage used, and the notes, PDF, raw-data
//! and delete dialogs.

import { useAtom, useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { oidOf, type UserDevice } from '../../lib/api';
import { analysesVersionAtom, selectedPatientAtom } from '../../lib/clinicalContext';
import { useDeviceType } from '../../lib/deviceTypes';
import { deviceInfoFamily } from '../../lib/devicesStore';
import { DeleteConfirm } from './DeleteConfirm';
import { HistoryCard, type CardAction } from './HistoryCard';
import { NotesModal } from './NotesModal';
import { pageSummary, STORAGE_QUOTA_MB } from './pagination';
import { PdfLayoutModal } from './PdfLayoutModal';
import { RawDataDialog } from './RawDataDialog';
import { creationSeconds, type AnalysisRecord } from './record';
import type { MapRendererFactory } from './ResultMap';
import { ResultPreview } from './ResultPreview';
import { formatNumber } from '../../lib/format';
import { useHistory } from './useHistory';
import './analysis.css';

export interface AnalysisAreaProps {
  device: UserDevice;
  /** Whether the PDF report icon is offered (spec §6). */
  pdfReports: boolean;
  createRenderer?: MapRendererFactory;
}

type Dialog = { kind: Exclude<CardAction, 'open'>; record: AnalysisRecord } | null;

export function AnalysisArea({ device, pdfReports, createRenderer }: AnalysisAreaProps) {
  const { t, i18n } = useTranslation();
  const patient = useAtomValue(selectedPatientAtom);
  const [version, setVersion] = useAtom(analysesVersionAtom);
  const [page, setPage] = useState(1);
  const [filterByPatient, setFilterByPatient] = useState(false);
  const [open, setOpen] = useState<AnalysisRecord | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const patientId = patient?.id ?? null;
  const deviceId = oidOf(device._id) ?? null;
  const history = useHistory(page, deviceId, patientId, filterByPatient, version);

  // Page 1 again on a filter or patient change (spec §4); a new patient starts unfiltered, since
  // the checkbox is only offered once that patient is known to have analyses.
  useEffect(() => setPage(1), [filterByPatient, patientId]);
  useEffect(() => setFilterByPatient(false), [patientId]);

  const total = history.page?.totalAnalysis ?? 0;
  const summary = pageSummary(page, total);
  useEffect(() => {
    if (history.page && page > summary.totalPages) setPage(summary.totalPages);
  }, [history.page, page, summary.totalPages]);

  const act = (record: AnalysisRecord, action: CardAction) => {
    if (action === 'open') setOpen(record);
    else setDialog({ kind: action, record });
  };
  const filtered = filterByPatient && patientId !== null;
  const analyses = history.page?.analyses ?? [];
  const openId = open ? oidOf(open._id) : null;
  // A record is printed by its own device's type (issue 21): beds have no real-scale print.
  const printedDevice = useAtomValue(deviceInfoFamily(dialog?.record.deviceId ?? ''));
  const printedType = useDeviceType(printedDevice?.deviceType ?? device.deviceType);

  return (
    <div className="analysis-area" data-testid="analysis-area">
      {open ? <ResultPreview key={openId} record={open} deviceType={device.deviceType} onClose={() => setOpen(null)} createRenderer={createRenderer} /> : null}
      <section className="card history" data-testid="history">
        <header className="history-head">
          <h2>{t('analysis.history.title')}</h2>
          {history.storageMb !== null ? (
            <span className="muted" data-testid="storage-used">
              {t('analysis.history.storageUsed')}: {formatNumber(history.storageMb, i18n.language)} MB / {STORAGE_QUOTA_MB}MB
            </span>
          ) : null}
          {patient && history.patientHasAnalyses ? (
            <label className="history-filter">
              <input type="checkbox" checked={filterByPatient} onChange={(e) => setFilterByPatient(e.target.checked)} data-testid="history-filter" />
              {t('analysisFamily.history.patientEverywhere', { name: patient.name })}
            </label>
          ) : null}
        </header>
        {history.failed ? (
          <p className="form-error" role="alert">
            {t('analysis.history.loadFailed')}
          </p>
        ) : null}
        {history.page && analyses.length === 0 && !history.loading ? (
          <p className="muted" data-testid="history-empty">
            {filtered ? t('messages.noAnalysisYetPatient') : t('messages.noAnalysisYet')}
          </p>
        ) : null}
        {history.loading && !history.page ? <p className="muted">{t('analysis.loading')}</p> : null}
        <ul className="history-list" data-testid="history-list" data-page={summary.page} aria-busy={history.loading}>
          {analyses.map((record) => (
            <HistoryCard
              key={oidOf(record._id)}
              record={record}
              deviceType={device.deviceType}
              patientName={history.patientNames.get(record.patientId)}
              open={oidOf(record._id) === openId}
              pdfReports={pdfReports}
              onAction={(action) => act(record, action)}
            />
          ))}
        </ul>
        {total > 0 ? (
          <nav className="pagination" aria-label={t('analysis.history.pagination')} data-testid="pagination">
            <button type="button" className="btn btn-ghost" disabled={!summary.hasPrevious} onClick={() => setPage(summary.page - 1)} data-testid="page-previous">
              {t('analysis.history.previous')}
            </button>
            <span data-testid="page-of">{t('analysis.history.pageOf', { page: summary.page, pages: summary.totalPages })}</span>
            <span className="muted" data-testid="page-range">
              {t('analysis.history.range', { first: summary.first, last: summary.last, total: summary.total })}
            </span>
            <button type="button" className="btn btn-ghost" disabled={!summary.hasNext} onClick={() => setPage(summary.page + 1)} data-testid="page-next">
              {t('analysis.history.next')}
            </button>
          </nav>
        ) : null}
      </section>
      {dialog?.kind === 'notes' ? (
        <NotesModal
          id={oidOf(dialog.record._id) ?? ''}
          initial={dialog.record.notes ?? ''}
          onClose={() => setDialog(null)}
          onSaved={(notes) => {
            if (open && oidOf(open._id) === oidOf(dialog.record._id)) setOpen({ ...open, notes });
            setDialog(null);
            setVersion((v) => v + 1);
          }}
        />
      ) : null}
      {dialog?.kind === 'delete' ? (
        <DeleteConfirm
          id={oidOf(dialog.record._id) ?? ''}
          onClose={() => setDialog(null)}
          onDeleted={() => {
            if (openId === oidOf(dialog.record._id)) setOpen(null);
            setDialog(null);
            setVersion((v) => v + 1);
          }}
        />
      ) : null}
      {dialog?.kind === 'pdf' && pdfReports ? <PdfLayoutModal
          id={oidOf(dialog.record._id) ?? ''}
          notes={dialog.record.notes ?? ''}
          creationSeconds={creationSeconds(dialog.record)}
          realScale={printedType?.realScalePrint ?? false}
          onClose={() => setDialog(null)}
        /> : null}
      {dialog?.kind === 'raw' ? <RawDataDialog id={oidOf(dialog.record._id) ?? ''} onClose={() => setDialog(null)} /> : null}
    </div>
  );
}
