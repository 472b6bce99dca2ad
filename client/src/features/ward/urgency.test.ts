import { describe, expect, it } from 'vitest';
import { boardOrder, countdownShown, patientLabel, secondsLeft, urgencyOf, type OrderedTile } from './urgency';
import { listUnits, unitOf, unitPath } from './unit';

const tile = (id: string, over: Partial<OrderedTile> = {}): OrderedTile => ({
  id,
  label: id,
  cardStatus: 'Correct',
  tier: 'ok',
  alarm: null,
  dueInSeconds: 3600,
  ...over,
});

describe('urgency', () => {
  it('names each state', () => {
    expect(urgencyOf(tile('a', { cardStatus: 'Missing' }))).toBe('missing');
    expect(urgencyOf(tile('a', { tier: 'overdue' }))).toBe('overdue');
    expect(urgencyOf(tile('a', { tier: 'due' }))).toBe('due');
    expect(urgencyOf(tile('a', { tier: 'dueSoon' }))).toBe('dueSoon');
    expect(urgencyOf(tile('a'))).toBe('fine');
    expect(urgencyOf(tile('a', { cardStatus: 'Offline' }))).toBe('offline');
    // A waiting Ulcer Risk alarm is at least "due" (attended, the tier speaks again).
    expect(urgencyOf(tile('a', { cardStatus: 'Alarm', tier: 'ok', alarm: { kind: 'Ulcer Risk', raisedAtMs: 1 } }))).toBe('due');
    expect(urgencyOf(tile('a', { cardStatus: 'Alarm', tier: 'overdue', alarm: { kind: 'Ulcer Risk', raisedAtMs: 1 } }))).toBe('overdue');
  });

  it('a never-connected device is Offline only, whatever tier it last had', () => {
    expect(urgencyOf(tile('a', { cardStatus: 'Offline', tier: 'ok' }))).toBe('offline');
    expect(urgencyOf(tile('a', { cardStatus: 'Offline', tier: 'overdue' }))).toBe('offline');
  });

  it('a waiting alarm keeps an offline device up', () => {
    expect(urgencyOf(tile('a', { cardStatus: 'Offline', alarm: { kind: 'Missing', raisedAtMs: 1 } }))).toBe('missing');
    expect(urgencyOf(tile('a', { cardStatus: 'Offline', alarm: { kind: 'Ulcer Risk', raisedAtMs: 1 } }))).toBe('due');
  });

  it('orders Missing and overdue first, then due, due soon, fine, offline', () => {
    const tiles = [
      tile('offline', { cardStatus: 'Offline' }),
      tile('fine'),
      tile('dueSoon', { tier: 'dueSoon' }),
      tile('overdue', { tier: 'overdue', dueInSeconds: 0 }),
      tile('due', { tier: 'due', dueInSeconds: 0 }),
      tile('missing', { cardStatus: 'Missing' }),
    ];
    expect(boardOrder(tiles).map((t) => t.id)).toEqual(['missing', 'overdue', 'due', 'dueSoon', 'fine', 'offline']);
  });

  it('within a group: the longest-waiting alarm, then the nearest turn, then the bed in number order', () => {
    const tiles = [
      tile('b', { label: '10', dueInSeconds: 600 }),
      tile('a', { label: '9', dueInSeconds: 600 }),
      tile('c', { label: '1', dueInSeconds: 1200 }),
      tile('d', { label: '2', dueInSeconds: 60 }),
    ];
    expect(boardOrder(tiles).map((t) => t.label)).toEqual(['2', '9', '10', '1']);
    const alarms = [
      tile('new', { cardStatus: 'Missing', alarm: { kind: 'Missing', raisedAtMs: 2000 } }),
      tile('old', { cardStatus: 'Missing', alarm: { kind: 'Missing', raisedAtMs: 1000 } }),
      tile('late', { tier: 'overdue' }),
    ];
    expect(boardOrder(alarms).map((t) => t.id)).toEqual(['old', 'new', 'late']);
  });

  it('counts down from a reading, never below zero', () => {
    expect(secondsLeft(600, 1_000, 1_000)).toBe(600);
    expect(secondsLeft(600, 1_000, 61_000)).toBe(540);
    expect(secondsLeft(600, 1_000, 700_000)).toBe(0);
    expect(secondsLeft(null, 1_000, 2_000)).toBeNull();
    expect(countdownShown(3 * 3600 - 1)).toBe(2 * 3600 + 59 * 60);
    expect(countdownShown(600)).toBe(600);
    expect(countdownShown(599)).toBe(599);
  });

  it('shows a patient in full or as initials', () => {
    expect(patientLabel('Ana María López', false)).toBe('Ana María López');
    expect(patientLabel('Ana María López', true)).toBe('A. M. L.');
    expect(patientLabel('  élise   durand ', true)).toBe('É. D.');
    expect(patientLabel('', true)).toBeNull();
    expect(patientLabel(null, false)).toBeNull();
  });
});

describe('units', () => {
  it('are derived from building and floor, in building then floor order', () => {
    expect(unitOf({ building: 'North', floor: '2' })).toBe('North · 2');
    expect(unitOf({ building: ' ', floor: '' })).toBe('');
    const units = listUnits([
      { building: 'North', floor: '10' },
      { building: 'North', floor: '2' },
      { building: '', floor: '' },
      { building: 'East', floor: '1' },
      { building: 'North', floor: '2' },
    ]);
    expect(units.map((u) => [u.key, u.tiles])).toEqual([
      ['East · 1', 1],
      ['North · 2', 2],
      ['North · 10', 1],
      ['', 1],
    ]);
    expect(unitPath('North · 2')).toBe('/ward/North%20%C2%B7%202');
    expect(unitPath('')).toBe('/ward');
  });
});
