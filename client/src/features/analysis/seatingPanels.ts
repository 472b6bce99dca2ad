//! Seating plot panels (spec §2, §4): seven panels, six when the capture had no push-ups; at most
//! 4 expanded at once, a fifth expansion is refused with the info 'seatingPlots.maxGraphics'.

export const MAX_EXPANDED_PANELS = 4;

export type SeatingPanel =
  | 'activePoints'
  | 'laterality'
  | 'centerOfPressure'
  | 'contactArea'
  | 'maxPressure'
  | 'meanPressure'
  | 'pushUps';

const BASE_PANELS: readonly SeatingPanel[] = [
  'activePoints',
  'laterality',
  'centerOfPressure',
  'contactArea',
  'maxPressure',
  'meanPressure',
];

export function seatingPanels(hasPushUps: boolean): SeatingPanel[] {
  return hasPushUps ? [...BASE_PANELS, 'pushUps'] : [...BASE_PANELS];
}

export type ExpandOutcome = { expanded: SeatingPanel[]; refused: boolean };

/** Expands or collapses `panel`; expanding a fifth is refused and leaves the set unchanged. */
export function toggleExpanded(expanded: SeatingPanel[], panel: SeatingPanel): ExpandOutcome {
  if (expanded.includes(panel)) return { expanded: expanded.filter((p) => p !== panel), refused: false };
  if (expanded.length >= MAX_EXPANDED_PANELS) return { expanded, refused: true };
  return { expanded: [...expanded, panel], refused: false };
}
