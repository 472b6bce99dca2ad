//! Device types (spec §3), the route each one opens (spec §2) and the size of its live map.

export interface DeviceTypeInfo {
  /** Route of the device page, or null when the type has a card but no page yet. */
  route: string | null;
  rows: number;
  cols: number;
  /** True for pages that show a live pressure map through the generic live page. */
  live: boolean;
}

const mat = (route: string, rows: number, cols = rows): DeviceTypeInfo => ({ route, rows, cols, live: true });

/** Spec §2 "Map sizes": IoT mattress, podology, rehab and pressure 48×48; seating IoT 16×16; seating
 * XL and horse 24×24; legacy mattress 16×16; floor recognition 48×48; seating 16×16; others 24×24. */
export const DEVICE_TYPES: Readonly<Record<string, DeviceTypeInfo>> = {
  'Mattress Mat': mat('/mattressMat', 16),
  'Mattress Mat IoT': mat('/mattressMatIoT', 48),
  'Seating Mat': mat('/seatingMat', 16),
  'Seating Mat IoT': mat('/SeatingMatIoT', 16),
  'Seating Mat IoT XL': mat('/SeatingMatIoTXL', 24),
  'Pressure Mat IoT': mat('/PressureMatIoT', 48),
  'Floor Mat': mat('/floorMat', 24),
  'Floor Mat Recognition': mat('/FloorMatRecognition', 48),
  'Wellness Mat': mat('/wellnessMat', 24),
  'Health Mat': mat('/healthMat', 24),
  'Fitness Mat': mat('/fitnessMat', 24),
  'Force Mat': mat('/ForceMat', 24),
  'Sleep Mat': mat('/sleepMat', 24),
  Podology: mat('/Podiatry', 48),
  'Podology IoT': mat('/PodiatryIoT', 48),
  Shapes: mat('/shapes', 24),
  'Sensing Horse': mat('/SensingHorse', 24),
  'North Sky': mat('/NorthSky', 24),
  'Rehab Mat': mat('/RehabMat', 48),
  // Room-set parents get a card; their settings page (/roomSettings) is not built yet.
  'Room Set': { route: null, rows: 0, cols: 0, live: false },
};

export const SUBDEVICE_TYPE = 'Sensing Horse Subdevice';

export function deviceTypeInfo(deviceType: string): DeviceTypeInfo | undefined {
  return Object.prototype.hasOwnProperty.call(DEVICE_TYPES, deviceType) ? DEVICE_TYPES[deviceType] : undefined;
}

/** The route a card opens. `undefined` = the type is not recognised; `null` = known, no page yet. */
export function routeForDeviceType(deviceType: string): string | null | undefined {
  return deviceTypeInfo(deviceType)?.route;
}

/** Every route served by the generic live page, with the device type it belongs to. */
export const LIVE_ROUTES: ReadonlyArray<{ path: string; deviceType: string }> = Object.entries(DEVICE_TYPES)
  .filter(([, info]) => info.live && info.route)
  .map(([deviceType, info]) => ({ path: info.route as string, deviceType }));

export function deviceTypeForRoute(path: string): string | undefined {
  return LIVE_ROUTES.find((r) => r.path === path)?.deviceType;
}
