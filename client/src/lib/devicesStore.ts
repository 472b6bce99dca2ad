//! Live device state in jotai: the device list, one atom per device for its record and one for its
//! configuration/status. REST polls and socket `deviceConf` events both write here, outside React.

import { atom, createStore } from 'jotai';
import { oidOf, type CardStatus, type DeviceConfDto, type RepositioningTier, type UserDevice } from './api';
import { family } from './family';
import { cardStatusOf } from './status';

export type AppStore = ReturnType<typeof createStore>;

/** Ids of the company's devices in the order the hub listed them. */
export const deviceIdsAtom = atom<string[]>([]);

/** True once the first device list has arrived. */
export const devicesLoadedAtom = atom(false);

export const deviceInfoFamily = family((_id: string) => atom<UserDevice | null>(null));

/** Configuration as last seen, with `deviceId` normalised to a string. */
export type DeviceConf = Omit<DeviceConfDto, 'deviceId'> & { deviceId: string };

export const deviceConfFamily = family((_id: string) => atom<DeviceConf | null>(null));

export interface DeviceView {
  id: string;
  name: string;
  deviceType: string;
  bed: string;
  parent: string | null;
  functional: boolean;
  cardStatus: CardStatus;
  sides: DeviceConf['sides'];
  repositioning: RepositioningTier;
  unattendedAlarm: boolean;
  device: UserDevice | null;
}

/** Record and status of one device combined, as the cards and device pages show it. */
export const deviceViewFamily = family((id: string) =>
  atom<DeviceView>((get) => {
    const device = get(deviceInfoFamily(id));
    const conf = get(deviceConfFamily(id));
    const deviceType = device?.deviceType ?? conf?.deviceType ?? '';
    return {
      id,
      name: device?.name ?? conf?.name ?? '',
      deviceType,
      bed: device?.bed ?? '',
      parent: oidOf(device?.parent),
      functional: Boolean(conf?.deviceFunctional),
      cardStatus: cardStatusOf(conf),
      sides: conf?.sides,
      repositioning: conf?.repositioning ?? 'ok',
      unattendedAlarm: conf?.unattendedAlarm === true,
      device,
    };
  }),
);

/** The browser socket: not started, first connecting, open, lost and being reconnected (with
 * backoff; subscriptions are re-sent once it is back), or down for good (the token was refused). */
export type SocketStatus = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'down';
export const socketStatusAtom = atom<SocketStatus>('idle');
/** When the open socket was lost (browser clock, ms); null while it is open or was never open.
 * What the pages show while reconnecting is as of this moment (`lib/liveLink`). */
export const socketLostAtMsAtom = atom<number | null>(null);

/** Replaces the device list with what GET /api/userDevices returned. */
export function applyUserDevices(store: AppStore, devices: UserDevice[]): void {
  const ids: string[] = [];
  for (const d of devices) {
    const id = oidOf(d._id);
    if (!id) continue;
    ids.push(id);
    store.set(deviceInfoFamily(id), d);
  }
  // Devices known only from a status message stay listed after the ones the REST list returned.
  const previous = store.get(deviceIdsAtom);
  for (const id of previous) if (!ids.includes(id) && store.get(deviceConfFamily(id))) ids.push(id);
  store.set(deviceIdsAtom, ids);
  store.set(devicesLoadedAtom, true);
}

/** Merges one configuration (REST or socket form) into its device's atom. */
export function applyDeviceConf(store: AppStore, dto: DeviceConfDto): string | null {
  const id = oidOf(dto.deviceId);
  if (!id) return null;
  const a = deviceConfFamily(id);
  const prev = store.get(a);
  store.set(a, { ...(prev ?? {}), ...dto, deviceId: id });
  const ids = store.get(deviceIdsAtom);
  if (!ids.includes(id)) store.set(deviceIdsAtom, [...ids, id]);
  return id;
}

/** Seeds a device record (for example from navigation state) without overwriting a newer one. */
export function seedDevice(store: AppStore, device: UserDevice): void {
  const id = oidOf(device._id);
  if (!id) return;
  if (!store.get(deviceInfoFamily(id))) store.set(deviceInfoFamily(id), device);
}

export function createAppStore(): AppStore {
  return createStore();
}

/** Forgets every device of the previous session (logout), so the next user starts empty. */
export function resetDeviceState(store: AppStore): void {
  store.set(deviceIdsAtom, []);
  store.set(devicesLoadedAtom, false);
  for (const id of deviceInfoFamily.keys()) store.set(deviceInfoFamily(id), null);
  for (const id of deviceConfFamily.keys()) store.set(deviceConfFamily(id), null);
}
