//! The rehab/fitting body-centre result (spec §4): the hub grades the distance of the mean centre
//! of pressure from the target (Good < 2 cm, Bad < 5 cm, otherwise Uncomplete); the view colours
//! the grade green, orange or red. The CoP rings (11, 18, 25 cells) come with the result too.

export type BodyCentreQuality = 'Good' | 'Bad' | 'Uncomplete';

export const QUALITY_COLOUR: Readonly<Record<BodyCentreQuality, string>> = {
  Good: '#2e9d4f',
  Bad: '#f08c00',
  Uncomplete: '#d62828',
};

export function qualityColour(quality: string): string {
  return QUALITY_COLOUR[(quality in QUALITY_COLOUR ? quality : 'Uncomplete') as BodyCentreQuality];
}
