//! Rehab page: the live map and a live centre-of-pressure plot with rings 11, 18 and 25.

import { useTranslation } from 'react-i18next';
import { oidOf } from '../../../lib/api';
import { CopPlot } from '../CopPlot';
import { DeviceLogTable } from '../DeviceLogTable';
import { DevicePageFrame, type DevicePageProps } from '../DevicePageFrame';
import { activeFloorOf, centreOfPressure } from '../frameMath';
import { LiveMapPanel } from '../LiveMapPanel';
import { useLiveHistory } from '../useLiveSample';

export function RehabPage({ device, info, createRenderer }: DevicePageProps) {
  const { t } = useTranslation();
  const id = oidOf(device._id) as string;
  const floor = activeFloorOf(info);
  const trail = useLiveHistory(id, (f) => centreOfPressure(f, floor));
  return (
    <DevicePageFrame device={device} info={info} live={[id]}>
      <div className="rehab-grid">
        <LiveMapPanel deviceId={id} createRenderer={createRenderer} />
        <section className="card cop-panel">
          <h2>{t('pages.rehab.copPlot')}</h2>
          {info.cellPitchCm ? <CopPlot trail={trail.map((s) => s.v)} cellPitchCm={info.cellPitchCm} /> : null}
        </section>
      </div>
      <DeviceLogTable deviceId={id} deviceName={device.name} info={info} />
    </DevicePageFrame>
  );
}
