//! The live heat-map renderer: a pixi.js v8 sprite whose texture (cols × rows RGBA texels) is
//! updated in place from each frame, with bilinear filtering for a smooth map. Where WebGL is not
//! available it falls back to a 2D canvas with the same typed-array pass.

import type { LiveFrame } from '../liveMaps';
import { fillBlank, fillRgba } from './palette';

export interface HeatMapRenderer {
  readonly kind: 'pixi-webgl' | 'pixi-webgpu' | 'canvas2d';
  /** Draws a frame; `undefined` or a blank frame clears the map. */
  draw(frame: LiveFrame | undefined): void;
  destroy(): void;
}

interface Size {
  rows: number;
  cols: number;
}

/** Creates the renderer inside `container` (which it fills). */
export async function createHeatMapRenderer(container: HTMLElement, initial: Size): Promise<HeatMapRenderer> {
  try {
    return await createPixiRenderer(container, initial);
  } catch (err) {
    console.warn('pixi.js renderer unavailable, using a 2D canvas', err);
    return createCanvasRenderer(container, initial);
  }
}

async function createPixiRenderer(container: HTMLElement, initial: Size): Promise<HeatMapRenderer> {
  const PIXI = await import('pixi.js');
  const app = new PIXI.Application();
  const width = Math.max(1, container.clientWidth);
  const height = Math.max(1, container.clientHeight);
  await app.init({
    width,
    height,
    preference: 'webgl',
    backgroundAlpha: 0,
    antialias: false,
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

  let size: Size = { rows: Math.max(1, initial.rows), cols: Math.max(1, initial.cols) };
  let pixels = new Uint8Array(size.rows * size.cols * 4);
  fillBlank(pixels);
  const makeSource = () =>
    new PIXI.BufferImageSource({
      resource: pixels,
      width: size.cols,
      height: size.rows,
      format: 'rgba8unorm',
      scaleMode: 'linear',
    });
  let source = makeSource();
  let texture = new PIXI.Texture({ source });
  const sprite = new PIXI.Sprite(texture);
  app.stage.addChild(sprite);

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
    const w = Math.max(1, container.clientWidth);
    const h = Math.max(1, container.clientHeight);
    app.renderer.resize(w, h);
    layout();
    renderSoon();
  });
  observer.observe(container);

  return {
    kind: rendererType,
    draw(frame) {
      if (frame && !frame.blank && (frame.rows !== size.rows || frame.cols !== size.cols)) {
        // A new map size: build a new texture once; later frames update this one in place.
        size = { rows: frame.rows, cols: frame.cols };
        pixels = new Uint8Array(size.rows * size.cols * 4);
        const old = texture;
        source = makeSource();
        texture = new PIXI.Texture({ source });
        sprite.texture = texture;
        old.destroy(true);
        layout();
      }
      if (!frame || frame.blank) fillBlank(pixels);
      else fillRgba(frame, pixels);
      source.update();
      renderSoon();
    },
    destroy() {
      observer.disconnect();
      if (raf) cancelAnimationFrame(raf);
      app.destroy({ removeView: true }, { children: true, texture: true, textureSource: true });
    },
  };
}

function createCanvasRenderer(container: HTMLElement, initial: Size): HeatMapRenderer {
  const canvas = document.createElement('canvas');
  canvas.style.width = '100%';
  canvas.style.height = '100%';
  canvas.style.display = 'block';
  canvas.style.imageRendering = 'auto';
  container.appendChild(canvas);
  const ctx = canvas.getContext('2d');
  let size: Size = { rows: Math.max(1, initial.rows), cols: Math.max(1, initial.cols) };
  let image: ImageData | null = null;
  const ensure = () => {
    canvas.width = size.cols;
    canvas.height = size.rows;
    image = ctx ? ctx.createImageData(size.cols, size.rows) : null;
  };
  ensure();
  const paint = (frame: LiveFrame | undefined) => {
    if (!ctx || !image) return;
    const px = new Uint8Array(image.data.buffer);
    if (!frame || frame.blank) fillBlank(px);
    else fillRgba(frame, px);
    ctx.putImageData(image, 0, 0);
  };
  paint(undefined);
  return {
    kind: 'canvas2d',
    draw(frame) {
      if (frame && !frame.blank && (frame.rows !== size.rows || frame.cols !== size.cols)) {
        size = { rows: frame.rows, cols: frame.cols };
        ensure();
      }
      paint(frame);
    },
    destroy() {
      canvas.remove();
    },
  };
}
