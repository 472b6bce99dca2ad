//! The 3-D view: the live map as a lit surface on the GPU with three.js (one vertex per cell of the
//! frame's own rows × cols, height and colour from the pressure), turned with the mouse (orbit
//! controls). This module and three.js are loaded only when the 3-D view is first opened.
//!
//! Scene coordinates follow the layout settings' camera (Plotly's convention: z up, the scene a
//! unit box round the origin): the surface spans x and y within −0.5…0.5 keeping the map's aspect,
//! heights run from −0.25 (no pressure) to 0.25 (the top of the colour scale), and the camera sits
//! at `center + eye`.

import {
  AmbientLight,
  BufferAttribute,
  BufferGeometry,
  Color,
  DirectionalLight,
  DoubleSide,
  Float32BufferAttribute,
  LineBasicMaterial,
  LineLoop,
  Mesh,
  MeshLambertMaterial,
  PerspectiveCamera,
  Scene,
  SRGBColorSpace,
  WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import type { PreparedMap } from './prepare';
import type { DrawSettings, HeatMapRenderer, RendererRequest } from './renderer';
import type { CameraPosition } from './viewOptions';

/** Height of the floor (no pressure); the top of the scale is at −FLOOR. */
export const FLOOR = -0.25;

/** Half extents of the surface in x and y for a rows × cols map (the longer side spans −0.5…0.5). */
export function surfaceExtent(rows: number, cols: number): { x: number; y: number } {
  const longest = Math.max(rows, cols, 1);
  return { x: (0.5 * cols) / longest, y: (0.5 * rows) / longest };
}

/** Height of a value on the surface: the floor at 0, −floor at the top of the scale (saturating). */
export const surfaceHeight = (value: number, scale: number): number =>
  FLOOR + 2 * -FLOOR * Math.min(1, Math.max(0, scale > 0 ? value / scale : 0));

/** Vertex positions (x, y, z per cell), row 0 at the far (+y) edge, column 0 at −x. */
export function surfacePositions(map: Pick<PreparedMap, 'rows' | 'cols' | 'values' | 'scale'> | null, rows: number, cols: number, out: Float32Array): void {
  const ext = surfaceExtent(rows, cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const i = r * cols + c;
      out[i * 3] = cols > 1 ? -ext.x + (2 * ext.x * c) / (cols - 1) : 0;
      out[i * 3 + 1] = rows > 1 ? ext.y - (2 * ext.y * r) / (rows - 1) : 0;
      out[i * 3 + 2] = map ? surfaceHeight(map.values[i], map.scale) : FLOOR;
    }
  }
}

/** Two triangles per square between four neighbouring cells. */
function gridIndices(rows: number, cols: number): number[] {
  const idx: number[] = [];
  for (let r = 0; r + 1 < rows; r++) {
    for (let c = 0; c + 1 < cols; c++) {
      const a = r * cols + c;
      const b = a + 1;
      const d = a + cols;
      const e = d + 1;
      idx.push(a, d, b, b, d, e);
    }
  }
  return idx;
}

/** The palette in linear RGB (three.js lights in linear space), cached per table. */
const linearLuts = new WeakMap<Uint8Array, Float32Array>();
function linearLut(lut: Uint8Array): Float32Array {
  let lin = linearLuts.get(lut);
  if (!lin) {
    lin = new Float32Array(256 * 3);
    const c = new Color();
    for (let i = 0; i < 256; i++) {
      c.setRGB(lut[i * 4] / 255, lut[i * 4 + 1] / 255, lut[i * 4 + 2] / 255, SRGBColorSpace);
      lin[i * 3] = c.r;
      lin[i * 3 + 1] = c.g;
      lin[i * 3 + 2] = c.b;
    }
    linearLuts.set(lut, lin);
  }
  return lin;
}

const toCamera = (p: { x: number; y: number; z: number }) => ({ x: p.x, y: p.y, z: p.z });

export async function createSurfaceRenderer(container: HTMLElement, request: RendererRequest): Promise<HeatMapRenderer> {
  const renderer = new WebGLRenderer({ antialias: true, alpha: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
  const width = () => Math.max(1, container.clientWidth);
  const height = () => Math.max(1, container.clientHeight);
  renderer.setSize(width(), height(), false);
  const canvas = renderer.domElement;
  canvas.style.width = '100%';
  canvas.style.height = '100%';
  canvas.style.display = 'block';
  container.appendChild(canvas);

  const scene = new Scene();
  scene.add(new AmbientLight(0xffffff, 1.1));
  const sun = new DirectionalLight(0xffffff, 2.2);
  sun.position.set(0.6, 0.8, 2);
  scene.add(sun);

  const cam: CameraPosition = request.camera;
  const camera = new PerspectiveCamera(30, width() / height(), 0.01, 100);
  camera.up.set(cam.up.x, cam.up.y, cam.up.z);
  camera.position.set(cam.center.x + cam.eye.x, cam.center.y + cam.eye.y, cam.center.z + cam.eye.z);
  const controls = new OrbitControls(camera, canvas);
  controls.target.set(cam.center.x, cam.center.y, cam.center.z);
  controls.enableDamping = false;
  controls.update();

  const material = new MeshLambertMaterial({ vertexColors: true, side: DoubleSide, flatShading: true });
  let rows = 0;
  let cols = 0;
  let geometry = new BufferGeometry();
  const mesh = new Mesh(geometry, material);
  scene.add(mesh);
  const frame = new LineLoop(new BufferGeometry(), new LineBasicMaterial({ color: 0x8a94a6 }));
  scene.add(frame);

  const render = () => renderer.render(scene, camera);
  controls.addEventListener('change', render);
  controls.addEventListener('end', () => {
    request.onCamera?.({
      up: toCamera(camera.up),
      center: toCamera(controls.target),
      eye: toCamera(camera.position.clone().sub(controls.target)),
    });
  });

  const reshape = (r: number, c: number) => {
    rows = r;
    cols = c;
    geometry.dispose();
    geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(new Float32Array(r * c * 3), 3));
    geometry.setAttribute('color', new BufferAttribute(new Float32Array(r * c * 3), 3));
    geometry.setIndex(gridIndices(r, c));
    mesh.geometry = geometry;
    const ext = surfaceExtent(r, c);
    frame.geometry.dispose();
    frame.geometry = new BufferGeometry();
    frame.geometry.setAttribute(
      'position',
      new Float32BufferAttribute([-ext.x, -ext.y, FLOOR, ext.x, -ext.y, FLOOR, ext.x, ext.y, FLOOR, -ext.x, ext.y, FLOOR], 3),
    );
  };
  reshape(2, 2);

  const observer = new ResizeObserver(() => {
    renderer.setSize(width(), height(), false);
    camera.aspect = width() / height();
    camera.updateProjectionMatrix();
    render();
  });
  observer.observe(container);

  return {
    kind: 'three-webgl',
    draw(map: PreparedMap | null, settings: DrawSettings) {
      if (map && (map.rows !== rows || map.cols !== cols)) reshape(map.rows, map.cols);
      const position = geometry.getAttribute('position') as BufferAttribute;
      const colour = geometry.getAttribute('color') as BufferAttribute;
      surfacePositions(map, rows, cols, position.array as Float32Array);
      const lin = linearLut(settings.lut);
      const colours = colour.array as Float32Array;
      for (let i = 0; i < rows * cols; i++) {
        const t = map ? Math.min(1, Math.max(0, map.values[i] / (map.scale || 1))) : 0;
        const k = Math.round(t * 255) * 3;
        colours[i * 3] = lin[k];
        colours[i * 3 + 1] = lin[k + 1];
        colours[i * 3 + 2] = lin[k + 2];
      }
      position.needsUpdate = true;
      colour.needsUpdate = true;
      geometry.computeVertexNormals();
      geometry.computeBoundingSphere();
      if (material.flatShading === settings.interpolate) {
        material.flatShading = !settings.interpolate;
        material.needsUpdate = true;
      }
      render();
    },
    destroy() {
      observer.disconnect();
      controls.dispose();
      geometry.dispose();
      frame.geometry.dispose();
      material.dispose();
      renderer.dispose();
      // Give the WebGL context back at once: switching views must not pile up contexts.
      renderer.forceContextLoss();
      canvas.remove();
    },
  };
}
