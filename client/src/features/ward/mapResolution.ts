//! The resolution the board's map canvas is drawn at (pure). Each map is a grid of cells drawn
//! with nearest sampling, so it needs one canvas pixel per cell, not one per screen pixel: the
//! canvas is drawn at the lowest resolution that still gives every map on screen at least one
//! pixel per cell (never above the screen's), and the browser scales it up pixelated. A wall's
//! 48 × 48 maps in 96-pixel slots need half the screen's resolution: a quarter of the pixels to
//! fill and, without a GPU, to copy from WebGL to the compositor on every drawn frame.

/** Resolutions are kept to steps of 1/8, so a slot one pixel wider does not resize the canvas. */
export const RESOLUTION_STEP = 1 / 8;
/** Never below this, however large the slots (a canvas scaled up 8× is still sharp per cell). */
export const MIN_RESOLUTION = 1 / 8;

export interface MapOnScreen {
  /** The slot's size in CSS pixels. */
  width: number;
  height: number;
  /** The map's cells. */
  rows: number;
  cols: number;
}

/** The canvas resolution (canvas pixels per CSS pixel) for these maps on a screen of `devicePixelRatio`. */
export function mapResolution(maps: Iterable<MapOnScreen>, devicePixelRatio: number): number {
  const screen = Math.max(MIN_RESOLUTION, devicePixelRatio);
  let needed = MIN_RESOLUTION;
  for (const m of maps) {
    if (m.width <= 0 || m.height <= 0 || m.rows <= 0 || m.cols <= 0) continue;
    needed = Math.max(needed, m.cols / m.width, m.rows / m.height);
  }
  const stepped = Math.ceil(needed / RESOLUTION_STEP - 1e-9) * RESOLUTION_STEP;
  return Math.min(screen, stepped);
}
