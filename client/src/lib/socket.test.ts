import { decode, encode } from '@msgpack/msgpack';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAppStore, deviceConfFamily, deviceIdsAtom, deviceViewFamily, socketLostAtMsAtom, socketStatusAtom } from './devicesStore';
import { BLANK_AFTER_MS } from './liveMaps';
import { LiveMapStore } from './liveMaps';
import { toastsAtom } from './notifications';
import { ALARM_TOAST_MS } from './alarms';
import { SocketClient } from './socket';

/** A stand-in for the browser WebSocket that records what the client sends. */
class FakeWebSocket {
  static instances: FakeWebSocket[] = [];
  readyState = 0;
  binaryType = 'blob';
  sent: Array<{ event: string; data: unknown }> = [];
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(public url: string) {
    FakeWebSocket.instances.push(this);
  }
  send(data: Uint8Array) {
    expect(data).toBeInstanceOf(Uint8Array);
    this.sent.push(decode(data) as { event: string; data: unknown });
  }
  close() {
    this.readyState = 3;
  }
  // test helpers
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(event: string, data: unknown) {
    const bytes = encode({ event, data });
    // Hand over a standalone ArrayBuffer, as a browser with binaryType 'arraybuffer' does.
    this.onmessage?.({ data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  events() {
    return this.sent.map((m) => m.event);
  }
}

const last = () => FakeWebSocket.instances[FakeWebSocket.instances.length - 1];

function setup(extra: Partial<ConstructorParameters<typeof SocketClient>[0]> = {}) {
  const store = createAppStore();
  const liveMaps = new LiveMapStore();
  const client = new SocketClient({
    store,
    liveMaps,
    getToken: () => 'tok-123',
    url: 'ws://hub.test/ws',
    WebSocketImpl: FakeWebSocket as unknown as typeof WebSocket,
    backoff: { initialMs: 100, maxMs: 1000 },
    random: () => 1,
    ...extra,
  });
  return { store, liveMaps, client };
}

describe('socket client', () => {
  beforeEach(() => {
    FakeWebSocket.instances = [];
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('alarmOn raises the error toast once, with the device name in upper case', () => {
    const { client, store } = setup();
    client.connect();
    const ws = last();
    ws.open();
    ws.receive('authenticated', { userId: 'u', companyId: 'c' });
    const alarm = { deviceId: 'm1', name: 'Bed 101-a', alarmId: 7, kind: 'Ulcer Risk', raisedAtMs: 1 };
    ws.receive('alarmOn', alarm);
    ws.receive('alarmOn', alarm);
    expect(store.get(toastsAtom)).toEqual([expect.objectContaining({ kind: 'error', key: 'alarmOn', params: { device: 'BED 101-A' } })]);
    // Another alarm of the same device is a new toast.
    ws.receive('alarmOn', { ...alarm, alarmId: 8 });
    expect(store.get(toastsAtom)).toHaveLength(2);
    vi.advanceTimersByTime(ALARM_TOAST_MS);
    expect(store.get(toastsAtom)).toEqual([]);
  });

  it('sends authenticate first, then the subscriptions', () => {
    const { client } = setup();
    client.joinCompany();
    client.joinUser('dev1');
    client.connect();
    const ws = last();
    expect(ws.url).toBe('ws://hub.test/ws');
    expect(ws.binaryType).toBe('arraybuffer');
    ws.open();
    expect(ws.sent).toEqual([{ event: 'authenticate', data: { token: 'tok-123' } }]);
    ws.receive('authenticated', { userId: 'u1', companyId: 'c1' });
    expect(ws.events()).toEqual(['authenticate', 'joinCompany', 'joinUser']);
    expect(ws.sent[2].data).toEqual({ deviceId: 'dev1' });
  });

  it('decodes deviceConf into the device atoms', () => {
    const { client, store } = setup();
    client.connect();
    last().open();
    last().receive('authenticated', {});
    last().receive('deviceConf', {
      deviceId: 'dev9',
      hardwareSerial: 'SN9',
      deviceType: 'Mattress Mat IoT',
      name: 'MAT-9',
      deviceFunctional: true,
      patientStatus: 'Ulcer Risk',
      stateCode: 2,
      cardStatus: 'Alarm',
    });
    expect(store.get(deviceIdsAtom)).toEqual(['dev9']);
    expect(store.get(deviceConfFamily('dev9'))).toMatchObject({ deviceId: 'dev9', cardStatus: 'Alarm', name: 'MAT-9' });
    expect(store.get(deviceViewFamily('dev9'))).toMatchObject({ cardStatus: 'Alarm', deviceType: 'Mattress Mat IoT' });
    last().receive('deviceConf', { deviceId: 'dev9', deviceFunctional: true, stateCode: 0, cardStatus: 'Correct' });
    expect(store.get(deviceViewFamily('dev9')).cardStatus).toBe('Correct');
    expect(store.get(deviceConfFamily('dev9'))?.hardwareSerial).toBe('SN9');
  });

  it('decodes pressure maps into the live-map store, cells as bytes', () => {
    const { client, liveMaps } = setup();
    client.connect();
    last().open();
    last().receive('authenticated', {});
    const cells = new Uint8Array(16 * 16);
    cells[17] = 250;
    last().receive('pressureMap_SAToFront', {
      deviceId: 'dev1',
      seq: 42,
      deviceTimeMs: 1000,
      hubTimeMs: 1003,
      rows: 16,
      cols: 16,
      bytesPerCell: 1,
      cells,
      presence: 'PRESENCE',
      blank: false,
    });
    const f = liveMaps.get('dev1');
    expect(f).toMatchObject({ seq: 42, rows: 16, cols: 16, presence: 'PRESENCE', blank: false });
    expect(f?.cells).toBeInstanceOf(Uint8Array);
    expect(f?.cells[17]).toBe(250);
    expect(f?.cells.length).toBe(256);
  });

  it('queues startStreaming until authenticated', () => {
    const { client } = setup();
    client.connect();
    client.startStreaming('dev1', 180);
    last().open();
    expect(last().events()).toEqual(['authenticate']);
    last().receive('authenticated', {});
    expect(last().sent[1]).toEqual({ event: 'startStreaming', data: { deviceId: 'dev1', seconds: 180 } });
  });

  it('sends startStreaming and then streamingRemaining in that order (queued alike)', () => {
    const { client } = setup();
    client.connect();
    client.startStreaming('dev1', 180);
    client.requestStreamingRemaining('dev1');
    last().open();
    last().receive('authenticated', {});
    expect(last().sent.slice(1)).toEqual([
      { event: 'startStreaming', data: { deviceId: 'dev1', seconds: 180 } },
      { event: 'streamingRemaining', data: { deviceId: 'dev1' } },
    ]);
  });

  it('reconnects with backoff and re-sends joinCompany and joinUser', () => {
    const { client, store } = setup();
    client.connect();
    client.joinCompany();
    client.joinUser('dev1');
    client.joinUser('dev2');
    client.leaveUser('dev2');
    last().open();
    last().receive('authenticated', {});
    expect(store.get(socketStatusAtom)).toBe('open');
    last().drop();
    expect(store.get(socketStatusAtom)).toBe('reconnecting');
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(100);
    expect(FakeWebSocket.instances).toHaveLength(2);
    last().drop();
    vi.advanceTimersByTime(199);
    expect(FakeWebSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(3);
    const ws = last();
    ws.open();
    ws.receive('authenticated', {});
    expect(ws.events()).toEqual(['authenticate', 'joinCompany', 'joinUser']);
    expect(ws.sent[2].data).toEqual({ deviceId: 'dev1' });
    expect(store.get(socketStatusAtom)).toBe('open');
  });

  it('a lost socket keeps the last maps (stale, since when it was lost) and makes them live again once back', () => {
    const { client, store, liveMaps } = setup();
    client.connect();
    client.joinUser('dev1');
    last().open();
    last().receive('authenticated', {});
    vi.setSystemTime(50_000);
    last().receive('pressureMap_SAToFront', {
      deviceId: 'dev1',
      seq: 7,
      deviceTimeMs: 1,
      hubTimeMs: 1,
      rows: 1,
      cols: 2,
      bytesPerCell: 1,
      cells: new Uint8Array([3, 4]),
      presence: 'PRESENCE',
      blank: false,
    });
    expect(store.get(socketLostAtMsAtom)).toBeNull();
    vi.setSystemTime(51_000);
    last().drop();
    expect(store.get(socketLostAtMsAtom)).toBe(51_000);
    // Failed attempts for a minute: the lost moment stays the first one, the map is not blanked.
    vi.advanceTimersByTime(60_000);
    expect(store.get(socketStatusAtom)).toBe('reconnecting');
    expect(store.get(socketLostAtMsAtom)).toBe(51_000);
    expect(liveMaps.get('dev1')).toMatchObject({ seq: 7, blank: false, presence: 'PRESENCE', receivedAtMs: 50_000 });
    last().open();
    last().receive('authenticated', {});
    expect(store.get(socketStatusAtom)).toBe('open');
    expect(store.get(socketLostAtMsAtom)).toBeNull();
    // Live again: a mat that sends nothing more is blanked after the usual 5 s.
    vi.advanceTimersByTime(BLANK_AFTER_MS);
    expect(liveMaps.get('dev1')?.blank).toBe(true);
  });

  it('an unauthorized close stops reconnecting and reports it', () => {
    const onUnauthorized = vi.fn();
    const { client, store } = setup({ onUnauthorized });
    client.connect();
    last().open();
    last().receive('error', { error: 'unauthorized', message: 'bad token' });
    last().drop(4401);
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(onUnauthorized).toHaveBeenCalled();
    expect(store.get(socketStatusAtom)).toBe('down');
  });

  it('a hub that dies under the page: reconnecting until a live hub answers, then every join again (issue 25)', () => {
    const { client, store } = setup();
    client.connect();
    client.joinCompany();
    client.joinUser('bed1');
    last().open();
    last().receive('authenticated', {});
    // The hub behind the balancer is killed: the socket closes abnormally.
    last().drop(1006);
    expect(store.get(socketStatusAtom)).toBe('reconnecting');
    // Meanwhile the page asks for a stream: it waits for the new connection.
    client.startStreaming('bed1', 120);
    // The balancer has not noticed yet: the first attempts fail as well, and stay 'reconnecting'.
    vi.advanceTimersByTime(100);
    last().drop(1006);
    vi.advanceTimersByTime(200);
    expect(store.get(socketStatusAtom)).toBe('reconnecting');
    last().drop(1006);
    vi.advanceTimersByTime(400);
    expect(FakeWebSocket.instances).toHaveLength(4);
    // The same address, where the balancer now picks a live hub.
    expect(new Set(FakeWebSocket.instances.map((ws) => ws.url))).toEqual(new Set(['ws://hub.test/ws']));
    const ws = last();
    ws.open();
    expect(store.get(socketStatusAtom)).toBe('reconnecting');
    ws.receive('authenticated', {});
    expect(store.get(socketStatusAtom)).toBe('open');
    expect(ws.sent).toEqual([
      { event: 'authenticate', data: { token: 'tok-123' } },
      { event: 'joinCompany', data: {} },
      { event: 'joinUser', data: { deviceId: 'bed1' } },
      { event: 'startStreaming', data: { deviceId: 'bed1', seconds: 120 } },
    ]);
    // A healthy connection starts the backoff over: the next drop is retried after the first delay.
    ws.drop(1006);
    vi.advanceTimersByTime(100);
    expect(FakeWebSocket.instances).toHaveLength(5);
  });

  it('the backoff is capped, so a long outage is retried every maxMs', () => {
    const { client } = setup();
    client.connect();
    for (let i = 0; i < 8; i += 1) {
      last().drop(1006);
      vi.advanceTimersByTime(1000);
    }
    expect(FakeWebSocket.instances).toHaveLength(9);
  });

  it('close() ends the session without reconnecting', () => {
    const { client, store } = setup();
    client.connect();
    last().open();
    client.close();
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(store.get(socketStatusAtom)).toBe('idle');
  });

  it('rejects a message that is not a {event, data} map', () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { client, store } = setup();
    client.connect();
    last().open();
    const bytes = encode(['deviceConf', { deviceId: 'd1' }]);
    last().onmessage?.({ data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
    expect(err).toHaveBeenCalled();
    expect(store.get(deviceIdsAtom)).toEqual([]);
    expect(client.isAuthenticated).toBe(false);
  });
});
