import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import DEVICE_TYPE_TABLE from '../test/fixtures/deviceTypes.json';
import { registrableDeviceTypes } from '../features/admin/deviceTypeOptions';
import { analysisRoutes, hidesMapBelowScroll, pageRoutes, settingsRoutes, tableFromList, typeInfo, type DeviceTypeInfo } from './deviceTypes';

const table = tableFromList(DEVICE_TYPE_TABLE as DeviceTypeInfo[]);

describe('the device-type table from the hub', () => {
  it('looks types up by their exact name only', () => {
    expect(typeInfo(table, 'Podology IoT')?.route).toBe('/PodiatryIoT');
    expect(typeInfo(table, 'podology iot')).toBeUndefined();
    expect(typeInfo(table, 'toString')).toBeUndefined();
    expect(typeInfo(null, 'Podology IoT')).toBeUndefined();
  });

  it('lists each page route once, and the analysis routes', () => {
    const routes = pageRoutes(table);
    expect(new Set(routes).size).toBe(routes.length);
    expect(routes).toHaveLength(19);
    expect(analysisRoutes(table)).toEqual(['/Podology']);
  });
});

/** Generated from the hub's OpenAPI document (`npm run api:types`): the hub's own names, not a copy. */
const GENERATED = join('api', 'schema.ts');

/** Source files of the client that are not tests, fixtures, test helpers or generated. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (path.endsWith(GENERATED)) return [];
    if (statSync(path).isDirectory()) return name === 'test' ? [] : sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

describe('the client keeps no device-type facts of its own', () => {
  const root = resolve(__dirname, '..');
  const files = sourceFiles(root);
  const literals = [
    ...Object.values(table).map((t) => t.name),
    ...Object.values(table).flatMap((t) => [t.route, t.analysisRoute, t.settingsRoute]).filter((r): r is string => Boolean(r)),
  ];

  it('scans the whole source tree', () => {
    expect(files.length).toBeGreaterThan(40);
    expect(files.some((f) => f.endsWith('DeviceCard.tsx'))).toBe(true);
  });

  it.each([...new Set(literals)])('no source file spells %s as a literal', (literal) => {
    const escaped = literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const pattern = new RegExp(`(['"\`])${escaped}\\1`);
    const offenders = files.filter((f) => pattern.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f));
    expect(offenders).toEqual([]);
  });
});

describe('facts derived from the hub table', () => {
  it('spec §2: the map hides below 950 px of scroll on every page family but the seating ones', () => {
    expect(hidesMapBelowScroll(typeInfo(table, 'Mattress Mat IoT'))).toBe(true);
    expect(hidesMapBelowScroll(typeInfo(table, 'Sensing Horse'))).toBe(true);
    expect(hidesMapBelowScroll(typeInfo(table, 'Seating Mat IoT'))).toBe(false);
    expect(hidesMapBelowScroll(typeInfo(table, 'Seating Mat'))).toBe(false);
    expect(hidesMapBelowScroll(undefined)).toBe(false);
  });

  it('the settings routes of spec §2 come from the table', () => {
    expect(settingsRoutes(table).sort()).toEqual(['/deviceSettings', '/roomSettings']);
  });

  it('administrators register every type with a page of its own, not the horse sides', () => {
    const types = registrableDeviceTypes(table);
    expect(types).toContain('Sensing Horse');
    expect(types).toContain('Room Set');
    expect(types).not.toContain('Sensing Horse Subdevice');
    expect(registrableDeviceTypes(null)).toEqual([]);
  });
});
