//! /Podology: the podology analysis page, reached from the podology IoT page's analysis button with
//! the device in navigation state (spec §2): the live plate and the clinical workspace (captures,
//! history, previews). Without a device it returns to /devices after 100 ms.

import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { oidOf } from '../../lib/api';
import { deviceTypesAtom, typeInfo } from '../../lib/deviceTypes';
import { deviceFromState, useLeaveWhen } from '../../lib/deviceRoute';
import { DevicePageFrame } from './DevicePageFrame';
import type { RendererFactory } from './HeatMap';
import { LiveMapPanel } from './LiveMapPanel';

export function PodologyAnalysisPage({ createRenderer }: { createRenderer?: RendererFactory }) {
  const { t } = useTranslation();
  const location = useLocation();
  const device = useMemo(() => deviceFromState(location.state), [location.state]);
  const info = typeInfo(useAtomValue(deviceTypesAtom), device?.deviceType);
  useLeaveWhen(!device);
  if (!device) return null;
  if (!info) return <div className="page-loading" role="status">{t('pages.loading')}</div>;
  const id = oidOf(device._id) as string;
  return (
    <DevicePageFrame device={device} info={info} live={[id]}>
      <h2 className="page-subtitle">{t('pages.podologyAnalysis')}</h2>
      <LiveMapPanel deviceId={id} createRenderer={createRenderer} />
    </DevicePageFrame>
  );
}
