import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import en from '../../../public/local/en/translation.json';
import { analysisTypeKey } from './analysisTypeLabel';

describe('the name of an analysis kind', () => {
  it('names a bed\'s dynamic capture as pressure over time, a seat\'s as a seating analysis', async () => {
    const t = await i18next.createInstance().init({ lng: 'en', resources: { en: { translation: en } } });
    expect(t(analysisTypeKey('seatingDynamic', 'bed'))).toBe('Pressure over time');
    expect(t(analysisTypeKey('seatingDynamic', 'seating'))).toBe('Seating analysis');
    expect(t(analysisTypeKey('seatingDynamic', null))).toBe('Seating analysis');
    expect(t(analysisTypeKey('Static', 'bed'))).toBe(t('analysis.types.Static'));
  });
});
