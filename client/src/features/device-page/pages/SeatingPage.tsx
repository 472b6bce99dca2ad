//! Seating IoT / XL page: the live map, the contact surface in cm² (active cells × the type's
//! point spacing squared, spec §9), a plot panel of contact surface and mean pressure over the last
//! 350 samples, and the device log.

import { useTranslation } from 'react-i18next';
import { LineChart } from '../../../components/LineChart';
import { oidOf } from '../../../lib/api';
import { AlarmTable } from '../AlarmTable';
import { DeviceLogTable } from '../DeviceLogTable';
import { DevicePageFrame, type DevicePageProps } from '../DevicePageFrame';
import { formatNumber } from '../../../lib/format';
import { activeFloorOf, contactSurfaceCm2, meanActivePressure } from '../frameMath';
import { LiveMapPanel } from '../LiveMapPanel';
import { useLiveHistory, useLiveSample } from '../useLiveSample';
import { stepsToDisplay, usePressureDisplay } from '../../../lib/pressureUnits';

export function SeatingPage({ device, info, createRenderer }: DevicePageProps) {
  const { t, i18n } = useTranslation();
  const id = oidOf(device._id) as string;
  const cell = info.cellSizeCm ?? 1;
  const floor = activeFloorOf(info);
  const surface = useLiveSample(id, (f) => contactSurfaceCm2(f, cell, floor));
  const history = useLiveHistory(id, (f) => {
    const area = contactSurfaceCm2(f, cell, floor);
    const mean = meanActivePressure(f, floor);
    return area === null || mean === null ? null : [area, mean];
  });
  const kind = t(`deviceTypes.${device.deviceType}`, { defaultValue: device.deviceType });
  const display = usePressureDisplay(device.deviceType);
  return (
    <DevicePageFrame device={device} info={info} live={[id]}>
      <LiveMapPanel deviceId={id} createRenderer={createRenderer}>
        <div className="figure-tiles">
          <div className="figure-tile" data-testid="contact-surface" data-value={surface ?? ''}>
            <span className="figure-label">{t('pages.seating.contactSurface')}</span>
            <span className="figure-value">
              {surface === null ? '—' : `${formatNumber(surface, i18n.resolvedLanguage ?? 'en', 0)} cm²`}
            </span>
          </div>
        </div>
      </LiveMapPanel>
      <section className="card plot-panel" data-testid="plot-panel">
        <h2>{t('pages.seating.plots')}</h2>
        <LineChart
          label={t('pages.seating.contactSurface')}
          times={history.map((h) => h.t)}
          values={[history.map((h) => h.v[0])]}
          series={[{ label: t('pages.seating.contactSurface'), color: '#2166cc' }]}
          unit="cm²"
          height={180}
          testId="surface-chart"
        />
        <LineChart
          label={t('pages.seating.meanPressure')}
          times={history.map((h) => h.t)}
          values={[history.map((h) => (display ? stepsToDisplay(h.v[1], display) : h.v[1]))]}
          series={[{ label: t('pages.seating.meanPressure'), color: '#ea7a12' }]}
          unit={display?.unit}
          height={180}
          testId="pressure-chart"
        />
      </section>
      <DeviceLogTable deviceId={id} deviceName={device.name} info={info} />
      {info.repositioningClock ? <AlarmTable deviceId={id} kindLabel={kind} /> : null}
    </DevicePageFrame>
  );
}
