//! The raw-data download dialog (spec §2, 600 px wide): the processed or unprocessed export of a
//! stored analysis, built by the hub; a loading state while it downloads, then
//! toastSuccessRaw.dataDownloaded, or toastErrorRaw.noAnalysisData / downloadError (2.5 s).

import { useStore } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { showToast } from '../../lib/messages';
import { downloadRawExport, saveFile, type ExportKind } from './api';
import { Modal } from '../../components/Modal';

export const RAW_DIALOG_WIDTH_PX = 600;

export function RawDataDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation();
  const store = useStore();
  const [loading, setLoading] = useState<ExportKind | null>(null);

  const run = async (kind: ExportKind) => {
    setLoading(kind);
    try {
      saveFile(await downloadRawExport(id, kind));
      showToast(store, 'toastSuccessRaw.dataDownloaded');
    } catch (err) {
      const noData = err instanceof ApiError && err.code === 'toastErrorRaw.noAnalysisData';
      showToast(store, noData ? 'toastErrorRaw.noAnalysisData' : 'toastErrorRaw.downloadError');
    } finally {
      setLoading(null);
    }
  };

  return (
    <Modal title={t('analysis.raw.title')} onClose={onClose} testId="raw-dialog" width={RAW_DIALOG_WIDTH_PX}>
      <ol className="raw-steps">
        <li>{t('analysis.raw.step1')}</li>
        <li>{t('analysis.raw.step2')}</li>
      </ol>
      <div className="modal-actions">
        {(['processed', 'unprocessed'] as const).map((kind) => (
          <button key={kind} type="button" className="btn btn-primary" disabled={loading !== null} onClick={() => run(kind)} data-testid={`raw-${kind}`}>
            {loading === kind ? t('analysis.raw.loading') : t(`analysis.raw.${kind}`)}
          </button>
        ))}
      </div>
      {loading ? (
        <p className="muted" role="status" data-testid="raw-loading">
          {t('analysis.raw.loading')}
        </p>
      ) : null}
    </Modal>
  );
}
