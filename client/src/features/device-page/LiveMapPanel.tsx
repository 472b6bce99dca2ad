//! The live map panel of a device: presence (PRESENCE / ABSENCE), streaming with its countdown, the
//! pressure-view options and the heat map (sized by the frames the hub sends).

import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { hidesMapBelowScroll, useDeviceType } from '../../lib/deviceTypes';
import { deviceConfFamily, deviceViewFamily } from '../../lib/devicesStore';
import { ViewOptionsToolbar } from '../view-options';
import { HeatMap, type RendererFactory } from './HeatMap';
import { PresencePanel } from './PresencePanel';
import { StreamingControl } from './StreamingControl';

export function LiveMapPanel({
  deviceId,
  createRenderer,
  toolbar,
  children,
}: {
  deviceId: string;
  createRenderer?: RendererFactory;
  toolbar?: ReactNode;
  children?: ReactNode;
}) {
  const conf = useAtomValue(deviceConfFamily(deviceId));
  const deviceType = useAtomValue(deviceViewFamily(deviceId)).deviceType;
  const info = useDeviceType(deviceType);
  return (
    <section className="map-panel card">
      <div className="map-toolbar">
        <PresencePanel deviceId={deviceId} />
        {toolbar}
        <StreamingControl deviceId={deviceId} functional={conf ? Boolean(conf.deviceFunctional) : null} />
      </div>
      <ViewOptionsToolbar deviceType={deviceType} />
      <HeatMap deviceId={deviceId} createRenderer={createRenderer} hideBelowScroll={hidesMapBelowScroll(info)} />
      {children}
    </section>
  );
}
