//! The per-family page registry: the hub's table names each type's page family; this maps a family
//! to its page component. Every family of the table has a page (a test checks it).

import type { ComponentType } from 'react';
import type { PageFamily } from '../../lib/deviceTypes';
import type { DevicePageProps } from './DevicePageFrame';
import { ForcePage } from './pages/ForcePage';
import { HorsePage } from './pages/HorsePage';
import { MatPage } from './pages/MatPage';
import { RehabPage } from './pages/RehabPage';
import { RoomSetPage } from './pages/RoomSetPage';
import { SeatedPositionPage } from './pages/SeatedPositionPage';
import { SeatingPage } from './pages/SeatingPage';

const NoPage: ComponentType<DevicePageProps> = () => null;

export const PAGE_REGISTRY: Readonly<Record<PageFamily, ComponentType<DevicePageProps>>> = {
  mat: MatPage,
  seating: SeatingPage,
  seatedPosition: SeatedPositionPage,
  rehab: RehabPage,
  horse: HorsePage,
  force: ForcePage,
  roomSet: RoomSetPage,
  none: NoPage,
};
