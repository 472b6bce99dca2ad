//! A real-time line chart (uPlot: small, canvas-based, built for streaming series; see
//! docs/decisions.md). The chart is created once per set of series and fed new data in place, so
//! a 2–10 Hz stream costs no React re-render of the chart. The latest values are also written as
//! `data-*` attributes and a visually hidden summary for tests and screen readers.

import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import { formatDateTime, formatNumber, formatTime } from '../lib/format';
import 'uplot/dist/uPlot.min.css';

let canvasSupport: boolean | null = null;
/** Whether this browser can draw on a 2D canvas (uPlot needs one; without it only the text
 * summary is shown). */
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

export interface ChartSeries {
  label: string;
  color: string;
}

export interface LineChartProps {
  /** x values in ms since the epoch. */
  times: number[];
  /** One array per series, as long as `times`; null where the series has no value (a gap). */
  values: Array<Array<number | null>>;
  series: ChartSeries[];
  height?: number;
  yRange?: [number, number];
  label: string;
  testId?: string;
  /** The unit of the values, written after them on the y axis and in the legend. */
  unit?: string;
}

/** The time axis's tick spacings, seconds. Its labels are times of day to the second: uPlot's own
 * spacings go under a second (a chart's first seconds read "18:16:12" five times over) and over
 * half a day (a day's chart would read one time twice). A chart spans a day at most. */
export const TIME_TICK_SECONDS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1_800, 3_600, 7_200, 10_800, 21_600];

export function LineChart({ times, values, series, height = 220, yRange, label, testId = 'line-chart', unit }: LineChartProps) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? i18n.language;
  const timeLabel = t('pages.log.date');
  const hostRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<uPlot | null>(null);
  const seriesKey = series.map((s) => `${s.label}:${s.color}`).join('|');

  useEffect(() => {
    const host = hostRef.current;
    if (!host || !canDrawCanvas()) return;
    const opts: uPlot.Options = {
      width: Math.max(200, host.clientWidth || 500),
      height,
      scales: { x: { time: true }, ...(yRange ? { y: { range: yRange } } : {}) },
      legend: { show: true },
      cursor: { drag: { x: false, y: false } },
      // Times and values in the user's language and time zone (lib/format), not uPlot's US style.
      series: [
        { label: timeLabel, value: (_u: uPlot, v: number | null) => (v == null ? '—' : formatDateTime(v * 1000, lng)) },
        ...series.map((s) => ({
          label: s.label,
          stroke: s.color,
          width: 2,
          points: { show: false },
          value: (_u: uPlot, v: number | null) => (v == null ? '—' : withUnit(formatNumber(v, lng), unit)),
        })),
      ],
      axes: [
        // A time label is about 60 px wide: ticks at least 90 px apart, so they never overlap, and
        // at least a second apart, so that no two say the same time.
        { values: (_u: uPlot, splits: number[]) => splits.map((s) => formatTime(s * 1000, lng)), size: 40, space: 90, incrs: TIME_TICK_SECONDS },
        { size: 64, label: unit, values: (_u: uPlot, splits: number[]) => splits.map((s) => formatNumber(s, lng)) },
      ],
    };
    let chart: uPlot;
    try {
      chart = new uPlot(opts, [[], ...series.map(() => [])] as uPlot.AlignedData, host);
    } catch (err) {
      console.error('chart could not be drawn', err);
      return;
    }
    chartRef.current = chart;
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(200, host.clientWidth), height }));
    resize.observe(host);
    return () => {
      resize.disconnect();
      chart.destroy();
      chartRef.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [seriesKey, height, yRange?.[0], yRange?.[1], lng, unit, timeLabel]);

  useEffect(() => {
    chartRef.current?.setData([times.map((t) => t / 1000), ...values] as uPlot.AlignedData);
  }, [times, values]);

  const last = values.map((v) => (v.length ? v[v.length - 1] : null));
  return (
    <figure className="line-chart" data-testid={testId} data-points={times.length} aria-label={label}>
      <div ref={hostRef} className="line-chart-host" />
      <figcaption className="visually-hidden">
        {label}: {series.map((s, i) => `${s.label} ${lastText(last[i], lng, unit)}`).join(', ')}
      </figcaption>
    </figure>
  );
}

const withUnit = (value: string, unit: string | undefined): string => (unit ? `${value}\u00a0${unit}` : value);
const lastText = (v: number | null | undefined, lng: string, unit: string | undefined): string =>
  v == null ? '—' : withUnit(formatNumber(v, lng), unit);
