//! The PDF report modal (spec §5): widget list (Main Page always on and locked; Notes locked and
//! off without notes) and language for the analysis report; real-scale A3 or A4, A4 with the
//! shoe-size warning, and the print-at-actual-size information, only where the record's device type
//! offers it (`realScalePrint`: feet, seats, saddles; never a bed). The maps are printed in the user's
//! palette (and manual scale). The file is named by the hub.

import { useAtomValue, useStore } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FALLBACK_LANGUAGE, LANGUAGE_NAMES, LANGUAGES, type Language } from '../../lib/i18n';
import { showApiError, showToast } from '../../lib/messages';
import { downloadAnalysisPdf, downloadRealScalePdf, saveFile, type PaperSize } from './api';
import { Modal } from '../../components/Modal';
import { viewOptionsAtom } from '../../lib/heatmap/viewOptions';
import { initialWidgets, pdfColours, reportClock, selectedWidgets, toggleWidget } from './pdfLayout';

/** The report language for an interface language such as `en-US`: one of the eight, else en. */
export function reportLanguage(lng: string): Language {
  const base = lng.split('-')[0] as Language;
  return LANGUAGES.includes(base) ? base : FALLBACK_LANGUAGE;
}

export interface PdfLayoutModalProps {
  id: string;
  notes: string;
  creationSeconds: number;
  /** Whether the record's device type offers the real-scale print (the hub's table). */
  realScale: boolean;
  onClose: () => void;
}

export function PdfLayoutModal({ id, notes, creationSeconds, realScale, onClose }: PdfLayoutModalProps) {
  const { t, i18n } = useTranslation();
  const store = useStore();
  const [widgets, setWidgets] = useState(() => initialWidgets(notes));
  const [language, setLanguage] = useState<Language>(() => reportLanguage(i18n.resolvedLanguage ?? i18n.language));
  const [paper, setPaper] = useState<PaperSize>('A3');
  const [busy, setBusy] = useState(false);
  const colours = pdfColours(useAtomValue(viewOptionsAtom));
  const clock = reportClock(creationSeconds);

  const run = async (make: () => ReturnType<typeof downloadAnalysisPdf>) => {
    setBusy(true);
    try {
      saveFile(await make());
      showToast(store, 'toastSuccessRaw.dataDownloaded');
    } catch (err) {
      showApiError(store, err, 'toastErrorRaw.downloadError');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={t('analysis.pdf.title')} onClose={onClose} testId="pdf-modal">
      <fieldset className="pdf-widgets">
        <legend>{t('analysis.pdf.widgets')}</legend>
        {widgets.map((w) => (
          <label key={w.widget} className={w.locked ? 'locked' : undefined}>
            <input
              type="checkbox"
              checked={w.checked}
              disabled={w.locked}
              onChange={() => setWidgets((s) => toggleWidget(s, w.widget))}
              data-testid={`pdf-widget-${w.widget}`}
            />
            {t(`analysis.pdf.widget.${w.widget}`)}
          </label>
        ))}
      </fieldset>
      <label className="pdf-field">
        {t('analysis.pdf.language')}
        <select value={language} onChange={(e) => setLanguage(e.target.value as Language)} data-testid="pdf-language">
          {LANGUAGES.map((lng) => (
            <option key={lng} value={lng}>
              {LANGUAGE_NAMES[lng]}
            </option>
          ))}
        </select>
      </label>
      <div className="modal-actions">
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy}
          onClick={() => run(() => downloadAnalysisPdf(id, { widgets: selectedWidgets(widgets), language, ...colours, ...clock }))}
          data-testid="pdf-download"
        >
          {t('analysis.pdf.download')}
        </button>
      </div>
      {realScale ? (
      <fieldset className="pdf-real-scale">
        <legend>{t('analysis.pdf.realScale')}</legend>
        {(['A3', 'A4'] as const).map((size) => (
          <label key={size}>
            <input type="radio" name="paper" checked={paper === size} onChange={() => setPaper(size)} data-testid={`pdf-paper-${size}`} />
            {size}
          </label>
        ))}
        {paper === 'A4' ? (
          <p className="form-warning" role="note" data-testid="pdf-a4-warning">
            {t('analysis.pdf.a4Warning')}
          </p>
        ) : null}
        <p className="muted" data-testid="pdf-actual-size">
          {t('analysis.pdf.actualSize')}
        </p>
        <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => run(() => downloadRealScalePdf(id, paper, language, colours.palette, clock))} data-testid="pdf-real-scale">
          {t('analysis.pdf.downloadRealScale')}
        </button>
      </fieldset>
      ) : null}
    </Modal>
  );
}
