//! Generic mat page (mattress, floor, health, wellness, fitness, sleep, podology, pressure mats):
//! the live map with presence and streaming, the device log table, the alarm history where the
//! type raises patient alarms, and, on the podology IoT plate, the analysis button that opens
//! /Podology with the device in navigation state.

import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { oidOf } from '../../../lib/api';
import { AlarmTable } from '../AlarmTable';
import { DeviceLogTable } from '../DeviceLogTable';
import { DevicePageFrame, type DevicePageProps } from '../DevicePageFrame';
import { LiveMapPanel } from '../LiveMapPanel';

export function MatPage({ device, info, createRenderer }: DevicePageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = oidOf(device._id) as string;
  const kind = t(`deviceTypes.${device.deviceType}`, { defaultValue: device.deviceType });
  const analysis = info.analysisRoute ? (
    <button
      type="button"
      className="btn btn-primary"
      data-testid="analysis-button"
      onClick={() => navigate(info.analysisRoute as string, { state: { device } })}
    >
      {t('pages.analysis')}
    </button>
  ) : null;
  return (
    <DevicePageFrame device={device} info={info} live={[id]}>
      <LiveMapPanel deviceId={id} createRenderer={createRenderer} toolbar={analysis} />
      <DeviceLogTable deviceId={id} deviceName={device.name} info={info} />
      {info.repositioningClock ? <AlarmTable deviceId={id} kindLabel={kind} /> : null}
    </DevicePageFrame>
  );
}
