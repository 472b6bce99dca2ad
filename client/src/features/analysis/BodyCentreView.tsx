//! The rehab / fitting body-centre result (spec §2, §4): the distance of the mean centre of
//! pressure from the target, graded by the hub (Good green, Bad orange, Uncomplete red), and the
//! map with the trace and the hub's CoP rings (11, 18, 25 cells) around the target, with the share
//! of the trace inside each.

import { useTranslation } from 'react-i18next';
import { qualityColour } from './bodyCentre';
import type { BodyCentreResult } from './engineResult';
import { ResultMap } from './ResultMap';
import type { Grid } from './record';
import { formatNumber } from '../../lib/format';
import type { PressureDisplay } from '../../lib/pressureUnits';

export function BodyCentreView({ grid, result, display }: { grid: Grid; result: BodyCentreResult; display?: PressureDisplay | null }) {
  const { t, i18n } = useTranslation();
  const quality = ['Good', 'Bad', 'Uncomplete'].includes(result.quality) ? result.quality : 'Uncomplete';
  return (
    <div className="result-body-centre" data-testid="result-body-centre">
      <div className="result-row">
        <ResultMap
          grid={grid}
          testId="body-centre-map"
          label={t('analysis.bodyCentre.map')}
          track={result.trace}
          rings={{ centre: result.target, radii: result.rings.map((r) => r.radius) }}
          markers={[{ id: 'meanCop', x: result.meanCenterOfPressure[0], y: result.meanCenterOfPressure[1], kind: 'cop', label: t('analysis.bodyCentre.meanCop') }]}
          display={display}
        />
        <div className="result-tiles">
          <div className="result-tile">
            <span>{t('analysis.bodyCentre.distance')}</span>
            <strong>{formatNumber(result.distanceCm, i18n.language)} cm</strong>
          </div>
          <div className="result-tile">
            <span>{t('analysis.bodyCentre.quality')}</span>
            <strong data-testid="body-centre-quality" data-quality={quality} style={{ color: qualityColour(quality) }}>
              {t(`analysis.bodyCentre.${quality}`)}
            </strong>
          </div>
          {result.rings.map((ring) => (
            <div className="result-tile" key={ring.radius}>
              <span>{t('analysis.bodyCentre.ring', { radius: ring.radius })}</span>
              <strong>{formatNumber(ring.share, i18n.language, 1)} %</strong>
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
