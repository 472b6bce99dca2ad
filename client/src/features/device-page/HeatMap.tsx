//! Live heat map of one device. The renderer (pixi.js) subscribes to the live-map store directly and
//! draws each frame into its texture; the container's `data-seq` / `data-presence` attributes are
//! written from the same callback, so frames cause no React render.

import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { createHeatMapRenderer, type HeatMapRenderer } from '../../lib/heatmap/renderer';
import type { LiveFrame } from '../../lib/liveMaps';
import { useServices } from '../../lib/services';
import { useMapBlank } from './useLiveFrame';

export type RendererFactory = (container: HTMLElement, size: { rows: number; cols: number }) => Promise<HeatMapRenderer>;

export interface HeatMapProps {
  deviceId: string;
  /** Initial size only; the map takes each frame's own rows × cols. */
  rows?: number;
  cols?: number;
  createRenderer?: RendererFactory;
}

export function HeatMap({ deviceId, rows = 1, cols = 1, createRenderer = createHeatMapRenderer }: HeatMapProps) {
  const { t } = useTranslation();
  const { liveMaps } = useServices();
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLDivElement>(null);
  const blank = useMapBlank(deviceId);

  useEffect(() => {
    const box = boxRef.current;
    const host = canvasRef.current;
    if (!box || !host) return;
    let renderer: HeatMapRenderer | null = null;
    let disposed = false;

    const show = (frame: LiveFrame | undefined) => {
      if (!renderer) return;
      renderer.draw(frame);
      if (frame) {
        box.dataset.seq = String(frame.seq);
        box.dataset.presence = frame.presence;
        box.dataset.blank = String(frame.blank);
        if (!frame.blank && frame.rows > 0 && frame.cols > 0) box.style.aspectRatio = `${frame.cols} / ${frame.rows}`;
      } else {
        box.dataset.blank = 'true';
      }
    };

    const off = liveMaps.subscribe(deviceId, show);
    createRenderer(host, { rows, cols })
      .then((r) => {
        if (disposed) {
          r.destroy();
          return;
        }
        renderer = r;
        box.dataset.renderer = r.kind;
        show(liveMaps.get(deviceId));
      })
      .catch((err) => console.error('heat map renderer failed', err));

    return () => {
      disposed = true;
      off();
      renderer?.destroy();
      renderer = null;
    };
  }, [liveMaps, deviceId, rows, cols, createRenderer]);

  return (
    <div
      ref={boxRef}
      className="heatmap"
      data-testid="heatmap"
      data-blank="true"
      style={{ aspectRatio: `${Math.max(1, cols)} / ${Math.max(1, rows)}` }}
      role="img"
      aria-label={t('device.liveMap')}
    >
      <div ref={canvasRef} className="heatmap-canvas" />
      {blank ? <div className="heatmap-empty">{t('device.noLiveData')}</div> : null}
    </div>
  );
}
