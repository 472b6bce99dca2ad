//! The 8-bin pressure histogram (spec §2, §9) with a download of its bins as JSON; bin edges in
//! the user's pressure unit (the result's own display: its device, and its weight calibration).

import { useTranslation } from 'react-i18next';
import { saveFile } from './api';
import { Chart } from './Chart';
import type { Histogram } from './engineResult';
import { formatFixed } from '../../lib/format';
import { formatPressure, formatPressureValue, stepsToDisplay, type PressureDisplay } from '../../lib/pressureUnits';

export function HistogramPanel({ histogram, fileDate, display }: { histogram: Histogram; fileDate: string; display: PressureDisplay | null }) {
  const { t, i18n } = useTranslation();
  if (histogram.counts.length === 0) {
    return <p className="muted">{t('messages.histogramNoData')}</p>;
  }
  const bins = histogram.counts.map((_, i) => i + 1);
  const download = () => {
    const rows = histogram.counts.map((count, i) => ({
      upperBound: display ? stepsToDisplay(histogram.binUpperBounds[i] ?? 0, display) : (histogram.binUpperBounds[i] ?? 0),
      unit: display?.unit ?? 'steps',
      count,
      percentage: histogram.percentages[i] ?? 0,
    }));
    saveFile({ blob: new Blob([JSON.stringify(rows, null, 2)], { type: 'application/json' }), fileName: `histogram_${fileDate}.json` });
  };
  return (
    <section className="result-tile-group" data-testid="histogram">
      <h4>{t('analysis.histogram.title')}</h4>
      <Chart
        testId="histogram-chart"
        title={t('analysis.histogram.title')}
        showTitle={false}
        xLabel={display ? t('analysis.histogram.upTo', { unit: display.unit }) : t('analysis.histogram.bin')}
        xTicks={display ? { at: bins, labels: histogram.binUpperBounds.map((b) => formatPressureValue(b, display, i18n.language)) } : undefined}
        yLabel="%"
        series={[{ label: '%', colour: '#3366cc', bars: true }]}
        xRange={[0.5, histogram.counts.length + 0.5]}
        data={[bins, histogram.percentages]}
      />
      <ol className="histogram-bins">
        {histogram.counts.map((count, i) => (
          <li key={i}>
            ≤ {display ? formatPressure(histogram.binUpperBounds[i] ?? 0, display, i18n.language) : '—'}: {count} ({formatFixed(histogram.percentages[i] ?? 0, i18n.language, 1)} %)
          </li>
        ))}
      </ol>
      <button type="button" className="btn btn-ghost" onClick={download} data-testid="histogram-download">
        {t('analysis.histogram.download')}
      </button>
    </section>
  );
}
