//! The element of every device route (spec §2). It reads the device from navigation state (an
//! object, or a serialized one), looks its type up in the hub's device-type table and renders the
//! page of the type's family from the page registry. Without a device it returns to /devices after
//! 100 ms; a type the hub does not know is logged as invalid and nothing opens.

import { useAtomValue } from 'jotai';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { oidOf } from '../../lib/api';
import { deviceTypesAtom, deviceTypesErrorAtom, typeInfo } from '../../lib/deviceTypes';
import { deviceFromState, useLeaveWhen } from '../../lib/deviceRoute';
import type { RendererFactory } from './HeatMap';
import { PAGE_REGISTRY } from './registry';
import './device-page.css';

export function DevicePage({ createRenderer }: { createRenderer?: RendererFactory }) {
  const { t } = useTranslation();
  const location = useLocation();
  const device = useMemo(() => deviceFromState(location.state), [location.state]);
  const table = useAtomValue(deviceTypesAtom);
  const tableFailed = useAtomValue(deviceTypesErrorAtom);
  const info = typeInfo(table, device?.deviceType);
  const unknownType = Boolean(device && table && (!info || info.pageFamily === 'none'));

  useEffect(() => {
    if (unknownType) console.error('invalid device type', device?.deviceType);
  }, [unknownType, device]);
  useLeaveWhen(!device || unknownType);

  if (!device || unknownType) return null;
  if (!info) {
    return (
      <div className="page-loading" role="status" data-testid="device-types-loading">
        {tableFailed ? t('pages.typesFailed') : t('pages.loading')}
      </div>
    );
  }
  const Page = PAGE_REGISTRY[info.pageFamily];
  return <Page key={oidOf(device._id)} device={device} info={info} createRenderer={createRenderer} />;
}
