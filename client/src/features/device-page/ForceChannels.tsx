//! Four force-channel tiles (0–4095, spec §9) and their sum, from a force device's live frames.
//! The channels have no calibration in newtons or kilograms, so they are stated as what they are:
//! counts of the 0–4095 scale (docs/decisions.md, "Units").

import { useTranslation } from 'react-i18next';
import type { ForceReading } from './frameMath';
import { formatNumber } from '../../lib/format';

/** Spec §9: force mat scale 0–4095. */
export const FORCE_CHANNEL_MAX = 4095;

export function ForceChannels({ reading }: { reading: ForceReading | null }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const channels = reading?.channels ?? [0, 0, 0, 0];
  return (
    <div className="force-tiles" data-testid="force-tiles" data-live={reading !== null}>
      {channels.map((v, i) => (
        <div key={i} className="figure-tile force-tile" data-testid="force-channel" data-value={v}>
          <span className="figure-label">{t('pages.force.channel', { n: i + 1 })}</span>
          <span className="figure-value">{reading ? formatNumber(v, lng, 0) : '—'}</span>
          <span className="figure-unit">{t('units.readingScale')}</span>
          <span className="force-bar" aria-hidden="true">
            <span style={{ width: `${Math.min(100, (v / FORCE_CHANNEL_MAX) * 100)}%` }} />
          </span>
        </div>
      ))}
      <div className="figure-tile force-total" data-testid="force-total" data-value={reading?.total ?? 0}>
        <span className="figure-label">{t('pages.force.total')}</span>
        <span className="figure-value">{reading ? formatNumber(reading.total, lng, 0) : '—'}</span>
        <span className="figure-unit">{t('units.reading')}</span>
      </div>
    </div>
  );
}
