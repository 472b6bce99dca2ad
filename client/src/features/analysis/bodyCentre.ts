//! The rehab/fitting body-centre result (spec §4): the hub grades the distance of the mean centre
//! of pressure from the target (Good < 2 cm, Bad < 5 cm, otherwise Uncomplete); the view colours
//! the grade green, orange or red and draws the CoP rings of radius 11, 18 and 25 cells.

export type BodyCentreQuality = 'Good' | 'Bad' | 'Uncomplete';

export const QUALITY_COLOUR: Readonly<Record<BodyCentreQuality, string>> = {
  Good: '#2e9d4f',
  Bad: '#f08c00',
  Uncomplete: '#d62828',
};

export const COP_RING_RADII = [11, 18, 25] as const;

export function qualityColour(quality: string): string {
  return QUALITY_COLOUR[(quality in QUALITY_COLOUR ? quality : 'Uncomplete') as BodyCentreQuality];
}
