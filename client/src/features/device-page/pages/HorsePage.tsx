//! Sensing Horse page: the left and right saddle maps side by side, each from its sub-device (the
//! parent publishes no maps: even members are left, odd right, spec §3), each with its status
//! colour from the parent's `sides` and its contact surface in cm² (active cells × 2.5 cm × 2.5 cm,
//! spec §9); a plot panel of both sides' contact surface and mean pressure over time (spec §2).
//! Streaming is asked of the parent: the hub streams both sides or says why it cannot.

import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '../../../components/StatusBadge';
import { LineChart } from '../../../components/LineChart';
import { oidOf } from '../../../lib/api';
import { deviceConfFamily, deviceInfoFamily, deviceViewFamily } from '../../../lib/devicesStore';
import { formatNumber } from '../../../lib/format';
import { stepsToDisplay, usePressureDisplay } from '../../../lib/pressureUnits';
import { DevicePageFrame, type DevicePageProps } from '../DevicePageFrame';
import { hidesMapBelowScroll } from '../../../lib/deviceTypes';
import { ViewOptionsToolbar } from '../../view-options';
import { activeFloorOf, contactSurfaceCm2, meanActivePressure } from '../frameMath';
import { HeatMap } from '../HeatMap';
import { PresencePanel } from '../PresencePanel';
import { StreamingControl } from '../StreamingControl';
import { useLiveSample } from '../useLiveSample';
import { useSidesHistory } from '../useSidesHistory';

const SIDE_COLOURS = { left: '#2166cc', right: '#ea7a12' } as const;

/** Left (even index) and right (odd index) sub-device ids. */
export function horseSides(members: Array<string | { $oid: string }> | undefined): { left: string | null; right: string | null } {
  const ids = (members ?? []).map((m) => oidOf(m)).filter((m): m is string => m !== null);
  return { left: ids.find((_, i) => i % 2 === 0) ?? null, right: ids.find((_, i) => i % 2 === 1) ?? null };
}

function SideSurface({ deviceId, cellCm, activeFloor }: { deviceId: string; cellCm: number; activeFloor: number | null }) {
  const { t, i18n } = useTranslation();
  const surface = useLiveSample(deviceId, (f) => contactSurfaceCm2(f, cellCm, activeFloor));
  return (
    <div className="figure-tile" data-testid="contact-surface" data-value={surface ?? ''}>
      <span className="figure-label">{t('pages.seating.contactSurface')}</span>
      <span className="figure-value">{surface === null ? '—' : `${formatNumber(surface, i18n.resolvedLanguage ?? 'en', 0)} cm²`}</span>
    </div>
  );
}

export function HorsePage({ device, info, createRenderer }: DevicePageProps) {
  const { t } = useTranslation();
  const id = oidOf(device._id) as string;
  const view = useAtomValue(deviceViewFamily(id));
  const conf = useAtomValue(deviceConfFamily(id));
  const { left, right } = horseSides(device.system?.devices);
  const live = [left, right].filter((m): m is string => m !== null);
  const sideStatus = (side: 'left' | 'right') => view.sides?.find((s) => s.side === side)?.cardStatus ?? 'Offline';
  const cellCm = info.cellSizeCm ?? 2.5;
  // Pressures in the unit of the sides' own type (their frames are drawn), as the hub's table says.
  const sideDevice = useAtomValue(deviceInfoFamily(left ?? right ?? ''));
  const display = usePressureDisplay(sideDevice?.deviceType);
  // The sides' cells are active from their floor, which the horse's row carries (as it carries
  // their distance between points).
  const floor = activeFloorOf(info);
  const surfaces = useSidesHistory([left, right], (f) => contactSurfaceCm2(f, cellCm, floor));
  const pressures = useSidesHistory([left, right], (f) => {
    const steps = meanActivePressure(f, floor);
    if (steps === null) return null;
    return display ? stepsToDisplay(steps, display) : steps;
  });
  const series = (['left', 'right'] as const).map((side) => ({ label: t(`device.side.${side}`), color: SIDE_COLOURS[side] }));
  return (
    <DevicePageFrame device={device} info={info} live={live}>
      <section className="card map-panel">
        <div className="map-toolbar">
          <h2>{t('pages.horse.maps')}</h2>
          <StreamingControl deviceId={id} functional={conf ? Boolean(conf.deviceFunctional) : null} />
        </div>
        <ViewOptionsToolbar deviceType={sideDevice?.deviceType} />
        <div className="horse-maps">
          {(['left', 'right'] as const).map((side) => {
            const member = side === 'left' ? left : right;
            return (
              <div key={side} className="horse-side" data-testid={`horse-${side}`} data-status={sideStatus(side)}>
                <div className="horse-side-head">
                  <strong>{t(`device.side.${side}`)}</strong>
                  <StatusBadge status={sideStatus(side)} />
                </div>
                {member ? (
                  <>
                    <PresencePanel deviceId={member} />
                    <div className="figure-tiles">
                      <SideSurface deviceId={member} cellCm={cellCm} activeFloor={floor} />
                    </div>
                    <HeatMap deviceId={member} createRenderer={createRenderer} hideBelowScroll={hidesMapBelowScroll(info)} />
                  </>
                ) : (
                  <p className="muted">{t('pages.horse.noSide')}</p>
                )}
              </div>
            );
          })}
        </div>
      </section>
      <section className="card plot-panel" data-testid="plot-panel">
        <h2>{t('pages.horse.plots')}</h2>
        <LineChart
          label={t('pages.seating.contactSurface')}
          times={surfaces.map((s) => s.t)}
          values={[surfaces.map((s) => s.v[0]), surfaces.map((s) => s.v[1])]}
          series={series}
          unit="cm²"
          height={180}
          testId="surface-chart"
        />
        <LineChart
          label={t('pages.seating.meanPressure')}
          times={pressures.map((s) => s.t)}
          values={[pressures.map((s) => s.v[0]), pressures.map((s) => s.v[1])]}
          series={series}
          unit={display?.unit}
          height={180}
          testId="pressure-chart"
        />
      </section>
    </DevicePageFrame>
  );
}
