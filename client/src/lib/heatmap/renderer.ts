//! The flat live-map renderers: a pixi.js v8 sprite whose texture (cols × rows RGBA texels, the
//! frame's own shape) is updated in place from each prepared map, crisp or interpolated as the
//! smoothing asks, with the contour view's iso-lines drawn over it as pixi graphics. Where WebGL is
//! not available a 2D canvas does the same. The 3-D surface lives in `surface3d.ts`.

import { contourLevels, isoline } from './contour';
import { fillBlank } from './palette';
import { colourise, type PreparedMap } from './prepare';
import type { CameraPosition } from './viewOptions';

/** Colour bands and iso-lines of the contour view. */
export const CONTOUR_LEVELS = 8;

/** How to draw the next map. */
export interface DrawSettings {
  /** 256 × RGBA palette. */
  lut: Uint8Array;
  /** Interpolate between cells (else each cell is a crisp square). */
  interpolate: boolean;
  /** Contour view: banded colours and iso-lines. */
  contour: boolean;
}

export interface HeatMapRenderer {
  readonly kind: 'pixi-webgl' | 'pixi-webgpu' | 'canvas2d' | 'three-webgl';
  /** Draws a prepared map; `null` clears it (no frame yet, or blanked). */
  draw(map: PreparedMap | null, settings: DrawSettings): void;
  destroy(): void;
}

/** What a renderer is created for: the flat views, or the 3-D surface with its camera. */
export interface RendererRequest {
  mode: 'flat' | '3d';
  camera: CameraPosition;
  /** The user moved the 3-D camera. */
  onCamera?: (camera: CameraPosition) => void;
}

export type RendererFactory = (container: HTMLElement, request: RendererRequest) => Promise<HeatMapRenderer>;

/** The default factory: pixi.js for the flat views (2D canvas fallback), three.js for 3-D, which
 * is loaded only when 3-D is first asked for. */
export const createMapRenderer: RendererFactory = async (container, request) => {
  if (request.mode === '3d') {
    const { createSurfaceRenderer } = await import('./surface3d');
    return createSurfaceRenderer(container, request);
  }
  try {
    return await createPixiRenderer(container);
  } catch (err) {
    console.warn('pixi.js renderer unavailable, using a 2D canvas', err);
    return createCanvasRenderer(container);
  }
};

/** Iso-line segments of all contour levels, in cell units. */
function contourSegments(map: PreparedMap): number[][] {
  return contourLevels(map.scale, CONTOUR_LEVELS).map((level) => isoline(map.values, map.rows, map.cols, level));
}

/** The texels of a map (or the blank map) on the palette. */
function paint(pixels: Uint8Array, map: PreparedMap | null, s: DrawSettings): void {
  if (!map) fillBlank(pixels, s.lut);
  else colourise(map.values, map.scale, s.lut, pixels, s.contour ? CONTOUR_LEVELS : 0);
}

async function createPixiRenderer(container: HTMLElement): Promise<HeatMapRenderer> {
  const PIXI = await import('pixi.js');
  // The hub's Content-Security-Policy allows no eval: pixi.js then needs its eval-free shader
  // and uniform code (and skips its own `new Function` probe, which the policy would report).
  await import('./pixiWithoutEval');
  const app = new PIXI.Application();
  await app.init({
    width: Math.max(1, container.clientWidth),
    height: Math.max(1, container.clientHeight),
    preference: 'webgl',
    backgroundAlpha: 0,
    antialias: true,
    autoStart: false,
    autoDensity: true,
    resolution: Math.min(2, window.devicePixelRatio || 1),
  });
  const rendererType = app.renderer.name === 'webgpu' ? 'pixi-webgpu' : app.renderer.name === 'webgl' ? 'pixi-webgl' : null;
  if (!rendererType) {
    app.destroy({ removeView: true });
    throw new Error(`no GPU renderer (${app.renderer.name})`);
  }
  const canvas = app.canvas as HTMLCanvasElement;
  canvas.style.width = '100%';
  canvas.style.height = '100%';
  canvas.style.display = 'block';
  container.appendChild(canvas);

  let rows = 1;
  let cols = 1;
  let interpolate = false;
  let pixels = new Uint8Array(4);
  const makeSource = () =>
    new PIXI.BufferImageSource({
      resource: pixels,
      width: cols,
      height: rows,
      format: 'rgba8unorm',
      scaleMode: interpolate ? 'linear' : 'nearest',
    });
  let source = makeSource();
  let texture = new PIXI.Texture({ source });
  const sprite = new PIXI.Sprite(texture);
  const lines = new PIXI.Graphics();
  app.stage.addChild(sprite);
  app.stage.addChild(lines);
  let last: { map: PreparedMap | null; settings: DrawSettings } | null = null;

  const drawLines = () => {
    lines.clear();
    const map = last?.map;
    if (!map || !last?.settings.contour) return;
    const sx = app.screen.width / map.cols;
    const sy = app.screen.height / map.rows;
    for (const seg of contourSegments(map)) {
      for (let i = 0; i < seg.length; i += 4) {
        lines.moveTo(seg[i] * sx, seg[i + 1] * sy).lineTo(seg[i + 2] * sx, seg[i + 3] * sy);
      }
    }
    lines.stroke({ width: 1.5, color: 0xffffff, alpha: 0.85 });
  };

  const layout = () => {
    sprite.width = app.screen.width;
    sprite.height = app.screen.height;
  };
  layout();
  app.render();

  let raf = 0;
  const renderSoon = () => {
    if (raf) return;
    raf = requestAnimationFrame(() => {
      raf = 0;
      app.render();
    });
  };

  const observer = new ResizeObserver(() => {
    app.renderer.resize(Math.max(1, container.clientWidth), Math.max(1, container.clientHeight));
    layout();
    drawLines();
    renderSoon();
  });
  observer.observe(container);

  return {
    kind: rendererType,
    draw(map, settings) {
      const shape = map ?? { rows, cols };
      if (shape.rows !== rows || shape.cols !== cols || settings.interpolate !== interpolate) {
        // A new map shape or filtering: a new texture once; later maps update this one in place.
        rows = shape.rows;
        cols = shape.cols;
        interpolate = settings.interpolate;
        pixels = new Uint8Array(rows * cols * 4);
        const old = texture;
        source = makeSource();
        texture = new PIXI.Texture({ source });
        sprite.texture = texture;
        old.destroy(true);
        layout();
      }
      paint(pixels, map, settings);
      source.update();
      last = { map, settings };
      drawLines();
      renderSoon();
    },
    destroy() {
      observer.disconnect();
      if (raf) cancelAnimationFrame(raf);
      app.destroy({ removeView: true }, { children: true, texture: true, textureSource: true });
    },
  };
}

function createCanvasRenderer(container: HTMLElement): HeatMapRenderer {
  const canvas = document.createElement('canvas');
  canvas.style.width = '100%';
  canvas.style.height = '100%';
  canvas.style.display = 'block';
  container.appendChild(canvas);
  const ctx = canvas.getContext('2d');
  const cells = document.createElement('canvas');
  const cellCtx = cells.getContext('2d');
  let last: { map: PreparedMap | null; settings: DrawSettings } | null = null;

  const repaint = () => {
    if (!ctx || !cellCtx || !last) return;
    const { map, settings } = last;
    const ratio = Math.min(2, window.devicePixelRatio || 1);
    canvas.width = Math.max(1, Math.round(container.clientWidth * ratio));
    canvas.height = Math.max(1, Math.round(container.clientHeight * ratio));
    const rows = map?.rows ?? 1;
    const cols = map?.cols ?? 1;
    cells.width = cols;
    cells.height = rows;
    const image = cellCtx.createImageData(cols, rows);
    paint(new Uint8Array(image.data.buffer), map, settings);
    cellCtx.putImageData(image, 0, 0);
    ctx.imageSmoothingEnabled = settings.interpolate;
    ctx.drawImage(cells, 0, 0, canvas.width, canvas.height);
    if (map && settings.contour) {
      const sx = canvas.width / cols;
      const sy = canvas.height / rows;
      ctx.strokeStyle = 'rgba(255, 255, 255, 0.85)';
      ctx.lineWidth = 1.5 * ratio;
      ctx.beginPath();
      for (const seg of contourSegments(map)) {
        for (let i = 0; i < seg.length; i += 4) {
          ctx.moveTo(seg[i] * sx, seg[i + 1] * sy);
          ctx.lineTo(seg[i + 2] * sx, seg[i + 3] * sy);
        }
      }
      ctx.stroke();
    }
  };
  const observer = new ResizeObserver(repaint);
  observer.observe(container);

  return {
    kind: 'canvas2d',
    draw(map, settings) {
      last = { map, settings };
      repaint();
    },
    destroy() {
      observer.disconnect();
      canvas.remove();
    },
  };
}
