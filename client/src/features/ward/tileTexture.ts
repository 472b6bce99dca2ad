//! A tile's map as the board's GPU shader reads it (pure, no pixi): the frame's cells packed into
//! RGBA texels (red the low byte, green the high byte of 2-byte cells), and the top of its colour
//! scale. Colouring happens on the GPU (`wardRenderer.ts`); here only the bytes move, and only when
//! the frame is a new one.

import { MIN_SCALE } from '../../lib/heatmap/palette';
import { colourScale } from '../../lib/heatmap/prepare';
import { DEFAULT_VIEW_OPTIONS } from '../../lib/heatmap/viewOptions';
import type { LiveFrame } from '../../lib/liveMaps';

export class TileTexture {
  rows = 0;
  cols = 0;
  /** rows × cols × 4 bytes. */
  texels = new Uint8Array(0);
  /** Top of the colour scale, in cell steps. */
  scale: number = MIN_SCALE[1];
  /** The frame drawn last (its seq and hub time), to skip a repeated one. */
  private drawn: { seq: number; hubTimeMs: number } | null = null;
  /** Uploads so far (what a repeated frame must not add to). */
  uploads = 0;

  /** Takes a frame; returns 'reshaped' when the texture must be recreated at a new size,
   * 'updated' when its texels changed, 'blank' when there is nothing to draw, and 'same' for the
   * frame already drawn. */
  take(frame: LiveFrame | undefined): 'reshaped' | 'updated' | 'blank' | 'same' {
    if (!frame || frame.blank || frame.rows <= 0 || frame.cols <= 0) {
      this.drawn = null;
      return 'blank';
    }
    if (this.drawn && this.drawn.seq === frame.seq && this.drawn.hubTimeMs === frame.hubTimeMs) return 'same';
    this.drawn = { seq: frame.seq, hubTimeMs: frame.hubTimeMs };
    const reshaped = frame.rows !== this.rows || frame.cols !== this.cols;
    if (reshaped) {
      this.rows = frame.rows;
      this.cols = frame.cols;
      this.texels = new Uint8Array(frame.rows * frame.cols * 4);
    }
    const n = frame.rows * frame.cols;
    const cells = frame.cells;
    const out = this.texels;
    let max = 0;
    if (frame.bytesPerCell === 2) {
      for (let i = 0; i < n; i++) {
        const lo = cells[i * 2];
        const hi = cells[i * 2 + 1];
        out[i * 4] = lo;
        out[i * 4 + 1] = hi;
        out[i * 4 + 3] = 255;
        const v = lo | (hi << 8);
        if (v > max) max = v;
      }
    } else {
      for (let i = 0; i < n; i++) {
        const v = cells[i];
        out[i * 4] = v;
        out[i * 4 + 1] = 0;
        out[i * 4 + 3] = 255;
        if (v > max) max = v;
      }
    }
    // The board uses the automatic scale of the live map (each frame's maximum, over a floor).
    this.scale = colourScale(max, frame.bytesPerCell, DEFAULT_VIEW_OPTIONS);
    this.uploads++;
    return reshaped ? 'reshaped' : 'updated';
  }
}

/** The value a texel stands for, as the shader reads it back (red + 256 × green). */
export const texelValue = (texels: Uint8Array, i: number): number => texels[i * 4] + 256 * texels[i * 4 + 1];
