import { describe, expect, it } from 'vitest';
import { deviceTypeForRoute, deviceTypeInfo, LIVE_ROUTES, routeForDeviceType } from './deviceTypes';

describe('device type routes (spec §2)', () => {
  it.each([
    ['Mattress Mat', '/mattressMat'],
    ['Mattress Mat IoT', '/mattressMatIoT'],
    ['Seating Mat', '/seatingMat'],
    ['Seating Mat IoT', '/SeatingMatIoT'],
    ['Seating Mat IoT XL', '/SeatingMatIoTXL'],
    ['Pressure Mat IoT', '/PressureMatIoT'],
    ['Floor Mat', '/floorMat'],
    ['Floor Mat Recognition', '/FloorMatRecognition'],
    ['Health Mat', '/healthMat'],
    ['Wellness Mat', '/wellnessMat'],
    ['Fitness Mat', '/fitnessMat'],
    ['Force Mat', '/ForceMat'],
    ['Sleep Mat', '/sleepMat'],
    ['Podology', '/Podiatry'],
    ['Podology IoT', '/PodiatryIoT'],
    ['Shapes', '/shapes'],
    ['Sensing Horse', '/SensingHorse'],
    ['North Sky', '/NorthSky'],
    ['Rehab Mat', '/RehabMat'],
  ])('%s opens %s', (type, route) => {
    expect(routeForDeviceType(type)).toBe(route);
    expect(deviceTypeForRoute(route)).toBe(type);
  });

  it('unknown types have no route', () => {
    expect(routeForDeviceType('Toaster')).toBeUndefined();
    expect(routeForDeviceType('toString')).toBeUndefined();
    expect(routeForDeviceType('mattress mat iot')).toBeUndefined();
  });

  it('room sets are known but open nothing yet', () => {
    expect(routeForDeviceType('Room Set')).toBeNull();
  });

  it.each([
    ['Mattress Mat IoT', 48, 48],
    ['Podology IoT', 48, 48],
    ['Seating Mat IoT', 16, 16],
    ['Seating Mat IoT XL', 24, 24],
    ['Sensing Horse', 24, 24],
    ['Rehab Mat', 48, 48],
    ['Floor Mat Recognition', 48, 48],
  ])('%s map is %i×%i', (type, rows, cols) => {
    expect(deviceTypeInfo(type)).toMatchObject({ rows, cols });
  });

  it('every live route is unique', () => {
    const paths = LIVE_ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.length).toBe(19);
  });
});
