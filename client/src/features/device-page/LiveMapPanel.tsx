//! The live map panel of a device: presence (PRESENCE / ABSENCE), streaming with its countdown, the
//! heat map (sized by the frames the hub sends) and its legend.

import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { deviceConfFamily } from '../../lib/devicesStore';
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
  const { t } = useTranslation();
  const conf = useAtomValue(deviceConfFamily(deviceId));
  return (
    <section className="map-panel card">
      <div className="map-toolbar">
        <PresencePanel deviceId={deviceId} />
        {toolbar}
        <StreamingControl deviceId={deviceId} functional={conf ? Boolean(conf.deviceFunctional) : null} />
      </div>
      <HeatMap deviceId={deviceId} createRenderer={createRenderer} />
      <div className="map-legend" aria-hidden="true">
        <span>{t('device.legendLow')}</span>
        <span className="map-legend-bar" />
        <span>{t('device.legendHigh')}</span>
      </div>
      {children}
    </section>
  );
}
