import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW_OPTIONS, type ViewOptions } from '../../lib/heatmap/viewOptions';
import { fromLayoutDto } from './layoutSettings';

describe('layout settings ↔ view options', () => {
  it('reads the hub defaults as the default options', () => {
    const hubDefaults = {
      mapColorIndex: 0,
      smoothenIndex: 0,
      thresholdValue: 0,
      contoursEnabled: false,
      is3Dmode: false,
      manualScale: false,
      manualScaleValue: 200,
      cameraPosition: { up: { x: 0, y: 0, z: 1 }, center: { x: 0, y: 0, z: 0 }, eye: { x: 1.25, y: 1.25, z: 1.25 } },
    };
    expect(fromLayoutDto(hubDefaults)).toEqual(DEFAULT_VIEW_OPTIONS);
  });

  it('round-trips every option', () => {
    const o: ViewOptions = {
      mapColorIndex: 7,
      smoothenIndex: 2,
      thresholdValue: 35,
      contoursEnabled: true,
      is3Dmode: false,
      cameraPosition: { up: { x: 0, y: 0, z: 1 }, center: { x: 0.1, y: 0, z: 0 }, eye: { x: 2, y: -1, z: 0.5 } },
      manualScale: true,
      manualScaleValue: 650,
      pressureUnit: 'kPa',
    };
    expect(fromLayoutDto(JSON.parse(JSON.stringify(o)))).toEqual(o);
  });

  it('takes defaults for missing or malformed fields and applies the limits', () => {
    expect(fromLayoutDto(null)).toEqual(DEFAULT_VIEW_OPTIONS);
    const o = fromLayoutDto({ thresholdValue: 90, manualScaleValue: null, mapColorIndex: 20, cameraPosition: { eye: { x: 'a' } } } as never);
    expect(o.thresholdValue).toBe(75);
    expect(o.manualScaleValue).toBe(200);
    expect(o.mapColorIndex).toBe(7);
    expect(o.cameraPosition.eye).toEqual({ x: 1.25, y: 1.25, z: 1.25 });
  });
});
