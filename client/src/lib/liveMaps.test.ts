import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BLANK_AFTER_MS, LiveMapStore } from './liveMaps';

const frame = (seq: number, extra: Record<string, unknown> = {}) => ({
  deviceId: 'dev1',
  seq,
  deviceTimeMs: seq * 33,
  hubTimeMs: seq * 33,
  rows: 2,
  cols: 2,
  bytesPerCell: 1,
  cells: new Uint8Array([1, 2, 3, 4]),
  presence: 'PRESENCE',
  blank: false,
  ...extra,
});

describe('live map blanking (spec §4: no frame for 5 s)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('blanks the map 5 s after the last frame, not before', () => {
    const store = new LiveMapStore();
    const seen: boolean[] = [];
    store.subscribe('dev1', (f) => seen.push(Boolean(f?.blank)));
    expect(store.write(frame(1))).toBe(true);
    vi.advanceTimersByTime(BLANK_AFTER_MS - 1);
    expect(store.get('dev1')?.blank).toBe(false);
    vi.advanceTimersByTime(1);
    expect(store.get('dev1')?.blank).toBe(true);
    expect(store.get('dev1')?.cells.length).toBe(0);
    expect(seen).toEqual([false, true]);
    expect(BLANK_AFTER_MS).toBe(5000);
  });

  it('every new frame restarts the 5 s', () => {
    const store = new LiveMapStore();
    store.write(frame(1));
    vi.advanceTimersByTime(4000);
    store.write(frame(2));
    vi.advanceTimersByTime(4000);
    expect(store.get('dev1')?.blank).toBe(false);
    expect(store.get('dev1')?.seq).toBe(2);
    vi.advanceTimersByTime(1000);
    expect(store.get('dev1')?.blank).toBe(true);
  });

  it('while the socket is down the last frame is kept (stale, not blank); once back, 5 s without a frame blank it', () => {
    const store = new LiveMapStore();
    vi.setSystemTime(10_000);
    store.write(frame(1));
    expect(store.get('dev1')?.receivedAtMs).toBe(10_000);
    vi.advanceTimersByTime(1000);
    store.setLive(false);
    vi.advanceTimersByTime(60_000);
    // A minute without the link: the map and its presence are as last seen, not ABSENCE.
    expect(store.get('dev1')).toMatchObject({ blank: false, seq: 1, presence: 'PRESENCE', receivedAtMs: 10_000 });
    store.setLive(true);
    vi.advanceTimersByTime(BLANK_AFTER_MS - 1);
    expect(store.get('dev1')?.blank).toBe(false);
    vi.advanceTimersByTime(1);
    expect(store.get('dev1')?.blank).toBe(true);
  });

  it('a message with blank: true clears at once', () => {
    const store = new LiveMapStore();
    store.write(frame(1));
    store.write(frame(2, { blank: true, cells: new Uint8Array(0), presence: 'ABSENCE' }));
    expect(store.get('dev1')).toMatchObject({ blank: true, seq: 2, presence: 'ABSENCE' });
  });

  it('rejects a frame whose cells do not fill rows × cols × bytesPerCell', () => {
    const store = new LiveMapStore();
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(store.write(frame(1, { bytesPerCell: 2 }))).toBe(false);
    expect(store.get('dev1')).toBeUndefined();
    err.mockRestore();
  });

  it('keeps the shape the frame carries and rejects cells that do not match it exactly', () => {
    const store = new LiveMapStore();
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(store.write(frame(1, { rows: 1, cols: 4 }))).toBe(true);
    expect(store.get('dev1')).toMatchObject({ rows: 1, cols: 4 });
    expect(store.write(frame(2, { rows: 1, cols: 3 }))).toBe(false);
    expect(store.write(frame(3, { bytesPerCell: 3, rows: 1, cols: 1, cells: new Uint8Array(3) }))).toBe(false);
    expect(store.write(frame(4, { rows: 1.5, cols: 2, cells: new Uint8Array(3) }))).toBe(false);
    expect(store.get('dev1')).toMatchObject({ seq: 1, rows: 1, cols: 4 });
    expect(err).toHaveBeenCalledTimes(3);
    err.mockRestore();
  });
});
