import { describe, expect, it } from 'vitest';
import PRESSURE_SCALE from '../test/fixtures/pressureScale.json';
import DEVICE_TYPES from '../test/fixtures/deviceTypes.json';
import type { PressureScale } from '../api/types';
import {
  calibratedDisplay,
  displayToSteps,
  effectiveUnit,
  formatMmhg,
  formatMmhgReading,
  formatPressure,
  formatPressureReading,
  hubUnitsTo,
  pressureDisplay,
  stepsToDisplay,
  unitsFromHub,
} from './pressureUnits';

// The hub's own figures (hub/tests/device_types.rs keeps these fixtures equal to what it serves).
const scale = PRESSURE_SCALE as PressureScale;
const perCell = (name: string) => DEVICE_TYPES.find((t) => t.name === name)?.pressureUnitsPerCell;
const fullScale = (name: string) => DEVICE_TYPES.find((t) => t.name === name)?.fullScaleSteps ?? null;

describe('pressure units (issue 22, spec §9)', () => {
  it('converts hub units to mmHg and kPa and back', () => {
    // 255 hub units are 1 kPa (a byte over 0–1 kPa), 7.50062 mmHg.
    expect(hubUnitsTo(255, 'kPa', scale)).toBeCloseTo(1, 12);
    expect(hubUnitsTo(255, 'mmHg', scale)).toBeCloseTo(7.50062, 5);
    expect(unitsFromHub(hubUnitsTo(123, 'mmHg', scale), 'mmHg', scale)).toBeCloseTo(123, 9);
    expect(unitsFromHub(1, 'kPa', scale)).toBeCloseTo(255, 9);
  });

  it('shows a bed mat step as 0.4 mmHg by default and converts both ways per device', () => {
    const bed = pressureDisplay(scale, perCell('Mattress Mat IoT'), null, false)!;
    expect(bed.unit).toBe('mmHg');
    expect(stepsToDisplay(250, bed)).toBeCloseTo(100, 9);
    expect(displayToSteps(100, bed)).toBeCloseTo(250, 9);
    const kpa = pressureDisplay(scale, perCell('Mattress Mat IoT'), 'kPa', false)!;
    expect(stepsToDisplay(250, kpa)).toBeCloseTo(13.332, 3);
    expect(displayToSteps(stepsToDisplay(77, kpa), kpa)).toBeCloseTo(77, 9);
    // A podology plate's step is 1 kPa, a seat's 1 mmHg, a floor mat's and the Wellness Mat's 1 mmHg
    // (a lying body's 90 mmHg peak reads 90 mmHg, not the old count's 2.6).
    expect(stepsToDisplay(210, pressureDisplay(scale, perCell('Podology IoT'), 'kPa', false)!)).toBeCloseTo(210, 9);
    expect(stepsToDisplay(235, pressureDisplay(scale, perCell('Seating Mat IoT'), null, false)!)).toBeCloseTo(235, 9);
    expect(stepsToDisplay(90, pressureDisplay(scale, perCell('Floor Mat'), null, false)!)).toBeCloseTo(90, 9);
    expect(stepsToDisplay(90, pressureDisplay(scale, perCell('Wellness Mat'), 'mmHg', false)!)).toBeCloseTo(90, 9);
  });

  it('the fitness variant shows kPa at 0.06 per step, whatever the user chose', () => {
    const fit = pressureDisplay(scale, perCell('Fitness Mat'), 'mmHg', true)!;
    expect(fit).toMatchObject({ unit: 'kPa', fitness: true });
    expect(stepsToDisplay(100, fit)).toBeCloseTo(6, 12);
    expect(formatPressure(100, fit, 'en')).toBe('6.00\u00a0kPa');
  });

  it('reads a weighed capture through its calibration, in the unit the user chose (spec §9)', () => {
    const calibration = { weightKg: 70, loadShare: 0.7, cellAreaCm2: 4, kpaPerStep: 0.1 };
    const plate = calibratedDisplay(pressureDisplay(scale, perCell('Podology IoT'), null, false), calibration, scale)!;
    // 150 steps × 0.1 kPa = 15 kPa = 112.5 mmHg.
    expect(stepsToDisplay(150, plate)).toBeCloseTo(112.509, 3);
    expect(formatPressure(150, plate, 'es')).toBe('112,5\u00a0mmHg');
    const kpa = calibratedDisplay(pressureDisplay(scale, perCell('Podology IoT'), 'kPa', false), calibration, scale)!;
    expect(stepsToDisplay(150, kpa)).toBeCloseTo(15, 9);
    // Without a calibration the device's scale; the fitness variant keeps its 0.06.
    const plain = pressureDisplay(scale, perCell('Podology IoT'), null, false);
    expect(calibratedDisplay(plain, null, scale)).toBe(plain);
    const fit = pressureDisplay(scale, perCell('Fitness Mat'), null, true);
    expect(calibratedDisplay(fit, calibration, scale)).toBe(fit);
  });

  it('writes the mmHg figures of seats and beds in the chosen unit', () => {
    const mmhg = pressureDisplay(scale, perCell('Seating Mat IoT'), null, false);
    expect(formatMmhg(112.5, mmhg, scale, 'en')).toBe('112.5\u00a0mmHg');
    const kpa = pressureDisplay(scale, perCell('Seating Mat IoT'), 'kPa', false);
    expect(formatMmhg(112.5, kpa, scale, 'fr')).toBe('15,00\u00a0kPa');
    expect(formatMmhg(112.5, null, scale, 'en')).toBe('—');
  });

  it('has no display for readings that are not pressures, nor before the hub has answered', () => {
    expect(perCell('Force Mat')).toBeNull();
    expect(pressureDisplay(scale, perCell('Force Mat'), 'mmHg', false)).toBeNull();
    expect(pressureDisplay(null, 1, 'mmHg', false)).toBeNull();
  });

  it('falls back to the hub default for a unit it does not offer', () => {
    expect(effectiveUnit(scale, null)).toBe(scale.defaultUnit);
    expect(effectiveUnit(scale, 'psi' as never)).toBe('mmHg');
    expect(effectiveUnit(scale, 'kPa')).toBe('kPa');
  });

  it('writes the value in the user language with its unit', () => {
    const bed = pressureDisplay(scale, perCell('Mattress Mat IoT'), 'mmHg', false)!;
    expect(formatPressure(31, bed, 'es')).toBe('12,4\u00a0mmHg');
    expect(formatPressure(31, bed, 'ja')).toBe('12.4\u00a0mmHg');
    const kpa = pressureDisplay(scale, perCell('Mattress Mat IoT'), 'kPa', false)!;
    expect(formatPressure(31, kpa, 'fr')).toBe('1,65\u00a0kPa');
    expect(formatPressure(Number.NaN, kpa, 'en')).toBe('—');
  });

  it('marks a reading at the sensor\'s full scale as "at least" it', () => {
    const bed = pressureDisplay(scale, perCell('Mattress Mat IoT'), null, false, fullScale('Mattress Mat IoT'))!;
    expect(bed.fullScaleSteps).toBe(255);
    expect(formatPressureReading(255, bed, 'en')).toBe('≥\u00a0102.0\u00a0mmHg');
    expect(formatPressureReading(254, bed, 'en')).toBe('101.6\u00a0mmHg');
    const seatInKpa = pressureDisplay(scale, perCell('Seating Mat IoT'), 'kPa', false, fullScale('Seating Mat IoT'))!;
    expect(formatPressureReading(255, seatInKpa, 'en')).toBe('≥\u00a034.00\u00a0kPa');
    // Without the hub's word the value stands alone; a force channel has no full scale served.
    expect(formatPressureReading(255, { ...bed, fullScaleSteps: null }, 'en')).toBe('102.0\u00a0mmHg');
    expect(fullScale('Force Mat')).toBeNull();
  });

  it('marks a seat\'s or bed\'s maximum, and a peak on the same cell, "at least" when the result says it saturated', () => {
    const seat = pressureDisplay(scale, perCell('Seating Mat IoT'), null, false, fullScale('Seating Mat IoT'))!;
    // The right ischial peak is the saturated cell (257.9 mmHg through a weighed calibration); the left one is not.
    expect(formatMmhgReading(257.9, 257.9, true, seat, scale, 'en')).toBe('≥\u00a0257.9\u00a0mmHg');
    expect(formatMmhgReading(204.3, 257.9, true, seat, scale, 'en')).toBe('204.3\u00a0mmHg');
    expect(formatMmhgReading(257.9, 257.9, false, seat, scale, 'en')).toBe('257.9\u00a0mmHg');
    expect(formatMmhgReading(257.9, 257.9, true, null, scale, 'en')).toBe('—');
  });
});
