//! Live pressure map of one device, drawn at the rows × cols of the frames the hub sends, under
//! the user's view options (palette, smoothing, threshold, manual scale; flat, contour or 3-D).
//! The renderer subscribes to the live-map store directly and draws each frame; the container's
//! data attributes (`data-seq`, `data-presence`, `data-blank`, `data-rows`, `data-cols`,
//! `data-active`, `data-zeroed`, `data-min-active`, `data-scale`) are written from the same
//! callback, so frames cause no React render.

import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lutFor } from '../../lib/heatmap/palettes';
import { interpolates, prepareMap } from '../../lib/heatmap/prepare';
import { createMapRenderer, type HeatMapRenderer, type RendererFactory } from '../../lib/heatmap/renderer';
import { heatMapShown, viewMode, viewOptionsAtom, type ViewOptions } from '../../lib/heatmap/viewOptions';
import { deviceViewFamily } from '../../lib/devicesStore';
import type { LiveFrame } from '../../lib/liveMaps';
import { usePressureDisplay } from '../../lib/pressureUnits';
import { legendText, MapLegend } from '../../components/MapLegend';
import { INLINE } from '../../lib/messages';
import { pressureBasisText } from '../../lib/pressureBasis';
import { useFormat } from '../../lib/format';
import { useLiveLink } from '../../lib/liveLink';
import { useServices } from '../../lib/services';
import { useLastFrameAt, useMapBlank } from './useLiveFrame';

export type { RendererFactory };

export interface HeatMapProps {
  deviceId: string;
  createRenderer?: RendererFactory;
  /** Spec §2: on non-seating pages the map is drawn only while the page scroll is under 950 px. */
  hideBelowScroll?: boolean;
}

/** Whether the map is shown at the current window scroll; re-renders only when that changes. */
function useShownAtScroll(hideBelowScroll: boolean): boolean {
  const [shown, setShown] = useState(() => heatMapShown(window.scrollY, hideBelowScroll));
  useEffect(() => {
    const update = () => setShown(heatMapShown(window.scrollY, hideBelowScroll));
    update();
    if (!hideBelowScroll) return;
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, [hideBelowScroll]);
  return shown;
}

export function HeatMap({ deviceId, createRenderer = createMapRenderer, hideBelowScroll = false }: HeatMapProps) {
  const { t, i18n } = useTranslation();
  const { liveMaps } = useServices();
  const display = usePressureDisplay(useAtomValue(deviceViewFamily(deviceId)).deviceType);
  const lng = i18n.resolvedLanguage ?? i18n.language;
  // Which scale the colour bar reads (the sensor's documented one, or the fitness variant's).
  const basis = pressureBasisText(t, lng, display);
  // The colour bar's top, in the user's unit: read by the frame callback without a render.
  const legendRef = useRef<(steps: number) => string>(() => '');
  legendRef.current = (steps: number) => legendText(steps, display, lng);
  const options = useAtomValue(viewOptionsAtom);
  const setOptions = useSetAtom(viewOptionsAtom);
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLDivElement>(null);
  const scaleLabelRef = useRef<HTMLSpanElement>(null);
  const optionsRef = useRef<ViewOptions>(options);
  const redrawRef = useRef<() => void>(() => {});
  const blank = useMapBlank(deviceId);
  // While the socket is lost, the last map stays, greyed, with when it came (lib/liveLink).
  const link = useLiveLink();
  const lastFrameAt = useLastFrameAt(deviceId);
  const fmt = useFormat();
  const shown = useShownAtScroll(hideBelowScroll);
  const [failed, setFailed] = useState(false);
  const mode = viewMode(options);
  const rendererMode = mode === '3d' ? '3d' : 'flat';

  // New options redraw the current frame at once (the next frames use them anyway). Declared
  // before the renderer's effect so that a renderer created for new options starts with them.
  useEffect(() => {
    optionsRef.current = options;
    redrawRef.current();
  }, [options]);

  useEffect(() => {
    const box = boxRef.current;
    const host = canvasRef.current;
    if (!box || !host || !shown) return;
    let renderer: HeatMapRenderer | null = null;
    let disposed = false;
    setFailed(false);

    const show = (frame: LiveFrame | undefined) => {
      const o = optionsRef.current;
      const live = frame && !frame.blank && frame.rows > 0 && frame.cols > 0 ? frame : null;
      const map = live ? prepareMap(live, o) : null;
      if (frame) {
        box.dataset.seq = String(frame.seq);
        box.dataset.presence = frame.presence;
      }
      box.dataset.blank = String(!live);
      if (live && map) {
        box.dataset.rows = String(live.rows);
        box.dataset.cols = String(live.cols);
        box.dataset.active = String(map.active);
        box.dataset.zeroed = String(map.zeroed);
        box.dataset.minActive = String(map.minActive);
        box.dataset.scale = String(map.scale);
        if (rendererMode === 'flat') box.style.aspectRatio = `${live.cols} / ${live.rows}`;
        if (scaleLabelRef.current) scaleLabelRef.current.textContent = legendRef.current(map.scale);
      }
      renderer?.draw(map, { lut: lutFor(o.mapColorIndex), interpolate: interpolates(o.smoothenIndex), contour: o.contoursEnabled });
    };
    redrawRef.current = () => show(liveMaps.get(deviceId));

    const off = liveMaps.subscribe(deviceId, show);
    createRenderer(host, {
      mode: rendererMode,
      camera: optionsRef.current.cameraPosition,
      onCamera: (cameraPosition) => setOptions((o) => ({ ...o, cameraPosition })),
    })
      .then((r) => {
        if (disposed) {
          r.destroy();
          return;
        }
        renderer = r;
        box.dataset.renderer = r.kind;
        show(liveMaps.get(deviceId));
      })
      .catch((err) => {
        console.error('map renderer failed', err);
        if (!disposed) setFailed(true);
      });

    return () => {
      disposed = true;
      off();
      redrawRef.current = () => {};
      renderer?.destroy();
      renderer = null;
      delete box.dataset.renderer;
    };
  }, [liveMaps, deviceId, createRenderer, rendererMode, shown, setOptions]);

  return (
    <div className="heatmap-view">
      <div
        ref={boxRef}
        className={`heatmap heatmap-${mode}`}
        data-testid="heatmap"
        data-blank="true"
        data-mode={mode}
        data-shown={shown}
        data-palette={options.mapColorIndex}
        data-stale={link.stale}
        style={{ aspectRatio: rendererMode === '3d' ? '4 / 3' : '1 / 1' }}
        role="img"
        aria-label={t('device.liveMap')}
      >
        <div ref={canvasRef} className="heatmap-canvas" />
        {failed ? (
          <div className="heatmap-empty">{t(mode === '3d' ? 'view.unavailable3d' : 'view.unavailable')}</div>
        ) : !shown ? (
          <div className="heatmap-empty">{t('view.hiddenWhileScrolled')}</div>
        ) : blank ? (
          <div className="heatmap-empty">{t(link.stale ? 'device.staleNoMap' : INLINE.socketEmpty)}</div>
        ) : link.stale && lastFrameAt != null ? (
          <div className="heatmap-stale" data-testid="heatmap-stale">
            {t('device.staleMap', { time: fmt.time(lastFrameAt) })}
          </div>
        ) : null}
      </div>
      <MapLegend
        ref={scaleLabelRef}
        palette={options.mapColorIndex}
        low={legendText(0, display, lng)}
        high={options.manualScale ? legendText(options.manualScaleValue, display, lng) : '—'}
        display={display}
        testId="map-legend"
      >
        <span className="muted">{options.manualScale ? t('view.scaleManual') : t('view.scaleAuto')}</span>
        {basis ? (
          <span className="muted map-legend-basis" data-testid="map-legend-basis">
            {basis}
          </span>
        ) : null}
      </MapLegend>
    </div>
  );
}
