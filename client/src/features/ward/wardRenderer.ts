//! One WebGL canvas for every tile's live map (issue 23: browsers allow about 16 live WebGL
//! contexts, so one canvas per tile cannot scale). A pixi.js v8 application draws into a canvas
//! fixed over the viewport below the top bar (its host's box: the page sets the host's top to the
//! bar's height), under the alarm banner and transparent to the pointer. Not under the sticky top
//! bar: Chromium's compositor then dropped a band of the canvas as tall as the bar at the canvas's
//! bottom (the phone board's lowest map slot stayed dark, with no text: "Chair 106");
//! each tile registers its map's slot (an empty element of the tile) and gets a mesh placed over
//! it. Each tile has one texture, updated only when its device sends a new frame (`TileTexture`);
//! the colour map runs on the GPU: the fragment shader reads the cell value from the texture,
//! scales it and looks its colour up in a 256 × 1 palette texture (the live map's palettes,
//! `lib/heatmap/palettes`). Frames reach it from the live-map store, never through React.
//!
//! Cost per drawn frame (docs/performance.md, issue 23): the canvas is drawn at the resolution
//! the maps' cells need, not the screen's (`mapResolution.ts`), because without a GPU Chromium
//! copies the whole WebGL canvas to its software compositor on the main thread for every frame
//! drawn; the canvas is drawn at most 20 times a second (`drawPacing.ts`: every frame of a
//! 10 Hz device is still shown, at most 50 ms later; a scroll or resize draws at once); and the
//! slots are measured again only when the layout may have changed (`relayout`, a scroll, a
//! resize, a map appearing), not on every frame.

import type { LiveFrame, LiveMapStore } from '../../lib/liveMaps';
import { drawDue } from './drawPacing';
import { mapResolution } from './mapResolution';
import { TileTexture } from './tileTexture';

export interface WardMapRenderer {
  readonly kind: 'pixi-webgl' | 'none';
  /** Draws `deviceId`'s live map over `slot` until the returned function is called. */
  attach(deviceId: string, slot: HTMLElement): () => void;
  /** The tiles moved (order, size, scrolling): place the maps again at the next frame. */
  relayout(): void;
  destroy(): void;
}

export type WardRendererFactory = (host: HTMLElement, liveMaps: LiveMapStore, lut: Uint8Array) => Promise<WardMapRenderer>;

const VERTEX = `
in vec2 aPosition;
in vec2 aUV;
out vec2 vUV;
uniform mat3 uProjectionMatrix;
uniform mat3 uWorldTransformMatrix;
uniform mat3 uTransformMatrix;
void main() {
  mat3 mvp = uProjectionMatrix * uWorldTransformMatrix * uTransformMatrix;
  gl_Position = vec4((mvp * vec3(aPosition, 1.0)).xy, 0.0, 1.0);
  vUV = aUV;
}`;

// Cell value = red + 256 × green (bytes); its colour is the palette's entry for value / scale.
const FRAGMENT = `
in vec2 vUV;
out vec4 finalColor;
uniform sampler2D uCells;
uniform sampler2D uPalette;
uniform float uScale;
void main() {
  vec4 texel = texture(uCells, vUV);
  float value = texel.r * 255.0 + texel.g * 255.0 * 256.0;
  float t = clamp(value / max(uScale, 1.0), 0.0, 1.0);
  float index = floor(t * 255.0 + 0.5);
  finalColor = texture(uPalette, vec2((index + 0.5) / 256.0, 0.5));
}`;

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Where a slot (its viewport box) is on the canvas (whose viewport box is `canvas`), for the mesh
 * over it; null when it is off the canvas. */
export function placement(rect: Box, canvas: Box) {
  const left = rect.left - canvas.left;
  const top = rect.top - canvas.top;
  if (rect.width <= 0 || rect.height <= 0) return null;
  if (left + rect.width <= 0 || top + rect.height <= 0 || left >= canvas.width || top >= canvas.height) return null;
  return { x: left, y: top, width: rect.width, height: rect.height };
}

export const createWardRenderer: WardRendererFactory = async (host, liveMaps, lut) => {
  const PIXI = await import('pixi.js');
  // The hub's Content-Security-Policy allows no eval: pixi.js's eval-free shader and uniform code.
  await import('../../lib/heatmap/pixiWithoutEval');
  const app = new PIXI.Application();
  await app.init({
    resizeTo: host,
    preference: 'webgl',
    backgroundAlpha: 0,
    antialias: false,
    autoStart: false,
    autoDensity: true,
    resolution: Math.min(2, window.devicePixelRatio || 1),
  });
  if (app.renderer.name !== 'webgl') {
    app.destroy({ removeView: true });
    throw new Error(`no WebGL renderer (${app.renderer.name})`);
  }
  // The maps take no pointer input (the canvas is transparent to it): without a target element,
  // pixi's event system stops the ticker it would otherwise run on every animation frame.
  app.renderer.events.setTargetElement(null as unknown as HTMLElement);
  const canvas = app.canvas as HTMLCanvasElement;
  canvas.className = 'ward-canvas';
  canvas.dataset.testid = 'ward-canvas';
  host.appendChild(canvas);

  const palette = new PIXI.BufferImageSource({ resource: lut, width: 256, height: 1, format: 'rgba8unorm', scaleMode: 'nearest' });
  const geometry = new PIXI.MeshGeometry({
    positions: new Float32Array([0, 0, 1, 0, 1, 1, 0, 1]),
    uvs: new Float32Array([0, 0, 1, 0, 1, 1, 0, 1]),
    indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
  });
  const glProgram = PIXI.GlProgram.from({ vertex: VERTEX, fragment: FRAGMENT, name: 'ward-map' });

  interface Tile {
    slot: HTMLElement;
    texture: TileTexture;
    source: InstanceType<typeof PIXI.BufferImageSource> | null;
    mesh: InstanceType<typeof PIXI.Mesh> | null;
    uniforms: InstanceType<typeof PIXI.UniformGroup>;
    off: () => void;
  }
  const tiles = new Set<Tile>();
  let raf = 0;
  let destroyed = false;
  /** Whether the slots may have moved since they were last measured. */
  let layoutDirty = true;

  const place = () => {
    const box = host.getBoundingClientRect();
    const area = { left: box.left, top: box.top, width: Math.round(box.width), height: Math.round(box.height) };
    const onScreen: Array<{ width: number; height: number; rows: number; cols: number }> = [];
    for (const tile of tiles) {
      if (!tile.mesh) continue;
      const at = tile.slot.dataset.blank === 'true' ? null : placement(tile.slot.getBoundingClientRect(), area);
      tile.mesh.visible = at !== null;
      if (at) {
        tile.mesh.position.set(at.x, at.y);
        tile.mesh.scale.set(at.width, at.height);
        onScreen.push({ width: at.width, height: at.height, rows: tile.texture.rows, cols: tile.texture.cols });
      }
    }
    const resolution = mapResolution(onScreen, window.devicePixelRatio || 1);
    // The host's size follows the window and the top bar's height (which wraps on a phone).
    if (resolution !== app.renderer.resolution || area.width !== app.renderer.screen.width || area.height !== app.renderer.screen.height) {
      app.renderer.resize(area.width, area.height, resolution);
      canvas.dataset.resolution = String(resolution);
    }
  };
  let lastDraw = -Infinity;
  let draws = 0;
  const draw = (time: number) => {
    // Until the next draw is due, wait for a later animation frame (a moved layout draws at once).
    if (!drawDue(time, lastDraw, layoutDirty)) {
      raf = requestAnimationFrame(draw);
      return;
    }
    raf = 0;
    lastDraw = time;
    if (layoutDirty) {
      layoutDirty = false;
      place();
    }
    app.render();
    canvas.dataset.draws = String(++draws);
  };
  const renderSoon = () => {
    if (raf || destroyed) return;
    raf = requestAnimationFrame(draw);
  };
  const relayout = () => {
    layoutDirty = true;
    renderSoon();
  };

  const show = (tile: Tile, frame: LiveFrame | undefined) => {
    const change = tile.texture.take(frame);
    if (change === 'same') return;
    const blank = String(change === 'blank');
    if (tile.slot.dataset.blank !== blank) {
      // A map appearing or going: the slot's note shows or hides, and this map is placed anew.
      tile.slot.dataset.blank = blank;
      layoutDirty = true;
    }
    if (change === 'blank') {
      if (tile.mesh) tile.mesh.visible = false;
      renderSoon();
      return;
    }
    tile.slot.dataset.seq = String(frame?.seq ?? '');
    tile.slot.dataset.uploads = String(tile.texture.uploads);
    if (change === 'reshaped' || !tile.source || !tile.mesh) {
      // A new shape: a new texture once; later frames of this shape update it in place.
      tile.mesh?.destroy();
      tile.source?.destroy();
      tile.source = new PIXI.BufferImageSource({
        resource: tile.texture.texels,
        width: tile.texture.cols,
        height: tile.texture.rows,
        format: 'rgba8unorm',
        scaleMode: 'nearest',
      });
      const shader = new PIXI.Shader({ glProgram, resources: { uCells: tile.source, uPalette: palette, wardUniforms: tile.uniforms } });
      tile.mesh = new PIXI.Mesh({ geometry, shader });
      app.stage.addChild(tile.mesh);
      layoutDirty = true;
    } else {
      tile.source.update();
    }
    tile.uniforms.uniforms.uScale = tile.texture.scale;
    renderSoon();
  };

  const onViewport = relayout;
  window.addEventListener('scroll', onViewport, { passive: true });
  window.addEventListener('resize', onViewport);

  return {
    kind: 'pixi-webgl',
    attach(deviceId, slot) {
      const tile: Tile = {
        slot,
        texture: new TileTexture(),
        source: null,
        mesh: null,
        uniforms: new PIXI.UniformGroup({ uScale: { value: 64, type: 'f32' } }),
        off: () => {},
      };
      tiles.add(tile);
      slot.dataset.blank = 'true';
      layoutDirty = true;
      tile.off = liveMaps.subscribe(deviceId, (frame) => show(tile, frame));
      show(tile, liveMaps.get(deviceId));
      return () => {
        tile.off();
        tiles.delete(tile);
        tile.mesh?.destroy();
        tile.source?.destroy();
        relayout();
      };
    },
    relayout,
    destroy() {
      destroyed = true;
      if (raf) cancelAnimationFrame(raf);
      window.removeEventListener('scroll', onViewport);
      window.removeEventListener('resize', onViewport);
      for (const tile of tiles) tile.off();
      tiles.clear();
      app.destroy({ removeView: true }, { children: true, texture: true, textureSource: true });
    },
  };
};
