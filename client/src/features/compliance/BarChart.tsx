//! A bar chart of one figure per unit and shift (uPlot's bars path builder; see docs/decisions.md,
//! "Charting library"). The x axis is the rows' index, labelled by shift (and unit when the chart
//! shows more than one); one or two series side by side. The values are also in the page's
//! table; the caption says what the chart shows for screen readers.

import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import { formatNumber } from '../../lib/format';
import 'uplot/dist/uPlot.min.css';

export interface BarSeries {
  label: string;
  color: string;
  values: Array<number | null>;
}

export interface BarChartProps {
  title: string;
  /** One label per bar group (x position). */
  labels: string[];
  series: BarSeries[];
  /** The values' unit, on the y axis and in the legend. */
  unit: string;
  /** A fixed y range (0–100 for a share in percent); from the data otherwise. */
  yMax?: number;
  testId: string;
  height?: number;
}

let canvasSupport: boolean | null = null;
/** Whether this browser can draw on a 2D canvas (without one only the text summary is shown). */
function canDrawCanvas(): boolean {
  if (canvasSupport === null) {
    try {
      canvasSupport = Boolean(document.createElement('canvas').getContext('2d'));
    } catch {
      canvasSupport = false;
    }
  }
  return canvasSupport;
}

export function BarChart({ title, labels, series, unit, yMax, testId, height = 240 }: BarChartProps) {
  const { i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? i18n.language;
  const hostRef = useRef<HTMLDivElement>(null);
  const key = JSON.stringify([labels, series, unit, yMax, lng]);

  useEffect(() => {
    const host = hostRef.current;
    if (!host || !canDrawCanvas() || labels.length === 0) return;
    const bars = uPlot.paths.bars;
    const n = series.length;
    const withUnit = (v: number | null) => (v == null ? '—' : `${formatNumber(v, lng, 1)}\u00a0${unit}`);
    // Slanted labels when they would not fit side by side (many rows, or a phone).
    const rotate = labels.length > 6 || (host.clientWidth || 600) / labels.length < 120;
    const opts: uPlot.Options = {
      width: Math.max(280, host.clientWidth || 600),
      height,
      // The legend names the series; the figures are in the table (a hovered bar's value is not needed).
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false }, points: { show: false } },
      scales: {
        x: { time: false, range: [-0.6, labels.length - 0.4] },
        y: { range: (_u, _min, max) => [0, yMax ?? Math.max(1, max * 1.15)] },
      },
      series: [
        { label: title, value: (_u: uPlot, v: number | null) => (v == null ? '' : (labels[Math.round(v)] ?? '')) },
        ...series.map((s, i) => ({
          label: s.label,
          stroke: s.color,
          fill: s.color,
          width: 0,
          points: { show: false },
          paths: bars ? bars({ size: [n > 1 ? 0.38 : 0.6, 64], align: (n > 1 ? (i === 0 ? -1 : 1) : 0) as -1 | 0 | 1 }) : undefined,
          value: (_u: uPlot, v: number | null) => withUnit(v),
        })),
      ],
      axes: [
        {
          splits: () => labels.map((_, i) => i),
          values: (_u: uPlot, splits: number[]) => splits.map((i) => labels[i] ?? ''),
          rotate: rotate ? -35 : 0,
          size: rotate ? 96 : 40,
          gap: 4,
        },
        { size: 64, label: unit, values: (_u: uPlot, splits: number[]) => splits.map((s) => formatNumber(s, lng)) },
      ],
    };
    const data = [labels.map((_, i) => i), ...series.map((s) => s.values)] as uPlot.AlignedData;
    let chart: uPlot;
    try {
      chart = new uPlot(opts, data, host);
    } catch (err) {
      console.error('chart could not be drawn', err);
      return;
    }
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(280, host.clientWidth), height }));
    resize.observe(host);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
    // The key holds every input of the chart.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, height]);

  return (
    <figure className="compliance-chart" data-testid={testId} data-bars={labels.length}>
      <figcaption className="compliance-chart-title">{title}</figcaption>
      <div ref={hostRef} className="compliance-chart-host" />
      <p className="visually-hidden">
        {labels
          .map((label, i) => `${label}: ${series.map((s) => `${s.label} ${s.values[i] == null ? '—' : `${formatNumber(s.values[i]!, lng, 1)} ${unit}`}`).join(', ')}`)
          .join('; ')}
      </p>
    </figure>
  );
}
