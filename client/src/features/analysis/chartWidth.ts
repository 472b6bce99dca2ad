//! Chart width (spec §9): 500 px on screens 768 px and wider, otherwise 70 % of the window.

export const WIDE_SCREEN_PX = 768;
export const WIDE_CHART_PX = 500;

export function chartWidth(windowWidth: number): number {
  return windowWidth >= WIDE_SCREEN_PX ? WIDE_CHART_PX : Math.round(windowWidth * 0.7);
}
