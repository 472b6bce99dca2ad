//! Sensing Horse page: the left and right saddle maps side by side, each from its sub-device (the
//! parent publishes no maps: even members are left, odd right, spec §3), each with its status
//! colour from the parent's `sides`. Streaming is asked of the parent (both sides).

import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '../../../components/StatusBadge';
import { oidOf } from '../../../lib/api';
import { deviceConfFamily, deviceViewFamily } from '../../../lib/devicesStore';
import { DevicePageFrame, type DevicePageProps } from '../DevicePageFrame';
import { hidesMapBelowScroll } from '../../../lib/deviceTypes';
import { ViewOptionsToolbar } from '../../view-options';
import { HeatMap } from '../HeatMap';
import { PresencePanel } from '../PresencePanel';
import { StreamingControl } from '../StreamingControl';

/** Left (even index) and right (odd index) sub-device ids. */
export function horseSides(members: Array<string | { $oid: string }> | undefined): { left: string | null; right: string | null } {
  const ids = (members ?? []).map((m) => oidOf(m)).filter((m): m is string => m !== null);
  return { left: ids.find((_, i) => i % 2 === 0) ?? null, right: ids.find((_, i) => i % 2 === 1) ?? null };
}

export function HorsePage({ device, info, createRenderer }: DevicePageProps) {
  const { t } = useTranslation();
  const id = oidOf(device._id) as string;
  const view = useAtomValue(deviceViewFamily(id));
  const conf = useAtomValue(deviceConfFamily(id));
  const { left, right } = horseSides(device.system?.devices);
  const live = [left, right].filter((m): m is string => m !== null);
  const sideStatus = (side: 'left' | 'right') => view.sides?.find((s) => s.side === side)?.cardStatus ?? 'Offline';
  return (
    <DevicePageFrame device={device} info={info} live={live}>
      <section className="card map-panel">
        <div className="map-toolbar">
          <h2>{t('pages.horse.maps')}</h2>
          <StreamingControl deviceId={id} functional={conf ? Boolean(conf.deviceFunctional) : null} />
        </div>
        <ViewOptionsToolbar />
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
    </DevicePageFrame>
  );
}
