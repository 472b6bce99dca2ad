//! A small uPlot chart (docs/decisions.md "results": uPlot for plots). Line series over x, or a
//! scatter of points (`points: true`: no lines, x sorted by the caller). The data also lands in
//! `data-points` (point count), and named x ticks in `data-x-ticks`, so tests and tours can see
//! what was plotted without a canvas.
//! uPlot is loaded with the first chart (it reads the screen's pixel ratio when it loads).

import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { chartWidth } from './chartWidth';

export interface ChartSeries {
  label: string;
  colour: string;
  /** A scatter: points only. */
  points?: boolean;
  /** Bars (histograms). */
  bars?: boolean;
}

export interface ChartProps {
  testId: string;
  title: string;
  /** Show the title above the chart (off where a panel heading already names it). */
  showTitle?: boolean;
  xLabel: string;
  yLabel?: string;
  series: ChartSeries[];
  /** [xs, ys of series 0, ys of series 1, …] */
  data: number[][];
  height?: number;
  xRange?: [number, number];
  /** Named ticks on the x axis (a histogram's bins): a label at each position, no others. */
  xTicks?: { at: number[]; labels: string[] };
}

function canDraw(): boolean {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return false;
  try {
    return document.createElement('canvas').getContext('2d') !== null;
  } catch {
    return false;
  }
}

export function Chart({ testId, title, showTitle = true, xLabel, yLabel, series, data, height = 220, xRange, xTicks }: ChartProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el || !canDraw()) return;
    const options = (bars: uPlot.Series.PathBuilder | undefined): uPlot.Options => ({
      width: Math.min(chartWidth(window.innerWidth), Math.max(200, el.clientWidth || chartWidth(window.innerWidth))),
      height,
      legend: { show: series.length > 1 },
      scales: { x: { time: false, ...(xRange ? { range: xRange } : {}) } },
      axes: [
        { label: xLabel, ...(xTicks ? { splits: () => xTicks.at, values: () => xTicks.labels } : {}) },
        { label: yLabel ?? '' },
      ],
      series: [
        {},
        ...series.map((s) => ({
          label: s.label,
          stroke: s.colour,
          width: s.points ? 0 : 2,
          ...(s.points ? { paths: () => null, points: { show: true, size: 5, fill: s.colour, stroke: s.colour } } : {}),
          ...(s.bars && bars ? { paths: bars, fill: s.colour, points: { show: false } } : {}),
        })),
      ],
    });
    let plot: uPlot | null = null;
    let disposed = false;
    import('uplot')
      .then(({ default: UPlot }) => {
        if (!disposed) plot = new UPlot(options(UPlot.paths.bars?.({ size: [0.7, 60] })), data as uPlot.AlignedData, el);
      })
      .catch((err) => console.error('chart failed', err));
    return () => {
      disposed = true;
      plot?.destroy();
    };
  }, [data, series, height, xLabel, yLabel, xRange, xTicks]);
  return (
    <figure className="analysis-chart" data-testid={testId} data-points={data[0]?.length ?? 0} data-x-ticks={xTicks?.labels.join(' | ')} aria-label={title}>
      {showTitle ? <figcaption>{title}</figcaption> : null}
      <div ref={host} />
    </figure>
  );
}

/** Points as scatter data: sorted by x, as [xs, ys]. */
export function scatterData(points: Array<[number, number]>): number[][] {
  const sorted = [...points].sort((a, b) => a[0] - b[0]);
  return [sorted.map((p) => p[0]), sorted.map((p) => p[1])];
}
